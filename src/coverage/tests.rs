//! Table-driven behaviour tests: every source, positive and negative, and the
//! evasive variants an agent would try.

use super::*;

/// Expected outcome of one case.
enum Want {
    /// No findings at all.
    Silent,
    /// At least one finding of this severity whose message contains the text.
    Fires(Severity, &'static str),
    /// `compare` returns Err.
    Fails,
}
use Want::*;

struct Case<'a> {
    name: &'static str,
    path: &'static str,
    base: Option<&'a str>,
    head: Option<&'a str>,
    want: Want,
}

const fn case<'a>(
    name: &'static str,
    path: &'static str,
    base: Option<&'a str>,
    head: Option<&'a str>,
    want: Want,
) -> Case<'a> {
    Case {
        name,
        path,
        base,
        head,
        want,
    }
}

const E: Severity = Severity::Error;
const W: Severity = Severity::Warning;

fn check(c: &Case<'_>) -> Result<(), String> {
    let got = compare(c.path, c.base, c.head);
    match (&c.want, &got) {
        (Silent, Ok(f)) if f.is_empty() => Ok(()),
        (Fires(sev, text), Ok(f))
            if f.iter()
                .any(|x| x.severity == *sev && x.message.contains(text)) =>
        {
            Ok(())
        }
        (Fails, Err(_)) => Ok(()),
        _ => Err(format!("case `{}`: got {:#?}", c.name, got)),
    }
}

fn run(cases: &[Case<'_>]) {
    let failures: Vec<String> = cases.iter().filter_map(|c| check(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} failing case(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ------------------------------------------------------------------ jest

const JEST_JS_BASE: &str = r#"/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  coverageThreshold: {
    global: {
      branches: 80,
      functions: 85,
      lines: 90,
      statements: -10,
    },
    './src/api/': { lines: 95 },
  },
};
"#;

#[test]
fn jest_cases() {
    run(&[
        case(
            "lowered global.lines",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 90", "lines: 60")),
            Fires(E, "jest coverageThreshold.global.lines 90 → 60"),
        ),
        case(
            "raised is silent",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 90", "lines: 95")),
            Silent,
        ),
        case(
            "unchanged is silent",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(JEST_JS_BASE),
            Silent,
        ),
        case(
            "reorder and whitespace only",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(
                "module.exports = {\n  coverageThreshold: { './src/api/': {lines: 95},\n    global: { statements: -10, lines: 90, functions: 85, branches: 80 } },\n  testEnvironment: \"node\",\n};\n",
            ),
            Silent,
        ),
        case(
            "negative count raised in magnitude",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("statements: -10", "statements: -50")),
            Fires(E, "statements -10 → -50"),
        ),
        case(
            "negative count tightened",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("statements: -10", "statements: -2")),
            Silent,
        ),
        case(
            "percentage to count is not comparable",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 90", "lines: -1000")),
            Fires(W, "not comparable"),
        ),
        case(
            "per-path threshold lowered",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 95", "lines: 10")),
            Fires(E, "coverageThreshold../src/api/.lines 95 → 10"),
        ),
        case(
            "key commented out",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("      lines: 90,", "      // lines: 90,")),
            Fires(E, "jest coverageThreshold.global.lines removed (was 90)"),
        ),
        case(
            "whole block removed folds into one finding",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some("module.exports = { testEnvironment: 'node' };\n"),
            Fires(E, "removed"),
        ),
        case(
            "replaced by an unknown variable",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(
                "const { thresholds } = require('./cov');\nmodule.exports = { coverageThreshold: thresholds };\n",
            ),
            Fires(
                E,
                "jest coverageThreshold is no longer a literal (`thresholds`)",
            ),
        ),
        case(
            "replaced by a resolvable constant with same values",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(
                "const t = { global: { branches: 80, functions: 85, lines: 90, statements: -10 }, './src/api/': { lines: 95 } };\nmodule.exports = { coverageThreshold: t };\n",
            ),
            Silent,
        ),
        case(
            "resolvable constant with a lower value",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(
                "const t = { global: { branches: 80, functions: 85, lines: 50, statements: -10 }, './src/api/': { lines: 95 } };\nmodule.exports = { coverageThreshold: t };\n",
            ),
            Fires(E, "global.lines 90 → 50"),
        ),
        case(
            "env-driven value",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 90", "lines: Number(process.env.COV || 0)")),
            Fires(E, "no longer a literal"),
        ),
        case(
            "string value zero",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some(&*JEST_JS_BASE.replace("lines: 90", "lines: '0'")),
            Fires(E, "global.lines 90 → 0"),
        ),
        case(
            "ts export default with satisfies",
            "jest.config.ts",
            Some(
                "import type { Config } from 'jest';\nconst config = { coverageThreshold: { global: { lines: 90 } } } satisfies Config;\nexport default config;\n",
            ),
            Some(
                "import type { Config } from 'jest';\nconst config = { coverageThreshold: { global: { lines: 70 } } } satisfies Config;\nexport default config;\n",
            ),
            Fires(E, "global.lines 90 → 70"),
        ),
        case(
            "json config",
            "jest.config.json",
            Some("{\"coverageThreshold\": {\"global\": {\"branches\": 80}}}"),
            Some("{\"coverageThreshold\": {\"global\": {\"branches\": 79.5}}}"),
            Fires(E, "global.branches 80 → 79.5"),
        ),
        case(
            "new ignore pattern",
            "jest.config.js",
            Some("module.exports = { coveragePathIgnorePatterns: ['/node_modules/'] };\n"),
            Some(
                "module.exports = { coveragePathIgnorePatterns: ['/node_modules/', '<rootDir>/src/legacy/'] };\n",
            ),
            Fires(W, "coveragePathIgnorePatterns `<rootDir>/src/legacy/`"),
        ),
        case(
            "removed ignore pattern is silent",
            "jest.config.js",
            Some("module.exports = { coveragePathIgnorePatterns: ['/node_modules/', 'x'] };\n"),
            Some("module.exports = { coveragePathIgnorePatterns: ['/node_modules/'] };\n"),
            Silent,
        ),
        case(
            "negated collectCoverageFrom",
            "jest.config.js",
            Some("module.exports = { collectCoverageFrom: ['src/**/*.js'] };\n"),
            Some(
                "module.exports = { collectCoverageFrom: ['src/**/*.js', '!src/payments/**'] };\n",
            ),
            Fires(W, "collectCoverageFrom `!src/payments/**`"),
        ),
        case(
            "syntax error in head after thresholds",
            "jest.config.js",
            Some(JEST_JS_BASE),
            Some("module.exports = { coverageThreshold: { global: { lines: 90 }\n"),
            Fires(E, "no longer parses"),
        ),
        case(
            "syntax error in a file without thresholds",
            "jest.config.js",
            Some("module.exports = {};\n"),
            Some("module.exports = {\n"),
            Fails,
        ),
        case(
            "config file deleted",
            "jest.config.js",
            Some(JEST_JS_BASE),
            None,
            Fires(
                E,
                "jest coverageThreshold removed; it held global.branches 80",
            ),
        ),
        case(
            "config file added without thresholds",
            "jest.config.js",
            None,
            Some("module.exports = { testEnvironment: 'node' };\n"),
            Silent,
        ),
    ]);
}

const PKG_BASE: &str = r#"{
  "name": "app",
  "scripts": {
    "test": "jest --coverage",
    "cov": "c8 --check-coverage --lines 90 --branches 80 mocha"
  },
  "jest": {
    "coverageThreshold": { "global": { "lines": 90, "branches": 80 } }
  },
  "nyc": { "check-coverage": true, "lines": 95, "exclude": ["test/**"] }
}
"#;

#[test]
fn package_json_cases() {
    run(&[
        case(
            "jest lowered",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("\"lines\": 90", "\"lines\": 50")),
            Fires(E, "jest coverageThreshold.global.lines 90 → 50"),
        ),
        case(
            "nyc check-coverage off",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("\"check-coverage\": true", "\"check-coverage\": false")),
            Fires(E, "nyc check-coverage true → false"),
        ),
        case(
            "nyc lines removed falls back to default 90",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace(", \"lines\": 95", "")),
            Fires(E, "nyc lines removed (was 95; the default is 90)"),
        ),
        case(
            "nyc exclude grows",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("[\"test/**\"]", "[\"test/**\", \"src/hard/**\"]")),
            Fires(W, "nyc exclude `src/hard/**`"),
        ),
        case(
            "c8 script flag lowered",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("--lines 90", "--lines 40")),
            Fires(E, "ci c8 --lines (script cov) 90 → 40"),
        ),
        case(
            "c8 --check-coverage dropped",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("c8 --check-coverage --lines", "c8 --lines")),
            Fires(E, "c8 --check-coverage (script cov) removed"),
        ),
        case(
            "jest --coverage dropped from script",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("jest --coverage", "jest")),
            Fires(E, "`jest --coverage` (script test) removed"),
        ),
        case(
            "script renamed is a move, not a removal",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("\"cov\":", "\"coverage\":")),
            Silent,
        ),
        case(
            "unrelated edit",
            "package.json",
            Some(PKG_BASE),
            Some(&*PKG_BASE.replace("\"app\"", "\"app2\"")),
            Silent,
        ),
        case(
            "invalid json head",
            "package.json",
            Some(PKG_BASE),
            Some("{ \"name\": "),
            Fires(E, "no longer parses"),
        ),
        case(
            "invalid json without thresholds",
            "package.json",
            Some("{}"),
            Some("{"),
            Fails,
        ),
    ]);
}

#[test]
fn jest_threshold_moved_between_files() {
    let pkg_head = PKG_BASE.replace(
        "  \"jest\": {\n    \"coverageThreshold\": { \"global\": { \"lines\": 90, \"branches\": 80 } }\n  },\n",
        "",
    );
    assert_ne!(pkg_head, PKG_BASE);
    let cfg_lower =
        "module.exports = { coverageThreshold: { global: { lines: 60, branches: 80 } } };\n";
    let cfg_same =
        "module.exports = { coverageThreshold: { global: { lines: 90, branches: 80 } } };\n";

    // Per file, the removal is reported on base.
    let alone = compare("package.json", Some(PKG_BASE), Some(&pkg_head)).unwrap_or_default();
    assert!(
        alone.iter().any(|f| f.side_is_base
            && f.severity == E
            && f.message
                .contains("jest coverageThreshold removed; it held global.lines 90")),
        "{alone:#?}"
    );

    // Together, a lower value in the new file is reported there as a lowering.
    let res = compare_changes(&[
        FileChange {
            path: "package.json",
            base: Some(PKG_BASE),
            head: Some(&pkg_head),
        },
        FileChange {
            path: "jest.config.js",
            base: None,
            head: Some(cfg_lower),
        },
    ]);
    let pkg = res[0].clone().unwrap_or_default();
    let cfg = res[1].clone().unwrap_or_default();
    assert!(pkg.is_empty(), "{pkg:#?}");
    assert_eq!(cfg.len(), 1, "{cfg:#?}");
    assert!(
        cfg[0]
            .message
            .contains("90 → 60 (moved from jest coverageThreshold.global.lines in package.json)"),
        "{cfg:#?}"
    );
    assert!(!cfg[0].side_is_base);
    assert_eq!(cfg[0].line, 1);

    // Moved with the same values: silent.
    let res = compare_changes(&[
        FileChange {
            path: "package.json",
            base: Some(PKG_BASE),
            head: Some(&pkg_head),
        },
        FileChange {
            path: "jest.config.js",
            base: None,
            head: Some(cfg_same),
        },
    ]);
    assert!(
        res.iter()
            .all(|r| r.as_ref().map(|f| f.is_empty()).unwrap_or(false)),
        "{res:#?}"
    );
}

#[test]
fn harness_detects_wrong_expectations() {
    // Guards the table runner itself: a wrong expectation must fail.
    let wrong = case(
        "x",
        "jest.config.js",
        Some(JEST_JS_BASE),
        Some("module.exports = {};\n"),
        Silent,
    );
    assert!(check(&wrong).is_err());
    let wrong = case(
        "x",
        "jest.config.js",
        Some(JEST_JS_BASE),
        Some(JEST_JS_BASE),
        Fires(E, "anything"),
    );
    assert!(check(&wrong).is_err());
    let wrong = case(
        "x",
        "jest.config.js",
        Some(JEST_JS_BASE),
        Some(JEST_JS_BASE),
        Fails,
    );
    assert!(check(&wrong).is_err());
}

#[test]
fn folded_removal_is_one_finding() {
    let f = compare(
        "jest.config.js",
        Some(JEST_JS_BASE),
        Some("module.exports = {};\n"),
    )
    .unwrap_or_default();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(f[0].side_is_base);
    assert!(
        f[0].message
            .starts_with("jest coverageThreshold removed; it held "),
        "{f:#?}"
    );
    assert!(f[0].message.contains("global.lines 90"), "{f:#?}");
    let opaque = compare(
        "jest.config.js",
        Some(JEST_JS_BASE),
        Some("module.exports = { coverageThreshold: load() };\n"),
    )
    .unwrap_or_default();
    assert_eq!(opaque.len(), 1, "{opaque:#?}");
    assert!(
        opaque[0].message.contains("it held global.branches 80"),
        "{opaque:#?}"
    );
    assert!(!opaque[0].side_is_base);
}

// ------------------------------------------------------------------ vitest, nyc, c8

const VITEST_BASE: &str = r#"import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    coverage: {
      provider: 'v8',
      exclude: ['dist/**'],
      thresholds: {
        lines: 85,
        branches: 75,
        100: false,
        perFile: true,
        'src/core/**': { functions: 95 },
      },
    },
  },
});
"#;

#[test]
fn vitest_cases() {
    run(&[
        case(
            "lowered",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("lines: 85", "lines: 50")),
            Fires(E, "vitest test.coverage.thresholds.lines 85 → 50"),
        ),
        case(
            "glob threshold lowered",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("functions: 95", "functions: 9")),
            Fires(E, "thresholds.src/core/**.functions 95 → 9"),
        ),
        case(
            "perFile turned off",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("perFile: true", "perFile: false")),
            Fires(E, "thresholds.perFile true → false"),
        ),
        case(
            "100 turned on is stricter",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("100: false", "100: true")),
            Silent,
        ),
        case(
            "exclude grows",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("['dist/**']", "['dist/**', 'src/payments/**']")),
            Fires(W, "vitest test.coverage.exclude `src/payments/**`"),
        ),
        case(
            "flat legacy keys migrated to thresholds with same values",
            "vite.config.js",
            Some("export default { test: { coverage: { lines: 80, branches: 70 } } };\n"),
            Some(
                "export default { test: { coverage: { thresholds: { lines: 80, branches: 70 } } } };\n",
            ),
            Silent,
        ),
        case(
            "flat legacy keys migrated with a lower value",
            "vite.config.js",
            Some("export default { test: { coverage: { lines: 80, branches: 70 } } };\n"),
            Some(
                "export default { test: { coverage: { thresholds: { lines: 80, branches: 10 } } } };\n",
            ),
            Fires(
                E,
                "thresholds.branches 70 → 10 (moved from vitest test.coverage.branches)",
            ),
        ),
        case(
            "legacy 100 flag dropped",
            "vitest.config.mts",
            Some("export default defineConfig({ test: { coverage: { 100: true } } });\n"),
            Some("export default defineConfig({ test: { coverage: { } } });\n"),
            Fires(
                E,
                "vitest test.coverage.100 removed (was true; the default is false)",
            ),
        ),
        case(
            "factory function config",
            "vitest.config.ts",
            Some(
                "export default defineConfig(() => ({ test: { coverage: { thresholds: { lines: 90 } } } }));\n",
            ),
            Some(
                "export default defineConfig(() => ({ test: { coverage: { thresholds: { lines: 89 } } } }));\n",
            ),
            Fires(E, "thresholds.lines 90 → 89"),
        ),
        case(
            "coverage object replaced by import",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(
                "import cov from './cov';\nexport default defineConfig({ test: { coverage: cov } });\n",
            ),
            Fires(E, "vitest test.coverage is no longer a literal (`cov`)"),
        ),
        case(
            "unrelated edit",
            "vitest.config.ts",
            Some(VITEST_BASE),
            Some(&*VITEST_BASE.replace("'v8'", "'istanbul'")),
            Silent,
        ),
    ]);
}

#[test]
fn nyc_c8_cases() {
    run(&[
        case(
            ".nycrc json lowered",
            ".nycrc",
            Some("{ \"check-coverage\": true, \"branches\": 80, \"lines\": 90 }"),
            Some("{ \"check-coverage\": true, \"branches\": 60, \"lines\": 90 }"),
            Fires(E, "nyc branches 80 → 60"),
        ),
        case(
            ".nycrc yaml check-coverage removed",
            ".nycrc.yml",
            Some("check-coverage: true\nlines: 95\n"),
            Some("lines: 95\n"),
            Fires(
                E,
                "nyc check-coverage removed (was true; the default is false)",
            ),
        ),
        case(
            ".nycrc camelCase same as kebab",
            ".nycrc.json",
            Some("{ \"checkCoverage\": true, \"lines\": 90 }"),
            Some("{ \"check-coverage\": true, \"lines\": 90 }"),
            Silent,
        ),
        case(
            ".c8rc 100 dropped",
            ".c8rc.json",
            Some("{ \"100\": true }"),
            Some("{ \"100\": false }"),
            Fires(E, "c8 100 true → false"),
        ),
        case(
            ".c8rc raised",
            ".c8rc",
            Some("{ \"check-coverage\": true, \"lines\": 80 }"),
            Some("{ \"check-coverage\": true, \"lines\": 85 }"),
            Silent,
        ),
        case(
            "nyc.config.js per-file off",
            "nyc.config.js",
            Some("module.exports = { 'per-file': true, lines: 90 };\n"),
            Some("module.exports = { 'per-file': false, lines: 90 };\n"),
            Fires(E, "nyc per-file true → false"),
        ),
        case(
            "package.json c8 block",
            "package.json",
            Some("{\"c8\": {\"check-coverage\": true, \"functions\": 90}}"),
            Some("{\"c8\": {\"check-coverage\": true, \"functions\": 0}}"),
            Fires(E, "c8 functions 90 → 0"),
        ),
        case(
            ".nycrc neither json nor yaml",
            ".nycrc",
            Some("{}"),
            Some("{ \"lines\": [ }"),
            Fails,
        ),
    ]);
}

// ------------------------------------------------------------------ Python

const COVERAGERC: &str = "[run]\nbranch = True\nomit =\n    tests/*\n    setup.py\n\n[report]\nfail_under = 90\nexclude_lines =\n    pragma: no cover\n    if TYPE_CHECKING:\n";

#[test]
fn python_cases() {
    run(&[
        case(
            ".coveragerc lowered",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("fail_under = 90", "fail_under = 75")),
            Fires(E, "coverage.py report.fail_under 90 → 75"),
        ),
        case(
            ".coveragerc fail_under removed",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("fail_under = 90\n", "")),
            Fires(
                E,
                "coverage.py report.fail_under removed (was 90; the default is 0)",
            ),
        ),
        case(
            ".coveragerc raised",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("fail_under = 90", "fail_under = 92.5")),
            Silent,
        ),
        case(
            ".coveragerc env var",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("fail_under = 90", "fail_under = ${COV_MIN}")),
            Fires(E, "no longer a literal"),
        ),
        case(
            ".coveragerc new omit",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("    setup.py\n", "    setup.py\n    src/billing/*\n")),
            Fires(W, "coverage.py run.omit `src/billing/*`"),
        ),
        case(
            ".coveragerc new exclude_lines",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace(
                "    if TYPE_CHECKING:\n",
                "    if TYPE_CHECKING:\n    def __repr__\n",
            )),
            Fires(W, "coverage.py report.exclude_lines `def __repr__`"),
        ),
        case(
            ".coveragerc exclude_lines renamed to exclude_also",
            ".coveragerc",
            Some(COVERAGERC),
            Some(&*COVERAGERC.replace("exclude_lines", "exclude_also")),
            Silent,
        ),
        case(
            ".coveragerc reorder only",
            ".coveragerc",
            Some(COVERAGERC),
            Some(
                "[report]\nexclude_lines =\n    if TYPE_CHECKING:\n    pragma: no cover\nfail_under=90\n\n[run]\nomit = setup.py, tests/*\nbranch = True\n",
            ),
            Silent,
        ),
        case(
            ".coveragerc broken",
            ".coveragerc",
            Some(COVERAGERC),
            Some("fail_under = 90\n"),
            Fires(E, "no longer parses"),
        ),
        case(
            "setup.cfg section",
            "setup.cfg",
            Some("[metadata]\nname = x\n\n[coverage:report]\nfail_under = 80\n"),
            Some("[metadata]\nname = x\n\n[coverage:report]\nfail_under = 0\n"),
            Fires(E, "coverage.py report.fail_under 80 → 0"),
        ),
        case(
            "setup.cfg pytest addopts flag lowered",
            "setup.cfg",
            Some("[tool:pytest]\naddopts = --cov=app --cov-fail-under=85\n"),
            Some("[tool:pytest]\naddopts = --cov=app --cov-fail-under=50\n"),
            Fires(E, "ci pytest --cov-fail-under (addopts) 85 → 50"),
        ),
        case(
            "--no-cov picked per matrix entry is a warning",
            ".github/workflows/tests.yml",
            Some(
                "jobs:\n  tests:\n    env:\n      PYTEST_ADDOPTS: -n auto\n    steps:\n      - run: tox\n",
            ),
            Some(
                "jobs:\n  tests:\n    env:\n      PYTEST_ADDOPTS: ${{ matrix.coverage && '-n auto' || '-n auto --no-cov' }}\n    steps:\n      - run: tox\n",
            ),
            Fires(W, "only in the jobs"),
        ),
        case(
            "--no-cov picked by the event stays an error",
            ".github/workflows/tests.yml",
            Some(
                "jobs:\n  tests:\n    env:\n      PYTEST_ADDOPTS: -n auto\n    steps:\n      - run: tox\n",
            ),
            Some(
                "jobs:\n  tests:\n    env:\n      PYTEST_ADDOPTS: ${{ github.event_name == 'push' && '-n auto' || '-n auto --no-cov' }}\n    steps:\n      - run: tox\n",
            ),
            Fires(E, "pytest --no-cov"),
        ),
        case(
            "pytest.ini --no-cov added",
            "pytest.ini",
            Some("[pytest]\naddopts = --cov=app\n"),
            Some("[pytest]\naddopts = --cov=app --no-cov\n"),
            Fires(E, "pytest --no-cov (addopts) false (default) → true"),
        ),
        case(
            "pytest.ini multi-line addopts with flag removed",
            "pytest.ini",
            Some("[pytest]\naddopts =\n    -ra\n    --cov=app\n    --cov-fail-under 90\n"),
            Some("[pytest]\naddopts =\n    -ra\n    --cov=app\n"),
            Fires(E, "ci pytest --cov-fail-under (addopts) removed (was 90)"),
        ),
        case(
            "pyproject lowered to string zero",
            "pyproject.toml",
            Some("[tool.coverage.report]\nfail_under = 90\n"),
            Some("[tool.coverage.report]\nfail_under = \"0\"\n"),
            Fires(E, "coverage.py report.fail_under 90 → 0"),
        ),
        case(
            "pyproject omit list grows",
            "pyproject.toml",
            Some("[tool.coverage.run]\nomit = [\"tests/*\"]\n"),
            Some("[tool.coverage.run]\nomit = [\n  \"tests/*\",\n  \"src/core/*\",\n]\n"),
            Fires(W, "coverage.py run.omit `src/core/*`"),
        ),
        case(
            "pyproject addopts list",
            "pyproject.toml",
            Some("[tool.pytest.ini_options]\naddopts = [\"--cov=pkg\", \"--cov-fail-under=95\"]\n"),
            Some("[tool.pytest.ini_options]\naddopts = [\"--cov=pkg\", \"--cov-fail-under=94\"]\n"),
            Fires(E, "95 → 94"),
        ),
        case(
            "pyproject unrelated edit",
            "pyproject.toml",
            Some("[project]\nname = \"a\"\n[tool.coverage.report]\nfail_under = 90\n"),
            Some("[project]\nname = \"b\"\n[tool.coverage.report]\nfail_under = 90\n"),
            Silent,
        ),
        case(
            "pyproject invalid toml with threshold in base",
            "pyproject.toml",
            Some("[tool.coverage.report]\nfail_under = 90\n"),
            Some("[tool.coverage.report\nfail_under = 90\n"),
            Fires(E, "no longer parses"),
        ),
        case(
            "pyproject invalid toml without threshold",
            "pyproject.toml",
            Some("[project]\nname = \"a\"\n"),
            Some("[project\n"),
            Fails,
        ),
        case(
            "tox commands lowered",
            "tox.ini",
            Some(
                "[tox]\nenvlist = py\n\n[testenv]\ncommands =\n    pytest --cov=app --cov-fail-under=80 {posargs}\n",
            ),
            Some(
                "[tox]\nenvlist = py\n\n[testenv]\ncommands =\n    pytest --cov=app --cov-fail-under 0 {posargs}\n",
            ),
            Fires(E, "ci pytest --cov-fail-under (tox [testenv]) 80 → 0"),
        ),
        case(
            "tox ignore_outcome",
            "tox.ini",
            Some("[testenv:cov]\ncommands = coverage report --fail-under=90\n"),
            Some(
                "[testenv:cov]\nignore_outcome = true\ncommands = coverage report --fail-under=90\n",
            ),
            Fires(E, "made non-blocking (tox ignore_outcome = true)"),
        ),
        case(
            "fail_under moved from .coveragerc to addopts with a lower value",
            "pyproject.toml",
            Some("[tool.coverage.report]\nfail_under = 90\n"),
            Some("[tool.pytest.ini_options]\naddopts = \"--cov --cov-fail-under=70\"\n"),
            Fires(E, "90 → 70 (moved from coverage.py report.fail_under)"),
        ),
    ]);
}

// ------------------------------------------------------------------ codecov

const CODECOV: &str = "coverage:\n  status:\n    project:\n      default:\n        target: 85%\n        threshold: 1%\n    patch:\n      default:\n        target: 90\n        informational: false\ncodecov:\n  require_ci_to_pass: yes\nignore:\n  - \"docs/**\"\n";

#[test]
fn codecov_cases() {
    run(&[
        case(
            "target lowered",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("target: 85%", "target: 60%")),
            Fires(E, "codecov coverage.status.project.default.target 85 → 60"),
        ),
        case(
            "threshold raised",
            ".codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("threshold: 1%", "threshold: 10%")),
            Fires(
                E,
                "codecov coverage.status.project.default.threshold 1 → 10 (allows a larger drop)",
            ),
        ),
        case(
            "threshold lowered is stricter",
            ".github/codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("threshold: 1%", "threshold: 0.5%")),
            Silent,
        ),
        case(
            "threshold added where none was",
            "codecov.yml",
            Some("coverage:\n  status:\n    project:\n      default:\n        target: 80%\n"),
            Some(
                "coverage:\n  status:\n    project:\n      default:\n        target: 80%\n        threshold: 5%\n",
            ),
            Fires(E, "threshold 0 (default) → 5"),
        ),
        case(
            "informational true",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("informational: false", "informational: true")),
            Fires(E, "patch.default.informational false → true"),
        ),
        case(
            "informational added",
            "codecov.yml",
            Some("coverage:\n  status:\n    project:\n      default:\n        target: 80%\n"),
            Some(
                "coverage:\n  status:\n    project:\n      default:\n        target: 80%\n        informational: true\n",
            ),
            Fires(E, "informational false (default) → true"),
        ),
        case(
            "status removed",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace(
                "    patch:\n      default:\n        target: 90\n        informational: false\n",
                "",
            )),
            Fires(
                E,
                "codecov coverage.status.patch.default removed; it held target 90",
            ),
        ),
        case(
            "status switched off",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace(
                "    patch:\n      default:\n        target: 90\n        informational: false\n",
                "    patch: off\n",
            )),
            Fires(E, "codecov coverage.status.patch true → false"),
        ),
        case(
            "if_ci_failed relaxed",
            "codecov.yml",
            Some(
                "coverage:\n  status:\n    project:\n      default:\n        if_ci_failed: error\n",
            ),
            Some(
                "coverage:\n  status:\n    project:\n      default:\n        if_ci_failed: success\n",
            ),
            Fires(E, "if_ci_failed \"error\" → \"success\""),
        ),
        case(
            "target to auto",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("target: 85%", "target: auto")),
            Fires(W, "target 85 → auto"),
        ),
        case(
            "auto to 100 is fine",
            "codecov.yml",
            Some("coverage:\n  status:\n    project:\n      default:\n        target: auto\n"),
            Some("coverage:\n  status:\n    project:\n      default:\n        target: 100%\n"),
            Silent,
        ),
        case(
            "require_ci_to_pass relaxed",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace("require_ci_to_pass: yes", "require_ci_to_pass: no")),
            Fires(E, "require_ci_to_pass true → false"),
        ),
        case(
            "ignore grows",
            "codecov.yml",
            Some(CODECOV),
            Some(&*CODECOV.replace(
                "  - \"docs/**\"\n",
                "  - \"docs/**\"\n  - \"src/legacy/**\"\n",
            )),
            Fires(W, "codecov ignore `src/legacy/**`"),
        ),
        case(
            "raised and reordered",
            "codecov.yml",
            Some(CODECOV),
            Some(
                "ignore: [\"docs/**\"]\ncodecov:\n  require_ci_to_pass: true\ncoverage:\n  status:\n    patch:\n      default:\n        informational: false\n        target: 95\n    project:\n      default:\n        threshold: 1%\n        target: 85%\n",
            ),
            Silent,
        ),
        case(
            "file deleted",
            "codecov.yml",
            Some(CODECOV),
            None,
            Fires(
                E,
                "codecov coverage.status.project.default removed; it held target 85",
            ),
        ),
        case(
            "invalid yaml",
            "codecov.yml",
            Some(CODECOV),
            Some("coverage: [\n"),
            Fires(E, "no longer parses"),
        ),
    ]);
}

// ------------------------------------------------------------------ Rust

#[test]
fn rust_cases() {
    run(&[
        case(
            "tarpaulin.toml lowered",
            "tarpaulin.toml",
            Some("[report]\nfail-under = 80\nout = [\"Html\"]\n"),
            Some("[report]\nfail-under = 20\nout = [\"Html\"]\n"),
            Fires(E, "tarpaulin report.fail-under 80 → 20"),
        ),
        case(
            ".tarpaulin.toml removed key",
            ".tarpaulin.toml",
            Some("fail-under = 75.5\n"),
            Some("\n"),
            Fires(E, "tarpaulin fail-under removed (was 75.5)"),
        ),
        case(
            "tarpaulin exclude-files grows",
            ".tarpaulin.toml",
            Some("[cfg]\nexclude-files = [\"benches/*\"]\n"),
            Some("[cfg]\nexclude-files = [\"benches/*\", \"src/parser.rs\"]\n"),
            Fires(W, "tarpaulin cfg.exclude-files `src/parser.rs`"),
        ),
        case(
            "tarpaulin raised",
            "tarpaulin.toml",
            Some("[report]\nfail-under = 80\n"),
            Some("[report]\nfail-under = 81\n"),
            Silent,
        ),
        case(
            "llvm-cov flag lowered in workflow",
            ".github/workflows/cov.yml",
            Some(
                "jobs:\n  cov:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo llvm-cov --workspace --fail-under-lines 90\n",
            ),
            Some(
                "jobs:\n  cov:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo llvm-cov --workspace --fail-under-lines 60\n",
            ),
            Fires(
                E,
                "ci cargo llvm-cov --fail-under-lines (job cov, step 1) 90 → 60",
            ),
        ),
        case(
            "llvm-cov uncovered allowance raised",
            "Makefile",
            Some("cov:\n\tcargo llvm-cov --fail-uncovered-lines 10\n"),
            Some("cov:\n\tcargo llvm-cov --fail-uncovered-lines=200\n"),
            Fires(E, "--fail-uncovered-lines (Makefile target cov) 10 → 200"),
        ),
        case(
            "tarpaulin CLI in justfile",
            "justfile",
            Some("coverage:\n    cargo tarpaulin --out Xml --fail-under 85\n"),
            Some("coverage:\n    cargo tarpaulin --out Xml\n"),
            Fires(
                E,
                "ci cargo tarpaulin --fail-under (justfile target coverage) removed (was 85)",
            ),
        ),
    ]);
}

// ------------------------------------------------------------------ CI

const WORKFLOW: &str = r#"name: CI
on:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run tests
        run: |
          pip install -e .
          pytest --cov=app \
            --cov-fail-under=80
      - uses: codecov/codecov-action@v4
        with:
          fail_ci_if_error: true
"#;

#[test]
fn workflow_cases() {
    run(&[
        case("flag lowered with = to space form", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("--cov-fail-under=80", "--cov-fail-under 0")),
            Fires(E, "ci pytest --cov-fail-under (job test, step Run tests) 80 → 0")),
        case("flag removed", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("pytest --cov=app \\\n            --cov-fail-under=80", "pytest --cov=app")),
            Fires(E, "ci pytest --cov-fail-under (job test, step Run tests) removed (was 80)")),
        case("whole coverage step removed", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("          pytest --cov=app \\\n            --cov-fail-under=80\n", "          pytest\n")),
            Fires(E, "removed (was 80)")),
        case("continue-on-error on the coverage step", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("      - name: Run tests\n", "      - name: Run tests\n        continue-on-error: true\n")),
            Fires(E, "made non-blocking (continue-on-error: true)")),
        case("|| true appended", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("--cov-fail-under=80", "--cov-fail-under=80 || true")),
            Fires(E, "made non-blocking (`|| true` ignores the failure)")),
        case("job disabled with if false", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("    runs-on: ubuntu-latest\n", "    if: false\n    runs-on: ubuntu-latest\n")),
            Fires(E, "made non-blocking (if: false)")),
        case("env var replaces the number", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("--cov-fail-under=80", "--cov-fail-under=${{ env.MIN_COV }}")),
            Fires(E, "no longer a literal")),
        case("codecov upload removed", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("      - uses: codecov/codecov-action@v4\n        with:\n          fail_ci_if_error: true\n", "")),
            Fires(E, "ci codecov upload (job test, step codecov/codecov-action) removed; it held fail_ci_if_error true")),
        case("fail_ci_if_error relaxed", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("fail_ci_if_error: true", "fail_ci_if_error: false")),
            Fires(E, "(job test, step codecov/codecov-action) fail_ci_if_error true → false")),
        case("step renamed and job renamed: a move", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("Run tests", "Unit tests").replace("  test:\n", "  unit:\n")),
            Silent),
        case("raised", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("--cov-fail-under=80", "--cov-fail-under=85")), Silent),
        case("unrelated step added", ".github/workflows/ci.yml", Some(WORKFLOW),
            Some(&*WORKFLOW.replace("      - uses: actions/checkout@v4\n", "      - uses: actions/checkout@v4\n      - run: echo hello\n")),
            Silent),
        case("invalid yaml", ".github/workflows/ci.yml", Some(WORKFLOW), Some("jobs: [\n"),
            Fires(E, "no longer parses")),
        case("gitlab allow_failure", ".gitlab-ci.yml",
            Some("test:\n  script:\n    - coverage run -m pytest\n    - coverage report --fail-under=90\n"),
            Some("test:\n  allow_failure: true\n  script:\n    - coverage run -m pytest\n    - coverage report --fail-under=90\n"),
            Fires(E, "made non-blocking (allow_failure: true)")),
        case("c8 flags in CI", ".github/workflows/node.yml",
            Some("jobs:\n  t:\n    steps:\n      - run: npx c8 --check-coverage --branches 80 npm test\n"),
            Some("jobs:\n  t:\n    steps:\n      - run: npx c8 --branches 80 npm test\n"),
            Fires(E, "c8 --check-coverage (job t, step 1) removed")),
        case("jest CLI threshold json lowered", ".github/workflows/node.yml",
            Some("jobs:\n  t:\n    steps:\n      - run: npx jest --coverage --coverageThreshold='{\"global\":{\"lines\":90}}'\n"),
            Some("jobs:\n  t:\n    steps:\n      - run: npx jest --coverage --coverageThreshold='{\"global\":{\"lines\":30}}'\n"),
            Fires(E, "ci jest --coverageThreshold global.lines (job t, step 1) 90 → 30")),
        case("vitest CLI threshold", ".github/workflows/node.yml",
            Some("jobs:\n  t:\n    steps:\n      - run: npx vitest run --coverage --coverage.thresholds.lines=90\n"),
            Some("jobs:\n  t:\n    steps:\n      - run: npx vitest run --coverage --coverage.thresholds.lines=70\n"),
            Fires(E, "vitest --coverage.thresholds.lines (job t, step 1) 90 → 70")),
        case("diff-cover", ".github/workflows/py.yml",
            Some("jobs:\n  t:\n    steps:\n      - run: diff-cover coverage.xml --fail-under=100\n"),
            Some("jobs:\n  t:\n    steps:\n      - run: diff-cover coverage.xml --fail-under=50\n"),
            Fires(E, "diff-cover --fail-under (job t, step 1) 100 → 50")),
        case("composite action", ".github/actions/test/action.yml",
            Some("runs:\n  using: composite\n  steps:\n    - run: pytest --cov --cov-fail-under=90\n      shell: bash\n"),
            Some("runs:\n  using: composite\n  steps:\n    - run: pytest --cov --cov-fail-under=9\n      shell: bash\n"),
            Fires(E, "90 → 9")),
        case("coverage run removed from Makefile", "Makefile",
            Some("test:\n\tpytest --cov=app tests/\n"), Some("test:\n\tpytest tests/\n"),
            Fires(E, "ci coverage run `pytest --cov` (Makefile target test) removed")),
        case("pytest --cov rewritten as coverage run -m pytest", "tox.ini",
            Some("[testenv]\ncommands =\n    unit: pytest -vv --cov=celery --cov-report=xml {posargs}\n"),
            Some("[testenv]\ncommands =\n    unit: coverage run --source=celery -m pytest -vv {posargs}\n    unit: coverage xml\n"),
            Silent),
        case("pytest --cov dropped while coverage only reports", "tox.ini",
            Some("[testenv]\ncommands =\n    unit: pytest -vv --cov=celery {posargs}\n"),
            Some("[testenv]\ncommands =\n    unit: pytest -vv {posargs}\n"),
            Fires(E, "removed")),
        case("Makefile dash prefix", "Makefile",
            Some("cov:\n\tcoverage report --fail-under=85\n"),
            Some("cov:\n\t-coverage report --fail-under=85\n"),
            Fires(E, "made non-blocking (make `-` prefix ignores the failure)")),
        case("Makefile variable assignment is not a target", "Makefile",
            Some("COV := 90\ncov:\n\tcoverage report --fail-under=90\n"),
            Some("COV := 80\ncov:\n\tcoverage report --fail-under=90\n"), Silent),
        case("noxfile session.run args", "noxfile.py",
            Some("@nox.session\ndef tests(session):\n    session.run(\"pytest\", \"--cov=app\", \"--cov-fail-under\", \"90\")\n"),
            Some("@nox.session\ndef tests(session):\n    session.run(\"pytest\", \"--cov=app\", \"--cov-fail-under\", \"10\")\n"),
            Fires(E, "90 → 10")),
        case("shell script", "scripts/ci.sh",
            Some("#!/bin/sh\nset -e\ncargo tarpaulin --fail-under 70\n"),
            Some("#!/bin/sh\nset -e\n# cargo tarpaulin --fail-under 70\n"),
            Fires(E, "removed (was 70)")),
    ]);
}

#[test]
fn workflow_finding_points_at_the_flag_line() {
    let head = WORKFLOW.replace("--cov-fail-under=80", "--cov-fail-under 0");
    let f = compare(".github/workflows/ci.yml", Some(WORKFLOW), Some(&head)).unwrap_or_default();
    assert_eq!(f.len(), 1, "{f:#?}");
    // The logical command starts on the `pytest` line (13), continuation on 14.
    assert_eq!(f[0].line, 13, "{f:#?}");
    assert!(!f[0].side_is_base);
    let removed = compare(
        ".github/workflows/ci.yml",
        Some(WORKFLOW),
        Some("name: CI\non: push\njobs: {}\n"),
    )
    .unwrap_or_default();
    assert!(removed.iter().all(|f| f.side_is_base), "{removed:#?}");
    assert!(removed.iter().any(|f| f.line == 13), "{removed:#?}");
}

// ------------------------------------------------------------------ pragmas

#[test]
fn pragma_markers_fire() {
    let cases: &[(&str, &str)] = &[
        ("    if debug:  # pragma: no cover", "# pragma: no cover"),
        ("def f():  #pragma:no cover", "# pragma: no cover"),
        ("x = 1  # PRAGMA: NO COVER", "# pragma: no cover"),
        ("    if x:  # pragma: no branch", "# pragma: no branch"),
        ("/* istanbul ignore next */", "istanbul ignore"),
        ("  // istanbul ignore else", "istanbul ignore"),
        (
            "if (a) { /* istanbul ignore if */ b(); }",
            "istanbul ignore",
        ),
        ("/* c8 ignore next 3 */", "c8 ignore"),
        ("/* c8 ignore start */", "c8 ignore"),
        ("/* v8 ignore next -- @preserve */", "v8 ignore"),
        ("// v8 ignore file", "v8 ignore"),
        ("/* node:coverage ignore next */", "node:coverage ignore"),
        ("  foo(); // LCOV_EXCL_LINE", "LCOV_EXCL"),
        ("// coverage:ignore-start", "coverage:ignore"),
        ("#[coverage(off)]", "#[coverage(off)]"),
        ("#![coverage(off)]", "#[coverage(off)]"),
        (
            "#[cfg_attr(coverage_nightly, coverage(off))]",
            "#[coverage(off)]",
        ),
        ("#[cfg(not(tarpaulin_include))]", "#[coverage(off)]"),
        ("#[cfg_attr(tarpaulin, skip)]", "#[coverage(off)]"),
        ("x = \"it's\"  # pragma: no cover", "# pragma: no cover"),
    ];
    for (line, want) in cases {
        assert_eq!(exclusion_pragma(line), Some(*want), "line: {line}");
    }
}

#[test]
fn pragma_prose_and_strings_stay_silent() {
    let cases = [
        "msg = \"add # pragma: no cover to skip\"",
        "const s = '/* istanbul ignore next */';",
        "const t = `c8 ignore next`;",
        "# We never use pragma no-covers lightly? no: prose about coverage",
        "let doc = \"#[coverage(off)]\";",
        "/* c8 ignore stop */",
        "// istanbul is a city",
        "fn cover_all() {}",
        "",
        "#",
        "/*",
        "\"unterminated # pragma: no cover",
    ];
    for line in cases {
        assert_eq!(exclusion_pragma(line), None, "line: {line}");
    }
}

#[test]
fn pragma_findings_skip_moved_lines() {
    let base = "def a():  # pragma: no cover\n    pass\n";
    let head = "def b():\n    pass\n\ndef a():  # pragma: no cover\n    pass\n";
    // The pragma line moved (shown as added at 4): not new.
    assert!(pragma_findings(Some(base), head, &[1, 2, 3, 4]).is_empty());
    // A genuinely new pragma fires once, as a warning on its line.
    let head2 = "def a():  # pragma: no cover\n    pass\nif x:  # pragma: no cover\n    y()\n";
    let f = pragma_findings(Some(base), head2, &[3, 4]);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(
        (f[0].line, f[0].severity, f[0].side_is_base),
        (3, Severity::Warning, false)
    );
    assert!(f[0].message.contains("# pragma: no cover"));
    // Out-of-range line numbers are ignored, not a panic.
    assert!(pragma_findings(None, "", &[0, 99]).is_empty());
    // A duplicated pragma line fires for the extra copy.
    let dup = "def a():  # pragma: no cover\n    pass\ndef a():  # pragma: no cover\n";
    assert_eq!(pragma_findings(Some(base), dup, &[3]).len(), 1);
}

// ------------------------------------------------------------------ paths and robustness

#[test]
fn coverage_source_paths() {
    for p in [
        "package.json",
        "web/package.json",
        "jest.config.js",
        "jest.config.ts",
        "jest.config.mjs",
        "jest.config.cjs",
        "jest.config.json",
        "vitest.config.ts",
        "vite.config.mts",
        ".nycrc",
        ".nycrc.yml",
        "nyc.config.js",
        ".c8rc.json",
        ".coveragerc",
        "setup.cfg",
        "tox.ini",
        "pytest.ini",
        "pyproject.toml",
        "codecov.yml",
        ".codecov.yml",
        ".github/codecov.yml",
        "tarpaulin.toml",
        ".tarpaulin.toml",
        ".github/workflows/ci.yml",
        ".github/workflows/test.yaml",
        ".gitlab-ci.yml",
        "Makefile",
        "justfile",
        "ci/run.sh",
        "noxfile.py",
        ".github/actions/setup/action.yml",
        ".circleci/config.yml",
    ] {
        assert!(is_coverage_source(p), "{p}");
    }
    for p in [
        "src/main.rs",
        "README.md",
        "jest.setup.js",
        "src/config.ts",
        "docs/codecov.md",
        ".github/dependabot.yml",
        "package-lock.json",
        "Cargo.toml",
    ] {
        assert!(!is_coverage_source(p), "{p}");
    }
    assert_eq!(compare("src/lib.rs", Some("a"), Some("b")), Ok(Vec::new()));
}

/// Odd input must never panic, whatever the file type.
#[test]
fn odd_input_never_panics() {
    let deep_json = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let deep_yaml = format!("a: {}1{}", "[".repeat(3000), "]".repeat(3000));
    let deep_js = format!(
        "module.exports = {{ coverageThreshold: {}1{} }};",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    let nested_obj = format!("module.exports = {}{};", "{a:".repeat(500), "}".repeat(500));
    let inputs: Vec<String> = vec![
        String::new(), "\u{feff}".into(), "\0\0\0".into(), "{".into(), "[[[".into(),
        "é\u{301}\r\n\t".into(), "- - - -".into(), "[report]\nfail_under =".into(),
        "fail_under = 90\n".into(), "coverage:\n  status: []\n".into(),
        "coverage:\n  status:\n    project: 5\n".into(), "jobs: 5".into(),
        "jobs:\n  a:\n    steps: [1, null, {run: 7}]\n".into(),
        "--cov-fail-under --cov-fail-under= --fail-under".into(),
        "module.exports = x = y;".into(), "export default 5".into(),
        "\\\n\\\n\\".into(), "a:\\\n\t-cov:".into(), deep_json, deep_yaml, deep_js, nested_obj,
        "{\"jest\": {\"coverageThreshold\": 5}, \"scripts\": {\"a\": 5, \"b\": \"jest --coverageThreshold={{{\"}}".into(),
        "const a = b; const b = a; module.exports = { coverageThreshold: a };".into(),
        "[tool.coverage.report]\nfail_under = nan\n".into(),
        "coverage:\n  status:\n    project:\n      default:\n        target: 1e400\n".into(),
    ];
    let paths = [
        "package.json",
        "jest.config.js",
        "jest.config.ts",
        "jest.config.json",
        "vitest.config.ts",
        ".nycrc",
        ".c8rc.yml",
        "nyc.config.js",
        ".coveragerc",
        "setup.cfg",
        "tox.ini",
        "pytest.ini",
        "pyproject.toml",
        "codecov.yml",
        "tarpaulin.toml",
        ".github/workflows/x.yml",
        "Makefile",
        "justfile",
        "x.sh",
        "noxfile.py",
    ];
    for path in paths {
        for a in &inputs {
            for b in &inputs[..8] {
                let _ = compare(path, Some(a), Some(b));
                let _ = compare(path, Some(b), Some(a));
            }
            let _ = compare(path, None, Some(a));
            let _ = compare(path, Some(a), None);
        }
    }
    for a in &inputs {
        let _ = exclusion_pragma(a);
        for l in a.lines() {
            let _ = exclusion_pragma(l);
        }
        let _ = pragma_findings(Some(a), a, &[1, 2, u32::MAX]);
    }
}

#[test]
fn findings_are_deterministic_and_sorted() {
    let head = CODECOV
        .replace("target: 85%", "target: 60%")
        .replace("informational: false", "informational: true");
    let a = compare("codecov.yml", Some(CODECOV), Some(&head));
    let b = compare("codecov.yml", Some(CODECOV), Some(&head));
    assert_eq!(a, b);
    let lines: Vec<u32> = a.unwrap_or_default().iter().map(|f| f.line).collect();
    assert_eq!(lines, vec![5, 10]);
}

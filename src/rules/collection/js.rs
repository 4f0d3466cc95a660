//! Which JavaScript/TypeScript files jest and vitest collect, from the base revision's
//! root-level configuration: jest `testMatch` (globs), `testRegex` (regexes), `roots` and
//! `testPathIgnorePatterns` (`jest.config.*` or `package.json`'s `jest` key); vitest
//! `test.include`, `test.exclude` and `test.dir`/`root` (`vitest.config.*`, else the `test`
//! block of `vite.config.*`).
//!
//! Only literal values count. A computed value (a variable, a spread of the defaults, a call)
//! is unknown: the runner then keeps the default patterns rather than a guess. So does a jest
//! `projects` list or a vitest `test.projects`/`test.workspace`, whose per-project settings are
//! not followed. Exclusion lists are the exception: their literal entries count even next to
//! a spread. A playwright or mocha configuration in base adds the default patterns (their
//! settings are not read), so their specs stay test files next to a narrow vitest `include`. Jest matches `testMatch` and its regexes against the absolute path; here
//! globs are relative to the repository root (`<rootDir>/` and `./` dropped; a leading `**/`
//! matches at any depth) and regexes see the path under a stand-in root directory, so
//! `<rootDir>/build/` and `/__tests__/` mean what they mean to jest. A regex that the `regex`
//! crate cannot compile (look-around, back-references) makes `testRegex` unknown; such an
//! ignore pattern is left out.

use super::glob::Glob;
use crate::rules::disabled_check::{
    JEST_CONFIGS, RunnerSetting, VITEST_CONFIGS, jest_settings, vitest_settings,
};
use regex::Regex;

/// Configuration files of JavaScript test runners whose settings are not read.
pub const OTHER_RUNNERS: &[(&str, &str)] = &[
    ("playwright.config.ts", "playwright"),
    ("playwright.config.js", "playwright"),
    ("playwright.config.mts", "playwright"),
    ("playwright.config.mjs", "playwright"),
    ("playwright.config.cts", "playwright"),
    ("playwright.config.cjs", "playwright"),
    (".mocharc.js", "mocha"),
    (".mocharc.cjs", "mocha"),
    (".mocharc.json", "mocha"),
    (".mocharc.jsonc", "mocha"),
    (".mocharc.yml", "mocha"),
    (".mocharc.yaml", "mocha"),
];

/// ava's default test files (`EXT` stands for [`AVA_EXTENSIONS`]).
const AVA_FILES: &[&str] = &[
    "test.EXT",
    "src/test.EXT",
    "source/test.EXT",
    "**/test-*.EXT",
    "**/*.spec.EXT",
    "**/*.test.EXT",
    "**/test/**/*.EXT",
    "**/tests/**/*.EXT",
    "**/__tests__/**/*.EXT",
];

/// [`AVA_FILES`] and [`AVA_IGNORED`] as people read them.
const AVA_SUMMARY: &str = "`test.js`, `test-*.js`, `*.spec.js`, `*.test.js`, `test/`, `tests/`, `__tests__/` (not helper or fixture folders, not `_` files)";

/// Extensions ava (with `@ava/typescript`) may run.
const AVA_EXTENSIONS: &str = "{js,cjs,mjs,jsx,ts,cts,mts,tsx}";

/// What ava never runs as a test file: helpers, fixtures and `_`-prefixed files.
const AVA_IGNORED: &[&str] = &[
    "**/__tests__/**/__helper__/**",
    "**/__tests__/**/__helpers__/**",
    "**/__tests__/**/__fixture__/**",
    "**/__tests__/**/__fixtures__/**",
    "**/test/**/helper/**",
    "**/test/**/helpers/**",
    "**/test/**/fixture/**",
    "**/test/**/fixtures/**",
    "**/tests/**/helper/**",
    "**/tests/**/helpers/**",
    "**/tests/**/fixture/**",
    "**/tests/**/fixtures/**",
    "**/_*",
];

/// The stand-in for jest's `<rootDir>` when regexes are matched against the "absolute" path.
const ROOT: &str = "/__root__";

/// The file patterns used when no configuration says otherwise (jest's and vitest's defaults,
/// loosely: `*.test.*`, `*.spec.*`, files under `__tests__/`, `test/` or `tests/`).
pub const DEFAULT_PATTERNS: &str =
    "`*.test.*`, `*.spec.*`, `*.test-d.*`, `__tests__/`, `test/`, `tests/`";

/// Whether `path` looks like a test file by [`DEFAULT_PATTERNS`].
pub fn default_test_file(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let in_dir = |dir: &str| path.split('/').rev().skip(1).any(|part| part == dir);
    let parts: Vec<&str> = file.split('.').collect();
    parts.len() > 2
        && parts[1..parts.len() - 1]
            .iter()
            // `*.test-d.ts`: vitest's type tests (`expectTypeOf`), run with `--typecheck`.
            .any(|part| matches!(*part, "test" | "spec" | "test-d" | "spec-d"))
        || in_dir("__tests__")
        || in_dir("test")
        || in_dir("tests")
}

/// One runner's collection rules.
#[derive(Debug)]
pub struct JsRunner {
    tool: &'static str,
    /// jest `roots`, repository-relative (empty: the whole repository).
    roots: Vec<String>,
    /// vitest's `dir`/`root`: globs are relative to it ("" for the repository root).
    base: String,
    /// The configured patterns; `None`: the defaults.
    matching: Option<Matching>,
    ignore: Vec<Ignore>,
    /// vitest with `test.typecheck` configured: `*.{test,spec}-d.*` files are type tests.
    type_tests: bool,
}

#[derive(Debug)]
enum Matching {
    /// Globs in order, with whether each is negated (`!pattern`).
    Globs(&'static str, Vec<(Glob, bool)>),
    Regexes(&'static str, Vec<(Regex, String)>),
}

#[derive(Debug)]
enum Ignore {
    Regex(&'static str, Regex, String),
    Glob(&'static str, Glob),
}

impl JsRunner {
    /// Reads the jest configuration among `configs` (root-level path and base text): the first
    /// `jest.config.*`, else `package.json`'s `jest` key. `None` without one.
    pub fn jest(configs: &[(String, String)]) -> Option<JsRunner> {
        let settings = JEST_CONFIGS
            .iter()
            .chain(&["package.json"])
            .find_map(|name| {
                let (_, text) = configs.iter().find(|(path, _)| path == name)?;
                jest_settings(name, text)
            })?;
        let mut runner = JsRunner::defaults("jest");
        let find = |key: &str| settings.iter().find(|setting| setting.path == key);
        if settings
            .iter()
            .any(|setting| setting.path == "projects" || setting.path.starts_with("projects."))
        {
            return Some(runner);
        }
        // `rootDir` (default: the configuration's directory, the repository root here) is what
        // `<rootDir>` stands for, and the default of `roots`.
        let root_dir = find("rootDir")
            .and_then(literal_values)
            .and_then(|values| values.first().map(|value| relative(value)))
            .filter(|dir| !dir.split('/').any(|part| part == ".."))
            .unwrap_or_default();
        let with_root = |text: &str, root: &str| {
            let replacement = if root_dir.is_empty() {
                root.to_string()
            } else {
                format!("{root}/{root_dir}")
            };
            text.replace("<rootDir>", &replacement)
        };
        runner.roots = match find("roots").filter(|roots| roots.literal) {
            Some(roots) => roots
                .values
                .iter()
                .map(|root| relative(&with_root(root, "")))
                .collect(),
            None => vec![root_dir.clone()],
        };
        if runner.roots.iter().any(String::is_empty) {
            runner.roots.clear();
        }
        let test_match = find("testMatch").and_then(literal_values);
        let test_regex = find("testRegex").and_then(literal_values);
        runner.matching = match (test_match, test_regex) {
            (Some(globs), _) if !globs.is_empty() => Some(Matching::Globs(
                "testMatch",
                globs
                    .iter()
                    .map(|glob| compile_glob(&with_root(glob, "")))
                    .collect(),
            )),
            (_, Some(regexes)) if !regexes.is_empty() => regexes
                .iter()
                .map(|source| Some((js_regex(source)?, source.clone())))
                .collect::<Option<Vec<_>>>()
                .map(|regexes| Matching::Regexes("testRegex", regexes)),
            // An empty list collects nothing, as in jest.
            (Some(_), _) => Some(Matching::Globs("testMatch", Vec::new())),
            _ => None,
        };
        // Exclusions: the literal entries count even in a partly computed list (they are
        // excluded whatever the rest is).
        if let Some(ignore) = find("testPathIgnorePatterns") {
            runner.ignore = ignore
                .values
                .iter()
                .filter_map(|source| {
                    let regex = js_regex(&with_root(source, ROOT))?;
                    Some(Ignore::Regex(
                        "testPathIgnorePatterns",
                        regex,
                        source.clone(),
                    ))
                })
                .collect();
        }
        Some(runner)
    }

    /// Reads the vitest configuration among `configs`: the first `vitest.config.*`, else a
    /// `vite.config.*` with a `test` block. `None` without one.
    pub fn vitest(configs: &[(String, String)]) -> Option<JsRunner> {
        let settings = VITEST_CONFIGS.iter().find_map(|name| {
            let (_, text) = configs.iter().find(|(path, _)| path == name)?;
            vitest_settings(name, text)
        })?;
        let mut runner = JsRunner::defaults("vitest");
        let find = |key: &str| settings.iter().find(|setting| setting.path == key);
        if settings.iter().any(|setting| {
            ["test.projects", "test.workspace"]
                .iter()
                .any(|key| setting.path == *key || setting.path.starts_with(&format!("{key}.")))
        }) {
            return Some(runner);
        }
        let simple = |key: &str| {
            find(key)
                .and_then(literal_values)
                .and_then(|values| values.first().map(|value| relative(value)))
                .filter(|dir| !dir.starts_with('/') && !dir.split('/').any(|part| part == ".."))
        };
        runner.type_tests = settings.iter().any(|setting| {
            setting.path == "test.typecheck" || setting.path.starts_with("test.typecheck.")
        });
        let root = simple("test.root").or_else(|| simple("root"));
        let dir = simple("test.dir");
        runner.base = [root, dir]
            .into_iter()
            .flatten()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("/");
        if let Some(include) = find("test.include").and_then(literal_values) {
            runner.matching = Some(Matching::Globs(
                "include",
                include.iter().map(|glob| compile_glob(glob)).collect(),
            ));
        }
        runner.ignore = match find("test.exclude") {
            Some(exclude) => exclude
                .values
                .iter()
                .map(|glob| Ignore::Glob("exclude", Glob::new(&relative_glob(glob))))
                .collect(),
            None => ["**/node_modules/**", "**/.git/**"]
                .iter()
                .map(|glob| Ignore::Glob("exclude", Glob::new(glob)))
                .collect(),
        };
        Some(runner)
    }

    /// ava, when base's `package.json` uses it (a dependency, an `ava` key or an `ava` script):
    /// its `files` globs when literal, else ava's defaults (`test.js`, `test-*.js`, `*.spec.js`,
    /// `*.test.js` and files under `test/`, `tests/` and `__tests__/`, except helper and
    /// fixture folders and files starting with `_`), for every JS/TS extension since
    /// `@ava/typescript` adds them.
    pub fn ava(configs: &[(String, String)]) -> Option<JsRunner> {
        let (_, package) = configs.iter().find(|(path, _)| path == "package.json")?;
        let package: serde_json::Value = crate::text::parse_json(package).ok()?;
        let depends = ["devDependencies", "dependencies"]
            .iter()
            .any(|key| package.get(key).and_then(|deps| deps.get("ava")).is_some());
        let script = package
            .get("scripts")
            .and_then(serde_json::Value::as_object)
            .is_some_and(|scripts| {
                scripts.values().filter_map(|s| s.as_str()).any(|script| {
                    script
                        .split(|c: char| c.is_whitespace() || c == '&' || c == ';')
                        .any(|word| word == "ava")
                })
            });
        if !depends && !script && package.get("ava").is_none() {
            return None;
        }
        let mut runner = JsRunner::defaults("ava");
        let files: Option<Vec<String>> = package
            .get("ava")
            .and_then(|ava| ava.get("files"))
            .and_then(serde_json::Value::as_array)
            .map(|files| {
                files
                    .iter()
                    .filter_map(|file| file.as_str().map(str::to_string))
                    .collect()
            });
        let (key, globs): (&'static str, Vec<String>) = match files {
            Some(files) if !files.is_empty() => ("files", files),
            _ => (
                "default files",
                AVA_FILES
                    .iter()
                    .map(|glob| glob.replace("EXT", AVA_EXTENSIONS))
                    .chain(AVA_IGNORED.iter().map(|glob| format!("!{glob}")))
                    .collect(),
            ),
        };
        runner.matching = Some(Matching::Globs(
            key,
            globs.iter().map(|glob| compile_glob(glob)).collect(),
        ));
        Some(runner)
    }

    /// Another runner found in base whose settings are not read: playwright, mocha, or jest
    /// and vitest started with `--config` from a `package.json` script (NestJS runs its e2e
    /// tests with `jest --config ./test/jest-e2e.json`). The default patterns stand for it,
    /// so its test files stay test files when the root configuration is narrower.
    pub fn others(configs: &[(String, String)]) -> Option<JsRunner> {
        if let Some((_, tool)) = OTHER_RUNNERS
            .iter()
            .find(|(name, _)| configs.iter().any(|(path, _)| path == name))
        {
            return Some(JsRunner::defaults(tool));
        }
        let (_, package) = configs.iter().find(|(path, _)| path == "package.json")?;
        let package: serde_json::Value = crate::text::parse_json(package).ok()?;
        let scripts = package.get("scripts")?.as_object()?;
        scripts
            .values()
            .filter_map(|script| script.as_str())
            .find_map(|script| {
                let words: Vec<&str> = script.split_whitespace().collect();
                let runner = words
                    .iter()
                    .position(|word| matches!(*word, "jest" | "vitest"))?;
                let configured = words[runner..].iter().any(|word| {
                    matches!(*word, "-c" | "--config" | "--project")
                        || word.starts_with("--config=")
                        || word.starts_with("--project=")
                });
                let tool = if words[runner] == "jest" {
                    "jest --config"
                } else {
                    "vitest --config"
                };
                configured.then(|| JsRunner::defaults(tool))
            })
    }

    fn defaults(tool: &'static str) -> JsRunner {
        JsRunner {
            tool,
            roots: Vec::new(),
            base: String::new(),
            matching: None,
            ignore: Vec::new(),
            type_tests: false,
        }
    }

    /// Whether this runner collects tests from `path` (repository-relative).
    pub fn collects(&self, path: &str) -> bool {
        self.reason(path).is_none()
    }

    /// Why this runner does not collect `path`, naming the setting; `None` when it does.
    pub fn reason(&self, path: &str) -> Option<String> {
        let tool = self.tool;
        if !self.roots.is_empty() && !self.roots.iter().any(|root| under(path, root)) {
            return Some(format!("{tool} `roots`: {}", quoted(&self.roots)));
        }
        let relative = if self.base.is_empty() {
            path
        } else if under(path, &self.base) {
            &path[self.base.len() + 1..]
        } else {
            let key = "`dir`/`root`";
            return Some(format!("{tool} {key}: `{}`", self.base));
        };
        let absolute = format!("{ROOT}/{path}");
        for ignore in &self.ignore {
            match ignore {
                Ignore::Regex(key, regex, source) if regex.is_match(&absolute) => {
                    return Some(format!("excluded by {tool} `{key}`: `{source}`"));
                }
                Ignore::Glob(key, glob) if excluded(glob, relative) => {
                    return Some(format!("excluded by {tool} `{key}`: `{}`", glob.as_str()));
                }
                _ => {}
            }
        }
        let (matched, key, patterns) = match &self.matching {
            None => (
                default_test_file(path),
                "default patterns".to_string(),
                DEFAULT_PATTERNS.to_string(),
            ),
            Some(Matching::Globs("default files", globs)) => (
                globs_match(globs, relative),
                "default `files`".to_string(),
                AVA_SUMMARY.to_string(),
            ),
            Some(Matching::Globs(key, globs)) => (
                globs_match(globs, relative),
                format!("`{key}`"),
                quoted(globs.iter().map(|(glob, negated)| {
                    if *negated {
                        format!("!{}", glob.as_str())
                    } else {
                        glob.as_str().to_string()
                    }
                })),
            ),
            Some(Matching::Regexes(key, regexes)) => (
                regexes.iter().any(|(regex, _)| regex.is_match(&absolute)),
                format!("`{key}`"),
                quoted(regexes.iter().map(|(_, source)| source.clone())),
            ),
        };
        // vitest's `typecheck.include` default, beside `include`.
        let type_test = self.type_tests && {
            let file = relative.rsplit('/').next().unwrap_or(relative);
            file.split('.')
                .rev()
                .nth(1)
                .is_some_and(|part| part == "test-d" || part == "spec-d")
        };
        if matched || type_test {
            return None;
        }
        if patterns.is_empty() {
            return Some(format!("{tool} {key} is empty"));
        }
        Some(format!("{tool} {key}: {patterns}"))
    }
}

/// jest-util's `globsToMatcher`: in order, a matching positive glob keeps the path and a
/// matching negated glob drops it; with only negated globs, what none of them matches is kept.
fn globs_match(globs: &[(Glob, bool)], path: &str) -> bool {
    let mut kept: Option<bool> = None;
    for (glob, negated) in globs {
        let matched = glob.is_match(path);
        if *negated && matched {
            kept = Some(false);
        } else if !*negated && matched {
            kept = Some(true);
        }
    }
    if !globs.is_empty() && globs.iter().all(|(_, negated)| *negated) {
        kept != Some(false)
    } else {
        kept == Some(true)
    }
}

/// tinyglobby, which vitest globs with, applies `ignore` to each directory it crawls as well as
/// to files (its crawler's `exclude` callback), so `exclude: ['src']` drops everything below
/// `src/`.
fn excluded(glob: &Glob, relative: &str) -> bool {
    glob.is_match(relative)
        || relative
            .match_indices('/')
            .any(|(index, _)| glob.is_match(&relative[..index]))
}

fn literal_values(setting: &RunnerSetting) -> Option<Vec<String>> {
    setting.literal.then(|| setting.values.clone())
}

/// A glob, negated when it starts with `!` (but not `!(`, an extglob).
fn compile_glob(pattern: &str) -> (Glob, bool) {
    match pattern.strip_prefix('!') {
        Some(rest) if !rest.starts_with('(') => (Glob::new(&relative_glob(rest)), true),
        _ => (Glob::new(&relative_glob(pattern)), false),
    }
}

/// A glob relative to the repository root: `<rootDir>/`, `./` and a leading `/` dropped.
fn relative_glob(pattern: &str) -> String {
    let mut rest = pattern.trim();
    loop {
        let next = rest
            .strip_prefix("<rootDir>")
            .or_else(|| rest.strip_prefix("./"))
            .or_else(|| rest.strip_prefix('/'));
        match next {
            Some(next) => rest = next,
            None => return rest.to_string(),
        }
    }
}

/// A directory relative to the repository root, without `./`, `<rootDir>` or slashes at the
/// ends ("" for the root itself).
fn relative(dir: &str) -> String {
    let dir = relative_glob(dir);
    let dir = dir.trim_end_matches('/');
    if dir == "." {
        String::new()
    } else {
        dir.to_string()
    }
}

fn under(path: &str, dir: &str) -> bool {
    path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/'
}

/// A JavaScript regex as the `regex` crate reads it: a string, or a `/body/flags` literal from
/// a JavaScript configuration.
fn js_regex(source: &str) -> Option<Regex> {
    let (body, flags) = match source
        .strip_prefix('/')
        .and_then(|rest| rest.rsplit_once('/'))
    {
        Some((body, flags)) if flags.chars().all(|c| c.is_ascii_alphabetic()) => (body, flags),
        _ => (source, ""),
    };
    let prefix = if flags.contains('i') { "(?i)" } else { "" };
    Regex::new(&format!("{prefix}{body}")).ok()
}

fn quoted(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    items
        .into_iter()
        .map(|item| format!("`{}`", item.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configs(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect()
    }

    #[test]
    fn jest_test_match_replaces_the_defaults() {
        let jest = JsRunner::jest(&configs(&[(
            "jest.config.js",
            "module.exports = { testMatch: ['<rootDir>/src/**/*.check.js', '!**/fixtures/**'] };",
        )]))
        .unwrap();
        assert!(jest.collects("src/a/b.check.js"));
        assert!(!jest.collects("src/fixtures/b.check.js"));
        assert!(!jest.collects("src/a.test.js"));
        assert!(!jest.collects("lib/a.check.js"));
        assert_eq!(
            jest.reason("src/a.test.js").unwrap(),
            "jest `testMatch`: `src/**/*.check.js`, `!**/fixtures/**`"
        );
    }

    #[test]
    fn jest_regexes_roots_and_ignores() {
        let jest = JsRunner::jest(&configs(&[(
            "jest.config.ts",
            "export default { roots: ['<rootDir>/src', '<rootDir>/test'], testRegex: '(/__tests__/.*|\\\\.(test|spec))\\\\.[jt]sx?$', testPathIgnorePatterns: ['<rootDir>/src/legacy/', '/fixtures/'] };",
        )]))
        .unwrap();
        assert!(jest.collects("src/a.test.ts"));
        assert!(jest.collects("test/__tests__/a.js"));
        assert!(!jest.collects("lib/a.test.ts"), "outside roots");
        assert!(!jest.collects("src/legacy/a.test.ts"));
        assert!(!jest.collects("src/x/fixtures/a.test.ts"));
        assert!(!jest.collects("src/a.ts"));
        assert_eq!(
            jest.reason("src/legacy/a.test.ts").unwrap(),
            "excluded by jest `testPathIgnorePatterns`: `<rootDir>/src/legacy/`"
        );
    }

    #[test]
    fn package_json_and_computed_values() {
        let package = configs(&[(
            "package.json",
            r#"{"name": "x", "jest": {"testMatch": ["**/*.it.js"]}}"#,
        )]);
        let jest = JsRunner::jest(&package).unwrap();
        assert!(jest.collects("a/b.it.js"));
        assert!(!jest.collects("a/b.test.js"));
        assert!(JsRunner::jest(&configs(&[("package.json", r#"{"name": "x"}"#)])).is_none());
        // A spread of the defaults: unknown, so the defaults.
        let computed = JsRunner::jest(&configs(&[(
            "jest.config.js",
            "const { defaults } = require('jest-config');\nmodule.exports = { testMatch: [...defaults.testMatch, '**/*.it.js'] };",
        )]))
        .unwrap();
        assert!(computed.collects("a/b.test.js"));
        assert!(!computed.collects("a/b.it.js"));
        // Projects: each project has its own patterns, not followed.
        let projects = JsRunner::jest(&configs(&[(
            "jest.config.js",
            "module.exports = { projects: [{ testMatch: ['**/*.it.js'] }] };",
        )]))
        .unwrap();
        assert!(projects.collects("a/b.test.js"));
    }

    #[test]
    fn vitest_include_exclude_and_dir() {
        let vitest = JsRunner::vitest(&configs(&[(
            "vitest.config.ts",
            "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { dir: './packages', include: ['**/*.vitest.ts'], exclude: ['**/e2e/**'] } });",
        )]))
        .unwrap();
        assert!(vitest.collects("packages/a/b.vitest.ts"));
        assert!(!vitest.collects("packages/e2e/b.vitest.ts"));
        assert!(!vitest.collects("src/b.vitest.ts"), "outside dir");
        assert!(!vitest.collects("packages/a/b.test.ts"));
        // A vite config without a test block is not a vitest configuration.
        assert!(
            JsRunner::vitest(&configs(&[(
                "vite.config.ts",
                "export default { plugins: [] }"
            )]))
            .is_none()
        );
        let vite = JsRunner::vitest(&configs(&[(
            "vite.config.mjs",
            "export default { test: { environment: 'jsdom' } }",
        )]))
        .unwrap();
        assert!(vite.collects("src/a.test.js"));
        assert!(!vite.collects("node_modules/x/a.test.js"));
        // Directory names exclude what is below them; literal entries of a computed list count.
        let dirs = JsRunner::vitest(&configs(&[(
            "vitest.config.js",
            "export default { test: { include: ['**/*.test.ts'], exclude: [...configDefaults.exclude, 'src', 'e2e/**'] } }",
        )]))
        .unwrap();
        assert!(!dirs.collects("src/a/b.test.ts"));
        assert!(!dirs.collects("e2e/b.test.ts"));
        assert!(dirs.collects("lib/src2/b.test.ts"));
    }

    #[test]
    fn jest_root_dir_and_script_configs() {
        // NestJS's layout: unit specs under `rootDir`, e2e specs run with another config.
        let package = r#"{
          "scripts": {"test": "jest", "test:e2e": "jest --config ./test/jest-e2e.json"},
          "jest": {"rootDir": "src", "testRegex": ".*\\.spec\\.ts$", "testPathIgnorePatterns": ["<rootDir>/legacy/"]}
        }"#;
        let files = configs(&[("package.json", package)]);
        let jest = JsRunner::jest(&files).unwrap();
        assert!(jest.collects("src/app.service.spec.ts"));
        assert!(!jest.collects("test/app.e2e-spec.ts"), "outside rootDir");
        assert!(!jest.collects("src/legacy/a.spec.ts"));
        let others = JsRunner::others(&files).unwrap();
        assert!(others.collects("test/app.e2e-spec.ts"));
        assert!(
            JsRunner::others(&configs(&[(
                "package.json",
                r#"{"scripts": {"test": "jest --coverage"}}"#
            )]))
            .is_none()
        );
    }

    #[test]
    fn ava_from_package_json() {
        let runner = |package: &str| JsRunner::ava(&configs(&[("package.json", package)]));
        assert!(runner(r#"{"devDependencies": {"jest": "29"}}"#).is_none());
        let ava = runner(r#"{"devDependencies": {"ava": "^6"}}"#).unwrap();
        for path in [
            "test.js",
            "test-api.mjs",
            "src/a.test.ts",
            "test/api.js",
            "lib/tests/deep/x.cjs",
        ] {
            assert!(ava.collects(path), "{path}");
        }
        for path in [
            "src/index.js",
            "test/helpers/run.js",
            "test/fixtures/a.js",
            "test/_setup.js",
            "tests/x.py",
        ] {
            assert!(!ava.collects(path), "{path}");
        }
        let configured = runner(r#"{"scripts": {"test": "xo && ava"}, "ava": {"files": ["spec/**/*.js", "!spec/skip/**"]}}"#).unwrap();
        assert!(configured.collects("spec/a.js"));
        assert!(!configured.collects("spec/skip/a.js"));
        assert!(!configured.collects("test.js"));
        assert!(
            configured
                .reason("test.js")
                .unwrap()
                .contains("ava `files`")
        );
        assert!(
            ava.reason("test/helpers/run.js")
                .unwrap()
                .contains("ava default `files`: `test.js`")
        );
    }

    #[test]
    fn globs_to_matcher_order() {
        let globs = |list: &[&str]| -> Vec<(Glob, bool)> {
            list.iter().map(|glob| compile_glob(glob)).collect()
        };
        assert!(globs_match(&globs(&["**/*.js", "!**/x/**"]), "a/b.js"));
        assert!(!globs_match(&globs(&["**/*.js", "!**/x/**"]), "x/b.js"));
        assert!(globs_match(&globs(&["!**/x/**"]), "a/b.js"));
        assert!(!globs_match(&globs(&[]), "a/b.js"));
    }
}

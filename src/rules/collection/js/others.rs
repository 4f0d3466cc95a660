//! The other runners of a directory: ava (from `package.json`), playwright
//! (`playwright*.config.*`: `testDir`, `testMatch`, `testIgnore`, per project too), mocha
//! (`.mocharc.*` or `package.json`'s `mocha` key: `spec`, `ignore`, `extension`,
//! `recursive`), and jest or vitest started with `--config` from a `package.json` script
//! (NestJS runs its e2e tests with `jest --config ./test/jest-e2e.json`), which stands for the
//! default patterns.
//!
//! playwright prefixes each `testMatch`/`testIgnore` glob with `**/` and matches the absolute
//! path (`createFileMatcher`); its default is `**/*.@(spec|test).?(c|m)[jt]s?(x)`. mocha
//! reads a `spec` entry without glob characters as a file, or as a directory whose files with
//! the configured extensions it runs (recursively with `recursive`). Without literal settings
//! these runners keep the default patterns.

use super::literal::{Literal, from_json};
use super::runner::{Ignore, JsRunner, Matching, compile_glob, join_dir, js_regex, relative_glob};
use super::{Config, Kind, Tool, config_kind, label};
use crate::rules::collection::glob::Glob;
use serde_json::Value;

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

/// playwright's default `testMatch`.
const PLAYWRIGHT_MATCH: &str = "**/*.@(spec|test).?(c|m)[jt]s?(x)";

/// The mocharc files, in mocha's order of preference.
const MOCHARC: &[&str] = &[
    ".mocharc.cjs",
    ".mocharc.js",
    ".mocharc.yaml",
    ".mocharc.yml",
    ".mocharc.jsonc",
    ".mocharc.json",
];

/// The ava, playwright, mocha and `--config` script runners of directory `dir`.
pub(super) fn configs(
    dir: &str,
    names: &[&str],
    in_dir: &super::InDir<'_>,
    package: Option<&(String, Value)>,
) -> Vec<Config> {
    let mut out = Vec::new();
    if let Some((path, package)) = package {
        out.extend(ava(path, dir, package));
        out.extend(script_configs(path, dir, package, in_dir));
    }
    for name in names {
        if config_kind(name) == Some(Kind::Playwright)
            && let Some((path, text)) = in_dir.get(name)
        {
            out.push(playwright(&path, dir, &in_dir.value(&path, text)));
        }
    }
    let mocharc = MOCHARC
        .iter()
        .find_map(|name| in_dir.get(name))
        .map(|(path, text)| (in_dir.value(&path, text), path))
        .or_else(|| {
            let (path, package) = package?;
            Some((from_json(package.get("mocha")?), path.clone()))
        });
    if let Some((value, path)) = mocharc {
        out.push(mocha(&path, dir, &value));
    }
    out
}

/// ava, when `package.json` uses it (a dependency, an `ava` key or an `ava` script): its
/// `files` globs when literal, else ava's defaults (`test.js`, `test-*.js`, `*.spec.js`,
/// `*.test.js` and files under `test/`, `tests/` and `__tests__/`, except helper and fixture
/// folders and files starting with `_`), for every JS/TS extension since `@ava/typescript`
/// adds them.
fn ava(path: &str, dir: &str, package: &Value) -> Option<Config> {
    let depends = ["devDependencies", "dependencies"]
        .iter()
        .any(|key| package.get(key).and_then(|deps| deps.get("ava")).is_some());
    let script = package
        .get("scripts")
        .and_then(Value::as_object)
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
    let mut config = Config::new(Tool::Ava, path, dir);
    let mut runner = JsRunner::defaults(label("ava", path, true), dir);
    let files: Option<Vec<String>> = package
        .get("ava")
        .and_then(|ava| ava.get("files"))
        .and_then(Value::as_array)
        .map(|files| {
            files
                .iter()
                .filter_map(|file| file.as_str().map(str::to_string))
                .collect()
        });
    runner.matching = Some(match files {
        Some(files) if !files.is_empty() => Matching::globs("files", &files),
        _ => {
            let globs: Vec<String> = AVA_FILES
                .iter()
                .map(|glob| glob.replace("EXT", AVA_EXTENSIONS))
                .chain(AVA_IGNORED.iter().map(|glob| format!("!{glob}")))
                .collect();
            let mut matching = Matching::globs("default `files`", &globs);
            matching.summary = Some(AVA_SUMMARY);
            matching
        }
    });
    config.runners.push(runner);
    Some(config)
}

/// jest or vitest started with `--config` (or vitest `--project`) from a script: the default
/// patterns stand for it, unless every such script names a configuration file that is read
/// with the others (`jest --config jest.config.ci.mjs`: that file's settings judge).
fn script_configs(
    path: &str,
    dir: &str,
    package: &Value,
    in_dir: &super::InDir<'_>,
) -> Option<Config> {
    let scripts = package.get("scripts")?.as_object()?;
    let tool = scripts
        .values()
        .filter_map(|script| script.as_str())
        .find_map(|script| {
            let words: Vec<&str> = script.split_whitespace().collect();
            let runner = words
                .iter()
                .position(|word| matches!(*word, "jest" | "vitest"))?;
            let mut named: Option<&str> = None;
            let mut configured = false;
            for (index, word) in words.iter().enumerate().skip(runner) {
                if let Some(value) = word
                    .strip_prefix("--config=")
                    .or_else(|| word.strip_prefix("--project="))
                {
                    configured = true;
                    named = named.or(Some(value));
                } else if matches!(*word, "-c" | "--config" | "--project") {
                    configured = true;
                    named = named.or(words.get(index + 1).copied());
                }
            }
            let read = named
                .map(|file| file.trim_matches(|c| c == '"' || c == '\''))
                .and_then(|file| join_dir(dir, file))
                .is_some_and(|file| in_dir.texts.contains_key(file.as_str()));
            let tool = if words[runner] == "jest" {
                "jest --config"
            } else {
                "vitest --config"
            };
            (configured && !read).then_some(tool)
        })?;
    let mut config = Config::new(Tool::Script, path, dir);
    config
        .runners
        .push(JsRunner::defaults(label(tool, path, true), dir));
    Some(config)
}

/// A playwright configuration: one runner, or one per project (a project's settings over the
/// top-level ones).
fn playwright(path: &str, dir: &str, value: &Literal) -> Config {
    let mut config = Config::new(Tool::Playwright, path, dir);
    let label = label(
        "playwright",
        path,
        path.ends_with(".config.ts") && !path.contains('/'),
    );
    let projects: Vec<&Literal> = value
        .get("projects")
        .map(Literal::items)
        .unwrap_or_default()
        .into_iter()
        .filter(|project| matches!(project, Literal::Object(_)))
        .collect();
    if projects.is_empty() {
        config.runners.push(playwright_runner(&[value], dir, label));
        return config;
    }
    for (index, project) in projects.into_iter().enumerate() {
        let name = project
            .get("name")
            .and_then(Literal::text)
            .map_or_else(|| (index + 1).to_string(), str::to_string);
        let label = format!("{label} project `{name}`");
        config
            .runners
            .push(playwright_runner(&[project, value], dir, label));
    }
    config
}

/// A playwright runner from `layers` (the first that sets a key wins).
fn playwright_runner(layers: &[&Literal], dir: &str, label: String) -> JsRunner {
    let find = |key: &str| layers.iter().find_map(|layer| layer.get(key));
    let mut runner = JsRunner::defaults(label, dir);
    runner.roots_key = "testDir";
    // An unknown `testDir` keeps the whole directory.
    if let Some(test_dir) = find("testDir")
        .and_then(Literal::text)
        .and_then(|test_dir| join_dir(dir, test_dir))
        && test_dir != dir
    {
        runner.roots = vec![test_dir];
    }
    let mut matching = Matching::globs("testMatch", &[]);
    matching.whole_path = true;
    let known = find("testMatch").and_then(|test_match| {
        test_match
            .items()
            .into_iter()
            .map(|item| match item {
                Literal::Text(glob) => Some(Err(whole_path_glob(glob))),
                Literal::Regex(source) => Some(Ok((js_regex(source)?, source.clone()))),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
    });
    for item in known.unwrap_or_else(|| vec![Err(Glob::new(PLAYWRIGHT_MATCH))]) {
        match item {
            Ok(regex) => matching.regexes.push(regex),
            Err(glob) => matching.globs.push((glob, false)),
        }
    }
    runner.matching = Some(matching);
    runner.ignore = find("testIgnore")
        .map(Literal::items)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|item| match item {
            Literal::Text(glob) => Some(Ignore::PathGlob("testIgnore", whole_path_glob(glob))),
            Literal::Regex(source) => Some(Ignore::Regex(
                "testIgnore",
                js_regex(source)?,
                source.clone(),
            )),
            _ => None,
        })
        .collect();
    runner
}

/// playwright's `createFileMatcher`: a glob not starting with `**/` gets it.
fn whole_path_glob(glob: &str) -> Glob {
    let glob = relative_glob(glob);
    if glob.starts_with("**/") {
        Glob::new(&glob)
    } else {
        Glob::new(&format!("**/{glob}"))
    }
}

/// A mocha configuration: its literal `spec` entries, relative to its directory.
fn mocha(path: &str, dir: &str, value: &Literal) -> Config {
    let mut config = Config::new(Tool::Mocha, path, dir);
    let mut runner = JsRunner::defaults(label("mocha", path, !path.contains('/')), dir);
    let mut extensions = vec!["js".to_string(), "cjs".to_string(), "mjs".to_string()];
    if let Some(more) = value.get("extension") {
        extensions.extend(more.known_strings());
    }
    let recursive = value.get("recursive").and_then(Literal::text) == Some("true");
    if let Some(spec) = value.get("spec").and_then(Literal::strings) {
        let globs: Vec<String> = spec
            .iter()
            .map(|entry| spec_glob(entry, &extensions, recursive))
            .collect();
        runner.matching = Some(Matching::globs("spec", &globs));
    }
    runner.ignore = value
        .get("ignore")
        .map(Literal::known_strings)
        .unwrap_or_default()
        .iter()
        .map(|glob| Ignore::Glob {
            key: "ignore",
            glob: compile_glob(glob).0,
            dirs: false,
        })
        .collect();
    config.runners.push(runner);
    config
}

/// A `spec` entry as a glob: globs and files as written, a directory as its files.
fn spec_glob(entry: &str, extensions: &[String], recursive: bool) -> String {
    let entry = relative_glob(entry);
    let entry = entry.trim_end_matches('/');
    let last = entry.rsplit('/').next().unwrap_or(entry);
    if entry.contains(['*', '?', '[', '{']) || last.contains('.') {
        return entry.to_string();
    }
    let extensions = extensions
        .iter()
        .map(|extension| extension.trim_start_matches('.'))
        .collect::<Vec<_>>()
        .join(",");
    let files = if recursive { "**/*" } else { "*" };
    if entry.is_empty() {
        format!("{files}.{{{extensions}}}")
    } else {
        format!("{entry}/{files}.{{{extensions}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::collection;

    #[test]
    fn ava_from_package_json() {
        let runner = |package: &str| collection(&[("package.json", package)]);
        assert!(runner(r#"{"devDependencies": {"jest": "29"}}"#).is_empty());
        let ava = runner(r#"{"devDependencies": {"ava": "^6"}}"#);
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
        ] {
            assert!(!ava.collects(path), "{path}");
        }
        let configured = runner(
            r#"{"scripts": {"test": "xo && ava"}, "ava": {"files": ["spec/**/*.js", "!spec/skip/**"]}}"#,
        );
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
    fn playwright_test_dir_match_and_ignore() {
        let playwright = collection(&[(
            "playwright.config.ts",
            "export default defineConfig({ testDir: './e2e', testMatch: ['**/*.e2e.ts', /flows\\/.*\\.ts$/], testIgnore: 'legacy/**' })",
        )]);
        assert!(playwright.collects("e2e/checkout.e2e.ts"));
        assert!(playwright.collects("e2e/flows/login.ts"));
        assert!(!playwright.collects("e2e/legacy/old.e2e.ts"));
        assert!(
            !playwright.collects("src/checkout.e2e.ts"),
            "outside testDir"
        );
        // Only an addition: the default patterns stand for runners nobody configured.
        assert!(playwright.collects("src/cart.test.ts"));
        let projects = collection(&[(
            "apps/web/playwright.config.ts",
            "export default { testDir: 'tests', projects: [{ name: 'smoke', testDir: 'smoke', testMatch: '*.check.ts' }, { name: 'all' }] }",
        )]);
        assert!(projects.collects("apps/web/smoke/a.check.ts"));
        assert!(projects.collects("apps/web/tests/a.spec.ts"));
        assert!(!projects.collects("apps/web/src/a.check.ts"));
    }

    #[test]
    fn mocha_spec_entries() {
        let mocha = collection(&[
            (
                ".mocharc.yml",
                "spec:\n  - 'specs/**/*.js'\n  - lib/checks\nextension: [ts]\nignore: ['specs/skip/**']\n",
            ),
            (
                "vitest.config.ts",
                "export default { test: { include: ['src/**/*.test.ts'] } }",
            ),
        ]);
        assert!(mocha.collects("specs/cart.js"));
        assert!(mocha.collects("lib/checks/cart.ts"));
        assert!(!mocha.collects("lib/checks/deep/cart.ts"), "not recursive");
        assert!(!mocha.collects("specs/skip/cart.js"));
        assert!(mocha.collects("src/a.test.ts"));
        assert!(
            !mocha.collects("test/a.test.js"),
            "vitest decides, mocha adds only its spec"
        );
        let package = collection(&[(
            "package.json",
            r#"{"mocha": {"spec": "checks", "recursive": true}}"#,
        )]);
        assert!(package.collects("checks/deep/a.js"));
    }
}

//! Test runner configuration that excludes tests, compared between base and head: pytest
//! (`addopts` exclusions, `norecursedirs`, narrowed `testpaths`), jest (ignore patterns,
//! narrowed `testMatch`/`testRegex`), vitest (`test.exclude`, narrowed `test.include`) and Cargo
//! (`[[test]] test = false`, `autotests = false`, `test`/`doctest = false` on the library).
//! Messages name what is excluded. Excluding one named test or test file is an error; a
//! directory, glob or marker expression is a warning, unless the jest/vitest edit stops
//! collecting test files that base has (judged by the runner's own rules over base's files):
//! then it is an error that names them. With several vitest projects, a project's new
//! `exclude` of a folder that another project's `include` still reaches is not reported when
//! no existing test file is left to no project.

use super::config_text::{at, ini, js_settings, jsonc, shell_words, string_list, toml};
use super::{Output, file_name, locate, locate_key, push};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::rules::FileContext;
use serde_json::Value;
use std::collections::BTreeSet;

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    let name = file_name(path);
    let Some(head) = context.side(Side::Head).map(|side| side.text) else {
        return;
    };
    let base_text = context.side(Side::Base).map(|side| side.text);
    let dropped = context
        .collection
        .js_tests_dropped(path, base_text, Some(head));
    // A new file excludes nothing that ran before, unless it drops existing tests.
    let Some(base) = context.side(Side::Base).map(|side| side.text) else {
        report_dropped(context, out, &dropped, head);
        return;
    };
    match name {
        "pytest.ini" | "tox.ini" | "setup.cfg" | "pyproject.toml" => {
            pytest(context, out, name, base, head);
        }
        "Cargo.toml" => cargo(context, out, base, head),
        _ => {}
    }
    let jest = jest_settings(name, base).zip(jest_settings(name, head));
    let jest_reported = jest.is_some_and(|(before, after)| {
        let (before, after) = (jest_values(before), jest_values(after));
        compare_runner(context, out, "jest", &before, &after, head, &dropped)
    });
    let vitest = vitest_settings(name, base).zip(vitest_settings(name, head));
    let vitest_reported = vitest.is_some_and(|(before, after)| {
        let (mut before, after) = (vitest_values(before), vitest_values(after));
        // Several projects: an exclusion another project still covers moves the files, it
        // does not drop them, unless existing test files end up collected by none.
        if dropped.is_empty()
            && let Some(projects) = crate::rules::collection::js::vitest_projects(path, head)
            && let Some(excluded) = after.get("exclude")
        {
            let covered = excluded
                .iter()
                .filter(|item| excluded_elsewhere(item, &projects))
                .cloned();
            before
                .entry("exclude".to_string())
                .or_default()
                .extend(covered);
        }
        compare_runner(context, out, "vitest", &before, &after, head, &dropped)
    });
    if !jest_reported && !vitest_reported {
        report_dropped(context, out, &dropped, head);
    }
}

/// What dropping existing test files adds to a message: how many, and the first few.
fn dropped_clause(dropped: &[&str]) -> String {
    let shown = quoted(dropped.iter().take(3).copied());
    let more = if dropped.len() > 3 { ", …" } else { "" };
    let count = dropped.len();
    let (files, are) = if count == 1 {
        ("file", "is")
    } else {
        ("files", "are")
    };
    format!("{count} existing test {files} ({shown}{more}) {are} no longer collected")
}

/// A configuration edit that drops existing test files without a narrowed key to blame (a new
/// configuration file, a changed `roots`/`dir`, a computed value): an error of its own.
fn report_dropped(context: &FileContext<'_>, out: &mut Output, dropped: &[&str], head: &str) {
    if dropped.is_empty() {
        return;
    }
    let first_added = context.pair.added.iter().next().unwrap_or(1);
    let line = if head.lines().count() >= first_added as usize {
        first_added
    } else {
        1
    };
    push(
        out,
        Side::Head,
        line,
        Severity::Error,
        format!(
            "the test runner configuration `{}` changes so that {}",
            context.pair.path(),
            dropped_clause(dropped)
        ),
        "runner:dropped".to_string(),
    );
}

/// Exclusions in pytest command-line words: `--ignore`, `--ignore-glob`, `--deselect`,
/// `-k "not …"`, `-m "not …"`.
pub fn pytest_exclusions(words: &[String]) -> Vec<(Severity, String)> {
    let mut found = Vec::new();
    let mut index = 0;
    while index < words.len() {
        let word = words[index].as_str();
        let (option, inline) = match word.split_once('=') {
            Some((option, value)) if option.starts_with('-') => (option, Some(value.to_string())),
            _ => (word, None),
        };
        let (option, inline) = match option {
            _ if option.starts_with("-k") && option.len() > 2 && inline.is_none() => {
                ("-k", Some(option[2..].to_string()))
            }
            _ if option.starts_with("-m") && option.len() > 2 && inline.is_none() => {
                ("-m", Some(option[2..].to_string()))
            }
            _ if option.starts_with("-p") && option.len() > 2 && inline.is_none() => {
                ("-p", Some(option[2..].to_string()))
            }
            _ => (option, inline),
        };
        let takes_value = matches!(
            option,
            "--ignore" | "--ignore-glob" | "--deselect" | "-k" | "-m" | "-p"
        );
        if !takes_value {
            index += 1;
            continue;
        }
        let value = match inline {
            Some(value) => value,
            None => {
                index += 1;
                words.get(index).cloned().unwrap_or_default()
            }
        };
        index += 1;
        match option {
            "--ignore" | "--ignore-glob" => {
                let severity = if names_a_test(&value) {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                found.push((severity, format!("excludes `{value}` (`{option}`)")));
            }
            "--deselect" => found.push((Severity::Error, format!("deselects `{value}`"))),
            "-k" if has_not(&value) => {
                found.push((
                    Severity::Error,
                    format!("deselects tests with `-k \"{value}\"`"),
                ));
            }
            "-m" if has_not(&value) => {
                found.push((
                    Severity::Warning,
                    format!("deselects marked tests with `-m \"{value}\"`"),
                ));
            }
            "-p" => {
                if let Some(severity) = value.strip_prefix("no:").and_then(plugin_that_checks) {
                    found.push((
                        severity,
                        format!("switches off the pytest plugin that checks: `-p {value}`"),
                    ));
                }
            }
            _ => {}
        }
    }
    found
}

/// How much switching off a pytest plugin stops checking: the plugins that run checkers as
/// tests (`pytest-mypy`, `pytest-flake8`, `pytest-ruff`, ..) and doctests are errors; the async
/// plugins are warnings (their tests stop running, skipped as unsupported); others (caching,
/// ordering, parallel runs, reruns) check nothing.
fn plugin_that_checks(plugin: &str) -> Option<Severity> {
    let plugin = plugin
        .trim_start_matches("pytest_")
        .trim_start_matches("pytest-");
    match plugin {
        "mypy" | "flake8" | "pylint" | "ruff" | "black" | "isort" | "pycodestyle" | "codestyle"
        | "pydocstyle" | "mccabe" | "bandit" | "pyright" | "typeguard" | "doctest"
        | "doctestplus" | "pyflakes" => Some(Severity::Error),
        "asyncio" | "anyio" | "trio" | "twisted" | "tornado" | "aiohttp" => Some(Severity::Warning),
        _ => None,
    }
}

fn has_not(expression: &str) -> bool {
    expression
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|word| word == "not")
}

/// A single test or test file rather than a directory or glob.
fn names_a_test(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    path.contains("::")
        || (!file.contains('*')
            && (file.starts_with("test_")
                || file.ends_with("_test.py")
                || file.contains(".test.")
                || file.contains(".spec.")))
}

/// The pytest settings of one file: `addopts` words, `norecursedirs`, `testpaths`, and the
/// collection patterns (`python_files`, `python_functions`, `python_classes`).
#[derive(Default)]
pub(crate) struct PytestSettings {
    pub(crate) addopts: Vec<String>,
    pub(crate) norecursedirs: BTreeSet<String>,
    pub(crate) testpaths: BTreeSet<String>,
    pub(crate) python_files: Vec<String>,
    pub(crate) python_functions: Vec<String>,
    pub(crate) python_classes: Vec<String>,
}

/// Reads the pytest settings of `name` (`pytest.ini`, `pyproject.toml`, `tox.ini`,
/// `setup.cfg`), or `None` when the file has no pytest section.
pub(crate) fn pytest_settings(name: &str, text: &str) -> Option<PytestSettings> {
    let mut settings = PytestSettings::default();
    if name == "pyproject.toml" {
        let value = toml(text)?;
        let table = at(&value, &["tool", "pytest", "ini_options"])
            .or_else(|| at(&value, &["tool", "pytest"]))?;
        settings.addopts = match table.get("addopts") {
            Some(Value::String(text)) => shell_words(text),
            other => string_list(other, false),
        };
        settings.norecursedirs = string_list(table.get("norecursedirs"), true)
            .into_iter()
            .collect();
        settings.testpaths = string_list(table.get("testpaths"), true)
            .into_iter()
            .collect();
        settings.python_files = string_list(table.get("python_files"), true);
        settings.python_functions = string_list(table.get("python_functions"), true);
        settings.python_classes = string_list(table.get("python_classes"), true);
        return Some(settings);
    }
    let section = if name == "setup.cfg" {
        "tool:pytest"
    } else {
        "pytest"
    };
    let mut any = false;
    for entry in ini(text)
        .into_iter()
        .filter(|entry| entry.section == section)
    {
        any = true;
        let words = || entry.value.split_whitespace().map(str::to_string);
        match entry.key.as_str() {
            "addopts" => settings.addopts = shell_words(&entry.value),
            "norecursedirs" => settings.norecursedirs = words().collect(),
            "testpaths" => settings.testpaths = words().collect(),
            "python_files" => settings.python_files = words().collect(),
            "python_functions" => settings.python_functions = words().collect(),
            "python_classes" => settings.python_classes = words().collect(),
            _ => {}
        }
    }
    any.then_some(settings)
}

fn pytest(context: &FileContext<'_>, out: &mut Output, name: &str, base: &str, head: &str) {
    let Some(after) = pytest_settings(name, head) else {
        return;
    };
    let before = pytest_settings(name, base).unwrap_or_default();
    let added = &context.pair.added;
    let old: Vec<String> = pytest_exclusions(&before.addopts)
        .into_iter()
        .map(|(_, message)| message)
        .collect();
    for (severity, message) in pytest_exclusions(&after.addopts) {
        if old.contains(&message) {
            continue;
        }
        let needle = message.split('`').nth(1).unwrap_or("addopts");
        let line = locate(head, None, needle, added);
        push(
            out,
            Side::Head,
            line,
            severity,
            format!("pytest configuration in {name} {message}"),
            format!("pytest:{message}"),
        );
    }
    let new_dirs: Vec<&String> = after
        .norecursedirs
        .difference(&before.norecursedirs)
        .collect();
    if !new_dirs.is_empty() {
        let list = quoted(new_dirs.iter().map(|dir| dir.as_str()));
        let line = locate_key(head, "norecursedirs", added);
        push(
            out,
            Side::Head,
            line,
            Severity::Warning,
            format!("pytest `norecursedirs` in {name} stops collecting tests under {list}"),
            format!("pytest:norecursedirs:{list}"),
        );
    }
    let dropped: Vec<&String> = before.testpaths.difference(&after.testpaths).collect();
    if !after.testpaths.is_empty() && !dropped.is_empty() {
        let list = quoted(dropped.iter().map(|dir| dir.as_str()));
        let line = locate_key(head, "testpaths", added);
        push(
            out,
            Side::Head,
            line,
            Severity::Warning,
            format!("pytest `testpaths` in {name} no longer includes {list}"),
            format!("pytest:testpaths:{list}"),
        );
    }
}

fn quoted<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items
        .map(|item| format!("`{item}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One key of a JavaScript test runner's configuration: its path of object keys
/// (`testMatch`, `test.include`, `projects.testMatch`), its literal string values, and whether
/// the value was a literal at all (a computed value is unknown, never guessed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunnerSetting {
    pub(crate) path: String,
    pub(crate) values: Vec<String>,
    pub(crate) literal: bool,
}

/// The jest configuration files jest looks for at the project root (`package.json`'s `jest`
/// key is the fallback).
pub(crate) const JEST_CONFIGS: &[&str] = &[
    "jest.config.js",
    "jest.config.ts",
    "jest.config.mjs",
    "jest.config.cjs",
    "jest.config.mts",
    "jest.config.cts",
    "jest.config.json",
];

/// The vitest configuration files, in vitest's order; `vite.config.*` counts only with a
/// `test` block.
pub(crate) const VITEST_CONFIGS: &[&str] = &[
    "vitest.config.ts",
    "vitest.config.mts",
    "vitest.config.cts",
    "vitest.config.js",
    "vitest.config.mjs",
    "vitest.config.cjs",
    "vite.config.ts",
    "vite.config.mts",
    "vite.config.cts",
    "vite.config.js",
    "vite.config.mjs",
    "vite.config.cjs",
];

/// Every key of a jest configuration: `jest.config.{js,ts,mjs,cjs,mts,cts,json}` or the `jest`
/// key of `package.json`. `None` when the file holds no jest configuration (a `package.json`
/// without `jest`, or JSON that does not parse).
pub(crate) fn jest_settings(name: &str, text: &str) -> Option<Vec<RunnerSetting>> {
    if name == "package.json" {
        let value = jsonc(text)?.get("jest")?.clone();
        let mut out = Vec::new();
        json_settings(&value, "", &mut out);
        return Some(out);
    }
    let (stem, extension) = name.split_once('.')?;
    if stem != "jest" {
        return None;
    }
    if extension.ends_with("json") {
        let mut out = Vec::new();
        json_settings(&jsonc(text)?, "", &mut out);
        return Some(out);
    }
    Some(module_settings(text, js_language(name)?))
}

/// Every key of a vitest configuration (`vitest.config.*`, `vite.config.*`). `None` when the
/// file is not one, or is a vite configuration without a `test` block.
pub(crate) fn vitest_settings(name: &str, text: &str) -> Option<Vec<RunnerSetting>> {
    let stem = name.split('.').next()?;
    if !matches!(stem, "vitest" | "vite") {
        return None;
    }
    let settings = module_settings(text, js_language(name)?);
    let has_test = settings
        .iter()
        .any(|setting| setting.path == "test" || setting.path.starts_with("test."));
    (stem == "vitest" || has_test).then_some(settings)
}

fn js_language(name: &str) -> Option<Language> {
    match name.rsplit_once('.')?.1 {
        "js" | "mjs" | "cjs" => Some(Language::JavaScript),
        "ts" | "mts" | "cts" => Some(Language::TypeScript),
        _ => None,
    }
}

fn module_settings(text: &str, language: Language) -> Vec<RunnerSetting> {
    js_settings(text, language)
        .into_iter()
        .map(|setting| RunnerSetting {
            path: setting.path,
            values: setting.values,
            literal: setting.literal,
        })
        .collect()
}

/// JSON keys with their paths (arrays are transparent, as in JavaScript modules).
fn json_settings(value: &Value, prefix: &str, out: &mut Vec<RunnerSetting>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                out.push(RunnerSetting {
                    path: path.clone(),
                    values: string_list(Some(child), false),
                    literal: true,
                });
                json_settings(child, &path, out);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| json_settings(item, prefix, out)),
        _ => {}
    }
}

const JEST_KEYS: &[&str] = &[
    "testPathIgnorePatterns",
    "modulePathIgnorePatterns",
    "testMatch",
    "testRegex",
];

type Merged = std::collections::BTreeMap<String, BTreeSet<String>>;

/// Jest's exclusion and match keys, anywhere in the config (projects included).
fn jest_values(settings: Vec<RunnerSetting>) -> Merged {
    let mut merged = Merged::new();
    for setting in settings {
        let key = setting.path.rsplit('.').next().unwrap_or_default();
        if JEST_KEYS.contains(&key) {
            merged
                .entry(key.to_string())
                .or_default()
                .extend(setting.values);
        }
    }
    merged
}

/// Vitest's `test.include` and `test.exclude` (projects included).
fn vitest_values(settings: Vec<RunnerSetting>) -> Merged {
    let mut merged = Merged::new();
    for setting in settings {
        let key = if setting.path == "test.exclude" || setting.path.ends_with(".test.exclude") {
            "exclude"
        } else if setting.path == "test.include" || setting.path.ends_with(".test.include") {
            "include"
        } else {
            continue;
        };
        merged
            .entry(key.to_string())
            .or_default()
            .extend(setting.values);
    }
    merged
}

/// Whether the exclusion `item` of some of `projects` leaves the folder it names to another
/// project whose `include` reaches into it (and that does not exclude it too).
fn excluded_elsewhere(item: &str, projects: &[crate::rules::collection::js::JsRunner]) -> bool {
    use crate::rules::collection::js::runner::{Ignore, relative_glob};
    let item = relative_glob(item);
    let excludes = |runner: &crate::rules::collection::js::JsRunner| {
        runner
            .ignore
            .iter()
            .any(|ignore| matches!(ignore, Ignore::Glob { glob, .. } if glob.as_str() == item))
    };
    let owners: Vec<_> = projects.iter().filter(|runner| excludes(runner)).collect();
    !owners.is_empty()
        && owners.iter().all(|owner| {
            let folder = joined(&owner.base, &static_prefix(&item));
            projects
                .iter()
                .filter(|other| !excludes(other))
                .any(|other| {
                    include_prefixes(other)
                        .iter()
                        .any(|prefix| overlaps(prefix, &folder))
                })
        })
}

/// The folders a project's `include` globs start from (its base for the defaults).
fn include_prefixes(runner: &crate::rules::collection::js::JsRunner) -> Vec<String> {
    match &runner.matching {
        None => vec![runner.base.clone()],
        Some(matching) => matching
            .globs
            .iter()
            .filter(|(_, negated)| !negated)
            .map(|(glob, _)| joined(&runner.base, &static_prefix(glob.as_str())))
            .collect(),
    }
}

/// The leading path segments of a glob that hold no glob characters.
fn static_prefix(glob: &str) -> String {
    glob.split('/')
        .take_while(|part| !part.contains(['*', '?', '[', '{', '(', '!', '+', '@']))
        .collect::<Vec<_>>()
        .join("/")
}

fn joined(dir: &str, relative: &str) -> String {
    match (dir.is_empty(), relative.is_empty()) {
        (true, _) => relative.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{relative}"),
    }
}

/// Whether two folders overlap: one holds the other.
fn overlaps(a: &str, b: &str) -> bool {
    let holds = |outer: &str, inner: &str| {
        outer.is_empty()
            || inner == outer
            || inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/')
    };
    holds(a, b) || holds(b, a)
}

/// Reports added ignore/exclude patterns and removed match/include patterns; errors when the
/// edit drops existing test files (`dropped`), warnings otherwise unless a pattern names a
/// test. Returns whether it reported anything.
fn compare_runner(
    context: &FileContext<'_>,
    out: &mut Output,
    tool: &str,
    base: &std::collections::BTreeMap<String, BTreeSet<String>>,
    head: &std::collections::BTreeMap<String, BTreeSet<String>>,
    head_text: &str,
    dropped: &[&str],
) -> bool {
    let mut reported = false;
    let empty = BTreeSet::new();
    for (key, after) in head {
        let before = base.get(key).unwrap_or(&empty);
        let excluding = matches!(
            key.as_str(),
            "testPathIgnorePatterns" | "modulePathIgnorePatterns" | "exclude"
        );
        let changed: Vec<&String> = if excluding {
            after.difference(before).collect()
        } else if before.is_empty() {
            Vec::new()
        } else {
            before.difference(after).collect()
        };
        if changed.is_empty() {
            continue;
        }
        let list = quoted(changed.iter().map(|item| item.as_str()));
        // Named files that exist nowhere at head (a path mistyped, or a file not yet written):
        // the exclusion keeps nothing from running today.
        let config_dir = context
            .pair
            .path()
            .rsplit_once('/')
            .map_or("", |(dir, _)| dir);
        let names_nothing = excluding
            && dropped.is_empty()
            && changed
                .iter()
                .all(|item| context.collection.js_file_at_head(config_dir, item) == Some(false));
        let specific = (changed.iter().any(|item| names_a_test(item)) && !names_nothing)
            || !dropped.is_empty();
        let mut message = if excluding {
            format!("{tool} `{key}` now excludes {list}")
        } else {
            format!("{tool} `{key}` is narrowed: it no longer matches {list}")
        };
        if !dropped.is_empty() {
            message.push_str(&format!(": {}", dropped_clause(dropped)));
        } else if names_nothing {
            message.push_str(" (no such file at head: it excludes nothing that runs today)");
        }
        reported = true;
        let line = match changed.first() {
            Some(item) if excluding => locate(head_text, None, item, &context.pair.added),
            _ => locate_key(head_text, key, &context.pair.added),
        };
        push(
            out,
            Side::Head,
            line,
            if specific {
                Severity::Error
            } else {
                Severity::Warning
            },
            message,
            format!("{tool}:{key}:{list}"),
        );
    }
    reported
}

fn cargo(context: &FileContext<'_>, out: &mut Output, base: &str, head: &str) {
    let (Some(before), Some(after)) = (toml(base), toml(head)) else {
        return;
    };
    let added = &context.pair.added;
    let is_false = |value: Option<&Value>| value == Some(&Value::Bool(false));
    let disabled_tests = |value: &Value| -> BTreeSet<String> {
        value
            .get("test")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|target| is_false(target.get("test")))
            .filter_map(|target| {
                target
                    .get("name")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .collect()
    };
    for name in disabled_tests(&after).difference(&disabled_tests(&before)) {
        let line = locate(head, Some(&format!("\"{name}\"")), "test", added);
        push(
            out,
            Side::Head,
            line,
            Severity::Error,
            format!("Cargo test target `{name}` is excluded from `cargo test` (`test = false`)"),
            format!("cargo:test:{name}"),
        );
    }
    if is_false(at(&after, &["package", "autotests"]))
        && !is_false(at(&before, &["package", "autotests"]))
    {
        let line = locate_key(head, "autotests", added);
        push(
            out,
            Side::Head,
            line,
            Severity::Warning,
            "`autotests = false`: test files under `tests/` no longer run unless listed as `[[test]]`".into(),
            "cargo:autotests".into(),
        );
    }
    for setting in ["test", "doctest"] {
        if is_false(at(&after, &["lib", setting])) && !is_false(at(&before, &["lib", setting])) {
            let line = locate(head, Some("[lib]"), setting, added);
            push(
                out,
                Side::Head,
                line,
                Severity::Warning,
                format!(
                    "`[lib] {setting} = false`: the library's {} no longer run",
                    if setting == "test" {
                        "unit tests"
                    } else {
                        "doctests"
                    }
                ),
                format!("cargo:lib:{setting}"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        shell_words(text)
    }

    #[test]
    fn pytest_exclusions_are_named() {
        let found = pytest_exclusions(&words(
            r#"-q --ignore=tests/test_api.py --deselect tests/a.py::test_b -k "not slow" -m "not db""#,
        ));
        let severities: Vec<Severity> = found.iter().map(|(severity, _)| *severity).collect();
        assert_eq!(
            severities,
            [
                Severity::Error,
                Severity::Error,
                Severity::Error,
                Severity::Warning
            ]
        );
        assert!(found[0].1.contains("tests/test_api.py"));
        assert!(pytest_exclusions(&words("-k smoke --ignore-glob=*/vendor/*")).len() == 1);
        let plugins = pytest_exclusions(&words(
            "-p no:mypy -pno:flake8 -p no:cacheprovider -p xdist -p no:asyncio",
        ));
        let severities: Vec<Severity> = plugins.iter().map(|(severity, _)| *severity).collect();
        assert_eq!(
            severities,
            [Severity::Error, Severity::Error, Severity::Warning]
        );
    }
}

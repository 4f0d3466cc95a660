//! One runner's (or one project's) collection rules, and how a repository path is judged by
//! them. Paths are repository-relative; each runner knows the directory it sees (`scope`, the
//! configuration's directory), the directories tests must live under (`roots`, jest `roots`,
//! playwright `testDir`) and the directory its globs are relative to (`base`, vitest's
//! `root`/`dir`, jest's `rootDir`). Regexes see the path under a stand-in root directory
//! ([`ROOT`]), as jest and playwright match them against the absolute path.

use super::super::glob::Glob;
use regex::Regex;

/// The stand-in for the repository's absolute path when regexes are matched.
pub const ROOT: &str = "/__root__";

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
#[derive(Debug, Clone)]
pub struct JsRunner {
    /// Who collects, for messages: `jest`, `vitest project `unit``, a configuration's path.
    pub label: String,
    /// The directory the runner sees ("" for the whole repository).
    pub scope: String,
    /// Directories tests must be under (empty: anywhere in the scope).
    pub roots: Vec<String>,
    /// The setting that holds `roots` (`roots`, `testDir`).
    pub roots_key: &'static str,
    /// The directory globs are relative to.
    pub base: String,
    /// The setting that moved `base` away from the scope (`None`: paths outside `base` are
    /// matched whole).
    pub base_key: Option<&'static str>,
    /// The configured patterns; `None`: the default patterns.
    pub matching: Option<Matching>,
    /// Exclusions, checked before the patterns.
    pub ignore: Vec<Ignore>,
    /// vitest with `test.typecheck` configured: `*.{test,spec}-d.*` files are type tests.
    pub type_tests: bool,
}

/// Configured test file patterns.
#[derive(Debug, Clone)]
pub struct Matching {
    /// The setting, for messages (`testMatch`, `include`).
    pub key: &'static str,
    /// Globs in order, with whether each is negated (`!pattern`).
    pub globs: Vec<(Glob, bool)>,
    /// Regexes, with their source.
    pub regexes: Vec<(Regex, String)>,
    /// Globs match the repository path rather than the path under `base` (playwright prefixes
    /// `**/` and matches the absolute path).
    pub whole_path: bool,
    /// How people read the patterns, when the list itself says little (ava's defaults).
    pub summary: Option<&'static str>,
}

/// An exclusion.
#[derive(Debug, Clone)]
pub enum Ignore {
    /// Matched against the stand-in absolute path.
    Regex(&'static str, Regex, String),
    /// Matched against the path under `base`; with `dirs`, a match on a parent directory
    /// excludes everything below it (tinyglobby's crawler skips ignored directories).
    Glob {
        /// The setting, for messages.
        key: &'static str,
        /// The pattern.
        glob: Glob,
        /// Whether a match on a parent directory excludes what is below it.
        dirs: bool,
    },
    /// Matched against the repository path (playwright's `testIgnore`).
    PathGlob(&'static str, Glob),
}

impl Matching {
    /// Glob patterns (`!` negates) under the setting `key`.
    pub fn globs(key: &'static str, patterns: &[String]) -> Matching {
        Matching {
            key,
            globs: patterns.iter().map(|glob| compile_glob(glob)).collect(),
            regexes: Vec::new(),
            whole_path: false,
            summary: None,
        }
    }

    /// Regexes under the setting `key`.
    pub fn regexes(key: &'static str, regexes: Vec<(Regex, String)>) -> Matching {
        Matching {
            key,
            globs: Vec::new(),
            regexes,
            whole_path: false,
            summary: None,
        }
    }
}

impl JsRunner {
    /// A runner with the default patterns over `scope`.
    pub fn defaults(label: impl Into<String>, scope: &str) -> JsRunner {
        JsRunner {
            label: label.into(),
            scope: scope.to_string(),
            roots: Vec::new(),
            roots_key: "roots",
            base: scope.to_string(),
            base_key: None,
            matching: None,
            ignore: Vec::new(),
            type_tests: false,
        }
    }

    /// Whether `path` is in the directory this runner sees.
    pub fn sees(&self, path: &str) -> bool {
        self.scope.is_empty() || under(path, &self.scope)
    }

    /// Whether this runner collects tests from `path` (repository-relative).
    pub fn collects(&self, path: &str) -> bool {
        self.sees(path) && self.reason(path).is_none()
    }

    /// Why this runner does not collect `path`, naming the setting; `None` when it does.
    pub fn reason(&self, path: &str) -> Option<String> {
        let label = &self.label;
        if !self.sees(path) {
            return Some(format!("{label}: outside `{}`", self.scope));
        }
        if !self.roots.is_empty()
            && !self
                .roots
                .iter()
                .any(|root| root.is_empty() || under(path, root))
        {
            return Some(format!(
                "{label} `{}`: {}",
                self.roots_key,
                quoted(&self.roots)
            ));
        }
        let relative = if self.base.is_empty() {
            path
        } else if under(path, &self.base) {
            &path[self.base.len() + 1..]
        } else if let Some(key) = self.base_key {
            return Some(format!("{label} {key}: `{}`", self.base));
        } else {
            path
        };
        let absolute = format!("{ROOT}/{path}");
        for ignore in &self.ignore {
            let (key, source) = match ignore {
                Ignore::Regex(key, regex, source) if regex.is_match(&absolute) => (key, source),
                Ignore::Glob { key, glob, dirs }
                    if glob.is_match(relative) || *dirs && in_excluded_dir(glob, relative) =>
                {
                    (key, &glob.as_str().to_string())
                }
                Ignore::PathGlob(key, glob) if glob.is_match(path) => {
                    (key, &glob.as_str().to_string())
                }
                _ => continue,
            };
            return Some(format!("excluded by {label} `{key}`: `{source}`"));
        }
        let Some(matching) = &self.matching else {
            return (!default_test_file(path))
                .then(|| format!("{label} default patterns: {DEFAULT_PATTERNS}"));
        };
        let globbed = if matching.whole_path { path } else { relative };
        let matched = globs_match(&matching.globs, globbed)
            || matching
                .regexes
                .iter()
                .any(|(regex, _)| regex.is_match(&absolute));
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
        let key = matching.key;
        if let Some(summary) = matching.summary {
            return Some(format!("{label} {key}: {summary}"));
        }
        let patterns: Vec<String> = matching
            .globs
            .iter()
            .map(|(glob, negated)| {
                let bang = if *negated { "!" } else { "" };
                format!("{bang}{}", glob.as_str())
            })
            .chain(matching.regexes.iter().map(|(_, source)| source.clone()))
            .collect();
        if patterns.is_empty() {
            return Some(format!("{label} `{key}` is empty"));
        }
        Some(format!("{label} `{key}`: {}", quoted(&patterns)))
    }
}

/// jest-util's `globsToMatcher`: in order, a matching positive glob keeps the path and a
/// matching negated glob drops it; with only negated globs, what none of them matches is kept.
pub fn globs_match(globs: &[(Glob, bool)], path: &str) -> bool {
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
fn in_excluded_dir(glob: &Glob, relative: &str) -> bool {
    // `dir/**` matches whatever is below a directory it matches: the path itself was tried.
    // A last segment with an extension (`*.spec.js`, `vite.config.*`) names files; trying it
    // on every parent directory would cost a match per directory of every path, for what is
    // almost never a directory (and leaving it out keeps files collected).
    let last = glob.as_str().rsplit('/').next().unwrap_or_default();
    !glob.as_str().ends_with("/**")
        && !last.get(1..).is_some_and(|rest| rest.contains('.'))
        && relative
            .match_indices('/')
            .any(|(index, _)| glob.is_match(&relative[..index]))
}

/// A glob, negated when it starts with `!` (but not `!(`, an extglob).
pub fn compile_glob(pattern: &str) -> (Glob, bool) {
    match pattern.strip_prefix('!') {
        Some(rest) if !rest.starts_with('(') => (Glob::new(&relative_glob(rest)), true),
        _ => (Glob::new(&relative_glob(pattern)), false),
    }
}

/// A glob relative to its base: `<rootDir>/`, `./` and a leading `/` dropped.
pub fn relative_glob(pattern: &str) -> String {
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

/// `relative` (a directory as a configuration writes it: `./src`, `<rootDir>/lib`, `..`)
/// under the repository directory `dir`; `None` when it leaves the repository.
pub fn join_dir(dir: &str, relative: &str) -> Option<String> {
    let relative = relative.trim();
    // `<rootDir>/x` (and a leading `/` once it is gone) is relative to the directory.
    let relative = relative.strip_prefix("<rootDir>").unwrap_or(relative);
    let mut parts: Vec<&str> = dir.split('/').filter(|part| !part.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` is strictly below the directory `dir`.
pub fn under(path: &str, dir: &str) -> bool {
    path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/'
}

/// A JavaScript regex as the `regex` crate reads it: a string, or a `/body/flags` literal from
/// a JavaScript configuration.
pub fn js_regex(source: &str) -> Option<Regex> {
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

/// Items in backticks, comma-separated.
pub fn quoted(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    items
        .into_iter()
        .map(|item| format!("`{}`", item.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn directories_join_inside_the_repository() {
        assert_eq!(
            join_dir("packages/a", "./src").as_deref(),
            Some("packages/a/src")
        );
        assert_eq!(
            join_dir("packages/a", "../b").as_deref(),
            Some("packages/b")
        );
        assert_eq!(
            join_dir("packages/a", "<rootDir>/lib/").as_deref(),
            Some("packages/a/lib")
        );
        assert_eq!(join_dir("", ".").as_deref(), Some(""));
        assert_eq!(join_dir("a", "../.."), None);
    }

    #[test]
    fn a_runner_sees_only_its_scope() {
        let mut runner = JsRunner::defaults("vitest", "packages/a");
        runner.matching = Some(Matching::globs("include", &["src/**/*.ts".to_string()]));
        runner.base = "packages/a".to_string();
        assert!(runner.collects("packages/a/src/x.ts"));
        assert!(!runner.collects("packages/ab/src/x.ts"));
        assert!(!runner.collects("packages/a/lib/x.ts"));
        assert_eq!(
            runner.reason("packages/a/lib/x.ts").unwrap(),
            "vitest `include`: `src/**/*.ts`"
        );
    }
}

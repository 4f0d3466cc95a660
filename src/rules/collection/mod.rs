//! How the project's test runners collect tests, read from the base revision's configuration:
//! pytest's `python_files`, `python_functions`, `python_classes` and `testpaths` in
//! `pytest.ini`, `pyproject.toml`, `tox.ini` or `setup.cfg` (pytest's own precedence); the
//! JavaScript runners' test file patterns, per package and per project (see [`js`]). Without a
//! configuration the runner's defaults apply. Read from base, like the policy, so a change
//! cannot redefine what counts as a test for its own judgement.

use crate::rules::disabled_check::{JEST_CONFIGS, VITEST_CONFIGS};
use globset::{Glob, GlobMatcher};

pub mod glob;
pub mod js;

use js::JsCollection;

/// The pytest configuration files, in the order pytest looks for them.
pub const PYTEST_CONFIGS: &[&str] = &["pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"];

/// Every root-level file that [`Collection::from_configs`] reads, for the callers that load
/// them from the base revision.
pub fn runner_config_names() -> impl Iterator<Item = &'static str> {
    PYTEST_CONFIGS
        .iter()
        .chain(JEST_CONFIGS)
        .chain(&["package.json"])
        .chain(VITEST_CONFIGS)
        .copied()
        .chain(js::OTHER_RUNNERS.iter().map(|(name, _)| *name))
}

/// Whether `path` is a JavaScript runner configuration, at any depth (`package.json`
/// included, for its `jest`, `mocha` and `ava` keys and scripts).
pub fn is_js_runner_config(path: &str) -> bool {
    js::is_runner_config(path)
}

/// Whether `path` is a JavaScript or TypeScript source file.
pub fn is_js_source(path: &str) -> bool {
    use crate::lang::Language;
    matches!(
        Language::from_path(path),
        Some(Language::JavaScript | Language::TypeScript | Language::Tsx)
    )
}

/// Collection settings for one change.
#[derive(Debug, Default)]
pub struct Collection {
    python_files: Vec<GlobMatcher>,
    python_file_patterns: Vec<String>,
    python_functions: Vec<String>,
    python_classes: Vec<String>,
    testpaths: Vec<String>,
    /// The JavaScript runners configured in base (none: the default patterns).
    js: JsCollection,
    /// Base's runner configurations, as read.
    configs: Vec<(String, String)>,
    /// Base's JavaScript/TypeScript files, when the change edits a jest/vitest configuration.
    base_js_files: Vec<String>,
}

impl Collection {
    /// Reads the first pytest configuration that has pytest settings, from `configs`
    /// (repository path and base text; pytest's are read at the root, the JavaScript runners'
    /// at any depth).
    pub fn from_configs(configs: &[(String, String)]) -> Collection {
        let mut collection = Collection {
            js: JsCollection::from_configs(configs),
            configs: configs.to_vec(),
            ..Collection::default()
        };
        for name in PYTEST_CONFIGS {
            let Some((_, text)) = configs.iter().find(|(path, _)| path == name) else {
                continue;
            };
            let Some(settings) = super::disabled_check::pytest_settings(name, text) else {
                continue;
            };
            collection.python_files = settings
                .python_files
                .iter()
                .filter_map(|pattern| Glob::new(pattern).ok())
                .map(|glob| glob.compile_matcher())
                .collect();
            collection.python_file_patterns = settings.python_files;
            collection.python_functions = settings.python_functions;
            collection.python_classes = settings.python_classes;
            collection.testpaths = settings
                .testpaths
                .into_iter()
                .map(|path| path.trim_matches('/').trim_start_matches("./").to_string())
                .filter(|path| !path.is_empty() && path != ".")
                .collect();
            break;
        }
        collection
    }

    /// The same settings, knowing base's JavaScript/TypeScript files.
    pub fn with_base_js_files(mut self, files: &[String]) -> Collection {
        self.base_js_files = files.to_vec();
        self
    }

    /// Base's existing JavaScript/TypeScript test files that base's runners collect and that
    /// they would no longer collect were the configuration `path` to read `head`
    /// (`None`: deleted). A narrowed pattern, a new ignore entry or a new configuration that
    /// drops tests shows here, by the runners' own rules.
    pub fn js_tests_dropped(&self, path: &str, head: Option<&str>) -> Vec<&str> {
        if self.base_js_files.is_empty() || !is_js_runner_config(path) {
            return Vec::new();
        }
        let (after, reach) = self.js.replacing(&self.configs, path, head);
        self.base_js_files
            .iter()
            .map(String::as_str)
            .filter(|file| reach.is_empty() || file.starts_with(&format!("{reach}/")))
            .filter(|file| self.js.collects(file) && !after.collects(file))
            .collect()
    }

    /// Whether pytest collects tests from the file at `path`.
    pub fn python_file(&self, path: &str) -> bool {
        let in_testpaths = self.testpaths.is_empty()
            || self
                .testpaths
                .iter()
                .any(|dir| path == dir || path.starts_with(&format!("{dir}/")));
        let file = path.rsplit('/').next().unwrap_or(path);
        let matches = if self.python_files.is_empty() {
            let stem = file.strip_suffix(".py").unwrap_or(file);
            stem.starts_with("test") || stem.ends_with("_test")
        } else {
            self.python_files.iter().any(|glob| glob.is_match(file))
        };
        in_testpaths && matches
    }

    /// Whether a JavaScript runner collects tests from the file at `path`, by base's
    /// configurations (see [`js`]), else the default patterns.
    pub fn js_file(&self, path: &str) -> bool {
        self.js.collects(path)
    }

    /// Why a file at `path` is not a test file, naming the patterns (for messages).
    pub fn file_patterns(&self, path: &str, language: crate::lang::Language) -> String {
        use crate::lang::Language;
        match language {
            Language::Python => {
                let files = if self.python_file_patterns.is_empty() {
                    "pytest's default `test_*.py`, `*_test.py`".to_string()
                } else {
                    format!(
                        "pytest `python_files`: {}",
                        quoted(&self.python_file_patterns)
                    )
                };
                if self.testpaths.is_empty() {
                    files
                } else {
                    format!("{files}; `testpaths`: {}", quoted(&self.testpaths))
                }
            }
            Language::JavaScript | Language::TypeScript | Language::Tsx => {
                self.js.reason(path).unwrap_or_default()
            }
            Language::Rust => String::new(),
        }
    }

    /// Whether a function named `name` is collected as a test.
    pub fn python_function(&self, name: &str) -> bool {
        matches_any(&self.python_functions, "test", name)
    }

    /// The class name patterns, as people write them: `Test*` by default.
    pub fn python_class_patterns(&self) -> String {
        if self.python_classes.is_empty() {
            return "`Test*`".to_string();
        }
        self.python_classes
            .iter()
            .map(|pattern| format!("`{pattern}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether a class named `name` is collected as a test class.
    pub fn python_class(&self, name: &str) -> bool {
        matches_any(&self.python_classes, "Test", name)
    }
}

fn quoted(items: &[String]) -> String {
    items
        .iter()
        .map(|item| format!("`{item}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// pytest reads each entry as a prefix, or as a glob when it has glob characters.
fn matches_any(patterns: &[String], default: &str, name: &str) -> bool {
    if patterns.is_empty() {
        return name.starts_with(default);
    }
    patterns.iter().any(|pattern| {
        if pattern.contains(['*', '?', '[']) {
            Glob::new(pattern).is_ok_and(|glob| glob.compile_matcher().is_match(name))
        } else {
            name.starts_with(pattern.as_str())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collection(name: &str, text: &str) -> Collection {
        Collection::from_configs(&[(name.to_string(), text.to_string())])
    }

    #[test]
    fn defaults_without_configuration() {
        let defaults = Collection::default();
        assert!(defaults.python_file("tests/test_api.py"));
        assert!(defaults.python_file("pkg/api_test.py"));
        assert!(!defaults.python_file("tests/check_api.py"));
        assert!(defaults.python_function("test_login"));
        assert!(!defaults.python_function("check_login"));
        assert!(defaults.python_class("TestLogin"));
    }

    #[test]
    fn reads_pytest_ini_and_pyproject() {
        let ini = collection(
            "pytest.ini",
            "[pytest]\npython_files = check_*.py\npython_functions = check should_*\npython_classes = Check\ntestpaths = tests\n",
        );
        assert!(ini.python_file("tests/check_api.py"));
        assert!(!ini.python_file("tests/test_api.py"));
        assert!(
            !ini.python_file("scripts/check_api.py"),
            "outside testpaths"
        );
        assert!(ini.python_function("check_login"));
        assert!(ini.python_function("should_fail"));
        assert!(!ini.python_function("test_login"));
        assert!(ini.python_class("CheckLogin"));
        let toml = collection(
            "pyproject.toml",
            "[tool.pytest.ini_options]\npython_files = [\"*_spec.py\"]\n",
        );
        assert!(toml.python_file("a/login_spec.py"));
        assert!(!toml.python_file("a/test_login.py"));
        assert_eq!(
            toml.file_patterns("a/login.py", crate::lang::Language::Python),
            "pytest `python_files`: `*_spec.py`"
        );
    }

    #[test]
    fn js_tests_dropped_by_a_config_edit() {
        let base = "module.exports = { testMatch: ['**/*.test.js'] };";
        let files = [
            "src/a.test.js".to_string(),
            "src/smoke/b.test.js".to_string(),
        ];
        let collection = Collection::from_configs(&[("jest.config.js".into(), base.into())])
            .with_base_js_files(&files);
        let narrowed = "module.exports = { testMatch: ['**/smoke/*.test.js'] };";
        assert_eq!(
            collection.js_tests_dropped("jest.config.js", Some(narrowed)),
            ["src/a.test.js"]
        );
        let widened = "module.exports = { testMatch: ['**/*.test.js', '**/*.spec.js'] };";
        assert!(
            collection
                .js_tests_dropped("jest.config.js", Some(widened))
                .is_empty()
        );
        // A new vitest configuration: jest still collects every file.
        let vitest = "export default { test: { include: ['src/smoke/**/*.test.js'] } };";
        assert!(
            collection
                .js_tests_dropped("vitest.config.js", Some(vitest))
                .is_empty()
        );
        // Without any runner configuration, a new narrow one drops what the defaults collected.
        let defaults = Collection::default().with_base_js_files(&files);
        assert_eq!(
            defaults.js_tests_dropped("vitest.config.js", Some(vitest)),
            ["src/a.test.js"]
        );
    }

    #[test]
    fn js_files_follow_either_runner() {
        let defaults = Collection::default();
        assert!(defaults.js_file("src/a.test.ts"));
        assert!(!defaults.js_file("src/a.check.js"));
        let both = Collection::from_configs(&[
            (
                "jest.config.js".to_string(),
                "module.exports = { testMatch: ['**/*.check.js'] };".to_string(),
            ),
            (
                "vitest.config.ts".to_string(),
                "export default { test: { include: ['**/*.vitest.ts'] } };".to_string(),
            ),
        ]);
        assert!(both.js_file("src/a.check.js"));
        assert!(both.js_file("src/a.vitest.ts"));
        assert!(!both.js_file("src/a.test.ts"));
        assert_eq!(
            both.file_patterns("src/a.ts", crate::lang::Language::TypeScript),
            "jest `testMatch`: `**/*.check.js`; vitest `include`: `**/*.vitest.ts`"
        );
        // Playwright's settings are not read: its specs keep the default patterns.
        let with_playwright = Collection::from_configs(&[
            (
                "vitest.config.ts".to_string(),
                "export default { test: { include: ['src/**/*.test.ts'] } };".to_string(),
            ),
            (
                "playwright.config.ts".to_string(),
                "export default { testDir: './e2e' };".to_string(),
            ),
        ]);
        assert!(with_playwright.js_file("e2e/login.spec.ts"));
        assert!(with_playwright.js_file("src/a.test.ts"));
        assert!(!with_playwright.js_file("src/a.ts"));
    }
}

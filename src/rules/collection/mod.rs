//! How the project's test runners collect tests, read from the base revision's configuration:
//! pytest's `python_files`, `python_functions`, `python_classes` and `testpaths` from the
//! configuration pytest would use for each file, the nearest one in its directory or above
//! (see [`pytest`]); the JavaScript runners' test file patterns, per package and per project
//! (see [`js`]). Without a configuration the runner's defaults apply. Read from base, like the
//! policy, so a change cannot redefine what counts as a test for its own judgement: a pytest
//! configuration only head has (a sub-project the change creates) can widen head's collection
//! within pytest's defaults, never narrow it.
//!
//! A symbolic link the change adds inside the repository makes the files below its target
//! reachable at the link's path too (a test directory replaced by a link to where its tests
//! moved): pytest follows it, so a head file is collected when either path is.

use crate::changeset::{FilePair, Unreadability};
use crate::finding::Side;
use crate::rules::disabled_check::{JEST_CONFIGS, VITEST_CONFIGS};
use std::collections::{BTreeMap, BTreeSet};

pub mod glob;
pub mod js;
pub mod pytest;

use js::JsCollection;
pub use pytest::PYTEST_CONFIGS;
use pytest::{PytestConfig, PytestConfigs, PytestFile};

/// At most this many other paths (through symbolic links) are judged for one file.
const MAX_ALIASES: usize = 16;

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

/// Every file that [`Collection::from_configs`] reads for the change to `files`, for the
/// callers that load them from the base revision: the root-level runner configurations, and
/// pytest's in the directories above the Python files and pytest configurations it touches.
pub fn runner_config_paths(files: &[FilePair]) -> Vec<String> {
    let touched = files
        .iter()
        .flat_map(|pair| [pair.old_path.as_deref(), pair.new_path.as_deref()])
        .flatten()
        .filter(|path| {
            pytest::is_pytest_config(path)
                || crate::lang::Language::from_path(path) == Some(crate::lang::Language::Python)
        });
    runner_config_names()
        .map(str::to_string)
        .chain(pytest::nested_config_paths(touched))
        .collect()
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
    /// Base's pytest configurations, by directory.
    pytest: PytestConfigs,
    /// Head's pytest configurations in directories where base has none.
    new_pytest: PytestConfigs,
    /// Directories whose JavaScript runner configuration the change deletes: there head's
    /// files are also judged by the runners' default patterns (a jest setup replaced by plain
    /// `vitest run`).
    js_configs_deleted: Vec<String>,
    /// pytest's defaults, where no configuration applies.
    pytest_defaults: PytestConfig,
    /// Head's symbolic links inside the repository, by the path they point to.
    links: BTreeMap<String, Vec<String>>,
    /// The JavaScript runners configured in base, per package and project.
    js: JsCollection,
    /// Base's runner configurations, as read.
    configs: Vec<(String, String)>,
    /// Base's JavaScript/TypeScript files, when the change edits a jest/vitest configuration.
    base_js_files: Vec<String>,
    /// JavaScript/TypeScript paths the change adds to head (new, or the new name of a rename).
    js_added: Vec<String>,
    /// JavaScript/TypeScript paths the change takes from base (deleted, or renamed away).
    js_taken: BTreeSet<String>,
    /// Head paths of files the change renames, with their base paths.
    renamed: BTreeMap<String, String>,
    /// Head paths of files the change adds (not renames).
    created: BTreeSet<String>,
}

impl Collection {
    /// Reads the runners' configurations from `configs` (path and base text): pytest's and
    /// the JavaScript runners' in any directory.
    pub fn from_configs(configs: &[(String, String)]) -> Collection {
        Collection {
            js: JsCollection::from_configs(configs),
            configs: configs.to_vec(),
            pytest: PytestConfigs::read(configs),
            ..Collection::default()
        }
    }

    /// The same settings, knowing what the change puts in head: the pytest configurations it
    /// adds where base had none, and the symbolic links it adds inside the repository.
    pub fn with_head_changes(mut self, files: &[FilePair]) -> Collection {
        let head_configs: Vec<(String, String)> = files
            .iter()
            .filter_map(|pair| {
                let path = pair
                    .new_path
                    .as_deref()
                    .filter(|path| pytest::is_pytest_config(path))?;
                Some((path.to_string(), pair.head.text()?.to_string()))
            })
            .collect();
        self.new_pytest = PytestConfigs::new_in_head(&head_configs, &self.pytest);
        self.js_configs_deleted = files
            .iter()
            .filter(|pair| pair.new_path.is_none())
            .filter_map(|pair| pair.old_path.as_deref())
            .filter(|path| is_js_runner_config(path) && !path.ends_with("package.json"))
            .map(|path| path.rsplit_once('/').map_or("", |(dir, _)| dir).to_string())
            .collect();
        for pair in files.iter().filter(|pair| pair.old_path != pair.new_path) {
            match (&pair.old_path, &pair.new_path) {
                (Some(old), Some(new)) => {
                    self.renamed.insert(new.clone(), old.clone());
                }
                (None, Some(new)) => {
                    self.created.insert(new.clone());
                }
                _ => {}
            }
            self.js_added.extend(
                pair.new_path
                    .iter()
                    .filter(|path| is_js_source(path))
                    .cloned(),
            );
            self.js_taken.extend(
                pair.old_path
                    .iter()
                    .filter(|path| is_js_source(path))
                    .cloned(),
            );
        }
        for pair in files {
            let (Some(path), Some(head)) = (&pair.new_path, pair.head.unreadable()) else {
                continue;
            };
            let target = (head.kind == Unreadability::Symlink)
                .then(|| head.link_in_repository(path))
                .flatten();
            // A link to the root holds the whole repository, itself included: no new path.
            if let Some(target) = target.filter(|target| !target.is_empty()) {
                self.links.entry(target).or_default().push(path.clone());
            }
        }
        self
    }

    /// The base path of a file the change renames to `path`.
    pub fn renamed_from(&self, path: &str) -> Option<&str> {
        self.renamed.get(path).map(String::as_str)
    }

    /// Whether the change adds the file at `path` (new, not renamed).
    pub fn created(&self, path: &str) -> bool {
        self.created.contains(path)
    }

    /// The same settings, knowing base's JavaScript/TypeScript files.
    pub fn with_base_js_files(mut self, files: &[String]) -> Collection {
        self.base_js_files = files.to_vec();
        self
    }

    /// Whether head has a JavaScript/TypeScript file that the configuration in folder `dir`
    /// names with `entry`: a path or a folder, relative to that folder or read anywhere below
    /// it, as generously as any runner or checker would match it. `None` when base's files were
    /// not listed or `entry` is a pattern (glob or regular expression), not a path.
    pub fn js_file_at_head(&self, dir: &str, entry: &str) -> Option<bool> {
        let entry = entry
            .trim_start_matches("<rootDir>/")
            .trim_start_matches("./")
            .trim_end_matches('/');
        if self.base_js_files.is_empty()
            || entry.is_empty()
            || entry.contains(['*', '?', '[', '{', '!', '\\', '^', '$', '(', '|', '+', '<'])
            || entry.split('/').any(|part| part == "..")
        {
            return None;
        }
        let names = |file: &str| {
            (dir.is_empty() || file.starts_with(&format!("{dir}/")))
                && file.match_indices(entry).any(|(at, _)| {
                    (at == 0 || file[..at].ends_with('/'))
                        && file[at + entry.len()..]
                            .chars()
                            .next()
                            .is_none_or(|next| next == '/')
                })
        };
        let base = self
            .base_js_files
            .iter()
            .filter(|file| !self.js_taken.contains(*file));
        Some(base.chain(&self.js_added).any(|file| names(file)))
    }

    /// Base's existing JavaScript/TypeScript test files that base's runners collect and that
    /// they would no longer collect were the configuration `path`, reading `base` there
    /// (`None`: new), to read `head` (`None`: deleted). A narrowed pattern, a new ignore entry or a new configuration that
    /// drops tests shows here, by the runners' own rules.
    pub fn js_tests_dropped(
        &self,
        path: &str,
        base: Option<&str>,
        head: Option<&str>,
    ) -> Vec<&str> {
        if self.base_js_files.is_empty() || !is_js_runner_config(path) {
            return Vec::new();
        }
        // Both sides read the same way, from the file's own base text (`base`): base's whole
        // collection may not hold this configuration (past the cap on configurations read,
        // TanStack/router 65f7b7f791), and comparing it with a fresh reading of head would
        // report the difference between the two readings.
        let (before, _) = self.js.replacing(&self.configs, path, base);
        let (after, reach) = self.js.replacing(&self.configs, path, head);
        self.base_js_files
            .iter()
            .map(String::as_str)
            .filter(|file| reach.is_empty() || file.starts_with(&format!("{reach}/")))
            .filter(|file| before.collects(file) && !after.collects(file))
            .collect()
    }

    /// How pytest collects the Python file at `path` on `side`: by base's configuration
    /// for it, and in head also by a configuration new there and through the links to it.
    pub fn pytest(&self, path: &str, side: Side) -> PytestFile<'_> {
        let mut paths = vec![path.to_string()];
        if side == Side::Head {
            paths.extend(self.aliases(path));
        }
        let mut views = Vec::new();
        for path in paths {
            let base = self.pytest.nearest(&path);
            let new = self.new_pytest.nearest(&path).filter(|new| {
                side == Side::Head && base.is_none_or(|base| new.dir().len() > base.dir().len())
            });
            views.push((path.clone(), base.unwrap_or(&self.pytest_defaults)));
            views.extend(new.map(|new| (path, new)));
        }
        PytestFile::new(views)
    }

    /// The other paths at which head's links make the file at `path` reachable.
    fn aliases(&self, path: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut target = path;
        loop {
            for link in self.links.get(target).into_iter().flatten() {
                if found.len() == MAX_ALIASES {
                    return found;
                }
                found.push(format!("{link}{}", &path[target.len()..]));
            }
            match target.rsplit_once('/') {
                Some((parent, _)) => target = parent,
                None => return found,
            }
        }
    }

    /// Whether a JavaScript runner collects tests from the file at `path`, by base's
    /// configurations (see [`js`]), else the default patterns.
    pub fn js_file(&self, path: &str) -> bool {
        self.js.collects(path)
    }

    /// [`Collection::js_file`] on `side`: in head, a file below a runner configuration the
    /// change deletes also counts when the runners' defaults collect it. Deleting a
    /// configuration can only hand its files to the defaults; narrowing is `disabled-check`'s.
    pub fn js_file_on(&self, path: &str, side: Side) -> bool {
        self.js_file(path)
            || (side == Side::Head
                && js::default_test_file(path)
                && self
                    .js_configs_deleted
                    .iter()
                    .any(|dir| dir.is_empty() || path.starts_with(&format!("{dir}/"))))
    }

    /// Why a JavaScript/TypeScript file at `path` is not a test file, naming the patterns
    /// (for messages).
    pub fn js_file_patterns(&self, path: &str) -> String {
        self.js.reason(path).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collection(name: &str, text: &str) -> Collection {
        Collection::from_configs(&[(name.to_string(), text.to_string())])
    }

    fn file(collection: &Collection, path: &str) -> bool {
        collection.pytest(path, Side::Base).collects_file()
    }

    fn function(collection: &Collection, name: &str) -> bool {
        collection
            .pytest("t.py", Side::Base)
            .collects_function(name)
    }

    #[test]
    fn defaults_without_configuration() {
        let defaults = Collection::default();
        assert!(file(&defaults, "tests/test_api.py"));
        assert!(file(&defaults, "pkg/api_test.py"));
        assert!(!file(&defaults, "tests/check_api.py"));
        assert!(function(&defaults, "test_login"));
        assert!(!function(&defaults, "check_login"));
        assert!(
            defaults
                .pytest("t.py", Side::Base)
                .collects_class("TestLogin")
        );
    }

    #[test]
    fn reads_pytest_ini_and_pyproject() {
        let ini = collection(
            "pytest.ini",
            "[pytest]\npython_files = check_*.py\npython_functions = check should_*\npython_classes = Check\ntestpaths = tests\n",
        );
        assert!(file(&ini, "tests/check_api.py"));
        assert!(!file(&ini, "tests/test_api.py"));
        assert!(!file(&ini, "scripts/check_api.py"), "outside testpaths");
        assert!(function(&ini, "check_login"));
        assert!(function(&ini, "should_fail"));
        assert!(!function(&ini, "test_login"));
        assert!(ini.pytest("t.py", Side::Base).collects_class("CheckLogin"));
        let toml = collection(
            "pyproject.toml",
            "[tool.pytest.ini_options]\npython_files = [\"*_spec.py\"]\n",
        );
        assert!(file(&toml, "a/login_spec.py"));
        assert!(!file(&toml, "a/test_login.py"));
        assert_eq!(
            toml.pytest("a/login.py", Side::Base).file_patterns(),
            "pytest `python_files`: `*_spec.py`"
        );
    }

    fn configs(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(path, text)| (path.to_string(), text.to_string()))
            .collect()
    }

    #[test]
    fn the_nearest_configuration_decides() {
        let collection = Collection::from_configs(&configs(&[
            ("pytest.ini", "[pytest]\ntestpaths = tests\n"),
            (
                "sub/pyproject.toml",
                "[tool.pytest.ini_options]\npython_files = [\"check_*.py\"]\ntestpaths = [\"checks\"]\n",
            ),
            // Without pytest's table, a pyproject.toml does not count: the root's applies.
            ("lib/pyproject.toml", "[project]\nname = \"lib\"\n"),
            // pytest.ini beats the other files of its directory.
            ("app/pytest.ini", "[pytest]\n"),
            ("app/setup.cfg", "[tool:pytest]\npython_files = *_case.py\n"),
        ]));
        assert!(file(&collection, "sub/checks/check_api.py"));
        assert!(!file(&collection, "sub/checks/test_api.py"));
        assert!(
            !file(&collection, "sub/tests/check_api.py"),
            "sub's testpaths"
        );
        assert!(
            !file(&collection, "lib/tests/test_api.py"),
            "root's testpaths"
        );
        assert!(file(&collection, "tests/lib/test_api.py"));
        assert!(file(&collection, "app/test_api.py"));
        assert!(!file(&collection, "app/api_case.py"));
        assert_eq!(
            collection
                .pytest("sub/checks/test_api.py", Side::Base)
                .file_patterns(),
            "`sub/pyproject.toml`: pytest `python_files`: `check_*.py`; `testpaths`: `checks`"
        );
    }

    fn link(path: &str, target: &str) -> FilePair {
        FilePair::new(
            crate::changeset::Status::Added,
            None,
            Some(path.to_string()),
            crate::changeset::Content::Absent,
            crate::changeset::Content::symlink(target.as_bytes()),
        )
    }

    fn added(path: &str, text: &str) -> FilePair {
        FilePair::new(
            crate::changeset::Status::Added,
            None,
            Some(path.to_string()),
            crate::changeset::Content::Absent,
            crate::changeset::Content::Text(text.to_string()),
        )
    }

    #[test]
    fn head_reaches_files_through_new_links() {
        let collection =
            Collection::from_configs(&configs(&[("pytest.ini", "[pytest]\ntestpaths = tests\n")]))
                .with_head_changes(&[
                    link("tests/sub", "../sub/tests"),
                    link("tests/all", ".."),
                    link("tests/outside", "../../elsewhere"),
                ]);
        let head = |path: &str| collection.pytest(path, Side::Head).collects_file();
        assert!(
            head("sub/tests/test_api.py"),
            "reached as tests/sub/test_api.py"
        );
        assert!(
            !head("sub/tests/api.py"),
            "the link does not rename the file"
        );
        assert!(
            !head("sub/other/test_api.py"),
            "not below the link's target"
        );
        assert!(
            !file(&collection, "sub/tests/test_api.py"),
            "base has no link"
        );
    }

    #[test]
    fn a_configuration_new_in_head_only_narrows_the_defaults() {
        let base = configs(&[("pytest.ini", "[pytest]\ntestpaths = tests\n")]);
        let collection = Collection::from_configs(&base).with_head_changes(&[
            added(
                "sub/pyproject.toml",
                "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
            ),
            added(
                "lib/pytest.ini",
                "[pytest]\npython_files = *.py\npython_functions = check_\n",
            ),
            // Inside the root's testpaths: a new config there cannot drop what base collects.
            added("tests/pytest.ini", "[pytest]\npython_files = none_*.py\n"),
        ]);
        let head = |path: &str| collection.pytest(path, Side::Head);
        assert!(head("sub/tests/test_api.py").collects_file());
        assert!(
            !head("sub/scripts/test_api.py").collects_file(),
            "its testpaths"
        );
        assert!(
            !head("lib/api_cases.py").collects_file(),
            "`*.py` is wider than the defaults"
        );
        assert!(head("lib/test_api.py").collects_file());
        assert!(
            !head("lib/test_api.py")
                .for_function("check_api")
                .collects_file(),
            "`check_` is wider than the defaults"
        );
        assert!(head("tests/test_api.py").collects_file());
        assert!(
            !file(&collection, "sub/tests/test_api.py"),
            "base ignores it"
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
            collection.js_tests_dropped("jest.config.js", Some(base), Some(narrowed)),
            ["src/a.test.js"]
        );
        let widened = "module.exports = { testMatch: ['**/*.test.js', '**/*.spec.js'] };";
        assert!(
            collection
                .js_tests_dropped("jest.config.js", Some(base), Some(widened))
                .is_empty()
        );
        // A new vitest configuration: jest still collects every file.
        let vitest = "export default { test: { include: ['src/smoke/**/*.test.js'] } };";
        assert!(
            collection
                .js_tests_dropped("vitest.config.js", None, Some(vitest))
                .is_empty()
        );
        // A configuration base's collection never read (past the cap on configurations):
        // both sides are read from its own texts, so an unrelated edit drops nothing.
        let package = "export default { test: { include: ['**/*.test.js'] } };";
        let edited = "export default { test: { include: ['**/*.test.js'] }, build: {} };";
        let unread = Collection::default().with_base_js_files(&[
            "pkg/tests/fixtures/manifest.js".to_string(),
            "pkg/src/a.test.js".to_string(),
        ]);
        assert!(
            unread
                .js_tests_dropped("pkg/vitest.config.js", Some(package), Some(edited))
                .is_empty()
        );
        // Without any runner configuration, a new narrow one drops what the defaults collected.
        let defaults = Collection::default().with_base_js_files(&files);
        assert_eq!(
            defaults.js_tests_dropped("vitest.config.js", None, Some(vitest)),
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
            both.js_file_patterns("src/a.ts"),
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

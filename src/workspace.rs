//! Whose manifest is it? Repositories keep other projects' manifests as test data: copies of
//! third-party `pyproject.toml`s (`test/ecosystem/<project>/`), one small app per test case
//! (`test/apps/<app>/package.json`), Go `testdata/` modules. Their dependencies are not the
//! project's dependency set and their coverage settings gate nothing, so `new-dependency` and
//! `weakened-coverage` judge them apart from the project's own files.
//!
//! A file is in a test-fixture directory when a directory on its path is named for fixtures
//! (`fixtures`, `__fixtures__`, `testdata`, `test-fixtures`, ...) or when it sits two or more
//! directories below a test directory (`test`, `tests`, `__tests__`, `spec`): one level below,
//! `tests/e2e/package.json` or `tests/requirements.txt`, is a suite's own set-up that CI
//! installs, two levels below is one case among many. `examples/` is not a fixture directory:
//! examples are published for users to copy and are often built in CI.
//!
//! Location alone never decides: a fixture-looking file that the project's workspace takes in
//! is installed with the project. A declaration above the file counts when it is itself the
//! project's (recursively): `workspaces` in package.json, `packages` in pnpm-workspace.yaml or
//! lerna.json, Cargo `[workspace] members` (minus `exclude`), uv `[tool.uv.workspace] members`
//! (minus `exclude`), and local path dependencies of those manifests. Declarations are read on
//! both sides of the change and any one suffices, so a change cannot leave the workspace and
//! slip a dependency in at the same time.

use std::collections::{BTreeSet, HashMap};

use globset::{GlobBuilder, GlobMatcher};
use serde_json::Value;

/// How a manifest or configuration file relates to the project under review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ownership {
    /// Outside every test-fixture directory: the project's own.
    Project,
    /// In a test-fixture directory, but taken in by the project's workspace or a path
    /// dependency, so it is installed with the project.
    FixtureMember,
    /// In a test-fixture directory and taken in by nothing the project declares: test data.
    FixtureCopy,
}

/// Files that can declare which directories belong to a workspace.
const DECLARING_FILES: &[&str] = &[
    "package.json",
    "pnpm-workspace.yaml",
    "lerna.json",
    "Cargo.toml",
    "pyproject.toml",
];

/// Directory names (lowercase, without `-` and `_`) that hold test data at any depth.
const FIXTURE_DIRS: &[&str] = &[
    "fixture",
    "fixtures",
    "testdata",
    "testfixture",
    "testfixtures",
];

/// Directory names (lowercase, without `-` and `_`) of test suites.
const TEST_DIRS: &[&str] = &["test", "tests", "spec", "specs"];

/// Deepest path considered; deeper paths count as the project's (fail closed).
const MAX_DEPTH: usize = 64;

/// Most declaring files read for one change; past it the remaining fixture-looking files have
/// fewer declarations to match and so fall back to test data only when nothing takes them in.
pub const MAX_DECLARING_FILES: usize = 2_000;

fn fold(segment: &str) -> String {
    segment
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn clean(path: &str) -> &str {
    path.trim_start_matches("./")
}

/// Whether `path` (repo-relative, `/`-separated) lies in a test-fixture directory.
pub fn in_fixture_dir(path: &str) -> bool {
    let segments: Vec<&str> = parent(clean(path))
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    if segments.len() > MAX_DEPTH {
        return false;
    }
    segments.iter().enumerate().any(|(i, segment)| {
        let folded = fold(segment);
        if FIXTURE_DIRS.contains(&folded.as_str()) {
            return true;
        }
        // A `requirements/` directory only groups the suite's own requirements files.
        TEST_DIRS.contains(&folded.as_str())
            && segments[i + 1..]
                .iter()
                .filter(|s| !s.eq_ignore_ascii_case("requirements"))
                .count()
                >= 2
    })
}

/// Declaring files in the directories strictly above `path`'s own directory, root first.
/// The file's own directory is left out: a fixture that declares a workspace of its own is
/// still a fixture.
pub fn declaring_files_above(path: &str) -> Vec<String> {
    let dir = parent(clean(path));
    if dir.is_empty() {
        return Vec::new();
    }
    let segments: Vec<&str> = dir.split('/').take(MAX_DEPTH).collect();
    let mut out = Vec::new();
    for depth in 0..segments.len() {
        let prefix = segments[..depth].join("/");
        for file in DECLARING_FILES {
            out.push(if prefix.is_empty() {
                (*file).to_string()
            } else {
                format!("{prefix}/{file}")
            });
        }
    }
    out
}

/// Whether the rules ask whose file `path` is: manifests, lockfiles and coverage sources.
fn judged(path: &str) -> bool {
    crate::deps::manifest_kind(path).is_some() || crate::coverage::is_coverage_source(path)
}

/// The declaring files that decide whose files `paths` (a change's paths) are, at most
/// [`MAX_DECLARING_FILES`]; empty when no judged file lies in a test-fixture directory.
pub fn files_to_read<'a>(paths: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for path in paths {
        if !judged(path) || !in_fixture_dir(path) {
            continue;
        }
        for file in declaring_files_above(path) {
            if out.len() >= MAX_DECLARING_FILES {
                return out;
            }
            out.insert(file);
        }
    }
    out
}

/// The declaring files for [`crate::changeset::ChangeSet::workspace_files`]: those above the
/// judged fixture-looking paths of `files`, read with `read` (base side), leaving out the ones
/// `files` already carries on both sides. `read` gives `Ok(None)` for a missing file and `Err`
/// for one that exists but cannot be read.
pub fn read_declaring_files(
    files: &[crate::changeset::FilePair],
    mut read: impl FnMut(&str) -> Result<Option<String>, ()>,
) -> Vec<(String, Option<String>)> {
    let paths: BTreeSet<&str> = files
        .iter()
        .flat_map(|pair| [pair.old_path.as_deref(), pair.new_path.as_deref()])
        .flatten()
        .collect();
    files_to_read(paths.iter().copied())
        .into_iter()
        .filter(|name| !paths.contains(name.as_str()))
        .filter_map(|name| match read(&name) {
            Ok(None) => None,
            Ok(Some(text)) => Some((name, Some(text))),
            Err(()) => Some((name, None)),
        })
        .collect()
}

/// Which directories one declaring file takes in.
#[derive(Default)]
struct Declaration {
    /// Globs relative to the declaring file's directory, `!` patterns separated out.
    include: Vec<GlobMatcher>,
    exclude: Vec<GlobMatcher>,
    /// Cargo's `exclude` is a list of paths, each excluding everything below it.
    excluded_dirs: Vec<String>,
    /// Local path dependencies, resolved to repo-relative directories.
    path_deps: Vec<String>,
    /// The file exists but could not be read: it may take in anything below it (fail closed).
    unreadable_in: Option<String>,
}

impl Declaration {
    fn parse(path: &str, text: &str) -> Declaration {
        let dir = parent(path);
        let file = path.rsplit('/').next().unwrap_or(path);
        let mut decl = Declaration::default();
        let (include, exclude): (Vec<String>, Vec<String>) = match file {
            "package.json" | "lerna.json" => {
                let doc = crate::text::parse_json(text.trim_start_matches('\u{feff}')).ok();
                let workspaces = doc.as_ref().and_then(|d| d.get("workspaces"));
                let lerna = doc.as_ref().and_then(|d| d.get("packages"));
                let list = match workspaces {
                    Some(Value::Object(o)) => o.get("packages"),
                    Some(other) => Some(other),
                    None if file == "lerna.json" => lerna,
                    None => None,
                };
                (strings(list), Vec::new())
            }
            "pnpm-workspace.yaml" => {
                let doc: Option<Value> = serde_saphyr::from_str(text).ok();
                (
                    strings(doc.as_ref().and_then(|d| d.get("packages"))),
                    Vec::new(),
                )
            }
            "Cargo.toml" | "pyproject.toml" => {
                let doc: Option<Value> = toml::from_str::<toml::Value>(text)
                    .ok()
                    .and_then(|v| serde_json::to_value(v).ok());
                let workspace = doc.as_ref().and_then(|d| {
                    if file == "Cargo.toml" {
                        d.get("workspace")
                    } else {
                        d.get("tool")?.get("uv")?.get("workspace")
                    }
                });
                let members = strings(workspace.and_then(|w| w.get("members")));
                let excluded = strings(workspace.and_then(|w| w.get("exclude")));
                if file == "Cargo.toml" {
                    decl.excluded_dirs = excluded.iter().filter_map(|e| join(dir, e)).collect();
                    (members, Vec::new())
                } else {
                    (members, excluded)
                }
            }
            _ => (Vec::new(), Vec::new()),
        };
        let mut patterns: Vec<(String, bool)> = include.into_iter().map(|p| (p, true)).collect();
        patterns.extend(exclude.into_iter().map(|p| (p, false)));
        for (pattern, included) in patterns {
            let (pattern, included) = match pattern.trim().strip_prefix('!') {
                Some(rest) => (rest.to_string(), !included),
                None => (pattern.trim().to_string(), included),
            };
            let Some(full) = join(dir, &pattern) else {
                continue;
            };
            let Ok(glob) = GlobBuilder::new(&full).literal_separator(true).build() else {
                continue;
            };
            if included {
                decl.include.push(glob.compile_matcher());
            } else {
                decl.exclude.push(glob.compile_matcher());
            }
        }
        if let Some(kind) = crate::deps::manifest_kind(path) {
            decl.path_deps = crate::deps::local_paths(kind, path, text)
                .iter()
                .filter_map(|p| join(dir, p))
                .collect();
        }
        decl
    }

    fn takes_in(&self, dir: &str) -> bool {
        if let Some(root) = &self.unreadable_in {
            return root.is_empty() || dir.starts_with(&format!("{root}/"));
        }
        if self.path_deps.iter().any(|p| p == dir) {
            return true;
        }
        let excluded = self.exclude.iter().any(|g| g.is_match(dir))
            || self
                .excluded_dirs
                .iter()
                .any(|e| dir == e || dir.starts_with(&format!("{e}/")));
        !excluded && self.include.iter().any(|g| g.is_match(dir))
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// `relative` (a pattern or path written in a file in `dir`) as a repo-relative path without
/// `.` segments or trailing `/`; `None` when it leaves the repository or is absolute.
fn join(dir: &str, relative: &str) -> Option<String> {
    let relative = relative.trim().replace('\\', "/");
    if relative.starts_with('/') || relative.starts_with('~') {
        return None;
    }
    crate::changeset::join_relative(dir, &relative)
}

/// The declaring files of one change, on both sides, and the ownership judgement over them.
#[derive(Default)]
pub struct Workspaces {
    declarations: HashMap<String, Vec<Declaration>>,
}

impl Workspaces {
    /// `files` are (path, text) pairs: every side of every declaring file the change touched,
    /// and the base text of the ones it did not touch (see [`files_to_read`]); `None` for a
    /// file that exists but could not be read.
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) -> Workspaces {
        let mut declarations: HashMap<String, Vec<Declaration>> = HashMap::new();
        for (path, text) in files {
            let path = clean(path);
            if !DECLARING_FILES.contains(&path.rsplit('/').next().unwrap_or(path)) {
                continue;
            }
            let declaration = match text {
                Some(text) => Declaration::parse(path, text),
                None => Declaration {
                    unreadable_in: Some(parent(path).to_string()),
                    ..Declaration::default()
                },
            };
            declarations
                .entry(path.to_string())
                .or_default()
                .push(declaration);
        }
        Workspaces { declarations }
    }

    /// Whose file `path` is.
    pub fn ownership(&self, path: &str) -> Ownership {
        let path = clean(path);
        if !in_fixture_dir(path) {
            return Ownership::Project;
        }
        // Walk the directories above root first, keeping the declarations that are the
        // project's own; each is judged by the ones above it, so nesting is linear.
        let mut owned: Vec<&Declaration> = Vec::new();
        for file in declaring_files_above(path) {
            let Some(decls) = self.declarations.get(&file) else {
                continue;
            };
            let dir = parent(&file);
            let counts = !in_fixture_dir(&file)
                || (!dir.is_empty() && owned.iter().any(|d| d.takes_in(dir)));
            if counts {
                owned.extend(decls);
            }
        }
        let dir = parent(path);
        if owned.iter().any(|d| d.takes_in(dir)) {
            Ownership::FixtureMember
        } else {
            Ownership::FixtureCopy
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_directories() {
        for path in [
            "test/ecosystem/black/pyproject.toml",
            "packages/kit/test/build-errors/apps/removed-lib-import/package.json",
            "packages/kit/test/apps/basics/package.json",
            "tests/fixtures/package.json",
            "src/__fixtures__/app/package.json",
            "pkg/testdata/mod/go.mod",
            "crates/x/test-data/Cargo.toml",
            "__tests__/cases/one/package.json",
        ] {
            assert!(in_fixture_dir(path), "{path}");
        }
        for path in [
            "package.json",
            "packages/foo/package.json",
            "tests/requirements.txt",
            "tests/e2e/package.json",
            "tests/requirements/unit.txt",
            "test/integration/requirements/dev.txt",
            "examples/app/package.json",
            "contest/a/b/package.json",
        ] {
            assert!(!in_fixture_dir(path), "{path}");
        }
    }

    #[test]
    fn declaring_files_stop_above_the_files_own_directory() {
        let files = declaring_files_above("a/b/package.json");
        assert!(files.contains(&"package.json".to_string()));
        assert!(files.contains(&"a/Cargo.toml".to_string()));
        assert!(!files.iter().any(|f| f.starts_with("a/b/")));
        assert!(declaring_files_above("package.json").is_empty());
    }

    #[test]
    fn workspace_members_are_the_projects() {
        let pnpm = "packages:\n  - packages/*\n  - packages/kit/test/apps/*\n  - '!**/skip/**'\n";
        let w = Workspaces::new([("pnpm-workspace.yaml", Some(pnpm))]);
        assert_eq!(
            w.ownership("packages/kit/test/apps/basics/package.json"),
            Ownership::FixtureMember
        );
        assert_eq!(
            w.ownership("packages/kit/test/other/x/package.json"),
            Ownership::FixtureCopy
        );
        assert_eq!(w.ownership("packages/kit/package.json"), Ownership::Project);

        let cargo = "[workspace]\nmembers = [\"crates/*\", \"tests/fixtures/*\"]\nexclude = [\"tests/fixtures/old\"]\n";
        let w = Workspaces::new([("Cargo.toml", Some(cargo))]);
        assert_eq!(
            w.ownership("tests/fixtures/new/Cargo.toml"),
            Ownership::FixtureMember
        );
        assert_eq!(
            w.ownership("tests/fixtures/old/Cargo.toml"),
            Ownership::FixtureCopy
        );

        let uv = "[tool.uv.workspace]\nmembers = [\"test/ecosystem/*\"]\nexclude = [\"test/ecosystem/b\"]\n";
        let w = Workspaces::new([("pyproject.toml", Some(uv))]);
        assert_eq!(
            w.ownership("test/ecosystem/a/pyproject.toml"),
            Ownership::FixtureMember
        );
        assert_eq!(
            w.ownership("test/ecosystem/b/pyproject.toml"),
            Ownership::FixtureCopy
        );

        let npm = r#"{"workspaces": {"packages": ["tests/fixtures/**"]}}"#;
        let w = Workspaces::new([("package.json", Some(npm))]);
        assert_eq!(
            w.ownership("tests/fixtures/a/b/package.json"),
            Ownership::FixtureMember
        );
    }

    #[test]
    fn path_dependencies_take_a_fixture_in() {
        let cargo = "[package]\nname = \"x\"\n[dev-dependencies]\nhelper = { path = \"tests/fixtures/helper\" }\n";
        let w = Workspaces::new([("Cargo.toml", Some(cargo))]);
        assert_eq!(
            w.ownership("tests/fixtures/helper/Cargo.toml"),
            Ownership::FixtureMember
        );
        let npm = r#"{"devDependencies": {"helper": "file:./test/apps/helper"}}"#;
        let w = Workspaces::new([("packages/a/package.json", Some(npm))]);
        // packages/a is the project's (not in a fixture directory), so its path dependency is.
        assert_eq!(
            w.ownership("packages/a/test/apps/helper/package.json"),
            Ownership::FixtureMember
        );
    }

    #[test]
    fn a_fixtures_own_workspace_does_not_make_its_members_the_projects() {
        let inner = r#"{"workspaces": ["packages/*"]}"#;
        let w = Workspaces::new([("tests/fixtures/mono/package.json", Some(inner))]);
        assert_eq!(
            w.ownership("tests/fixtures/mono/packages/a/package.json"),
            Ownership::FixtureCopy
        );
        // ... unless the project takes the fixture workspace in first.
        let root = r#"{"workspaces": ["tests/fixtures/mono"]}"#;
        let w = Workspaces::new([
            ("package.json", Some(root)),
            ("tests/fixtures/mono/package.json", Some(inner)),
        ]);
        assert_eq!(
            w.ownership("tests/fixtures/mono/packages/a/package.json"),
            Ownership::FixtureMember
        );
    }

    #[test]
    fn declarations_from_either_side_count() {
        let base = r#"{"workspaces": ["test/apps/*"]}"#;
        let head = r#"{"workspaces": []}"#;
        let w = Workspaces::new([("package.json", Some(base)), ("package.json", Some(head))]);
        assert_eq!(
            w.ownership("test/apps/a/package.json"),
            Ownership::FixtureMember
        );
    }

    #[test]
    fn bad_input_is_no_declaration() {
        let w = Workspaces::new([
            ("package.json", Some("{")),
            ("pnpm-workspace.yaml", Some(":\n- [")),
            ("Cargo.toml", Some("[workspace")),
            (
                "lerna.json",
                Some(r#"{"packages": ["../../**", "/abs/*", "[z-a]"]}"#),
            ),
        ]);
        assert_eq!(
            w.ownership("tests/fixtures/a/package.json"),
            Ownership::FixtureCopy
        );
        // A declaration that exists but cannot be read may take in anything below it.
        let w = Workspaces::new([("tests/package.json", None)]);
        assert_eq!(
            w.ownership("tests/fixtures/a/package.json"),
            Ownership::FixtureMember
        );
        assert_eq!(
            w.ownership("other/fixtures/a/package.json"),
            Ownership::FixtureCopy
        );
    }
}

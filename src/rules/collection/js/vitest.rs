//! vitest's collection settings: `test.include`, `test.exclude` and `test.dir`/`root`, from the
//! first `vitest.config.*` of a directory (else a `vite.config.*` with a `test` block), from
//! other `vitest.*.config.*`/`vite.*.config.*` files (run with `--config`, or named as
//! projects), and projects: `test.projects` (or the older `test.workspace`, inline or naming a
//! file) and a `vitest.workspace.*` file.
//!
//! Globs are relative to `root`/`dir`. An inline project reads its own `test` block, on top of
//! the root configuration's when it `extends: true` (or of the file it `extends`), merged as
//! vite's `mergeConfig` does (lists concatenate); its `root` is relative to the configuration.
//! A string project names directories (their own configuration, else the defaults there) or
//! configuration files, by path or glob; a computed one is unknown and stands for the
//! defaults over the configuration's directory.

use super::literal::{Literal, merge};
use super::runner::{Ignore, JsRunner, Matching, join_dir, relative_glob};
use super::{Config, Kind, Tool, config_kind, label, project_glob};
use crate::rules::disabled_check::VITEST_CONFIGS;

/// The vitest configurations of directory `dir` (file `names` there, read through `in_dir`;
/// `lookup` reads any configuration by path, for `extends` and `test.workspace`).
pub(super) fn configs(
    dir: &str,
    names: &[&str],
    in_dir: &super::InDir<'_>,
    lookup: &dyn Fn(&str) -> Option<Literal>,
) -> Vec<Config> {
    let mut out = Vec::new();
    let standard = VITEST_CONFIGS.iter().find_map(|name| {
        let (path, text) = in_dir.get(name)?;
        let value = in_dir.value(&path, text);
        // A vite configuration counts only with a `test` block.
        (name.starts_with("vitest.") || value.has("test")).then_some((path, value))
    });
    if let Some((path, value)) = standard {
        out.push(read(&path, dir, &value, true, lookup));
    }
    for name in names {
        let Some((path, text)) = in_dir.get(name) else {
            continue;
        };
        match config_kind(name) {
            Some(Kind::Vitest { standard: false }) => {
                let value = in_dir.value(&path, text);
                out.push(read(&path, dir, &value, false, lookup));
            }
            Some(Kind::Workspace) => {
                let value = in_dir.value(&path, text);
                let mut config = Config::new(Tool::Vitest, &path, dir);
                config.standard = false;
                let label = label("vitest", &path, false);
                projects(&mut config, &value, dir, dir, None, &label, lookup);
                out.push(config);
            }
            _ => {}
        }
    }
    out
}

fn read(
    path: &str,
    dir: &str,
    value: &Literal,
    standard: bool,
    lookup: &dyn Fn(&str) -> Option<Literal>,
) -> Config {
    let mut config = Config::new(Tool::Vitest, path, dir);
    config.standard = standard;
    let label = label("vitest", path, standard);
    if !matches!(value, Literal::Object(_)) {
        config.runners.push(JsRunner::defaults(label, dir));
        return config;
    }
    let root = directory(value, &[&["test", "root"], &["root"]], dir).unwrap_or_else(|| dir.into());
    let listed = value
        .at(&["test", "projects"])
        .or_else(|| value.at(&["test", "workspace"]));
    match listed {
        // `test.workspace: './vitest.workspace.ts'`: the projects are that file's.
        Some(Literal::Text(file)) => {
            let file = join_dir(dir, file).and_then(|file| lookup(&file));
            match file {
                Some(list) => projects(&mut config, &list, dir, &root, Some(value), &label, lookup),
                None => config.runners.push(JsRunner::defaults(label, dir)),
            }
        }
        Some(list) => projects(&mut config, list, dir, &root, Some(value), &label, lookup),
        None => config.runners.push(runner(value, dir, &root, label)),
    }
    config
}

/// Reads a projects list into `config`: inline projects become runners, paths and globs
/// become project globs.
fn projects(
    config: &mut Config,
    list: &Literal,
    dir: &str,
    root: &str,
    root_config: Option<&Literal>,
    label: &str,
    lookup: &dyn Fn(&str) -> Option<Literal>,
) {
    config.container = true;
    for (index, project) in list.items().into_iter().enumerate() {
        match project {
            Literal::Object(_) => {
                let base = match project.get("extends") {
                    Some(Literal::Text(flag)) if flag == "true" => root_config.cloned(),
                    Some(Literal::Text(file)) => join_dir(dir, file).and_then(|file| lookup(&file)),
                    _ => None,
                };
                let merged = match base {
                    Some(base) => merge(base, project.clone()),
                    None => project.clone(),
                };
                let project_root = directory(project, &[&["test", "root"], &["root"]], dir)
                    .unwrap_or_else(|| root.to_string());
                let name = project
                    .at(&["test", "name"])
                    .and_then(|name| name.text().or_else(|| name.get("label")?.text()))
                    .map_or_else(|| (index + 1).to_string(), str::to_string);
                let label = format!("{label} project `{name}`");
                config
                    .runners
                    .push(runner(&merged, dir, &project_root, label));
            }
            // A negated glob takes directories out of the other entries' matches.
            Literal::Text(entry) if entry.starts_with('!') => {
                let entry = relative_glob(&entry[1..].replace("<rootDir>", ""));
                config.projects_ignored.extend(project_glob(root, &entry));
            }
            Literal::Text(entry) => {
                match project_glob(root, &relative_glob(&entry.replace("<rootDir>", ""))) {
                    Some(glob) => config.projects.push(glob),
                    None => config.runners.push(JsRunner::defaults(label, dir)),
                }
            }
            _ => config.runners.push(JsRunner::defaults(label, dir)),
        }
    }
}

/// The first literal directory among `keys`, relative to `dir`.
fn directory(value: &Literal, keys: &[&[&str]], dir: &str) -> Option<String> {
    keys.iter()
        .find_map(|key| value.at(key))
        .and_then(Literal::text)
        .and_then(|path| join_dir(dir, path))
}

/// One project's runner: its `test` block with globs relative to `root` (and `test.dir`).
fn runner(settings: &Literal, scope: &str, root: &str, label: String) -> JsRunner {
    let mut runner = JsRunner::defaults(label, scope);
    let test = settings.get("test");
    let base = test
        .and_then(|test| directory(test, &[&["dir"]], root))
        .unwrap_or_else(|| root.to_string());
    if base != scope {
        runner.base_key = Some("`dir`/`root`");
    }
    runner.base = base;
    let Some(test) = test else {
        runner.ignore = default_exclude();
        return runner;
    };
    runner.type_tests = test.has("typecheck");
    if let Some(include) = test.get("include").and_then(Literal::strings) {
        runner.matching = Some(Matching::globs("include", &include));
    }
    runner.ignore = match test.get("exclude") {
        Some(exclude) => exclude
            .known_strings()
            .iter()
            .map(|glob| Ignore::Glob {
                key: "exclude",
                glob: super::super::glob::Glob::new(&relative_glob(glob)),
                dirs: true,
            })
            .collect(),
        None => default_exclude(),
    };
    runner
}

fn default_exclude() -> Vec<Ignore> {
    ["**/node_modules/**", "**/.git/**"]
        .iter()
        .map(|glob| Ignore::Glob {
            key: "exclude",
            glob: super::super::glob::Glob::new(glob),
            dirs: true,
        })
        .collect()
}

/// The runners of a configuration that lists several projects, read from `text` as the file
/// `path`, for telling a project's exclusion that another project still covers from a
/// narrowing. `None` for a configuration without projects.
pub fn projects_of(path: &str, text: &str) -> Option<Vec<JsRunner>> {
    let dir = super::parent(path);
    let value = super::read_value(path, text);
    let config = match config_kind(super::file_name(path))? {
        Kind::Vitest { standard } => read(path, dir, &value, standard, &|_| None),
        Kind::Workspace => {
            let mut config = Config::new(Tool::Vitest, path, dir);
            projects(&mut config, &value, dir, dir, None, "vitest", &|_| None);
            config
        }
        _ => return None,
    };
    (config.container && config.runners.len() + config.projects.len() > 1).then_some(config.runners)
}

#[cfg(test)]
mod tests {
    use super::super::tests::collection;

    #[test]
    fn include_exclude_and_dir() {
        let vitest = collection(&[(
            "vitest.config.ts",
            "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { dir: './packages', include: ['**/*.vitest.ts'], exclude: ['**/e2e/**'] } });",
        )]);
        assert!(vitest.collects("packages/a/b.vitest.ts"));
        assert!(!vitest.collects("packages/e2e/b.vitest.ts"));
        assert!(!vitest.collects("src/b.vitest.ts"), "outside dir");
        assert!(!vitest.collects("packages/a/b.test.ts"));
        // A vite config without a test block is not a vitest configuration.
        assert!(collection(&[("vite.config.ts", "export default { plugins: [] }")]).is_empty());
        let vite = collection(&[(
            "vite.config.mjs",
            "export default { test: { environment: 'jsdom' } }",
        )]);
        assert!(vite.collects("src/a.test.js"));
        assert!(!vite.collects("node_modules/x/a.test.js"));
        // Directory names exclude what is below them; literal entries of a computed list count.
        let dirs = collection(&[(
            "vitest.config.js",
            "export default { test: { include: ['**/*.test.ts'], exclude: [...configDefaults.exclude, 'src', 'e2e/**'] } }",
        )]);
        assert!(!dirs.collects("src/a/b.test.ts"));
        assert!(!dirs.collects("e2e/b.test.ts"));
        assert!(dirs.collects("lib/src2/b.test.ts"));
    }

    #[test]
    fn the_nearest_configuration_judges_with_its_own_directory() {
        let vitest = collection(&[
            (
                "vitest.config.ts",
                "export default { test: { include: ['src/**/*.test.ts'] } }",
            ),
            (
                "packages/ui/vitest.config.ts",
                "export default { test: { include: ['tests/**/*.spec.ts'] } }",
            ),
        ]);
        assert!(vitest.collects("src/a.test.ts"));
        assert!(vitest.collects("packages/ui/tests/button.spec.ts"));
        assert!(
            !vitest.collects("packages/ui/src/a.test.ts"),
            "the package's own include"
        );
        assert!(
            !vitest.collects("packages/api/src/a.test.ts"),
            "the root's include"
        );
        assert_eq!(
            vitest.reason("packages/ui/src/a.test.ts").unwrap(),
            "vitest (`packages/ui/vitest.config.ts`) `include`: `tests/**/*.spec.ts`"
        );
    }

    #[test]
    fn any_project_collects() {
        let vitest = collection(&[
            (
                "vitest.config.ts",
                "export default defineConfig({ test: { include: ['never/**'], exclude: ['**/legacy/**'], projects: [\
                   { extends: true, test: { name: 'unit', include: ['src/**/*.unit.ts'] } },\
                   { test: { name: 'browser', root: './web', include: ['**/*.browser.ts'] } },\
                   'packages/*', '!packages/skipped', './vitest.e2e.config.ts', makeProject()] } })",
            ),
            (
                "packages/api/vitest.config.ts",
                "export default { test: { include: ['**/*.check.ts'] } }",
            ),
            (
                "vitest.e2e.config.ts",
                "export default { test: { include: ['e2e/**/*.e2e.ts'] } }",
            ),
        ]);
        assert!(vitest.collects("src/cart.unit.ts"));
        assert!(
            !vitest.collects("src/legacy/cart.unit.ts"),
            "extends the root's exclude"
        );
        assert!(vitest.collects("web/button.browser.ts"));
        assert!(
            !vitest.collects("src/button.browser.ts"),
            "outside the project's root"
        );
        assert!(vitest.collects("packages/api/a.check.ts"));
        assert!(!vitest.collects("packages/api/a.unit.ts"));
        assert!(
            vitest.collects("packages/web/a.test.ts"),
            "a directory without config"
        );
        assert!(
            !vitest
                .reason("packages/skipped/a.ts")
                .unwrap()
                .contains("packages/skipped"),
            "left out by a negated entry"
        );
        assert!(vitest.collects("e2e/login.e2e.ts"));
        // The computed project stands for the defaults over the whole repository.
        assert!(vitest.collects("lib/a.test.ts"));
        assert!(!vitest.collects("lib/a.ts"));
    }

    #[test]
    fn workspace_files() {
        let vitest = collection(&[
            (
                "vitest.workspace.ts",
                "export default defineWorkspace(['packages/*', { test: { name: 'node', include: ['scripts/**/*.check.ts'] } }])",
            ),
            (
                "packages/a/vite.config.ts",
                "export default { test: { include: ['src/**/*.spec.ts'] } }",
            ),
        ]);
        assert!(vitest.collects("scripts/x.check.ts"));
        assert!(vitest.collects("packages/a/src/x.spec.ts"));
        assert!(!vitest.collects("packages/a/src/x.test.ts"));
        assert!(!vitest.collects("scripts/x.test.ts"));
    }

    #[test]
    fn projects_of_a_configuration() {
        let runners = super::projects_of(
            "vitest.config.ts",
            "export default { test: { projects: [{ test: { name: 'a' } }, { test: { name: 'b' } }] } }",
        )
        .unwrap();
        assert_eq!(runners.len(), 2);
        assert!(super::projects_of("vitest.config.ts", "export default { test: {} }").is_none());
    }
}

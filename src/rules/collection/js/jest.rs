//! jest's collection settings: `testMatch` (globs), `testRegex` (regexes), `roots`, `rootDir`
//! and `testPathIgnorePatterns`, from `jest.config.*` (else `package.json`'s `jest` key) in a
//! directory, and from other `jest*.config.*`/`jest-*.json` files run with `--config`.
//!
//! jest matches `testMatch` and its regexes against the absolute path; here globs are relative
//! to `rootDir` (`<rootDir>/` and `./` dropped; a leading `**/` matches at any depth) and
//! regexes see the path under a stand-in root directory, so `<rootDir>/build/` and
//! `/__tests__/` mean what they mean to jest. A regex that the `regex` crate cannot compile
//! (look-around, back-references) makes `testRegex` unknown; such an ignore pattern is left
//! out. With `projects`, the configuration's own patterns do not run: each project does, an
//! inline object with its own settings (its `rootDir` defaulting to the configuration's) or a
//! path or glob naming directories (their own configuration, else the defaults) or
//! configuration files.

use super::literal::Literal;
use super::runner::{Ignore, JsRunner, Matching, ROOT, join_dir, js_regex, relative_glob};
use super::{Config, Kind, Tool, config_kind, label, project_glob};
use crate::rules::disabled_check::JEST_CONFIGS;

/// The jest configurations of directory `dir` (file `names` there, read through `in_dir`).
pub(super) fn configs(
    dir: &str,
    names: &[&str],
    in_dir: &super::InDir<'_>,
    package: Option<&(String, serde_json::Value)>,
) -> Vec<Config> {
    let mut out = Vec::new();
    let standard = JEST_CONFIGS
        .iter()
        .find_map(|name| in_dir.get(name))
        .map(|(path, text)| (in_dir.value(&path, text), path))
        .or_else(|| {
            let (path, package) = package?;
            Some((
                super::literal::from_json(package.get("jest")?),
                path.clone(),
            ))
        });
    if let Some((value, path)) = standard {
        out.push(read(&path, dir, &value, true));
    }
    for name in names {
        if config_kind(name) == Some(Kind::Jest { standard: false })
            && let Some((path, text)) = in_dir.get(name)
        {
            out.push(read(&path, dir, &in_dir.value(&path, text), false));
        }
    }
    out
}

fn read(path: &str, dir: &str, value: &Literal, standard: bool) -> Config {
    let mut config = Config::new(Tool::Jest, path, dir);
    config.standard = standard;
    let label = label("jest", path, standard);
    if !matches!(value, Literal::Object(_)) {
        config.runners.push(JsRunner::defaults(label, dir));
        return config;
    }
    let root = root_dir(value, dir, dir);
    let Some(projects) = value.get("projects") else {
        config.runners.push(runner(value, dir, &root, label));
        return config;
    };
    config.container = true;
    for (index, project) in projects.items().into_iter().enumerate() {
        match project {
            Literal::Object(_) => {
                let name = match project.get("displayName") {
                    Some(Literal::Text(name)) => name.clone(),
                    Some(object) => object
                        .get("name")
                        .and_then(Literal::text)
                        .map_or_else(|| (index + 1).to_string(), str::to_string),
                    None => (index + 1).to_string(),
                };
                let root = root_dir(project, dir, &root);
                let label = format!("{label} project `{name}`");
                config.runners.push(runner(project, dir, &root, label));
            }
            Literal::Text(entry) => {
                let relative = relative_glob(&entry.replace("<rootDir>", ""));
                if matches!(relative.trim_end_matches('/'), "" | ".") {
                    // The configuration's own directory: its own settings, as a project.
                    config
                        .runners
                        .push(runner(value, dir, &root, label.clone()));
                } else if let Some(glob) = project_glob(&root, &relative) {
                    config.projects.push(glob);
                } else {
                    config.runners.push(JsRunner::defaults(label.clone(), dir));
                }
            }
            // A computed project: unknown, the defaults over the configuration's directory.
            _ => config.runners.push(JsRunner::defaults(label.clone(), dir)),
        }
    }
    config
}

/// `rootDir` (relative to the configuration's directory), else `inherited`.
fn root_dir(value: &Literal, dir: &str, inherited: &str) -> String {
    value
        .get("rootDir")
        .and_then(Literal::text)
        .and_then(|root| join_dir(dir, root))
        .unwrap_or_else(|| inherited.to_string())
}

/// One jest project's runner: `settings` read with `<rootDir>` standing for `root`.
fn runner(settings: &Literal, dir: &str, root: &str, label: String) -> JsRunner {
    let mut runner = JsRunner::defaults(label, dir);
    // A `rootDir` above the configuration widens what it sees.
    if root.is_empty() || super::runner::under(dir, root) {
        runner.scope = root.to_string();
    }
    runner.base = root.to_string();
    let absolute_root = if root.is_empty() {
        ROOT.to_string()
    } else {
        format!("{ROOT}/{root}")
    };
    runner.roots = match settings.get("roots").and_then(Literal::strings) {
        Some(roots) => roots
            .iter()
            .map(|entry| join_dir(root, entry))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default(),
        None => vec![root.to_string()],
    };
    if runner.roots.iter().any(String::is_empty) {
        runner.roots.clear();
    }
    let test_match = settings.get("testMatch").and_then(Literal::strings);
    let test_regex = settings.get("testRegex").and_then(Literal::strings);
    runner.matching = match (test_match, test_regex) {
        (Some(globs), _) if !globs.is_empty() => {
            let globs: Vec<String> = globs
                .iter()
                .map(|glob| glob.replace("<rootDir>", ""))
                .collect();
            Some(Matching::globs("testMatch", &globs))
        }
        (_, Some(regexes)) if !regexes.is_empty() => regexes
            .iter()
            .map(|source| Some((js_regex(source)?, source.clone())))
            .collect::<Option<Vec<_>>>()
            .map(|regexes| Matching::regexes("testRegex", regexes)),
        // An empty list collects nothing, as in jest.
        (Some(_), _) => Some(Matching::globs("testMatch", &[])),
        _ => None,
    };
    // Exclusions: the literal entries count even in a partly computed list (they are excluded
    // whatever the rest is).
    if let Some(ignore) = settings.get("testPathIgnorePatterns") {
        runner.ignore = ignore
            .known_strings()
            .iter()
            .filter_map(|source| {
                let regex = js_regex(&source.replace("<rootDir>", &absolute_root))?;
                Some(Ignore::Regex(
                    "testPathIgnorePatterns",
                    regex,
                    source.clone(),
                ))
            })
            .collect();
    }
    runner
}

#[cfg(test)]
mod tests {
    use super::super::tests::collection;

    #[test]
    fn test_match_replaces_the_defaults() {
        let jest = collection(&[(
            "jest.config.js",
            "module.exports = { testMatch: ['<rootDir>/src/**/*.check.js', '!**/fixtures/**'] };",
        )]);
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
    fn regexes_roots_and_ignores() {
        let jest = collection(&[(
            "jest.config.ts",
            "export default { roots: ['<rootDir>/src', '<rootDir>/test'], testRegex: '(/__tests__/.*|\\\\.(test|spec))\\\\.[jt]sx?$', testPathIgnorePatterns: ['<rootDir>/src/legacy/', '/fixtures/'] };",
        )]);
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
        let jest = collection(&[(
            "package.json",
            r#"{"name": "x", "jest": {"testMatch": ["**/*.it.js"]}}"#,
        )]);
        assert!(jest.collects("a/b.it.js"));
        assert!(!jest.collects("a/b.test.js"));
        assert!(collection(&[("package.json", r#"{"name": "x"}"#)]).is_empty());
        // A spread of the defaults: unknown, so the defaults.
        let computed = collection(&[(
            "jest.config.js",
            "const { defaults } = require('jest-config');\nmodule.exports = { testMatch: [...defaults.testMatch, '**/*.it.js'] };",
        )]);
        assert!(computed.collects("a/b.test.js"));
        assert!(!computed.collects("a/b.it.js"));
        // Projects: each project's own patterns are followed (they once fell back to the
        // defaults).
        let projects = collection(&[(
            "jest.config.js",
            "module.exports = { projects: [{ testMatch: ['**/*.it.js'] }] };",
        )]);
        assert!(projects.collects("a/b.it.js"));
        assert!(!projects.collects("a/b.test.js"));
    }

    #[test]
    fn root_dir_and_script_configs() {
        // NestJS's layout: unit specs under `rootDir`, e2e specs run with another config.
        let jest = r#""jest": {"rootDir": "src", "testRegex": ".*\\.spec\\.ts$", "testPathIgnorePatterns": ["<rootDir>/legacy/"]}"#;
        let unit = collection(&[("package.json", &format!("{{{jest}}}"))]);
        assert!(unit.collects("src/app.service.spec.ts"));
        assert!(!unit.collects("src/legacy/a.spec.ts"));
        assert!(!unit.collects("test/app.e2e-spec.ts"), "outside rootDir");
        // `jest --config` from a script: the default patterns stand for that configuration.
        let package = format!(
            r#"{{"scripts": {{"test": "jest", "test:e2e": "jest --config ./test/jest-e2e.json"}}, {jest}}}"#
        );
        let package = package.as_str();
        assert!(collection(&[("package.json", package)]).collects("test/app.e2e-spec.ts"));
        let with_e2e = collection(&[
            ("package.json", package),
            (
                "test/jest-e2e.json",
                r#"{"rootDir": ".", "testRegex": ".e2e-spec.ts$"}"#,
            ),
        ]);
        assert!(with_e2e.collects("test/app.e2e-spec.ts"));
    }

    #[test]
    fn projects_inline_and_by_directory() {
        let jest = collection(&[
            (
                "jest.config.js",
                "module.exports = { testMatch: ['**/*.never.js'], projects: [{ displayName: 'unit', testMatch: ['<rootDir>/src/**/*.unit.js'] }, '<rootDir>/packages/*'] };",
            ),
            (
                "packages/api/jest.config.js",
                "module.exports = { testMatch: ['**/*.check.js'] };",
            ),
        ]);
        assert!(jest.collects("src/cart.unit.js"));
        assert!(
            !jest.collects("src/cart.never.js"),
            "the root's own patterns do not run"
        );
        assert!(jest.collects("packages/api/src/a.check.js"));
        assert!(!jest.collects("packages/api/src/a.test.js"));
        // A project directory without a configuration: the defaults there.
        assert!(jest.collects("packages/web/src/a.test.js"));
        assert!(!jest.collects("packages/web/src/a.js"));
        assert!(!jest.collects("lib/a.test.js"));
        assert!(
            jest.reason("packages/api/src/a.test.js")
                .unwrap()
                .starts_with("jest (`packages/api/jest.config.js`) `testMatch`: `**/*.check.js`; jest project `unit`")
        );
    }
}

use super::*;

/// The collection read from `files` (path, base text), for this module's tests and its
/// siblings'.
pub(super) fn collection(files: &[(&str, &str)]) -> JsCollection {
    let configs: Vec<(String, String)> = files
        .iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    JsCollection::from_configs(&configs)
}

#[test]
fn config_names() {
    for (name, kind) in [
        ("jest.config.ts", Some(Kind::Jest { standard: true })),
        ("jest.e2e.config.js", Some(Kind::Jest { standard: false })),
        ("jest.config.unit.ts", Some(Kind::Jest { standard: false })),
        ("jest-e2e.json", Some(Kind::Jest { standard: false })),
        ("jest.setup.js", None),
        ("vite.config.ts", Some(Kind::Vitest { standard: true })),
        (
            "vitest.unit.config.mts",
            Some(Kind::Vitest { standard: false }),
        ),
        ("vitest.a.b.config.ts", None),
        ("vitest.workspace.json", Some(Kind::Workspace)),
        ("playwright.config.ts", Some(Kind::Playwright)),
        ("playwright-ct.config.ts", Some(Kind::Playwright)),
        (".mocharc.yml", Some(Kind::Mocha)),
        ("package.json", Some(Kind::Package)),
        ("vitest-env.d.ts", None),
        ("index.ts", None),
    ] {
        assert_eq!(config_kind(name), kind, "{name}");
    }
}

#[test]
fn runners_judge_by_their_tool() {
    let defaults = JsCollection::default();
    assert!(defaults.collects("src/a.test.ts"));
    assert!(!defaults.collects("src/a.check.js"));
    let both = collection(&[
        (
            "jest.config.js",
            "module.exports = { testMatch: ['**/*.check.js'] };",
        ),
        (
            "vitest.config.ts",
            "export default { test: { include: ['**/*.vitest.ts'] } };",
        ),
    ]);
    assert!(both.collects("src/a.check.js"));
    assert!(both.collects("src/a.vitest.ts"));
    assert!(!both.collects("src/a.test.ts"));
    assert_eq!(
        both.reason("src/a.ts").unwrap(),
        "jest `testMatch`: `**/*.check.js`; vitest `include`: `**/*.vitest.ts`"
    );
    // A configuration in a package does not reach its siblings.
    let package = collection(&[(
        "packages/a/vitest.config.ts",
        "export default { test: { include: ['src/**/*.check.ts'] } }",
    )]);
    assert!(!package.collects("packages/a/src/x.test.ts"));
    assert!(package.collects("packages/b/src/x.test.ts"));
}

#[test]
fn project_globs_are_repository_globs() {
    let glob = project_glob("", "./packages/*").unwrap();
    assert!(glob.is_match("packages/a"));
    assert!(!glob.is_match("packages/a/b"));
    let nested = project_glob("apps", "../libs/*").unwrap();
    assert!(nested.is_match("libs/x"));
    assert!(project_glob("", "../x").is_none());
}

#[test]
fn configurations_under_other_names_only_add() {
    let both = collection(&[
        (
            "vitest.config.ts",
            "export default { test: { include: ['src/**/*.test.ts'] } }",
        ),
        (
            "packages/a/vitest.e2e.config.ts",
            "export default { test: { include: ['e2e/**/*.e2e.ts'] } }",
        ),
        (
            "jest-e2e.json",
            r#"{"rootDir": ".", "testRegex": "\\.e2e-spec\\.ts$"}"#,
        ),
    ]);
    assert!(both.collects("packages/a/e2e/login.e2e.ts"));
    assert!(!both.collects("packages/a/e2e/login.test.ts"));
    assert!(both.collects("src/a.test.ts"));
    assert!(both.collects("test/app.e2e-spec.ts"));
    // Only a configuration jest finds by itself decides: the defaults stand for plain `jest`.
    let e2e_only = collection(&[(
        "test/jest-e2e.json",
        r#"{"rootDir": ".", "testRegex": "\\.e2e-spec\\.ts$"}"#,
    )]);
    assert!(e2e_only.collects("test/app.e2e-spec.ts"));
    assert!(e2e_only.collects("test/unit.test.ts"));
    assert!(!e2e_only.collects("src/helpers.ts"));
}

#[test]
fn hostile_configurations_fail_toward_the_defaults() {
    let deep = format!(
        "export default {{ test: {{ projects: {}'a'{} }} }}",
        "[".repeat(3000),
        "]".repeat(3000)
    );
    let many = format!(
        "export default {{ test: {{ projects: [{}] }} }}",
        "'packages/*', ".repeat(5000)
    );
    let hostile = collection(&[
        ("vitest.config.ts", deep.as_str()),
        ("a/vitest.config.ts", many.as_str()),
        ("b/jest.config.json", "{ not json"),
        ("c/package.json", "\u{0}\u{1}binary"),
        ("d/.mocharc.yml", "spec: [[[[\n"),
        (
            "e/playwright.config.ts",
            "export default { testMatch: /(/ }",
        ),
        ("f/vitest.workspace.json", "42"),
    ]);
    for path in [
        "src/a.test.ts",
        "a/x/b.test.ts",
        "b/c.test.js",
        "c/d.test.js",
        "d/e.spec.js",
        "e/f.spec.ts",
        "f/g.test.ts",
    ] {
        assert!(hostile.collects(path), "{path}");
    }
}

//! Fail closed (issue 10, items 2, 7, 8): suppressions count only where they stood in base, the
//! relayed report's verdict is recomputed, and the rule gaps an agent would use are closed.

use crate::support::{Repo, json, rules_of, stderr};
use serde_json::Value;

/// Synthetic, built at run time so that this file itself holds no token.
fn token() -> String {
    format!("ghp_{}", "Zq8Xw2Lk5Vb9Nm3Rt7Yp1Hs4Dg6Fj0Ca2Ue8")
}

/// main holds `files`; branch `feature` applies `head_change` on top.
fn repo_with(files: &[(&str, String)], head_change: impl FnOnce(&Repo)) -> Repo {
    let repo = Repo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    head_change(&repo);
    repo.commit("head");
    repo
}

fn diff_json(repo: &Repo) -> (Option<i32>, Value) {
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    (output.status.code(), json(&output))
}

const ALLOW_SKIP: &str =
    "# integrity-gate: allow skipped-test -- upstream service is down, see #41";

/// A test file whose first test carries a reasoned, base-approved skip.
fn suppressed_base() -> String {
    format!(
        "import pytest\n\n\n{ALLOW_SKIP}\n@pytest.mark.skip\ndef test_flaky():\n    assert fetch() == 1\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n"
    )
}

#[test]
fn an_allow_line_copied_above_a_new_skip_does_not_silence_it() {
    let repo = repo_with(&[("tests/test_cart.py", suppressed_base())], |repo| {
        let head = suppressed_base().replace(
            "def test_adds",
            &format!("{ALLOW_SKIP}\n@pytest.mark.skip\ndef test_adds"),
        );
        repo.write("tests/test_cart.py", head);
    });
    let (code, report) = diff_json(&repo);
    let rules = rules_of(&report);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(rules.contains(&"skipped-test".to_string()), "{report:#}");
    assert!(
        rules.contains(&"gate-config-change".to_string()),
        "the second copy is a new suppression: {report:#}"
    );
}

#[test]
fn an_allow_line_kept_in_place_but_realigned_above_a_new_skip_does_not_silence_it() {
    // The diff keeps the base suppression line as unchanged context while new lines slide in
    // under it: the line is the same, the code it covers is not.
    let base = format!(
        "import pytest\n\n\n{ALLOW_SKIP}\n@pytest.mark.skip\ndef test_flaky():\n    assert fetch() == 1\n"
    );
    let repo = repo_with(&[("tests/test_cart.py", base.clone())], |repo| {
        let head = base.replace(
            &format!("{ALLOW_SKIP}\n"),
            &format!(
                "{ALLOW_SKIP}\n@pytest.mark.skip\ndef test_adds():\n    assert 1 + 1 == 2\n\n\n"
            ),
        );
        repo.write("tests/test_cart.py", head);
    });
    let (_, report) = diff_json(&repo);
    let rules = rules_of(&report);
    // A new test added already skipped is a warning by itself; what matters is that the base
    // suppression does not silence it and is reported as standing somewhere new.
    assert!(rules.contains(&"skipped-test".to_string()), "{report:#}");
    assert!(
        rules.contains(&"gate-config-change".to_string()),
        "{report:#}"
    );
}

#[test]
fn an_allow_line_copied_above_a_new_token_does_not_silence_it() {
    let allow = "# integrity-gate: allow leaked-secret -- synthetic key for the parser tests";
    let base = format!("{allow}\nFIXTURE_KEY = \"not-a-real-key\"\n\nNAME = \"app\"\n");
    let repo = repo_with(&[("app/settings.py", base.clone())], |repo| {
        repo.write(
            "app/settings.py",
            format!("{base}\n{allow}\nGITHUB_TOKEN = \"{}\"\n", token()),
        );
    });
    let (code, report) = diff_json(&repo);
    let rules = rules_of(&report);
    assert_eq!(code, Some(1), "{report:#}");
    assert!(rules.contains(&"leaked-secret".to_string()), "{report:#}");
    assert!(
        rules.contains(&"gate-config-change".to_string()),
        "{report:#}"
    );
    assert!(!report.to_string().contains(&token()));
}

#[test]
fn a_suppression_that_stood_in_base_above_the_same_line_still_silences() {
    // Base: the suppression stands above a test that is not skipped yet; head skips that very
    // test (an edited line under it) and edits the body.
    let allow = "# integrity-gate: allow skipped-test -- upstream service is down, see #41";
    let base = format!(
        "import pytest\n\n\n{allow}\n@pytest.mark.flaky\ndef test_flaky():\n    assert fetch() == 1\n"
    );
    let repo = repo_with(&[("tests/test_net.py", base.clone())], |repo| {
        let head = base
            .replace("@pytest.mark.flaky", "@pytest.mark.skip")
            .replace("fetch() == 1", "fetch() == 2");
        repo.write("tests/test_net.py", head);
    });
    let (code, report) = diff_json(&repo);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{report:#}");
}

#[test]
fn an_unchanged_suppression_above_an_unchanged_line_still_silences() {
    let allow = "# integrity-gate: allow leaked-secret -- revoked demo token, kept for the docs";
    let repo = repo_with(&[("docs/demo.py", "NAME = \"demo\"\n".to_string())], |_| {});
    // The token and its suppression come in on main first (approved there), then the branch
    // edits a line elsewhere in the file.
    repo.git(&["checkout", "-q", "main"]);
    repo.write(
        "docs/demo.py",
        format!("NAME = \"demo\"\n\n{allow}\nTOKEN = \"{}\"\n", token()),
    );
    repo.commit("approved demo token");
    repo.git(&["checkout", "-q", "-b", "edit"]);
    repo.write(
        "docs/demo.py",
        format!("NAME = \"demo2\"\n\n{allow}\nTOKEN = \"{}\"\n", token()),
    );
    repo.commit("edit");
    let (code, report) = diff_json(&repo);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{report:#}");
}

#[test]
fn a_renamed_file_keeps_its_suppression_in_place() {
    let allow = "# integrity-gate: allow skipped-test -- upstream service is down, see #41";
    let base = format!(
        "import pytest\n\n\n{allow}\n@pytest.mark.flaky\ndef test_flaky():\n    assert fetch() == 1\n\n\ndef test_more():\n    assert 1 == 1\n"
    );
    let repo = repo_with(&[("tests/test_net.py", base.clone())], |repo| {
        repo.git(&["mv", "tests/test_net.py", "tests/test_network.py"]);
        repo.write(
            "tests/test_network.py",
            base.replace("@pytest.mark.flaky", "@pytest.mark.skip"),
        );
    });
    let (code, report) = diff_json(&repo);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{report:#}");
}

// Item 7: the fork-PR relay recomputes the verdict.

mod relay {
    use super::*;
    use crate::github::api::rt;
    use crate::github::binary::{checks_api, run_relay};
    use std::path::Path;
    use std::process::Output;

    const BASE: &str = "ba5e000000000000000000000000000000000001";

    fn finding(rule: &str, severity: &str, path: &str) -> Value {
        serde_json::json!({
            "rule": rule, "severity": severity, "path": path, "line": 4, "end_line": 4,
            "side": "head", "message": "test `test_adds` is now skipped", "snippet": "@pytest.mark.skip"
        })
    }

    fn report(head: &str, findings: Vec<Value>, blocking: usize) -> String {
        serde_json::json!({
            "version": 1, "base": BASE, "head": head,
            "summary": {"files_scanned": 2, "findings": findings.len(), "blocking": blocking},
            "findings": findings,
        })
        .to_string()
    }

    /// Stage 2 in `dir` (its checkout, when a repository); returns its output and the
    /// conclusion of the check run it created.
    fn relay(dir: &Path, head: &str, report: &str) -> (Output, Value) {
        let runtime = rt();
        let server = checks_api(&runtime, 0..);
        let work = tempfile::tempdir().unwrap();
        let report_path = work.path().join("report.json");
        std::fs::write(&report_path, report).unwrap();
        let output = run_relay(&server, dir, head, &report_path);
        let requests = runtime
            .block_on(server.received_requests())
            .unwrap_or_default();
        let conclusion = requests
            .iter()
            .filter(|request| request.method == "POST")
            .filter_map(|request| serde_json::from_slice::<Value>(&request.body).ok())
            .find_map(|body| body.get("conclusion").cloned())
            .unwrap_or(Value::Null);
        (output, conclusion)
    }

    #[test]
    fn a_forged_zero_blocking_summary_does_not_pass() {
        let head = "c0ffee0000000000000000000000000000000042";
        let forged = report(
            head,
            vec![
                finding("skipped-test", "error", "tests/test_a.py"),
                finding("leaked-secret", "error", "app/settings.py"),
            ],
            0,
        );
        // No repository in the job: the default policy judges, and the log says so.
        let empty = tempfile::tempdir().unwrap();
        let (output, conclusion) = relay(empty.path(), head, &forged);
        assert_eq!(conclusion, "failure", "{}", stderr(&output));
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert!(
            crate::support::stdout(&output).contains("default policy"),
            "{}",
            crate::support::stdout(&output)
        );
    }

    #[test]
    fn a_severity_lowered_below_the_base_policy_counts_at_the_policy_level() {
        // The base repository's policy makes skipped-test an error; the relay lowers it to a
        // note and claims nothing blocks.
        let repo = Repo::new();
        repo.write(
            ".integrity-gate.yml",
            "rules:\n  skipped-test:\n    severity: error\n",
        );
        repo.commit("policy");
        let head = repo.git(&["rev-parse", "HEAD"]);
        let forged = report(
            &head,
            vec![finding("skipped-test", "note", "tests/test_a.py")],
            0,
        );
        let (output, conclusion) = relay(repo.path(), &head, &forged);
        assert_eq!(conclusion, "failure", "{}", stderr(&output));
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        // Honest: the same note under a policy that leaves the rule alone does not block.
        let plain = Repo::new();
        plain.write("README.md", "widgets\n");
        plain.commit("base");
        let (output, conclusion) = relay(plain.path(), &head, &forged);
        assert_ne!(conclusion, "failure", "{}", stderr(&output));
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
}

// Item 8: rule gaps an agent would use.

fn findings_of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["rule"] == rule)
        .collect()
}

#[test]
fn a_lockfile_package_moved_to_another_host_is_an_error() {
    let lock = |version: &str, host: &str| {
        format!(
            "{{\n  \"name\": \"shop\",\n  \"lockfileVersion\": 3,\n  \"packages\": {{\n    \"\": {{ \"name\": \"shop\", \"dependencies\": {{ \"lodash\": \"^4.17.0\" }} }},\n    \"node_modules/lodash\": {{\n      \"version\": \"{version}\",\n      \"resolved\": \"https://{host}/lodash/-/lodash-{version}.tgz\"\n    }}\n  }}\n}}\n"
        )
    };
    let manifest = "{ \"name\": \"shop\", \"dependencies\": { \"lodash\": \"^4.17.0\" } }\n";
    let files = [
        ("package.json", manifest.to_string()),
        ("package-lock.json", lock("4.17.20", "registry.npmjs.org")),
    ];
    // The manifest changes too, so lockfile growth alone would be explained by it.
    let moved = repo_with(&files, |repo| {
        repo.write("package.json", manifest.replace("^4.17.0", "^4.17.20"));
        repo.write(
            "package-lock.json",
            lock("4.17.20", "npm-mirror.example.net"),
        );
    });
    let (code, report) = diff_json(&moved);
    let found = findings_of(&report, "new-dependency");
    assert_eq!(code, Some(1), "{report:#}");
    assert!(
        found.iter().any(|finding| finding["severity"] == "error"
            && finding["message"]
                .as_str()
                .unwrap()
                .contains("npm-mirror.example.net")),
        "{report:#}"
    );
    // Honest: a version bump on the same registry host.
    let bumped = repo_with(&files, |repo| {
        repo.write("package.json", manifest.replace("^4.17.0", "^4.17.21"));
        repo.write("package-lock.json", lock("4.17.21", "registry.npmjs.org"));
    });
    let (code, report) = diff_json(&bumped);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(
        findings_of(&report, "new-dependency").is_empty(),
        "{report:#}"
    );
}

const TESTS: &str = "def test_adds():\n    assert 1 + 1 == 2\n";

fn disabled_checks(report: &Value) -> Vec<(String, String)> {
    findings_of(report, "disabled-check")
        .into_iter()
        .map(|finding| {
            (
                finding["severity"].as_str().unwrap().to_string(),
                finding["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_conftest_hook_that_skips_every_test_is_an_error() {
    for hook in [
        "import pytest\n\n\ndef pytest_collection_modifyitems(config, items):\n    for item in items:\n        item.add_marker(pytest.mark.skip(reason=\"flaky on CI\"))\n",
        "def pytest_collection_modifyitems(session, config, items):\n    config.hook.pytest_deselected(items=items[:])\n    items[:] = []\n",
    ] {
        let repo = repo_with(&[("tests/test_math.py", TESTS.to_string())], |repo| {
            repo.write("tests/conftest.py", hook);
        });
        let (code, report) = diff_json(&repo);
        let found = disabled_checks(&report);
        assert_eq!(code, Some(1), "{report:#}");
        assert!(
            found.iter().any(|(severity, message)| severity == "error"
                && message.contains("pytest_collection_modifyitems")),
            "{report:#}"
        );
    }
}

#[test]
fn a_forced_exit_0_in_test_harness_code_is_an_error() {
    for (path, content) in [
        (
            "tests/conftest.py",
            "import os\n\n\ndef pytest_sessionfinish(session, exitstatus):\n    os._exit(0)\n",
        ),
        (
            "tests/test_math.py",
            "import sys\n\n\ndef tearDownModule():\n    sys.exit(0)\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n",
        ),
        (
            "test/global-teardown.js",
            "module.exports = async () => {\n  process.exit(0);\n};\n",
        ),
    ] {
        let repo = repo_with(&[("tests/test_math.py", TESTS.to_string())], |repo| {
            repo.write(path, content);
        });
        let (code, report) = diff_json(&repo);
        let found = disabled_checks(&report);
        assert_eq!(code, Some(1), "{path}: {report:#}");
        assert!(
            found
                .iter()
                .any(|(severity, message)| severity == "error" && message.contains("exits")),
            "{path}: {report:#}"
        );
    }
}

#[test]
fn opt_in_hooks_script_exits_and_failing_exits_are_not_errors() {
    let repo = repo_with(&[("tests/test_math.py", TESTS.to_string())], |repo| {
        repo.write(
            "tests/conftest.py",
            "import pytest\n\n\ndef pytest_addoption(parser):\n    parser.addoption(\"--runslow\", action=\"store_true\")\n\n\ndef pytest_collection_modifyitems(config, items):\n    if config.getoption(\"--runslow\"):\n        return\n    skip_slow = pytest.mark.skip(reason=\"need --runslow option to run\")\n    for item in items:\n        if \"slow\" in item.keywords:\n            item.add_marker(skip_slow)\n",
        );
        repo.write(
            "tests/test_math.py",
            format!("import sys\n\nimport pytest\n\n\n{TESTS}\n\nif __name__ == \"__main__\":\n    sys.exit(pytest.main([__file__]))\n"),
        );
        repo.write(
            "test/global-setup.js",
            "module.exports = async () => {\n  if (!process.env.DATABASE_URL) {\n    console.error('DATABASE_URL is not set');\n    process.exit(1);\n  }\n};\n",
        );
        repo.write(
            "scripts/release.py",
            "import sys\n\nif __name__ == \"__main__\":\n    sys.exit(0)\n",
        );
    });
    let (code, report) = diff_json(&repo);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(disabled_checks(&report), Vec::new(), "{report:#}");
}

/// A JavaScript project whose runner configuration `name` reads `text`, with two test files.
fn js_project<'a>(name: &'a str, text: &str) -> Vec<(&'a str, String)> {
    vec![
        (name, text.to_string()),
        (
            "src/cart.test.js",
            "test('adds', () => { expect(1 + 1).toBe(2); });\n".to_string(),
        ),
        (
            "src/checkout.test.js",
            "test('pays', () => { expect(2 * 2).toBe(4); });\n".to_string(),
        ),
        ("src/cart.js", "module.exports = {};\n".to_string()),
    ]
}

#[test]
fn a_runner_config_narrowed_to_drop_existing_tests_is_an_error() {
    let cases = [
        (
            "jest.config.js",
            "module.exports = { testMatch: ['**/*.test.js'] };\n",
            "module.exports = { testMatch: ['**/smoke/*.test.js'] };\n",
        ),
        (
            "jest.config.js",
            "module.exports = { testMatch: ['**/*.test.js'] };\n",
            "module.exports = {\n  testMatch: ['**/*.test.js'],\n  testPathIgnorePatterns: ['/node_modules/', 'checkout'],\n};\n",
        ),
        (
            "vitest.config.js",
            "export default { test: { include: ['src/**/*.test.js'] } };\n",
            "export default { test: { include: ['src/smoke/**/*.test.js'] } };\n",
        ),
    ];
    for (name, base, head) in cases {
        let repo = repo_with(&js_project(name, base), |repo| repo.write(name, head));
        let (code, report) = diff_json(&repo);
        assert_eq!(code, Some(1), "{name}: {head}\n{report:#}");
        assert!(
            disabled_checks(&report)
                .iter()
                .any(|(severity, message)| severity == "error"
                    && message.contains("no longer collected")),
            "{report:#}"
        );
    }
}

#[test]
fn a_runner_config_narrowed_without_dropping_tests_is_a_warning_at_most() {
    let base = "module.exports = { testMatch: ['**/*.test.js', '**/*.spec.js'] };\n";
    let repo = repo_with(&js_project("jest.config.js", base), |repo| {
        repo.write(
            "jest.config.js",
            "module.exports = { testMatch: ['**/*.test.js'] };\n",
        )
    });
    let (code, report) = diff_json(&repo);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(
        disabled_checks(&report)
            .iter()
            .all(|(severity, _)| severity != "error"),
        "{report:#}"
    );
}

#[test]
fn pass_with_no_tests_next_to_a_narrowed_selection_is_an_error() {
    let package = |test: &str| {
        format!(
            "{{\n  \"name\": \"shop\",\n  \"scripts\": {{\n    \"test\": \"{test}\"\n  }}\n}}\n"
        )
    };
    let files = |test: &str| js_project("package.json", &package(test));
    // An empty selection passes: the tests never run, and the command says success.
    for narrowed in [
        "jest --passWithNoTests src/smoke",
        "jest --passWithNoTests --testPathPattern=smoke",
    ] {
        let repo = repo_with(&files("jest"), |repo| {
            repo.write("package.json", package(narrowed))
        });
        let (code, report) = diff_json(&repo);
        assert_eq!(code, Some(1), "{narrowed}: {report:#}");
        assert!(
            disabled_checks(&report)
                .iter()
                .any(|(severity, message)| severity == "error"
                    && message.contains("passWithNoTests")),
            "{narrowed}: {report:#}"
        );
    }
    // The flag alone, or next to options that select nothing, stays a warning.
    for alone in [
        "jest --passWithNoTests",
        "jest --passWithNoTests --config jest.ci.js --ci",
    ] {
        let repo = repo_with(&files("jest"), |repo| {
            repo.write("package.json", package(alone))
        });
        let (code, report) = diff_json(&repo);
        assert_eq!(code, Some(0), "{alone}: {report:#}");
        assert!(
            disabled_checks(&report)
                .iter()
                .all(|(severity, _)| severity == "warning"),
            "{alone}: {report:#}"
        );
    }
}

//! The real binary end to end: `integrity-gate github` in a simulated Actions environment
//! against a stand-in GitHub API on 127.0.0.1, and `hook install` + a real `git push` to a
//! local bare remote.

use super::api::{check_run_json, empty_list, rt};
use crate::support::{Repo, binary, stdout};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ghs_e2etoken0123456789abcdef";
const TEST_FILE: &str = "tests/test_cart.py";
const BASE_TEST: &str = "import pytest\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n";

fn skipped() -> String {
    BASE_TEST.replace("def test_adds", "@pytest.mark.skip\ndef test_adds")
}

/// A repository whose main has a test and whose `feature` branch skips it; returns the shas.
fn pr_repo() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write(TEST_FILE, BASE_TEST);
    let base = repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped());
    let head = repo.commit("skip it");
    (repo, base, head)
}

pub(crate) fn run_github(
    repo: &Repo,
    server: &MockServer,
    base: &str,
    head: &str,
) -> (Output, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let payload = super::common::fixture("pull_request.json")
        .replace("ba5e000000000000000000000000000000000001", base)
        .replace("c0ffee0000000000000000000000000000000042", head);
    let event = out.path().join("event.json");
    std::fs::write(&event, payload).unwrap();
    let output = Command::new(binary())
        .args(["github", "--json"])
        .arg(out.path().join("report.json"))
        .arg("--sarif")
        .arg(out.path().join("report.sarif"))
        .current_dir(repo.path())
        .env("GITHUB_EVENT_NAME", "pull_request")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_WORKSPACE", repo.path())
        .env("GITHUB_API_URL", server.uri())
        .env("INTEGRITY_GATE_TOKEN", TOKEN)
        .env("GITHUB_OUTPUT", out.path().join("output.txt"))
        .env("GITHUB_STEP_SUMMARY", out.path().join("summary.md"))
        .output()
        .unwrap();
    (output, out)
}

pub(crate) fn bodies(
    runtime: &tokio::runtime::Runtime,
    server: &MockServer,
) -> Vec<(String, String, Value)> {
    runtime
        .block_on(server.received_requests())
        .unwrap_or_default()
        .into_iter()
        .map(|request| {
            (
                request.method.to_string(),
                request.url.path().to_string(),
                serde_json::from_slice(&request.body).unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[test]
fn github_command_publishes_a_failing_check_run_on_the_pr_head() {
    let runtime = rt();
    let server = runtime.block_on(MockServer::start());
    let (repo, base, head) = pr_repo();
    runtime.block_on(
        Mock::given(method("GET"))
            .and(path(format!(
                "/repos/acme/widgets/commits/{head}/check-runs"
            )))
            .respond_with(ResponseTemplate::new(200).set_body_json(empty_list()))
            .mount(&server),
    );
    runtime.block_on(
        Mock::given(method("POST"))
            .and(path("/repos/acme/widgets/check-runs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(7, 1)))
            .expect(1)
            .mount(&server),
    );
    let (output, out) = run_github(&repo, &server, &base, &head);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let requests = bodies(&runtime, &server);
    let (_, _, create) = requests
        .iter()
        .find(|(method, path, _)| method == "POST" && path.ends_with("/check-runs"))
        .expect("a check run was created");
    assert_eq!(create["head_sha"], head.as_str());
    assert_eq!(create["name"], "integrity-gate");
    assert_eq!(create["conclusion"], "failure");
    let annotation = &create["output"]["annotations"][0];
    assert_eq!(annotation["path"], TEST_FILE);
    assert_eq!(annotation["start_line"], 4);
    assert_eq!(annotation["annotation_level"], "failure");
    let outputs = std::fs::read_to_string(out.path().join("output.txt")).unwrap();
    assert!(
        outputs.contains("conclusion<<") && outputs.contains("failure"),
        "{outputs}"
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["findings"][0]["rule"], "skipped-test");
    assert!(!stdout(&output).contains(TOKEN));
    assert!(
        !stdout(&output).contains("::error file="),
        "no duplicate annotations: {}",
        stdout(&output)
    );
}

#[test]
fn github_command_falls_back_when_the_token_cannot_write_checks() {
    let runtime = rt();
    let server = runtime.block_on(MockServer::start());
    let (repo, base, head) = pr_repo();
    runtime.block_on(
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200).set_body_json(empty_list()))
            .mount(&server),
    );
    runtime.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(403).set_body_json(serde_json::json!({
                "message": "Resource not accessible by integration"
            })))
            .mount(&server),
    );
    let (output, out) = run_github(&repo, &server, &base, &head);
    assert_eq!(output.status.code(), Some(1), "the verdict does not change");
    let text = stdout(&output);
    assert!(
        text.contains("::error file=tests/test_cart.py,line=4"),
        "{text}"
    );
    assert!(!text.contains(TOKEN), "{text}");
    let summary = std::fs::read_to_string(out.path().join("summary.md")).unwrap();
    assert!(summary.contains("skipped-test"), "{summary}");
    let sarif: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "skipped-test");
}

#[test]
fn github_command_outside_actions_exits_2() {
    let repo = Repo::new();
    let output = Command::new(binary())
        .arg("github")
        .current_dir(repo.path())
        .env_remove("GITHUB_EVENT_NAME")
        .env_remove("GITHUB_EVENT_PATH")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        // The hook finds the binary by its absolute path, not on PATH.
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .unwrap()
}

#[test]
fn the_installed_hook_blocks_a_cheating_push_and_allows_the_fix() {
    let remote = tempfile::tempdir().unwrap();
    assert!(
        git(remote.path(), &["init", "-q", "--bare", "-b", "main"])
            .status
            .success()
    );
    let repo = Repo::new();
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    repo.git(&["push", "-q", "origin", "main"]);

    let output = repo.run(&["hook", "install"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let hook = std::fs::read_to_string(repo.path().join(".git/hooks/pre-push")).unwrap();
    assert!(hook.contains("pre-push"), "{hook}");
    let output = repo.run(&["hook", "install"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "reinstalling our own hook is fine"
    );

    // A new branch that skips a test: blocked.
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped());
    repo.commit("skip the failing test");
    let push = git(repo.path(), &["push", "-q", "origin", "feature"]);
    assert!(!push.status.success(), "the push must be blocked");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&push.stdout),
        String::from_utf8_lossy(&push.stderr)
    );
    assert!(said.contains("skipped-test"), "{said}");
    assert!(
        !git(
            remote.path(),
            &["rev-parse", "--verify", "-q", "refs/heads/feature"]
        )
        .status
        .success()
    );

    // The fix: allowed.
    repo.write(TEST_FILE, BASE_TEST.replace("1 + 1 == 2", "2 == 1 + 1"));
    repo.commit("fix the code instead");
    let push = git(repo.path(), &["push", "-q", "origin", "feature"]);
    assert!(
        push.status.success(),
        "{}",
        String::from_utf8_lossy(&push.stderr)
    );

    // Deleting a branch needs no check.
    let push = git(
        repo.path(),
        &["push", "-q", "origin", "--delete", "feature"],
    );
    assert!(
        push.status.success(),
        "{}",
        String::from_utf8_lossy(&push.stderr)
    );
}

#[test]
fn hook_install_refuses_a_foreign_hook_without_force() {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.commit("a");
    let hook = repo.path().join(".git/hooks/pre-push");
    std::fs::write(&hook, "#!/bin/sh\necho mine\n").unwrap();
    let output = repo.run(&["hook", "install"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    let output = repo.run(&["hook", "install", "--force"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        repo.path()
            .join(".git/hooks/pre-push.integrity-gate-backup")
            .exists()
    );
}

#[test]
fn pre_commit_framework_range_comes_from_the_environment() {
    let (repo, base, head) = pr_repo();
    let output = Command::new(binary())
        .arg("pre-push")
        .current_dir(repo.path())
        .env("PRE_COMMIT_FROM_REF", &base)
        .env("PRE_COMMIT_TO_REF", &head)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(stdout(&output).contains("skipped-test"));
}

fn workflow_run_payload(head: &str) -> String {
    format!(
        r#"{{"action":"completed","workflow_run":{{"head_sha":"{head}","event":"pull_request","head_branch":"fix","head_repository":{{"full_name":"fork/widgets"}},"pull_requests":[]}},"repository":{{"name":"widgets","owner":{{"login":"acme"}},"default_branch":"main"}}}}"#
    )
}

/// A stand-in Checks API for acme/widgets that lists no check runs and accepts check-run
/// creations (`expected` of them, when given).
pub(crate) fn checks_api(
    runtime: &tokio::runtime::Runtime,
    expected_creates: impl Into<wiremock::Times>,
) -> MockServer {
    let server = runtime.block_on(MockServer::start());
    runtime.block_on(
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200).set_body_json(empty_list()))
            .mount(&server),
    );
    runtime.block_on(
        Mock::given(method("POST"))
            .and(path("/repos/acme/widgets/check-runs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(9, 1)))
            .expect(expected_creates)
            .mount(&server),
    );
    server
}

/// Runs the relay stage in `dir` (its checkout, if a repository) for the report at `report`.
pub(crate) fn run_relay(server: &MockServer, dir: &Path, head: &str, report: &Path) -> Output {
    let event = dir.join("workflow_run.json");
    std::fs::write(&event, workflow_run_payload(head)).unwrap();
    Command::new(binary())
        .args(["github", "--report"])
        .arg(report)
        .current_dir(dir)
        .env("GITHUB_EVENT_NAME", "workflow_run")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_API_URL", server.uri())
        .env("INTEGRITY_GATE_TOKEN", TOKEN)
        .env_remove("GITHUB_WORKSPACE")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap()
}

#[test]
fn fork_prs_two_stages_the_second_publishes_the_validated_report() {
    // Stage 1: the fork PR's read-only token cannot write checks; the report is saved.
    let runtime = rt();
    let first = runtime.block_on(MockServer::start());
    runtime.block_on(
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200).set_body_json(empty_list()))
            .mount(&first),
    );
    runtime.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(403))
            .mount(&first),
    );
    let (repo, base, head) = pr_repo();
    let (output, out) = run_github(&repo, &first, &base, &head);
    assert_eq!(output.status.code(), Some(1));
    let report = out.path().join("report.json");

    // Stage 2: workflow_run with a write token publishes it on the PR head.
    let second = checks_api(&runtime, 1);
    let output = run_relay(&second, out.path(), &head, &report);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let requests = bodies(&runtime, &second);
    let (_, _, create) = requests
        .iter()
        .find(|(method, _, _)| method == "POST")
        .expect("the check run was created");
    assert_eq!(create["head_sha"], head.as_str());
    assert_eq!(create["conclusion"], "failure");
    assert_eq!(create["output"]["annotations"][0]["path"], TEST_FILE);

    // A tampered report (a path outside the repository) is refused and nothing is posted.
    let text = std::fs::read_to_string(&report).unwrap();
    let tampered = out.path().join("tampered.json");
    std::fs::write(&tampered, text.replace(TEST_FILE, "../../outside.py")).unwrap();
    let third = runtime.block_on(MockServer::start());
    let output = run_relay(&third, out.path(), &head, &tampered);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("refused"));
    assert!(
        bodies(&runtime, &third)
            .iter()
            .all(|(method, _, _)| method != "POST")
    );

    // A report about another commit is refused too.
    let other = out.path().join("other.json");
    std::fs::write(&other, text.replace(&head, &base)).unwrap();
    let output = run_relay(&third, out.path(), &head, &other);
    assert_eq!(output.status.code(), Some(2));
}

//! The Checks API path against a stand-in GitHub server on 127.0.0.1 (wiremock), with the
//! client pointed at it through `GITHUB_API_URL`, asserting the exact requests.
//!
//! wiremock serves from its own thread, so the synchronous `publish` (which drives its own
//! current-thread runtime) is called directly; a separate small runtime only sets the mocks up
//! and reads the recorded requests back.

use std::collections::HashMap;

use serde_json::{Value, json};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use integrity_gate::github::checks::{
    self, Conclusion, OctocrabChecks, PublishError, PublishOptions,
};
use integrity_gate::github::event::{self, EventPlan};
use integrity_gate::github::model::Severity;
use integrity_gate::github::run::{self, Artifacts, GithubEnv, Surfaces};
use integrity_gate::github::summary;

use super::common::{fixture, head_report, report};

const TOKEN: &str = "ghs_testtoken0123456789";
const HEAD: &str = "c0ffee0000000000000000000000000000000042";

pub(crate) fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn plan() -> EventPlan {
    event::read("pull_request", &fixture("pull_request.json")).unwrap()
}

/// A check-run response with the fields octocrab's `CheckRun` model requires.
pub(super) fn check_run_json(id: u64, annotations: u64) -> Value {
    json!({
        "id": id,
        "node_id": "CR_kwDOtest",
        "head_sha": HEAD,
        "external_id": "",
        "url": format!("https://api.github.com/repos/acme/widgets/check-runs/{id}"),
        "html_url": format!("https://github.com/acme/widgets/runs/{id}"),
        "details_url": null,
        "status": "in_progress",
        "conclusion": null,
        "started_at": "2026-01-01T00:00:00Z",
        "completed_at": null,
        "name": "integrity-gate",
        "output": {
            "title": "t", "summary": "s", "text": null,
            "annotations_count": annotations,
            "annotations_url": format!("https://api.github.com/repos/acme/widgets/check-runs/{id}/annotations")
        },
        "check_suite": { "id": 5 },
        "app": { "id": 15368, "slug": "github-actions", "name": "GitHub Actions" },
        "pull_requests": []
    })
}

pub(super) fn empty_list() -> Value {
    json!({ "total_count": 0, "check_runs": [] })
}

/// Env as the action provides it, pointing at the stand-in server.
fn env_for(server: &MockServer, dir: &std::path::Path) -> GithubEnv {
    let vars: HashMap<&str, String> = HashMap::from([
        ("GITHUB_API_URL", server.uri()),
        ("INTEGRITY_GATE_TOKEN", TOKEN.to_string()),
        (
            "GITHUB_STEP_SUMMARY",
            dir.join("summary.md").display().to_string(),
        ),
        (
            "GITHUB_OUTPUT",
            dir.join("output.txt").display().to_string(),
        ),
    ]);
    GithubEnv::from_lookup(|k| vars.get(k).cloned())
}

fn client(server: &MockServer) -> OctocrabChecks {
    let vars: HashMap<&str, String> = HashMap::from([
        ("GITHUB_API_URL", server.uri()),
        ("GITHUB_TOKEN", TOKEN.to_string()),
    ]);
    let env = GithubEnv::from_lookup(|k| vars.get(k).cloned());
    env.client().unwrap().unwrap()
}

struct Seen {
    method: String,
    path: String,
    query: String,
    body: Value,
}

fn requests(rt: &tokio::runtime::Runtime, server: &MockServer) -> Vec<Seen> {
    rt.block_on(server.received_requests())
        .unwrap_or_default()
        .into_iter()
        .map(|r| Seen {
            method: r.method.to_string(),
            path: r.url.path().to_string(),
            query: r.url.query().unwrap_or_default().to_string(),
            body: serde_json::from_slice(&r.body).unwrap_or(Value::Null),
        })
        .collect()
}

fn mount_lookup(rt: &tokio::runtime::Runtime, server: &MockServer, response: Value) {
    mount_lookup_on(rt, server, HEAD, response);
}

fn mount_lookup_on(rt: &tokio::runtime::Runtime, server: &MockServer, sha: &str, response: Value) {
    rt.block_on(
        Mock::given(method("GET"))
            .and(path(format!(
                "/repos/acme/widgets/commits/{sha}/check-runs"
            )))
            .and(query_param("check_name", "integrity-gate"))
            .and(query_param("filter", "latest"))
            .respond_with(ResponseTemplate::new(200).set_body_json(response))
            .expect(1)
            .mount(server),
    );
}

#[test]
fn small_report_is_one_completed_create_on_the_head_sha() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/repos/acme/widgets/check-runs"))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(1001, 0)))
            .expect(1)
            .mount(&server),
    );
    let r = report(5);
    let md = summary::markdown(&r, Some(&plan()), summary::CHECK_OUTPUT_LIMIT);
    let out = checks::publish(
        &client(&server),
        &plan(),
        &r,
        &md,
        &PublishOptions::default(),
    )
    .unwrap();
    assert_eq!(out.check_run_id, 1001);
    assert_eq!(out.conclusion, Conclusion::Failure);
    assert!(!out.reused);

    let seen = requests(&rt, &server);
    assert_eq!(seen.len(), 2);
    let body = &seen[1].body;
    assert_eq!(body["name"], "integrity-gate");
    assert_eq!(body["head_sha"], HEAD);
    assert_eq!(body["status"], "completed");
    assert_eq!(body["conclusion"], "failure");
    let anns = body["output"]["annotations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(anns.len(), 5);
    assert_eq!(anns[0]["annotation_level"], "failure");
    assert_eq!(anns[0]["path"], "tests/test_000.py");
    assert_eq!(anns[0]["start_line"], 1);
    assert_eq!(anns[0]["end_line"], 2);
    assert_eq!(anns[0]["title"], "skipped-test");
    assert_eq!(anns[0]["raw_details"], "assert f(0) == 0");
    assert!(
        body["output"]["summary"]
            .as_str()
            .is_some_and(|s| s.contains("blocking"))
    );
}

#[test]
fn one_hundred_twenty_findings_are_sent_in_batches_of_fifty_with_the_output_resent() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/repos/acme/widgets/check-runs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(77, 0)))
            .expect(1)
            .mount(&server),
    );
    rt.block_on(
        Mock::given(method("PATCH"))
            .and(path("/repos/acme/widgets/check-runs/77"))
            .respond_with(ResponseTemplate::new(200).set_body_json(check_run_json(77, 50)))
            .expect(2)
            .mount(&server),
    );
    let r = head_report(120, Severity::Error);
    let md = summary::markdown(&r, Some(&plan()), summary::CHECK_OUTPUT_LIMIT);
    let out = checks::publish(
        &client(&server),
        &plan(),
        &r,
        &md,
        &PublishOptions::default(),
    )
    .unwrap();
    assert_eq!(out.annotated, 120);
    assert_eq!(out.requests, 4);

    let seen = requests(&rt, &server);
    let methods: Vec<&str> = seen.iter().map(|s| s.method.as_str()).collect();
    assert_eq!(methods, ["GET", "POST", "PATCH", "PATCH"]);
    assert_eq!(seen[1].path, "/repos/acme/widgets/check-runs");
    assert_eq!(seen[2].path, "/repos/acme/widgets/check-runs/77");
    assert_eq!(seen[3].path, "/repos/acme/widgets/check-runs/77");
    assert!(
        seen[0].query.contains("check_name=integrity-gate"),
        "{}",
        seen[0].query
    );
    let sizes: Vec<usize> = seen[1..]
        .iter()
        .map(|s| {
            s.body["output"]["annotations"]
                .as_array()
                .map_or(0, Vec::len)
        })
        .collect();
    assert_eq!(sizes, [50, 50, 20]);
    // Create is in progress on the head SHA; the conclusion comes with the last batch only.
    assert_eq!(seen[1].body["status"], "in_progress");
    assert_eq!(seen[1].body["head_sha"], HEAD);
    assert!(seen[1].body.get("conclusion").is_none());
    assert!(seen[2].body.get("conclusion").is_none());
    assert_eq!(seen[3].body["status"], "completed");
    assert_eq!(seen[3].body["conclusion"], "failure");
    // Every request carries the complete output, identical apart from the annotations.
    let first = &seen[1].body["output"];
    for s in &seen[1..] {
        for key in ["title", "summary", "text"] {
            assert!(
                s.body["output"][key]
                    .as_str()
                    .is_some_and(|v| !v.is_empty()),
                "{key} missing"
            );
            assert_eq!(s.body["output"][key], first[key]);
        }
    }
    // No annotation is sent twice and the most severe come first.
    let mut paths: Vec<String> = seen[1..]
        .iter()
        .flat_map(|s| {
            s.body["output"]["annotations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .map(|a| a["path"].as_str().unwrap_or_default().to_string())
        .collect();
    let n = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), n);
}

#[test]
fn annotation_cap_is_counted_in_the_summary() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/repos/acme/widgets/check-runs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(5, 0)))
            .mount(&server),
    );
    rt.block_on(
        Mock::given(method("PATCH"))
            .and(path("/repos/acme/widgets/check-runs/5"))
            .respond_with(ResponseTemplate::new(200).set_body_json(check_run_json(5, 0)))
            .mount(&server),
    );
    let r = head_report(130, Severity::Warning);
    let opts = PublishOptions {
        max_annotations: 100,
        neutral_on_findings: true,
        ..PublishOptions::default()
    };
    let out = checks::publish(&client(&server), &plan(), &r, "# s", &opts).unwrap();
    assert_eq!((out.annotated, out.not_annotated), (100, 30));
    let seen = requests(&rt, &server);
    assert_eq!(seen.len(), 3); // GET, POST(50), PATCH(50 + conclusion)
    assert_eq!(seen[2].body["conclusion"], "neutral");
    let summary = seen[1].body["output"]["summary"]
        .as_str()
        .unwrap_or_default();
    assert!(
        summary.contains("30 findings are not annotated"),
        "{summary}"
    );
    assert!(summary.contains("over the cap of 100"), "{summary}");
}

#[test]
fn rerun_updates_the_existing_run_instead_of_creating_one() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(
        &rt,
        &server,
        json!({ "total_count": 1, "check_runs": [check_run_json(4242, 0)] }),
    );
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(1, 0)))
            .expect(0)
            .mount(&server),
    );
    rt.block_on(
        Mock::given(method("PATCH"))
            .and(path("/repos/acme/widgets/check-runs/4242"))
            .respond_with(ResponseTemplate::new(200).set_body_json(check_run_json(4242, 3)))
            .expect(2)
            .mount(&server),
    );
    let r = head_report(60, Severity::Error);
    let out = checks::publish(
        &client(&server),
        &plan(),
        &r,
        "# s",
        &PublishOptions::default(),
    )
    .unwrap();
    assert!(out.reused);
    assert_eq!(out.check_run_id, 4242);
    let seen = requests(&rt, &server);
    assert_eq!(seen.len(), 3);
    assert!(seen[1].body.get("name").is_none() && seen[1].body.get("head_sha").is_none());
    assert!(
        seen[1].body.get("status").is_none(),
        "intermediate update leaves the status alone"
    );
    assert_eq!(seen[2].body["status"], "completed");
    assert_eq!(seen[2].body["conclusion"], "failure");
}

#[test]
fn forbidden_create_maps_to_forbidden() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(403).set_body_json(json!({
                "message": "Resource not accessible by integration",
                "documentation_url": "https://docs.github.com/rest/checks/runs#create-a-check-run"
            })))
            .expect(1)
            .mount(&server),
    );
    let r = report(3);
    let err = checks::publish(
        &client(&server),
        &plan(),
        &r,
        "# s",
        &PublishOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, PublishError::Forbidden { status: 403, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("checks: write"));
}

#[test]
fn not_found_lookup_maps_to_forbidden() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(method("GET"))
            .respond_with(
                ResponseTemplate::new(404).set_body_json(json!({ "message": "Not Found" })),
            )
            .mount(&server),
    );
    let err = checks::publish(
        &client(&server),
        &plan(),
        &report(1),
        "# s",
        &PublishOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, PublishError::Forbidden { status: 404, .. }),
        "{err}"
    );
    assert_eq!(
        requests(&rt, &server).len(),
        1,
        "no write is attempted after a 404 lookup"
    );
}

#[test]
fn enterprise_base_path_is_kept() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(method("GET"))
            .and(path(format!(
                "/api/v3/repos/acme/widgets/commits/{HEAD}/check-runs"
            )))
            .respond_with(ResponseTemplate::new(200).set_body_json(empty_list()))
            .expect(1)
            .mount(&server),
    );
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/api/v3/repos/acme/widgets/check-runs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(9, 0)))
            .expect(1)
            .mount(&server),
    );
    let api = OctocrabChecks::new(&format!("{}/api/v3/", server.uri()), TOKEN).unwrap();
    checks::publish(&api, &plan(), &report(2), "# s", &PublishOptions::default()).unwrap();
}

#[test]
fn forbidden_falls_back_to_workflow_commands_summary_and_sarif() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    // A read-only token can list check runs; only the write is refused.
    mount_lookup_on(
        &rt,
        &server,
        "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0",
        empty_list(),
    );
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(403).set_body_json(json!({
                // A message that echoes the token must not reach the log.
                "message": format!("Resource not accessible by integration ({TOKEN})")
            })))
            .mount(&server),
    );
    let dir = tempfile::tempdir().unwrap();
    let env = env_for(&server, dir.path());
    let fork_plan = event::read("pull_request", &fixture("pull_request_fork.json")).unwrap();
    let r = report(30);
    let sarif_path = dir.path().join("integrity-gate.sarif");
    let json_path = dir.path().join("integrity-gate.json");
    let api = env.client().unwrap().unwrap();
    let mut log = Vec::new();
    let delivery = run::deliver(
        &env,
        &fork_plan,
        &r,
        &Surfaces::default(),
        Artifacts {
            json: Some((&json_path, b"{\"version\":1}")),
            sarif: Some((&sarif_path, b"{\"version\":\"2.1.0\"}")),
        },
        Some(&api),
        &mut log,
    );
    let log = String::from_utf8(log).unwrap();
    // Verdict unchanged: blocking findings still conclude failure.
    assert_eq!(delivery.conclusion, Conclusion::Failure);
    assert!(delivery.used_fallback);
    assert!(delivery.check_run.is_none());
    assert_eq!(delivery.problems.len(), 1);
    assert!(!log.contains(TOKEN), "token leaked: {log}");
    assert!(log.contains("***"), "{log}");
    assert!(
        log.lines()
            .next()
            .is_some_and(|l| l.starts_with("::warning title=integrity-gate::")),
        "{log}"
    );
    assert!(log.contains("expected for pull requests from forks"));
    assert!(log.contains("HTTP 403"), "{log}");
    assert_eq!(
        log.lines().filter(|l| l.starts_with("::error ")).count(),
        10
    );
    // Removed tests have no head line: a file-less annotation naming the removed location.
    assert!(
        log.lines()
            .any(|l| l.starts_with("::error title=") && l.contains("(removed by this change)"))
    );
    assert!(
        log.lines()
            .any(|l| l.starts_with("::notice title=integrity-gate::")
                && l.contains("more finding(s)"))
    );
    // Step summary, SARIF, JSON and outputs written.
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(
        summary.contains("## ❌ integrity-gate: 10 blocking findings"),
        "{summary}"
    );
    assert!(summary.contains("### Removed by this change"));
    assert!(summary.contains("(from a fork)"));
    assert_eq!(
        std::fs::read(&sarif_path).unwrap(),
        b"{\"version\":\"2.1.0\"}"
    );
    let outputs = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    for (k, v) in [
        ("conclusion", "failure".to_string()),
        ("findings", "30".to_string()),
        ("blocking", "10".to_string()),
        ("sarif-file", sarif_path.display().to_string()),
        ("json-file", json_path.display().to_string()),
    ] {
        let pos = outputs
            .find(&format!("{k}<<"))
            .unwrap_or_else(|| panic!("{k} missing: {outputs}"));
        let value = outputs[pos..].lines().nth(1).unwrap_or_default();
        assert_eq!(value, v, "{k}");
    }
}

#[test]
fn successful_check_run_prints_no_duplicate_annotations() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201).set_body_json(check_run_json(3, 0)))
            .mount(&server),
    );
    let dir = tempfile::tempdir().unwrap();
    let env = env_for(&server, dir.path());
    let api = env.client().unwrap().unwrap();
    let mut log = Vec::new();
    let r = report(4);
    let delivery = run::deliver(
        &env,
        &plan(),
        &r,
        &Surfaces::default(),
        Artifacts::default(),
        Some(&api),
        &mut log,
    );
    assert!(delivery.check_run.is_some());
    assert!(!delivery.used_fallback);
    assert!(log.is_empty(), "{}", String::from_utf8_lossy(&log));
    // The job summary is written on success too.
    assert!(
        std::fs::read_to_string(dir.path().join("summary.md"))
            .unwrap()
            .contains("integrity-gate")
    );
}

#[test]
fn server_errors_are_retried_then_fall_back_without_changing_the_verdict() {
    let rt = rt();
    let server = rt.block_on(MockServer::start());
    mount_lookup(&rt, &server, empty_list());
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(502).set_body_string("bad gateway"))
            .expect(3) // first try + 2 retries
            .mount(&server),
    );
    let dir = tempfile::tempdir().unwrap();
    let env = env_for(&server, dir.path());
    let api = env.client().unwrap().unwrap();
    let mut log = Vec::new();
    let r = head_report(2, Severity::Warning);
    let delivery = run::deliver(
        &env,
        &plan(),
        &r,
        &Surfaces::default(),
        Artifacts::default(),
        Some(&api),
        &mut log,
    );
    assert_eq!(delivery.conclusion, Conclusion::Success);
    assert!(delivery.used_fallback);
    let log = String::from_utf8(log).unwrap();
    assert_eq!(
        log.lines()
            .filter(|l| l.starts_with("::warning file="))
            .count(),
        2,
        "{log}"
    );
}

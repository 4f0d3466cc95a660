//! The second stage of the fork-PR setup: a `workflow_run` job with a write token publishes
//! the check run for a report that the first stage (`pull_request`, read-only token) produced.
//!
//! The report arrives as an artifact from a workflow that ran on the fork's code, so it is
//! untrusted data: it is validated field by field (shape, sizes, rule ids, relative paths,
//! line numbers), every text is redacted again, and it may only describe the commit that the
//! `workflow_run` event names. Nothing in it is executed or interpolated into a command.
//! Nor is its verdict believed: [`apply_policy`] recomputes severities and the blocking count
//! from the findings under the policy the second stage reads itself.

use super::event::{EventError, EventKind, EventPlan, is_object_id};
use super::model::{Finding, Report, Severity, Side};
use crate::config::{Level, Policy};
use serde_json::Value;

/// Most findings a relayed report may carry (the check run caps annotations anyway).
pub const MAX_FINDINGS: usize = 5_000;
/// Longest message or snippet accepted, in bytes.
pub const MAX_TEXT: usize = 4_096;

/// Why a relayed report was refused (exit 2; nothing is published).
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// The event payload is not a usable `workflow_run`.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The report is not the contract's JSON or breaks a limit.
    #[error("the relayed report is refused: {0}")]
    Report(String),
}

/// Reads a `workflow_run` payload: the run must come from a `pull_request` workflow; the check
/// goes on that run's head commit in the base repository.
pub fn read_workflow_run(payload_json: &str) -> Result<EventPlan, EventError> {
    let payload: Value =
        serde_json::from_str(payload_json).map_err(|e| EventError::Json(e.to_string()))?;
    let missing = |field: &'static str| EventError::Missing {
        event: "workflow_run",
        field,
    };
    let run = payload.get("workflow_run").ok_or(missing("workflow_run"))?;
    let text = |value: &Value, field: &'static str| -> Result<String, EventError> {
        value.as_str().map(str::to_string).ok_or(missing(field))
    };
    let head_sha = text(
        run.get("head_sha").unwrap_or(&Value::Null),
        "workflow_run.head_sha",
    )?;
    if !is_object_id(&head_sha) {
        return Err(EventError::BadSha {
            field: "workflow_run.head_sha",
            // The event is untrusted: what it put here is quoted redacted, then cut.
            value: crate::secrets::shorten_redacted(&head_sha, 80, "…"),
        });
    }
    let trigger = run.get("event").and_then(Value::as_str).unwrap_or_default();
    if trigger != "pull_request" {
        return Err(EventError::Unsupported(format!(
            "workflow_run of a `{trigger}` workflow"
        )));
    }
    let repository = payload.get("repository").ok_or(missing("repository"))?;
    let owner = text(
        repository.pointer("/owner/login").unwrap_or(&Value::Null),
        "repository.owner.login",
    )?;
    let repo = text(
        repository.get("name").unwrap_or(&Value::Null),
        "repository.name",
    )?;
    let safe = |name: &str| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    if !safe(&owner) || !safe(&repo) {
        return Err(EventError::Json(format!(
            "unexpected repository name {owner:?}/{repo:?}"
        )));
    }
    let head_repository = run
        .pointer("/head_repository/full_name")
        .and_then(Value::as_str);
    let fork = head_repository.is_none_or(|full| full != format!("{owner}/{repo}"));
    Ok(EventPlan {
        kind: EventKind::WorkflowRun,
        base_sha: None,
        head_sha: head_sha.clone(),
        check_sha: head_sha,
        owner,
        repo,
        pr_number: run
            .pointer("/pull_requests/0/number")
            .and_then(Value::as_u64),
        fork,
        author_login: run
            .pointer("/actor/login")
            .and_then(Value::as_str)
            .map(str::to_string),
        author_type: run
            .pointer("/actor/type")
            .and_then(Value::as_str)
            .map(str::to_string),
        head_ref: run
            .get("head_branch")
            .and_then(Value::as_str)
            .map(str::to_string),
        base_ref: None,
        skip: None,
        agent: None,
        agent_source: None,
        default_branch: repository
            .get("default_branch")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// Validates a relayed JSON report (contract version 1) for the commit `expected_head`.
/// `known_rule` tells a rule id of this build from anything else.
pub fn read_report(
    json: &str,
    expected_head: &str,
    known_rule: impl Fn(&str) -> Option<&'static str>,
    redact: impl Fn(&str) -> String,
) -> Result<Report, RelayError> {
    let refuse = |why: String| RelayError::Report(why);
    if json.len() > MAX_FINDINGS * (2 * MAX_TEXT + 512) {
        return Err(refuse("larger than any report this gate writes".into()));
    }
    let value: Value = serde_json::from_str(json).map_err(|e| refuse(format!("not JSON: {e}")))?;
    if value.get("version").and_then(Value::as_u64) != Some(1) {
        return Err(refuse("`version` is not 1".into()));
    }
    let sha = |field: &str| -> Result<String, RelayError> {
        let text = value.get(field).and_then(Value::as_str).unwrap_or_default();
        if is_object_id(text) {
            Ok(text.to_ascii_lowercase())
        } else {
            Err(refuse(format!("`{field}` is not a commit id")))
        }
    };
    let base = sha("base")?;
    let head = sha("head")?;
    if !head.eq_ignore_ascii_case(expected_head) {
        return Err(refuse(format!(
            "it describes {head}, but the workflow run is for {expected_head}"
        )));
    }
    let items = value
        .get("findings")
        .and_then(Value::as_array)
        .ok_or_else(|| refuse("`findings` is not a list".into()))?;
    if items.len() > MAX_FINDINGS {
        return Err(refuse(format!("more than {MAX_FINDINGS} findings")));
    }
    let mut findings = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        findings.push(
            read_finding(item, &known_rule, &redact)
                .map_err(|why| refuse(format!("findings[{index}]: {why}")))?,
        );
    }
    let blocking = value
        .pointer("/summary/blocking")
        .and_then(Value::as_u64)
        .and_then(|count| usize::try_from(count).ok())
        .filter(|count| *count <= findings.len())
        .ok_or_else(|| {
            refuse("`summary.blocking` is missing or larger than the findings".into())
        })?;
    let files_scanned = value
        .pointer("/summary/files_scanned")
        .and_then(Value::as_u64)
        .and_then(|count| usize::try_from(count).ok())
        .unwrap_or_default();
    Ok(Report {
        base,
        head,
        findings,
        notes: Vec::new(),
        files_scanned,
        blocking,
        tests: None,
        policy: None,
    })
}

/// Makes the verdict the second stage's own: each finding's severity is raised to the level
/// the trusted `policy` sets for its rule (a relay may raise a severity, never lower it), and
/// the blocking count is recomputed under the policy's `fail-on`. The relayed summary is never
/// the verdict.
pub fn apply_policy(report: &mut Report, policy: &Policy) {
    for finding in &mut report.findings {
        if let Some(Level::On(severity)) = policy.rules.get(finding.rule) {
            finding.severity = finding.severity.max(*severity);
        }
    }
    report.blocking = report
        .findings
        .iter()
        .filter(|finding| policy.fail_on.blocks(finding.severity))
        .count();
}

fn read_finding(
    item: &Value,
    known_rule: &impl Fn(&str) -> Option<&'static str>,
    redact: &impl Fn(&str) -> String,
) -> Result<Finding, String> {
    let text = |field: &str| -> Result<&str, String> {
        let text = item
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{field}` is not a string"))?;
        if text.len() > MAX_TEXT {
            return Err(format!("`{field}` is longer than {MAX_TEXT} bytes"));
        }
        Ok(text)
    };
    let line = |field: &str| -> Result<u32, String> {
        item.get(field)
            .and_then(Value::as_u64)
            .and_then(|line| u32::try_from(line).ok())
            .filter(|line| (1..=10_000_000).contains(line))
            .ok_or_else(|| format!("`{field}` is not a line number"))
    };
    let rule_text = text("rule")?;
    let rule = known_rule(rule_text).ok_or_else(|| format!("unknown rule {rule_text:?}"))?;
    let severity = Severity::parse(text("severity")?).ok_or("bad `severity`")?;
    let side = match text("side")? {
        "head" => Side::Head,
        "base" => Side::Base,
        _ => return Err("bad `side`".into()),
    };
    let path = text("path")?;
    let path_ok = !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && !path.split('/').any(|part| part == ".." || part.is_empty())
        && !path.chars().any(char::is_control);
    if !path_ok {
        return Err(format!("`path` {path:?} is not a plain repository path"));
    }
    let (first, last) = (line("line")?, line("end_line")?);
    if last < first {
        return Err("`end_line` is before `line`".into());
    }
    Ok(Finding {
        rule,
        severity,
        path: crate::secrets::scanner().redact_path(path),
        line: first,
        end_line: last,
        side,
        message: redact(text("message")?),
        // Reports from before the field existed, or without it, were certain.
        confidence: match item.get("confidence").and_then(Value::as_str) {
            None | Some("certain") => crate::finding::Confidence::Certain,
            Some("likely") => crate::finding::Confidence::Likely,
            Some(_) => return Err("bad `confidence`".into()),
        },
        snippet: redact(text("snippet")?),
        fingerprint: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "c0ffee0000000000000000000000000000000042";

    fn known(rule: &str) -> Option<&'static str> {
        ["skipped-test", "leaked-secret"]
            .into_iter()
            .find(|known| *known == rule)
    }

    fn report_with(finding: &str) -> String {
        format!(
            r#"{{"version":1,"base":"ba5e000000000000000000000000000000000001","head":"{HEAD}","findings":[{finding}],"summary":{{"files_scanned":1,"findings":1,"blocking":1}}}}"#
        )
    }

    const GOOD: &str = r#"{"rule":"skipped-test","severity":"error","path":"tests/test_a.py","line":4,"end_line":4,"side":"head","message":"test `t` is now skipped","snippet":"@pytest.mark.skip"}"#;

    #[test]
    fn a_valid_report_is_read() {
        let report = read_report(&report_with(GOOD), HEAD, known, str::to_string).unwrap();
        assert_eq!(report.findings.len(), 1);
        assert_eq!(report.findings[0].rule, "skipped-test");
        assert_eq!(report.blocking, 1);
    }

    #[test]
    fn hostile_reports_are_refused() {
        let bad = [
            GOOD.replace("tests/test_a.py", "../../etc/passwd"),
            GOOD.replace("tests/test_a.py", "/abs/path"),
            GOOD.replace("tests/test_a.py", "a//b"),
            GOOD.replace("skipped-test", "rm -rf"),
            GOOD.replace("\"error\"", "\"fatal\""),
            GOOD.replace("\"line\":4", "\"line\":0"),
            GOOD.replace("\"end_line\":4", "\"end_line\":2"),
            GOOD.replace("\"head\",\"message", "\"middle\",\"message"),
            GOOD.replace("test `t` is now skipped", &"x".repeat(MAX_TEXT + 1)),
        ];
        for finding in bad {
            assert!(
                read_report(&report_with(&finding), HEAD, known, str::to_string).is_err(),
                "{finding}"
            );
        }
        let other_commit =
            report_with(GOOD).replace(HEAD, "1111111111111111111111111111111111111111");
        assert!(read_report(&other_commit, HEAD, known, str::to_string).is_err());
        assert!(read_report("not json", HEAD, known, str::to_string).is_err());
        let lying_summary = report_with(GOOD).replace("\"blocking\":1", "\"blocking\":7");
        assert!(read_report(&lying_summary, HEAD, known, str::to_string).is_err());
    }

    #[test]
    fn the_verdict_is_recomputed_under_the_trusted_policy() {
        let lowered = report_with(GOOD).replace("\"error\"", "\"note\"");
        let forged = lowered.replace("\"blocking\":1", "\"blocking\":0");
        let mut report = read_report(&forged, HEAD, known, str::to_string).unwrap();
        apply_policy(&mut report, &Policy::default());
        assert_eq!(report.blocking, 0, "a note does not block by default");
        let strict =
            crate::config::parse("rules:\n  skipped-test:\n    severity: error\n", "test").unwrap();
        apply_policy(&mut report, &strict);
        assert_eq!(report.findings[0].severity, Severity::Error);
        assert_eq!(report.blocking, 1);
        // Raising only: a policy that says `note` does not lower a relayed error.
        let mut report = read_report(&report_with(GOOD), HEAD, known, str::to_string).unwrap();
        report.blocking = 0;
        let lenient =
            crate::config::parse("rules:\n  skipped-test:\n    severity: note\n", "test").unwrap();
        apply_policy(&mut report, &lenient);
        assert_eq!(report.findings[0].severity, Severity::Error);
        assert_eq!(report.blocking, 1);
    }

    #[test]
    fn texts_are_redacted_again() {
        let report = read_report(&report_with(GOOD), HEAD, known, |text| {
            text.replace("skip", "***")
        })
        .unwrap();
        assert_eq!(report.findings[0].snippet, "@pytest.mark.***");
    }

    #[test]
    fn workflow_run_payloads() {
        let payload = format!(
            r#"{{"workflow_run":{{"head_sha":"{HEAD}","event":"pull_request","head_branch":"fix","head_repository":{{"full_name":"fork/widgets"}},"pull_requests":[{{"number":7}}]}},"repository":{{"name":"widgets","owner":{{"login":"acme"}}}}}}"#
        );
        let plan = read_workflow_run(&payload).unwrap();
        assert_eq!(plan.check_sha, HEAD);
        assert_eq!(
            (plan.owner.as_str(), plan.repo.as_str()),
            ("acme", "widgets")
        );
        assert!(plan.fork);
        assert_eq!(plan.pr_number, Some(7));
        assert!(read_workflow_run(&payload.replace("\"pull_request\"", "\"push\"")).is_err());
        assert!(read_workflow_run(&payload.replace(HEAD, "nope")).is_err());
        assert!(read_workflow_run(&payload.replace("\"widgets\",", "\"../x\",")).is_err());
    }
}

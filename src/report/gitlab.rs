//! GitLab Code Quality: the JSON array that `artifacts:reports:codequality` reads (a subset of
//! the Code Climate issue spec), one issue per finding.
//!
//! GitLab pairs the issues of the merge request's pipeline with those of the target branch by
//! `fingerprint` and drops repeats of one fingerprint, so each fingerprint is the finding's
//! line-free identity (rule, path, key) plus its occurrence among findings of that identity:
//! stable when lines move, distinct for two findings of one test. GitLab shows descriptions
//! and paths to people as they are, so their control characters (line breaks, bidi
//! overrides) are written as visible escapes, as in annotations.

use crate::engine::Report;
use crate::finding::{Finding, Severity, Side, stable_hash};
use crate::text::escape_controls;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Serialises `report` as a Code Quality report.
pub fn render(report: &Report) -> Vec<u8> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let issues: Vec<Value> = report
        .findings
        .iter()
        .map(|finding| {
            let identity = identity(finding);
            let occurrence = seen.entry(identity.clone()).or_default();
            *occurrence += 1;
            let fingerprint =
                stable_hash(&["integrity-gate/gitlab", &identity, &occurrence.to_string()]);
            issue(finding, fingerprint)
        })
        .collect();
    let mut bytes = serde_json::to_vec_pretty(&issues).unwrap_or_else(|_| b"[]".to_vec());
    bytes.push(b'\n');
    bytes
}

/// The finding's identity without line numbers; reports that were not built by the engine
/// (tests, relayed reports) may lack a fingerprint, and then the message stands in for the key.
fn identity(finding: &Finding) -> String {
    if finding.fingerprint.is_empty() {
        stable_hash(&[finding.rule, &finding.path, &finding.message])
    } else {
        finding.fingerprint.clone()
    }
}

fn issue(finding: &Finding, fingerprint: String) -> Value {
    let description = match finding.side {
        Side::Head => finding.shown_message().into_owned(),
        Side::Base => format!(
            "{} (base revision, line {})",
            finding.shown_message(),
            finding.line
        ),
    };
    json!({
        "type": "issue",
        "check_name": finding.rule,
        "description": escape_controls(&description),
        "categories": ["Bug Risk"],
        "severity": severity(finding.severity),
        "fingerprint": fingerprint,
        "location": {
            "path": escape_controls(&finding.path),
            "lines": { "begin": finding.line.max(1), "end": finding.end_line.max(finding.line).max(1) },
        },
    })
}

/// GitLab's scale is info, minor, major, critical, blocker; an error blocks the merge under
/// the default policy, so it is critical (blocker is left to tools that know more).
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "minor",
        Severity::Note => "info",
    }
}

#[cfg(test)]
mod tests {
    use super::super::sample;
    use super::*;

    #[test]
    fn golden() {
        sample::assert_golden("sample.gitlab.json", &render(&sample::report()));
    }

    #[test]
    fn fingerprints_are_unique_and_free_of_line_numbers() {
        let report = sample::report();
        let issues: Vec<Value> = serde_json::from_slice(&render(&report)).unwrap();
        let fingerprints: std::collections::BTreeSet<&str> = issues
            .iter()
            .filter_map(|issue| issue["fingerprint"].as_str())
            .collect();
        assert_eq!(fingerprints.len(), issues.len());

        let mut moved = report.clone();
        for finding in &mut moved.findings {
            finding.line += 7;
            finding.end_line += 7;
        }
        let moved: Vec<Value> = serde_json::from_slice(&render(&moved)).unwrap();
        for (before, after) in issues.iter().zip(&moved) {
            assert_eq!(before["fingerprint"], after["fingerprint"]);
            assert_ne!(before["location"], after["location"]);
        }
    }

    #[test]
    fn no_findings_is_an_empty_array() {
        let report = Report::default();
        assert_eq!(render(&report), b"[]\n");
    }
}

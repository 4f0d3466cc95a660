//! SARIF 2.1.0 as GitHub code scanning reads it: rules from the registry, results with
//! locations, and fingerprints free of line numbers (rule, path, key).

use crate::engine::Report;
use crate::finding::{Severity, Side};
use crate::rules::{ALL_RULES, Maturity};
use serde_json::{Value, json};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/integrity-gate/integrity-gate";

/// Serialises `report` as a SARIF log.
pub fn render(report: &Report) -> Vec<u8> {
    let rules: Vec<Value> = ALL_RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id,
                "name": rule.id,
                "shortDescription": { "text": rule.summary },
                "fullDescription": { "text": rule.summary },
                "help": { "text": rule.docs_markdown(), "markdown": rule.docs_markdown() },
                "helpUri": format!("{INFORMATION_URI}#{}", rule.id),
                "defaultConfiguration": { "level": level(rule.severity) },
                "properties": {
                    "planned": rule.maturity == Maturity::Planned,
                    "tags": ["integrity"],
                },
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|finding| {
            let rule_index = ALL_RULES
                .iter()
                .position(|rule| rule.id == finding.rule)
                .unwrap_or_default();
            json!({
                "ruleId": finding.rule,
                "ruleIndex": rule_index,
                "level": level(finding.severity),
                "message": { "text": match finding.side {
                    Side::Head => finding.shown_message().into_owned(),
                    Side::Base => format!("{} (base revision, line {})", finding.shown_message(), finding.line),
                }},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": finding.path },
                        "region": {
                            "startLine": finding.line,
                            "endLine": finding.end_line,
                            "snippet": { "text": finding.snippet },
                        },
                    },
                }],
                "partialFingerprints": { "integrityGate/v1": finding.fingerprint },
                "properties": {
                    "side": finding.side.as_str(),
                    "confidence": finding.confidence.as_str(),
                },
            })
        })
        .collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "integrity-gate",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }},
            "results": results,
            "properties": {
                "base": report.base,
                "head": report.head,
                "filesScanned": report.files_scanned,
                "blocking": report.blocking,
                "tests": report.tests,
            },
        }],
    });
    let mut bytes = serde_json::to_vec_pretty(&log).unwrap_or_else(|_| b"{}".to_vec());
    bytes.push(b'\n');
    bytes
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

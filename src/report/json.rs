//! The contract's JSON output, version 1 (extended with `notes`).

use crate::engine::Report;
use crate::finding::{Finding, Note};
use serde::Serialize;

#[derive(Serialize)]
struct Output<'r> {
    version: u32,
    base: &'r str,
    head: &'r str,
    findings: &'r [Finding],
    summary: Summary,
    /// Extension: where the policy came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'r crate::config::PolicyOrigin>,
    /// Extension: per-file conditions that limited the analysis.
    notes: &'r [Note],
}

#[derive(Serialize)]
struct Summary {
    files_scanned: usize,
    findings: usize,
    blocking: usize,
    /// Extension: the test inventory delta.
    #[serde(skip_serializing_if = "Option::is_none")]
    tests: Option<crate::engine::TestSummary>,
}

/// Serialises `report` as pretty JSON with a trailing newline.
pub fn render(report: &Report) -> Vec<u8> {
    let output = Output {
        version: 1,
        base: &report.base,
        head: &report.head,
        findings: &report.findings,
        summary: Summary {
            files_scanned: report.files_scanned,
            findings: report.findings.len(),
            blocking: report.blocking,
            tests: report.tests,
        },
        policy: report.policy.as_ref(),
        notes: &report.notes,
    };
    let mut bytes = serde_json::to_vec_pretty(&output).unwrap_or_else(|_| b"{}".to_vec());
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::super::sample;

    /// The contract's format: a change to this golden file is a change to the contract.
    #[test]
    fn golden() {
        sample::assert_golden("sample.json", &super::render(&sample::report()));
    }
}

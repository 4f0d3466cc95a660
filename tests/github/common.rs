//! Shared builders for the integration tests.

use std::path::Path;
use std::process::Command;

use integrity_gate::github::model::{Finding, Report, Severity, Side, TestSummary};

/// `n` findings cycling through severities and both sides (every 10th is base-side).
pub fn report(n: usize) -> Report {
    let findings: Vec<Finding> = (0..n)
        .map(|i| Finding {
            rule: ["skipped-test", "weakened-assertion", "disabled-check"][i % 3],
            severity: [Severity::Error, Severity::Warning, Severity::Note][i % 3],
            path: format!("tests/test_{i:03}.py"),
            line: i as u32 + 1,
            end_line: i as u32 + 2,
            side: if i % 10 == 9 { Side::Base } else { Side::Head },
            message: format!("finding number {i}"),
            snippet: format!("assert f({i}) == {i}"),
            fingerprint: String::new(),
            confidence: integrity_gate::finding::Confidence::Certain,
        })
        .collect();
    let blocking = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Report {
        base: "ba5e000000000000000000000000000000000001".into(),
        head: "c0ffee0000000000000000000000000000000042".into(),
        findings,
        files_scanned: n,
        notes: Vec::new(),
        blocking,
        tests: Some(TestSummary {
            base: 40,
            head: 38,
            added: 1,
            deleted: 3,
            skipped: 2,
        }),
        policy: None,
    }
}

/// Only head-side findings, all of one severity.
pub fn head_report(n: usize, severity: Severity) -> Report {
    let mut r = report(n);
    for f in &mut r.findings {
        f.side = Side::Head;
        f.severity = severity;
    }
    r.blocking = if severity == Severity::Error { n } else { 0 };
    r
}

pub fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/_github/events")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs git in `dir`, panicking with its stderr on failure; returns trimmed stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Commits `n` changes to `file` on the current branch.
pub fn commits(dir: &Path, file: &str, n: usize, tag: &str) {
    for i in 0..n {
        std::fs::write(dir.join(file), format!("{tag} {i}\n")).unwrap_or_else(|e| panic!("{e}"));
        git(dir, &["add", file]);
        git(dir, &["commit", "-q", "-m", &format!("{tag} {i}")]);
    }
}

//! The sample report every reporter's golden test renders: findings of several rules on both
//! sides, every severity, a `likely` one, a redacted token, text that is live in XML, JSON,
//! Markdown and terminals, two findings sharing one identity, and a note.
//!
//! Golden files live in `tests/golden/report/`; `INTEGRITY_GATE_BLESS=1 cargo test` rewrites
//! them (review the diff: a golden file is the format's contract).

use crate::config::PolicyOrigin;
use crate::engine::{Report, TestSummary};
use crate::finding::{Confidence, Finding, Note, Severity, Side, stable_hash};
use std::path::PathBuf;

/// A token shaped like a GitHub personal access token; only its redacted form is in the
/// sample, and no golden file may contain any of it past the redaction's prefix.
pub const TOKEN: &str = "ghp_SampleTokenForGoldenTests0123456789";

fn finding(
    rule: &'static str,
    severity: Severity,
    side: Side,
    (path, line): (&str, u32),
    key: &str,
    message: &str,
    snippet: &str,
) -> Finding {
    Finding {
        rule,
        severity,
        path: path.to_string(),
        line,
        end_line: line + snippet.lines().count().saturating_sub(1) as u32,
        side,
        message: message.to_string(),
        snippet: snippet.to_string(),
        confidence: Confidence::Certain,
        fingerprint: stable_hash(&[rule, path, key]),
    }
}

/// The shared sample: 3 blocking errors under the default `fail-on: error`.
pub fn report() -> Report {
    let redacted = crate::secrets::redact(TOKEN);
    let mut likely = finding(
        "disabled-check",
        Severity::Warning,
        Side::Head,
        ("src/a&b <x>.ts", 3),
        "ts-ignore:3",
        "a `// @ts-ignore` was added above \"parse<T>()\" & friends",
        "// @ts-ignore\nconst v = parse<T>(raw) // \u{1b}[31m`x`",
    );
    likely.confidence = Confidence::Likely;
    let mut findings = vec![
        finding(
            "leaked-secret",
            Severity::Error,
            Side::Head,
            ("deploy/settings.py", 2),
            "github-pat",
            &format!("a GitHub token `{redacted}` was added"),
            &format!("GITHUB_TOKEN = \"{redacted}\""),
        ),
        likely,
        finding(
            "new-dependency",
            Severity::Note,
            Side::Head,
            ("requirements.txt", 4),
            "requests",
            "dependency `requests` was added",
            "requests==2.32.0",
        ),
        finding(
            "deleted-test",
            Severity::Error,
            Side::Base,
            ("tests/test_parse.py", 10),
            "test_parse_rejects_empty",
            "test `test_parse_rejects_empty` was deleted",
            "def test_parse_rejects_empty():\n    with pytest.raises(ValueError):\n        parse(\"\")",
        ),
        finding(
            "skipped-test",
            Severity::Error,
            Side::Head,
            ("tests/test_parse.py", 20),
            "test_parse_unicode",
            "test `test_parse_unicode` is skipped by `@pytest.mark.skip`",
            "@pytest.mark.skip(reason=\"flaky\")\ndef test_parse_unicode():",
        ),
        // The same identity twice (a second skip of the same test on another line): formats
        // that need unique fingerprints must still tell them apart.
        finding(
            "skipped-test",
            Severity::Warning,
            Side::Head,
            ("tests/test_parse.py", 31),
            "test_parse_unicode",
            "test `test_parse_unicode` is skipped by `pytest.skip()`",
            "    pytest.skip()",
        ),
    ];
    // Reporters receive findings in output order.
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Report {
        base: "ba5e000000000000000000000000000000000001".to_string(),
        head: "c0ffee0000000000000000000000000000000042".to_string(),
        findings,
        notes: vec![Note {
            path: "assets/logo.png".to_string(),
            message: "binary file, not analysed".to_string(),
        }],
        files_scanned: 5,
        blocking: 3,
        tests: Some(TestSummary {
            base: 12,
            head: 11,
            added: 0,
            deleted: 1,
            skipped: 2,
        }),
        policy: Some(PolicyOrigin::commit(
            "ba5e000000000000000000000000000000000001",
            ".integrity-gate.yml",
        )),
    }
}

/// Compares `rendered` with `tests/golden/report/<name>`, or rewrites it when blessing. Also
/// checks the secret-redaction invariant on every golden output.
pub fn assert_golden(name: &str, rendered: &[u8]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/report")
        .join(name);
    let text = String::from_utf8_lossy(rendered);
    for window in TOKEN.as_bytes().windows(8) {
        let fragment = String::from_utf8_lossy(window);
        assert!(
            !text.contains(fragment.as_ref()),
            "{name} shows `{fragment}` of the token"
        );
    }
    if std::env::var_os("INTEGRITY_GATE_BLESS").is_some() {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let written = std::fs::write(&path, rendered);
        assert!(written.is_ok(), "{}: {written:?}", path.display());
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_default();
    assert!(
        expected == rendered,
        "{name} differs from {} (run `INTEGRITY_GATE_BLESS=1 cargo test` and review the diff):\n{text}",
        path.display()
    );
}

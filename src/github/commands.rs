//! GitHub Actions workflow commands (`::error file=…::message`) and log-injection hygiene.
//!
//! Workflow commands are the annotation surface that needs no token, so they are what fork
//! PRs get when the check run cannot be written. GitHub shows at most 10 error, 10 warning and
//! 10 notice annotations per step (50 per job), so findings go out most severe first and the
//! remainder is counted in one final notice. Everything placed in a command is escaped the way
//! the runner un-escapes it: a message containing a newline followed by `::set-output` or
//! `::add-mask` must stay one harmless line. Text that is printed raw (snippets from the PR in
//! the human report) should be wrapped with [`stop_commands`].

use super::model::{Finding, Report, Severity, Side};

/// GitHub's per-step limit for each annotation type.
pub const PER_TYPE_LIMIT: usize = 10;
/// GitHub's per-job limit for annotations made by workflow commands.
pub const PER_JOB_LIMIT: usize = 50;

// One escaping for every workflow command the gate writes (the `--format github` reporter
// and this sink).
pub use crate::report::{
    github_escape_data as escape_data, github_escape_property as escape_property,
};

fn command_name(sev: Severity) -> &'static str {
    match sev {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    }
}

/// One workflow-command line (with trailing newline) for a finding. Base-side findings (code
/// the change removed) have no line in the head tree, so they are file-less annotations whose
/// message names the removed location.
pub fn annotation_line(f: &Finding) -> String {
    let title = escape_property(&format!("integrity-gate: {}", f.rule));
    let path = normalise_path(&f.path);
    match f.side {
        Side::Head if !path.is_empty() && f.line > 0 => {
            let end = f.end_line.max(f.line);
            format!(
                "::{} file={},line={},endLine={},title={}::{}\n",
                command_name(f.severity),
                escape_property(&path),
                f.line,
                end,
                title,
                escape_data(&f.shown_message())
            )
        }
        _ => {
            let location = if f.line > 0 {
                format!("{path}:{}", f.line)
            } else {
                path
            };
            let what = if f.side == Side::Base {
                " (removed by this change)"
            } else {
                ""
            };
            format!(
                "::{} title={}::{}{}: {}\n",
                command_name(f.severity),
                title,
                escape_data(&location),
                what,
                escape_data(&f.shown_message())
            )
        }
    }
}

/// Workflow-command annotations for `report`, within GitHub's limits: at most `max` commands in
/// total (clamped to the 50-per-job limit), at most 10 per type, most severe first, and one
/// final notice counting what was left out.
pub fn annotations(report: &Report, max: usize) -> String {
    let max = max.min(PER_JOB_LIMIT);
    let mut sorted: Vec<&Finding> = report.findings.iter().collect();
    sorted.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.side.cmp(&b.side).reverse())
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.rule.cmp(b.rule))
    });
    let mut out = String::new();
    let mut per_type = [0usize; 3];
    let mut emitted = 0usize;
    // One slot of the notice budget and of the total is kept for the remainder notice.
    let total_budget = max.saturating_sub(1);
    for f in &sorted {
        let slot = match f.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Note => 2,
        };
        let type_budget = if slot == 2 {
            PER_TYPE_LIMIT - 1
        } else {
            PER_TYPE_LIMIT
        };
        if emitted >= total_budget || per_type[slot] >= type_budget {
            continue;
        }
        per_type[slot] += 1;
        emitted += 1;
        out.push_str(&annotation_line(f));
    }
    let rest = sorted.len() - emitted;
    if rest > 0 && max > 0 {
        out.push_str(&format!(
            "::notice title={}::{}\n",
            escape_property("integrity-gate"),
            escape_data(&format!(
                "{rest} more finding(s) not annotated (GitHub shows at most {PER_TYPE_LIMIT} per type and step); see the job summary and the SARIF/JSON files"
            ))
        ));
    }
    out
}

/// A `::warning::` line for a problem of the gate itself (reporting failed, fallback used).
pub fn warning(message: &str) -> String {
    format!("::warning title=integrity-gate::{}\n", escape_data(message))
}

/// Wraps text that may contain PR-controlled lines so the runner does not execute any
/// `::command::` inside it. The end token is random and not contained in `text`.
pub fn stop_commands(text: &str) -> String {
    let mut token = random_token();
    while text.contains(&token) {
        token = random_token();
    }
    let mut out = format!("::stop-commands::{token}\n{text}");
    if !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("::{token}::\n"));
    out
}

/// 128 bits from the process's randomly seeded hasher keys, as hex. Good enough for delimiters
/// that only need to be unguessable by the author of a PR; no extra dependency.
pub fn random_token() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut parts = [0u64; 2];
    for (i, part) in parts.iter_mut().enumerate() {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(nanos);
        h.write_usize(i);
        h.write_u32(std::process::id());
        *part = h.finish();
    }
    format!("{:016x}{:016x}", parts[0], parts[1])
}

fn normalise_path(p: &str) -> String {
    let p = p.replace('\\', "/");
    p.strip_prefix("./").unwrap_or(&p).to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn finding(sev: Severity, side: Side, path: &str, line: u32, msg: &str) -> Finding {
        Finding {
            rule: "skipped-test",
            severity: sev,
            path: path.to_string(),
            line,
            end_line: line,
            side,
            message: msg.to_string(),
            snippet: String::new(),
            fingerprint: String::new(),
            confidence: crate::finding::Confidence::Certain,
        }
    }

    fn report(findings: Vec<Finding>) -> Report {
        let blocking = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        Report {
            base: "b".into(),
            head: "h".into(),
            findings,
            files_scanned: 1,
            notes: Vec::new(),
            blocking,
            tests: None,
            policy: None,
        }
    }

    #[test]
    fn escaping_matches_the_toolkit() {
        assert_eq!(escape_data("a%b\r\nc"), "a%25b%0D%0Ac");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        // `%` first: an already-escaped sequence must not survive as an escape.
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn injected_commands_stay_on_one_line() {
        let evil = "ok\n::set-output name=conclusion::success\r\n::add-mask::x";
        let f = finding(Severity::Error, Side::Head, "a,b:c.py", 3, evil);
        let line = annotation_line(&f);
        assert_eq!(line.matches('\n').count(), 1, "{line}");
        assert!(
            line.starts_with("::error file=a%2Cb%3Ac.py,line=3,endLine=3,"),
            "{line}"
        );
        assert!(!line.contains("\n::set-output"));
    }

    #[test]
    fn base_side_findings_are_fileless_and_name_the_location() {
        let f = finding(
            Severity::Error,
            Side::Base,
            "tests/test_a.py",
            12,
            "test removed",
        );
        let line = annotation_line(&f);
        assert!(!line.contains("file="), "{line}");
        assert!(line.contains("tests/test_a.py:12 (removed by this change): test removed"));
    }

    #[test]
    fn limits_per_type_and_remainder_notice() {
        let mut fs = Vec::new();
        for i in 0..15 {
            fs.push(finding(Severity::Warning, Side::Head, "w.py", i + 1, "w"));
            fs.push(finding(Severity::Error, Side::Head, "e.py", i + 1, "e"));
            fs.push(finding(Severity::Note, Side::Head, "n.py", i + 1, "n"));
        }
        let out = annotations(&report(fs), 50);
        assert_eq!(
            out.lines().filter(|l| l.starts_with("::error ")).count(),
            10
        );
        assert_eq!(
            out.lines().filter(|l| l.starts_with("::warning ")).count(),
            10
        );
        let notices: Vec<&str> = out.lines().filter(|l| l.starts_with("::notice ")).collect();
        assert_eq!(notices.len(), 10);
        assert!(notices[9].contains("16 more finding(s)"), "{}", notices[9]);
        // Most severe first.
        assert!(
            out.lines()
                .next()
                .is_some_and(|l| l.starts_with("::error "))
        );
    }

    #[test]
    fn total_cap_is_respected() {
        let fs = (0..8)
            .map(|i| finding(Severity::Error, Side::Head, "e.py", i + 1, "e"))
            .collect();
        let out = annotations(&report(fs), 5);
        assert_eq!(out.lines().count(), 5);
        assert!(
            out.lines()
                .last()
                .is_some_and(|l| l.contains("4 more finding(s)"))
        );
        assert_eq!(annotations(&report(Vec::new()), 50), "");
    }

    #[test]
    fn zero_line_and_windows_paths_do_not_break_commands() {
        let f = finding(Severity::Warning, Side::Head, ".\\src\\a.rs", 0, "m");
        let line = annotation_line(&f);
        assert!(!line.contains("line=0"), "{line}");
        let g = finding(Severity::Warning, Side::Head, "./src/a.rs", 2, "m");
        assert!(annotation_line(&g).contains("file=src/a.rs,"));
    }

    #[test]
    fn stop_commands_wraps_with_a_fresh_token() {
        let text = "::error::pwned\nline";
        let wrapped = stop_commands(text);
        let first = wrapped.lines().next().unwrap_or_default();
        let token = first.trim_start_matches("::stop-commands::");
        assert_eq!(token.len(), 32);
        assert!(wrapped.ends_with(&format!("::{token}::\n")));
        assert_ne!(random_token(), random_token());
    }
}

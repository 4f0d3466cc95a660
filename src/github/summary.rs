//! The Markdown summary shown on the check run and in the job summary.
//!
//! Order of sections: verdict, a table per rule, the test inventory delta, the base-side
//! findings (deleted tests and removed assertions live on lines that no longer exist in head, so
//! annotations cannot show them: the summary is their only home), then the top findings. Text
//! from the PR (messages, paths, snippets) is escaped for Markdown tables and put in fences
//! longer than any backtick run it contains, so a snippet cannot close its fence and inject
//! Markdown. The result is cut at a line boundary below a byte limit (the Checks API refuses a
//! summary above 65,535 bytes), closing an open fence and saying where the rest is.

use std::collections::BTreeMap;

use super::event::EventPlan;
use super::model::{Finding, Report, Severity, Side};

/// The Checks API limit for `output.summary` and `output.text`. A byte budget also keeps the
/// UTF-16 count below the limit, since no character takes more UTF-16 units than UTF-8 bytes.
pub const CHECK_OUTPUT_LIMIT: usize = 65_535;

/// Knobs for [`markdown_with`].
#[derive(Clone, Debug)]
pub struct SummaryOptions {
    /// The policy's `agents:` section was applied to this change.
    pub agent_policy_applied: bool,
    /// How many head-side findings to show in full.
    pub top_findings: usize,
    /// How many base-side findings to show in full.
    pub base_findings: usize,
    /// Where the reader finds everything when the summary is cut.
    pub rest_hint: String,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            agent_policy_applied: false,
            top_findings: 25,
            base_findings: 25,
            rest_hint: "see the job log, the job summary and the JSON/SARIF outputs".to_string(),
        }
    }
}

/// The summary with default options, at most `limit_bytes` long.
pub fn markdown(report: &Report, plan: Option<&EventPlan>, limit_bytes: usize) -> String {
    markdown_with(report, plan, &SummaryOptions::default(), limit_bytes)
}

/// The summary, at most `limit_bytes` long.
pub fn markdown_with(
    report: &Report,
    plan: Option<&EventPlan>,
    opts: &SummaryOptions,
    limit_bytes: usize,
) -> String {
    let mut md = String::new();
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let (errors, warnings, notes) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note),
    );
    if report.blocking > 0 {
        md.push_str(&format!(
            "## ❌ integrity-gate: {} blocking finding{}\n\n",
            report.blocking,
            plural(report.blocking)
        ));
    } else if report.findings.is_empty() {
        md.push_str("## ✅ integrity-gate: no findings\n\n");
    } else {
        md.push_str("## ✅ integrity-gate: no blocking findings\n\n");
    }
    md.push_str(&format!(
        "{errors} error{}, {warnings} warning{}, {notes} note{} in {} file{} scanned; range `{}...{}`.\n",
        plural(errors),
        plural(warnings),
        plural(notes),
        report.files_scanned,
        plural(report.files_scanned),
        short(&report.base),
        short(&report.head),
    ));
    if let Some(origin) = &report.policy {
        md.push_str(&format!("Policy: {}.\n", inline(&origin.label())));
    }
    if let Some(plan) = plan {
        if let Some(n) = plan.pr_number {
            md.push_str(&format!("Pull request #{n}"));
            if plan.fork {
                md.push_str(" (from a fork)");
            }
            md.push_str(".\n");
        }
        if let Some(agent) = &plan.agent {
            md.push_str(&format!(
                "\n> **Agent-authored change:** {}.",
                inline(agent)
            ));
            if opts.agent_policy_applied {
                md.push_str(" The stricter `agents:` policy was applied.\n");
            } else {
                md.push_str(" No `agents:` policy is configured, so the normal policy applied.\n");
            }
        }
    }
    if !report.findings.is_empty() {
        md.push_str("\n### Findings by rule\n\n| Rule | Severity | Count |\n|---|---|---:|\n");
        let mut by_rule: BTreeMap<&str, (Severity, usize)> = BTreeMap::new();
        for f in &report.findings {
            let e = by_rule.entry(f.rule).or_insert((f.severity, 0));
            e.0 = e.0.max(f.severity);
            e.1 += 1;
        }
        let mut rows: Vec<_> = by_rule.into_iter().collect();
        rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(b.1.1.cmp(&a.1.1)).then(a.0.cmp(b.0)));
        for (rule, (sev, n)) in rows {
            md.push_str(&format!(
                "| `{}` | {} | {n} |\n",
                inline(rule),
                severity_word(sev)
            ));
        }
    }
    if let Some(t) = &report.tests {
        let delta = t.head as i64 - t.base as i64;
        md.push_str(&format!(
            "\n### Test inventory\n\n| Base | Head | Δ | Added | Deleted | Newly skipped |\n|---:|---:|---:|---:|---:|---:|\n| {} | {} | {}{} | {} | {} | {} |\n",
            t.base,
            t.head,
            if delta > 0 { "+" } else { "" },
            delta,
            t.added,
            t.deleted,
            t.skipped
        ));
    }
    let mut base_side: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.side == Side::Base)
        .collect();
    sort_severe_first(&mut base_side);
    if !base_side.is_empty() {
        md.push_str("\n### Removed by this change\n\nThese lines exist only in the base revision (deleted tests, removed assertions), so they cannot be annotated on the diff.\n\n");
        push_findings(&mut md, &base_side, opts.base_findings);
    }
    let mut head_side: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.side == Side::Head)
        .collect();
    sort_severe_first(&mut head_side);
    if !head_side.is_empty() {
        md.push_str("\n### Top findings\n\n");
        push_findings(&mut md, &head_side, opts.top_findings);
    }
    let note = format!("summary truncated to fit; {}", opts.rest_hint);
    truncate_markdown(&md, limit_bytes, &note)
}

fn push_findings(md: &mut String, findings: &[&Finding], max: usize) {
    for f in findings.iter().take(max) {
        let location = if f.line > 0 {
            if f.end_line > f.line {
                format!("{}:{}-{}", f.path, f.line, f.end_line)
            } else {
                format!("{}:{}", f.path, f.line)
            }
        } else {
            f.path.clone()
        };
        md.push_str(&format!(
            "- **{}** `{}` {}: {}\n",
            severity_word(f.severity),
            inline(f.rule),
            code_span(&location),
            inline(&f.shown_message())
        ));
        if !f.snippet.trim().is_empty() {
            let fence = fence_for(&f.snippet);
            md.push_str(&format!("\n  {fence}\n"));
            for line in f.snippet.lines().take(12) {
                // A CR would end the line for Markdown and, unindented, the list item with
                // its fence: the rest of the snippet would render as Markdown.
                md.push_str("  ");
                md.push_str(&crate::text::escape_controls_in_lines(line));
                md.push('\n');
            }
            md.push_str(&format!("  {fence}\n\n"));
        }
    }
    if findings.len() > max {
        md.push_str(&format!(
            "\n…and {} more (all of them are in the JSON/SARIF outputs).\n",
            findings.len() - max
        ));
    }
}

fn sort_severe_first(v: &mut [&Finding]) {
    v.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.rule.cmp(b.rule))
    });
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn short(sha: &str) -> &str {
    let mut end = sha.len().min(12);
    while !sha.is_char_boundary(end) {
        end -= 1;
    }
    &sha[..end]
}

/// Escapes text for one line of Markdown (including table cells) so that nothing in it is
/// live Markdown except the code spans it already holds. Messages quote the change inside
/// backticks, and a quoted name may itself contain backticks, so the text is read the way
/// CommonMark reads it: a backtick run closed by a run of the same length is a code span and
/// is re-emitted with a fence longer than anything inside ([`code_span`]); everything else is
/// plain text, where each Markdown-active character (`[`, `]`, `!`, `(`, `)`, `<`, `>`, `*`,
/// `_`, `~`, `&`, `$`, a stray backtick...) is backslash-escaped, and a word GitHub would turn
/// into a link or a notification (`https://…`, `www.…`, `@user`, `#12`, `GH-12`) is put in
/// a code span of its own. `|` is escaped everywhere, since GFM tables split cells even inside
/// code spans, and line breaks become spaces.
pub fn inline(s: &str) -> String {
    let chars: Vec<char> = crate::text::escape_controls(s).chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut plain = String::new();
    let mut index = 0;
    while index < chars.len() {
        if chars[index] == '`' {
            let run = chars[index..].iter().take_while(|c| **c == '`').count();
            if let Some(end) = closing_run(&chars, index + run, run) {
                push_plain(&mut out, &std::mem::take(&mut plain));
                let content: String = chars[index + run..end].iter().collect();
                push_code(&mut out, &content);
                index = end + run;
                continue;
            }
        }
        plain.push(chars[index]);
        index += 1;
    }
    push_plain(&mut out, &plain);
    out
}

/// Appends a code span for [`inline`]. Two spans that touched would make one longer backtick
/// run and be read differently, so a space keeps them apart.
fn push_code(out: &mut String, content: &str) {
    if out.ends_with('`') && !out.ends_with("\\`") {
        out.push(' ');
    }
    out.push_str(&code_span(content).replace('|', "\\|"));
}

/// Appends plain (non-code) text for [`inline`]: link-like words as code spans,
/// Markdown-active characters escaped.
fn push_plain(out: &mut String, text: &str) {
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if would_link(word) {
            push_code(out, word);
        } else {
            for c in word.chars() {
                if matches!(
                    c,
                    '\\' | '`'
                        | '*'
                        | '_'
                        | '['
                        | ']'
                        | '('
                        | ')'
                        | '!'
                        | '<'
                        | '>'
                        | '|'
                        | '~'
                        | '&'
                        | '$'
                        | '#'
                        | '@'
                ) {
                    out.push('\\');
                }
                out.push(c);
            }
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(&mut word, out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, out);
}

/// Words that GitHub renders as a link or a mention even without Markdown syntax: URLs and
/// `www.` autolinks, e-mail addresses and `@mentions`, issue references (`#12`, `GH-12`).
fn would_link(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    lower.contains("://")
        || lower.contains("www.")
        || lower.contains('@')
        || lower.contains('#')
        || lower
            .split("gh-")
            .skip(1)
            .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Where the code span opened by a backtick run of `len` ends: the start of the next run of
/// exactly `len` backticks from `from`, if any.
fn closing_run(chars: &[char], from: usize, len: usize) -> Option<usize> {
    let mut index = from;
    while index < chars.len() {
        if chars[index] == '`' {
            let run = chars[index..].iter().take_while(|c| **c == '`').count();
            if run == len {
                return Some(index);
            }
            index += run;
        } else {
            index += 1;
        }
    }
    None
}

/// A code span that survives backticks inside `s`.
pub fn code_span(s: &str) -> String {
    let s = crate::text::escape_controls(s);
    let ticks = "`".repeat(longest_backtick_run(&s) + 1);
    if s.starts_with('`') || s.ends_with('`') {
        format!("{ticks} {s} {ticks}")
    } else {
        format!("{ticks}{s}{ticks}")
    }
}

/// A fence longer than any backtick run in `s`, so `s` cannot close it.
fn fence_for(s: &str) -> String {
    "`".repeat((longest_backtick_run(s) + 1).max(3))
}

fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Cuts `md` at a line boundary so the result, including a closing fence (if a fence is open at
/// the cut) and a final note naming `rest_hint`, fits in `limit_bytes`. Text that already fits
/// is returned unchanged.
pub fn truncate_markdown(md: &str, limit_bytes: usize, rest_hint: &str) -> String {
    if md.len() <= limit_bytes {
        return md.to_string();
    }
    let note = format!("\n\n> ✂️ {}\n", inline(rest_hint));
    let budget = limit_bytes.saturating_sub(note.len());
    let mut out = String::new();
    let mut open_fence: Option<(String, usize)> = None; // (indent-less fence, its length)
    for line in md.split_inclusive('\n') {
        let trimmed = line.trim();
        let ticks = trimmed.chars().take_while(|c| *c == '`').count();
        let next_fence = match &open_fence {
            None if ticks >= 3 => Some((trimmed[..ticks].to_string(), ticks)),
            Some((_, open)) if ticks >= *open && trimmed.len() == ticks => None,
            other => other.clone(),
        };
        let closing_cost = next_fence.as_ref().map_or(0, |(f, _)| f.len() + 3);
        let line_len = line.len() + usize::from(!line.ends_with('\n'));
        if out.len() + line_len + closing_cost > budget {
            break;
        }
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
        open_fence = next_fence;
    }
    if let Some((fence, _)) = open_fence {
        out.push_str("  ");
        out.push_str(&fence);
        out.push('\n');
    }
    if out.len() + note.len() <= limit_bytes {
        out.push_str(&note);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::super::model::TestSummary;
    use super::*;

    fn f(
        rule: &'static str,
        sev: Severity,
        side: Side,
        path: &str,
        line: u32,
        snippet: &str,
    ) -> Finding {
        Finding {
            rule,
            severity: sev,
            path: path.into(),
            line,
            end_line: line,
            side,
            message: format!("{rule} at {path}"),
            snippet: snippet.into(),
            fingerprint: String::new(),
            confidence: crate::finding::Confidence::Certain,
        }
    }

    fn report(findings: Vec<Finding>, tests: Option<TestSummary>) -> Report {
        let blocking = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        Report {
            base: "a".repeat(40),
            head: "b".repeat(40),
            findings,
            files_scanned: 3,
            notes: Vec::new(),
            blocking,
            tests,
            policy: None,
        }
    }

    #[test]
    fn verdict_rule_table_tests_and_base_section() {
        let r = report(
            vec![
                f(
                    "deleted-test",
                    Severity::Error,
                    Side::Base,
                    "tests/test_a.py",
                    4,
                    "def test_a():\n    assert x == 1",
                ),
                f(
                    "skipped-test",
                    Severity::Error,
                    Side::Head,
                    "tests/test_b.py",
                    9,
                    "@pytest.mark.skip",
                ),
                f(
                    "disabled-check",
                    Severity::Warning,
                    Side::Head,
                    "src/x.ts",
                    2,
                    "// @ts-ignore",
                ),
            ],
            Some(TestSummary {
                base: 10,
                head: 9,
                added: 0,
                deleted: 1,
                skipped: 1,
            }),
        );
        let md = markdown(&r, None, CHECK_OUTPUT_LIMIT);
        assert!(
            md.starts_with("## ❌ integrity-gate: 2 blocking findings"),
            "{md}"
        );
        assert!(md.contains("| `deleted-test` | error | 1 |"));
        assert!(md.contains("| `disabled-check` | warning | 1 |"));
        assert!(md.contains("| 10 | 9 | -1 | 0 | 1 | 1 |"), "{md}");
        let removed = md.find("### Removed by this change").unwrap_or(usize::MAX);
        let top = md.find("### Top findings").unwrap_or(0);
        assert!(removed < top, "{md}");
        assert!(md.contains("assert x == 1"));
        // The base-side finding is not repeated among head findings.
        assert_eq!(md.matches("`tests/test_a.py:4`").count(), 1);
    }

    #[test]
    fn the_policy_source_is_named() {
        let mut r = report(Vec::new(), None);
        assert!(!markdown(&r, None, CHECK_OUTPUT_LIMIT).contains("Policy:"));
        let sha = "c".repeat(40);
        r.policy = Some(crate::config::PolicyOrigin::commit(
            &sha,
            ".integrity-gate.yml",
        ));
        let md = markdown(&r, None, CHECK_OUTPUT_LIMIT);
        assert!(
            md.contains("Policy: cccccccccccc:.integrity-gate.yml.\n"),
            "{md}"
        );
    }

    #[test]
    fn clean_report_says_so() {
        let md = markdown(&report(Vec::new(), None), None, CHECK_OUTPUT_LIMIT);
        assert!(md.starts_with("## ✅ integrity-gate: no findings"));
        assert!(!md.contains("Findings by rule"));
    }

    #[test]
    fn snippet_cannot_close_its_fence_and_text_cannot_break_tables() {
        let mut x = f(
            "todo-stub",
            Severity::Error,
            Side::Head,
            "a|b.py",
            1,
            "````\n# evil heading\n````",
        );
        x.message = "msg | with <img src=x> and\nnewline".into();
        let md = markdown(&report(vec![x], None), None, CHECK_OUTPUT_LIMIT);
        assert!(md.contains("`````\n"), "{md}");
        assert!(
            md.contains("msg \\| with \\<img src=x\\> and\\\\nnewline"),
            "{md}"
        );
    }

    #[test]
    fn inline_keeps_code_spans_literal_and_escapes_html_outside_them() {
        assert_eq!(
            inline("run `pytest -k \"not <slow>\"` on <b>"),
            "run `pytest -k \"not <slow>\"` on \\<b\\>"
        );
        // An unclosed backtick is literal: what follows is text, so it is escaped.
        assert_eq!(inline("a ` <img src=x>"), "a \\` \\<img src=x\\>");
        // A longer run is closed only by a run of the same length.
        assert_eq!(inline("``a ` <b>`` <i>"), "``a ` <b>`` \\<i\\>");
        // Cells split on `|` even inside code spans.
        assert_eq!(inline("`a | b` |"), "`a \\| b` \\|");
        // Line breaks and other controls are shown, never taken as Markdown line endings.
        assert_eq!(inline("x\n`y`\r"), "x\\\\n`y`\\\\r");
    }

    #[test]
    fn hostile_names_cannot_become_links_images_html_or_mentions() {
        // A test name that closes the rule's code span and opens an image and a link.
        let message = "test `a`![i](https://evil.example/x.png)`[l](http://e.example)` is skipped";
        assert_eq!(
            inline(message),
            "test `a` `![i](https://evil.example/x.png)` `[l](http://e.example)` is skipped"
        );
        assert_eq!(
            inline("see [a](b) and ![c](d) *e* _f_ ~g~ $h$ &amp;"),
            "see \\[a\\]\\(b\\) and \\!\\[c\\]\\(d\\) \\*e\\* \\_f\\_ \\~g\\~ \\$h\\$ \\&amp;"
        );
        assert_eq!(
            inline("ping @octocat at www.evil.example, #12 or GH-7"),
            "ping `@octocat` at `www.evil.example,` `#12` or `GH-7`"
        );
        // Backticks inside a quoted name get a longer fence, padded where they touch it.
        assert_eq!(inline("`` `x` ``"), "`` `x` ``");
        assert_eq!(code_span("`a``b"), "``` `a``b ```");
    }

    #[test]
    fn truncation_is_line_based_closes_fences_and_names_the_rest() {
        let findings = (0..1000)
            .map(|i| {
                f(
                    "skipped-test",
                    Severity::Error,
                    Side::Head,
                    &format!("t/{i}.py"),
                    i + 1,
                    &"x = 1\n".repeat(10),
                )
            })
            .collect();
        let r = report(findings, None);
        let opts = SummaryOptions {
            top_findings: 1000,
            ..SummaryOptions::default()
        };
        for limit in [2_000usize, 5_003, 65_535] {
            let md = markdown_with(&r, None, &opts, limit);
            assert!(md.len() <= limit, "{} > {limit}", md.len());
            assert!(md.contains("summary truncated"), "{limit}");
            let fences = md
                .lines()
                .filter(|l| l.trim_start().starts_with("```"))
                .count();
            assert_eq!(fences % 2, 0, "unbalanced fences at {limit}");
        }
    }

    #[test]
    fn truncate_handles_tiny_limits_and_multibyte_text() {
        let md = "é🙂\n".repeat(1000);
        for limit in [0usize, 1, 10, 100, 1000] {
            let out = truncate_markdown(&md, limit, "rest in log");
            assert!(out.len() <= limit, "{limit}");
        }
        assert_eq!(truncate_markdown("short", 100, "x"), "short");
    }

    #[test]
    fn agent_line_reports_whether_the_stricter_policy_applied() {
        let plan = EventPlan {
            kind: super::super::event::EventKind::PullRequest,
            base_sha: None,
            head_sha: "b".repeat(40),
            check_sha: "b".repeat(40),
            owner: "o".into(),
            repo: "r".into(),
            pr_number: Some(7),
            fork: true,
            author_login: Some("Copilot".into()),
            author_type: Some("Bot".into()),
            head_ref: None,
            base_ref: None,
            skip: None,
            agent: Some("PR author `Copilot` (type Bot)".into()),
            agent_source: Some(super::super::event::AgentSource::Author),
            default_branch: None,
        };
        let r = report(Vec::new(), None);
        let strict = SummaryOptions {
            agent_policy_applied: true,
            ..SummaryOptions::default()
        };
        let md = markdown_with(&r, Some(&plan), &strict, CHECK_OUTPUT_LIMIT);
        assert!(md.contains("Pull request #7 (from a fork)"));
        assert!(md.contains("stricter `agents:` policy was applied"), "{md}");
        let md = markdown(&r, Some(&plan), CHECK_OUTPUT_LIMIT);
        assert!(md.contains("normal policy applied"));
    }
}

//! JUnit XML, as Jenkins, GitLab, Azure Pipelines and Buildkite read test results: one test
//! suite, one test case per rule of the registry (so a clean run shows every check passed),
//! and in a rule's test case one `<failure>` per blocking finding. Findings that do not block
//! are listed in the test case's `<system-out>`, which fails nothing; notes go to the suite's.
//!
//! Readers that show only a test case's first failure still mark the rule failed; the full
//! list is also in `<system-out>`. Text from the change is escaped for XML, and characters
//! XML 1.0 cannot carry at all (most controls, even as references) are written as visible
//! escapes first.

use super::blocking_floor;
use crate::engine::Report;
use crate::finding::{Finding, Side};
use crate::rules::{ALL_RULES, Maturity};
use crate::text::{escape_controls, escape_controls_in_lines};
use std::fmt::Write;

/// Renders `report` as a JUnit XML document.
pub fn render(report: &Report) -> String {
    let floor = blocking_floor(report);
    let blocks = |finding: &Finding| floor.is_some_and(|floor| finding.severity >= floor);
    let mut cases = String::new();
    let mut failed_cases = 0;
    let mut skipped_cases = 0;
    for rule in ALL_RULES {
        let findings: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|finding| finding.rule == rule.id)
            .collect();
        let failures: Vec<&&Finding> = findings.iter().filter(|f| blocks(f)).collect();
        let mut body = String::new();
        if !failures.is_empty() {
            failed_cases += 1;
        }
        for finding in &failures {
            let _ = writeln!(
                body,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                finding.severity.as_str(),
                xml(&format!(
                    "{}: {}",
                    location(finding),
                    escape_controls(&finding.shown_message())
                )),
                xml(&escape_controls_in_lines(&finding.snippet)),
            );
        }
        if findings.is_empty() && rule.maturity == Maturity::Planned {
            skipped_cases += 1;
            body.push_str("      <skipped message=\"planned: not implemented yet\"/>\n");
        }
        if !findings.is_empty() {
            let listed: String = findings
                .iter()
                .map(|finding| {
                    format!(
                        "{} {}: {}\n",
                        finding.severity.as_str(),
                        location(finding),
                        finding.shown_message()
                    )
                })
                .collect();
            let _ = writeln!(
                body,
                "      <system-out>{}</system-out>",
                xml(&escape_controls_in_lines(&listed))
            );
        }
        let name = xml(rule.id);
        if body.is_empty() {
            let _ = writeln!(
                cases,
                "    <testcase classname=\"integrity-gate\" name=\"{name}\"/>"
            );
        } else {
            let _ = write!(
                cases,
                "    <testcase classname=\"integrity-gate\" name=\"{name}\">\n{body}    </testcase>\n"
            );
        }
    }
    let tests = ALL_RULES.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"integrity-gate\" tests=\"{tests}\" failures=\"{failed_cases}\" errors=\"0\" skipped=\"{skipped_cases}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"integrity-gate {}...{}\" tests=\"{tests}\" failures=\"{failed_cases}\" errors=\"0\" skipped=\"{skipped_cases}\">",
        xml(&report.base),
        xml(&report.head)
    );
    let _ = writeln!(
        out,
        "    <properties>\n      <property name=\"base\" value=\"{}\"/>\n      <property name=\"head\" value=\"{}\"/>\n      <property name=\"files-scanned\" value=\"{}\"/>\n      <property name=\"findings\" value=\"{}\"/>\n      <property name=\"blocking\" value=\"{}\"/>\n    </properties>",
        xml(&report.base),
        xml(&report.head),
        report.files_scanned,
        report.findings.len(),
        report.blocking
    );
    out.push_str(&cases);
    if !report.notes.is_empty() {
        let notes: String = report
            .notes
            .iter()
            .map(|note| format!("note {}: {}\n", note.path, note.message))
            .collect();
        let _ = writeln!(
            out,
            "    <system-out>{}</system-out>",
            xml(&escape_controls_in_lines(&notes))
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

fn location(finding: &Finding) -> String {
    let path = escape_controls(&finding.path);
    match finding.side {
        Side::Head => format!("{path}:{}", finding.line),
        Side::Base => format!("{path}:{} (base revision)", finding.line),
    }
}

/// Escapes text for XML content and attribute values. Line breaks and tabs survive (as
/// references inside attributes, where a parser would otherwise normalise them to spaces);
/// any other control left over is written as a visible escape, since XML 1.0 forbids it.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::sample;
    use super::*;

    #[test]
    fn golden() {
        sample::assert_golden("sample.junit.xml", render(&sample::report()).as_bytes());
    }

    #[test]
    fn one_case_per_rule_and_a_failure_per_blocking_finding() {
        let report = sample::report();
        let xml = render(&report);
        assert_eq!(xml.matches("<testcase ").count(), ALL_RULES.len());
        assert_eq!(xml.matches("<failure ").count(), report.blocking);
        // The warning-level skip is listed but fails nothing; the rule fails for its error.
        assert!(xml.contains("warning tests/test_parse.py:31:"), "{xml}");
        let failed = format!("failures=\"{}\"", 3);
        assert!(xml.contains(&failed), "{xml}");
    }

    #[test]
    fn nothing_fails_when_nothing_blocks() {
        let mut report = sample::report();
        report.blocking = 0;
        let xml = render(&report);
        assert!(!xml.contains("<failure"), "{xml}");
        assert!(xml.contains("failures=\"0\""));
    }

    #[test]
    fn text_cannot_break_the_document() {
        assert_eq!(
            xml("a<b>&\"c'\n\u{1b}\u{0}"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;\\u{1b}\\u{0}"
        );
    }
}

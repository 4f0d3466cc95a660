//! The human format: each finding with its source lines and a marker, like rustc or ruff, then
//! notes and a closing summary line. Colour only when asked (a terminal without NO_COLOR).
//!
//! Paths, messages and snippets come from the change, and this text also goes to the GitHub
//! Actions log: every control character in them is escaped ([`escape_controls`]), so a file
//! named `a\n::error::…` stays one line and cannot start a workflow command of its own.

use super::Style;
use crate::engine::Report;
use crate::finding::{Finding, Severity, Side};
use crate::text::{escape_controls, escape_controls_in_lines};
use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use std::fmt::Write;

/// Renders every finding, the notes, and a summary line.
pub fn render(report: &Report, style: Style) -> String {
    let renderer = if style.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for finding in &report.findings {
        out.push_str(&render_finding(&renderer, finding));
        out.push_str("\n\n");
    }
    for note in &report.notes {
        let _ = writeln!(
            out,
            "note: {}: {}",
            escape_controls(&note.path),
            escape_controls(&note.message)
        );
    }
    if !report.notes.is_empty() {
        out.push('\n');
    }
    out.push_str(&statistics(&report.findings));
    if let Some(tests) = report.tests {
        let _ = writeln!(
            out,
            "tests: {} → {}; {} deleted, {} newly skipped, {} added",
            tests.base, tests.head, tests.deleted, tests.skipped, tests.added
        );
    }
    let _ = writeln!(out, "{}", summary_line(report));
    out
}

fn render_finding(renderer: &Renderer, finding: &Finding) -> String {
    let level = match finding.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    let path = escape_controls(&finding.path);
    let path = match finding.side {
        Side::Head => path.into_owned(),
        Side::Base => format!("{path} (base revision)"),
    };
    let message = escape_controls(&finding.shown_message()).into_owned();
    let title = level.primary_title(message.as_str()).id(finding.rule);
    if finding.snippet.is_empty() {
        let group = title.element(Level::NOTE.message(format!("at {path}:{}", finding.line)));
        return renderer.render(&[group]);
    }
    let label = match finding.side {
        Side::Head => "",
        Side::Base => "removed by the change",
    };
    let source = escape_controls_in_lines(&finding.snippet);
    let snippet = Snippet::source(source.as_str())
        .line_start(finding.line as usize)
        .path(path)
        .fold(false)
        .annotation(AnnotationKind::Primary.span(0..source.len()).label(label));
    renderer.render(&[title.element(snippet)])
}

/// Findings per rule, most frequent first, like `ruff --statistics`: with many findings the
/// shape of the change shows at a glance.
fn statistics(findings: &[Finding]) -> String {
    let mut rows: Vec<(&str, [usize; 3])> = Vec::new();
    for finding in findings {
        let index = match rows.iter().position(|(rule, _)| *rule == finding.rule) {
            Some(index) => index,
            None => {
                rows.push((finding.rule, [0; 3]));
                rows.len() - 1
            }
        };
        rows[index].1[finding.severity as usize] += 1;
    }
    if rows.len() < 2 && findings.len() < 2 {
        return String::new();
    }
    rows.sort_by(|a, b| {
        let total = |counts: &[usize; 3]| counts.iter().sum::<usize>();
        total(&b.1).cmp(&total(&a.1)).then(a.0.cmp(b.0))
    });
    let mut out = String::new();
    for (rule, counts) in rows {
        let parts: Vec<String> = [Severity::Error, Severity::Warning, Severity::Note]
            .into_iter()
            .filter(|severity| counts[*severity as usize] > 0)
            .map(|severity| format!("{} {}", counts[severity as usize], severity.as_str()))
            .collect();
        let total: usize = counts.iter().sum();
        let _ = writeln!(out, "{total:>5}  {rule:<26} {}", parts.join(", "));
    }
    out.push('\n');
    out
}

/// `integrity-gate: 3 findings (2 blocking) in 5 changed files`
pub fn summary_line(report: &Report) -> String {
    let plural = |count: usize, word: &str| {
        if count == 1 {
            format!("{count} {word}")
        } else {
            format!("{count} {word}s")
        }
    };
    let short = |sha: &str| sha.chars().take(12).collect::<String>();
    let policy = report
        .policy
        .as_ref()
        .map(|origin| format!(", policy {}", origin.label()))
        .unwrap_or_default();
    format!(
        "integrity-gate: {} ({} blocking) in {} ({}..{}){policy}",
        plural(report.findings.len(), "finding"),
        report.blocking,
        plural(report.files_scanned, "changed file"),
        short(&report.base),
        short(&report.head),
    )
}

#[cfg(test)]
mod tests {
    use super::super::sample;

    #[test]
    fn golden() {
        let plain = super::render(&sample::report(), super::Style::default());
        sample::assert_golden("sample.human.txt", plain.as_bytes());
    }
}

//! GitHub workflow commands: one annotation per finding, escaped so that text taken from the
//! change cannot inject commands of its own.

use crate::engine::Report;
use crate::finding::{Severity, Side};
use crate::text::escape_controls;
use std::fmt::Write;

/// Escapes a command's message the way the runner un-escapes it (`%`, CR, LF become `%25`,
/// `%0D`, `%0A`), and writes every other control character as a visible escape, so text from
/// the change can neither end the command line nor colour, hide or reorder the log.
pub fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push_str(&escape_controls(c.encode_utf8(&mut [0; 4]))),
        }
    }
    out
}

/// Escapes a command property value: [`escape_data`] plus `:` and `,`, which end a property.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One command per finding, then a notice per note.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let command = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let title = escape_property(&format!("integrity-gate {}", finding.rule));
        let file = escape_property(&finding.path);
        // Base-side lines do not exist in head: annotate the file, and name the base line.
        let (location, message) = match finding.side {
            Side::Head => (
                format!(",line={},endLine={}", finding.line, finding.end_line),
                finding.shown_message().into_owned(),
            ),
            Side::Base => (
                String::new(),
                format!(
                    "{} (base revision, line {})",
                    finding.shown_message(),
                    finding.line
                ),
            ),
        };
        let _ = writeln!(
            out,
            "::{command} file={file}{location},title={title}::{}",
            escape_data(&message)
        );
    }
    for note in &report.notes {
        let _ = writeln!(
            out,
            "::notice file={},title=integrity-gate::{}",
            escape_property(&note.path),
            escape_data(&note.message)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden() {
        let report = super::super::sample::report();
        super::super::sample::assert_golden("sample.github.txt", render(&report).as_bytes());
    }

    #[test]
    fn escapes_data_and_properties() {
        assert_eq!(escape_data("a%b\r\nc"), "a%25b%0D%0Ac");
        assert_eq!(escape_property("a:b,c\n"), "a%3Ab%2Cc%0A");
        // A message cannot start a new command line.
        assert!(!escape_data("x\n::error::pwned").contains('\n'));
        // Other controls are shown, not passed on to the log.
        assert_eq!(escape_data("a\u{1b}[2K\u{2028}b"), "a\\u{1b}[2K\\u{2028}b");
        assert_eq!(escape_property("\u{85}:"), "\\u{85}%3A");
    }
}

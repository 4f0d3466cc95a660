//! The check run's Markdown summary as a file, for a pull-request or merge-request comment on
//! a forge the gate does not publish to itself. The same text, escaping and size limit as the
//! check run (see [`crate::github::summary`]): every comment API this is posted to takes it.
//!
//! Unlike the check run's summary, this text may land in a CI log (printed instead of
//! redirected), so a snippet line that would start with `::` gets a backslash after its
//! indentation: it stays inside its code block and is no workflow command.

use crate::engine::Report;
use crate::github::summary::{self, CHECK_OUTPUT_LIMIT, SummaryOptions};

/// The summary, cut at the Checks API limit (before the few backslashes [`defuse_commands`]
/// may add) with a pointer to the complete outputs.
pub fn render(report: &Report) -> String {
    let options = SummaryOptions {
        rest_hint: "run `integrity-gate diff --format json` for every finding".to_string(),
        ..SummaryOptions::default()
    };
    defuse_commands(&summary::markdown_with(
        report,
        None,
        &options,
        CHECK_OUTPUT_LIMIT,
    ))
}

fn defuse_commands(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for line in markdown.split_inclusive('\n') {
        let body = line.trim_start();
        if body.starts_with("::") {
            out.push_str(&line[..line.len() - body.len()]);
            out.push('\\');
            out.push_str(body);
        } else {
            out.push_str(line);
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
        sample::assert_golden("sample.md", render(&sample::report()).as_bytes());
    }

    #[test]
    fn a_snippet_cannot_become_a_workflow_command() {
        assert_eq!(
            defuse_commands("- x\n\n  ```\n  ::add-mask::x\n  ```\n::error::y"),
            "- x\n\n  ```\n  \\::add-mask::x\n  ```\n\\::error::y"
        );
    }

    #[test]
    fn is_the_check_run_summary() {
        let report = sample::report();
        let check_run = summary::markdown(&report, None, CHECK_OUTPUT_LIMIT);
        assert_eq!(render(&report), check_run);
    }
}

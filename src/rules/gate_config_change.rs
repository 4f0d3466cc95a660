//! `gate-config-change`: the change edits the gate's own policy, the workflow step that runs it,
//! or adds an inline suppression.

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use crate::changeset::Status;
use crate::finding::{Severity, Side};
use crate::suppress;
use std::collections::HashSet;

/// The policy file, at the repository root.
pub const POLICY_PATH: &str = ".integrity-gate.yml";

declare_rule! {
    /// ## What it flags
    /// - Any edit to `.integrity-gate.yml`: added, changed, renamed or deleted. The change is
    ///   judged by the base revision's policy, so the edit does not apply to itself; it is
    ///   reported so that a human approves it.
    /// - An inline suppression comment (`integrity-gate: allow <rule> -- <reason>`) that does
    ///   not stand where it stood in base: added by the change, copied from elsewhere in the
    ///   file (each copy is new), or left in place while new code slid under it. It does not
    ///   silence anything in this change; without a reason it is an error.
    /// - A removed or edited line mentioning `integrity-gate` in a GitHub workflow, such as the
    ///   step that runs the gate (warning).
    /// ## Why it matters
    /// A gate that the code under review can configure is no gate: an agent that cannot make a
    /// check pass can try to switch the check off instead.
    /// ## Example
    /// Fires: a change that adds `rules: { skipped-test: { severity: off } }` to
    /// `.integrity-gate.yml`, or that adds `# integrity-gate: allow skipped-test` above a skip.
    /// ## Not flagged
    /// - Suppressions that stood in base above the same line (unchanged or edited), also in a
    ///   renamed file.
    /// - Text that mentions the suppression syntax outside a comment (docs, strings).
    /// ## Configuration
    /// `rules.gate-config-change.severity` in `.integrity-gate.yml` (which itself is read from base).
    pub static GATE_CONFIG_CHANGE = {
        id: "gate-config-change",
        severity: Error,
        engine: FileSet,
        languages: [],
        summary: "the change edits the gate's policy or workflow step, or adds a suppression",
        maturity: Stable,
        check: Some(check),
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let touches_policy = [&pair.old_path, &pair.new_path]
        .into_iter()
        .any(|path| path.as_deref() == Some(POLICY_PATH));
    if touches_policy {
        policy_edit(context, out);
    }
    new_suppressions(context, out);
    if is_workflow(pair.path()) {
        workflow_edit(context, out);
    }
}

fn policy_edit(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let (side, line, what) = match pair.status {
        Status::Added => (Side::Head, 1, "adds the gate's policy file"),
        Status::Deleted => (Side::Base, 1, "deletes the gate's policy file"),
        Status::Renamed if pair.new_path.as_deref() != Some(POLICY_PATH) => (
            Side::Head,
            1,
            "moves the gate's policy file away, which disables it",
        ),
        _ => (
            Side::Head,
            pair.added.iter().next().unwrap_or(1),
            "edits the gate's policy file",
        ),
    };
    out.candidates.push(Candidate {
        side,
        line,
        end_line: line,
        severity: Severity::Error,
        message: format!(
            "the change {what}; the policy is read from base, so this edit takes effect only after a human merges it"
        ),
        key: format!("policy:{what}"),
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    });
}

fn new_suppressions(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let unchanged = pair.added.is_empty() && pair.removed.is_empty();
    if unchanged || !head.text.contains("integrity-gate:") {
        return;
    }
    let placement = suppress::Placement::new(pair);
    for (index, line) in head.text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let Some(suppression) = suppress::parse_line(line) else {
            continue;
        };
        // Counted by place, not by text: a copy of a base suppression, or a base suppression
        // that new code slid under, is new.
        if placement
            .as_ref()
            .is_some_and(|placement| placement.stood_in_base(number))
        {
            continue;
        }
        let rules = suppression.rules.join(", ");
        let (severity, message) = match &suppression.reason {
            None => (
                Severity::Error,
                format!("new suppression of `{rules}` without a reason (`-- <reason>`)"),
            ),
            Some(_) if !context.is_added_line(number) => (
                Severity::Warning,
                format!(
                    "the suppression of `{rules}` now stands above other code than in base; suppressions count only where they stood in base, so a human must approve it"
                ),
            ),
            Some(_) => (
                Severity::Warning,
                format!(
                    "new suppression of `{rules}`: suppressions count only once they exist in base, so a human must approve it"
                ),
            ),
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: number,
            end_line: number,
            severity,
            message,
            key: format!("suppression:{}", line.trim()),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

fn is_workflow(path: &str) -> bool {
    path.starts_with(".github/workflows/") && (path.ends_with(".yml") || path.ends_with(".yaml"))
}

fn workflow_edit(context: &FileContext<'_>, out: &mut Output) {
    let Some(base) = context.side(Side::Base) else {
        return;
    };
    let head_lines: HashSet<&str> = context
        .side(Side::Head)
        .map(|head| head.text.lines().map(str::trim).collect())
        .unwrap_or_default();
    let removed = base.text.lines().enumerate().find(|(index, line)| {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        context.pair.removed.contains(number)
            && line.contains("integrity-gate")
            && !head_lines.contains(line.trim())
    });
    if let Some((index, line)) = removed {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        out.candidates.push(Candidate {
            side: Side::Base,
            line: number,
            end_line: number,
            severity: Severity::Warning,
            message: format!(
                "the change removes or edits the workflow line that runs the gate: `{}`",
                super::markers::shorten(line.trim(), 80)
            ),
            key: "workflow".to_string(),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

//! Rust: `let _ = expr;`, `expr.ok();` (`.is_ok();`, `.is_err();`), an empty
//! `if let Err(_) = expr {}` and `unwrap_or*` are everyday Rust, so they are reported
//! only where base propagated the same expression in the same function (`expr?`,
//! `expr.unwrap()`, `expr.expect(..)`) and head no longer does: the error that used to stop
//! the function (or the test) is now dropped. That is the strongest evidence, so an error.

use super::normalize;
use crate::finding::{Severity, Side};
use crate::query::QueryMatch;
use crate::rules::{Candidate, FileContext, Output};
use std::collections::HashMap;

/// `(scope, normalized expression, how)` → how often the side propagates it that way.
type Propagations = HashMap<(String, String, &'static str), usize>;

/// Every way of propagating: `?`, `.unwrap()`, `.expect()`.
pub const ANY: &[&str] = &[QUESTION_MARK, "`.unwrap()`", "`.expect()`"];
/// `?` only: `unwrap_or*` is reported only where it replaces a `?`.
pub const QUESTION_MARK: &str = "`?`";

fn propagations(matches: &[QueryMatch], text: &str) -> Propagations {
    let mut out: Propagations = HashMap::new();
    for found in matches
        .iter()
        .filter(|found| found.property("kind") == Some("propagate"))
    {
        let Some(expression) = found.capture("condition") else {
            continue;
        };
        let node_text = text.get(found.byte_range.clone()).unwrap_or_default();
        let how = if node_text.trim_end().ends_with('?') {
            QUESTION_MARK
        } else if node_text.contains(".expect(") {
            "`.expect()`"
        } else {
            "`.unwrap()`"
        };
        *out.entry((found.key.clone(), normalize(expression), how))
            .or_default() += 1;
    }
    out
}

/// Propagations on both sides of a file, computed once per check.
pub struct Compared {
    base: Propagations,
    head: Propagations,
}

impl Compared {
    /// Both sides' propagations; `None` for added or deleted files.
    pub fn new(context: &FileContext<'_>) -> Option<Compared> {
        let base_text = context.side(Side::Base)?.text;
        let head_text = context.side(Side::Head)?.text;
        Some(Compared {
            base: propagations(&context.matches(Side::Base, "empty-catch"), base_text),
            head: propagations(&context.matches(Side::Head, "empty-catch"), head_text),
        })
    }

    /// How base propagated `expression` in `scope` (one of `ways`), when head propagates it
    /// that way fewer times.
    pub fn dropped(
        &self,
        scope: &str,
        expression: &str,
        ways: &[&'static str],
    ) -> Option<&'static str> {
        let expression = normalize(expression);
        ways.iter().copied().find(|how| {
            let id = (scope.to_string(), expression.clone(), *how);
            self.base.get(&id).copied().unwrap_or(0) > self.head.get(&id).copied().unwrap_or(0)
        })
    }
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(head_text) = context.side(Side::Head).map(|side| side.text) else {
        return;
    };
    let head = context.matches(Side::Head, "empty-catch");
    let discards = |found: &&QueryMatch| {
        matches!(
            found.property("kind"),
            Some("let-underscore" | "ok-statement" | "unwrap-or" | "empty-if-let-err")
        ) && context.pair.added.overlaps(found.line, found.end_line)
    };
    if !head.iter().any(|found| discards(&found)) {
        return;
    }
    let Some(compared) = Compared::new(context) else {
        return;
    };
    for found in head.iter() {
        let what = match found.property("kind") {
            Some("let-underscore") => "`let _ =` discards",
            Some("ok-statement") => "`.ok();` discards",
            Some("empty-if-let-err") => "an empty `if let Err(..) = .. {}` discards",
            Some("unwrap-or") => "a default value hides",
            _ => continue,
        };
        if !context.pair.added.overlaps(found.line, found.end_line) {
            continue;
        }
        let Some(expression) = found.capture("condition") else {
            continue;
        };
        let ways = if found.property("kind") == Some("unwrap-or") {
            &[QUESTION_MARK][..]
        } else {
            ANY
        };
        let Some(how) = compared.dropped(&found.key, expression, ways) else {
            continue;
        };
        let shown = crate::rules::markers::shorten(&normalize_spaces(expression), 60);
        let method = head_text
            .get(found.byte_range.clone())
            .and_then(|node| node.rsplit_once('.'))
            .map(|(_, method)| method.split('(').next().unwrap_or(method))
            .unwrap_or_default();
        let what = if found.property("kind") == Some("unwrap-or") {
            format!("`{method}()` hides")
        } else if found.property("kind") == Some("ok-statement") {
            format!("`.{method}();` discards")
        } else {
            what.to_string()
        };
        // An explanatory comment added right above softens it, as for empty handlers.
        let explained = found.line > 1
            && context.is_added_line(found.line - 1)
            && head_text
                .lines()
                .nth(found.line as usize - 2)
                .is_some_and(|line| line.trim_start().starts_with("//"));
        let (severity, note) = if explained {
            (Severity::Warning, " (a comment explains it)")
        } else {
            (Severity::Error, "")
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: found.line,
            end_line: found.end_line,
            severity,
            message: format!(
                "{what} the error of `{shown}`, which base propagated with {how}{note}"
            ),
            key: format!("{}:{}", found.key, normalize(expression)),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

fn normalize_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

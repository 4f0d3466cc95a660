//! Rust: `let _ = expr;`, `expr.ok();` and `unwrap_or*` are everyday Rust, so they are reported
//! only where base propagated the same expression in the same function (`expr?`,
//! `expr.unwrap()`, `expr.expect(..)`) and head no longer does: the error that used to stop
//! the function (or the test) is now dropped. That is the strongest evidence, so an error.

use super::normalize;
use crate::finding::{Severity, Side};
use crate::query::QueryMatch;
use crate::rules::{Candidate, FileContext, Output};
use std::collections::HashMap;

/// `(scope, normalized expression)` → how base propagated it, and how often.
type Propagations = HashMap<(String, String), (usize, &'static str)>;

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
            "`?`"
        } else if node_text.contains(".expect(") {
            "`.expect()`"
        } else {
            "`.unwrap()`"
        };
        let entry = out
            .entry((found.key.clone(), normalize(expression)))
            .or_insert((0, how));
        entry.0 += 1;
    }
    out
}

/// How base propagated `expression` in `scope`, when head propagates it fewer times.
pub fn dropped_propagation(
    context: &FileContext<'_>,
    scope: &str,
    expression: &str,
) -> Option<&'static str> {
    let base_text = context.side(Side::Base)?.text;
    let head_text = context.side(Side::Head)?.text;
    let base = propagations(&context.matches(Side::Base, "empty-catch"), base_text);
    let head = propagations(&context.matches(Side::Head, "empty-catch"), head_text);
    let id = (scope.to_string(), normalize(expression));
    let (base_count, how) = *base.get(&id)?;
    let head_count = head.get(&id).map_or(0, |(count, _)| *count);
    (base_count > head_count).then_some(how)
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(head_text) = context.side(Side::Head).map(|side| side.text) else {
        return;
    };
    if context.side(Side::Base).is_none() {
        return;
    }
    let head = context.matches(Side::Head, "empty-catch");
    for found in head.iter() {
        let what = match found.property("kind") {
            Some("let-underscore") => "`let _ =` discards",
            Some("ok-statement") => "`.ok();` discards",
            Some("unwrap-or") => "a default value hides",
            _ => continue,
        };
        if !context.pair.added.overlaps(found.line, found.end_line) {
            continue;
        }
        let Some(expression) = found.capture("condition") else {
            continue;
        };
        let Some(how) = dropped_propagation(context, &found.key, expression) else {
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
        } else {
            what.to_string()
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: found.line,
            end_line: found.end_line,
            severity: Severity::Error,
            message: format!("{what} the error of `{shown}`, which base propagated with {how}"),
            key: format!("{}:{}", found.key, normalize(expression)),
            moved: None,
        });
    }
}

fn normalize_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

//! Shared judgement for rules about test markers (skips and focus): picking one match per
//! node, evaluating conditions, the test inventory, and describing the marker in messages.

use super::condition::{Truth, evaluate};
use super::context::{Fact, FileContext};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::query::QueryMatch;
use std::collections::{HashMap, HashSet};

/// Key used for markers that apply to a whole file (`pytestmark`, `#![cfg(..)]`).
pub const MODULE_KEY: &str = "<module>";

/// A marker match with its strength decided.
pub struct Judged<'m> {
    /// The query match.
    pub found: &'m QueryMatch,
    /// Error for a certain effect, warning for one that depends on a runtime condition.
    pub severity: Severity,
    /// `Some(text)` when a runtime condition decides the effect.
    pub runtime_condition: Option<String>,
    /// `Some(text)` when the condition is constant and causes the effect.
    pub constant_condition: Option<String>,
    /// `Some(text)` when the condition holds exactly on CI (`skipIf(process.env.CI)`): the
    /// effect is certain where the gate runs.
    pub ci_condition: Option<String>,
}

/// One match per reported node: several patterns can match the same call (`.skip` with and
/// without a condition); the one that carries a usable condition wins, else the first.
pub fn dedupe(matches: &[QueryMatch]) -> Vec<&QueryMatch> {
    let mut by_range: HashMap<(usize, usize), &QueryMatch> = HashMap::new();
    let mut order = Vec::new();
    for found in matches {
        let range = (found.byte_range.start, found.byte_range.end);
        match by_range.get(&range) {
            None => {
                order.push(range);
                by_range.insert(range, found);
            }
            Some(existing) if usable_condition(existing).is_none() => {
                if usable_condition(found).is_some() {
                    by_range.insert(range, found);
                }
            }
            Some(_) => {}
        }
    }
    order
        .into_iter()
        .filter_map(|range| by_range.get(&range).copied())
        .collect()
}

/// The condition text, unless it is a keyword argument (`reason="..."`), which means the
/// marker has no positional condition at all.
fn usable_condition(found: &QueryMatch) -> Option<&str> {
    let condition = found.capture("condition")?.trim();
    let keyword = condition.split_once('=').is_some_and(|(name, rest)| {
        !rest.starts_with('=')
            && !name.is_empty()
            && name.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
    });
    (!keyword).then_some(condition)
}

/// Decides whether a match has its effect, and how certainly. `None` when the condition is
/// constant and the marker has no effect (`skipif(False)`), or when a runtime condition is
/// not worth reporting in this language (a Rust `cfg(feature = ..)` on a test).
pub fn judge<'m>(found: &'m QueryMatch, language: Language) -> Option<Judged<'m>> {
    let default = found
        .property("severity")
        .and_then(Severity::parse)
        .unwrap_or(Severity::Error);
    let plain = Judged {
        found,
        severity: default,
        runtime_condition: None,
        constant_condition: None,
        ci_condition: None,
    };
    let Some(reading) = found.property("condition") else {
        return Some(plain);
    };
    let Some(condition) = usable_condition(found) else {
        return Some(plain);
    };
    // `#[cfg_attr(ci, ignore)]`: the predicate before the attribute it applies.
    let (condition, reading) = match reading {
        "cfg-attr" => (cfg_attr_predicate(condition)?, "skip-when-true"),
        other => (condition, other),
    };
    let truth = evaluate(condition, language);
    let holds = |truth: Truth| match (reading, truth) {
        (_, Truth::Unknown) => None,
        ("skip-when-false", truth) => Some(truth == Truth::False),
        (_, truth) => Some(truth == Truth::True),
    };
    let effective = holds(truth);
    if effective.is_none()
        && super::condition::on_ci(condition, language).and_then(holds) == Some(true)
    {
        return Some(Judged {
            ci_condition: Some(condition.to_string()),
            ..plain
        });
    }
    match effective {
        Some(true) => Some(Judged {
            constant_condition: Some(condition.to_string()),
            ..plain
        }),
        Some(false) => None,
        None if language == Language::Rust => None,
        None => Some(Judged {
            severity: Severity::Warning.min(default),
            runtime_condition: Some(condition.to_string()),
            ..plain
        }),
    }
}

/// `ci` in `(ci, ignore)` / `(all(ci, unix), ignore = "slow")`: the text before the last
/// top-level comma, without the token tree's parentheses.
fn cfg_attr_predicate(tree: &str) -> Option<&str> {
    let inner = tree.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    let mut last = None;
    for (index, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => last = Some(index),
            _ => {}
        }
    }
    Some(inner[..last?].trim())
}

/// Qualified names of the side's tests and suites (`kind` test or suite in `tests.scm`).
pub fn inventory(context: &FileContext<'_>, side: Side) -> HashSet<String> {
    context
        .matches(side, "tests")
        .iter()
        .filter(|found| matches!(found.property("kind"), Some("test" | "suite")))
        .map(|found| found.key.clone())
        .collect()
}

/// Facts for the cross-file table: the base side's tests, and its markers of `fact` kind.
/// Keys skipped without a condition on `side` (a test, a suite, or [`MODULE_KEY`] for the file)
/// by `rule_query`'s markers (`@pytest.mark.skip`, `it.skip`, `#[ignore]`).
pub fn skipped_keys(
    context: &FileContext<'_>,
    side: Side,
    rule_query: &'static str,
) -> std::collections::HashSet<String> {
    let Some(language) = context.language else {
        return Default::default();
    };
    dedupe(&context.matches(side, rule_query))
        .into_iter()
        .filter_map(|found| judge(found, language))
        .filter(|judged| judged.severity == Severity::Error && judged.runtime_condition.is_none())
        .map(|judged| judged.found.key.clone())
        .collect()
}

pub fn base_facts(
    context: &FileContext<'_>,
    rule_query: &'static str,
    fact: &'static str,
) -> Vec<Fact> {
    let Some(language) = context.language else {
        return Vec::new();
    };
    let family = language.family();
    // Only what left this file can have moved to another one: two files that merely share a
    // test title ("works", "renders") must not vouch for each other.
    let mut staying = inventory(context, Side::Head);
    staying.extend(
        context
            .matches(Side::Head, rule_query)
            .iter()
            .map(|found| found.key.clone()),
    );
    // A whole-file marker's key names no test, so it never pairs across files.
    staying.insert(MODULE_KEY.to_string());
    let mut facts: Vec<Fact> = inventory(context, Side::Base)
        .into_iter()
        .filter(|key| !staying.contains(key))
        .map(|key| Fact {
            side: Side::Base,
            name: "test",
            family,
            key,
            severity: Severity::Error,
        })
        .collect();
    let markers = context.matches(Side::Base, rule_query);
    for found in dedupe(&markers) {
        if staying.contains(&found.key) {
            continue;
        }
        if let Some(judged) = judge(found, language) {
            facts.push(Fact {
                side: Side::Base,
                name: fact,
                family,
                key: found.key.clone(),
                severity: judged.severity,
            });
        }
    }
    facts
}

/// The marker as people write it: `it.skip`, `@pytest.mark.skip`, `#[ignore]`.
pub fn marker_text(context: &FileContext<'_>, side: Side, found: &QueryMatch) -> String {
    let text = context
        .side(side)
        .and_then(|side| side.text.get(found.byte_range.clone()))
        .unwrap_or_default();
    let first_line = text.lines().next().unwrap_or_default().trim();
    let cut = match context.language {
        Some(Language::Rust) => first_line,
        _ => first_line
            .find('(')
            .filter(|index| *index > 0)
            .map_or(first_line, |index| &first_line[..index]),
    };
    shorten(cut, 60)
}

/// `text` cut to `max` characters with an ellipsis, secrets redacted before the cut.
pub fn shorten(text: &str, max: usize) -> String {
    crate::secrets::shorten_redacted(text, max, "…")
}

//! `focused-test`: a focus marker that makes the runner skip every other test.

use super::context::{Candidate, FactRef, FileContext, Moved, Output};
use super::declare_rule;
use super::markers::{base_facts, dedupe, judge, marker_text};
use crate::finding::Side;
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A focus marker added by the change: `it.only`, `describe.only`, `test.only.each`,
    /// `test.concurrent.only`, `test.describe.only` (playwright), `fit`, `fdescribe`, `ftest`,
    /// node:test `{ only: true }`; in Python the `pytest-only` / `pytest-focus` markers
    /// `@pytest.mark.only` and `@pytest.mark.focus`.
    /// ## Why it matters
    /// With a focused test in a file, the runner silently skips every other test there (and
    /// with `--only` flags, in the whole run). CI stays green while most of the suite no longer
    /// runs. Usually an accident; for an agent also a way to run only what passes.
    /// ## Example
    /// Fires:
    ///
    /// ```js
    /// describe("auth", () => {
    ///   it.only("accepts a valid token", () => { ... });
    ///   it("rejects an expired token", () => { ... });   // no longer runs
    /// });
    /// ```
    /// ## Not flagged
    /// - `.only` that already existed in base (paired by test name, also across renamed and
    ///   moved files).
    /// - `{ only: false }`, and removing a focus marker.
    /// - Identifiers that merely contain `only` (`onlyOnce()`, `it.onlyIf` of other libraries).
    /// ## Configuration
    /// `rules.focused-test.severity` in `.integrity-gate.yml`.
    pub static FOCUSED_TEST = {
        id: "focused-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python],
        summary: "a focus marker (.only, fit, fdescribe) makes the other tests stop running",
        maturity: Stable,
        check: Some(check),
        group: "tests newly focused in this file",
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    out.facts.extend(
        base_facts(context, "focused-test", "focused")
            .into_iter()
            .filter(|fact| fact.name == "focused"),
    );
    let head = context.matches(Side::Head, "focused-test");
    if head.is_empty() {
        return;
    }
    let base = context.matches(Side::Base, "focused-test");
    let base_focused: HashSet<&str> = dedupe(&base)
        .into_iter()
        .filter(|found| judge(found, language).is_some())
        .map(|found| found.key.as_str())
        .collect();
    for found in dedupe(&head) {
        let Some(judged) = judge(found, language) else {
            continue;
        };
        if base_focused.contains(found.key.as_str()) {
            continue;
        }
        let marker = marker_text(context, Side::Head, found);
        out.candidates.push(Candidate {
            side: Side::Head,
            line: found.line,
            end_line: found.end_line,
            severity: judged.severity,
            message: format!(
                "{} is {}: the other tests next to it stop running",
                if found.key == super::markers::MODULE_KEY {
                    "a test in this file".to_string()
                } else {
                    format!("`{}`", found.key)
                },
                found
                    .property("message")
                    .map_or_else(|| format!("focused with `{marker}`"), str::to_string)
            ),
            key: found.key.clone(),
            moved: Some(Moved {
                family: language.family(),
                key: found.key.clone(),
                already: FactRef::base("focused"),
                existed: None,
                also: Vec::new(),
                print: None,
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

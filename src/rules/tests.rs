//! Registry invariants: sorted unique ids equal to the contract's list, complete docs.

use super::*;

/// The contract's rule ids (kept here so the tests do not need `../shared`).
const CONTRACT_IDS: &[&str] = &[
    "commented-out-validation",
    "deleted-test",
    "disabled-check",
    "empty-catch",
    "focused-test",
    "gate-config-change",
    "leaked-secret",
    "logged-secret",
    "mass-deletion",
    "new-dependency",
    "protected-path",
    "skipped-test",
    "test-fitted-code",
    "todo-stub",
    "unbacked-claim",
    "unreadable-change",
    "unsafe-operation",
    "weakened-assertion",
    "weakened-coverage",
    "weakened-security",
];

#[test]
fn ids_are_sorted_unique_and_match_the_contract() {
    let ids: Vec<&str> = ALL_RULES.iter().map(|rule| rule.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        ids, sorted,
        "ALL_RULES is kept sorted by id, without repeats"
    );
    assert_eq!(ids, CONTRACT_IDS);
}

#[test]
fn every_rule_documents_every_heading_in_order() {
    for rule in ALL_RULES {
        let docs = rule.docs_markdown();
        let mut from = 0;
        for heading in DOC_HEADINGS {
            let at = docs[from..]
                .find(&format!("{heading}\n"))
                .unwrap_or_else(|| panic!("{}: missing or misplaced {heading}", rule.id));
            from += at + heading.len();
        }
        assert!(
            !rule.summary.is_empty() && rule.summary.len() <= 100,
            "{}",
            rule.id
        );
    }
}

#[test]
fn stable_rules_have_checks_and_planned_rules_say_so() {
    for rule in ALL_RULES {
        match rule.maturity {
            // `unbacked-claim` is judged by the engine after every other rule, on their
            // findings (see `engine::claim_findings`).
            Maturity::Stable => assert!(
                rule.check.is_some() || rule.change_check.is_some() || rule.id == UNBACKED_CLAIM.id,
                "{}",
                rule.id
            ),
            Maturity::Planned => {
                assert!(
                    rule.check.is_none() && rule.change_check.is_none(),
                    "{}",
                    rule.id
                );
                assert!(rule.docs.contains("Status: planned"), "{}", rule.id);
            }
        }
    }
}

#[test]
fn nearest_ids_suggest_the_right_rule() {
    assert_eq!(nearest_ids("skiped-test").first(), Some(&"skipped-test"));
    assert_eq!(nearest_ids("focus-test").first(), Some(&"focused-test"));
}

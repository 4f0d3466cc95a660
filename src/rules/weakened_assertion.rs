//! `weakened-assertion`: a test that survives the change checks less than it did.

use super::assertions::{self, Assertion, Family};
use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use super::inventory::{self, Test};
use crate::finding::{Severity, Side};
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A test that exists in base and head (same identity) whose assertions got weaker:
    ///
    /// - assertions removed (the count drops): `test_login: 4 assertions → 1`;
    /// - an assertion replaced by a weaker one: exact equality → truthiness, defined, not-null,
    ///   `toHaveBeenCalled()` without arguments; `assert x == 42` → `assert x`;
    ///   `assert_eq!(a, b)` → `assert!(a.is_ok())`;
    /// - a trivially true assertion added: `assert True`, `assert!(true)`,
    ///   `expect(true).toBe(true)`, `assert x == x`;
    /// - `expect.assertions(n)` lowered;
    /// - `pytest.raises`/`toThrow`/`#[should_panic(expected = ..)]` dropped or loosened (the
    ///   message or the specific error no longer checked);
    /// - a numeric tolerance widened more than 10× (`pytest.approx(rel=..)`,
    ///   `toBeCloseTo(x, digits)`, `assert!((a - b).abs() < eps)`, `assertAlmostEqual`).
    ///
    /// Assertions in same-file helper functions count where the helper is called, and so do
    /// calls to helpers named `assert*`/`check*`/`verify*`/`expect*`.
    /// ## Why it matters
    /// A test that still runs but no longer checks the result keeps CI green and the test count
    /// unchanged, so nothing in the summary shows that coverage was lost.
    /// ## Example
    /// Fires (base → head):
    ///
    /// ```python
    /// assert resp.status == 200      →   assert resp
    /// ```
    ///
    /// `expect(total).toBe(42)` → `expect(total).toBeDefined()`;
    /// `pytest.approx(x, rel=1e-6)` → `pytest.approx(x, rel=1e-2)`.
    /// ## Not flagged
    /// - Assertions moved into a helper that the test still calls.
    /// - Assertions made stronger, or an expected value changed (`== 42` → `== 43`).
    /// - Tests added or deleted by the change (deleted ones are `deleted-test`).
    /// - A test moved to another file (assertions are compared within one file pair).
    /// ## Configuration
    /// `rules.weakened-assertion.severity` in `.integrity-gate.yml`.
    pub static WEAKENED_ASSERTION = {
        id: "weakened-assertion",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a surviving test's assertions are removed, loosened or replaced by trivially true ones",
        maturity: Stable,
        check: Some(check),
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    if context.side(Side::Base).is_none() || context.side(Side::Head).is_none() {
        return;
    }
    let base_tests = inventory::tests(context, Side::Base);
    let head_tests = inventory::tests(context, Side::Head);
    let collected = |tests: &[Test]| -> HashSet<String> {
        tests
            .iter()
            .filter(|test| test.collected())
            .map(|test| test.key.clone())
            .collect()
    };
    let head_keys = collected(&head_tests);
    let surviving: Vec<&Test> = base_tests
        .iter()
        .filter(|test| test.collected() && head_keys.contains(&test.key))
        .collect();
    if surviving.is_empty() {
        return;
    }
    let head_surviving: Vec<&Test> = head_tests
        .iter()
        .filter(|test| test.collected() && surviving.iter().any(|b| b.key == test.key))
        .collect();
    let base = assertions::by_test(context, Side::Base, &surviving);
    let head = assertions::by_test(context, Side::Head, &head_surviving);
    let mut done = HashSet::new();
    for test in surviving {
        if !done.insert(test.key.clone()) {
            continue;
        }
        let (Some(before), Some(after)) = (base.get(&test.key), head.get(&test.key)) else {
            continue;
        };
        if let Some(candidate) = compare(&test.key, before, after) {
            out.candidates.push(candidate);
        }
    }
}

/// What got weaker in one test, as one candidate.
fn compare(key: &str, before: &[Assertion], after: &[Assertion]) -> Option<Candidate> {
    let mut removed: Vec<&Assertion> = before.iter().collect();
    let mut added: Vec<&Assertion> = Vec::new();
    for assertion in after {
        match removed
            .iter()
            .position(|other| other.norm == assertion.norm)
        {
            Some(index) => {
                removed.remove(index);
            }
            None => added.push(assertion),
        }
    }
    if removed.is_empty() && added.iter().all(|a| a.strength > 0) {
        return None;
    }
    let mut reasons: Vec<String> = Vec::new();
    // Base-side location (a removal) wins over a head-side one.
    let mut base_line: Option<u32> = None;
    let mut head_line: Option<u32> = None;
    let mut unpaired: Vec<&Assertion> = Vec::new();
    for old in removed {
        let partner = added.iter().position(|new| new.family == old.family);
        let Some(index) = partner else {
            if old.strength > 0 {
                unpaired.push(old);
            }
            continue;
        };
        let new = added.remove(index);
        let weaker = match old.family {
            Family::Count => new.count.unwrap_or(0) < old.count.unwrap_or(0),
            _ => new.strength < old.strength,
        };
        let widened = match (old.tolerance, new.tolerance) {
            (Some(old_tol), Some(new_tol)) if old_tol > 0.0 => new_tol > old_tol * 10.0,
            _ => false,
        };
        if weaker && new.strength > 0 {
            reasons.push(format!("`{}` → `{}`", old.text, new.text));
            head_line.get_or_insert(new.line);
        } else if weaker {
            reasons.push(format!("`{}` → trivially true `{}`", old.text, new.text));
            head_line.get_or_insert(new.line);
        } else if widened {
            reasons.push(format!(
                "tolerance widened {} → {} in `{}`",
                old.tolerance.unwrap_or_default(),
                new.tolerance.unwrap_or_default(),
                new.text
            ));
            head_line.get_or_insert(new.line);
        }
    }
    for new in added.iter().filter(|a| a.strength == 0) {
        reasons.push(format!("trivially true `{}` added", new.text));
        head_line.get_or_insert(new.line);
    }
    if !unpaired.is_empty() {
        let count = |list: &[Assertion]| {
            list.iter()
                .filter(|a| a.strength > 0 && a.family != Family::Count)
                .count()
        };
        let listed: Vec<String> = unpaired
            .iter()
            .take(3)
            .map(|a| format!("`{}`", a.text))
            .collect();
        let more = if unpaired.len() > 3 {
            format!(" and {} more", unpaired.len() - 3)
        } else {
            String::new()
        };
        let (was, now) = (count(before), count(after));
        let prefix = if now < was {
            format!("{was} {} → {now}; ", plural(was))
        } else {
            String::new()
        };
        reasons.insert(0, format!("{prefix}{}{more} removed", listed.join(", ")));
        base_line = unpaired.first().map(|a| a.line);
    }
    if reasons.is_empty() {
        return None;
    }
    let (side, line) = match (base_line, head_line) {
        (Some(line), _) => (Side::Base, line),
        (None, Some(line)) => (Side::Head, line),
        (None, None) => return None,
    };
    Some(Candidate {
        side,
        line,
        end_line: line,
        severity: Severity::Error,
        message: format!("`{key}`: {}", reasons.join("; ")),
        key: key.to_string(),
        moved: None,
    })
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        "assertion"
    } else {
        "assertions"
    }
}

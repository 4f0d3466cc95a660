//! Rules declared by the contract whose detection is not built yet.
//!
//! They are listed by `integrity-gate rules` (marked planned) so that every contract id is
//! visible and configurable, but they never report anything, and their documentation says so.
//! Moving a rule out of this file means giving it a check, fixtures and full documentation.

use super::declare_rule;

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// A test in base whose identity (suite path, name, case) survives nowhere in head: a removed function or `it` call, a removed parametrize row, a deleted test file. Moves and renames are not deletions.
    /// ## Why it matters
    /// Deleting the failing test is as effective as skipping it, and leaves even less to see.
    /// ## Example
    /// `def test_refund_rounding(): ...` removed from `tests/test_billing.py`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.deleted-test.severity` in `.integrity-gate.yml`.
    pub static DELETED_TEST = {
        id: "deleted-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a test function, test case or test file is removed and does not reappear elsewhere",
        maturity: Planned,
        check: None,
    }
}

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// New suppressions (`eslint-disable`, `@ts-ignore`, `# noqa`, `# type: ignore`, `#[allow]`), CI steps made non-blocking (`continue-on-error: true`, `|| true`, `if: false`), and test commands that no longer run tests.
    /// ## Why it matters
    /// Silencing the checker is the shortcut when the code does not satisfy it.
    /// ## Example
    /// `// @ts-ignore` added above a call that no longer type-checks.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.disabled-check.severity` in `.integrity-gate.yml`.
    pub static DISABLED_CHECK = {
        id: "disabled-check",
        severity: Error,
        engine: Lines,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a lint/type suppression, --no-verify, continue-on-error or a neutered test script is added",
        maturity: Planned,
        check: None,
    }
}

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// An empty `catch`, `except: pass`, `.catch(() => {})`, Rust `let _ =` on a `Result` that was propagated before, `Err(_) => {}`.
    /// ## Why it matters
    /// Swallowing the exception makes the failing path look like success.
    /// ## Example
    /// `try { save() } catch (e) {}`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.empty-catch.severity` in `.integrity-gate.yml`.
    pub static EMPTY_CATCH = {
        id: "empty-catch",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "an error handler that swallows the error is added",
        maturity: Planned,
        check: None,
    }
}

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// Assertions removed from a test that still exists, or replaced by weaker ones: exact equality to truthiness, `assert x == 42` to `assert x`, `assert!(true)`.
    /// ## Why it matters
    /// A test that checks nothing passes whatever the code does.
    /// ## Example
    /// `expect(total).toBe(42)` becomes `expect(total).toBeDefined()`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.weakened-assertion.severity` in `.integrity-gate.yml`.
    pub static WEAKENED_ASSERTION = {
        id: "weakened-assertion",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a surviving test loses assertions or gets weaker ones (toBe(5) -> toBeDefined())",
        maturity: Planned,
        check: None,
    }
}

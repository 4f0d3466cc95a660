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
    /// A comment added by the change whose text, without the comment markers, is validation code: an assertion, a `raise`/`throw`/`panic!`, a guard clause, or a call such as `validate*`/`verify*`/`authorize*`.
    /// ## Why it matters
    /// Commenting a check out keeps the code compiling and the tests green while the check no longer happens.
    /// ## Example
    /// `assert user.is_active` becomes `# assert user.is_active`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.commented-out-validation.severity` in `.integrity-gate.yml`.
    pub static COMMENTED_OUT_VALIDATION = {
        id: "commented-out-validation",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "an assertion, raise/throw, guard clause or validation call is turned into a comment",
        maturity: Planned,
        check: None,
    }
}

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
    /// A function body in head that only defers the work: `todo!()`, `unimplemented!()`, `raise NotImplementedError`, `pass`/`...`, `throw new Error("not implemented")`.
    /// ## Why it matters
    /// Replacing logic with a stub makes a failing code path disappear from view.
    /// ## Example
    /// `fn total(&self) -> u64 { todo!() }` where base summed the items.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.todo-stub.severity` in `.integrity-gate.yml`.
    pub static TODO_STUB = {
        id: "todo-stub",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a body is replaced by a placeholder: todo!(), raise NotImplementedError, pass, a TODO",
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

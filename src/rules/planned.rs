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

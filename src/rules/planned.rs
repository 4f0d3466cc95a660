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
    /// Known token formats, private keys, credentialed URLs, secret-looking assignments and committed `.env`/key files on lines the change adds. Output is always redacted.
    /// ## Why it matters
    /// Agents paste credentials to make an integration test pass; once pushed, a secret must be rotated.
    /// ## Example
    /// `GITHUB_TOKEN = "ghp_…"` added to a config module.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.leaked-secret.severity` in `.integrity-gate.yml`.
    pub static LEAKED_SECRET = {
        id: "leaked-secret",
        severity: Error,
        engine: Lines,
        languages: [],
        summary: "a credential is added (token formats, private keys, credentialed URLs, .env files)",
        maturity: Planned,
        check: None,
    }
}

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// Dependencies added to Cargo.toml, package.json, pyproject.toml, requirements*.txt, Pipfile or go.mod, with git/URL sources, install scripts and names close to popular packages flagged.
    /// ## Why it matters
    /// Agents add packages freely, sometimes hallucinated names that attackers register (slopsquatting).
    /// ## Example
    /// `reqeusts==2.31` added to `requirements.txt`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.new-dependency.severity` in `.integrity-gate.yml`.
    pub static NEW_DEPENDENCY = {
        id: "new-dependency",
        severity: Note,
        engine: Manifest,
        languages: [],
        summary: "a dependency is added to a manifest; git/URL sources and likely typosquats are errors",
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

declare_rule! {
    /// **Status: planned.** This rule is declared by the contract but its detection is not
    /// implemented yet: it reports nothing.
    /// ## What it flags
    /// Lowered or removed thresholds in jest/vitest/nyc/c8, coverage.py, pytest-cov, codecov, tarpaulin, cargo-llvm-cov and CI flags.
    /// ## Why it matters
    /// Lowering the bar is the easy way to pass a coverage gate after deleting tests.
    /// ## Example
    /// `fail_under = 90` becomes `fail_under = 60` in `.coveragerc`.
    /// ## Not flagged
    /// Everything, until the detection exists.
    /// ## Configuration
    /// `rules.weakened-coverage.severity` in `.integrity-gate.yml`.
    pub static WEAKENED_COVERAGE = {
        id: "weakened-coverage",
        severity: Error,
        engine: Manifest,
        languages: [],
        summary: "a coverage threshold is lowered, removed or made non-blocking",
        maturity: Planned,
        check: None,
    }
}

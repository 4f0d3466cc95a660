//! `unbacked-claim`: what the change's author says about it, checked against the change. The
//! judgement lives in [`crate::claims`]; the engine runs it after every other rule, since the
//! other rules' findings are its evidence.

use super::declare_rule;

declare_rule! {
    /// ## What it flags
    /// A claim about the change that the change itself contradicts. Claims are read from the
    /// pull request's title and body (`github`), the commit messages of the range (`diff`,
    /// `pre-push`, `github`), a file given with `diff --claims FILE`, and a coding agent's last
    /// message (`agent-hook`). The phrases are data (`src/claims/phrases.txt`, English for
    /// now); each kind of claim has its own evidence:
    ///
    /// | the claim | is contradicted by |
    /// |---|---|
    /// | tests added, covered by tests | no test file gaining a line and no added line declaring a test |
    /// | tests pass, fixed the failing test | `skipped-test`, `deleted-test`, `weakened-assertion`, `focused-test` findings; an assertion's expected value edited (warning) |
    /// | no behaviour change, refactor only | `deleted-test`, `weakened-assertion` findings; an assertion's expected value edited |
    /// | coverage kept or increased | `weakened-coverage` findings |
    /// | no new dependencies | `new-dependency` findings |
    /// | lint or type checks clean | `disabled-check` findings |
    ///
    /// The finding quotes the claim and where it was made, and sits on the contradicting
    /// evidence (the other rule's finding, path and line). One finding per kind of claim; its
    /// severity is the evidence's (notes are not evidence). An "expected value edited" is a
    /// removed assertion line and an added one that are equal once their literals are blanked
    /// out.
    /// ## Why it matters
    /// Agents that fail a task often report success anyway; reviewers read the description
    /// first. A "refactor only" that rewrites expected values, or "all tests pass" on a change
    /// that skips the failing one, is the shortcut told as a fix.
    /// ## Example
    /// Fires: commit message "Fix flaky login test, all tests pass" on a change that adds
    /// `@pytest.mark.skip` to `test_login` ("commit 1a2b3c4d5e6f claims \"Fix flaky login
    /// test, all tests pass\", but `skipped-test` reports at tests/test_auth.py:12: ...");
    /// a PR body "No new dependencies." with a package added to `package.json`; "Added tests
    /// for the parser" when no test file changed.
    /// ## Not flagged
    /// - A claim the change backs: "added tests" with a new test, "tests pass" on a change
    ///   that skips nothing.
    /// - Negated, deferred, conditional and asked forms: "no tests added", "didn't add
    ///   tests", "tests will follow in a follow-up", "once tests pass", "do the tests pass?".
    /// - Tests shipped, not written: "add tests to the sdist", "include tests in the wheel".
    /// - Unchecked checklist items (`- [ ] Tests added`), quoted lines (`>`), code blocks,
    ///   HTML comments (pull request templates) and commit trailers.
    /// - Evidence of note severity only.
    /// ## Configuration
    /// `rules.unbacked-claim.severity` in `.integrity-gate.yml`. Inline suppressions work on
    /// the evidence's line, as for any rule.
    pub static UNBACKED_CLAIM = {
        id: "unbacked-claim",
        severity: Error,
        engine: FileSet,
        languages: [],
        summary: "the PR description, commit messages or agent's message claim what the diff contradicts",
        maturity: Stable,
        check: None,
    }
}

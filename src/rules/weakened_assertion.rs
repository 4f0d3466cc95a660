//! `weakened-assertion`: a test that survives the change checks less than it did.

use super::assertions::{self, Assertion, Family, PastDepth, TestChecks};
use super::context::{Candidate, FileContext, Moved, Output};
use super::harness_switch::HarnessSwitch;
use super::inventory::{self, Test};
use super::subjects::Removed;
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::query::KEY_SEPARATOR;
use regex::Regex;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

declare_rule! {
    /// ## What it flags
    /// A test that exists in base and head (same identity) whose assertions got weaker:
    ///
    /// - assertions removed (the count drops): `test_login: 4 assertions → 1`;
    /// - an assertion replaced by a weaker one: exact equality → truthiness, defined, not-null,
    ///   `toHaveBeenCalled()` without arguments, `toHaveProperty('k')` without a value,
    ///   `toHaveBeenCalledWith(expect.any(..))`, an expected value anything matches
    ///   (`toMatchObject({})`, `toEqual(expect.anything())`, `expect.objectContaining({})`);
    ///   membership for equality (`assertEqual` → `assertIn`, `assert x == y` →
    ///   `assert y in x`); `assert x == 42` → `assert x`;
    ///   `assert_eq!(a, b)` → `assert!(a.is_ok())`;
    /// - a trivially true assertion added: `assert True`, `assert!(true)`,
    ///   `expect(true).toBe(true)`, `assert x == x`;
    /// - `expect.assertions(n)` lowered;
    /// - `pytest.raises`/`toThrow`/`#[should_panic(expected = ..)]` dropped or loosened (the
    ///   message or the specific error no longer checked); a dropped `pytest.warns` alone is
    ///   a warning (deprecation checks go away with API migrations);
    /// - a numeric tolerance widened more than 10× (`pytest.approx(rel=..)`,
    ///   `toBeCloseTo(x, digits)`, `assert!((a - b).abs() < eps)`, `assertAlmostEqual`).
    /// - a tolerance widened where the assertion cannot show it: an epsilon constant or
    ///   argument of a test file raised (`EPS = 1e-9` → `1e-1`, `rel_tol=`, `*_TOLERANCE`), an
    ///   image or snapshot comparison's allowance raised in a test or a runner configuration
    ///   (`maxDiffPixels`, `maxDiffPixelRatio`, `failureThreshold`, and `threshold` or
    ///   `tolerance` in a file that compares images): an error from 10× or a ratio loosened by
    ///   0.1, a warning below that.
    ///
    /// - an assertion moved into a branch that never runs (`if (false) { .. }`, `if False:`),
    ///   or left after a statement that always leaves the test (`return;` first, `if (true)
    ///   return;`, `if True: return`, `return Ok(());`): the test passes without reaching it;
    /// - Rust: an `assert*!` turned into its `debug_assert*!` twin (compiled out under
    ///   `cargo test --release`).
    ///
    /// Frameworks: jest/vitest `expect`, node/chai `assert`, ava `t.is`/`t.deepEqual`/`t.like`/
    /// `t.throws(fn, {message})`/`t.truthy`/`t.pass()`/`t.plan(n)` (`t.pass()` and
    /// `t.is(x, x)` are trivially true, a lowered `t.plan` is like a lowered
    /// `expect.assertions`), tap `t.equal`/`t.same`/`t.ok`, node:test `t.assert.*`, Python
    /// `assert`/unittest/`pytest.raises`, Rust `assert*!`/`debug_assert*!`/`prop_assert*!`
    /// (also inside `proptest!`), `assert_matches!`, approx `epsilon`/`max_relative`,
    /// `assert_approx_eq!(a, b, eps)`, `#[should_panic(expected = ..)]` (or `= ".."`).
    ///
    /// Assertions in same-file helper functions count where the helper is called, also through
    /// helpers that call helpers, up to 3 calls deep (test → `a` → `b` → `c`); so do calls to
    /// helpers named `assert*`/`check*`/`verify*`/`expect*`. A helper that is still defined in
    /// the file keeps its assertions counted, so one emptied of its checks is a weakening of
    /// every test that reaches it. In a Rust source file only test code is followed
    /// (`#[cfg(test)]` items, `mod tests`): a `debug_assert!` in the code under test is not
    /// one of the test's checks. A test moved to another file is compared with what it was
    /// (`test_x (moved to tests/test_y.py): 3 assertions → 1`).
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
    /// A count drop in a JavaScript file that newly hands the test context to a function not
    /// defined in the file (`await runError(t, ..)`, where ava/tap helpers run their own
    /// assertions) is a warning that names the function.
    /// ## Reported as a guess (`likely`, a warning by default)
    /// - A test whose checks run through helpers nested more than 3 calls deep, when the change
    ///   edits the helpers past that depth (or the depth at which they are reached): what they
    ///   check was not counted, so a reported drop is a guess, and a comparison that finds
    ///   nothing is reported as "possibly weakened" rather than passed.
    /// - Loose checks (substring, truthiness, "no error") on a value that no check of the test
    ///   reads any more, next to a new exact check on another value: most likely a port to
    ///   another harness (`nu!(..).out.contains("x")` →
    ///   `test().run(code).expect_value_eq([..])`). The message names the new check.
    /// ## Not flagged
    /// - Assertions moved into a helper that the test still calls, also when the helper moves
    ///   from the test's file to a shared module, and a test body moved into a helper that
    ///   calls the helper holding the assertions.
    /// - Rust: a bare `#[should_panic]` dropped when a comment next to it marks it as a known
    ///   failure (`// FIXME`, `// TODO`, "known failure", "currently fails", "doesn't work",
    ///   "not yet supported"): the test was expected to fail, and now its checks must pass.
    ///   With `expected = ".."`, or without such a comment, dropping it is reported.
    /// - A raise check replaced by checks on the returned error's message
    ///   (`const {message} = await t.throwsAsync(p); t.true(message.includes(..))`), or whose
    ///   expectation moved into a constant (`t.throwsAsync(p, maxBufferError)`).
    /// - Assertions made stronger, or an expected value changed (`== 42` → `== 43`);
    ///   `t.is` → `t.deepEqual`; a tolerance tightened; `toHaveBeenCalled()` →
    ///   `toHaveBeenCalledWith(..)`; `rejects.toThrow('bang')` → `rejects.toBe(error)`.
    /// - Rust: `assert_eq!(x, true)` → `assert!(x)` (clippy's `bool_assert_comparison`; the
    ///   compiler holds `x` to a `bool`). Elsewhere a value compared with `true`/`false` and
    ///   now checked for truth (`t.is(r.success, true)` → `expect(r.success).toBeTruthy()`,
    ///   `assertEqual(x, True)` → `assertTrue(x)`) is a warning: weaker only if it can be
    ///   something other than a boolean.
    /// - jest/vitest matcher aliases renamed: `toBeCalled` ↔ `toHaveBeenCalled`,
    ///   `toBeCalledTimes`/`toBeCalledWith`, `lastCalledWith` ↔ `toHaveBeenLastCalledWith`,
    ///   `nthCalledWith`, `toReturn` ↔ `toHaveReturned`, `toReturnWith`, `toThrowError` ↔
    ///   `toThrow` (read as one matcher).
    /// - A check implied by one that stays or is added: `expect(x).toBeDefined()` removed
    ///   while `expect(x?.a).toBe(1)` pins a field of `x` (Python: `assert x is not None`
    ///   and `assert x.a == 1`); loose checks on a value (`toBeDefined()`,
    ///   `toHaveProperty('k')`, `expect(x.k).toHaveLength(1)`) replaced by one exact
    ///   `expect(x).toEqual({..})`; `expect(a[1]).toBeFalsy()` removed next to
    ///   `expect(a.length).toEqual(1)`. Not when the remaining check accepts a missing value
    ///   (`expect(x?.a).toBeUndefined()`).
    /// - Checks on a value's length, fields or elements replaced by one exact equality on the
    ///   whole value: `assert len(parts) == 1; assert parts[0].name == 'a'` →
    ///   `assert parts == snapshot([..])` (also `assert_eq!(parts, vec![..])`,
    ///   `assert.deepEqual(parts, [..])`), unless the expected value holds a wildcard (`ANY`).
    /// - Rust: `assert!(!out.err.contains(".."))` or `assert!(!out.out.contains("error"))`
    ///   dropped from a test that now returns `Result` (see below).
    /// - Call checks on a mock (`toHaveBeenCalledWith(a)`, `toHaveBeenCalledTimes(2)`) next to
    ///   an exact check of all its calls (`expect(fn.mock.calls).toEqual([[a], [b]])`).
    /// - `assertIn(a, b)` → `assertTrue(any(a in m for m in b))`: `assertTrue(cond)` is as
    ///   strong as its condition.
    /// - Custom matchers with a literal subject (`expect('text').toHaveBeenWarned()`, any
    ///   matcher added with `expect.extend`): not trivially true, unlike
    ///   `expect(true).toBe(true)`. `x == x` is trivially true only for the same pure name or
    ///   literal, not for two calls (`SecretStr('a') == SecretStr('a')`).
    /// - Rust: an `assert!` replaced by an equivalent panicking check: `.unwrap_err()`,
    ///   `.expect_err(..)`, or a loop that returns on success and ends in `panic!(..)`.
    /// - Rust: a test that now returns `Result` (and so fails on any error it meets) dropping
    ///   checks that only said no error happened: `assert!(out.err.is_empty())`,
    ///   `assert!(out.status.success())`, `assert!(r.is_ok())`, `assert_eq!(out.err, "")`.
    /// - A test turned into a table (`#[rstest] #[case::name(..)]`, `@pytest.mark.parametrize`,
    ///   `it.each`): its checks count once per row.
    /// - A test split into new tests named after it (`.. meta` → `.. meta on success` and
    ///   `.. meta on error`): its checks are compared with theirs together.
    /// - An `if`/`else` whose arms checked different values unified into one check that now
    ///   runs on every path (`if (isBrowser()) expect(e).toMatch(a) else expect(e).toMatch(b)`
    ///   → `expect(e).toMatch(b)`): only one arm ever ran, so checks count once per `if`, by
    ///   its largest arm.
    /// - Checks on a key's contents replaced by a check that the key is gone
    ///   (`assert "baz" not in content["group"]` → `assert "group" not in content`,
    ///   `expect(config).not.toHaveProperty('group')`).
    /// - A check that a line is never reached added: `assert False, ".."`,
    ///   `assert!(false, "..")`, `t.fail()` (they always fail where they run).
    /// - An assertion wrapped in `try`/`except` that swallows its failure: that is
    ///   `empty-catch`.
    /// - Tests added or deleted by the change (deleted ones are `deleted-test`).
    ///
    /// Checks that read only what the change removes from the production code (a method,
    /// property, field or function whose definition goes: `expect(state.hasCjsFactory(id))`
    /// once `hasCjsFactory` is deleted) could not stay: a warning that names the removed
    /// definition. So do checks that read only the output of a test harness the file left for
    /// another (its imports `setupCommandMocks`, `executeCommand` gone from the file and new
    /// ones in: `expect(() => JSON.parse(jsonOutput)).not.toThrow()` on the captured console,
    /// `rejects.toThrow('process.exit called')` from the old `process.exit` stand-in),
    /// followed through the locals assigned from them. A check dropped while what it read
    /// remains is an error as before. Past 20
    /// alike findings in one change (an error type renamed in every test), they are folded by
    /// directory.
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
        change_check: moved_between_files,
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    super::tolerances::check(context, out);
    let Some(language) = context.language else {
        return;
    };
    let base_tests = inventory::tests(context, Side::Base);
    let head_tests = inventory::tests(context, Side::Head);
    let head_keys: HashSet<&str> = head_tests
        .iter()
        .filter(|test| test.collected())
        .map(|test| test.key.as_str())
        .collect();
    let base_keys: Vec<&str> = base_tests
        .iter()
        .filter(|test| test.collected())
        .map(|test| test.key.as_str())
        .collect();
    // (base test, head key): the same identity, or the test it was renamed to (so a rename
    // does not hide a weakening; merges into an existing test are compared there). Base tests
    // with neither left the file: deleted, or moved to another file (judged across files).
    let collected = |tests: &[Test]| -> Vec<Test> {
        tests
            .iter()
            .filter(|test| test.collected())
            .cloned()
            .collect()
    };
    let (base_collected, head_collected) = (collected(&base_tests), collected(&head_tests));
    // Sets beside the ordered lists: a file holds thousands of tests, and every step here is
    // linear in them.
    let base_key_set: HashSet<&str> = base_keys.iter().copied().collect();
    let mut pairs: Vec<(&Test, String)> = Vec::new();
    let mut departed: Vec<&Test> = Vec::new();
    let mut judged: HashSet<&str> = HashSet::new();
    for test in base_tests.iter().filter(|test| test.collected()) {
        if !judged.insert(test.key.as_str()) {
            continue;
        }
        if head_keys.contains(test.key.as_str()) {
            pairs.push((test, test.key.clone()));
        } else if let Some(next) =
            inventory::successor(test, &head_tests, &base_keys, context.pair.path())
                .or_else(|| inventory::in_place_successor(test, &base_collected, &head_collected))
            && !base_key_set.contains(next.key.as_str())
        {
            pairs.push((test, next.key.clone()));
        } else {
            departed.push(test);
        }
    }
    let paired_heads: HashSet<&str> = pairs.iter().map(|(_, key)| key.as_str()).collect();
    let mut arrived: Vec<&Test> = Vec::new();
    let mut arrived_keys: HashSet<&str> = HashSet::new();
    for test in head_tests.iter().filter(|test| test.collected()) {
        if !base_key_set.contains(test.key.as_str())
            && !paired_heads.contains(test.key.as_str())
            && arrived_keys.insert(test.key.as_str())
        {
            arrived.push(test);
        }
    }
    // The checks of the tests new in this file, as written: a check removed from one test that
    // stands in a new one moved there (a test split in two, one half renamed in place).
    let mut in_new_tests: HashSet<String> = HashSet::new();
    if !departed.is_empty() || !arrived.is_empty() {
        let (departed, _) = with_assertions(context, Side::Base, &departed);
        let (arrived, functions) = with_assertions(context, Side::Head, &arrived);
        in_new_tests.extend(arrived.iter().flat_map(|traveller| {
            traveller
                .checks
                .assertions
                .iter()
                .filter(|assertion| assertion.strength > 0 && !assertion.dead)
                .map(|assertion| assertion.norm.clone())
        }));
        // A check removed from a test in another file that stands, as written, in a test new
        // here moved here (see [`moved_check`]); not into a file that may skip its tests.
        if !inventory::may_skip_tests(context.side(Side::Head).map_or("", |side| side.text)) {
            for norm in &in_new_tests {
                out.facts.push(super::context::Fact {
                    side: Side::Head,
                    name: CHECK_IN_NEW_TEST,
                    family: language.family(),
                    key: norm.clone(),
                    severity: Severity::Error,
                });
            }
        }
        out.handoffs.push(Box::new(Travellers {
            family: language.family(),
            departed,
            arrived,
            functions,
        }));
    }
    if pairs.is_empty() {
        return;
    }
    let siblings = split_siblings(&pairs, &arrived);
    let base_side: Vec<&Test> = pairs.iter().map(|(test, _)| *test).collect();
    let sibling_keys: HashSet<&str> = siblings
        .iter()
        .flat_map(|(_, keys)| keys.iter().map(String::as_str))
        .collect();
    let head_side: Vec<&Test> = head_tests
        .iter()
        .filter(|test| {
            test.collected()
                && (paired_heads.contains(test.key.as_str())
                    || sibling_keys.contains(test.key.as_str()))
        })
        .collect();
    let base = assertions::by_test(context, Side::Base, &base_side);
    // Only a check the paired base tests write once names what it checks: boilerplate
    // (`assert result.exit_code == 0`) in a new test says nothing about where one went.
    if inventory::may_skip_tests(context.side(Side::Head).map_or("", |side| side.text)) {
        in_new_tests.clear();
    }
    if !in_new_tests.is_empty() {
        let mut written: HashMap<&str, usize> = HashMap::new();
        for checks in base.by_test.values() {
            for assertion in &checks.assertions {
                *written.entry(assertion.norm.as_str()).or_default() += 1;
            }
        }
        in_new_tests.retain(|norm| written.get(norm.as_str()).is_some_and(|count| *count == 1));
    }
    let head = assertions::by_test(context, Side::Head, &head_side);
    let head_text = context.side(Side::Head).map_or("", |side| side.text);
    let base_text = context.side(Side::Base).map_or("", |side| side.text);
    let harness = HarnessSwitch::of(base_text, head_text);
    let delegated = if language.family() == "js" {
        let local: Vec<String> = head.functions.keys().cloned().collect();
        new_delegations(base_text, head_text, &local)
    } else {
        Vec::new()
    };
    // Per key, gathered once (a scan per pair was quadratic in a file's tests): the rows of
    // each side's tables, and the head test under each key.
    let (base_rows, head_rows) = (table_rows(&base_tests), table_rows(&head_tests));
    let mut head_by_key: HashMap<&str, &Test> = HashMap::new();
    for test in &head_side {
        head_by_key.entry(test.key.as_str()).or_insert(test);
    }
    let mut found: Vec<(String, Candidate)> = Vec::new();
    for (test, head_key) in &pairs {
        let (Some(before), Some(after)) = (base.by_test.get(&test.key), head.by_test.get(head_key))
        else {
            continue;
        };
        let doubt = depth_doubt(before.past_depth.as_ref(), after.past_depth.as_ref());
        let (before, after) = (&before.assertions, &after.assertions);
        // A test split into several (`.. meta` → `.. meta on success`, `.. meta on error`):
        // its checks are compared with theirs together.
        let mut after = after.clone();
        let split_into: Vec<&String> = siblings
            .iter()
            .filter(|(key, _)| *key == test.key)
            .flat_map(|(_, keys)| keys)
            .collect();
        for key in &split_into {
            after.extend(
                head.by_test
                    .get(*key)
                    .into_iter()
                    .flat_map(|checks| checks.assertions.iter().cloned()),
            );
        }
        // A test turned into a table (`#[rstest] #[case(..)]`, `@pytest.mark.parametrize`,
        // `it.each`): its one check now runs once per row, as the repeated checks did before.
        let no_rows = Vec::new();
        let rows_before = base_rows.get(test.key.as_str()).map_or(0, Vec::len);
        let rows = head_rows.get(head_key.as_str()).unwrap_or(&no_rows);
        let rows_after = rows.len();
        if rows_after >= 2 && rows_after > rows_before.max(1) {
            // Each row's values are what its checks compare with (`expect_value_eq(expected)`
            // with `#[case(.., table![["moe", 23]])]`): an exact check carries its row's text.
            let once = std::mem::take(&mut after);
            for row in rows {
                after.extend(once.iter().cloned().map(|mut assertion| {
                    if assertion.strength >= 2 {
                        assertion.norm = format!("{}|{}", assertion.norm, inventory::squash(row));
                    }
                    assertion
                }));
            }
        }
        let after = after.as_slice();
        let head_test = head_by_key.get(head_key.as_str()).copied();
        let head_body = head_test
            .and_then(|other| head_text.get(other.byte_range.clone()))
            .unwrap_or_default();
        let mut before = without_helpers_moved_away(before, &head.functions, head_body);
        if language == Language::Rust {
            let base_body = base_text.get(test.byte_range.clone()).unwrap_or_default();
            if returns_result(head_body) && !returns_result(base_body) {
                // The test now fails on any error it meets (`-> Result` with `?` or a returned
                // check): a check that only said "no error happened" is implied.
                before.retain(|assertion| !only_checks_no_error(&assertion.norm));
            }
        }
        let name = if test.key == *head_key {
            format!("`{}`", test.key)
        } else if split_into.is_empty() {
            format!("`{}` (renamed to `{head_key}`)", test.key)
        } else {
            format!(
                "`{}` (split into `{head_key}` and {} more)",
                test.key,
                split_into.len()
            )
        };
        let test_lines = test.test_lines;
        let lines_read_removed = base_text
            .get(test.byte_range.clone())
            .map(|body| removed_lines_read_removed(body, test_lines.0, context))
            .unwrap_or_default();
        let helpers: BTreeSet<&str> = before
            .iter()
            .flat_map(|assertion| assertion.via.iter().map(String::as_str))
            .collect();
        let head_reads: std::borrow::Cow<str> = if helpers.is_empty() {
            head_body.into()
        } else {
            let mut reads = head_body.to_string();
            for text in helpers
                .iter()
                .filter_map(|helper| head.functions.get(*helper))
            {
                reads.push('\n');
                reads.push_str(text);
            }
            reads.into()
        };
        let evidence = Evidence {
            head_body,
            head_reads: &head_reads,
            in_new_tests: &in_new_tests,
            family: language.family(),
            gone: context.removed(),
            lines_read_removed,
            harness: &harness,
        };
        let judged = compare(&name, &before, after, &evidence);
        let line = head_test.map_or(test.line, |other| other.line);
        if let Some(mut candidate) = judge_depth(judged, doubt.as_deref(), &name, line) {
            if let Some(helper) = delegated.first() {
                candidate.severity = candidate.severity.min(Severity::Warning);
                candidate.message.push_str(&format!(
                    " (the file now hands the test context to `{helper}(t, ..)`, which is not defined in this file and may check them)"
                ));
            }
            // A revert gives the test back the code it had before the reverted commit: the
            // checks that commit added go with the behaviour it added.
            if let Some(reverted) = context.pair.reverted.as_deref()
                && candidate.severity == Severity::Error
                && head_body.lines().count() > 1
                && !reverted.added(head_body)
            {
                candidate.severity = Severity::Warning;
                candidate.message.push_str(&format!(
                    "; the change reverts commit {}, and the test is as it was before it",
                    reverted.commit
                ));
            }
            found.push((
                name,
                Candidate {
                    key: test.key.clone(),
                    ..candidate
                },
            ));
        }
    }
    out.candidates.extend(merge_shared_reports(found));
}

/// The cross-file fact naming a check, as written, of a test new in a changed file.
const CHECK_IN_NEW_TEST: &str = "check-in-new-test";

/// A test's one removed check, `removed`, moved when it stands as written in a test new in
/// another changed file (`with pytest.raises(NotImplementedError, match="..does not implement
/// 'peek'")` gathered into one new `test_peek_unsupported`). Only a check that quotes what it
/// checks, a message of 16 letters or more: `assert result.exit_code == 0` in a new test
/// elsewhere checks another `result`, even where this file's base wrote it once.
fn moved_check(removed: &Assertion, family: &'static str) -> Option<Moved> {
    let specific = crate::rules::likeness::literals_of(&removed.norm)
        .iter()
        .any(|literal| literal.chars().filter(|c| c.is_alphabetic()).count() >= 16);
    (specific && !family.is_empty()).then(|| Moved {
        family,
        key: removed.norm.clone(),
        already: super::context::FactRef::head(CHECK_IN_NEW_TEST),
        existed: None,
        also: Vec::new(),
        print: None,
        likely: Vec::new(),
    })
}

/// For each test renamed in this file, the other new tests that carry its name further
/// (`should pass meta` → `should pass meta on success`, `should pass meta on error`): the test
/// was split, and its checks live on across them. Only names of ten characters or more, so a
/// short name (`works`) does not collect every new test.
fn split_siblings(pairs: &[(&Test, String)], arrived: &[&Test]) -> Vec<(String, Vec<String>)> {
    let last = |key: &str| key.rsplit(KEY_SEPARATOR).next().unwrap_or(key).to_string();
    pairs
        .iter()
        .filter(|(test, head_key)| test.key != *head_key)
        .filter_map(|(test, head_key)| {
            let old = last(&test.key);
            if old.chars().count() < 10 {
                return None;
            }
            let keys: Vec<String> = arrived
                .iter()
                .filter(|other| other.key != *head_key && last(&other.key).starts_with(&old))
                .map(|other| other.key.clone())
                .collect();
            (!keys.is_empty()).then(|| (test.key.clone(), keys))
        })
        .collect()
}

/// Whether a Rust function's signature returns a `Result` (`-> Result`, `-> anyhow::Result<()>`,
/// `-> TestResult`).
fn returns_result(function: &str) -> bool {
    let signature = function.split('{').next().unwrap_or_default();
    signature
        .rsplit_once("->")
        .is_some_and(|(_, returned)| returned.contains("Result"))
}

/// A Rust check that only says no error happened: `assert!(out.err.is_empty())`,
/// `assert!(out.status.success())`, `assert!(r.is_ok())`, `assert_eq!(out.err, "")`.
fn only_checks_no_error(norm: &str) -> bool {
    let inner = norm
        .strip_prefix("assert!(")
        .or_else(|| norm.strip_prefix("assert_eq!("))
        .map(|rest| {
            let rest = rest.strip_suffix(';').unwrap_or(rest);
            rest.strip_suffix(')').unwrap_or(rest)
        })
        .unwrap_or_default();
    let subject = inner.split(',').next().unwrap_or_default();
    // `assert!(!out.err.contains("no valid path"))`, `assert!(!out.out.contains("error"))`:
    // the error stream lacks a given error, or the output lacks the word.
    let lacks_an_error = subject.strip_prefix('!').is_some_and(|negated| {
        negated.contains(".err.contains(")
            || negated.ends_with(".contains(\"error\")")
            || negated.ends_with(".contains(\"Error\")")
    });
    (norm.starts_with("assert!(") && lacks_an_error)
        || (norm.starts_with("assert!(")
            && (subject.ends_with(".err.is_empty()")
                || subject.ends_with(".err.trim().is_empty()")
                || subject.ends_with(".status.success()")
                || subject.ends_with(".is_ok()")))
        || (norm.starts_with("assert_eq!(")
            && subject.ends_with(".err")
            && inner.split(',').nth(1) == Some("\"\""))
        || (norm.starts_with("assert_eq!(")
            && subject.ends_with(".err.len()")
            && inner.split(',').nth(1) == Some("0"))
}

/// One report for several tests weakened by the same edit (a shared helper or ava macro lost an
/// assertion): same place, same side, same strength. One edit is one finding, naming every test
/// it touches and each distinct way it weakened them (tests calling the helper a different
/// number of times read as different reasons, but the cause is the one line).
fn merge_shared_reports(found: Vec<(String, Candidate)>) -> Vec<Candidate> {
    let mut merged: Vec<(Vec<String>, Vec<String>, Candidate)> = Vec::new();
    for (label, candidate) in found {
        let reasons = candidate
            .message
            .strip_prefix(&format!("{label}: "))
            .unwrap_or(&candidate.message)
            .to_string();
        match merged.iter_mut().find(|(_, _, other)| {
            other.side == candidate.side
                && other.line == candidate.line
                && other.severity == candidate.severity
                && other.confidence == candidate.confidence
                && other.moved == candidate.moved
        }) {
            Some((labels, all_reasons, _)) => {
                labels.push(label);
                if !all_reasons.contains(&reasons) {
                    all_reasons.push(reasons);
                }
            }
            None => merged.push((vec![label], vec![reasons], candidate)),
        }
    }
    merged
        .into_iter()
        .map(|(labels, reasons, candidate)| {
            if labels.len() == 1 {
                return candidate;
            }
            let shown = if labels.len() > 4 {
                format!(
                    "{} and {} more tests",
                    labels[..3].join(", "),
                    labels.len() - 3
                )
            } else {
                let (last, rest) = labels
                    .split_last()
                    .map_or((String::new(), &[][..]), |(l, r)| (l.clone(), r));
                format!("{} and {last}", rest.join(", "))
            };
            let reasons = match reasons.len() {
                1 => reasons[0].clone(),
                _ => format!(
                    "{} (in the first; the others lose checks at this line too)",
                    reasons[0]
                ),
            };
            Candidate {
                message: format!("{shown} (through shared code): {reasons}"),
                ..candidate
            }
        })
        .collect()
}

/// Base assertions minus those counted through a same-file helper that head no longer defines
/// in this file while the test (or the helper before it in the chain) still calls it, or passes
/// it as its implementation: the helper moved to a shared module, so its assertions are out of
/// sight on the head side, not gone. A helper still defined here keeps its assertions counted,
/// also when it lost them all.
fn without_helpers_moved_away(
    before: &[Assertion],
    head_functions: &HashMap<String, String>,
    head_body: &str,
) -> Vec<Assertion> {
    before
        .iter()
        .filter(|assertion| !moved_away(&assertion.via, head_functions, head_body))
        .cloned()
        .collect()
}

/// Whether a chain of helpers (`a` calls `b`, which asserts) leads, in head, to a helper that
/// is still called but no longer defined in the file.
fn moved_away(via: &[String], head_functions: &HashMap<String, String>, head_body: &str) -> bool {
    let mut caller = head_body;
    for (index, helper) in via.iter().enumerate() {
        let called = assertions::calls(caller, helper) > 0
            || (index == 0 && passes_by_name(head_body, helper));
        if !called {
            return false;
        }
        match head_functions.get(helper) {
            Some(text) => caller = text,
            None => return true,
        }
    }
    false
}

/// Why a test's count is uncertain: on one side or both its helpers go deeper than followed,
/// and what lies past the cut is not the same on both sides (edited, or cut at another place).
/// The chain cut, for the message.
fn depth_doubt(before: Option<&PastDepth>, after: Option<&PastDepth>) -> Option<String> {
    if before.map(|past| &past.functions) == after.map(|past| &past.functions) {
        return None;
    }
    let chain = &before.or(after)?.chain;
    Some(
        chain
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(" → "),
    )
}

/// A comparison's result once the helper depth bound is taken into account: when checks lie
/// past the bound and differ between the sides, a reported weakening is a guess, and a silent
/// comparison is not a pass: it is said, as a guess, that the deep checks were not compared.
fn judge_depth(
    judged: Option<Candidate>,
    doubt: Option<&str>,
    label: &str,
    head_line: u32,
) -> Option<Candidate> {
    let Some(chain) = doubt else {
        return judged;
    };
    let note = format!(
        "its checks run through helpers nested more than {} calls deep ({chain}), and the change edits the helpers past that depth, which were not counted",
        assertions::HELPER_DEPTH
    );
    Some(match judged {
        Some(candidate) => Candidate {
            message: format!("{}; {note}", candidate.message),
            confidence: crate::finding::Confidence::Likely,
            ..candidate
        },
        None => Candidate {
            side: Side::Head,
            line: head_line,
            end_line: head_line,
            severity: Severity::Error,
            message: format!("{label}: possibly weakened: {note}"),
            key: String::new(),
            moved: None,
            confidence: crate::finding::Confidence::Likely,
        },
    })
}

/// Functions outside this file that head hands the test context to more often than base did
/// (`await runErrorSubprocess(t, verbose)`): ava and tap helpers that receive `t` run their own
/// assertions, which this file-level comparison cannot see. Evidence that removed assertions
/// moved there, so a count drop next to one is a warning rather than an error.
fn new_delegations(base: &str, head: &str, local_helpers: &[String]) -> Vec<String> {
    static CALL_WITH_CONTEXT: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| {
            regex::Regex::new(r"(?:^|[^\w.$])([A-Za-z_$][\w$]*)\(\s*t\s*[,)]").ok()
        });
    let Some(pattern) = CALL_WITH_CONTEXT.as_ref() else {
        return Vec::new();
    };
    let count = |text: &str| {
        let mut found: std::collections::BTreeMap<String, usize> = Default::default();
        for captures in pattern.captures_iter(text) {
            if let Some(name) = captures.get(1) {
                *found.entry(name.as_str().to_string()).or_default() += 1;
            }
        }
        found
    };
    let before = count(base);
    count(head)
        .into_iter()
        .filter(|(name, times)| {
            !local_helpers.contains(name)
                && !defines(head, name)
                && !matches!(name.as_str(), "test" | "it" | "describe")
                && *times > before.get(name).copied().unwrap_or(0)
        })
        .map(|(name, _)| name)
        .collect()
}

/// Whether `text` defines a function or constant `name` itself.
fn defines(text: &str, name: &str) -> bool {
    ["function ", "function* ", "const ", "let ", "var "]
        .iter()
        .any(|keyword| {
            text.match_indices(&format!("{keyword}{name}"))
                .any(|(index, found)| {
                    !text[index + found.len()..]
                        .starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
                })
        })
}

/// Whether a test call passes `name` as an argument (an ava macro: `test('t', name, 1)`).
fn passes_by_name(body: &str, name: &str) -> bool {
    body.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .any(|token| token == name)
        && !body.contains(&format!("{name}("))
}

/// The tests that left one file (base side) or arrived in it (head side), with their
/// assertions, handed to [`moved_between_files`].
struct Travellers {
    family: &'static str,
    departed: Vec<Traveller>,
    arrived: Vec<Traveller>,
    /// Same-file functions (by name, with their text) on the side the travellers were read
    /// from.
    functions: HashMap<String, String>,
}

/// One test that left or arrived, with its assertions and its source text.
struct Traveller {
    test: Test,
    checks: TestChecks,
    text: String,
}

fn with_assertions(
    context: &FileContext<'_>,
    side: Side,
    tests: &[&Test],
) -> (Vec<Traveller>, HashMap<String, String>) {
    if tests.is_empty() {
        return (Vec::new(), HashMap::new());
    }
    let mut found = assertions::by_test(context, side, tests);
    let source = context.side(side).map_or("", |text| text.text);
    let travellers = tests
        .iter()
        .map(|test| Traveller {
            test: (*test).clone(),
            checks: found.by_test.remove(&test.key).unwrap_or_default(),
            text: source
                .get(test.byte_range.clone())
                .unwrap_or_default()
                .to_string(),
        })
        .collect();
    (travellers, found.functions)
}

/// A test that left one file and arrived in another under the same identity is compared like a
/// test that stayed: moving a test and dropping its
/// assertions in the same change must not hide the weakening. The same identity alone is not
/// enough, because names such as `test_init` recur across files: the bodies must still share
/// most of their code, or the new one must be the old one with lines removed.
fn moved_between_files(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let travellers: Vec<(usize, &Travellers)> = input
        .handoffs
        .iter()
        .filter_map(|(index, handoff)| Some((*index, handoff.downcast_ref::<Travellers>()?)))
        .collect();
    for (from, gone_from) in &travellers {
        for old in &gone_from.departed {
            let arrivals: Vec<(usize, &Traveller, &Travellers)> = travellers
                .iter()
                .filter(|(to, came_to)| to != from && came_to.family == gone_from.family)
                .flat_map(|(to, came_to)| {
                    came_to
                        .arrived
                        .iter()
                        .map(move |traveller| (*to, traveller, *came_to))
                })
                .collect();
            // Only the same identity: a test renamed while it moves is a deletion by
            // `deleted-test`'s cross-file rule, and the two rules must not disagree.
            let mut found = arrivals.iter().filter(|(_, new, _)| {
                new.test.key == old.test.key && carries_on(&old.test, &new.test)
            });
            let (Some((to, new, came_to)), None) = (found.next(), found.next()) else {
                continue;
            };
            let path = input
                .pairs
                .get(*to)
                .map(|pair| pair.path())
                .unwrap_or_default();
            let label = format!("`{}` (moved to `{path}`)", new.test.key);
            let before =
                without_helpers_moved_away(&old.checks.assertions, &came_to.functions, &new.text);
            let doubt = depth_doubt(
                old.checks.past_depth.as_ref(),
                new.checks.past_depth.as_ref(),
            );
            let no_new_tests = HashSet::new();
            let harness = HarnessSwitch::default();
            let evidence = Evidence {
                head_body: &new.text,
                head_reads: &new.text,
                in_new_tests: &no_new_tests,
                family: "",
                gone: Removed::none(),
                lines_read_removed: None,
                harness: &harness,
            };
            let judged = compare(&label, &before, &new.checks.assertions, &evidence);
            if let Some(candidate) = judge_depth(judged, doubt.as_deref(), &label, new.test.line) {
                let index = if candidate.side == Side::Base {
                    *from
                } else {
                    *to
                };
                out.candidates.push((
                    index,
                    Candidate {
                        key: old.test.key.clone(),
                        ..candidate
                    },
                ));
            }
        }
    }
}

/// Whether the test `new` (same identity, another file) is `old` carried over: at least half
/// of their code shared, or `new` made of `old`'s lines with some removed.
fn carries_on(old: &Test, new: &Test) -> bool {
    inventory::similar_bodies(&old.body, &new.body)
        || inventory::contains_body(&new.body, &old.body)
        || inventory::token_overlap(&old.body, &new.body)
            .is_some_and(|(shared, total)| inventory::dice_at_least(shared, total, 50))
}

/// Words that say nothing about what an assertion is about.
const STOP_WORDS: &[&str] = &[
    "assert",
    "not",
    "is",
    "in",
    "None",
    "True",
    "False",
    "true",
    "false",
    "null",
    "undefined",
    "expect",
    "self",
    "toBe",
    "toEqual",
    "await",
    "and",
    "or",
    "assert_eq",
    "assert_ne",
    "assertEqual",
    "assertTrue",
    "assertFalse",
    "to",
    "be",
    "t",
    "tt",
    "truthy",
    "falsy",
    "ok",
    "deepEqual",
    "equal",
    "strictEqual",
    "same",
    "like",
];

/// The identifiers and literals an assertion talks about.
fn subject_tokens(assertion: &Assertion) -> Vec<&str> {
    assertion
        .norm
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|token| !token.is_empty() && !STOP_WORDS.contains(token))
        .collect()
}

/// How alike two assertions' subjects are: shared tokens over all distinct tokens, in
/// thousandths (0 = nothing shared), so a close rewrite beats a long unrelated check that
/// happens to mention the same variable.
fn shared_tokens(old: &Assertion, new: &Assertion) -> usize {
    let mut old_tokens = subject_tokens(old);
    let mut new_tokens = subject_tokens(new);
    old_tokens.sort_unstable();
    old_tokens.dedup();
    new_tokens.sort_unstable();
    new_tokens.dedup();
    let shared = old_tokens.iter().filter(|t| new_tokens.contains(t)).count();
    let union = old_tokens.len() + new_tokens.len() - shared;
    (shared * 1000).checked_div(union).unwrap_or(0)
}

/// Removed and added assertions paired: first the pairs of the same family that share the
/// most subject tokens (`assert x == 42` ↔ `assert x`), then leftover raise checks and
/// `expect.assertions` with each other, then leftovers with trivially true additions. An
/// unrelated replacement is not a pair: it is judged by the count.
fn pair<'a>(
    removed: &[&'a Assertion],
    added: &[&'a Assertion],
) -> (
    Vec<(&'a Assertion, &'a Assertion)>,
    Vec<&'a Assertion>,
    Vec<&'a Assertion>,
) {
    let mut scored: Vec<(usize, usize, usize)> = Vec::new();
    for (i, old) in removed.iter().enumerate() {
        for (j, new) in added.iter().enumerate() {
            let shared = shared_tokens(old, new);
            if old.family == new.family && shared > 0 {
                scored.push((shared, i, j));
            }
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut old_used = vec![false; removed.len()];
    let mut new_used = vec![false; added.len()];
    let mut pairs = Vec::new();
    let take =
        |i: usize, j: usize, pairs: &mut Vec<_>, old_used: &mut [bool], new_used: &mut [bool]| {
            old_used[i] = true;
            new_used[j] = true;
            pairs.push((removed[i], added[j]));
        };
    for (_, i, j) in scored {
        if !old_used[i] && !new_used[j] {
            take(i, j, &mut pairs, &mut old_used, &mut new_used);
        }
    }
    for i in 0..removed.len() {
        if old_used[i] {
            continue;
        }
        let fits = |new: &Assertion| match removed[i].family {
            Family::Check => new.strength == 0,
            family => new.family == family,
        };
        if let Some(j) = (0..added.len()).find(|j| !new_used[*j] && fits(added[*j])) {
            take(i, j, &mut pairs, &mut old_used, &mut new_used);
        }
    }
    let left_old = (0..removed.len())
        .filter(|i| !old_used[*i])
        .map(|i| removed[i])
        .collect();
    let left_new = (0..added.len())
        .filter(|j| !new_used[*j])
        .map(|j| added[j])
        .collect();
    (pairs, left_old, left_new)
}

/// `expect(subject).matchers(..)` split into the subject and the rest (`.toBe(1)`).
fn expect_parts(norm: &str) -> Option<(&str, &str)> {
    let rest = norm.strip_prefix("await").unwrap_or(norm);
    split_call(rest.strip_prefix("expect(")?)
}

/// Whether `other` (an assertion in the head test) checks everything the removed `part` did:
/// the whole value pinned, a field of it dereferenced, or its length pinned.
fn implied_by(other: &Assertion, part: &Assertion) -> bool {
    part.family == Family::Check
        && other.family == Family::Check
        && (removes_container(other, part)
            || other.strength >= 2
                && (pins_whole_value_of(other, part)
                    || pins_every_call_of(other, part)
                    || dereferences(other, part)
                    || pins_length_beyond(other, part)
                    || pins_the_literals_of(other, part)
                    || pins_length_through_a_projection(other, part)))
}

/// A length check (`assert len(dirs) == 2`, `expect(items).toHaveLength(2)`,
/// `assert_eq!(rows.len(), 2)`) is implied by an exact list of what each element projects to
/// (`assert [d.name for d in dirs] == ['build', 'test']`,
/// `expect(items.map(i => i.name)).toEqual(['a', 'b'])`,
/// `assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), vec![1, 2])`): one element per
/// element, so the list's length is the value's.
fn pins_length_through_a_projection(exact: &Assertion, length: &Assertion) -> bool {
    let Some(measured) = length_subject(&length.norm) else {
        return false;
    };
    projected_list(exact).is_some_and(|(projected, expected)| {
        projected == measured && !expected.contains("ANY") && !expected.contains("expect.")
    })
}

/// The value whose length a check pins: `dirs` in `assertlen(dirs)==2`,
/// `expect(items).toHaveLength(2)`, `expect(items.length).toBe(2)`,
/// `assert_eq!(rows.len(),2)` (whitespace-free forms).
fn length_subject(norm: &str) -> Option<&str> {
    let number = |text: &str| !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit());
    if let Some((subject, matcher)) = expect_parts(norm) {
        let count = |name: &str| {
            matcher
                .trim_end_matches(';')
                .strip_prefix(name)
                .and_then(|rest| rest.strip_suffix(')'))
                .is_some_and(number)
        };
        if count(".toHaveLength(") {
            return Some(subject);
        }
        return subject
            .strip_suffix(".length")
            .filter(|_| count(".toBe(") || count(".toEqual(") || count(".toStrictEqual("));
    }
    if let Some((left, right)) = equality_operands(norm) {
        let (measured, count) = if number(right) {
            (left, right)
        } else {
            (right, left)
        };
        if !number(count) {
            return None;
        }
        return measured
            .strip_prefix("len(")
            .and_then(|rest| rest.strip_suffix(')'))
            .or_else(|| measured.strip_suffix(".len()"));
    }
    None
}

/// The two sides of `assert_eq!(a,b)` or Python's `assert a==b` (whitespace-free forms).
fn equality_operands(norm: &str) -> Option<(&str, &str)> {
    if let Some(args) = norm.strip_prefix("assert_eq!(") {
        let args = args.trim_end_matches(';').strip_suffix(')')?;
        return match top_level_split(args, ',').as_slice() {
            [left, right] | [left, right, _] => Some((*left, *right)),
            _ => None,
        };
    }
    let condition = norm.strip_prefix("assert")?;
    let condition = top_level_split(condition, ',')[0];
    match top_level_split(condition, '=').as_slice() {
        [left, "", right] => Some((*left, *right)),
        _ => None,
    }
}

/// The value an exact check's list projects element by element, and the expected list:
/// `dirs` and `['build','test']` in `assert [d.name for d in sorted(dirs)] == ['build', 'test']`.
fn projected_list(exact: &Assertion) -> Option<(String, &str)> {
    let (projection, expected) = if let Some((subject, matcher)) = expect_parts(&exact.norm) {
        let expected = [".toEqual(", ".toStrictEqual("]
            .iter()
            .find_map(|name| matcher.trim_end_matches(';').strip_prefix(name))?
            .strip_suffix(')')?;
        (subject, expected)
    } else {
        equality_operands(&exact.norm)?
    };
    let list = |text: &str| {
        let text = text.strip_prefix("vec!").unwrap_or(text);
        text.starts_with('[') && text.ends_with(']')
    };
    let (projection, expected) = if list(expected) {
        (projection, expected)
    } else if list(projection) {
        (expected, projection)
    } else {
        return None;
    };
    projected_value(projection, &exact.first_line).map(|value| (value, expected))
}

/// A name or a dotted path (`items`, `self.rows`), not a literal or a call.
fn plain_name(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// `dirs` in `[d.name for d in dirs]`, `sorted(dirs)`, `list(dirs)`, `[...items]`,
/// `items.map(..)`, `rows.iter().map(..).collect::<Vec<_>>()`. A comprehension is read from
/// the written text, whose spaces the whitespace-free form lost.
fn projected_value(projection: &str, written: &str) -> Option<String> {
    static COMPREHENSION: OnceLock<Option<Regex>> = OnceLock::new();
    let unwrapped = |text: &str| -> String {
        ["sorted(", "list(", "tuple(", "reversed("]
            .iter()
            .find_map(|wrapper| text.strip_prefix(wrapper)?.strip_suffix(')'))
            .unwrap_or(text)
            .to_string()
    };
    if let Some(spread) = projection
        .strip_prefix("[...")
        .and_then(|rest| rest.strip_suffix(']'))
    {
        return plain_name(spread).then(|| spread.to_string());
    }
    if projection.starts_with('[') {
        let comprehension = COMPREHENSION.get_or_init(|| {
            Regex::new(
                r"\[[^\[\]]*\sfor\s+\w+(?:\s*,\s*\w+)*\s+in\s+(?:(?:sorted|list|tuple|reversed)\(\s*([\w.]+)\s*\)|([\w.]+))\s*\]",
            )
            .ok()
        });
        let found = comprehension.as_ref()?.captures(written)?;
        let iterable = found.get(1).or_else(|| found.get(2))?.as_str();
        return plain_name(iterable).then(|| iterable.to_string());
    }
    let inner = unwrapped(projection);
    if inner != projection && plain_name(&inner) {
        return Some(inner);
    }
    // The map is the last step (a `filter` or `slice` after it breaks one-to-one), before
    // Rust's `collect`.
    let (root, rest) = projection.split_once(".map(")?;
    let after = after_call(rest)?;
    let root = if let Some(root) = root
        .strip_suffix(".iter()")
        .or_else(|| root.strip_suffix(".into_iter()"))
    {
        after.starts_with(".collect").then_some(root)?
    } else {
        after.is_empty().then_some(root)?
    };
    plain_name(root).then(|| root.to_string())
}

/// What follows the call whose arguments `rest` starts inside (after its `(`).
fn after_call(rest: &str) -> Option<&str> {
    split_call(rest).map(|(_, after)| after)
}

/// The arguments of the call whose `(` `rest` starts after, and what follows its `)`.
fn split_call(rest: &str) -> Option<(&str, &str)> {
    let mut depth = 1usize;
    for (index, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&rest[..index], &rest[index + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `assert "group" not in content` (`expect(content).not.toHaveProperty('group')`) covers
/// `assert "baz" not in content["group"]["bar"]`: the key whose contents the old check read is
/// now checked to be gone, which says more (and the old check could not even run).
fn removes_container(absent: &Assertion, part: &Assertion) -> bool {
    static PYTHON: OnceLock<Option<Regex>> = OnceLock::new();
    static JS: OnceLock<Option<Regex>> = OnceLock::new();
    let (Some(python), Some(js)) = (
        PYTHON.get_or_init(|| {
            Regex::new(r#"^assert\s+(?:"([\w.-]+)"|'([\w.-]+)')\s+not\s+in\s+([\w.]+)\s*$"#).ok()
        }),
        JS.get_or_init(|| {
            Regex::new(r#"^expect\(([\w.]+)\)\.not\.toHaveProperty\((?:"([\w-]+)"|'([\w-]+)')\)"#)
                .ok()
        }),
    ) else {
        return false;
    };
    let text = absent.first_line.trim().trim_end_matches(';');
    let (root, key) = if let Some(found) = python.captures(text) {
        let key = found.get(1).or_else(|| found.get(2)).map(|m| m.as_str());
        (found.get(3).map(|m| m.as_str()), key)
    } else if let Some(found) = js.captures(text) {
        let key = found.get(2).or_else(|| found.get(3)).map(|m| m.as_str());
        (found.get(1).map(|m| m.as_str()), key)
    } else {
        return false;
    };
    let (Some(root), Some(key)) = (root, key) else {
        return false;
    };
    let part_text = part.first_line.as_str();
    [
        format!("{root}[\"{key}\"]"),
        format!("{root}['{key}']"),
        format!("{root}.{key}."),
        format!("{root}.{key}["),
        format!("{root}?.{key}"),
    ]
    .iter()
    .any(|reads| {
        part_text.match_indices(reads.as_str()).any(|(at, _)| {
            !part_text[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
    })
}

/// `expect(fn.mock.calls).toEqual([[a], [b]])` pins every call of the mock, so
/// `expect(fn).toHaveBeenCalledWith(a)`, `toHaveBeenCalledTimes(2)` and the like are implied.
fn pins_every_call_of(whole: &Assertion, part: &Assertion) -> bool {
    let (Some((outer, matcher)), Some((inner, called))) =
        (expect_parts(&whole.norm), expect_parts(&part.norm))
    else {
        return false;
    };
    let exact = [".toEqual(", ".toStrictEqual(", ".toMatchInlineSnapshot("]
        .iter()
        .any(|name| matcher.starts_with(name));
    exact
        && !matcher.contains("expect.")
        && outer.strip_suffix(".mock.calls") == Some(inner)
        && (called.starts_with(".toHaveBeenCalled")
            || called.starts_with(".toHaveBeenLastCalledWith")
            || called.starts_with(".toHaveBeenNthCalledWith"))
}

/// Whether a check that a text holds (or lacks) some strings (`assert!(out.contains("moe"))`,
/// `expect(s).toContain('x')`) is covered by an exact check whose expected value holds (or
/// lacks) every one of them (`expect_value_eq(table![[name]; ["moe"]])`,
/// `assert_eq!(out, "moe 23")`).
fn pins_the_literals_of(exact: &Assertion, loose: &Assertion) -> bool {
    if !checks_a_substring(loose) || exact.norm.contains(".contains(") {
        return false;
    }
    // About the same value: the same subject (`out`), or a table row's expected value
    // (`expect_value_eq(expected)` with the row's text attached, see above).
    let from_row = exact.norm.contains('|');
    if !from_row && subject_root(&exact.norm) != subject_root(&loose.norm) {
        return false;
    }
    // `!out.contains("error")`: the exact value pins its absence when it does not hold it.
    let negated = loose.norm.starts_with("assert!(!") || loose.norm.contains(".not.");
    let literals = quoted(&loose.norm);
    !literals.is_empty()
        && literals.iter().all(|literal| {
            literal.chars().count() >= 2 && exact.norm.contains(literal.as_str()) != negated
        })
}

/// `assert!(out.contains("x"))`, `expect(s).toContain('x')`, `assertIn('x', s)`.
fn checks_a_substring(assertion: &Assertion) -> bool {
    [".contains(", ".includes(", ".toContain(", "assertIn("]
        .iter()
        .any(|call| assertion.norm.contains(call))
}

/// The first name an assertion reads (`out` in `assert!(!out.err.contains(..))`,
/// `assert_eq!(out.text, ..)` and `expect(out).toContain(..)`).
fn subject_root(norm: &str) -> &str {
    let rest = norm
        .split_once('(')
        .map_or(norm, |(_, rest)| rest)
        .trim_start_matches(['!', '&', '*', '(']);
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The double- or single-quoted strings in a (whitespace-free) assertion.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            let literal: String = chars.by_ref().take_while(|other| *other != c).collect();
            out.push(literal);
        }
    }
    out
}

/// Whether `whole` pins the entire value that `part` checked (a field of): field checks folded
/// into one snapshot or whole-object comparison (`expect(r.problems[0].code).toBe("x")` into
/// `expect(r.problems[0]).toMatchInlineSnapshot(..)` or `expect(r).toEqual({..})`), or loose
/// checks on the value itself (`toBeDefined()`, `toHaveProperty('pages')`) replaced by one
/// exact equality on it (`expect(data).toEqual({pages: [..], pageParams: [0]})`).
fn pins_whole_value_of(whole: &Assertion, part: &Assertion) -> bool {
    // All but the last are exact on every field, so they cover any check on the value itself;
    // `toMatchObject` pins the fields it names.
    const WHOLE_VALUE: &[&str] = &[
        ".toEqual(",
        ".toStrictEqual(",
        ".toMatchInlineSnapshot(",
        ".toMatchSnapshot(",
        ".toMatchObject(",
    ];
    let exact_value = &WHOLE_VALUE[..WHOLE_VALUE.len() - 1];
    let (Some((outer, matcher)), Some((inner, _))) =
        (expect_parts(&whole.norm), expect_parts(&part.norm))
    else {
        return pins_named_value_of(whole, part);
    };
    // An asymmetric matcher in the expected value (`p: expect.any(Promise)`) leaves that part
    // unpinned, so it covers no check on a field of the value.
    let deeper = derived_from(inner, outer) && !matcher.contains("expect.");
    (deeper && WHOLE_VALUE.iter().any(|name| matcher.starts_with(name)))
        || (inner == outer && exact_value.iter().any(|name| matcher.starts_with(name)))
}

/// Python and Rust: `assert parts == snapshot([..])`, `self.assertEqual(parts, [..])`,
/// `assert_eq!(parts, vec![..])` pin the whole of `parts`, so checks on its length, fields or
/// elements (`assert len(parts) == 1`, `assert parts[0].name == 'a'`,
/// `assert_eq!(parts.len(), 1)`) are implied. Not when the expected value holds a wildcard
/// (`ANY`, dirty-equals `IsStr()`), which leaves some part unpinned.
fn pins_named_value_of(whole: &Assertion, part: &Assertion) -> bool {
    let Some((name, expected)) = equality_sides(&whole.norm) else {
        return false;
    };
    let wildcard = expected.contains("ANY")
        || expected.match_indices("Is").any(|(index, _)| {
            expected[index + 2..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase())
        });
    if wildcard || part.norm == whole.norm {
        return false;
    }
    let checked = part.norm.strip_prefix("assert").unwrap_or(&part.norm);
    checked.match_indices(name).any(|(index, _)| {
        let before = checked[..index].chars().next_back();
        let after = &checked[index + name.len()..];
        let boundary = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        boundary
            && (after.starts_with(['.', '['])
                || (after.starts_with(')') && checked[..index].ends_with("len(")))
    })
}

/// The name and the expected value of an exact equality on a plain name or field path
/// (`assertparts==snapshot(..)`, `self.assertEqual(parts,..)`, `assert_eq!(parts,..)`, in
/// their whitespace-free form).
fn equality_sides(norm: &str) -> Option<(&str, &str)> {
    const EQUALITY_CALLS: &[&str] = &[
        "assert_eq!(",
        "self.assertEqual(",
        "assert.equal(",
        "assert.strictEqual(",
        "assert.deepEqual(",
        "assert.deepStrictEqual(",
    ];
    let (left, right) = if let Some(args) = EQUALITY_CALLS
        .iter()
        .find_map(|call| norm.strip_prefix(call))
    {
        let args = args.trim_end_matches(';').strip_suffix(')')?;
        let arguments = top_level_split(args, ',');
        (*arguments.first()?, *arguments.get(1)?)
    } else {
        let condition = norm.strip_prefix("assert")?;
        // `assert x == y, "message"`.
        let condition = top_level_split(condition, ',')[0];
        let sides = top_level_split(condition, '=');
        // `a==b` splits into `a`, ``, `b`.
        match sides.as_slice() {
            [left, "", right] => (*left, *right),
            _ => return None,
        }
    };
    if plain_name(left) && !right.is_empty() && right != left {
        Some((left, right))
    } else if plain_name(right) && !left.is_empty() && !plain_name(left) {
        Some((right, left))
    } else {
        None
    }
}

/// `text` split at `separator` outside brackets and quotes.
fn top_level_split(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut quote) = (0usize, 0usize, None::<char>);
    for (index, c) in text.char_indices() {
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, _) if c == separator && depth == 0 => {
                parts.push(&text[start..index]);
                start = index + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Whether the (whitespace-free) subject `inner` is read from the value `outer`: a field or
/// element of it (`x.a`, `x?.a`, `x!.a`, `x[0]`), through a type cast (`(x as any).a`), or
/// through a pure check of it (`Array.isArray(x.a)`, `Object.keys(x)`).
fn derived_from(inner: &str, outer: &str) -> bool {
    if outer.is_empty() {
        return false;
    }
    if let Some(rest) = inner.strip_prefix(outer) {
        return rest.starts_with(['.', '[', '!', '?']);
    }
    // `(x as T).a`, `(x[0] as any).a`: squashed, `(xasT).a`, `(x[0]asany).a`.
    if let Some(rest) = inner.strip_prefix('(')
        && let Some((cast, after)) = rest.split_once(')')
        && let Some(at) = cast.rfind("as")
        && cast[..at].starts_with(outer)
    {
        let uncast = format!("{}{after}", &cast[..at]);
        return uncast == outer || derived_from(&uncast, outer);
    }
    [
        "Array.isArray(",
        "Object.keys(",
        "Object.values(",
        "Object.entries(",
    ]
    .iter()
    .filter_map(|wrapper| inner.strip_prefix(wrapper)?.strip_suffix(')'))
    .any(|argument| argument == outer || derived_from(argument, outer))
}

/// Whether `other` reads a field of the value whose existence `part` checked and pins it to a
/// value, which fails unless the value exists: `expect(x).toBeDefined()` is implied by
/// `expect(x?.a).toBe(1)` or `expect(x!.a).toStrictEqual(v)`; `assert x is not None` by
/// `assert x.a == 1`. Not when `other` accepts a missing field (`toBeUndefined()`, `not.`).
fn dereferences(other: &Assertion, part: &Assertion) -> bool {
    const EXISTS: &[&str] = &[
        ".toBeDefined()",
        ".toBeTruthy()",
        ".not.toBeNull()",
        ".not.toBeUndefined()",
    ];
    const ACCEPTS_MISSING: &[&str] = &[
        ".toBeUndefined()",
        ".toBeFalsy()",
        ".toBeNull()",
        "(undefined)",
        "(null)",
        "isNone",
        "==None",
        "assertIsNone(",
    ];
    if part.strength != 1 || ACCEPTS_MISSING.iter().any(|tail| other.norm.contains(tail)) {
        return false;
    }
    if let Some((subject, matcher)) = expect_parts(&part.norm) {
        let Some((field, other_matcher)) = expect_parts(&other.norm) else {
            return false;
        };
        return EXISTS.contains(&matcher)
            && !other_matcher.starts_with(".not.")
            && field.strip_prefix(subject).is_some_and(|rest| {
                ["?.", ".", "!.", "[", "!["]
                    .iter()
                    .any(|separator| rest.starts_with(separator))
            });
    }
    // Python: `assert x is not None`, `self.assertIsNotNone(x)`.
    let subject = part
        .norm
        .strip_prefix("assert")
        .and_then(|rest| rest.strip_suffix("isnotNone"))
        .or_else(|| {
            part.norm
                .strip_prefix("self.assertIsNotNone(")
                .and_then(|rest| rest.strip_suffix(')'))
        })
        // `assert crawler.stats` before `assert crawler.stats.get_value(..) == 1`: a None
        // fails the later check too (the assert only narrowed the type for a checker).
        .or_else(|| bare_truth_subject(&part.norm));
    let Some(subject) = subject.filter(|subject| !subject.is_empty()) else {
        return false;
    };
    // Whitespace is squashed out of `norm`: `assertx.a==1` is read without its keyword.
    let checked = other.norm.strip_prefix("assert").unwrap_or(&other.norm);
    checked.match_indices(subject).any(|(index, _)| {
        let before = checked[..index].chars().next_back();
        let after = &checked[index + subject.len()..];
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && after.starts_with(['.', '['])
    })
}

/// Whether `text` is a plain name or attribute path (`crawler.engine`), not a call, an
/// expression or a negation.
fn dotted_name(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        && text.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && !text.starts_with("not")
}

/// The name or attribute path a bare Python truth check tests: `crawler.engine` of
/// `assert crawler.engine` (`norm`, whitespace squashed).
fn bare_truth_subject(norm: &str) -> Option<&str> {
    norm.strip_prefix("assert").filter(|rest| dotted_name(rest))
}

/// The attribute path a Python check only tests for truth or for not being `None`:
/// `crawler.engine` of `assert crawler.engine` or `assert crawler.engine is not None`.
fn narrowing_subject(assertion: &Assertion) -> Option<&str> {
    if assertion.family != Family::Check || assertion.strength != 1 {
        return None;
    }
    let tested = assertion.norm.strip_prefix("assert")?;
    let tested = tested.strip_suffix("isnotNone").unwrap_or(tested);
    Some(tested).filter(|rest| rest.contains('.') && dotted_name(rest))
}

/// Whether a quoted part of `check` (ten characters or more) stands in one of `patterns`, the
/// `match=` raise checks a test gained, their escapes dropped.
fn matched_now(check: &Assertion, patterns: &[String]) -> bool {
    !patterns.is_empty()
        && crate::rules::likeness::literals_of(&check.norm)
            .into_iter()
            .filter(|literal| literal.chars().count() >= 10)
            .any(|literal| patterns.iter().any(|pattern| pattern.contains(literal)))
}

/// The subject and the boolean of an exact check against a boolean literal: `t.is(x, true)`,
/// `expect(x).toBe(false)`, `assert.strictEqual(x, true)`, `assert_eq!(x, true)`,
/// `self.assertEqual(x, True)`, `assert x is True`, `assert x == False` (whitespace squashed).
fn boolean_compared(assertion: &Assertion) -> Option<(&str, bool)> {
    let (subject, value) = compared(assertion, |value| {
        matches!(value, "true" | "True" | "false" | "False")
    })?;
    Some((subject, matches!(value, "true" | "True")))
}

/// The subject and the value of an exact comparison whose value `accept`s, whitespace
/// squashed: `t.is(x, v)`, `assert.strictEqual(x, v)`, `assert_eq!(x, v)`,
/// `self.assertEqual(x, v)`, `self.assertIs(x, v)`, `expect(x).toBe(v)` (also `toEqual`,
/// `toStrictEqual`, `.resolves.toBe`), `assert x is v`, `assert x == v`.
fn compared(assertion: &Assertion, accept: impl Fn(&str) -> bool) -> Option<(&str, &str)> {
    let norm = assertion.norm.trim_end_matches(';');
    let norm = norm.strip_prefix("await").unwrap_or(norm);
    for opener in [
        "t.is(",
        "assert.strictEqual(",
        "assert.equal(",
        "assert_eq!(",
        "self.assertEqual(",
        "self.assertIs(",
    ] {
        if let Some(inner) = norm
            .strip_prefix(opener)
            .and_then(|rest| rest.strip_suffix(')'))
        {
            let (subject, value) = inner.trim_end_matches(',').rsplit_once(',')?;
            return accept(value).then_some((subject, value));
        }
    }
    let (rest, joints): (&str, &[&str]) = match norm.strip_prefix("expect(") {
        Some(rest) => (
            rest.strip_suffix(')')?,
            &[
                ").toBe(",
                ").toEqual(",
                ").toStrictEqual(",
                ").resolves.toBe(",
                ").resolves.toEqual(",
            ],
        ),
        None => (norm.strip_prefix("assert")?, &["is", "=="]),
    };
    joints.iter().find_map(|joint| {
        let (subject, value) = rest.rsplit_once(joint)?;
        accept(value).then_some((subject, value))
    })
}

/// The subject and the truth a truthiness check expects: `expect(x).toBeTruthy()` (`true`),
/// `.toBeFalsy()` (`false`), `t.truthy(x)`, `assert.ok(x)`, `assert!(x)`, `assert!(!x)`,
/// `self.assertTrue(x)`, `assert x`, `assert not x` (whitespace squashed).
fn truth_checked(assertion: &Assertion) -> Option<(&str, bool)> {
    let norm = assertion.norm.trim_end_matches(';');
    if let Some(rest) = norm.strip_prefix("expect(") {
        if let Some(subject) = rest.strip_suffix(").toBeTruthy()") {
            return Some((subject, true));
        }
        if let Some(subject) = rest.strip_suffix(").toBeFalsy()") {
            return Some((subject, false));
        }
        return None;
    }
    for (opener, value) in [
        ("t.truthy(", true),
        ("t.falsy(", false),
        ("assert.ok(", true),
        ("self.assertTrue(", true),
        ("self.assertFalse(", false),
        ("assert!(!", false),
        ("assert!(", true),
    ] {
        if let Some(subject) = norm
            .strip_prefix(opener)
            .and_then(|rest| rest.strip_suffix(')'))
        {
            return Some((subject, value));
        }
    }
    let tested = norm.strip_prefix("assert")?;
    match tested.strip_prefix("not") {
        Some(subject) => Some((subject, false)),
        None => Some((tested, true)),
    }
}

/// `t.is(x.success, true)` → `expect(x.success).toBeTruthy()`: the same value, compared with a
/// boolean before and checked for truth now. Weaker only where the value can be something
/// other than a boolean, which a reader of the product can tell and the gate cannot.
fn boolean_loosened(old: &Assertion, new: &Assertion) -> bool {
    // Trailing commas of a call spread over lines (`Value.Check(\n schema,\n row,\n)`) say
    // nothing.
    let unwrap = |subject: &str| {
        subject
            .trim_end_matches(',')
            .replace(",)", ")")
            .trim_matches(|c| c == '(' || c == ')')
            .to_string()
    };
    match (boolean_compared(old), truth_checked(new)) {
        (Some((before, expected)), Some((after, truth))) => {
            expected == truth && !before.is_empty() && unwrap(before) == unwrap(after)
        }
        _ => false,
    }
}

/// `expect(await page.evaluate(() => clients.size)).toBe(1)` →
/// `await expect(page.waitForFunction(() => clients.size === 1)).resolves.toBeTruthy()`
/// (msw cd528734): the exact comparison moved inside the subject, and the truth check holds
/// it. The old subject's last name must stand compared with the old literal.
fn comparison_moved_into_subject(old: &Assertion, new: &Assertion) -> bool {
    let Some((subject, value)) = exact_literal(old) else {
        return false;
    };
    let norm = new.norm.trim_end_matches(';');
    let norm = norm.strip_prefix("await").unwrap_or(norm);
    let truth = [".toBeTruthy()", ".toBe(true)", ".toEqual(true)"]
        .iter()
        .any(|end| norm.ends_with(end))
        || [
            "assert.ok(",
            "t.truthy(",
            "t.true(",
            "assert!(",
            "self.assertTrue(",
        ]
        .iter()
        .any(|start| norm.starts_with(start));
    // `size === 1 || true`, `size === 1 ? 1 : 0`: a comparison that no longer decides.
    if !truth || norm.contains("||") || norm.contains('?') {
        return false;
    }
    let name = subject
        .trim_end_matches([')', '}', ';', ','])
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .next()
        .unwrap_or_default();
    if name.is_empty() || name.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    ["===", "=="].iter().any(|op| {
        let compared = format!("{name}{op}{value}");
        norm.match_indices(&compared).any(|(at, _)| {
            norm[at + compared.len()..]
                .chars()
                .next()
                .is_none_or(|next| !(next.is_alphanumeric() || next == '_' || next == '.'))
        })
    })
}

/// The subject and the literal of an exact check against a literal (number, string, boolean,
/// null): `expect(x).toBe(1)`, `t.is(x, "a")`, `assert_eq!(x, 2)`, `assert x == 3` (squashed).
fn exact_literal(assertion: &Assertion) -> Option<(&str, &str)> {
    compared(assertion, |value| plain_literal(value).is_some())
        .map(|(subject, value)| (subject, value.trim_end_matches(',')))
}

/// `text` when it is a number, a quoted string, a boolean or null/None (trailing comma dropped).
fn plain_literal(text: &str) -> Option<&str> {
    let text = text.trim_end_matches(',');
    let quoted = text.len() >= 2
        && ['"', '\'', '`']
            .iter()
            .any(|q| text.starts_with(*q) && text.ends_with(*q));
    let number = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '-');
    (quoted || number || matches!(text, "true" | "false" | "null" | "True" | "False" | "None"))
        .then_some(text)
}

/// The call a Python check compares with `None`: `mw.scheduled(request)` of
/// `assert mw.scheduled(request) is None` (whitespace squashed, as in `norm`).
fn none_checked_call(assertion: &Assertion) -> Option<&str> {
    if assertion.family != Family::Check {
        return None;
    }
    let call = assertion
        .norm
        .strip_prefix("assert")?
        .strip_suffix("isNone")?;
    (call.ends_with(')') && call.contains('(') && !call.starts_with("not")).then_some(call)
}

/// Whether `squashed` (a test's text, whitespace removed) makes the call `call` other than
/// inside an `assert`.
fn still_called(squashed: &str, call: &str) -> bool {
    squashed
        .match_indices(call)
        .any(|(index, _)| !squashed[..index].ends_with("assert"))
}

/// Whether `body` reads `subject` other than in a bare `assert subject`: passes it on, reads a
/// field of it, returns it.
fn reads_value(body: &str, subject: &str) -> bool {
    body.match_indices(subject).any(|(index, _)| {
        let before = body[..index].chars().next_back();
        let after = body[index + subject.len()..].chars().next();
        let whole = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let line_start = body[..index].rfind('\n').map_or(0, |at| at + 1);
        let rest = &body[index + subject.len()..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let bare_assert =
            body[line_start..index].trim() == "assert" && rest[..line_end].trim().is_empty();
        whole && !bare_assert
    })
}

/// `expect(items[1]).toBeFalsy()` (or `toBeUndefined()`) is implied by a pinned length that
/// leaves no element there: `expect(items.length).toEqual(1)`, `expect(items).toHaveLength(1)`.
fn pins_length_beyond(other: &Assertion, part: &Assertion) -> bool {
    let Some((element, ".toBeFalsy()" | ".toBeUndefined()")) = expect_parts(&part.norm) else {
        return false;
    };
    let Some((array, index)) = element
        .strip_suffix(']')
        .and_then(|rest| rest.rsplit_once('['))
        .and_then(|(array, index)| Some((array, index.parse::<u64>().ok()?)))
    else {
        return false;
    };
    let Some((subject, matcher)) = expect_parts(&other.norm) else {
        return false;
    };
    let length = if subject == format!("{array}.length") {
        [".toBe(", ".toEqual(", ".toStrictEqual("]
            .iter()
            .find_map(|name| matcher.strip_prefix(name))
    } else if subject == array {
        matcher.strip_prefix(".toHaveLength(")
    } else {
        None
    };
    length
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|n| n.parse::<u64>().ok())
        .is_some_and(|n| n <= index)
}

/// What a removed check on an error (`result.exception`, `exit_code`) is, when the change
/// replaced result inspection by a raise check (`pytest.raises(.., match=..)`).
fn about_errors(assertion: &Assertion) -> bool {
    let text = assertion.norm.to_lowercase();
    ["exception", "exit_code", "error", "warn", "raise", "throw"]
        .iter()
        .any(|word| text.contains(word))
}

/// The call a JavaScript raise check expects to throw: `expect(() => parse(x)).toThrow()` →
/// `parse(x)`, whitespace removed.
fn raised_call(assertion: &Assertion) -> Option<String> {
    if assertion.family != Family::Raises {
        return None;
    }
    let text = inventory::squash(&assertion.first_line);
    let rest = text.strip_prefix("expect(()=>")?;
    let end = rest.find(").toThrow").or_else(|| rest.find(").rejects"))?;
    let call = &rest[..end];
    (call.contains('(') && !call.starts_with('{')).then(|| call.to_string())
}

/// The names a Python test binds the raised error to (`with pytest.raises(E) as info:`).
fn raised_as_names(body: &str) -> Vec<String> {
    static BOUND: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(bound) = BOUND
        .get_or_init(|| Regex::new(r"\braises\((?:[^()]|\([^()]*\))*\)\s+as\s+([A-Za-z_]\w*)").ok())
        .as_ref()
    else {
        return Vec::new();
    };
    bound
        .captures_iter(body)
        .filter_map(|found| found.get(1).map(|name| name.as_str().to_string()))
        .collect()
}

/// The first removed production definition that a line the change removes from this base test
/// reads (`render_plugins=[RapidocRenderPlugin(), ..]` when `RapidocRenderPlugin` goes): the
/// test's code that exercised it had to go, and the checks removed beside it with it.
fn removed_lines_read_removed<'r>(
    body: &str,
    first_line: u32,
    context: &FileContext<'r>,
) -> Option<(&'r str, &'r str)> {
    let gone = context.removed();
    if gone.is_empty() {
        return None;
    }
    body.lines()
        .zip(first_line..)
        .filter(|(_, number)| context.pair.removed.contains(*number))
        .find_map(|(line, _)| gone.read_by(line))
}

/// What a test's head side and the rest of the change say about its removed checks.
struct Evidence<'a, 'r> {
    /// The head test's text.
    head_body: &'a str,
    /// The head test's text and that of the same-file helpers its base checks went through:
    /// where the test still uses a value.
    head_reads: &'a str,
    /// The checks of the tests new in this file, as written (see [`check`]).
    in_new_tests: &'a HashSet<String>,
    /// The language family, for the cross-file fact of a check moved into another file.
    family: &'static str,
    /// What the change removes from the product.
    gone: &'r Removed,
    /// What the test's removed lines read of it (see [`removed_lines_read_removed`]), the
    /// evidence for checks removed that do not name it themselves.
    lines_read_removed: Option<(&'r str, &'r str)>,
    harness: &'a HarnessSwitch,
}

/// What got weaker in one test, as one candidate.
fn compare(
    label: &str,
    before: &[Assertion],
    after: &[Assertion],
    evidence: &Evidence<'_, '_>,
) -> Option<Candidate> {
    let Evidence {
        family,
        head_body,
        head_reads,
        in_new_tests,
        gone,
        lines_read_removed,
        harness,
    } = *evidence;
    // Assertions in a branch that never runs do not count (base ones did not either). A
    // known-failure `#[should_panic]` dropped is the test now expected to pass: stricter.
    let before: Vec<Assertion> = before
        .iter()
        .filter(|a| !a.dead)
        .filter(|a| !a.known_failure || after.iter().any(|other| other.norm == a.norm))
        .cloned()
        .collect();
    let before = before.as_slice();
    let unreachable: Vec<&Assertion> = after.iter().filter(|a| a.dead).collect();
    let after: Vec<Assertion> = after.iter().filter(|a| !a.dead).cloned().collect();
    let after = after.as_slice();
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
    // Per reason, the removed production definition its old check read, if any: checks that
    // read only what the change takes out of the product could not stay.
    let mut subjects: Vec<Option<(&str, &str)>> = Vec::new();
    // Or a name of the test harness the file left for another (see `harness_switch`).
    let old_harness = "from this file's imports: it moved to another test harness";
    let read_removed = |assertion: &Assertion| {
        gone.read_by(&assertion.first_line)
            .or_else(|| gone.read_by(&assertion.norm))
            .or_else(|| gone.rewritten_for(&assertion.first_line))
            .or_else(|| {
                harness
                    .read_by(&assertion.first_line)
                    .map(|name| (name, old_harness))
            })
    };
    // Base-side location (a removal) wins over a head-side one.
    let mut base_line: Option<u32> = None;
    let mut head_line: Option<u32> = None;
    // `const error = await t.throwsAsync(fn); t.true(error.message.includes(..))`: the message
    // pinned by a separate check on the returned error instead of inside the raise check.
    // Also destructured: `const {message} = await t.throwsAsync(fn); t.true(message.includes(..))`.
    // Python: `with pytest.raises(E) as info:` then `assert str(info.value) == ..` or
    // `info.match(..)` in place of `match=`.
    // (`ExceptionInfo.match` asserts; it is no assertion call the queries know, so it is
    // looked for in the test's text.)
    let raised_as = raised_as_names(head_body);
    let message_checked = raised_as
        .iter()
        .any(|name| head_body.contains(&format!("{name}.match(")))
        || added.iter().any(|a| {
            a.family == Family::Check
                && a.strength >= 1
                && ([".message", "(message.", "(message,", "(message)"]
                    .iter()
                    .any(|subject| a.norm.contains(subject))
                    || raised_as
                        .iter()
                        .any(|name| a.norm.contains(&format!("{name}.value"))))
        });
    let (pairs, left_old, left_new) = pair(&removed, &added);
    // Reasons that only swap a comparison with `true`/`false` for a truth check of the same
    // value (see [`boolean_loosened`]).
    let mut loosened = 0;
    for (old, new) in pairs {
        let weaker = match old.family {
            _ if removes_container(new, old) => false,
            Family::Count => new.count.unwrap_or(0) < old.count.unwrap_or(0),
            Family::Raises if message_checked && new.strength >= 1 => false,
            // Rust's `assert_eq!(x, true)` → `assert!(x)` (clippy's `bool_assert_comparison`):
            // the compiler holds `x` to a `bool`, so nothing got weaker.
            _ if old.norm.starts_with("assert_eq!(") && boolean_loosened(old, new) => false,
            _ if comparison_moved_into_subject(old, new) => false,
            _ => new.strength < old.strength,
        };
        let widened = match (old.tolerance, new.tolerance) {
            (Some(old_tol), Some(new_tol)) if old_tol > 0.0 => new_tol > old_tol * 10.0,
            _ => false,
        };
        if weaker && new.strength > 0 {
            subjects.push(read_removed(old));
            reasons.push(format!("`{}` → `{}`", old.shown(), new.shown()));
            head_line.get_or_insert(new.line);
            if boolean_loosened(old, new) {
                loosened += 1;
            }
        } else if !weaker && new.strength > 0 && new.debug_only && !old.debug_only {
            subjects.push(read_removed(old));
            reasons.push(format!(
                "`{}` → `{}` (compiled out where debug assertions are off, as in `cargo test --release`)",
                old.shown(),
                new.shown()
            ));
            head_line.get_or_insert(new.line);
        } else if weaker {
            subjects.push(read_removed(old));
            reasons.push(format!(
                "`{}` → trivially true `{}`",
                old.shown(),
                new.shown()
            ));
            head_line.get_or_insert(new.line);
        } else if widened {
            subjects.push(read_removed(old));
            reasons.push(format!(
                "tolerance widened {} → {} in `{}`",
                old.tolerance.unwrap_or_default(),
                new.tolerance.unwrap_or_default(),
                new.shown()
            ));
            head_line.get_or_insert(new.line);
        }
    }
    // Under `t.plan(n)` or `expect.assertions(n)` a `t.assert.ok(true)` marks that a callback
    // ran: the plan counts it, so it checks something.
    let planned = after.iter().any(|a| a.family == Family::Count);
    for new in left_new.iter().filter(|a| a.strength == 0 && !planned) {
        subjects.push(None);
        reasons.push(format!("trivially true `{}` added", new.shown()));
        head_line.get_or_insert(new.line);
    }
    let count = |list: &[Assertion]| {
        assertions::checks_per_run(list, |a| a.strength > 0 && a.family != Family::Count)
    };
    let (was, now) = (count(before), count(after));
    // A new raise check that pins the error (type and message) covers removed checks that
    // inspected the error by hand.
    let raise_checks = left_new
        .iter()
        .filter(|a| a.family == Family::Raises && a.strength >= 2)
        .count();
    // Whether what the removed checks went with is named only by lines removed beside them.
    let mut read_by_lines_only = false;
    let new_matches: Vec<String> = added
        .iter()
        .filter(|a| a.family == Family::Raises && a.norm.contains("match="))
        .map(|a| a.norm.replace('\\', ""))
        .collect();
    let mut unpaired: Vec<&Assertion> = left_old
        .into_iter()
        .filter(|a| a.strength > 0 && !(raise_checks > 0 && about_errors(a)))
        .filter(|a| !after.iter().any(|other| implied_by(other, a)))
        .filter(|a| !in_new_tests.contains(&a.norm))
        // `assert str(w[0].message) == ".."` folded into a new `pytest.warns(W, match=..)`
        // whose pattern holds the message.
        .filter(|a| !(a.norm.contains(".message") && matched_now(a, &new_matches)))
        .collect();
    // A check replaced by an unrelated check keeps the count: not a removal. A dropped raise
    // check is reported unless new checks read the error's message instead
    // (`t.true(result.message.includes(..))` in place of `t.throwsAsync(p, {message})`).
    if now >= was {
        unpaired.retain(|a| a.family == Family::Raises && !message_checked);
    }
    // Loose checks on a value the test no longer reads, next to a new exact check on another
    // one: most likely the test was ported to another harness (`nu!(..).out.contains(..)` →
    // `test().run(code).expect_value_eq([..])`), so it is reported as a guess.
    let port = harness_port(&unpaired, &added, after);
    // A dropped warning check (`pytest.warns(DeprecationWarning)`) usually goes with an API
    // migration: weaker evidence than a dropped value or raise check.
    let only_warnings = !unpaired.is_empty()
        && unpaired
            .iter()
            .all(|a| a.family == Family::Raises && a.norm.to_lowercase().contains("warn"));
    // `assert crawler.engine` dropped before `status(crawler.engine)` the test still runs: a
    // bare truth check on a value the test goes on to use is most often there to narrow a type
    // for a checker (a None fails the use too), yet it did also check truthiness: a guess.
    // Or `assert mw.request_scheduled(request) is None` left as the bare call: it still runs
    // (and fails the test by raising); only its `None` result is no longer compared.
    let only_narrowing = !unpaired.is_empty() && {
        let squashed_reads: String = head_reads.split_whitespace().collect();
        unpaired.iter().all(|a| {
            narrowing_subject(a).is_some_and(|subject| reads_value(head_reads, subject))
                || none_checked_call(a).is_some_and(|call| still_called(&squashed_reads, call))
        })
    };
    // `toHaveLength(1)` and `toContain('..')` checks replaced by a new snapshot of the output
    // (`toMatchInlineSnapshot`, insta's `assert_snapshot!`, inline-snapshot's `snapshot()`):
    // most likely stronger, but what the snapshot pins is today's output, for a human to read.
    // Only checks of parts (containment, length, truth): an exact value swapped for a snapshot
    // of whatever the code prints now is how a failing expectation gets blessed.
    let into_snapshot = !unpaired.is_empty()
        && unpaired.iter().all(|a| {
            [
                ".toBe(",
                ".toEqual(",
                ".toStrictEqual(",
                "assert_eq!(",
                "==",
                ".is(",
                ".deepEqual(",
            ]
            .iter()
            .all(|exact| !a.norm.contains(exact))
        })
        && added.iter().any(|a| {
            a.strength >= 1
                && ["Snapshot(", "_snapshot!(", "==snapshot("]
                    .iter()
                    .any(|call| a.norm.contains(call))
        });
    if !unpaired.is_empty() {
        let listed: Vec<String> = unpaired
            .iter()
            .take(3)
            .map(|a| {
                if unreachable.iter().any(|dead| dead.norm == a.norm) {
                    format!(
                        "`{}` (now where it never runs: after a `return` or in a dead branch)",
                        a.shown()
                    )
                } else {
                    format!("`{}`", a.shown())
                }
            })
            .collect();
        let more = if unpaired.len() > 3 {
            format!(" and {} more", unpaired.len() - 3)
        } else {
            String::new()
        };
        let prefix = if now < was {
            format!("{was} {} → {now}; ", plural(was))
        } else {
            String::new()
        };
        reasons.insert(0, format!("{prefix}{}{more} removed", listed.join(", ")));
        let read: Vec<Option<(&str, &str)>> = unpaired.iter().map(|a| read_removed(a)).collect();
        let read_by_checks = read
            .iter()
            .all(Option::is_some)
            .then(|| read.first().copied().flatten())
            .flatten();
        read_by_lines_only = read_by_checks.is_none() && lines_read_removed.is_some();
        subjects.insert(0, read_by_checks.or(lines_read_removed));
        base_line = unpaired.first().map(|a| a.line);
    }
    if reasons.is_empty() {
        return None;
    }
    let ported = port.is_some() && reasons.len() == 1 && base_line.is_some();
    if let Some(exact) = port.filter(|_| ported) {
        reasons[0].push_str(&format!(
            "; the test now checks `{}` exactly instead, on a value the removed checks did not read (ported to another harness?)",
            crate::rules::markers::shorten(&exact.norm, 90)
        ));
    }
    // `expect(() => parse(x)).toThrow()` → `expect(parse(x)).toEqual([..])`: the same call is
    // now expected to succeed with an exact value. A behaviour changed on purpose, or a test
    // bent to what the code now does: shown, for a human to tell.
    let flipped = (!unpaired.is_empty() && reasons.len() == 1)
        .then(|| {
            unpaired
                .iter()
                .map(|old| {
                    let subject = raised_call(old)?;
                    after
                        .iter()
                        .any(|new| {
                            new.strength >= 2
                                && new.family != Family::Raises
                                && inventory::squash(&new.first_line)
                                    .contains(&format!("({subject})"))
                        })
                        .then_some(subject)
                })
                .collect::<Option<Vec<String>>>()
        })
        .flatten();
    let mut severity =
        if (only_warnings || only_narrowing || flipped.is_some()) && reasons.len() == 1 {
            Severity::Warning
        } else {
            Severity::Error
        };
    let mut message = format!("{label}: {}", reasons.join("; "));
    // `expect(true).toBe(true)` added to a test that checked nothing before (to please a
    // lint such as jest/expect-expect): nothing got weaker; the test checks nothing, as before.
    let placeholder_only = was == 0
        && unpaired.is_empty()
        && reasons
            .iter()
            .all(|reason| reason.starts_with("trivially true"));
    if placeholder_only {
        severity = Severity::Note;
        message.push_str(" to a test that had no checks before (a placeholder for a lint?)");
    }
    if loosened > 0 && loosened == reasons.len() && severity == Severity::Error {
        severity = Severity::Warning;
        message.push_str(
            "; each value was compared with a boolean before and is checked for truth now (weaker only if it can be other than a boolean)",
        );
    }
    if into_snapshot && reasons.len() == 1 {
        severity = Severity::Warning;
        message.push_str(
            "; the test now pins the output with a new snapshot instead (read what it pins)",
        );
    }
    if only_narrowing && reasons.len() == 1 {
        message.push_str(
            "; the test still uses what each removed check tested (most likely an assert that only narrowed a type, or compared a call's `None` result)",
        );
    }
    if let Some(first) = flipped.as_ref().and_then(|calls| calls.first()) {
        message.push_str(&format!(
            "; the test now expects `{}` to succeed with an exact value (a behaviour changed on purpose?)",
            crate::rules::markers::shorten(first, 80)
        ));
    }
    if subjects.iter().all(Option::is_some)
        && let Some(Some((name, path))) = subjects.first()
    {
        severity = Severity::Warning;
        let what = if read_by_lines_only {
            "lines the test loses beside the removed checks read"
        } else {
            "the removed checks read"
        };
        message.push_str(&gone.explain(name, path, what));
    }
    let (side, line) = match (base_line, head_line) {
        (Some(line), _) => (Side::Base, line),
        (None, Some(line)) => (Side::Head, line),
        (None, None) => return None,
    };
    let moved = match unpaired.as_slice() {
        [only] if reasons.len() == 1 => moved_check(only, family),
        _ => None,
    };
    Some(Candidate {
        side,
        line,
        end_line: line,
        severity,
        message,
        key: String::new(),
        moved,
        confidence: if ported {
            crate::finding::Confidence::Likely
        } else {
            crate::finding::Confidence::Certain
        },
    })
}

/// The rows of each collected table (parametrized test), by key, in file order.
fn table_rows(tests: &[Test]) -> HashMap<&str, Vec<&str>> {
    let mut rows: HashMap<&str, Vec<&str>> = HashMap::new();
    for test in tests.iter().filter(|test| test.collected()) {
        if let Some(case) = test.case.as_deref() {
            rows.entry(test.key.as_str()).or_default().push(case);
        }
    }
    rows
}

/// The new exact check that stands in for every removed one, when each removed check is
/// loose (or only says no error or no output happened) and reads a value that no check of the
/// test reads any more, while the test gained an exact check of something else.
fn harness_port<'a>(
    removed: &[&Assertion],
    added: &[&'a Assertion],
    after: &[Assertion],
) -> Option<&'a Assertion> {
    if removed.is_empty() {
        return None;
    }
    let mut roots: Vec<String> = Vec::new();
    for assertion in removed {
        let loose = assertion.strength == 1
            || checks_a_substring(assertion)
            || only_checks_no_error(&assertion.norm)
            || expects_nothing(&assertion.norm);
        let shown = assertion.shown();
        let root = first_subject(&shown)?;
        if assertion.family != Family::Check
            || !loose
            || after.iter().any(|other| other.norm.contains(root))
        {
            return None;
        }
        roots.push(root.to_string());
    }
    added.iter().copied().find(|exact| {
        exact.family == Family::Check
            && exact.strength >= 2
            && !roots.iter().any(|root| exact.norm.contains(root.as_str()))
    })
}

/// `assert_eq!(out.err, "")`, `assert!(out.is_empty())`, `assert out == ""`: a check that
/// nothing was printed.
fn expects_nothing(norm: &str) -> bool {
    norm.ends_with(",\"\")")
        || norm.ends_with(",\"\");")
        || norm.ends_with("==\"\"")
        || norm.contains(".is_empty())")
}

/// The first name an assertion reads, past the assertion's own words and any string literal:
/// `actual` in `assert!(actual.out.contains("x"))`, `assert "x" in actual.out` and
/// `expect(actual.out).toContain('x')`.
fn first_subject(text: &str) -> Option<&str> {
    const NOT_SUBJECTS: &[&str] = &[
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "not",
        "len",
        "expect",
        "self",
        "await",
        "is",
        "in",
        "str",
        "repr",
        "list",
        "sorted",
        "set",
        "dict",
        "tuple",
        "t",
        "this",
        "true",
        "false",
        "True",
        "False",
        "None",
        "r",
        "b",
        "f",
    ];
    let mut quote: Option<char> = None;
    let mut start: Option<usize> = None;
    for (index, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if let Some(open) = quote {
            if c == open {
                quote = None;
            }
            continue;
        }
        let word = c.is_alphanumeric() || c == '_';
        match (start, word) {
            (None, true) => start = Some(index),
            (Some(from), false) => {
                start = None;
                let token = &text[from..index];
                let after_dot = text[..from].ends_with('.');
                // A macro's name (`assert_contains!`) is not what it reads.
                if !after_dot
                    && c != '!'
                    && !NOT_SUBJECTS.contains(&token)
                    && !token.starts_with(|c: char| c.is_ascii_digit())
                {
                    return Some(token);
                }
            }
            _ => {}
        }
        if start.is_none() && (c == '"' || c == '\'' || c == '`') {
            quote = Some(c);
        }
    }
    None
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        "assertion"
    } else {
        "assertions"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_the_first_name_read() {
        assert_eq!(subject_root("assert!(!out.err.contains(\"x\"))"), "out");
        assert_eq!(subject_root("assert_eq!(out.text,\"x\")"), "out");
        assert_eq!(subject_root("expect(out).toContain('x')"), "out");
    }

    #[test]
    fn no_error_checks_are_told_apart() {
        assert!(only_checks_no_error("assert!(actual.err.is_empty());"));
        assert!(only_checks_no_error("assert!(actual.status.success())"));
        assert!(only_checks_no_error("assert_eq!(actual.err,\"\")"));
        assert!(only_checks_no_error("assert_eq!(actual.err.len(),0);"));
        assert!(only_checks_no_error(
            "assert!(actual.err.trim().is_empty())"
        ));
        assert!(!only_checks_no_error("assert_eq!(actual.err.len(),2);"));
        assert!(!only_checks_no_error("assert_eq!(actual.out.len(),0);"));
        assert!(!only_checks_no_error("assert_eq!(actual.out,\"\")"));
        assert!(only_checks_no_error(
            "assert!(!actual.err.contains(\"novalidpath\"))"
        ));
        assert!(only_checks_no_error(
            "assert!(!actual.out.contains(\"error\"))"
        ));
        assert!(!only_checks_no_error(
            "assert!(!actual.out.contains(\"moe\"))"
        ));
        assert!(!only_checks_no_error(
            "assert!(actual.err.contains(\"denied\"))"
        ));
        assert_eq!(
            first_subject("assert!(actual.out.contains(\"x\"))"),
            Some("actual")
        );
        assert_eq!(first_subject("assert \"x\" in actual.out"), Some("actual"));
        assert_eq!(first_subject("assert_contains!(\"x\", err)"), Some("err"));
        assert_eq!(
            first_subject("expect(res.body).toContain('x')"),
            Some("res")
        );
        assert_eq!(
            equality_sides("assertparts==snapshot([A(a=1)]),\"why\""),
            Some(("parts", "snapshot([A(a=1)])"))
        );
        assert_eq!(equality_sides("assert_eq!(1,got.len());"), None);
        assert_eq!(
            equality_sides("assert_eq!(rows,vec![1,2]);"),
            Some(("rows", "vec![1,2]"))
        );
        assert_eq!(equality_sides("assertx<=3"), None);
        assert!(!only_checks_no_error(
            "assert!(actual.err.contains(\"boom\"))"
        ));
        assert!(returns_result("fn t() -> Result {\n x?;\n}"));
        assert!(!returns_result("fn t() {\n let r: Result<(), E> = f();\n}"));
    }

    #[test]
    fn delegations_are_new_calls_handing_t_to_functions_from_elsewhere() {
        let base = "const check = async (t, m) => {\n  await t.throwsAsync(m());\n};";
        let head = "import {runError} from './helpers.js';\nconst check = async (t, m) => {\n  await runError(t, m);\n  setup(t);\n};\nfunction setup(t) {}";
        assert_eq!(
            new_delegations(base, head, &[]),
            vec!["runError".to_string()]
        );
        // Already delegated in base, a local helper, or a method of `t`: nothing new.
        assert!(new_delegations(head, head, &[]).is_empty());
        assert!(new_delegations(base, head, &["runError".to_string()]).is_empty());
        assert!(new_delegations("", "t.is(t, 1); obj.run(t);", &[]).is_empty());
    }
}

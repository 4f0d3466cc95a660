//! `deleted-test`: a test in base whose identity survives nowhere in head.

use super::context::{Candidate, Fact, FactRef, FileContext, Moved, Output};
use super::declare_rule;
use super::harness_switch::HarnessSwitch;
use super::inheritance;
use super::inventory::twins::Twins;
use super::inventory::{self, Test, contains_body, similar_bodies};
use super::likeness::TestPrint;
use crate::changeset::Status;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use std::collections::{BTreeSet, HashMap, HashSet};

declare_rule! {
    /// ## What it flags
    /// A test collected in base whose identity (language, enclosing suite path, name and case)
    /// is collected nowhere in head:
    ///
    /// - a removed test function, `it`/`test` call or `#[test]` function, or a whole test file
    ///   deleted;
    /// - a removed `pytest.mark.parametrize` row, `.each` table row, `#[test_case(..)]` or
    ///   `#[case(..)]` attribute;
    /// - a test taken out of the runner's collection: `test_foo` renamed to `check_foo` or
    ///   `_test_foo`, a `Test*` class renamed to a name pytest ignores (or given `__init__`), a
    ///   test file renamed or moved out of the runner's patterns (`test_x.py` → `x.py`,
    ///   `a.test.ts` → `a.ts`, into a directory `testPathIgnorePatterns` or vitest `exclude`
    ///   names);
    /// - a Rust `#[cfg(test)] mod tests;` declaration removed (the module's file may be
    ///   untouched, but its tests no longer compile);
    /// - a Rust `#[bench]` function removed, in any file: libtest runs each benchmark once as
    ///   a test under `cargo test`, so it is a test like `#[test]`; a test inside a
    ///   `proptest! { .. }` block removed; a tap/node:test subtest `t.test("..", t => ..)`
    ///   removed;
    /// - a Python `Test*` class with no tests of its own that ran the ones it inherits
    ///   (`class TestSqliteStore(StoreContract): backend = "sqlite"`), deleted or with its file
    ///   (a likely finding, a warning, when the parent is defined elsewhere and its name does
    ///   not say it holds tests); moved to another changed file or renamed with the same bases
    ///   and settings, it still runs.
    ///
    /// Rows of a parametrize table that left while the test now takes a new parameter that a
    /// changed file declares as a fixture with `params=` (`@pytest.fixture(params=[..])` in a
    /// conftest) may live on there: a likely finding, a warning, that names the fixture.
    ///
    /// The finding sits on the base side, at the test's line in base.
    /// ## Why it matters
    /// Deleting the failing test is as effective as skipping it, and leaves even less to see:
    /// nothing in head mentions it any more.
    /// ## Example
    /// Fires: `def test_refund_rounding(): ...` removed from `tests/test_billing.py`; the row
    /// `(0.1, 0.2, 0.3)` removed from a parametrize table; `tests/test_auth.py` renamed to
    /// `tests/auth_cases.py`.
    /// ## Not flagged
    /// - A test moved to another changed file (same suite path and name), a test file renamed
    ///   within the runner's patterns, a whole suite moved between files.
    /// - A test renamed with an unchanged or near-identical body (a rename, not a deletion).
    /// - A test renamed in place while its body is rewritten: between the same surviving
    ///   neighbours, the new test most like it (half of the name's words and two-fifths of the
    ///   code, or two-thirds of the code), when it is also the old test most like the new one.
    ///   `weakened-assertion` then compares the two, so a rename that guts the test is still
    ///   reported.
    /// - Parametrize rows reordered, or a row edited in place (the table keeps its size).
    /// - A Rust function that lost its `#[test]` attribute (that is `skipped-test`), and a
    ///   `#[cfg(test)]` removed from a module with a body (its tests still run under
    ///   `cargo test`).
    /// - A test merged into another test that now contains its body (and its rows). A test
    ///   that held those lines already in base is no merge: `assert f(1) == 2` deleted beside
    ///   an untouched `assert f(1) == 20`, or a table deleted beside one with the same body and
    ///   other rows, is a deletion.
    /// - A test moved to any other changed file under another name with nearly the same code
    ///   (four-fifths of its tokens), every literal and every check kept in its shape (a
    ///   formatter's re-wrapping aside): `assert r.status == 200` may not become
    ///   `assert r.status >= 200` on the way.
    ///
    /// A test gone without such a match but with a plausible successor anywhere in the change
    /// (a new or changed test holding half of its literals, or a split holding four-fifths of
    /// them across several new tests, or two-thirds of its code, and still checking something)
    /// is reported with `confidence: likely`, one severity lower (a warning), and the message
    /// names the successor: a test ported to another API or rewritten under a new name. So is
    /// a test replaced in place (between the same neighbours) by a new test whose name shares
    /// four-fifths of its words (`.._rejects_tool_output` → `.._accepts_tool_output`): often a
    /// test rewritten for changed behaviour, which a reviewer should still see.
    /// - A criterion benchmark removed (`c.bench_function(..)` in `benches/`): criterion
    ///   benchmarks run under `cargo bench`, not `cargo test`, so they are not tests.
    ///
    /// - A test removed from a file the runner does not collect (with a base `testMatch` of
    ///   `**/*.check.js`, `src/a.test.js` holds no tests).
    ///
    /// A test skipped without a condition in base (`@pytest.mark.skip`, `it.skip`,
    /// `#[ignore]`, or its suite or file skipped) did not run: its deletion is a note.
    ///
    /// A copy deleted while its twin remains loses no check: a note that names the twin. A
    /// twin is another test of the file, there in base and unchanged in head, identical but
    /// for its name (decorators or attributes, so table rows and marks, parameters, so pytest
    /// fixtures, and body, whitespace and comment lines aside), in the same class, `describe`
    /// or `mod`, or in one whose code besides its tests is the same: a class with another
    /// fixture, a `describe` with another `beforeEach`, a `mod` importing another function
    /// runs the same body against something else. A body that does nothing (`pass`,
    /// `assert True`) makes no twin. Deleting both copies, or one while the other is changed,
    /// is a deletion.
    ///
    /// A swap, one test deleted and an unrelated one added, is still a deletion.
    ///
    /// A test deleted together with the production code it exercised (a function, class,
    /// method, type or field whose definition the change removes from a file the runners do not
    /// collect, defines on no added line, and no changed production file still reads) is a
    /// feature taken away rather than a check dodged: a warning that names what went
    /// (`; the change also removes `refund_with_fee` (src/billing.py), which it exercised`).
    /// So is a test whose checked message or error code (a quoted text of ten characters or
    /// more) the change removes from the product: a refusal test deleted when the feature it
    /// refused lands (`match="interleave is not supported"` once the `raise` is gone), and a
    /// test that constructs a class with arguments (`new Node('get', handler)`) when the change
    /// removes that class's constructor with parameters and head's class takes none.
    /// Test helpers, fixtures and a Rust file's tests are never such a subject, and a test
    /// deleted beside some other removal is still an error.
    ///
    /// A revert takes out the tests the reverted commit added: a warning naming that commit,
    /// when a commit message names it (`This reverts commit X.`, a quoted subject `Revert
    /// "…"`, or a pull request number, `This also reverts #6391`), it is in base's recent
    /// first-parent history, and the change also takes out production code it added.
    ///
    /// A deleted test whose checked values (two or more, two-thirds of them) come back on
    /// lines the change adds to tests as checks or data (a `describe.each(scenarios)` table, a
    /// new step of a longer test) is `likely` folded there: a warning. Values that come back
    /// only as arguments of calls or in prints do not count.
    ///
    /// One cause is one finding: the tests of a deleted test file (or of one moved out of the
    /// runner's collection) are one finding that lists them, the files deleted under a
    /// directory where the change keeps no file are one finding for that directory, and past
    /// 20 alike findings in one change they are folded by directory so that each area keeps
    /// one.
    /// ## Configuration
    /// `rules.deleted-test.severity` in `.integrity-gate.yml`; `rules.deleted-test.likely-severity`
    /// sets the severity of the `likely` findings (`error` makes them block again). A deliberate
    /// removal can be allowed per path with an `allow:` entry and a reason. More than five
    /// deletions in one file are one finding that lists the tests.
    ///
    /// What a test file is follows the runners' settings in the **base** revision (a change
    /// cannot redefine it for its own judgement): pytest `python_files`, `python_functions`,
    /// `python_classes`, `testpaths`, from the configuration nearest to each file (a
    /// monorepo's packages each with their own `pyproject.toml`; a configuration new in head,
    /// for a sub-project the change creates, only counts within pytest's defaults and never
    /// takes a test out); a symbolic link the change adds in place of a test directory makes
    /// the files where it points reachable at its path, as pytest follows it; jest `testMatch`, `testRegex`, `roots`,
    /// `testPathIgnorePatterns` (`jest.config.*` or `package.json` `jest`); vitest
    /// `test.include`, `test.exclude`, `test.dir` (`vitest.config.*`, else `vite.config.*`).
    /// Globs follow micromatch, extglobs included. Only literal values are read; a computed
    /// value, jest `projects` or a vitest workspace keeps the default patterns (`*.test.*`,
    /// `*.spec.*`, `__tests__/`, `test/`, `tests/`). With jest and vitest both configured, a
    /// file either collects holds tests; a playwright or mocha configuration, or a
    /// `jest --config`/`vitest --config` in a `package.json` script, adds the default
    /// patterns (those settings are not read). A test file renamed out of these patterns is
    /// reported with the patterns it left.
    pub static DELETED_TEST = {
        id: "deleted-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a test function, test case or test file is removed and does not reappear elsewhere",
        maturity: Stable,
        check: Some(check),
        group: "tests deleted from this file",
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let family = language.family();
    let base = inventory::tests(context, Side::Base);
    let head = inventory::tests(context, Side::Head);
    // Head facts name each case and each whole test, so a test that moved to another file and
    // became parametrized (or stopped being) still counts as present.
    let mut head_facts: BTreeSet<&str> = BTreeSet::new();
    for test in head.iter().filter(|test| test.collected()) {
        head_facts.insert(&test.id);
        head_facts.insert(&test.key);
    }
    out.facts.extend(head_facts.iter().map(|key| Fact {
        side: Side::Head,
        name: "test",
        family,
        key: key.to_string(),
        severity: Severity::Error,
    }));
    let collected =
        |tests: &[Test]| -> Vec<Test> { tests.iter().filter(|t| t.collected()).cloned().collect() };
    let (base, head_collected) = (collected(&base), collected(&head));
    out.prints = new_or_changed_prints(context, &base, &head_collected);
    let base_keys: HashSet<&str> = base.iter().map(|test| test.key.as_str()).collect();
    let head_ids: HashSet<&str> = head_collected.iter().map(|t| t.id.as_str()).collect();
    let head_keys: HashSet<&str> = head_collected.iter().map(|t| t.key.as_str()).collect();
    // Whole head tests that base did not have: candidates for renames.
    let mut fresh: Vec<Test> = Vec::new(); // filled below, then read-only
    for test in head_collected
        .iter()
        .filter(|t| !base_keys.contains(t.key.as_str()))
    {
        if !fresh.iter().any(|other| other.key == test.key) {
            fresh.push(test.whole());
        }
    }
    if language == Language::Rust {
        removed_test_modules(context, out);
    }
    if language == Language::Python {
        super::inherited_suites::check(context, out);
        if let Some(head) = context.side(Side::Head) {
            out.facts.extend(
                parametrized_fixtures(head.text)
                    .into_iter()
                    .map(|name| Fact {
                        side: Side::Head,
                        name: PARAM_FIXTURE,
                        family,
                        key: name,
                        severity: Severity::Error,
                    }),
            );
        }
    }
    // A test that never ran (skipped without a condition in base, or its suite or file was)
    // takes nothing from the run when deleted: a note.
    let skipped = super::markers::skipped_keys(context, Side::Base, "skipped-test");
    let never_ran = |key: &str| {
        skipped.contains(super::markers::MODULE_KEY)
            || skipped.iter().any(|skipped| {
                key == skipped
                    || key
                        .strip_prefix(skipped.as_str())
                        .is_some_and(|rest| rest.starts_with(crate::query::KEY_SEPARATOR))
            })
    };
    // Rows of head tables that base did not have, in head order.
    let new_rows: Vec<(&str, &str)> = head_collected
        .iter()
        .filter(|t| !base_keys.contains(t.key.as_str()))
        .filter_map(|t| Some((t.key.as_str(), t.case.as_deref()?)))
        .collect();
    // Each key's cases, gathered once: a scan per key was quadratic in a file's tests.
    let mut cases_of: std::collections::HashMap<&str, Vec<&Test>> = Default::default();
    for test in base.iter() {
        cases_of.entry(test.key.as_str()).or_default().push(test);
    }
    let scene = Scene::new(context, language, &base, &head, &head_collected, &fresh);
    // A file rewritten wholesale for another harness (`nu!(..)` → `test().run(..)`): the old
    // harness's imports are gone, new ones came, and it gained about as many new tests and
    // rows as it lost. Its deleted tests were likely ported under new names.
    let base_text = context.pair.base.text().unwrap_or_default();
    let switch = match (context.pair.base.text(), context.pair.head.text()) {
        (Some(before), Some(after)) => HarnessSwitch::of(before, after),
        _ => HarnessSwitch::default(),
    };
    let lost = base
        .iter()
        .map(|test| test.key.as_str())
        .collect::<HashSet<_>>()
        .iter()
        .filter(|key| !head_keys.contains(**key))
        .count();
    let gained = fresh
        .iter()
        .filter(|test| !new_rows.iter().any(|(key, _)| *key == test.key))
        .count()
        + new_rows.len();
    let ported_wholesale = lost >= MIN_PORTED && gained * 2 >= lost;
    // Python classes run the tests they inherit: facts for the test methods of each class and
    // for the bases of each class the runner collects.
    let classes = match (language, context.pair.head.text()) {
        (Language::Python, Some(text)) => inheritance::classes(text),
        _ => Vec::new(),
    };
    // A method counts with its body: a test moved up into a base keeps its code, and one
    // gutted on the way (`assert True`) is no move.
    if language == Language::Python {
        // Keyed by the class that defines it (`Base › TestLinkExtractorBase › test_x` is
        // `TestLinkExtractorBase › test_x`), as subclasses name their bases.
        // And by its checks alone: a test moved up into a base and restructured there (its
        // checks wrapped in a setup closure) still runs under its name with the same checks.
        let separator = crate::query::KEY_SEPARATOR;
        for test in head.iter().filter(|test| test.is_test) {
            let mut segments = test.key.rsplitn(3, separator);
            let method = segments.next().unwrap_or_default();
            let defined = match segments.next() {
                Some(class) => format!("{class}{separator}{method}"),
                None => method.to_string(),
            };
            for (name, key) in [
                ("method", method_key(&defined, &test.body)),
                ("method-checks", checks_key(&defined, &test.body)),
            ] {
                out.facts.push(Fact {
                    side: Side::Head,
                    name,
                    family,
                    key,
                    severity: Severity::Error,
                });
            }
        }
    }
    let pytest = context.collection.pytest(context.pair.path(), Side::Head);
    let collected_classes: Vec<&inheritance::Class> = classes
        .iter()
        .filter(|class| {
            pytest.collects_file()
                && (pytest.collects_class(&class.name)
                    || class.bases.iter().any(|base| base == "TestCase"))
        })
        .collect();
    for class in &collected_classes {
        out.facts.extend(class.bases.iter().map(|base| Fact {
            side: Side::Head,
            name: "inherits",
            family,
            key: base.clone(),
            severity: Severity::Error,
        }));
    }
    // Bodies of the tests this file reports as deleted, which its unchanged tests do not vouch
    // for (see the body facts below).
    let mut reported_bodies: HashSet<String> = HashSet::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for test in base.iter() {
        if !seen.insert(test.key.as_str()) {
            continue;
        }
        let candidate = if test.case.is_some() {
            let cases: Vec<&Test> = cases_of.get(test.key.as_str()).cloned().unwrap_or_default();
            let target = if head_keys.contains(test.key.as_str()) {
                Some(test.key.clone())
            } else {
                renamed_table(&cases, &head_collected, &fresh)
            };
            match target {
                Some(target) => {
                    // A table split in two: rows that moved to another new table are kept.
                    let split_off: Vec<&str> = new_rows
                        .iter()
                        .filter(|(key, _)| *key != target)
                        .map(|(_, case)| *case)
                        .collect();
                    removed_rows(&cases, &target, &head_collected, &split_off).map(
                        |(mut candidate, gone)| {
                            // Every row gone names a definition the change removes from the
                            // product (`(RapidocRenderPlugin(), "/schema/rapidoc")` with the
                            // plugin): the feature went with its rows.
                            let removed = context.removed();
                            let subjects: Vec<_> =
                                gone.iter().map(|row| removed.read_by(row)).collect();
                            if let Some(Some((name, path))) = subjects.first()
                                && subjects.iter().all(Option::is_some)
                            {
                                candidate.severity = Severity::Warning;
                                candidate.message.push_str(&removed.explain(
                                    name,
                                    path,
                                    "the rows exercised",
                                ));
                            }
                            if language == Language::Python {
                                candidate.moved = rows_to_fixture(
                                    &cases,
                                    &target,
                                    &head_collected,
                                    base_text,
                                    context.pair.head.text().unwrap_or_default(),
                                );
                            }
                            Missing {
                                candidate,
                                plain: false,
                                duplicate: false,
                            }
                        },
                    )
                }
                None => {
                    let rows: Vec<&str> = cases.iter().filter_map(|t| t.case.as_deref()).collect();
                    whole_missing(&scene, &test.whole(), &rows)
                }
            }
        } else if head_ids.contains(test.id.as_str())
            || inventory::in_place_successor(test, &base, &head_collected).is_some()
        {
            None
        } else {
            whole_missing(&scene, test, &[]).map(|mut missing| {
                // Only a replacement that checks something: a test gutted under a new name
                // (`assert True`) stays a deletion.
                if let Some(next) = inventory::in_place_replacement(test, &base, &head_collected)
                    .filter(|next| {
                        !missing.duplicate
                            && next
                                .body
                                .split('\n')
                                .any(crate::rules::likeness::real_check)
                    })
                {
                    let candidate = &mut missing.candidate;
                    candidate.confidence = crate::finding::Confidence::Likely;
                    candidate.message = format!(
                        "{}; `{}` took its place (line {}) and may test changed behaviour",
                        candidate
                            .message
                            .replace(" and does not reappear elsewhere", ""),
                        next.key,
                        next.line
                    );
                }
                missing
            })
        };
        if let Some(Missing {
            mut candidate,
            plain,
            duplicate,
        }) = candidate
        {
            if never_ran(&test.key) {
                candidate.severity = Severity::Note;
                candidate
                    .message
                    .push_str(" (it was skipped in base, so it did not run)");
            } else if candidate.severity == Severity::Error
                && !head_keys.contains(test.key.as_str())
                && let Some((name, path)) = subject_removed(context, test)
            {
                // The feature went with its test: still a deletion to review, not a dodge.
                candidate.severity = Severity::Warning;
                candidate
                    .message
                    .push_str(&context.removed().explain(name, path, "it exercised"));
            } else if candidate.severity == Severity::Error
                && plain
                && ported_wholesale
                // The test's own reads name the harness it used; a macro like `nu!` may also
                // be written in head's strings (`"nu::shell::…"`), so any import gone will do.
                // Only a test-support import is a harness: `WalkAction` from `./walk` is the
                // product the tests exercised.
                && let Some(old) = switch
                    .read_by(&test.body)
                    .filter(|name| from_test_support(base_text, name))
                    .or_else(|| {
                        switch
                            .gone_imports()
                            .into_iter()
                            .find(|name| from_test_support(base_text, name))
                    })
            {
                candidate.confidence = crate::finding::Confidence::Likely;
                candidate.message.push_str(&format!(
                    "; the file left `{old}` for another harness and gained {gained} new tests \
                     and rows, so it may have been ported"
                ));
            } else if candidate.severity == Severity::Error
                && !head_keys.contains(test.key.as_str())
                && let Some(reverted) = context.pair.reverted.as_deref()
                && reverted.added(declaration(context, test))
            {
                // A revert takes out the tests the reverted commit brought with its feature.
                candidate.severity = Severity::Warning;
                candidate.message.push_str(&format!(
                    "; the change reverts commit {}, which added it",
                    reverted.commit
                ));
            }
            // A twin's note names the test that remains, whose body must not drop it. Any
            // other deletion may live on under another name in another file, with its body.
            let mut also = if test.case.is_none() && !test.body.is_empty() && !duplicate {
                reported_bodies.insert(body_key(&test.body));
                vec![(FactRef::head("body"), body_key(&test.body))]
            } else {
                Vec::new()
            };
            also.extend(inherited_alternatives(test, &collected_classes, &head));
            let mut likely = inherited_by_name(test, &collected_classes);
            // Rows that may have moved into a parametrized fixture ([`rows_to_fixture`]).
            if let Some(earlier) = candidate.moved.take() {
                likely.extend(earlier.likely);
            }
            // Only a test gone without a trace is looked for under other names elsewhere; one
            // that left the runner's collection is gone for certain.
            let print = plain.then(|| {
                let whole = test.whole();
                let rows: Vec<&str> = cases_of
                    .get(test.key.as_str())
                    .into_iter()
                    .flatten()
                    .filter_map(|t| t.case.as_deref())
                    .collect();
                let path = context
                    .pair
                    .old_path
                    .as_deref()
                    .unwrap_or(context.pair.path());
                let print = TestPrint::of(&whole, &rows, family, path);
                (Box::new(print), format!("test `{}` was deleted", whole.id))
            });
            out.candidates.push(Candidate {
                moved: Some(Moved {
                    family,
                    key: candidate.key.clone(),
                    already: FactRef::head("test"),
                    existed: None,
                    also,
                    print,
                    likely,
                }),
                ..candidate
            });
        }
    }
    // Each body's line prefixes, so a test moved to another file under a new name (and
    // perhaps extended at the end) is not a deletion. An unchanged test of this file does not
    // vouch for the bodies this file reports as deleted: it merely shared that code all along
    // (judged here: a twin is a note), so it is no place the deleted test moved to.
    let mut bodies: BTreeSet<String> = BTreeSet::new();
    for test in head
        .iter()
        .filter(|test| test.collected() && !test.body.is_empty())
    {
        let unchanged = scene.base_bodies.get(test.key.as_str()) == Some(&test.body.as_str());
        bodies.extend(
            body_prefix_keys(&test.body)
                .into_iter()
                .filter(|key| !unchanged || !reported_bodies.contains(key)),
        );
    }
    out.facts.extend(bodies.into_iter().map(|key| Fact {
        side: Side::Head,
        name: "body",
        family,
        key,
        severity: Severity::Error,
    }));
}

/// The first line of `test`'s code in base, trimmed: what a commit that added the test brought.
fn declaration<'c>(context: &FileContext<'c>, test: &Test) -> &'c str {
    context
        .side(Side::Base)
        .and_then(|side| side.text.get(test.byte_range.clone()))
        .and_then(|code| code.lines().next())
        .map_or("", str::trim)
}

/// A production definition the change removes that the deleted `test` reads (in its code or
/// in the names of its suites), with the path it stood in.
fn subject_removed<'c>(context: &FileContext<'c>, test: &Test) -> Option<(&'c str, &'c str)> {
    let removed = context.removed();
    if removed.is_empty() {
        return None;
    }
    let code = context
        .side(Side::Base)
        .and_then(|side| side.text.get(test.byte_range.clone()))
        .unwrap_or_default();
    removed
        .read_by(code)
        .or_else(|| removed.read_by(&test.key))
        .or_else(|| removed.rewritten_for(code))
}

/// A test missing from head that this rule reports.
struct Missing {
    candidate: Candidate,
    /// Simply gone (not renamed out of the runner's collection, not a twin's copy): looked
    /// for under other names elsewhere.
    plain: bool,
    /// A copy of a test that remains: a note.
    duplicate: bool,
}

/// Where a Python test method still runs through inheritance, as cross-file facts any of
/// which keeps it: moved up into a base its class, still collected, now inherits (`TestRequest(TestRequestBase)`
/// with `TestRequestBase › test_init` defined in a changed file), or its class, moved out of
/// the collected files, still inherited by a collected class.
fn inherited_alternatives(
    test: &Test,
    collected_classes: &[&inheritance::Class],
    head: &[Test],
) -> Vec<(FactRef, String)> {
    let separator = crate::query::KEY_SEPARATOR;
    let Some((class, method)) = test.key.split_once(separator) else {
        return Vec::new();
    };
    if method.contains(separator) {
        return Vec::new();
    }
    // Only a class the runner still collects runs what it inherits (`class _TestRequest(Base)`
    // runs nothing).
    let mut out: Vec<(FactRef, String)> = collected_classes
        .iter()
        .filter(|other| other.name == class)
        .flat_map(|other| &other.bases)
        .map(|base| {
            let key = format!("{base}{separator}{method}");
            (FactRef::head("method"), method_key(&key, &test.body))
        })
        .collect();
    let kept_uncollected = head
        .iter()
        .any(|other| other.key == test.key && other.is_test && !other.collected());
    if kept_uncollected {
        out.push((FactRef::head("inherits"), class.to_string()));
    }
    out
}

/// A Python test method whose class, still collected, now inherits a test of the same name
/// from a base (a changed file defines `Base › test_x`) whose code differs but whose checks
/// are the same lines: it still runs, restructured; a likely finding for a reviewer to compare.
/// One gutted on the way, or with checks added or dropped, is no such test.
fn inherited_by_name(
    test: &Test,
    collected_classes: &[&inheritance::Class],
) -> Vec<(FactRef, String, String)> {
    let separator = crate::query::KEY_SEPARATOR;
    let Some((class, method)) = test.key.split_once(separator) else {
        return Vec::new();
    };
    if method.contains(separator) || check_lines(&test.body).is_empty() {
        return Vec::new();
    }
    collected_classes
        .iter()
        .filter(|other| other.name == class)
        .flat_map(|other| &other.bases)
        .map(|base| {
            (
                FactRef::head("method-checks"),
                checks_key(&format!("{base}{separator}{method}"), &test.body),
                format!(
                    "; yet `{class}` now inherits a `{method}` from `{base}`, where it was rewritten: compare the two"
                ),
            )
        })
        .collect()
}

/// A test method's checks: the lines of its (whitespace-free) body that assert, each once,
/// in order.
fn check_lines(body: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = body
        .split('\n')
        .map(without_python_comment)
        .filter(|line| {
            line.starts_with("assert")
                || line.starts_with("self.assert")
                || line.starts_with("self.fail")
                || line.contains("pytest.raises(")
                || line.contains("pytest.warns(")
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The cross-file key of a test method by its checks alone (see [`check_lines`]).
fn checks_key(key: &str, body: &str) -> String {
    format!(
        "{key}{}{}",
        crate::query::KEY_SEPARATOR,
        body_key(&check_lines(body).join("\n"))
    )
}

/// The cross-file key of a test method with its (whitespace-free) body, line breaks, the
/// trailing commas a formatter adds when it wraps a call, and Python comments dropped: a move
/// may rewrap a call or add a `# pylint: disable=..` (reported on its own).
fn method_key(key: &str, body: &str) -> String {
    let code: String = body.split('\n').map(without_python_comment).collect();
    let code = code
        .replace(",)", ")")
        .replace(",]", "]")
        .replace(",}", "}");
    format!("{key}{}{}", crate::query::KEY_SEPARATOR, body_key(&code))
}

/// A line up to its `#` comment, when the `#` stands outside any string.
fn without_python_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (index, c) in line.char_indices() {
        match (quote, c) {
            (None, '#') => return &line[..index],
            (None, '"' | '\'') => quote = Some(c),
            (Some(open), _) if c == open => quote = None,
            _ => {}
        }
    }
    line
}

/// Whether base imports `name` from a test-support module (`use nu_test_support::nu;`,
/// `from './utils/cli-test-helpers'`, `from tests.fixtures import client`).
fn from_test_support(base: &str, name: &str) -> bool {
    const SUPPORT: &[&str] = &["test", "support", "harness", "fixture", "helper", "mock"];
    base.lines().take(MAX_IMPORT_LINES).any(|line| {
        let trimmed = line.trim_start();
        let importing = ["use ", "pub use ", "import ", "from ", "const "]
            .iter()
            .any(|keyword| trimmed.starts_with(keyword));
        let lower = trimmed.to_lowercase();
        importing
            && trimmed
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|word| word == name)
            && SUPPORT.iter().any(|word| lower.contains(word))
    })
}

/// Lines of a file searched for an import: imports sit at its top.
const MAX_IMPORT_LINES: usize = 2_000;

/// Fewest tests a file must lose before a harness switch reads as a wholesale port: one test
/// deleted while the file changes harness stays a deletion.
const MIN_PORTED: usize = 3;

/// What became of a test missing from head.
enum Fate {
    /// Another rule reports it, or it lives on (a rename, a merge, a fold into a table).
    Explained,
    /// It duplicated a test that remains: the note's message.
    Duplicate(String),
    /// Gone: the message, and whether simply gone (not renamed out of the collection).
    Gone(String, bool),
    /// Gone, but a new test plausibly carries it on: a `likely` finding, the message naming it.
    Likely(String),
}

/// One file's tests, as the judgement of a missing test reads them.
struct Scene<'s, 'a> {
    context: &'s FileContext<'a>,
    language: Language,
    /// The collected base tests.
    base: &'s [Test],
    /// Every head test and function.
    head: &'s [Test],
    /// Whole head tests that base did not have.
    fresh: &'s [Test],
    /// Each base key's body (its first case's).
    base_bodies: HashMap<&'s str, &'s str>,
    /// The collected head tests by body, for finding twins without a scan per deleted test.
    head_by_body: HashMap<&'s str, Vec<&'s Test>>,
    twins: Option<Twins<'s, 'a>>,
}

impl<'s, 'a> Scene<'s, 'a> {
    fn new(
        context: &'s FileContext<'a>,
        language: Language,
        base: &'s [Test],
        head: &'s [Test],
        head_collected: &'s [Test],
        fresh: &'s [Test],
    ) -> Scene<'s, 'a> {
        let mut base_bodies: HashMap<&str, &str> = HashMap::new();
        for test in base {
            base_bodies.entry(&test.key).or_insert(&test.body);
        }
        let mut head_by_body: HashMap<&str, Vec<&Test>> = HashMap::new();
        for test in head_collected {
            head_by_body.entry(&test.body).or_default().push(test);
        }
        Scene {
            context,
            language,
            base,
            head,
            fresh,
            base_bodies,
            head_by_body,
            twins: Twins::new(context),
        }
    }
}

/// Fact name: a pytest fixture with `params=` defined in a head file.
const PARAM_FIXTURE: &str = "param-fixture";

/// Lines looked back from a `def` for its decorators.
const DECORATOR_LINES: usize = 24;

/// The names of the fixtures in `text` declared with `params=` (`@pytest.fixture(params=[..])`
/// above `def http_protocol_cls(request)`): each runs every test that takes it once per param.
fn parametrized_fixtures(text: &str) -> Vec<String> {
    if !text.contains("params") {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(def) = trimmed
            .strip_prefix("async ")
            .unwrap_or(trimmed)
            .strip_prefix("def ")
        else {
            continue;
        };
        let name: String = def
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut decorators = String::new();
        for above in lines[..at].iter().rev().take(DECORATOR_LINES) {
            let above = above.trim_start();
            if above.is_empty() || above.starts_with("def ") || above.starts_with("class ") {
                break;
            }
            decorators.push_str(above);
        }
        let squashed: String = decorators.split_whitespace().collect();
        if !name.is_empty() && squashed.contains("fixture(") && squashed.contains("params=") {
            out.push(name);
        }
    }
    out
}

/// The text from 1-based `line` (a test's decorators or `def`) on, a few dozen lines.
fn signature(text: &str, line: u32) -> String {
    text.lines()
        .skip(line.saturating_sub(1) as usize)
        .take(DECORATOR_LINES)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The parameters of a Python test's `def` line(s), from its text (top-level names only).
fn python_parameters(body: &str) -> Vec<String> {
    let Some(open) = body
        .find("def ")
        .and_then(|at| body[at..].find('(').map(|open| at + open))
    else {
        return Vec::new();
    };
    let mut depth = 1usize;
    let mut parts = vec![String::new()];
    for c in body[open + 1..].chars().take(4_000) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(part) = parts.last_mut() {
            part.push(c);
        }
    }
    parts
        .iter()
        .filter_map(|part| {
            let name: String = part
                .trim()
                .trim_start_matches('*')
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty() && name != "self").then_some(name)
        })
        .collect()
}

/// A parametrize table whose rows left while the test gained a parameter: when a changed file
/// defines that parameter as a fixture with `params=`, the rows likely moved into the fixture
/// (uvicorn 56aa152a, 8239373e: `parametrize("ws_protocol", ..)` → `ws_protocol_cls` in conftest).
fn rows_to_fixture(
    cases: &[&Test],
    target: &str,
    head: &[Test],
    base_text: &str,
    head_text: &str,
) -> Option<Moved> {
    let before = python_parameters(&signature(base_text, cases.first()?.line));
    let after = head
        .iter()
        .find(|test| test.key == target)
        .map(|test| python_parameters(&signature(head_text, test.line)))?;
    let likely: Vec<(FactRef, String, String)> = after
        .into_iter()
        .filter(|name| !before.contains(name))
        .map(|name| {
            let more = format!(
                "; the test now takes `{name}`, a fixture a changed file parametrizes with `params=`: the rows may live on there"
            );
            (FactRef::head(PARAM_FIXTURE), name, more)
        })
        .collect();
    (!likely.is_empty()).then(|| Moved {
        family: "python",
        key: target.to_string(),
        already: FactRef::head("never-a-fact"),
        also: Vec::new(),
        print: None,
        likely,
        existed: None,
    })
}

fn deleted(test: &Test, line: u32, end_line: u32, message: String) -> Candidate {
    Candidate {
        side: Side::Base,
        line,
        end_line,
        severity: Severity::Error,
        message,
        key: test.id.clone(),
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    }
}

/// The candidate for a test missing from head (whole; `rows`: its table's rows, if any).
fn whole_missing(scene: &Scene<'_, '_>, test: &Test, rows: &[&str]) -> Option<Missing> {
    let (message, plain, duplicate) = match judge_missing(scene, test, rows) {
        Fate::Explained => return None,
        Fate::Duplicate(message) => (message, false, true),
        Fate::Gone(message, plain) => (message, plain, false),
        Fate::Likely(message) => {
            let mut candidate = deleted(test, test.line, test.end_line, message);
            candidate.confidence = crate::finding::Confidence::Likely;
            return Some(Missing {
                candidate,
                plain: true,
                duplicate: false,
            });
        }
    };
    let mut candidate = deleted(test, test.line, test.end_line, message);
    if duplicate {
        candidate.severity = Severity::Note;
    }
    Some(Missing {
        candidate,
        plain,
        duplicate,
    })
}

/// Prints of the head tests that are new in this file or whose body or rows changed: where a
/// test deleted anywhere in the change may live on under another name.
/// Per key: its first test and the rows of its table, in one pass.
fn tables_by_key(tests: &[Test]) -> std::collections::HashMap<&str, (&Test, Vec<String>)> {
    let mut map: std::collections::HashMap<&str, (&Test, Vec<String>)> = Default::default();
    for test in tests {
        let entry = map.entry(test.key.as_str()).or_insert((test, Vec::new()));
        entry.1.extend(test.case.clone());
    }
    map
}

fn new_or_changed_prints(
    context: &FileContext<'_>,
    base: &[Test],
    head: &[Test],
) -> Vec<TestPrint> {
    let Some(language) = context.language else {
        return Vec::new();
    };
    // Per key: the first test and the table's rows, gathered in one pass per side (a scan per
    // key was quadratic in a file's tests).
    let (base_by_key, head_by_key) = (tables_by_key(base), tables_by_key(head));
    let path = context
        .pair
        .new_path
        .as_deref()
        .unwrap_or(context.pair.path());
    let mut done: HashSet<&str> = HashSet::new();
    let mut prints = Vec::new();
    for test in head {
        if !done.insert(test.key.as_str()) {
            continue;
        }
        let rows = head_by_key
            .get(test.key.as_str())
            .map(|(_, rows)| rows.clone())
            .unwrap_or_default();
        let unchanged = base_by_key
            .get(test.key.as_str())
            .is_some_and(|(old, old_rows)| old.body == test.body && *old_rows == rows);
        if unchanged {
            continue;
        }
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        prints.push(TestPrint::of(&test.whole(), &rows, language.family(), path));
    }
    prints
}

/// A parametrized test whose name changed: the head test (new in this file) that shares at
/// least half of its rows, or has a near-identical body.
fn renamed_table(cases: &[&Test], head: &[Test], fresh: &[Test]) -> Option<String> {
    let candidate_rows = |key: &str| -> Vec<&str> {
        head.iter()
            .filter(|t| t.key == key)
            .filter_map(|t| t.case.as_deref())
            .collect()
    };
    // A row counts as kept when it is a row of the new table, inside one (a row merged into a
    // wider table), or the start of one (a column appended: `(1,2)` → `(1,2,3)`).
    let kept = |row: &str, new_rows: &[&str]| {
        let open = row.trim_end_matches([')', ']']);
        new_rows.iter().any(|new| {
            *new == row
                || (row.len() >= 3 && new.contains(row))
                || (open.len() >= 3 && open.len() < row.len() && new.starts_with(open))
        })
    };
    let rows: Vec<&str> = cases.iter().filter_map(|t| t.case.as_deref()).collect();
    // Several old tables may merge into one new test, so the match is not consumed.
    fresh
        .iter()
        .find(|candidate| {
            let new_rows = candidate_rows(&candidate.key);
            let shared = rows.iter().filter(|row| kept(row, &new_rows)).count();
            shared * 2 >= rows.len().max(1) || similar_bodies(&cases[0].body, &candidate.body)
        })
        .map(|candidate| candidate.key.clone())
}

/// Rows of a parametrized test that are gone, when the table shrank (a row edited in place, or
/// replaced, keeps the count and is not reported) and the rows are not in `split_off`, the
/// rows of the other tables new in this file. With the candidate, the rows gone.
fn removed_rows<'t>(
    cases: &[&'t Test],
    target: &str,
    head: &[Test],
    split_off: &[&str],
) -> Option<(Candidate, Vec<&'t str>)> {
    let mut remaining: Vec<&str> = head
        .iter()
        .filter(|t| t.key == target)
        .filter_map(|t| t.case.as_deref())
        .collect();
    let now = remaining.len();
    let kept_rows = remaining.clone();
    let mut gone: Vec<&Test> = Vec::new();
    for case in cases {
        let row = case.case.as_deref().unwrap_or_default();
        match remaining.iter().position(|other| *other == row) {
            Some(index) => {
                remaining.remove(index);
            }
            None => gone.push(case),
        }
    }
    let mut split_off = split_off.to_vec();
    let before = gone.len();
    gone.retain(|case| {
        let row = case.case.as_deref().unwrap_or_default();
        match split_off.iter().position(|other| *other == row) {
            Some(index) => {
                split_off.remove(index);
                false
            }
            None => true,
        }
    });
    // A table folded into one plain test keeps the rows that test now spells out inline.
    let inline: Vec<String> = head
        .iter()
        .filter(|t| t.key == target && t.case.is_none())
        .map(|t| inventory::squash(&t.body))
        .collect();
    if !inline.is_empty() {
        gone.retain(|case| {
            let row = inventory::squash(case.case.as_deref().unwrap_or_default());
            row.is_empty() || !inline.iter().any(|body| body.contains(&row))
        });
    }
    let kept_elsewhere = before - gone.len();
    // A row listed twice lost one copy: the other still runs it.
    let copy = |case: &Test| kept_rows.contains(&case.case.as_deref().unwrap_or_default());
    let copies = gone.iter().filter(|case| copy(case)).count();
    if now + kept_elsewhere + copies >= cases.len() {
        return None;
    }
    gone.retain(|case| !copy(case));
    let first = gone.first()?;
    let listed: Vec<String> = gone
        .iter()
        .take(3)
        .map(|t| format!("`{}`", t.case.as_deref().unwrap_or_default()))
        .collect();
    let more = if gone.len() > 3 {
        format!(" and {} more", gone.len() - 3)
    } else {
        String::new()
    };
    let message = format!(
        "test `{}`: {} cases → {now}; {}{more} no longer in the table",
        first.key,
        cases.len(),
        listed.join(", "),
    );
    let rows = gone.iter().filter_map(|t| t.case.as_deref()).collect();
    Some((deleted(first, first.line, first.line, message), rows))
}

/// What became of `test` (whole), missing from head; `rows`: its table's rows, if any.
fn judge_missing(scene: &Scene<'_, '_>, test: &Test, rows: &[&str]) -> Fate {
    let (context, language, head, fresh) = (scene.context, scene.language, scene.head, scene.fresh);
    let name = &test.id;
    // Rust: the function is still there without its test attribute; skipped-test reports it.
    if language == Language::Rust
        && head
            .iter()
            .any(|other| !other.is_test && other.key == test.key)
    {
        return Fate::Explained;
    }
    // Replaced by a `.todo` placeholder: skipped-test reports it.
    if head.iter().any(|other| other.todo && other.key == test.key) {
        return Fate::Explained;
    }
    // Same identity, no longer collected: the file or the class left the runner's patterns.
    if let Some(other) = head
        .iter()
        .find(|other| other.is_test && other.key == test.key && !other.collected())
    {
        let why = other.not_collected.clone().unwrap_or_default();
        return Fate::Gone(
            format!("test `{name}` is no longer collected by the runner: {why}"),
            false,
        );
    }
    // A rename with the same (or nearly the same) body. Not consumed: two old tests may
    // merge into one new one.
    if fresh
        .iter()
        .any(|other| similar_bodies(&test.body, &other.body))
    {
        return Fate::Explained;
    }
    // A copy of a test that remains, identical to it but for its name.
    if let Some(twin) = scene
        .twins
        .as_ref()
        .zip(scene.head_by_body.get(test.body.as_str()))
        .and_then(|(twins, alike)| twins.twin(test, alike, scene.base))
    {
        return Fate::Duplicate(format!(
            "test `{name}` was deleted; it duplicated `{}` (line {}), which remains",
            twin.key, twin.test_lines.0
        ));
    }
    // The body merged into another test, which now contains it (and its rows). A test that
    // held those lines already in base is no merge: it only looked alike all along
    // (`assert f(1) == 2` is inside `assert f(1) == 20`), or ran them on other rows.
    let merged_now = |other: &Test| {
        scene
            .base_bodies
            .get(other.key.as_str())
            .is_none_or(|before| !contains_body(&test.body, before))
    };
    let keeps_rows = |other: &Test| {
        rows.iter().all(|row| {
            head.iter()
                .any(|kept| kept.key == other.key && kept.case.as_deref() == Some(*row))
        })
    };
    if head.iter().any(|other| {
        other.collected()
            && other.key != test.key
            && contains_body(&test.body, &other.body)
            && merged_now(other)
            && keeps_rows(other)
    }) {
        return Fate::Explained;
    }
    // Split into several new tests, each holding some of its lines (`rejects invalid values`
    // → `rejects NaN`, `rejects Infinity`, ..): every line of its body lives on.
    // Not into a file that may skip some of its tests: one of them may never run.
    let head_text = context.side(Side::Head).map_or("", |side| side.text);
    if !inventory::may_skip_tests(head_text) && split_into_new_tests(test, fresh) {
        return Fate::Explained;
    }
    // The same name in another suite of this file (moved into `mod tests`, a `describe`
    // added around it): weakened-assertion compares the two.
    let base_keys: Vec<&str> = Vec::new();
    // Or renamed to repeat or stop repeating the module's name (`match_for_record` →
    // `record`).
    if inventory::moved_between_suites(test, head, &base_keys)
        .or_else(|| inventory::renamed_by_prefix(test, fresh, &base_keys, context.pair.path()))
        .is_some_and(|other| fresh.iter().any(|new| new.key == other.key))
    {
        return Fate::Explained;
    }
    // Turned into a row of a parametrized test: its literals now sit in one row.
    if became_row(test, head) {
        return Fate::Explained;
    }
    // Or the script it ran is now the input of a new row (`| slice 0..0 |` of
    // `#[case::one_row("slice 0..0", [0])]`), its expected value rewritten for another harness:
    // perhaps a port, perhaps not, so a likely finding that names the row.
    if let Some((row, input)) = ran_a_new_row(scene, test) {
        return Fate::Likely(format!(
            "test `{name}` was deleted; it may live on as `{}` (line {}), whose input `{input}` \
             it ran",
            row.id, row.line
        ));
    }
    // Renamed to something the runner does not collect (`check_foo`, `_test_foo`).
    if !test.body.is_empty()
        && let Some(other) = head
            .iter()
            .find(|other| !other.collected() && similar_bodies(&test.body, &other.body))
    {
        let why = other
            .not_collected
            .clone()
            .map_or_else(|| runner_names(language).to_string(), |why| why.to_string());
        return Fate::Gone(
            format!(
                "test `{name}` was renamed to `{}`, which is not collected: {why}",
                other.key
            ),
            false,
        );
    }
    let message = if context.pair.status == Status::Deleted {
        format!("test `{name}` was deleted with its file and does not reappear elsewhere")
    } else {
        format!("test `{name}` was deleted and does not reappear elsewhere")
    };
    Fate::Gone(message, true)
}

/// Whether every line of `test`'s body but its signature (those long enough to say
/// something, as [`inventory::contains_body`] reads them) stands in one of the tests new in
/// this file, spread over two of them or more: a test split into several.
fn split_into_new_tests(test: &Test, fresh: &[Test]) -> bool {
    // Bodies are squashed (no whitespace); so is the title in the signature line.
    let title: String = test
        .key
        .rsplit(crate::query::KEY_SEPARATOR)
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let lines: Vec<&str> = test
        .body
        .split('\n')
        .filter(|line| line.len() >= 8 && (title.is_empty() || !line.contains(title.as_str())))
        .collect();
    if lines.len() < 2 {
        return false;
    }
    let mut holders: Vec<usize> = Vec::new();
    for line in lines {
        let Some(holder) = fresh.iter().position(|other| {
            other.collected() && other.body.split('\n').any(|kept| kept.contains(line))
        }) else {
            return false;
        };
        if !holders.contains(&holder) {
            holders.push(holder);
        }
    }
    holders.len() >= 2
}

/// Why a plain function is not a test, per language.
fn runner_names(language: Language) -> &'static str {
    match language {
        Language::Python => "pytest and unittest collect only `test*` functions",
        Language::Rust => "it has no test attribute",
        _ => "it is not an `it`/`test` call",
    }
}

/// Rust: a test module declared as `#[cfg(test)] mod tests;` (its tests in their own file)
/// whose declaration the change removed. The module's file may be untouched, so its tests are
/// not in the change set at all: the removed `mod` line is the only evidence.
fn removed_test_modules(context: &FileContext<'_>, out: &mut Output) {
    let declared = |side: Side| -> Vec<(String, u32)> {
        let (Some(parsed), Some(text)) = (context.parsed(side), context.side(side)) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        collect_test_mods(parsed.tree.root_node(), text.text, &mut found);
        found
    };
    let head = declared(Side::Head);
    for (name, line) in declared(Side::Base) {
        if head.iter().any(|(other, _)| *other == name) {
            continue;
        }
        out.candidates.push(Candidate {
            side: Side::Base,
            line,
            end_line: line,
            severity: Severity::Error,
            message: format!(
                "test module `{name}` is no longer declared: the tests in its file no longer compile or run"
            ),
            key: format!("mod {name}"),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

/// `mod NAME;` items (no body) marked `#[cfg(test)]` or named like a test module. The walk keeps
/// its own stack: a hostile file nests far deeper than the thread's stack would allow recursion.
fn collect_test_mods(root: tree_sitter::Node<'_>, source: &str, out: &mut Vec<(String, u32)>) {
    let mut cursor = root.walk();
    // Reversed onto the stack so that nodes come off it in document order.
    let mut pending: Vec<_> = root.named_children(&mut cursor).collect();
    pending.reverse();
    while let Some(node) = pending.pop() {
        if node.kind() != "mod_item" {
            let mut cursor = node.walk();
            let start = pending.len();
            pending.extend(node.named_children(&mut cursor));
            pending[start..].reverse();
            continue;
        }
        if node.child_by_field_name("body").is_some() {
            continue;
        }
        let name = node
            .child_by_field_name("name")
            .and_then(|name| source.get(name.byte_range()))
            .unwrap_or_default();
        let cfg_test = node.prev_named_sibling().is_some_and(|attribute| {
            attribute.kind() == "attribute_item"
                && source
                    .get(attribute.byte_range())
                    .is_some_and(|text| inventory::squash(text).contains("cfg(test)"))
        });
        if cfg_test || name == "tests" || name == "test" || name.ends_with("_tests") {
            let line = u32::try_from(node.start_position().row).unwrap_or(0) + 1;
            out.push((name.to_string(), line));
        }
    }
}

/// Whether the literals of `test` (at least two strings of three characters or more, half of
/// them) now sit in one row of a parametrized test: the test was folded into a table.
fn became_row(test: &Test, head: &[Test]) -> bool {
    if became_named_case(test, head) {
        return true;
    }
    let literals = string_literals(&test.body);
    // One literal is enough evidence only when it is long (a URL, a sentence), not a word.
    let enough =
        literals.len() >= 2 || literals.iter().any(|literal| literal.chars().count() >= 10);
    if !enough {
        return false;
    }
    head.iter()
        .filter(|other| other.collected() && other.key != test.key)
        .filter_map(|other| other.case.as_deref())
        .any(|row| {
            // The body is whitespace-free, so the row must be too (`"a b"` is `"ab"` there).
            let row = inventory::squash(row);
            let found = literals
                .iter()
                .filter(|literal| row.contains(literal.as_str()))
                .count();
            // Half: the inputs stay, expected values may change with the behaviour.
            found * 2 >= literals.len()
        })
}

/// A new row of another test (a key and case base did not have) whose input, a script or a
/// sentence (a literal of six characters or more, with a space), the deleted test's body
/// holds; with that input as written.
fn ran_a_new_row<'s>(scene: &Scene<'s, '_>, test: &Test) -> Option<(&'s Test, String)> {
    let is_new_row = |other: &Test| {
        !scene
            .base
            .iter()
            .any(|old| old.key == other.key && old.case == other.case)
    };
    // Rows are squashed; the row's own line says whether the input had a space (a script, not
    // a file name like `notes.txt`). Read only for rows whose squashed input matched.
    let head_text = scene.context.pair.head.text().unwrap_or_default();
    let written = |line: u32, squashed: &str| -> Option<String> {
        let raw = head_text
            .lines()
            .nth(usize::try_from(line).ok()?.checked_sub(1)?)?;
        string_literals(raw)
            .into_iter()
            .find(|literal| literal.trim().contains(' ') && inventory::squash(literal) == squashed)
    };
    scene
        .head
        .iter()
        .filter(|other| other.collected() && other.key != test.key)
        .filter(|other| other.case.is_some() && is_new_row(other))
        .find_map(|other| {
            let row = other.case.as_deref()?;
            string_literals(row)
                .into_iter()
                .filter(|literal| {
                    literal.chars().count() >= 6 && test.body.contains(literal.as_str())
                })
                .find_map(|literal| written(other.line, &literal))
                .map(|input| (other, input))
        })
}

/// Whether a new named case carries the test's name: `into_int_filesize` became
/// `#[case::filesize(..)]` of `into_int_converts_value` (the old name is the case's name, or
/// ends with `_` and it, and the two tests share the first word of their names).
fn became_named_case(test: &Test, head: &[Test]) -> bool {
    let last = |key: &str| -> String {
        key.rsplit(crate::query::KEY_SEPARATOR)
            .next()
            .unwrap_or(key)
            .to_string()
    };
    let old = last(&test.key);
    let first_word = |name: &str| name.split('_').next().unwrap_or_default().to_string();
    head.iter()
        .filter(|other| other.collected() && other.key != test.key)
        .filter_map(|other| Some((other, other.case.as_deref()?.split_once(':')?.0)))
        .filter(|(_, case)| {
            case.len() >= 3 && case.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        .any(|(other, case)| {
            let new = last(&other.key);
            // The case's words, in any order, are words of the old name (`empty_binary` of
            // `into_int_binary_empty`).
            let old_words: Vec<&str> = old.split('_').collect();
            // Or the old name is the new test's name plus a qualifier that the case's name
            // mostly repeats (`sources_unicode_file_in_normal_dir` →
            // `sources_unicode_file` with `#[case::normal_dir_single_quotes(..)]`).
            let qualified = old
                .strip_prefix(&format!("{new}_"))
                .is_some_and(|rest| {
                    let words: Vec<&str> = rest
                        .split('_')
                        .filter(|word| !matches!(*word, "in" | "with" | "and" | "of" | "the" | "a"))
                        .collect();
                    let case_words: Vec<&str> = case.split('_').collect();
                    let shared = words.iter().filter(|word| case_words.contains(word)).count();
                    !words.is_empty() && shared * 2 >= words.len()
                });
            let named_after = old == case
                || old.ends_with(&format!("_{case}"))
                || case.split('_').all(|word| old_words[1..].contains(&word))
                || qualified;
            // The same first word keeps a one-word case (`major`) from matching any test;
            // an abbreviated one (`semversion_major_inc` → `semantic_version_inc`) shares its
            // start. A case named exactly after the test needs neither.
            let (old_first, new_first) = (first_word(&old), first_word(&new));
            let alike_first = old_first == new_first
                || (old_first.len() >= 3
                    && new_first.len() >= 3
                    && old_first[..3] == new_first[..3]);
            let exact = old == case && (case.contains('_') || case.len() >= 8);
            named_after && (alike_first || exact)
        })
        // A row that names the old test (`#[case::command("def_with_comment")]`).
        || (old.len() >= 8
            && head
                .iter()
                .filter(|other| other.collected() && other.key != test.key)
                .filter_map(|other| other.case.as_deref())
                .any(|row| row.contains(&format!("\"{old}\""))))
}

/// Longest quoted string read as a literal, in characters.
const MAX_LITERAL: usize = 400;

/// Distinct quoted strings (three characters or more) in a whitespace-free body.
fn string_literals(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut chars = body.char_indices();
    while let Some((start, c)) = chars.next() {
        if c != '"' && c != '\'' {
            continue;
        }
        // A literal may span lines (a multi-line script in a raw string); the body keeps the
        // line breaks, which are dropped here. Bounded, so a stray quote in a comment does not
        // swallow the rest of the body.
        let Some((end, _)) = chars
            .by_ref()
            .take(MAX_LITERAL)
            .find(|(_, other)| *other == c)
        else {
            continue;
        };
        let literal: String = body[start + 1..end]
            .chars()
            .filter(|c| *c != '\n')
            .collect();
        if literal.chars().count() >= 3 && !out.contains(&literal) {
            out.push(literal);
        }
    }
    out
}

/// The cross-file key of a test body.
fn body_key(body: &str) -> String {
    crate::finding::stable_hash(&[body])
}

/// [`body_key`] of every line prefix of `body` (first line, first two, ..., all), hashed
/// incrementally: joining each prefix anew was quadratic in a test of 20k lines.
fn body_prefix_keys(body: &str) -> Vec<String> {
    use crate::finding::{FNV1A64_START, fnv1a64_continue};
    let mut hash = FNV1A64_START;
    body.split('\n')
        .enumerate()
        .map(|(index, line)| {
            if index > 0 {
                hash = fnv1a64_continue(hash, *b"\n");
            }
            hash = fnv1a64_continue(hash, line.bytes());
            // stable_hash ends each part with a NUL byte.
            format!("{:016x}", fnv1a64_continue(hash, [0u8]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_keys_are_the_keys_of_each_line_prefix() {
        let body = "a = 1\nassert a\n\nassert b";
        let lines: Vec<&str> = body.split('\n').collect();
        let expected: Vec<String> = (1..=lines.len())
            .map(|end| body_key(&lines[..end].join("\n")))
            .collect();
        assert_eq!(body_prefix_keys(body), expected);
    }
}

#[cfg(test)]
mod fixture_param_tests {
    use super::*;

    #[test]
    fn fixtures_declared_with_params_are_found() {
        let text = "import pytest\n\n\n@pytest.fixture(\n    params=[\n        pytest.param(\n            \"a:B\",\n            marks=pytest.mark.skipif(\n                True, reason=\"x\"\n            ),\n        ),\n        \"c:D\",\n    ]\n)\ndef ws_protocol_cls(request: pytest.FixtureRequest):\n    return request.param\n\n\n@pytest.fixture\ndef plain():\n    return 1\n";
        assert_eq!(parametrized_fixtures(text), ["ws_protocol_cls"]);
    }

    #[test]
    fn parameters_are_read_at_the_top_level() {
        let body = "async def test_trace(\n    ws_protocol_cls: \"typing.Type[WSProtocol | WebSocketProtocol]\",\n    caplog,\n    mapping: dict[str, int] = {},\n):\n    pass\n";
        assert_eq!(
            python_parameters(body),
            ["ws_protocol_cls", "caplog", "mapping"]
        );
    }
}

use super::*;

fn kinds(text: &str) -> Vec<Kind> {
    stated(&[Claim::new("test", text)])
        .into_iter()
        .map(|claim| claim.kind)
        .collect()
}

#[test]
fn every_section_of_the_data_file_is_a_kind_and_compiles() {
    let sections = stated::sections_in_data();
    for kind in Kind::ALL {
        assert!(sections.iter().any(|s| s == kind.name()), "{}", kind.name());
    }
    assert_eq!(sections.len(), Kind::ALL.len(), "{sections:?}");
    assert_eq!(stated::compiled_kinds(), Kind::ALL.to_vec());
}

#[test]
fn plain_claims_are_read() {
    assert_eq!(
        kinds("Added unit tests for the parser."),
        [Kind::TestsAdded]
    );
    assert_eq!(kinds("Fix flaky login test"), [Kind::TestsPass]);
    assert_eq!(kinds("All tests pass now."), [Kind::TestsPass]);
    assert_eq!(
        kinds("Pure refactor, no behaviour change."),
        [Kind::NoBehaviourChange]
    );
    assert_eq!(kinds("Coverage is unchanged."), [Kind::CoverageKept]);
    assert_eq!(kinds("No new dependencies."), [Kind::NoNewDependencies]);
    assert_eq!(kinds("Fixed the remaining mypy errors."), [Kind::LintClean]);
    assert_eq!(kinds("- [x] Tests added"), [Kind::TestsAdded]);
    assert_eq!(kinds("Add tests for the wheel builder"), [Kind::TestsAdded]);
    assert_eq!(
        kinds("Refactor only; tests pass"),
        [Kind::NoBehaviourChange, Kind::TestsPass]
    );
}

#[test]
fn negated_deferred_conditional_and_asked_forms_are_not_claims() {
    for text in [
        "No tests added.",
        "I didn't add tests for this.",
        "Done without adding tests",
        "Tests will be added in a follow-up.",
        "Tests added later",
        "TODO: add tests",
        "Once tests pass, merge.",
        "Do the tests pass?",
        "- [ ] Tests added",
        "> all tests pass",
        "<!-- Did you add tests? Make sure all tests pass. -->",
        "```\nall tests pass\n```",
        "Make sure the tests pass before merging",
        "We should add tests",
        "In order to add a regression test, #3379 added support to the mock.",
        "Co-authored-by: Tests Pass <tp@example.com>",
        "Run `tests pass` locally",
        "The parser is done, but no tests added",
        "Fix a problem with tests on Windows",
        "- [x] I've added tests (if relevant) corresponding to the changes\nintroduced in this PR.",
        "- [☑️] I've added tests (if relevant) corresponding to the changes",
        "- [x] Tests added where applicable",
        "Use the new test runner",
        "Add tests and requirements.txt to sdist (#2927)",
        "Include tests in the wheel",
        "Add a test bed for reflections in Solari.",
        "Already covered by the tests in test_api.py",
        "Bumps langgraph from 1.0 to 1.1.\n<details>\n<summary>Release notes</summary>\n<p>tests: add more tests</p>\n</details>",
        "Updates the lock file.\n<ul>\n<li>fix: add test to verify iteration in server-side cursor</li>\n</ul>",
    ] {
        assert!(kinds(text).is_empty(), "{text:?} read as {:?}", kinds(text));
    }
}

#[test]
fn a_panic_message_is_no_assertion() {
    assert!(!ASSERTION.is_match(r#"    .expect("failed to spawn sleep");"#));
    assert!(!ASSERTION.is_match(r#"let child = cmd.spawn().expect("spawn");"#));
    assert!(ASSERTION.is_match(r#"  expect(total).toBe(3);"#));
    assert!(ASSERTION.is_match(r#"await expect(page).toHaveTitle("x");"#));
}

#[test]
fn literals_blanked_out_make_the_shape_of_an_assertion() {
    assert_eq!(
        shape("assert total(3) == 42"),
        shape("assert total(3) == 41")
    );
    assert_ne!(
        shape("assert total(3) == 42"),
        shape("assert subtotal(3) == 42")
    );
    assert_eq!(
        shape(r#"expect(name()).toBe("Ada")"#),
        shape(r#"expect(name()).toBe('Bob')"#)
    );
}

#[test]
fn a_sentence_wrapped_over_lines_is_read_whole() {
    // "not sure" on the line before defers "add a test" on the next.
    assert!(
        kinds("Change the generated code. I'm not sure\nhow to add a test for this.").is_empty()
    );
    // A wrapped claim is still one.
    assert_eq!(
        kinds("This change adds\nunit tests for the parser."),
        [Kind::TestsAdded]
    );
    // A list item starts a sentence of its own.
    assert_eq!(
        kinds("I'm not sure\n- added tests for the parser"),
        [Kind::TestsAdded]
    );
}

#[test]
fn doctests_are_tests() {
    for line in ["    /// ```", "//! ```rust", "    >>> parse('1')"] {
        assert!(TEST_MARKER.is_match(line), "{line}");
    }
    assert!(!TEST_MARKER.is_match("    /// Parses the input."));
}

#[test]
fn tests_kept_as_data_count_as_tests() {
    for path in [
        "crates/ty/resources/mdtest/scopes/global.md",
        "src/__snapshots__/app.test.ts.snap",
        "pkg/parse_test.go",
        "src/test/java/FooTest.java",
        "testdata/input.txt",
    ] {
        assert!(looks_like_test(path), "{path}");
    }
    assert!(!looks_like_test("src/parser/core.py"));
}

#[test]
fn clause_breaks_and_case_outside_ascii_do_not_split_a_character() {
    // Prisma's commit messages: an em dash right before a phrase, and a capital letter whose
    // lower case is longer in UTF-8 before " but ".
    assert_eq!(kinds("- — added tests for the planner"), [Kind::TestsAdded]);
    assert_eq!(kinds("Ⱥ is done — tests pass"), [Kind::TestsPass]);
    assert!(kinds("İİİ is done, but no tests added").is_empty());
    for text in [
        "—tests pass",
        "–",
        "— 20 files and 112 tests pass",
        "ȺȺ but tests pass",
    ] {
        let _ = kinds(text);
    }
}

//! The test inventory of one side of a file, following each runner's collection rules.
//!
//! Built on the shared `tests` query. A test's identity is (language family, enclosing suite
//! path, name, case), never a line number: `TestApi › test_login[(1, 2)]`. Each
//! `pytest.mark.parametrize` row, `.each` table row and `#[test_case]`/`#[case]` attribute is
//! its own case. Functions the runner would not collect (a `test_*` function in `x.py`, a
//! method of a class pytest ignores, a Python function not named `test*`) are kept with
//! `collected: false` and the reason, so a test taken out of the runner can be told from a
//! deleted one. Runner configuration (`python_files`, `testMatch`) is not read here.
//!
//! Rust: `#[test]`-like attributes, tests inside `proptest! { .. }` (found by name; their range
//! runs to the end of their `{ .. }` body), and `#[bench]` functions in any file: libtest runs
//! each benchmark once as a test under `cargo test` (only `cargo bench` times them), so
//! deleting one removes a test. Criterion benchmarks (`c.bench_function(..)` in `benches/`)
//! are not tests: `cargo test` does not run them. JavaScript: `it`/`test` calls in every
//! runner's spelling (ava `test.serial`, `test.failing`, which runs and is reported by
//! `skipped-test` as an expected failure; `test.todo`/`test.skip` as for jest) and tap/node:test
//! subtests `t.test(..)`.

use super::collection::Collection;
use super::collection::pytest::PytestFile;
use super::context::FileContext;
use crate::finding::Side;
use crate::lang::Language;
use crate::query::KEY_SEPARATOR;
use tree_sitter::Node;

mod cases;
pub mod twins;

use cases::cases;

/// One test (or, when `collected` is false, a function that is not collected as one).
#[derive(Clone, Debug)]
pub struct Test {
    /// Identity within the language family: the key plus `[case]` for parametrized cases.
    pub id: String,
    /// Suite path and name, without the case.
    pub key: String,
    /// The case (a parametrize row, normalised), when the test is parametrized.
    pub case: Option<String>,
    /// 1-based line of the test (of the case's row for parametrized cases).
    pub line: u32,
    /// 1-based last line.
    pub end_line: u32,
    /// 1-based first and last line of the test itself (the same as `line`..`end_line` unless
    /// this is a case).
    pub test_lines: (u32, u32),
    /// Byte range of the test's node.
    pub byte_range: std::ops::Range<usize>,
    /// The body, one line per line with whitespace removed, for telling renames from deletions.
    pub body: String,
    /// Whether the runner collects it; when not, why.
    pub not_collected: Option<String>,
    /// Whether the query saw a test (false: a plain function).
    pub is_test: bool,
    /// A `.todo` placeholder: not run, and reported by `skipped-test` when it replaces a test.
    pub todo: bool,
}

impl Test {
    /// The whole test, cases folded: identity = key.
    pub fn whole(&self) -> Test {
        Test {
            id: self.key.clone(),
            case: None,
            line: self.test_lines.0,
            end_line: self.test_lines.1,
            ..self.clone()
        }
    }

    /// Whether the runner collects this as a test.
    pub fn collected(&self) -> bool {
        self.is_test && self.not_collected.is_none()
    }
}

/// Whether the runner collects tests from `path` on `side`: pytest `python_files` and
/// `testpaths` of the configuration nearest to it, the nearest JavaScript runner
/// configurations and their projects (jest, vitest, ava, playwright, mocha), else the runners'
/// default patterns.
pub fn is_test_file(path: &str, side: Side, language: Language, collection: &Collection) -> bool {
    match language {
        Language::Python => collection.pytest(path, side).collects_file(),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            collection.js_file_on(path, side)
        }
        Language::Rust => true,
    }
}

/// Every test and function on `side`, cases expanded, in document order.
pub fn tests(context: &FileContext<'_>, side: Side) -> std::rc::Rc<Vec<Test>> {
    // Several rules and the summary read the inventory; it is built once per side.
    context.memo_tests(side, || build(context, side))
}

fn build(context: &FileContext<'_>, side: Side) -> Vec<Test> {
    let (Some(language), Some(text), Some(parsed)) =
        (context.language, context.side(side), context.parsed(side))
    else {
        return Vec::new();
    };
    let source = text.text;
    let pytest = context.collection.pytest(text.path, side);
    let file_ok = is_test_file(text.path, side, language, context.collection);
    let root = parsed.tree.root_node();
    let matches = context.matches(side, "tests");
    let mut out: Vec<Test> = Vec::new();
    // A set, not a list: a minified bundle holds tens of thousands of functions.
    let mut seen: std::collections::HashSet<std::ops::Range<usize>> = Default::default();
    // Test patterns come before `function` patterns for the same node; keep the first.
    let mut ordered: Vec<&crate::query::QueryMatch> = matches
        .iter()
        .filter(|found| matches!(found.property("kind"), Some("test" | "function")))
        .collect();
    ordered.sort_by_key(|found| {
        (
            found.byte_range.start,
            found.property("kind") != Some("test"),
        )
    });
    for found in ordered {
        if !seen.insert(found.byte_range.clone()) {
            continue;
        }
        // pytest: a function is a test by the configuration's `python_functions` (default:
        // the `test` prefix that the query itself looks for).
        let is_test = match language {
            Language::Python => {
                matches!(found.property("kind"), Some("test" | "function"))
                    && pytest.collects_function(&found.name)
            }
            _ => found.property("kind") == Some("test"),
        };
        let node = node_at(root, found.byte_range.clone());
        let mut not_collected = None;
        if is_test && !file_ok {
            let patterns = match language {
                Language::Python => pytest.file_patterns(),
                _ => context.collection.js_file_patterns(text.path),
            };
            not_collected = Some(format!(
                "`{}` is outside the runner's test file patterns ({patterns})",
                text.path,
            ));
        }
        if is_test && not_collected.is_none() && language == Language::Python {
            not_collected = python_not_collected(root, node, source, &pytest, &found.name);
        }
        let body = node
            .map(|node| body_text(node, source, language))
            .unwrap_or_default();
        // A `proptest!` test is found by its name; its range runs to the end of its body so
        // that the assertions inside count for it.
        let byte_range = match node.and_then(proptest_body) {
            Some(body) => found.byte_range.start..body.end_byte(),
            None => found.byte_range.clone(),
        };
        let todo = is_test
            && node.is_some_and(|node| {
                node.child_by_field_name("function")
                    .is_some_and(|callee| text_of(callee, source).ends_with(".todo"))
            });
        if todo {
            not_collected = Some("it is a `.todo` placeholder".to_string());
        }
        let base = Test {
            id: found.key.clone(),
            key: found.key.clone(),
            case: None,
            line: found.line,
            end_line: found.end_line,
            test_lines: (found.line, found.end_line),
            byte_range,
            body,
            not_collected,
            is_test,
            todo,
        };
        let cases = match node {
            Some(node) if is_test => cases(node, source, language),
            _ => Vec::new(),
        };
        if cases.is_empty() {
            out.push(base);
            continue;
        }
        for (case, line) in cases {
            out.push(Test {
                id: format!("{}[{case}]", base.key),
                case: Some(case),
                line,
                end_line: line,
                ..base.clone()
            });
        }
    }
    out
}

/// Ids of the collected tests on `side`.
pub fn collected_ids(context: &FileContext<'_>, side: Side) -> Vec<String> {
    tests(context, side)
        .iter()
        .filter(|test| test.collected())
        .map(|test| test.id.clone())
        .collect()
}

/// The innermost named node spanning exactly `range` (a query's `@finding` node: a block
/// holding a single method has the method's range too, so never walk upwards).
pub fn node_at(root: Node<'_>, range: std::ops::Range<usize>) -> Option<Node<'_>> {
    let node = root.named_descendant_for_byte_range(range.start, range.end)?;
    (node.byte_range() == range).then_some(node)
}

/// Text with all whitespace removed.
pub fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn text_of<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// Why pytest does not collect the test function `name` of a file it collects tests from:
/// no configuration that collects the file takes the name, or its scope (below).
fn python_not_collected(
    root: Node<'_>,
    node: Option<Node<'_>>,
    source: &str,
    pytest: &PytestFile<'_>,
    name: &str,
) -> Option<String> {
    let pytest = pytest.for_function(name);
    if !pytest.collects_file() {
        return Some(format!(
            "no pytest configuration that collects its file takes a function named `{name}`"
        ));
    }
    scope_not_collected(root, node?, source, &pytest)
}

/// Python: a test nested in a function is not collected, nor is a method of a class that
/// pytest ignores (not `Test*`, or with `__init__`) unless it subclasses a `TestCase`.
fn scope_not_collected(
    root: Node<'_>,
    node: Node<'_>,
    source: &str,
    pytest: &PytestFile<'_>,
) -> Option<String> {
    for ancestor in crate::lang::ancestors(root, node) {
        match ancestor.kind() {
            "function_definition" => {
                return Some("it is nested in a function".to_string());
            }
            "class_definition" => {
                let name = ancestor
                    .child_by_field_name("name")
                    .map(|name| text_of(name, source))
                    .unwrap_or_default();
                let bases = ancestor
                    .child_by_field_name("superclasses")
                    .map(|bases| text_of(bases, source))
                    .unwrap_or_default();
                let has_init = ancestor.child_by_field_name("body").is_some_and(|body| {
                    let mut cursor = body.walk();
                    body.named_children(&mut cursor).any(|child| {
                        let function = if child.kind() == "decorated_definition" {
                            child.child_by_field_name("definition")
                        } else {
                            Some(child)
                        };
                        function.is_some_and(|function| {
                            function.kind() == "function_definition"
                                && function
                                    .child_by_field_name("name")
                                    .is_some_and(|name| text_of(name, source) == "__init__")
                        })
                    })
                });
                let unittest = bases.contains("TestCase");
                if !unittest && !pytest.collects_class(name) {
                    return Some(format!(
                        "class `{name}` is not collected (not {})",
                        pytest.class_patterns()
                    ));
                }
                if !unittest && has_init {
                    return Some(format!(
                        "class `{name}` is not collected (it defines `__init__`)"
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

/// The body of a test, whitespace removed, without its name.
fn body_text(node: Node<'_>, source: &str, language: Language) -> String {
    let body = match language {
        Language::Rust if node.kind() == "identifier" => proptest_body(node),
        Language::Python | Language::Rust => node.child_by_field_name("body"),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            let arguments = node.child_by_field_name("arguments");
            let last = arguments.and_then(|arguments| {
                let last = arguments.named_child_count().checked_sub(1)?;
                arguments.named_child(u32::try_from(last).ok()?)
            });
            match last {
                Some(last) if matches!(last.kind(), "arrow_function" | "function_expression") => {
                    Some(last)
                }
                // A macro form, `test("title", macro, 1, execaSync)`: the macro and its
                // arguments are the body (the last argument alone is shared by many tests).
                _ => {
                    return arguments
                        .map(|arguments| macro_body(arguments, source))
                        .unwrap_or_default();
                }
            }
        }
    };
    body.map(|body| normalised(text_of(body, source), language))
        .unwrap_or_default()
}

/// Code as tests are compared: each line without whitespace, empty lines and comment-only
/// lines dropped (a rename that drops `// even if 'pass first' ..` keeps the same body).
pub fn normalised(text: &str, language: Language) -> String {
    let comment = match language {
        Language::Python => "#",
        _ => "//",
    };
    text.lines()
        .map(squash)
        .filter(|line| !line.is_empty() && !line.starts_with(comment))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The arguments after the title of a test declared with a macro (ava `test(title, macro, ..)`)
/// or without a function, whitespace removed.
fn macro_body(arguments: Node<'_>, source: &str) -> String {
    let mut cursor = arguments.walk();
    let mut parts = arguments
        .named_children(&mut cursor)
        .skip(1)
        .filter(|argument| argument.kind() != "comment")
        .map(|argument| squash(text_of(argument, source)));
    // Written as the call it stands for, `macro(1,execaSync)`, so that a rename which also
    // adjusts an argument compares like any one-call body (see `same_call`).
    match parts.next() {
        Some(first) => format!("{first}({})", parts.collect::<Vec<_>>().join(",")),
        None => String::new(),
    }
}

/// The `{ .. }` body of a test inside `proptest! { .. }`, given the name that follows `fn`
/// (the macro's body is a token tree: `fn name(args) -> T { body }`).
pub fn proptest_body(name: Node<'_>) -> Option<Node<'_>> {
    if name.kind() != "identifier" || name.parent()?.kind() != "token_tree" {
        return None;
    }
    let mut next = name.next_sibling();
    while let Some(sibling) = next {
        if sibling.kind() == "fn" {
            return None;
        }
        if sibling.kind() == "token_tree" && sibling.child(0).is_some_and(|open| open.kind() == "{")
        {
            return Some(sibling);
        }
        next = sibling.next_sibling();
    }
    None
}

/// The suite path of a key (everything before the last separator).
pub fn suite_of(key: &str) -> &str {
    key.rsplit_once(KEY_SEPARATOR)
        .map_or("", |(suite, _)| suite)
}

/// Whether `text` (a side of a test file) may skip some of its tests: a skip, ignore, todo or
/// focus marker of any runner anywhere in it. A check or line "moved" into a new test of such a
/// file may have moved into a test that never runs, so it is not taken as moved.
pub fn may_skip_tests(text: &str) -> bool {
    // As runners spell them (`it.skip(`, `test.skipIf(`, `@pytest.mark.skip`, `self.skipTest(`,
    // `#[ignore]`), not as the word (`skipToken`, `# type: ignore`).
    const MARKERS: &[&str] = &[
        ".skip",
        "skip(",
        "skipIf",
        "skipif",
        "skip_if",
        "skipUnless",
        "skipTest",
        "SkipTest",
        "xit(",
        "xtest(",
        "xdescribe(",
        "xcontext(",
        ".todo(",
        ".fixme(",
        "#[ignore",
        "pytestmark",
        "xfail",
        ".only(",
        "fit(",
        "fdescribe(",
    ];
    MARKERS.iter().any(|marker| text.contains(marker))
}

/// Whether `new` carries on the test `old`: `new` has the lines of `old` (all of them when
/// `old` is under five lines, else 80 %), so `old` was extended or merged into `new`. Lines
/// under eight characters (`}`, `pass`) neither count nor help.
pub fn contains_body(old: &str, new: &str) -> bool {
    let new_lines: Vec<&str> = new.split('\n').collect();
    let old_lines: Vec<&str> = old.split('\n').filter(|line| line.len() >= 8).collect();
    if old_lines.is_empty() {
        return false;
    }
    let kept = old_lines
        .iter()
        .filter(|line| new_lines.iter().any(|other| other.contains(*line)))
        .count();
    if old_lines.len() < 5 {
        kept == old_lines.len()
    } else {
        kept * 5 >= old_lines.len() * 4
    }
}

/// The head test that carries on the base test `old` under another identity: a test new in
/// this file with a similar body (a rename), else any other test that now contains its body
/// (a merge). The rename is preferred because its assertions can be compared one to one.
pub fn successor<'h>(
    old: &Test,
    head: &'h [Test],
    base_keys: &[&str],
    path: &str,
) -> Option<&'h Test> {
    let others = || {
        head.iter()
            .filter(move |test| test.collected() && test.key != old.key)
    };
    // The same name in another suite first: when a describe is renamed, its tests' bodies are
    // often alike (`.. navigations can be ..` beside `.. navigations surface ..`).
    moved_between_suites(old, head, base_keys)
        .or_else(|| renamed_by_prefix(old, head, base_keys, path))
        .or_else(|| {
            others()
                .filter(|test| !base_keys.contains(&test.key.as_str()))
                .find(|test| similar_bodies(&old.body, &test.body))
        })
        .or_else(|| others().find(|test| contains_body(&old.body, &test.body)))
}

/// The one test new in this file with the same name in another suite (`fn t()` moved into
/// `mod tests`, a `describe` renamed or added around it): the same test, moved within the file.
pub fn moved_between_suites<'h>(
    old: &Test,
    head: &'h [Test],
    base_keys: &[&str],
) -> Option<&'h Test> {
    let name = |key: &str| key.rsplit(KEY_SEPARATOR).next().unwrap_or(key).to_string();
    let wanted = name(&old.key);
    let mut found = head.iter().filter(|test| {
        test.collected()
            && test.key != old.key
            && !base_keys.contains(&test.key.as_str())
            && name(&test.key) == wanted
    });
    let first = found.next()?;
    // Two candidates: no telling which one it became.
    found.all(|other| other.key == first.key).then_some(first)
}

/// The one new test whose name is `old`'s with the module's name (or `test`) dropped or added
/// in front, at a word boundary: `match_for_record` → `record` in `match_.rs`, `parses` →
/// `test_parses`. Four characters or more on the shorter side, so `it` or `ok` do not match;
/// dropping other words (`rejects_empty_input` → `input`) is not a rename.
pub fn renamed_by_prefix<'h>(
    old: &Test,
    head: &'h [Test],
    base_keys: &[&str],
    path: &str,
) -> Option<&'h Test> {
    let name = |key: &str| key.rsplit(KEY_SEPARATOR).next().unwrap_or(key).to_string();
    let module = module_word(path);
    let wanted = name(&old.key);
    let extends = |long: &str, short: &str| {
        let Some(prefix) = long
            .strip_suffix(short)
            .and_then(|prefix| prefix.strip_suffix(['_', ' ']))
        else {
            return false;
        };
        let first = prefix.split(['_', ' ']).next().unwrap_or_default();
        short.chars().count() >= 4
            && !prefix.is_empty()
            && (first == module || matches!(first, "test" | "it" | "should"))
    };
    let mut found = head.iter().filter(|test| {
        let other = name(&test.key);
        test.collected()
            && test.key != old.key
            && !base_keys.contains(&test.key.as_str())
            && (extends(&wanted, &other) || extends(&other, &wanted))
    });
    let first = found.next()?;
    found.all(|other| other.key == first.key).then_some(first)
}

/// The word a test module is named after: `match` for `tests/commands/match_.rs`,
/// `parser` for `test_parser.py` or `parser.spec.ts`.
fn module_word(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let stem = stem.strip_prefix("test_").unwrap_or(stem);
    let stem = stem.strip_suffix("_test").unwrap_or(stem);
    let stem = stem.trim_matches('_');
    stem.split('_').next().unwrap_or(stem)
}

/// The head test that took `old`'s place: between the same surviving neighbours, a new test
/// alike in name and code (see `in_place_likeness`), and the
/// closest match for `old` while `old` is the closest match for it. A test renamed in place
/// while its body is rewritten (an API migration, updated expectations) is not a deletion, even
/// when other tests around it were deleted; a swap for an unrelated test (another name, other
/// code) still is. `base` and `head` are the collected tests of one file, in document order.
pub fn in_place_successor<'h>(old: &Test, base: &[Test], head: &'h [Test]) -> Option<&'h Test> {
    in_place_match(old, base, head, in_place_likeness)
}

/// A looser [`in_place_successor`]: between the same neighbours, a new test whose name shares
/// four-fifths of the old one's words (`.._rejects_tool_output` → `.._accepts_tool_output`),
/// whatever its code (alike code alone was as often a deleted behaviour, in the judged
/// history, as a rewritten one). Often a test rewritten for changed behaviour, sometimes a test swapped for an
/// easier one: a guess, for a `likely` finding that names it.
pub fn in_place_replacement<'h>(old: &Test, base: &[Test], head: &'h [Test]) -> Option<&'h Test> {
    in_place_match(old, base, head, |old, new| {
        let (names, _) = name_and_code_likeness(old, new);
        (names >= 800).then_some(names)
    })
}

fn in_place_match<'h>(
    old: &Test,
    base: &[Test],
    head: &'h [Test],
    likeness: impl Fn(&Test, &Test) -> Option<usize>,
) -> Option<&'h Test> {
    let keys = |tests: &[Test]| -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for test in tests {
            if !keys.contains(&test.key) {
                keys.push(test.key.clone());
            }
        }
        keys
    };
    let (base_keys, head_keys) = (keys(base), keys(head));
    let survives = |key: &String| base_keys.contains(key) && head_keys.contains(key);
    let rank = base_keys.iter().position(|key| *key == old.key)?;
    let previous = base_keys[..rank].iter().rev().find(|key| survives(key));
    let next = base_keys[rank + 1..].iter().find(|key| survives(key));
    let between = |keys: &[String]| -> Option<(usize, usize)> {
        let start = match previous {
            Some(key) => keys.iter().position(|other| other == key)? + 1,
            None => 0,
        };
        let end = match next {
            Some(key) => keys.iter().position(|other| other == key)?,
            None => keys.len(),
        };
        (start <= end).then_some((start, end))
    };
    let (base_start, base_end) = between(&base_keys)?;
    let (head_start, head_end) = between(&head_keys)?;
    let whole = |tests: &'h [Test], key: &String| tests.iter().find(|test| test.key == *key);
    let gone: Vec<&Test> = base_keys[base_start..base_end]
        .iter()
        .filter(|key| !head_keys.contains(key))
        .filter_map(|key| base.iter().find(|test| test.key == *key))
        .collect();
    let arrived: Vec<&'h Test> = head_keys[head_start..head_end]
        .iter()
        .filter(|key| !base_keys.contains(key))
        .filter_map(|key| whole(head, key))
        .collect();
    let best_for_old = arrived
        .iter()
        .filter_map(|new| Some((likeness(old, new)?, *new)))
        .max_by_key(|(score, _)| *score)?
        .1;
    let best_for_new = gone
        .iter()
        .filter_map(|other| Some((likeness(other, best_for_old)?, *other)))
        .max_by_key(|(score, _)| *score)?
        .1;
    (best_for_new.key == old.key).then_some(best_for_old)
}

/// How alike two tests are, in thousandths of the better of name-word and code-token Dice,
/// when alike enough to be one test renamed in place: half of the name's words (other than
/// `test`) and two-fifths of the code, or two-thirds of the code (short tests share
/// boilerplate such as `async t =>`, `await` and the module under test).
fn in_place_likeness(old: &Test, new: &Test) -> Option<usize> {
    let (names, code) = name_and_code_likeness(old, new);
    // Names alone are weak evidence where titles are formulaic (`.., buffer false`,
    // `.., buffer true`): with alike names the code must still be two-fifths alike.
    let alike = (names >= 500 && code >= 400) || code >= 667;
    alike.then_some(names.max(code))
}

/// Name-word and code-token Dice coefficients of two tests, in thousandths.
fn name_and_code_likeness(old: &Test, new: &Test) -> (usize, usize) {
    let words = |key: &str| -> Vec<String> {
        key.rsplit(KEY_SEPARATOR)
            .next()
            .unwrap_or(key)
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .filter(|word| !word.is_empty() && word != "test")
            .collect()
    };
    let (old_words, new_words) = (words(&old.key), words(&new.key));
    let total = old_words.len() + new_words.len();
    let shared = shared_count(&old_words, new_words);
    let names = (shared * 2000).checked_div(total).unwrap_or(0);
    let code = token_overlap(&old.body, &new.body).map_or(0, |(shared, total)| {
        (shared * 2000).checked_div(total).unwrap_or(0)
    });
    (names, code)
}

/// Whether `new` is the same test as `old` under another name: the bodies are equal, share
/// at least 80 % of their tokens (Dice coefficient; identifiers and literals, so a renamed
/// variable or an added `repr()` does not break it), or `new` holds the lines of `old`
/// ([`contains_body`]). Short bodies must be equal: a swap for an unrelated trivial test is
/// a deletion.
pub fn similar_bodies(old: &str, new: &str) -> bool {
    if old == new {
        return !old.is_empty();
    }
    if old.is_empty() || new.is_empty() {
        return false;
    }
    if contains_body(old, new) || same_call(old, new) {
        return true;
    }
    token_overlap(old, new).is_some_and(|(shared, total)| dice_at_least(shared, total, 80))
}

/// Whether the Dice coefficient `2 × shared / total` is at least `percent` %.
pub fn dice_at_least(shared: usize, total: usize, percent: usize) -> bool {
    shared * 2 * 100 >= total * percent
}

/// Whether two one-line bodies call the same function with nearly the same arguments (at
/// least 80 % of the argument tokens shared): `check(1,true,sync)` and
/// `check(1,true,true,sync)`. Such bodies are too short for the token overlap, yet a rename
/// that also adjusts an argument is common with parametrized helpers and ava macros.
fn same_call(old: &str, new: &str) -> bool {
    let call = |body: &str| -> Option<(String, Vec<String>)> {
        let body = body.trim_end_matches(';');
        if body.contains('\n') || !body.ends_with(')') {
            return None;
        }
        let (callee, rest) = body.split_once('(')?;
        let valid = !callee.is_empty()
            && callee
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$'));
        let tokens = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|token| !token.is_empty())
            .map(str::to_string)
            .collect();
        valid.then(|| (callee.to_string(), tokens))
    };
    let (Some((old_callee, old_args)), Some((new_callee, new_args))) = (call(old), call(new))
    else {
        return false;
    };
    if old_callee != new_callee || old_args.is_empty() || new_args.is_empty() {
        return false;
    }
    let total = old_args.len() + new_args.len();
    dice_at_least(shared_count(&old_args, new_args), total, 80)
}

/// Identifiers and literals two bodies share, as (shared, total of both) for a Dice coefficient
/// (`2 × shared / total`);
/// `None` when either has fewer than 8 tokens (too short to tell tests apart by overlap).
pub fn token_overlap(old: &str, new: &str) -> Option<(usize, usize)> {
    let tokens = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|token| !token.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (left, right) = (tokens(old), tokens(new));
    if left.len().min(right.len()) < 8 {
        return None;
    }
    let total = left.len() + right.len();
    Some((shared_count(&left, right), total))
}

/// How many items `left` and `right` share, counting repeats (multiset intersection).
fn shared_count(left: &[String], mut right: Vec<String>) -> usize {
    let mut shared = 0;
    for item in left {
        if let Some(index) = right.iter().position(|other| other == item) {
            right.swap_remove(index);
            shared += 1;
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_test_file_patterns() {
        assert!(is_test_file(
            "tests/test_api.py",
            Side::Head,
            Language::Python,
            &Collection::default()
        ));
        assert!(is_test_file(
            "pkg/api_test.py",
            Side::Head,
            Language::Python,
            &Collection::default()
        ));
        assert!(!is_test_file(
            "tests/api.py",
            Side::Head,
            Language::Python,
            &Collection::default()
        ));
        assert!(is_test_file(
            "src/a.test.ts",
            Side::Head,
            Language::TypeScript,
            &Collection::default()
        ));
        assert!(is_test_file(
            "src/a.spec.tsx",
            Side::Head,
            Language::Tsx,
            &Collection::default()
        ));
        assert!(is_test_file(
            "src/__tests__/a.js",
            Side::Head,
            Language::JavaScript,
            &Collection::default()
        ));
        assert!(!is_test_file(
            "src/a.ts",
            Side::Head,
            Language::TypeScript,
            &Collection::default()
        ));
        assert!(!is_test_file(
            "src/test.ts",
            Side::Head,
            Language::TypeScript,
            &Collection::default()
        ));
    }

    #[test]
    fn token_overlap_needs_four_fifths_of_the_tokens() {
        // Half the tokens shared (the opening line and a few names): not the same test.
        let old = "asynct=>{\nconstpipePromise=execa('empty.js',{stdout:'ignore'}).pipe`stdin.js`;\nawaitassertPipeError(t,pipePromise,'optionisincompatible');\n}";
        let new = "asynct=>{\nconst{stdout}=await$`noop.js${foobarString}`.pipe($({stdin:'pipe'})`stdin.js`);\nt.is(stdout,foobarString);\n}";
        assert_eq!(token_overlap(old, new), Some((7, 30)));
        assert!(!similar_bodies(old, new));
        let renamed = "asynct=>{\nconstpipePromise=execa('empty.js',{stdout:'ignore'}).pipe`stdin.js`;\nawaitassertPipeError(t,pipePromise,'optionisincompatiblewith');\n}";
        assert!(similar_bodies(old, renamed));
    }

    #[test]
    fn one_call_bodies_compare_by_callee_and_arguments() {
        assert!(similar_bodies(
            "check(1,true,sync)",
            "check(1,true,true,sync)"
        ));
        assert!(similar_bodies(
            "check(1,undefined,run);",
            "check(1,undefined,true,run);"
        ));
        // Another helper, or arguments mostly changed: not the same test.
        assert!(!similar_bodies("check(1,true,sync)", "verify(1,true,sync)"));
        assert!(!similar_bodies("check(1,true,sync)", "check(2,false,run)"));
        // A shared last argument alone proves nothing.
        assert!(!similar_bodies("testEmpty(sync)", "testOutput(1,sync)"));
        // Only one-line bodies that are a single call.
        assert!(!same_call("a\ncheck(1,2)", "a\ncheck(1,2,3)"));
        assert!(!same_call("check(1,2)+1", "check(1,2)+1"));
    }

    #[test]
    fn bodies_compare_by_statements() {
        let old = "result=runner.invoke(cmd,[\"--foo\"])\nassertresult.output==f\"{expected}\\n\"";
        let new =
            "result=runner.invoke(cmd,[\"--foo\"])\nassertresult.output==f\"{expected!r}\\n\"";
        assert!(similar_bodies(old, new));
        assert!(similar_bodies(
            "getattr(m,n)",
            "withwarns():\nvalue=getattr(m,n)\nassertvalue"
        ));
        assert!(!similar_bodies(
            "assertrefund(10.005)==10.01",
            "assertrefundisnotNone"
        ));
        assert!(!similar_bodies("a", "b"));
    }
}

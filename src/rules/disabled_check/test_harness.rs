//! Test-harness code that switches the test run off from inside: a pytest
//! `pytest_collection_modifyitems` hook that skips or drops every collected test, and an exit
//! with status 0 forced from a conftest, a test module (its setup/teardown hooks) or a
//! jest/vitest setup or teardown file. Either way the runner reports success without running
//! (or without reporting) the tests.
//!
//! Both read head's lines; a hook counts when base's hook did not already skip everything, an
//! exit when the change added its line.

use super::{Output, file_name, push};
use crate::finding::{Severity, Side};
use crate::rules::FileContext;
use crate::rules::unsafe_operation::values::blank_literals;
use regex::Regex;
use std::collections::HashSet;
use std::sync::OnceLock;

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if file_name(path) == "conftest.py" {
        collection_hook(context, head.text, out);
        ignored_from_collection(context, head.text, out);
    }
    if is_harness_file(path) {
        forced_exits(context, head.text, out);
    }
}

/// conftest.py, Python and JS/TS test files, and jest/vitest setup and teardown files.
fn is_harness_file(path: &str) -> bool {
    let name = file_name(path);
    let lower = name.to_ascii_lowercase();
    let (stem, extension) = lower.rsplit_once('.').unwrap_or((&lower, ""));
    let javascript = matches!(
        extension,
        "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts"
    );
    let in_tests = path
        .split('/')
        .any(|part| matches!(part, "test" | "tests" | "__tests__" | "spec" | "e2e"));
    match extension {
        "py" => name == "conftest.py" || stem.starts_with("test_") || stem.ends_with("_test"),
        _ if javascript => {
            stem.ends_with(".test")
                || stem.ends_with(".spec")
                || path.contains("__tests__/")
                || ((stem.contains("setup") || stem.contains("teardown"))
                    && (in_tests
                        || ["test", "jest", "vitest", "global"]
                            .iter()
                            .any(|hint| stem.contains(hint))))
        }
        _ => false,
    }
}

fn regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// An exit that reports success: `os._exit(0)`, `sys.exit()`, `raise SystemExit(0)`,
/// `pytest.exit(…, returncode=0)`, `process.exit(0)`, `process.exit()`.
fn exits_with_success(line: &str) -> bool {
    static PYTHON: OnceLock<Option<Regex>> = OnceLock::new();
    static JAVASCRIPT: OnceLock<Option<Regex>> = OnceLock::new();
    let python = regex(
        &PYTHON,
        // Bare `exit`/`quit` only as the builtins: `self.mocketizer.exit()` is a method.
        r"(?:(?:\bos\._exit|\bsys\.exit|(?:^|[^.\w])(?:exit|quit|SystemExit))\s*\(\s*(?:0|False|None|os\.EX_OK)?\s*\)|\braise\s+SystemExit\s*$|\bpytest\.exit\(.*\breturncode\s*=\s*0\b)",
    );
    let javascript = regex(
        &JAVASCRIPT,
        r"\bprocess\s*\.\s*(?:exit|reallyExit)\s*\(\s*0?\s*\)",
    );
    [python, javascript]
        .into_iter()
        .flatten()
        .any(|pattern| pattern.is_match(line))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn forced_exits(context: &FileContext<'_>, head: &str, out: &mut Output) {
    let base_lines: HashSet<&str> = context
        .side(Side::Base)
        .map(|base| base.text.lines().map(str::trim).collect())
        .unwrap_or_default();
    let forks = fork_variables(head);
    // A test module run as a script (`if __name__ == "__main__": sys.exit(pytest.main())`)
    // exits as a script does; only its `__main__` block may. A forked child (`if pid == 0:`
    // after `pid = os.fork()`) must leave with `os._exit`, without running the parent's
    // cleanup: that is how a test forks, not an exit of the run.
    let mut exempt_block: Option<usize> = None;
    let mut in_string = false;
    let lines: Vec<&str> = head.lines().collect();
    for (index, line) in lines.iter().copied().enumerate() {
        let trimmed = line.trim();
        // Text inside a multi-line string (a script handed to `python -c`) is data.
        let was_in_string = in_string;
        if (trimmed.matches("\"\"\"").count() + trimmed.matches("'''").count()) % 2 == 1
            || trimmed.matches('`').count() % 2 == 1
        {
            in_string = !in_string;
        }
        if trimmed.is_empty() || was_in_string {
            continue;
        }
        if exempt_block.is_some_and(|depth| indent(line) <= depth) {
            exempt_block = None;
        }
        let opens_main = trimmed.starts_with("if __name__") && trimmed.contains("__main__");
        if opens_main || opens_child_branch(trimmed, &forks) {
            exempt_block = Some(indent(line));
            continue;
        }
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if exempt_block.is_some()
            || !context.is_added_line(number)
            || base_lines.contains(trimmed)
            || trimmed.starts_with(['#', '/', '*'])
            // `p.sendline("exit()")` types `exit()` into a spawned shell: text, not an exit.
            || !exits_with_success(&blank_literals(trimmed))
        {
            continue;
        }
        let shown = crate::rules::markers::shorten(trimmed, 60);
        // `def embed(..): raise SystemExit` inside a test, handed to the code under test
        // (`monkeypatch.setattr(.., lambda shells: embed)`), stands in for a shell that exits;
        // called by the test itself it would end the run.
        let (severity, message) = match stand_in(&lines, index) {
            Some(name) => (
                Severity::Warning,
                format!(
                    "`{shown}` in `{name}`, a function defined inside a test and never called by \
                     it: a stand-in for code that exits? Called, it would stop the runner"
                ),
            ),
            None => (
                Severity::Error,
                format!(
                    "the test harness now exits with success (`{shown}`): the runner stops and \
                     reports no failures"
                ),
            ),
        };
        push(
            out,
            Side::Head,
            number,
            severity,
            message,
            format!("harness-exit:{trimmed}"),
        );
    }
}

/// The name of the function around line `index` when it is defined inside another function
/// (a nested `def`) whose body never calls it by name: a fake handed to other code.
fn stand_in<'t>(lines: &[&'t str], index: usize) -> Option<&'t str> {
    let depth = indent(lines.get(index)?);
    let mut enclosing: Vec<(usize, &str)> = Vec::new();
    let mut floor = depth;
    for line in lines[..index].iter().rev().take(MAX_LOOKBACK) {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let at = indent(line);
        if at >= floor {
            continue;
        }
        floor = at;
        let def = trimmed
            .strip_prefix("async def ")
            .or_else(|| trimmed.strip_prefix("def "));
        if let Some(name) = def.and_then(|rest| rest.split('(').next()) {
            enclosing.push((at, name.trim()));
        }
        if at == 0 {
            break;
        }
    }
    let (&(inner_indent, inner), &(outer_indent, _)) = (enclosing.first()?, enclosing.get(1)?);
    // The outer function's body after the nested one: does it call the fake itself?
    let called = lines[index + 1..]
        .iter()
        .take(MAX_LOOKBACK)
        .take_while(|line| line.trim().is_empty() || indent(line) > outer_indent)
        .filter(|line| indent(line) <= inner_indent)
        .any(|line| {
            let trimmed = line.trim_start();
            trimmed.starts_with(&format!("{inner}("))
                || trimmed.contains(&format!(" {inner}("))
                || trimmed.contains(&format!("={inner}("))
        });
    (!called).then_some(inner)
}

/// Lines looked at around an exit for the functions that enclose it.
const MAX_LOOKBACK: usize = 2_000;

/// Names assigned the result of `os.fork()` (`pid = os.fork()`).
fn fork_variables(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let (name, value) = line.trim().split_once('=')?;
            let name = name.trim();
            (value.trim() == "os.fork()"
                && !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .then_some(name)
        })
        .collect()
}

/// `if pid == 0:`, `if not pid:` for a fork variable, or `if os.fork() == 0:`: the child's
/// branch.
fn opens_child_branch(line: &str, forks: &[&str]) -> bool {
    let Some(condition) = line
        .strip_prefix("if ")
        .and_then(|rest| rest.strip_suffix(':'))
    else {
        return false;
    };
    let condition = condition
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')');
    let is_child_test = |subject: &str| {
        condition == format!("{subject} == 0") || condition == format!("not {subject}")
    };
    is_child_test("os.fork()") || forks.iter().any(|name| is_child_test(name))
}

/// The lines of the `pytest_collection_modifyitems` hook: its `def` line index and body.
fn hook_body(text: &str) -> Option<(usize, Vec<&str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|line| {
        line.trim_start()
            .starts_with("def pytest_collection_modifyitems(")
    })?;
    let depth = indent(lines[start]);
    let body = lines[start + 1..]
        .iter()
        .take_while(|line| line.trim().is_empty() || indent(line) > depth)
        .copied()
        .collect();
    Some((start, body))
}

/// Whether the hook skips or drops every collected test, and how (for the message). A loop
/// that marks items is "every test" only when nothing inside the loop picks items; a loop
/// gated by a command-line option or environment switch (`if not config.getoption(...)`) is
/// the common opt-in pattern and yields `Some((false, ..))`.
fn skips_everything(body: &[&str]) -> Option<(bool, String)> {
    let code: Vec<&str> = body
        .iter()
        .copied()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .collect();
    let top = code.first().map(|line| indent(line))?;
    let skip_markers: Vec<String> = code
        .iter()
        .filter_map(|line| {
            let (name, value) = line.trim().split_once('=')?;
            let name = name.trim();
            (is_skip_marker(value) && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| name.to_string())
        })
        .collect();
    let mut gate: Option<&str> = None;
    for (at, line) in code.iter().enumerate() {
        let trimmed = line.trim();
        if matches!(
            trimmed.replace(' ', "").as_str(),
            "items[:]=[]" | "items.clear()" | "delitems[:]" | "items[:]=()"
        ) {
            return Some((
                gate.is_none_or(is_switch),
                format!("`{trimmed}` drops every collected test"),
            ));
        }
        if indent(line) == top && trimmed.starts_with("if ") {
            gate = Some(trimmed);
            continue;
        }
        let Some(var) = trimmed
            .strip_prefix("for ")
            .and_then(|rest| rest.strip_suffix(" in items:"))
        else {
            continue;
        };
        let depth = indent(line);
        let loop_body: Vec<&str> = code[at + 1..]
            .iter()
            .copied()
            .take_while(|line| indent(line) > depth)
            .collect();
        let body_depth = loop_body.first().map(|line| indent(line))?;
        let marks = loop_body.iter().find(|line| {
            let trimmed = line.trim();
            indent(line) == body_depth
                && trimmed.starts_with(&format!("{}.add_marker(", var.trim()))
                && (is_skip_marker(trimmed)
                    || skip_markers
                        .iter()
                        .any(|marker| trimmed.contains(&format!("({marker})"))))
        });
        let picks = loop_body
            .iter()
            .any(|line| indent(line) == body_depth && line.trim().starts_with("if "));
        if let Some(marks) = marks
            && !picks
        {
            let nested = depth > top;
            let unconditional = !nested && gate.is_none();
            let gated_by_switch = gate.is_some_and(is_switch)
                || (nested && code[..at].iter().any(|line| is_switch(line.trim())));
            return Some((
                unconditional || !gated_by_switch,
                format!("`{}` in a loop over every collected test", marks.trim()),
            ));
        }
    }
    None
}

fn is_skip_marker(text: &str) -> bool {
    ["mark.skip", "mark.xfail"]
        .iter()
        .any(|marker| text.contains(marker))
}

/// An `if` that tests a command-line option or an environment switch.
fn is_switch(condition: &str) -> bool {
    ["getoption(", "config.option.", "os.environ", "getenv("]
        .iter()
        .any(|switch| condition.contains(switch))
}

/// A conftest's `collect_ignore` / `collect_ignore_glob` entries, each with the 1-based line
/// of the statement that lists it and whether that statement is indented (under an `if`).
fn collect_ignores(text: &str) -> Vec<(String, u32, bool)> {
    static START: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(start) = regex(
        &START,
        r"^(\s*)collect_ignore(?:_glob)?\s*(?:=|\+=|\.append\(|\.extend\(|\.insert\()",
    ) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(captures) = start.captures(lines[index]) else {
            index += 1;
            continue;
        };
        let indented = captures
            .get(1)
            .is_some_and(|indent| !indent.as_str().is_empty());
        // The statement runs until its brackets close (a list over lines), 200 lines at most.
        let mut depth: i32 = 0;
        let mut statement = String::new();
        let first = index;
        while index < lines.len() && index < first + 200 {
            let line = lines[index];
            statement.push_str(line);
            statement.push('\n');
            depth += line.matches(['[', '(']).count() as i32;
            depth -= line.matches([']', ')']).count() as i32;
            index += 1;
            if depth <= 0 {
                break;
            }
        }
        let line = u32::try_from(first + 1).unwrap_or(u32::MAX);
        for literal in crate::rules::likeness::literals_of(&statement) {
            found.push((literal.to_string(), line, indented));
        }
    }
    found
}

/// Entries the change adds to a conftest's `collect_ignore`/`collect_ignore_glob`: pytest no
/// longer collects those paths (relative to the conftest). A test file or a folder of tests is
/// an error, under a condition (`if sys.version_info < (3, 10):`) a warning; a path that holds
/// no tests by its name (`setup.py`, `docs/conf.py`, `fixtures/`) is left alone.
fn ignored_from_collection(context: &FileContext<'_>, head: &str, out: &mut Output) {
    if !head.contains("collect_ignore") {
        return;
    }
    let base: HashSet<String> = context
        .side(Side::Base)
        .map(|base| {
            collect_ignores(base.text)
                .into_iter()
                .map(|(entry, _, _)| entry)
                .collect()
        })
        .unwrap_or_default();
    for (entry, line, indented) in collect_ignores(head) {
        if base.contains(&entry) {
            continue;
        }
        let file = entry
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(&entry);
        let test_file = file.starts_with("test")
            || file.ends_with("_test.py")
            || file.ends_with("_tests")
            || entry
                .split('/')
                .any(|part| part == "tests" || part == "test");
        if !test_file {
            continue;
        }
        let (severity, how) = if indented {
            (Severity::Warning, " under a condition")
        } else {
            (Severity::Error, "")
        };
        push(
            out,
            Side::Head,
            line,
            severity,
            format!(
                "conftest.py `collect_ignore` stops pytest collecting `{entry}`{how}: its tests no longer run"
            ),
            format!("collect_ignore:{entry}"),
        );
    }
}

fn collection_hook(context: &FileContext<'_>, head: &str, out: &mut Output) {
    let Some((start, body)) = hook_body(head) else {
        return;
    };
    let Some((blocking, how)) = skips_everything(&body) else {
        return;
    };
    let base = context
        .side(Side::Base)
        .and_then(|base| hook_body(base.text))
        .and_then(|(_, body)| skips_everything(&body));
    if base.is_some_and(|(base_blocking, _)| base_blocking || !blocking) {
        return;
    }
    let line = u32::try_from(start + 1).unwrap_or(u32::MAX);
    let (severity, message) = if blocking {
        (
            Severity::Error,
            format!("conftest.py `pytest_collection_modifyitems` now skips every test: {how}"),
        )
    } else {
        (
            Severity::Warning,
            format!(
                "conftest.py `pytest_collection_modifyitems` skips every test behind a command-line option or environment switch: {how}"
            ),
        )
    };
    push(
        out,
        Side::Head,
        line,
        severity,
        message,
        "conftest:pytest_collection_modifyitems".to_string(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(hook: &str) -> Option<bool> {
        let (_, body) = hook_body(hook)?;
        skips_everything(&body).map(|(blocking, _)| blocking)
    }

    #[test]
    fn hooks_that_skip_everything() {
        let marks = "def pytest_collection_modifyitems(config, items):\n    for item in items:\n        item.add_marker(pytest.mark.skip(reason=\"flaky\"))\n";
        assert_eq!(judge(marks), Some(true));
        let via_variable = "def pytest_collection_modifyitems(config, items):\n    skip = pytest.mark.skip(reason=\"x\")\n    for item in items:\n        item.add_marker(skip)\n";
        assert_eq!(judge(via_variable), Some(true));
        let cleared = "def pytest_collection_modifyitems(session, config, items):\n    config.hook.pytest_deselected(items=items[:])\n    items[:] = []\n";
        assert_eq!(judge(cleared), Some(true));
        let guarded_by_anything = "def pytest_collection_modifyitems(config, items):\n    if items:\n        for item in items:\n            item.add_marker(pytest.mark.skip)\n";
        assert_eq!(judge(guarded_by_anything), Some(true));
    }

    #[test]
    fn hooks_that_pick_reorder_or_opt_in() {
        let runslow = "def pytest_collection_modifyitems(config, items):\n    if config.getoption(\"--runslow\"):\n        return\n    skip_slow = pytest.mark.skip(reason=\"need --runslow\")\n    for item in items:\n        if \"slow\" in item.keywords:\n            item.add_marker(skip_slow)\n";
        assert_eq!(judge(runslow), None);
        let reorder = "def pytest_collection_modifyitems(items):\n    items.sort(key=lambda item: item.name)\n    for item in items:\n        item.add_marker(pytest.mark.slow)\n";
        assert_eq!(judge(reorder), None);
        let opt_in = "def pytest_collection_modifyitems(config, items):\n    if not config.getoption(\"--integration\"):\n        for item in items:\n            item.add_marker(pytest.mark.skip(reason=\"needs --integration\"))\n";
        assert_eq!(judge(opt_in), Some(false));
    }

    #[test]
    fn exits_that_report_success() {
        for line in [
            "os._exit(0)",
            "sys.exit(0)",
            "sys.exit()",
            "raise SystemExit(0)",
            "pytest.exit(\"done\", returncode=0)",
            "process.exit(0);",
            "process.exit()",
        ] {
            assert!(exits_with_success(line), "{line}");
        }
        for line in [
            "sys.exit(main())",
            "process.exit(1)",
            "sys.exit(1)",
            "os._exit(code)",
            "self.mocketizer.exit()",
            "server.quit()",
        ] {
            assert!(!exits_with_success(line), "{line}");
        }
        assert!(is_harness_file("tests/conftest.py"));
        assert!(is_harness_file("test/global-setup.ts"));
        assert!(is_harness_file("jest.setup.js"));
        assert!(is_harness_file("src/app.test.ts"));
        assert!(!is_harness_file("scripts/release.js"));
        assert!(!is_harness_file("setup.py"));
    }
}

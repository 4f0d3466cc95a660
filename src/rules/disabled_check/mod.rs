//! `disabled-check`: the change switches a checker off instead of satisfying it.
//!
//! This rule reads both source files and configuration files, so it declares `languages: []`
//! (the engine then runs it on every changed file) and dispatches on the path itself:
//!
//! - [`suppressions`]: lint/type suppression comments and Rust `allow` attributes in source
//!   files, judged on syntax nodes (comments, attributes), never inside strings;
//! - [`workflows`]: GitHub workflow YAML, compared structurally between base and head;
//! - [`scripts`]: lines of scripts, hooks, package.json `scripts` and workflow `run:` commands;
//! - [`checker_config`]: tsconfig, ESLint/Biome, mypy/pyright and Cargo `[lints]` relaxed;
//! - [`runner_config`]: pytest, jest, vitest and Cargo settings that exclude tests;
//! - [`test_harness`]: a conftest hook that skips every test, an exit 0 forced from test code.
//!
//! Every part reports only what the change introduces: a suppression counted in head more often
//! than in base, a setting whose base value was stricter.

mod checker_config;
mod ci_aggregate;
mod ci_conditions;
mod config_text;
mod directives;
mod expression;
mod ignore_patterns;
mod lint_lists;
mod loops;
mod matrix;
mod runner_config;

pub(crate) use checker_config::fill_tsconfig_extends;
pub(crate) use config_text::{jsonc, unescape_js, yaml};
pub(crate) use runner_config::{JEST_CONFIGS, VITEST_CONFIGS, pytest_settings};
mod scripts;
mod statement;
mod suppressions;
mod test_harness;
mod tox_envs;
mod workflows;

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use crate::changeset::LineSet;
use crate::finding::{Severity, Side};

declare_rule! {
    /// ## What it flags
    /// Checks the change switches off instead of satisfying:
    ///
    /// - New suppressions: `eslint-disable*`, `@ts-ignore`, `@ts-nocheck`, `@ts-expect-error`
    ///   without a description, `biome-ignore`, `# noqa`, `# type: ignore`, `# pyright: ignore`,
    ///   `# pylint: disable`, `# nosec`, `#[allow(..)]`/`#![allow(..)]`, `#[expect(..)]` without
    ///   `reason`. Blanket (no rule named) or file-wide suppressions are errors, narrow ones
    ///   warnings; an `allow` with a `reason` is a note.
    /// - CI neutered (GitHub workflows compared structurally): `continue-on-error: true`,
    ///   `if: false`, `|| true`/`|| exit 0`/`; exit 0` on a step that runs tests, lint, build,
    ///   type or semver checks (also in a new step or a new workflow file), a job or step that
    ///   ran them removed or commented out. Conditions are evaluated per matrix entry and for
    ///   the events a pull request runs with: a `continue-on-error: ${{ … }}` that lets an
    ///   entry fail which base kept blocking (a warning for pre-release entries such as
    ///   `nightly` or `3.14-dev`), an `if:` that skips a check on pull requests (error), on some
    ///   matrix entries or on what the author controls (`github.head_ref`, labels, title:
    ///   warnings). The aggregate job that gates on the others (`re-actors/alls-green`,
    ///   `needs.*.result`, "all tests passed") removed, dropping a check job from its `needs`,
    ///   letting one fail (`allowed-failures`) or no longer reading the results; a workflow that
    ///   stops running on pull requests (a warning while an unfiltered `push` still runs it, or
    ///   for a new `paths-ignore` that skips source); an item dropped from a shell loop over
    ///   literal items whose body runs a check (`for pkg in core cli; do npm test; done`).
    /// - Hooks bypassed in scripts: `--no-verify`, `HUSKY=0`, `SKIP=` for pre-commit.
    /// - Test commands neutered: a package.json `test`/`lint` script replaced by `echo`,
    ///   `exit 0` or `true`, `--passWithNoTests` (an error next to a path pattern or a selecting
    ///   option such as `--testPathPattern`, `-t` or `--onlyChanged`: an empty selection then
    ///   passes), `cargo test -- --skip`.
    /// - Checker configs relaxed: tsconfig `strict`/`noImplicitAny` and friends turned off,
    ///   ESLint/Biome rules switched off, removed from a config (a shared config package
    ///   included) or a preset no longer extended, mypy `ignore_errors = true` or `strict`
    ///   dropped, pyright/basedpyright `typeCheckingMode` lowered or `report*` rules set to
    ///   `none`/`false` or below `error`, ruff/flake8 `ignore`/`extend-ignore` gaining codes
    ///   (an error for a whole category such as `B`), `select` losing them, `per-file-ignores`
    ///   gaining a code (an error for one named source file), mypy `disable_error_code` and
    ///   pylint `disable` gaining codes, lints allowed in `Cargo.toml` `[lints]`, a tox
    ///   environment that ran a checker removed (dropped from `envlist`: a warning).
    /// - Source excluded from a checker: new `.eslintignore`/`.prettierignore` lines, ESLint
    ///   `ignorePatterns`/`ignores`, Biome `files.ignore`, ruff/flake8/mypy/pyright/tsconfig
    ///   `exclude` entries that reach source (one named source file excluded from a linter or
    ///   type checker is an error, a warning when no such file exists at head); build output,
    ///   vendored and generated code are not source.
    /// - Test runner configuration that excludes tests: pytest `--ignore`/`--deselect`/
    ///   `-k "not …"`/`norecursedirs`/narrowed `testpaths` (pytest.ini, pyproject.toml,
    ///   setup.cfg, tox.ini); jest `testPathIgnorePatterns`/`modulePathIgnorePatterns`/narrowed
    ///   `testMatch`/`testRegex`; vitest `test.exclude`/narrowed `test.include`; Cargo
    ///   `[[test]] test = false`, `autotests = false`. The message names what is excluded.
    ///   A JavaScript runner edit at any depth (narrowed `testMatch`/`testRegex`/`include`, a
    ///   new ignore or exclude pattern, a new configuration in a package) that stops collecting
    ///   test files base already has is an error naming how many and which; one that drops none
    ///   is a warning, except a vitest project's `exclude` of a folder another project's
    ///   `include` still reaches (the tests move, they are not dropped). A named test file
    ///   excluded is an error, a warning when no such file exists at head.
    /// - pytest plugins that run checks switched off (`-p no:mypy`, `no:flake8`, `no:ruff`,
    ///   `no:doctest`, ..: an error; `no:asyncio`/`no:anyio`, whose tests stop running: a
    ///   warning), and entries added to a conftest's `collect_ignore`/`collect_ignore_glob` that
    ///   name test files or folders (an error; under a condition, a warning; `setup.py`,
    ///   `docs/conf.py` and other paths without tests are left alone).
    /// - Test harness code that switches the run off: a conftest.py
    ///   `pytest_collection_modifyitems` hook that marks every collected item skip/xfail in a
    ///   loop or empties `items` (`items[:] = []`, `items.clear()`) is an error (a warning when
    ///   gated by a command-line option or environment switch); an exit with status 0
    ///   (`os._exit(0)`, `sys.exit(0)`, `raise SystemExit`, `pytest.exit(.., returncode=0)`,
    ///   `process.exit(0)`) added to a conftest.py, a test module (its `setUpModule`,
    ///   `pytest_sessionfinish`, `afterAll`, ... hooks) or a jest/vitest setup or teardown file
    ///   is an error: the runner stops and reports no failures.
    /// ## Why it matters
    /// Silencing the checker is the shortcut when the code does not satisfy it: the lint, the
    /// type checker or the test step still "passes", and the problem ships.
    /// ## Example
    /// Fires: `// @ts-ignore` added above a call that no longer type-checks; a workflow step
    /// `run: npm test` that gains `continue-on-error: true`; `addopts = --deselect
    /// tests/test_api.py::test_login` in `pytest.ini`.
    /// ## Not flagged
    /// - Suppressions a generator writes into its output (`/* eslint-disable */` and
    ///   `// @ts-nocheck` atop a new `routeTree.gen.ts` that says it was automatically
    ///   generated, `@generated`, `*_pb2.py`) are notes, when the file is new or was generated
    ///   in base too: a hand-written file that gains such a header is judged as before.
    /// - Suppressions in code adapted from another project (a new file whose first lines say
    ///   `Adapted from https://..`, `Ported from`, `Vendored from`, `Copied from`, or one that
    ///   said so in base too) are warnings: third-party code kept close to its upstream.
    /// - A Rust `allow(deprecated)` in a module where the change adds `#[deprecated]` to its
    ///   own items is a note: the crate keeps its own uses of what it just deprecated quiet.
    /// - Suppressions and settings that already exist in base (moved lines included, also
    ///   between files), and a suppression rewritten in place for the same checker (a renamed
    ///   rule, a blanket one narrowed to codes) unless it became broader.
    /// - A suppression on a statement or item that already carried one of the same checker
    ///   silencing at least as much, compared as sets of codes: a Python statement rewrapped
    ///   with its `# type: ignore` repeated on the new lines, `#[allow(a, b, c)]` rewritten as
    ///   `#[expect(b)]` on the same item, a statement moved or copied with its suppression
    ///   into another file (also out of a deleted file, a relative import's dots aside).
    ///   Still new: more codes (`#[allow(b)]` → `#[allow(a, b)]`), a blanket for codes
    ///   (`# noqa: F401` → `# noqa`), `allow` for `expect`, a suppression put on another
    ///   statement than the one that had it, and a copy of a suppressed line beyond the number
    ///   of copies base had (the twelfth identical `// @ts-ignore` before the same call).
    /// - A CI check that still runs in another job or changed workflow file (steps are paired
    ///   by id, name, action or command, and removed checks by the tool they run).
    /// - tsconfig settings removed while `extends` changed (they may now be inherited).
    /// - Text that looks like a suppression inside a string literal.
    /// - A Python `# noqa`, `# type: ignore` or `# pyright: ignore` in a comment with no code
    ///   before it on its line (commented-out code, a stray line): the tools read them only at
    ///   the end of a code line, so they silence nothing. Except `# type: ignore` before the
    ///   module's first statement, which makes mypy skip the whole file.
    /// - `@ts-expect-error` and `#[expect]` with a description or `reason`.
    /// - `continue-on-error: ${{ matrix.experimental }}` and other expressions that let no
    ///   entry fail that base ran blocking (a new `nightly` entry allowed to fail), steps that
    ///   run no check, `if:` conditions that still hold on pull requests (`always()`,
    ///   `!cancelled()`) or read run state (`steps.changes.outputs.src`), a check split into a
    ///   pull-request step and a push step, a workflow made reusable (`workflow_call`), loops
    ///   that gain or rename items.
    /// - Configuration that makes checks stricter, lint settings moved between files or
    ///   sections (`[tool.ruff]` → `[tool.ruff.lint]`, setup.cfg → `.flake8`, eslintrc → flat
    ///   config), a per-file ignore of a code the whole project ignored, tox environments
    ///   merged or renamed with their commands.
    /// - A modifyitems hook that reorders items, adds a marker such as `slow`, or skips only the
    ///   items it picks (`if "slow" in item.keywords`); `sys.exit(pytest.main())` in a test
    ///   module's `__main__` block; `process.exit(1)`.
    /// ## Configuration
    /// `rules.disabled-check.severity` in `.integrity-gate.yml`; an accepted suppression
    /// that already exists in base can carry `integrity-gate: allow disabled-check -- <reason>`.
    pub static DISABLED_CHECK = {
        id: "disabled-check",
        severity: Error,
        engine: Lines,
        languages: [],
        summary: "a lint/type suppression, --no-verify, continue-on-error or a neutered test script is added",
        maturity: Stable,
        check: Some(check),
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    // Run on deleted files too: their suppressions may live on, moved, in another file.
    if context.language.is_some() {
        let before = out.candidates.len();
        suppressions::check(context, out);
        // A generator writes its own lint and type opt-outs (`/* eslint-disable */`,
        // `// @ts-nocheck` atop a router's `routeTree.gen.ts`): a note, not a cheat.
        if generated_by_a_tool(context) {
            for candidate in &mut out.candidates[before..] {
                candidate.severity = Severity::Note;
                candidate.message.push_str(" (in a generated file)");
            }
        } else if let Some(upstream) = adapted_from_elsewhere(context) {
            for candidate in &mut out.candidates[before..] {
                candidate.severity = candidate.severity.min(Severity::Warning);
                candidate
                    .message
                    .push_str(&format!(" (in code adapted from {upstream})"));
            }
        }
    }
    if context.side(Side::Head).is_none() && !workflows::is_workflow(context.pair.path()) {
        return;
    }
    let path = context.pair.path();
    if workflows::is_workflow(path) {
        workflows::check(context, out);
    }
    scripts::check(context, out);
    loops::check(context, out);
    test_harness::check(context, out);
    checker_config::check(context, out);
    lint_lists::check(context, out);
    ignore_patterns::check(context, out);
    tox_envs::check(context, out);
    runner_config::check(context, out);
}

/// Whether head's file is a generator's output: it says so in its first lines (`This file was
/// automatically generated`, `@generated`, `Code generated .. DO NOT EDIT`) or is named so
/// (`*.gen.ts`, `*_pb2.py`). Only a file that is new, or was already generated in base: a file
/// of hand-written code that gains such a header is judged as before.
fn generated_by_a_tool(context: &FileContext<'_>) -> bool {
    let says_so = |text: &str| {
        text.lines().take(8).any(|line| {
            let line = line.to_ascii_lowercase();
            line.contains("automatically generated")
                || line.contains("auto-generated")
                || line.contains("autogenerated")
                || line.contains("@generated")
                || (line.contains("generated") && line.contains("do not edit"))
        })
    };
    let named_so = |path: &str| {
        let name = file_name(path);
        name.contains(".gen.") || name.ends_with("_pb2.py") || name.ends_with(".generated.ts")
    };
    let Some(head) = context.side(Side::Head) else {
        return false;
    };
    if !(says_so(head.text) || named_so(head.path)) {
        return false;
    }
    match context.side(Side::Base) {
        None => true,
        Some(base) => says_so(base.text) || named_so(base.path),
    }
}

/// Where head's file says its code comes from, in its first lines (`// Adapted from Alien
/// Signals https://github.com/stackblitz/alien-signals/`): a URL after "adapted from", "ported
/// from", "vendored from", "copied from" or "based on". Only a file that is new, or said so in
/// base too: hand-written code that gains such a line is judged as before.
fn adapted_from_elsewhere(context: &FileContext<'_>) -> Option<String> {
    // The phrase, with the address on its line or the next (`// Adapted from Alien Signals`
    // then `// https://github.com/stackblitz/alien-signals/`).
    let upstream = |text: &str| -> Option<String> {
        let lines: Vec<&str> = text.lines().take(13).collect();
        let url_in = |line: &str| {
            line.split_whitespace()
                .find(|word| word.starts_with("https://") || word.starts_with("http://"))
                .map(|url| crate::rules::markers::shorten(url, 80))
        };
        lines.iter().take(12).enumerate().find_map(|(index, line)| {
            let lower = line.to_ascii_lowercase();
            let said = [
                "adapted from",
                "ported from",
                "vendored from",
                "copied from",
                "based on",
            ]
            .iter()
            .any(|phrase| lower.contains(phrase));
            if !said {
                return None;
            }
            url_in(line).or_else(|| lines.get(index + 1).and_then(|next| url_in(next)))
        })
    };
    let head = context.side(Side::Head)?;
    let found = upstream(head.text)?;
    match context.side(Side::Base) {
        None => Some(found),
        Some(base) => upstream(base.text).map(|_| found),
    }
}

/// The file name of a repo-relative path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The best head line for a finding: the first line containing `needle` at or after `anchor`
/// (a line containing `anchor`), preferring lines the change added.
fn locate(text: &str, anchor: Option<&str>, needle: &str, preferred: &LineSet) -> u32 {
    let lines: Vec<&str> = text.lines().collect();
    let start = anchor
        .and_then(|anchor| lines.iter().position(|line| line.contains(anchor)))
        .unwrap_or(0);
    let number = |index: usize| u32::try_from(index + 1).unwrap_or(u32::MAX);
    let mut first = None;
    for (index, line) in lines.iter().enumerate().skip(start) {
        if line.contains(needle) {
            if preferred.contains(number(index)) {
                return number(index);
            }
            first.get_or_insert(number(index));
        }
    }
    if let Some(first) = first {
        return first;
    }
    if start > 0 {
        return number(start);
    }
    preferred.iter().next().unwrap_or(1)
}

/// The first line that sets `key` (`key = ...`, `key: ...`, `"key": ...`), preferring added
/// lines; falls back to [`locate`] on the bare name.
fn locate_key(text: &str, key: &str, preferred: &LineSet) -> u32 {
    let sets = |line: &str| {
        let line = line.trim_start().trim_start_matches(['"', '\'']);
        line.strip_prefix(key).is_some_and(|rest| {
            rest.trim_start_matches(['"', '\''])
                .trim_start()
                .starts_with(['=', ':'])
        })
    };
    let mut first = None;
    for (index, line) in text.lines().enumerate() {
        if sets(line) {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if preferred.contains(number) {
                return number;
            }
            first.get_or_insert(number);
        }
    }
    first.unwrap_or_else(|| locate(text, None, key, preferred))
}

/// Pushes a head-side candidate.
fn push(out: &mut Output, side: Side, line: u32, severity: Severity, message: String, key: String) {
    out.candidates
        .push(Candidate::at_line(side, line, severity, message, key));
}

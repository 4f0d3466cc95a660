//! `mass-deletion`: the change deletes source and tests at scale, and the content does not
//! reappear elsewhere in the change.
//!
//! A move is not a deletion. The change set pairs renames by content similarity already (git's
//! rename detection, or [`crate::changeset::pair_trees`]); what it cannot pair (a file split in
//! two, a move past git's rename limit, a folder merged into one file) is recognised here by
//! the deleted lines turning up among the lines the change adds anywhere else.

use super::context::Candidate;
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::changeset::{FilePair, Status};
use crate::finding::{Confidence, Severity, Side};
use std::collections::{BTreeMap, HashSet};

declare_rule! {
    /// ## What it flags
    /// A change that deletes, without the content reappearing elsewhere in the change:
    ///
    /// - more than `max-files` (default 20) source and test files, or
    /// - more than `max-lines` (default 1,000) lines of source and tests (whole files deleted,
    ///   plus what modified files lose net of what they gain), or
    /// - a whole top-level directory that held source or tests.
    ///
    /// One finding for the change, on the first deleted file, listing the top-level
    /// directories with their file and line counts. A warning, and an error when the change is
    /// agent-authored (the `github` command recognises agents from the pull request's author,
    /// branch, commit identities and trailers).
    /// ## Why it matters
    /// Bulk destructive operations are a quarter of the incidents in the study behind this
    /// project: an agent that cannot make a build pass deletes what fails, and a thousand
    /// deleted lines are easy to approve in a diff view that folds them.
    /// ## Example
    /// Fires: a change that deletes `legacy/` (30 files) and 4 files under `src/`, or that
    /// empties a 1,500-line module down to a stub.
    /// ## Not flagged
    /// - Moves and renames: a file paired by content similarity, or whose lines mostly (half
    ///   or more of its significant lines) reappear among the lines the change adds, such as a
    ///   large directory moved or a module split in two.
    /// - Generated and third-party files: lockfiles, `dist/`, `build/`, `target/`,
    ///   `node_modules/`, `vendor/`, `third_party/`, snapshots (`__snapshots__/`, `*.snap`),
    ///   minified bundles, source maps, generated protobuf code.
    /// - Documentation, data and assets (only source and test files count).
    /// - Files the policy's `ignore:` globs cover.
    /// ## Configuration
    /// ```yaml
    /// rules:
    ///   mass-deletion:
    ///     max-files: 20        # deleted source/test files allowed (default 20)
    ///     max-lines: 1000      # deleted source/test lines allowed (default 1000)
    ///     severity: warning    # replaces the severity for every change, agents' included
    /// agents:
    ///   rules:
    ///     mass-deletion:
    ///       max-files: 5       # the lower threshold applies to agent-authored changes
    /// ```
    pub static MASS_DELETION = {
        id: "mass-deletion",
        severity: Warning,
        engine: FileSet,
        languages: [],
        summary: "source and tests are deleted at scale (files, lines or a top-level directory) and do not reappear",
        maturity: Stable,
        check: None,
        change_check: check,
    }
}

/// Default `max-files`.
const MAX_FILES: u64 = 20;
/// Default `max-lines`.
const MAX_LINES: u64 = 1000;
/// Share of a deleted file's significant lines that, found among the added lines, make it a
/// move (git's own rename threshold is 50 %).
const MOVED_PERCENT: usize = 50;
/// Most directories the message lists by name.
const LISTED_DIRS: usize = 8;

#[derive(Default)]
struct Tally {
    files: u64,
    lines: u64,
}

fn check(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let max_files = input.policy.deletion.max_files.unwrap_or(MAX_FILES);
    let max_lines = input.policy.deletion.max_lines.unwrap_or(MAX_LINES);
    let counted: Vec<(usize, &FilePair)> = input
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, pair)| counts(pair))
        .map(|(index, pair)| (index, *pair))
        .collect();
    if counted.is_empty() {
        return;
    }
    let added = added_lines(input.pairs);
    let mut by_dir: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut first_deleted: Option<usize> = None;
    let mut first_shrunk: Option<(usize, u32)> = None;
    for (index, pair) in counted {
        let dir = top_level(pair.old_path.as_deref().unwrap_or_default());
        match pair.status {
            Status::Deleted => {
                let text = pair.base.text();
                if text.is_some_and(|text| reappears(text, &added)) {
                    continue;
                }
                let tally = by_dir.entry(dir).or_default();
                tally.files += 1;
                tally.lines += text.map_or(0, |text| text.lines().count() as u64);
                first_deleted.get_or_insert(index);
            }
            Status::Modified | Status::Renamed => {
                let lost = net_removed(pair, &added);
                if lost > 0 {
                    by_dir.entry(dir).or_default().lines += lost;
                    if let Some(line) = pair.removed.iter().next() {
                        first_shrunk.get_or_insert((index, line));
                    }
                }
            }
            Status::Added => {}
        }
    }
    let files: u64 = by_dir.values().map(|tally| tally.files).sum();
    let lines: u64 = by_dir.values().map(|tally| tally.lines).sum();
    // A folder is removed whole when head has no entry of that name left; without head's
    // listing (a snapshot without one), only the counts decide.
    let removed_dirs: Vec<&str> = match input.head_top_level {
        Some(head) => by_dir
            .iter()
            .filter(|(dir, tally)| tally.files > 0 && *dir != &"." && !head.contains(**dir))
            .map(|(dir, _)| *dir)
            .collect(),
        None => Vec::new(),
    };
    if files <= max_files && lines <= max_lines && removed_dirs.is_empty() {
        return;
    }
    let (index, line) = match (first_deleted, first_shrunk) {
        (Some(index), _) => (index, 1),
        (None, Some(at)) => at,
        (None, None) => return,
    };
    let mut reasons = Vec::new();
    if files > max_files {
        reasons.push(format!("more than {max_files} files"));
    }
    if lines > max_lines {
        reasons.push(format!("more than {max_lines} lines"));
    }
    if !removed_dirs.is_empty() {
        reasons.push("a whole top-level directory".to_string());
    }
    let mut listed: Vec<(&str, &Tally)> = by_dir.iter().map(|(dir, t)| (*dir, t)).collect();
    listed.sort_by(|a, b| b.1.lines.cmp(&a.1.lines).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = listed
        .iter()
        .take(LISTED_DIRS)
        .map(|(dir, tally)| {
            let name = if *dir == "." {
                "the root".to_string()
            } else {
                format!("`{dir}/`")
            };
            let whole = if removed_dirs.contains(dir) {
                " removed whole,"
            } else {
                ""
            };
            match tally.files {
                0 => format!("{name}{whole} {} lines", tally.lines),
                files => format!("{name}{whole} {files} files, {} lines", tally.lines),
            }
        })
        .collect();
    if listed.len() > LISTED_DIRS {
        parts.push(format!("{} more directories", listed.len() - LISTED_DIRS));
    }
    let severity = if input.policy.agent_authored {
        Severity::Error
    } else {
        Severity::Warning
    };
    let who = if input.policy.agent_authored {
        " in an agent-authored change"
    } else {
        ""
    };
    let what = match files {
        0 => format!("{lines} lines of source and tests"),
        _ => format!("{files} source and test files and {lines} lines"),
    };
    out.candidates.push((
        index,
        Candidate {
            side: Side::Base,
            line,
            end_line: line,
            severity,
            message: format!(
                "the change deletes {what} ({}){who}, and they do not reappear elsewhere in the change: {}",
                reasons.join(", "),
                parts.join("; ")
            ),
            key: "mass-deletion".to_string(),
            moved: None,
            confidence: Confidence::Certain,
        },
    ));
}

/// Whether a pair can count: it loses base lines, is source or tests, and is not generated.
fn counts(pair: &FilePair) -> bool {
    let Some(path) = pair.old_path.as_deref() else {
        return false;
    };
    is_source_or_test(path)
        && !is_generated(path)
        && (pair.status == Status::Deleted || !pair.removed.is_empty())
}

/// The top-level directory of a path, or `.` for a file at the root.
fn top_level(path: &str) -> &str {
    match path.split_once('/') {
        Some((dir, _)) => dir,
        None => ".",
    }
}

/// A line that says something on its own (not a brace, a blank or `end`), trimmed.
fn significant(line: &str) -> Option<&str> {
    let line = line.trim();
    let letters = line.chars().filter(|c| c.is_alphanumeric()).count();
    (letters >= 4).then_some(line)
}

/// The significant lines the change adds, in every file it adds or edits.
fn added_lines<'a>(pairs: &[&'a FilePair]) -> HashSet<&'a str> {
    let mut lines = HashSet::new();
    for pair in pairs {
        let Some(text) = pair.head.text() else {
            continue;
        };
        let whole = matches!(pair.status, Status::Added);
        for (index, line) in text.lines().enumerate() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if (whole || pair.added.contains(number))
                && let Some(line) = significant(line)
            {
                lines.insert(line);
            }
        }
    }
    lines
}

/// Whether most of a deleted text turns up among the added lines (a move git did not pair).
fn reappears(text: &str, added: &HashSet<&str>) -> bool {
    let mut total = 0usize;
    let mut found = 0usize;
    for line in text.lines().filter_map(significant) {
        total += 1;
        found += usize::from(added.contains(line));
    }
    total > 0 && found * 100 >= total * MOVED_PERCENT
}

/// What a modified file loses: removed lines that appear nowhere among the added ones, less
/// what the file gains (a rewrite is not a deletion).
fn net_removed(pair: &FilePair, added: &HashSet<&str>) -> u64 {
    let Some(text) = pair.base.text() else {
        return 0;
    };
    let gone = text
        .lines()
        .enumerate()
        .filter(|(index, line)| {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            pair.removed.contains(number) && significant(line).is_none_or(|l| !added.contains(l))
        })
        .count() as u64;
    gone.saturating_sub(pair.added.len() as u64)
}

/// Source and test files by extension: code in any common language, not docs, data or assets.
fn is_source_or_test(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((_, extension)) = name.rsplit_once('.') else {
        return false;
    };
    matches!(
        extension.to_ascii_lowercase().as_str(),
        "js" | "mjs"
            | "cjs"
            | "jsx"
            | "ts"
            | "mts"
            | "cts"
            | "tsx"
            | "vue"
            | "svelte"
            | "py"
            | "pyi"
            | "rs"
            | "go"
            | "java"
            | "kt"
            | "kts"
            | "scala"
            | "groovy"
            | "rb"
            | "php"
            | "cs"
            | "fs"
            | "c"
            | "h"
            | "cc"
            | "cpp"
            | "cxx"
            | "hpp"
            | "hh"
            | "m"
            | "mm"
            | "swift"
            | "dart"
            | "ex"
            | "exs"
            | "erl"
            | "hs"
            | "ml"
            | "clj"
            | "lua"
            | "pl"
            | "r"
            | "jl"
            | "zig"
            | "nim"
            | "sh"
            | "bash"
            | "zsh"
            | "ps1"
            | "sql"
    )
}

/// Generated or third-party files, which a change may drop in bulk (regenerated, unvendored).
pub(crate) fn is_generated(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let in_generated_dir = lower.split('/').rev().skip(1).any(|dir| {
        matches!(
            dir,
            "dist"
                | "build"
                | "target"
                | "node_modules"
                | "vendor"
                | "vendored"
                | "third_party"
                | "third-party"
                | "__snapshots__"
                | "__generated__"
                | "generated"
                | "site-packages"
                | ".yarn"
        )
    });
    in_generated_dir
        || crate::paths::vendored_tool(path).is_some()
        || matches!(
            name,
            "cargo.lock"
                | "package-lock.json"
                | "npm-shrinkwrap.json"
                | "yarn.lock"
                | "pnpm-lock.yaml"
                | "bun.lockb"
                | "poetry.lock"
                | "uv.lock"
                | "pdm.lock"
                | "pipfile.lock"
                | "go.sum"
                | "gemfile.lock"
                | "composer.lock"
        )
        || name.ends_with(".lock")
        || name.ends_with(".snap")
        || name.ends_with(".min.js")
        || name.ends_with(".min.css")
        || name.ends_with(".map")
        || name.ends_with("_pb2.py")
        || name.ends_with("_pb2_grpc.py")
        || name.ends_with(".pb.go")
        || name.contains(".generated.")
        || name.ends_with(".g.dart")
        // Tool configuration (`vitest.config.ts`) is not source, and is often merged into one.
        || name.contains(".config.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_third_party_paths_do_not_count() {
        for path in [
            "Cargo.lock",
            "web/package-lock.json",
            "dist/app.js",
            "packages/ui/build/index.js",
            "src/__snapshots__/app.test.ts.snap",
            "vendor/github.com/x/y.go",
            "api/user_pb2.py",
            "static/app.min.js",
        ] {
            assert!(is_generated(path), "{path}");
        }
        for path in ["src/build.rs", "src/dist.py", "tests/test_vendor.py"] {
            assert!(!is_generated(path), "{path}");
        }
    }

    #[test]
    fn only_source_and_tests_count() {
        assert!(is_source_or_test("src/lib.rs"));
        assert!(is_source_or_test("tests/test_api.py"));
        assert!(is_source_or_test("app/Main.java"));
        assert!(!is_source_or_test("docs/guide.md"));
        assert!(!is_source_or_test("assets/logo.png"));
        assert!(!is_source_or_test("Makefile"));
    }

    #[test]
    fn a_text_is_moved_when_most_of_its_lines_are_added_elsewhere() {
        let added: HashSet<&str> = ["def total(items):", "return sum(items)"].into();
        assert!(reappears(
            "def total(items):\n    return sum(items)\n",
            &added
        ));
        assert!(!reappears(
            "def mean(items):\n    return sum(items) / len(items)\n",
            &added
        ));
        assert!(!reappears("}\n\n", &added));
    }
}

//! The git pre-push hook: installing it, and turning git's pre-push stdin (or pre-commit's
//! environment) into ranges to check.
//!
//! git calls `pre-push <remote> <url>` with one stdin line per pushed ref:
//! `<local ref> <local sha> <remote ref> <remote sha>`. Deletions (local sha all zeros) need no
//! check; a new remote branch (remote sha all zeros) has no base, so the range is bounded by the
//! commits that are not on any remote-tracking branch yet, falling back to the merge-base with
//! the remote's default branch, and never the whole history. Null ids are recognised by being
//! all zeros, whatever their length (SHA-1 or SHA-256 repositories).
//!
//! The installed hook carries a marker line; `install` replaces only hooks that carry it unless
//! forced (and then keeps a backup), so a user's own hook is never overwritten silently.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Marker line identifying a hook written by `integrity-gate hook install`.
pub const HOOK_MARKER: &str = "# integrity-gate-managed-hook v1";

/// Errors of hook installation and range resolution (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    /// File system problem.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A hook not written by integrity-gate is in the way.
    #[error(
        "{0} already exists and was not installed by integrity-gate; run `integrity-gate hook install --force` to replace it (a backup is kept)"
    )]
    ForeignHook(String),
    /// A pre-push stdin line that does not have four fields with object ids.
    #[error("unexpected pre-push input line {line}: {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line (clipped).
        text: String,
    },
    /// A git command failed.
    #[error("git {args} failed: {stderr}")]
    Git {
        /// The arguments.
        args: String,
        /// git's message.
        stderr: String,
    },
}

/// Result of [`install`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// The hook file written.
    pub path: PathBuf,
    /// An earlier integrity-gate hook was replaced.
    pub replaced_own: bool,
    /// Where a foreign hook was moved (with `--force`).
    pub backup: Option<PathBuf>,
}

/// The hooks directory git uses for `repo_dir`, honouring `core.hooksPath`.
pub fn hooks_dir(repo_dir: &Path) -> Result<PathBuf, HookError> {
    let out = run_git(
        crate::git::command::git_keeping(repo_dir, &["core.hooksPath"]),
        repo_dir,
        &["rev-parse", "--path-format=absolute", "--git-path", "hooks"],
    )?;
    Ok(PathBuf::from(out.trim()))
}

/// The hook script. `program` is the command to run (usually `integrity-gate`).
pub fn script(program: &str) -> String {
    format!(
        "#!/bin/sh\n{HOOK_MARKER}\n# Installed by `integrity-gate hook install`; blocks pushes that cheat CI.\n# Bypass once with `git push --no-verify`.\nif ! command -v {prog} >/dev/null 2>&1; then\n  echo \"integrity-gate: {shown} not found on PATH; push blocked (bypass with --no-verify)\" >&2\n  exit 1\nfi\nexec {prog} pre-push \"$@\"\n",
        prog = shell_quote(program),
        shown = program.replace(['"', '\\', '$', '`'], "_"),
    )
}

/// Writes `pre-push` into `hooks_dir` running `integrity-gate`. See [`install_program`].
pub fn install(hooks_dir: &Path, force: bool) -> Result<Installed, HookError> {
    install_program(hooks_dir, force, "integrity-gate")
}

/// Writes `pre-push` into `hooks_dir` running `program`. An existing hook with the marker is
/// replaced; a foreign one only with `force`, after moving it to `pre-push.integrity-gate-backup`.
pub fn install_program(
    hooks_dir: &Path,
    force: bool,
    program: &str,
) -> Result<Installed, HookError> {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> HookError + use<> {
        let path = path.display().to_string();
        move |source| HookError::Io {
            action,
            path,
            source,
        }
    }
    std::fs::create_dir_all(hooks_dir).map_err(io("cannot create", hooks_dir))?;
    let path = hooks_dir.join("pre-push");
    let mut replaced_own = false;
    let mut backup = None;
    // symlink_metadata: a dangling symlink is still a hook someone put there.
    if std::fs::symlink_metadata(&path).is_ok() {
        let existing = std::fs::read(&path).unwrap_or_default();
        if String::from_utf8_lossy(&existing)
            .lines()
            .any(|l| l.trim() == HOOK_MARKER)
        {
            replaced_own = true;
        } else if force {
            let b = hooks_dir.join("pre-push.integrity-gate-backup");
            std::fs::rename(&path, &b).map_err(io("cannot back up", &path))?;
            backup = Some(b);
        } else {
            return Err(HookError::ForeignHook(path.display().to_string()));
        }
    }
    // Write a temporary file and rename it, so a failed write never leaves half a hook.
    let tmp = hooks_dir.join(".pre-push.integrity-gate.tmp");
    std::fs::write(&tmp, script(program)).map_err(io("cannot write", &tmp))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
            .map_err(io("cannot chmod", &tmp))?;
    }
    std::fs::rename(&tmp, &path).map_err(io("cannot install", &path))?;
    Ok(Installed {
        path,
        replaced_own,
        backup,
    })
}

/// Where a pushed range starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeBase {
    /// The remote already has this commit on the ref.
    Remote(String),
    /// The ref is new on the remote: bound it with [`resolve_base`].
    NewBranch,
}

/// One pushed ref from git's pre-push stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushRange {
    /// e.g. `refs/heads/feature`.
    pub local_ref: String,
    /// The commit being pushed.
    pub local_sha: String,
    /// e.g. `refs/heads/feature` on the remote.
    pub remote_ref: String,
    /// Where the range starts.
    pub base: RangeBase,
}

/// Parses git's pre-push stdin. Deletions are skipped; blank lines ignored.
pub fn parse_pre_push(stdin: &str) -> Result<Vec<PushRange>, HookError> {
    let mut out = Vec::new();
    for (i, line) in stdin.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        let bad = || HookError::BadLine {
            line: i + 1,
            text: crate::secrets::shorten_redacted(line, 200, "…"),
        };
        let [local_ref, local_sha, remote_ref, remote_sha] = fields[..] else {
            return Err(bad());
        };
        if !is_hex(local_sha) || !is_hex(remote_sha) {
            return Err(bad());
        }
        if is_zero(local_sha) {
            continue; // deletion: nothing to check
        }
        out.push(PushRange {
            local_ref: local_ref.to_string(),
            local_sha: local_sha.to_ascii_lowercase(),
            remote_ref: remote_ref.to_string(),
            base: if is_zero(remote_sha) {
                RangeBase::NewBranch
            } else {
                RangeBase::Remote(remote_sha.to_ascii_lowercase())
            },
        });
    }
    Ok(out)
}

/// The base commit to diff a pushed range against, or `None` when nothing is new (every pushed
/// commit is already on a remote-tracking branch).
///
/// - `Remote(sha)` present locally: that sha (the caller takes the merge-base, which also
///   covers force pushes).
/// - Otherwise (new branch, or a remote sha we never fetched): the parent of the oldest commit
///   that is on no remote-tracking branch; if that commit is a root, the merge-base with
///   `<remote>/HEAD` (the remote's default branch); if there is none either, the empty tree
///   ([`EMPTY_TREE_SHA1`]/[`EMPTY_TREE_SHA256`] as git reports it) so the whole new history is
///   checked rather than nothing.
pub fn resolve_base(
    repo_dir: &Path,
    remote: &str,
    range: &PushRange,
) -> Result<Option<String>, HookError> {
    if let RangeBase::Remote(sha) = &range.base
        && has_commit(repo_dir, sha)
    {
        return Ok(Some(sha.clone()));
    }
    let sha = range.local_sha.as_str();
    if !is_hex(sha) {
        return Ok(None);
    }
    let new = git(
        repo_dir,
        &[
            "rev-list",
            "--topo-order",
            "--reverse",
            sha,
            "--not",
            "--remotes",
        ],
    )?;
    let Some(oldest) = new.lines().next().map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let parents = git(repo_dir, &["rev-list", "--parents", "-n", "1", oldest])?;
    if let Some(parent) = parents.split_whitespace().nth(1) {
        return Ok(Some(parent.to_string()));
    }
    if is_safe_name(remote) {
        let default = format!("refs/remotes/{remote}/HEAD");
        if let Ok(mb) = git(repo_dir, &["merge-base", sha, &default])
            && let Some(mb) = mb.lines().next().filter(|l| is_hex(l.trim()))
        {
            return Ok(Some(mb.trim().to_string()));
        }
    }
    let empty = git(repo_dir, &["hash-object", "-t", "tree", "--stdin"]).unwrap_or_default();
    let empty = empty.trim();
    Ok(Some(if is_hex(empty) {
        empty.to_string()
    } else {
        EMPTY_TREE_SHA1.to_string()
    }))
}

/// git's empty tree in SHA-1 repositories.
pub const EMPTY_TREE_SHA1: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/// git's empty tree in SHA-256 repositories.
pub const EMPTY_TREE_SHA256: &str =
    "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321";

/// The range pre-commit passes to hooks, when it passes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreCommitRange {
    /// `PRE_COMMIT_FROM_REF`..`PRE_COMMIT_TO_REF` (three-dot semantics, like pre-commit's own hooks).
    Range {
        /// Start.
        from: String,
        /// End.
        to: String,
    },
    /// Running under pre-commit without a range (root push, `--all-files`): the caller uses the
    /// merge-base of HEAD and the default branch.
    NoRange,
    /// Not running under pre-commit: read git's stdin instead.
    NotPreCommit,
}

/// Reads pre-commit's variables through `get` (normally `std::env::var`). pre-commit does not
/// expand `$VARS` in `entry:`, so the binary must read them itself. The legacy names
/// (`PRE_COMMIT_SOURCE`/`PRE_COMMIT_ORIGIN`) are honoured too.
pub fn pre_commit_range(get: impl Fn(&str) -> Option<String>) -> PreCommitRange {
    let non_empty = |k: &str| get(k).filter(|v| !v.trim().is_empty());
    let from = non_empty("PRE_COMMIT_FROM_REF").or_else(|| non_empty("PRE_COMMIT_SOURCE"));
    let to = non_empty("PRE_COMMIT_TO_REF").or_else(|| non_empty("PRE_COMMIT_ORIGIN"));
    match (from, to) {
        (Some(from), Some(to)) if !from.starts_with('-') && !to.starts_with('-') => {
            PreCommitRange::Range { from, to }
        }
        _ if non_empty("PRE_COMMIT").is_some() => PreCommitRange::NoRange,
        _ => PreCommitRange::NotPreCommit,
    }
}

fn is_hex(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn is_zero(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b == b'0')
}

fn is_safe_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && !s.contains("..")
        && s.bytes().all(|b| b.is_ascii_graphic() && b != b':')
}

fn has_commit(repo_dir: &Path, sha: &str) -> bool {
    is_hex(sha) && git(repo_dir, &["cat-file", "-e", &format!("{sha}^{{commit}}")]).is_ok()
}

fn git(repo_dir: &Path, args: &[&str]) -> Result<String, HookError> {
    run_git(crate::git::command::git(repo_dir), repo_dir, args)
}

fn run_git(mut command: Command, repo_dir: &Path, args: &[&str]) -> Result<String, HookError> {
    command.args(args);
    let out = crate::git::command::run(command).map_err(|error| match error {
        crate::git::command::RunError::Spawn(source) => HookError::Io {
            action: "cannot run git in",
            path: repo_dir.display().to_string(),
            source,
        },
        timed_out => HookError::Git {
            args: args.join(" "),
            stderr: timed_out.to_string(),
        },
    })?;
    if !out.status.success() {
        return Err(HookError::Git {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./+".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";
    const Z: &str = "0000000000000000000000000000000000000000";

    #[test]
    fn parses_updates_new_branches_and_skips_deletions() {
        let z64 = "0".repeat(64);
        let c64 = "c".repeat(64);
        let stdin = format!(
            "refs/heads/main {A} refs/heads/main {B}\n\nrefs/heads/new {B} refs/heads/new {Z}\n(delete) {Z} refs/heads/old {A}\nrefs/heads/s256 {c64} refs/heads/s256 {z64}\n"
        );
        let ranges = parse_pre_push(&stdin).unwrap();
        assert_eq!(ranges.len(), 3);
        assert_eq!(ranges[0].base, RangeBase::Remote(B.into()));
        assert_eq!(ranges[1].base, RangeBase::NewBranch);
        assert_eq!(ranges[2].base, RangeBase::NewBranch);
        assert!(parse_pre_push("").unwrap().is_empty());
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [
            "refs/heads/x",
            &format!("a {A} b"),
            &format!("a --exec=x b {A}"),
            &format!("a {A} b {A} extra"),
        ] {
            assert!(parse_pre_push(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bad_line_is_quoted_redacted_before_it_is_cut() {
        // Split so that the gate's own run over this file does not report it.
        let token = format!("ghp_{}", "Zq7WvX3kTj9RmPb2LsYd8HcNf4GuKe6Aw5Eo");
        for pad in 150..200 {
            let line = format!("{} {token}", "x".repeat(pad));
            let Err(HookError::BadLine { text, .. }) = parse_pre_push(&line) else {
                panic!("{line} is not a pre-push line");
            };
            assert!(!text.contains("ghp_Z"), "{pad}: {text}");
        }
    }

    #[test]
    fn pre_commit_env() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            pre_commit_range(env(&[
                ("PRE_COMMIT", "1"),
                ("PRE_COMMIT_FROM_REF", "abc"),
                ("PRE_COMMIT_TO_REF", "def")
            ])),
            PreCommitRange::Range {
                from: "abc".into(),
                to: "def".into()
            }
        );
        assert_eq!(
            pre_commit_range(env(&[
                ("PRE_COMMIT_SOURCE", "s"),
                ("PRE_COMMIT_ORIGIN", "o")
            ])),
            PreCommitRange::Range {
                from: "s".into(),
                to: "o".into()
            }
        );
        assert_eq!(
            pre_commit_range(env(&[("PRE_COMMIT", "1")])),
            PreCommitRange::NoRange
        );
        assert_eq!(
            pre_commit_range(env(&[
                ("PRE_COMMIT", "1"),
                ("PRE_COMMIT_FROM_REF", "--output=x"),
                ("PRE_COMMIT_TO_REF", "y")
            ])),
            PreCommitRange::NoRange
        );
        assert_eq!(pre_commit_range(env(&[])), PreCommitRange::NotPreCommit);
    }

    #[test]
    fn script_quotes_odd_program_paths() {
        let s = script("/opt/my tools/integrity-gate");
        assert!(
            s.contains("exec '/opt/my tools/integrity-gate' pre-push \"$@\""),
            "{s}"
        );
        let s = script("x'; rm -rf /; '");
        assert!(s.contains("exec 'x'\\''; rm -rf /; '\\''' pre-push"), "{s}");
        assert!(script("integrity-gate").contains(HOOK_MARKER));
    }
}

//! Making sure the base, the head and their merge-base exist in the local clone.
//!
//! `actions/checkout` clones one commit by default, so the base commit and the history that
//! connects it to the head are usually missing. This module shells out to the `git` CLI (the
//! analysis side's git library has no network transports) and only ever *adds* objects:
//! missing tips are fetched by SHA, and a shallow clone is deepened in growing steps until
//! `git merge-base` succeeds or a cap is hit. A depth-limited fetch is never run on a full
//! clone, because that would make it shallow and cut off the very history we need. When it
//! still fails, the error carries the fix (`fetch-depth: 0`) for the exit-2 message. Every
//! git process runs through [`crate::git::command`]: the checkout's own config cannot make it
//! run a program, submodules are not fetched, and a stalled fetch is stopped at the time limit.

use crate::git::command::{self, RunError};
use std::path::Path;
use std::process::{Command, Output};

/// First `--deepen` step; each later step doubles it.
const FIRST_DEEPEN: u32 = 16;

/// What [`ensure_commits`] found or did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ensured {
    /// The merge-base of base and head (the start of the three-dot range).
    pub merge_base: String,
    /// Whether anything was fetched from `origin`.
    pub fetched: bool,
    /// How many `--deepen` rounds were needed.
    pub deepen_steps: u32,
}

/// Why the commits could not be made available. Every variant is an exit-2 condition.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// `git` could not be started.
    #[error("cannot run git: {0}")]
    Spawn(#[from] std::io::Error),
    /// A revision is not a plain object id (refused before reaching a command line).
    #[error("`{0}` is not a commit id")]
    BadRevision(String),
    /// The directory is not a git work tree or repository.
    #[error("{0} is not a git repository: {1}")]
    NotARepository(String, String),
    /// A git process ran past the time limit and was stopped.
    #[error(
        "cannot fetch {what} from origin: git {error}\nhint: check that origin answers, or check out with full history (actions/checkout `fetch-depth: 0`)"
    )]
    TimedOut {
        /// Which commits were being fetched.
        what: String,
        /// The timeout, with the setting that raises it.
        error: RunError,
    },
    /// `git fetch` failed (network, permissions, unknown SHA on the remote).
    #[error(
        "cannot fetch {what} from origin: {stderr}\nhint: check out with full history (actions/checkout `fetch-depth: 0`)"
    )]
    FetchFailed {
        /// Which commits were being fetched.
        what: String,
        /// git's message, with any credentials in URLs removed.
        stderr: String,
    },
    /// The history was deepened up to the cap and still has no common commit.
    #[error(
        "no merge-base between {base} and {head} after deepening the shallow clone {steps} times\nhint: check out with full history (actions/checkout `fetch-depth: 0`), or raise the deepen limit"
    )]
    ShallowLimit {
        /// Base commit.
        base: String,
        /// Head commit.
        head: String,
        /// Deepen rounds tried.
        steps: u32,
    },
    /// Full history is present and the two commits share no ancestor.
    #[error(
        "{base} and {head} have no common ancestor (unrelated histories); pass an explicit base"
    )]
    Unrelated {
        /// Base commit.
        base: String,
        /// Head commit.
        head: String,
    },
}

/// Makes sure `base`, `head` and a merge-base of the two exist in the clone at `repo_dir`,
/// fetching from `origin` as little as possible. `max_deepen_steps` caps the deepening of a
/// shallow clone (steps of 16, 32, 64... commits).
pub fn ensure_commits(
    repo_dir: &Path,
    base: &str,
    head: &str,
    max_deepen_steps: u32,
) -> Result<Ensured, FetchError> {
    for rev in [base, head] {
        if !super::event::is_object_id(rev) {
            return Err(FetchError::BadRevision(clip(rev)));
        }
    }
    let git = Git { dir: repo_dir };
    let shallow = git.is_shallow()?;
    if let Some(mb) = git.merge_base(base, head)? {
        return Ok(Ensured {
            merge_base: mb,
            fetched: false,
            deepen_steps: 0,
        });
    }
    let missing: Vec<&str> = [base, head]
        .into_iter()
        .filter(|r| !git.has_commit(r))
        .collect();
    if !missing.is_empty() {
        let mut args = vec![
            "fetch",
            "--no-tags",
            "--no-recurse-submodules",
            "--no-write-fetch-head",
            "--quiet",
        ];
        // On a shallow clone a bounded fetch keeps us from downloading the whole base history;
        // on a full clone `--depth` would truncate history, so plain fetch only.
        if shallow {
            args.push("--depth=1");
        }
        args.push("origin");
        args.extend(missing.iter().copied());
        git.fetch(&args, &missing.join(" "))?;
        if let Some(mb) = git.merge_base(base, head)? {
            return Ok(Ensured {
                merge_base: mb,
                fetched: true,
                deepen_steps: 0,
            });
        }
    }
    if !shallow && !git.is_shallow()? {
        return Err(FetchError::Unrelated {
            base: base.to_string(),
            head: head.to_string(),
        });
    }
    let mut step = FIRST_DEEPEN;
    for round in 1..=max_deepen_steps {
        let deepen = format!("--deepen={step}");
        let args = [
            "fetch",
            "--no-tags",
            "--no-recurse-submodules",
            "--no-write-fetch-head",
            "--quiet",
            &deepen,
            "origin",
            base,
            head,
        ];
        git.fetch(&args, "more history")?;
        if let Some(mb) = git.merge_base(base, head)? {
            return Ok(Ensured {
                merge_base: mb,
                fetched: true,
                deepen_steps: round,
            });
        }
        if !git.is_shallow()? {
            // Deepening reached the roots: the histories really are unrelated.
            return Err(FetchError::Unrelated {
                base: base.to_string(),
                head: head.to_string(),
            });
        }
        step = step.saturating_mul(2);
    }
    Err(FetchError::ShallowLimit {
        base: base.to_string(),
        head: head.to_string(),
        steps: max_deepen_steps,
    })
}

/// Makes `origin/<branch>` present and returns its commit, e.g. the default branch as the base
/// of a push that created a new branch. On a shallow clone the tip is fetched with depth 1
/// (deepen afterwards with [`ensure_commits`]); on a full clone without any depth limit.
pub fn fetch_branch_tip(repo_dir: &Path, branch: &str) -> Result<String, FetchError> {
    let branch = branch.strip_prefix("refs/heads/").unwrap_or(branch);
    if !is_branch_name(branch) {
        return Err(FetchError::BadRevision(clip(branch)));
    }
    let git = Git { dir: repo_dir };
    let shallow = git.is_shallow()?;
    let refspec = format!("+refs/heads/{branch}:refs/remotes/origin/{branch}");
    let mut args = vec!["fetch", "--no-tags", "--no-recurse-submodules", "--quiet"];
    if shallow {
        args.push("--depth=1");
    }
    args.extend(["origin", refspec.as_str()]);
    git.fetch(&args, &format!("branch {branch}"))?;
    let mut rev_parse = git.cmd();
    rev_parse
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("refs/remotes/origin/{branch}^{{commit}}"));
    let out = git.output(rev_parse, "the fetched branch")?;
    let sha = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if out.status.success() && super::event::is_object_id(&sha) {
        Ok(sha)
    } else {
        Err(FetchError::FetchFailed {
            what: format!("branch {branch}"),
            stderr: "the fetched ref does not resolve to a commit".to_string(),
        })
    }
}

/// A conservative subset of git's ref-name rules: enough for real branch names, and nothing
/// that could be read as an option or escape `refs/heads/`.
fn is_branch_name(b: &str) -> bool {
    !b.is_empty()
        && b.len() <= 255
        && !b.starts_with(['-', '/', '.'])
        && !b.ends_with(['/', '.'])
        && !b.contains("..")
        && !b.contains("//")
        && !b.contains("@{")
        && !b.ends_with(".lock")
        && b.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-_./+".contains(&c))
}

struct Git<'a> {
    dir: &'a Path,
}

impl Git<'_> {
    fn cmd(&self) -> Command {
        command::git(self.dir)
    }

    /// Runs `cmd` under the time limit; `what` names the work in a timeout error.
    fn output(&self, cmd: Command, what: &str) -> Result<Output, FetchError> {
        command::run(cmd).map_err(|error| match error {
            RunError::Spawn(error) => FetchError::Spawn(error),
            error @ RunError::TimedOut { .. } => FetchError::TimedOut {
                what: what.to_string(),
                error,
            },
        })
    }

    fn run(&self, args: &[&str], what: &str) -> Result<Output, FetchError> {
        let mut cmd = self.cmd();
        cmd.args(args);
        self.output(cmd, what)
    }

    fn is_shallow(&self) -> Result<bool, FetchError> {
        let out = self.run(
            &["rev-parse", "--is-shallow-repository"],
            "the clone's state",
        )?;
        if !out.status.success() {
            return Err(FetchError::NotARepository(
                self.dir.display().to_string(),
                redact_credentials(String::from_utf8_lossy(&out.stderr).trim()),
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim() == "true")
    }

    fn has_commit(&self, rev: &str) -> bool {
        self.run(&["cat-file", "-e", &format!("{rev}^{{commit}}")], rev)
            .is_ok_and(|o| o.status.success())
    }

    fn merge_base(&self, a: &str, b: &str) -> Result<Option<String>, FetchError> {
        if !self.has_commit(a) || !self.has_commit(b) {
            return Ok(None);
        }
        let out = self.run(&["merge-base", a, b], "the merge-base")?;
        let mb = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok((out.status.success() && super::event::is_object_id(&mb)).then_some(mb))
    }

    fn fetch(&self, args: &[&str], what: &str) -> Result<(), FetchError> {
        let out = self.run(args, what)?;
        if out.status.success() {
            return Ok(());
        }
        Err(FetchError::FetchFailed {
            what: what.to_string(),
            stderr: redact_credentials(String::from_utf8_lossy(&out.stderr).trim()),
        })
    }
}

/// Removes `user:password@` from any URL in `text`, so a remote configured with an embedded
/// token cannot leak it into the log through git's error messages.
pub fn redact_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("://") {
        let (head, tail) = rest.split_at(pos + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == '/')
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(at) => {
                out.push_str("***@");
                out.push_str(&authority[at + 1..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

fn clip(s: &str) -> String {
    let mut end = s.len().min(80);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_redacted() {
        // Assembled at run time so that this file holds no credential-shaped URL literal.
        let s = format!(
            "fatal: unable to access 'https://x-access-token:{}@github.com/o/r/': 403",
            ["ghs", "abc123"].join("_")
        );
        let r = redact_credentials(&s);
        assert!(!r.contains("ghs_abc123"), "{r}");
        assert!(r.contains("https://***@github.com/o/r/"), "{r}");
        assert_eq!(redact_credentials("no url here"), "no url here");
        assert_eq!(redact_credentials("file:///tmp/x"), "file:///tmp/x");
        assert_eq!(redact_credentials("a://"), "a://");
        let _ = redact_credentials("://@@@://é@");
    }

    #[test]
    fn branch_names() {
        for ok in ["main", "release/1.x", "feature/a-b_c+d"] {
            assert!(is_branch_name(ok), "{ok}");
        }
        for bad in [
            "",
            "-x",
            "--upload-pack=x",
            "a..b",
            "/a",
            "a/",
            "x.lock",
            "a b",
            "a:b",
            "a@{1}",
            "é",
        ] {
            assert!(!is_branch_name(bad), "{bad}");
        }
    }

    #[test]
    fn revisions_must_be_object_ids() {
        let dir = std::env::temp_dir();
        let sha = "a".repeat(40);
        assert!(matches!(
            ensure_commits(&dir, "--upload-pack=x", &sha, 3),
            Err(FetchError::BadRevision(_))
        ));
        assert!(matches!(
            ensure_commits(&dir, &sha, "HEAD", 3),
            Err(FetchError::BadRevision(_))
        ));
    }
}

//! `hook install` and `pre-push`: the gate before `git push`, for git's own hook and for the
//! pre-commit framework (`PRE_COMMIT_FROM_REF`/`PRE_COMMIT_TO_REF`).

use super::{PolicySource, analyze, open_repo};
use crate::cli::PrePushArgs;
use crate::hook::{self, PreCommitRange};
use crate::report::{self, Format, Style};
use crate::{Exit, Failure, git};
use std::path::{Path, PathBuf};

impl From<hook::HookError> for Failure {
    fn from(error: hook::HookError) -> Failure {
        Failure::new(error.to_string())
    }
}

/// `integrity-gate hook install [--force]`.
pub fn install(force: bool) -> Result<(Vec<u8>, Exit), Failure> {
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?;
    open_repo(Some(&cwd))?;
    let hooks = hook::hooks_dir(&cwd)?;
    let program = program_for_hook();
    let installed = hook::install_program(&hooks, force, &program)?;
    let mut text = format!(
        "installed the pre-push hook at {} (runs `{program} pre-push`)\n",
        installed.path.display()
    );
    if let Some(backup) = installed.backup {
        text.push_str(&format!(
            "the previous hook was moved to {}\n",
            backup.display()
        ));
    }
    Ok((text.into_bytes(), Exit::Clean))
}

/// `integrity-gate` when it is on PATH (the hook keeps working after upgrades), otherwise the
/// absolute path of this binary.
pub(crate) fn program_for_hook() -> String {
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| dir.join("integrity-gate").is_file())
    });
    if on_path {
        return "integrity-gate".to_string();
    }
    std::env::current_exe()
        .ok()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|| "integrity-gate".to_string())
}

/// `integrity-gate pre-push [REMOTE URL]`: checks every pushed ref; exit 1 blocks the push.
pub fn pre_push(args: &PrePushArgs) -> Result<(Vec<u8>, Exit), Failure> {
    let cwd: PathBuf = std::env::current_dir()
        .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?;
    let repo = open_repo(Some(&cwd))?;
    let ranges = match hook::pre_commit_range(|key| std::env::var(key).ok()) {
        PreCommitRange::Range { from, to } => vec![(to.clone(), Some(from), to, None)],
        PreCommitRange::NoRange => vec![("HEAD".to_string(), None, "HEAD".to_string(), None)],
        PreCommitRange::NotPreCommit => pushed_ranges(&repo, &cwd, args.remote.as_deref())?,
    };
    let mut out = Vec::new();
    let mut exit = Exit::Clean;
    for (label, base, head, policy_rev) in ranges {
        let range = git::Range {
            base: base.as_deref(),
            head: Some(&head),
            worktree: false,
        };
        let source = PolicySource {
            config: args.config.as_deref(),
            fail_on: args.fail_on.as_deref(),
            agent: false,
            online: false,
            policy_rev: policy_rev.as_deref(),
        };
        let (report, _) = analyze(&repo, &range, &source)?;
        if report.findings.is_empty() {
            continue;
        }
        out.extend_from_slice(format!("integrity-gate: checking {label}\n").as_bytes());
        out.extend(report::render(Format::Human, &report, Style::default()));
        if report.blocking > 0 {
            exit = Exit::Blocking;
        }
    }
    if exit == Exit::Blocking {
        out.extend_from_slice(
            b"integrity-gate: push blocked. Fix the findings above, or bypass once with `git push --no-verify`.\n",
        );
    }
    Ok((out, exit))
}

/// One range to check: (label, base, head, revision to read the policy at).
type PushedRange = (String, Option<String>, String, Option<String>);

/// (label, base, head, policy revision) for each ref git is pushing; deletions are skipped. A
/// new branch is bounded by its fork point, but its policy is the remote default branch's as it
/// is now (`<remote>/HEAD`), when the clone knows it.
fn pushed_ranges(
    repo: &git::Git,
    repo_dir: &Path,
    remote: Option<&str>,
) -> Result<Vec<PushedRange>, Failure> {
    let stdin = super::input::read_stream_bounded(
        std::io::stdin(),
        "git's pre-push input",
        super::input::PRE_PUSH_MAX_BYTES,
    )?;
    let remote = remote.unwrap_or("origin");
    let mut ranges = Vec::new();
    for pushed in hook::parse_pre_push(&stdin)? {
        let Some(base) = hook::resolve_base(repo_dir, remote, &pushed)? else {
            continue;
        };
        let default_branch = format!("refs/remotes/{remote}/HEAD");
        let policy_rev = (pushed.base == hook::RangeBase::NewBranch
            && repo.resolve(&default_branch).is_ok())
        .then_some(default_branch);
        ranges.push((
            pushed.local_ref.clone(),
            Some(base),
            pushed.local_sha.clone(),
            policy_rev,
        ));
    }
    Ok(ranges)
}

//! The pre-push hook against real repositories: install rules, `core.hooksPath`, range
//! bounding for new branches, and a real `git push` blocked by the hook's exit status.

use integrity_gate::hook::{self, HOOK_MARKER, PushRange, RangeBase};

use super::common::{commits, git};

fn repo_with_remote() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let remote = tmp.path().join("remote.git");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    git(
        tmp.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ],
    );
    git(&work, &["init", "-q", "-b", "main"]);
    git(
        &work,
        &[
            "remote",
            "add",
            "origin",
            &format!("file://{}", remote.display()),
        ],
    );
    commits(&work, "a.txt", 3, "main");
    git(&work, &["push", "-q", "origin", "main"]);
    git(&work, &["remote", "set-head", "origin", "main"]);
    (tmp, work)
}

#[test]
fn install_writes_an_executable_marked_hook_and_respects_foreign_hooks() {
    let (_tmp, work) = repo_with_remote();
    let dir = hook::hooks_dir(&work).unwrap();
    assert_eq!(dir, work.join(".git/hooks"));
    let first = hook::install(&dir, false).unwrap();
    assert!(!first.replaced_own && first.backup.is_none());
    let text = std::fs::read_to_string(&first.path).unwrap();
    assert!(text.starts_with("#!/bin/sh\n"));
    assert!(text.contains(HOOK_MARKER));
    assert!(text.contains("exec integrity-gate pre-push \"$@\""));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&first.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    // Our own hook is replaced without --force.
    assert!(hook::install(&dir, false).unwrap().replaced_own);

    // A foreign hook is refused, then replaced with a backup under --force.
    std::fs::write(dir.join("pre-push"), "#!/bin/sh\necho mine\n").unwrap();
    let err = hook::install(&dir, false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("pre-push")).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    let forced = hook::install(&dir, true).unwrap();
    let backup = forced.backup.unwrap();
    assert_eq!(
        std::fs::read_to_string(backup).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    assert!(
        std::fs::read_to_string(dir.join("pre-push"))
            .unwrap()
            .contains(HOOK_MARKER)
    );
}

#[test]
fn core_hooks_path_is_honoured() {
    let (_tmp, work) = repo_with_remote();
    git(&work, &["config", "core.hooksPath", ".githooks"]);
    let dir = hook::hooks_dir(&work).unwrap();
    assert_eq!(dir, work.join(".githooks"));
    hook::install(&dir, false).unwrap();
    assert!(work.join(".githooks/pre-push").exists());
}

fn range(local_sha: &str, base: RangeBase) -> PushRange {
    PushRange {
        local_ref: "refs/heads/feature".into(),
        local_sha: local_sha.into(),
        remote_ref: "refs/heads/feature".into(),
        base,
    }
}

#[test]
fn new_branch_is_bounded_by_commits_not_on_any_remote() {
    let (_tmp, work) = repo_with_remote();
    let main = git(&work, &["rev-parse", "main"]);
    git(&work, &["checkout", "-q", "-b", "feature"]);
    commits(&work, "b.txt", 3, "feature");
    let tip = git(&work, &["rev-parse", "HEAD"]);
    let base = hook::resolve_base(&work, "origin", &range(&tip, RangeBase::NewBranch)).unwrap();
    assert_eq!(base.as_deref(), Some(main.as_str()));

    // A known remote sha is used as is.
    let known = hook::resolve_base(
        &work,
        "origin",
        &range(&tip, RangeBase::Remote(main.clone())),
    )
    .unwrap();
    assert_eq!(known.as_deref(), Some(main.as_str()));

    // A remote sha we never fetched (someone else pushed, or a force push) is bounded like a new branch.
    let unknown = hook::resolve_base(
        &work,
        "origin",
        &range(&tip, RangeBase::Remote("9".repeat(40))),
    )
    .unwrap();
    assert_eq!(unknown.as_deref(), Some(main.as_str()));

    // Pushing a commit the remote already has: nothing new to check.
    let none = hook::resolve_base(&work, "origin", &range(&main, RangeBase::NewBranch)).unwrap();
    assert_eq!(none, None);
}

#[test]
fn orphan_history_falls_back_to_the_empty_tree() {
    let (_tmp, work) = repo_with_remote();
    git(&work, &["checkout", "-q", "--orphan", "island"]);
    commits(&work, "i.txt", 2, "island");
    let tip = git(&work, &["rev-parse", "HEAD"]);
    let base = hook::resolve_base(&work, "origin", &range(&tip, RangeBase::NewBranch)).unwrap();
    assert_eq!(base.as_deref(), Some(hook::EMPTY_TREE_SHA1));
}

#[cfg(unix)]
#[test]
fn installed_hook_blocks_a_real_push_and_passes_git_stdin() {
    let (tmp, work) = repo_with_remote();
    let record = tmp.path().join("record.txt");
    let fake = tmp.path().join("fake-gate");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\n{{ echo \"args: $*\"; cat; }} > '{}'\nexit 1\n",
            record.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();

    hook::install_program(
        &hook::hooks_dir(&work).unwrap(),
        false,
        fake.to_str().unwrap(),
    )
    .unwrap();
    git(&work, &["checkout", "-q", "-b", "feature"]);
    commits(&work, "b.txt", 1, "feature");
    let tip = git(&work, &["rev-parse", "HEAD"]);
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(&work)
        .args(["push", "-q", "origin", "feature"])
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the hook's exit status must block the push"
    );
    let seen = std::fs::read_to_string(&record).unwrap();
    assert!(seen.starts_with("args: pre-push origin file://"), "{seen}");
    let ranges =
        hook::parse_pre_push(seen.lines().skip(1).collect::<Vec<_>>().join("\n").as_str()).unwrap();
    assert_eq!(ranges.len(), 1);
    assert_eq!(ranges[0].local_sha, tip);
    assert_eq!(ranges[0].base, RangeBase::NewBranch);
    let remote_has = std::process::Command::new("git")
        .arg("-C")
        .arg(tmp.path().join("remote.git"))
        .args(["rev-parse", "--verify", "-q", "refs/heads/feature"])
        .output()
        .unwrap();
    assert!(
        !remote_has.status.success(),
        "blocked push must not reach the remote"
    );
}

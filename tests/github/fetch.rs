//! Shallow clones of a local repository through a `file://` remote: deepening that succeeds,
//! deepening that hits the cap, a full clone that must stay full, and broken remotes.

use std::path::{Path, PathBuf};

use integrity_gate::github::fetch::{FetchError, ensure_commits, fetch_branch_tip};

use super::common::{commits, git};

struct Repos {
    _tmp: tempfile::TempDir,
    origin: PathBuf,
    base: String,
    head: String,
    merge_base: String,
}

/// origin: `main` with `main_n` commits; `feature` forks `fork_back` commits before main's tip
/// and adds `feature_n` commits.
fn origin(main_n: usize, fork_back: usize, feature_n: usize) -> Repos {
    let tmp = tempfile::tempdir().unwrap();
    let origin = tmp.path().join("origin");
    std::fs::create_dir(&origin).unwrap();
    git(&origin, &["init", "-q", "-b", "main"]);
    commits(&origin, "main.txt", main_n, "main");
    git(
        &origin,
        &[
            "checkout",
            "-q",
            "-b",
            "feature",
            &format!("main~{fork_back}"),
        ],
    );
    commits(&origin, "feature.txt", feature_n, "feature");
    git(&origin, &["checkout", "-q", "main"]);
    let base = git(&origin, &["rev-parse", "main"]);
    let head = git(&origin, &["rev-parse", "feature"]);
    let merge_base = git(&origin, &["merge-base", "main", "feature"]);
    Repos {
        _tmp: tmp,
        origin,
        base,
        head,
        merge_base,
    }
}

fn clone(r: &Repos, name: &str, extra: &[&str]) -> PathBuf {
    let dest = r.origin.parent().unwrap().join(name);
    let url = format!("file://{}", r.origin.display());
    let mut args = vec!["clone", "-q"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[&url, dest.to_str().unwrap()]);
    git(r.origin.parent().unwrap(), &args);
    dest
}

fn is_shallow(dir: &Path) -> bool {
    git(dir, &["rev-parse", "--is-shallow-repository"]) == "true"
}

#[test]
fn shallow_clone_is_deepened_until_the_merge_base_exists() {
    let r = origin(30, 20, 25);
    let c = clone(&r, "shallow", &["--depth=1", "--branch", "feature"]);
    assert!(is_shallow(&c));
    let got = ensure_commits(&c, &r.base, &r.head, 6).unwrap();
    assert_eq!(got.merge_base, r.merge_base);
    assert!(got.fetched);
    assert!(got.deepen_steps >= 1, "{got:?}");
    assert_eq!(git(&c, &["merge-base", &r.base, &r.head]), r.merge_base);
}

#[test]
fn deepening_stops_at_the_cap_with_the_fetch_depth_hint() {
    let r = origin(30, 5, 60);
    let c = clone(&r, "capped", &["--depth=1", "--branch", "feature"]);
    let err = ensure_commits(&c, &r.base, &r.head, 1).unwrap_err();
    assert!(
        matches!(err, FetchError::ShallowLimit { steps: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("fetch-depth: 0"), "{err}");
    // The clone is still usable and still shallow: nothing was unshallowed behind our back.
    assert!(is_shallow(&c));
}

#[test]
fn full_clone_is_never_made_shallow() {
    let r = origin(10, 3, 4);
    // Full history of `feature` only: main's tip is missing.
    let c = clone(&r, "full", &["--single-branch", "--branch", "feature"]);
    assert!(!is_shallow(&c));
    let got = ensure_commits(&c, &r.base, &r.head, 4).unwrap();
    assert_eq!(got.merge_base, r.merge_base);
    assert!(got.fetched);
    assert_eq!(got.deepen_steps, 0);
    assert!(!is_shallow(&c), "a depth-limited fetch ran on a full clone");
    let count: usize = git(&c, &["rev-list", "--count", &r.head]).parse().unwrap();
    assert_eq!(count, 11, "history must stay complete");
}

#[test]
fn nothing_is_fetched_when_everything_is_present() {
    let r = origin(6, 2, 3);
    let c = clone(&r, "present", &[]);
    git(&c, &["fetch", "-q", "origin", "feature:feature"]);
    // Break the remote: a fetch attempt would now fail.
    git(
        &c,
        &["remote", "set-url", "origin", "file:///nonexistent/repo"],
    );
    let got = ensure_commits(&c, &r.base, &r.head, 4).unwrap();
    assert!(!got.fetched);
    assert_eq!(got.merge_base, r.merge_base);
}

#[test]
fn unreachable_remote_fails_with_the_hint() {
    let r = origin(6, 2, 3);
    let c = clone(&r, "broken", &["--depth=1", "--branch", "feature"]);
    git(
        &c,
        &["remote", "set-url", "origin", "file:///nonexistent/repo"],
    );
    let err = ensure_commits(&c, &r.base, &r.head, 4).unwrap_err();
    assert!(matches!(err, FetchError::FetchFailed { .. }), "{err}");
    assert!(err.to_string().contains("fetch-depth: 0"));
}

#[test]
fn unrelated_histories_are_reported_as_such() {
    let r = origin(4, 1, 2);
    git(&r.origin, &["checkout", "-q", "--orphan", "island"]);
    commits(&r.origin, "island.txt", 2, "island");
    let island = git(&r.origin, &["rev-parse", "island"]);
    let c = clone(&r, "unrelated", &["--depth=1", "--branch", "feature"]);
    let err = ensure_commits(&c, &island, &r.head, 8).unwrap_err();
    assert!(matches!(err, FetchError::Unrelated { .. }), "{err}");
}

#[test]
fn not_a_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let sha = "a".repeat(40);
    let err = ensure_commits(tmp.path(), &sha, &sha, 2).unwrap_err();
    assert!(matches!(err, FetchError::NotARepository(..)), "{err}");
}

#[test]
fn new_branch_push_gets_the_default_branch_tip_then_the_merge_base() {
    let r = origin(12, 4, 6);
    let c = clone(&r, "newbranch", &["--depth=1", "--branch", "feature"]);
    let tip = fetch_branch_tip(&c, "refs/heads/main").unwrap();
    assert_eq!(tip, r.base);
    assert!(is_shallow(&c));
    let got = ensure_commits(&c, &tip, &r.head, 4).unwrap();
    assert_eq!(got.merge_base, r.merge_base);
    assert!(matches!(
        fetch_branch_tip(&c, "--upload-pack=x"),
        Err(FetchError::BadRevision(_))
    ));
    assert!(matches!(
        fetch_branch_tip(&c, "no-such-branch"),
        Err(FetchError::FetchFailed { .. })
    ));
}

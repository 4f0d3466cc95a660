//! Event payload fixtures for every supported trigger.

use integrity_gate::github::event::{AgentSource, EventError, EventKind, read};

use super::common::fixture;

#[test]
fn pull_request_uses_head_sha_not_merge_commit() {
    let plan = read("pull_request", &fixture("pull_request.json")).unwrap();
    assert_eq!(plan.kind, EventKind::PullRequest);
    assert_eq!(plan.head_sha, "c0ffee0000000000000000000000000000000042");
    assert_eq!(plan.check_sha, plan.head_sha);
    assert_ne!(plan.check_sha, "3e3e000000000000000000000000000000000099");
    assert_eq!(
        plan.base_sha.as_deref(),
        Some("ba5e000000000000000000000000000000000001")
    );
    assert_eq!(
        (plan.owner.as_str(), plan.repo.as_str()),
        ("acme", "widgets")
    );
    assert_eq!(plan.pr_number, Some(42));
    assert!(!plan.fork);
    assert_eq!(plan.head_ref.as_deref(), Some("feature/login"));
    assert_eq!(plan.base_ref.as_deref(), Some("main"));
    assert_eq!(plan.author_login.as_deref(), Some("octocat"));
    assert!(plan.skip.is_none());
    assert!(plan.agent.is_none());
    assert!(plan.agent_source.is_none());
}

#[test]
fn fork_pr_targets_the_base_repository() {
    let plan = read("pull_request", &fixture("pull_request_fork.json")).unwrap();
    assert!(plan.fork);
    assert_eq!(
        (plan.owner.as_str(), plan.repo.as_str()),
        ("acme", "widgets")
    );
    assert_eq!(plan.check_sha, "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0");
}

#[test]
fn deleted_head_repository_counts_as_fork() {
    let plan = read(
        "pull_request",
        &fixture("pull_request_deleted_head_repo.json"),
    )
    .unwrap();
    assert!(plan.fork);
    assert_eq!(plan.head_sha, "dddddddddddddddddddddddddddddddddddddddd");
    assert!(plan.skip.is_none());
}

#[test]
fn pull_request_target_with_copilot_author() {
    let plan = read(
        "pull_request_target",
        &fixture("pull_request_target_copilot.json"),
    )
    .unwrap();
    assert_eq!(plan.kind, EventKind::PullRequestTarget);
    // The base of the PR, not the default branch GITHUB_SHA would point at.
    assert_eq!(
        plan.base_sha.as_deref(),
        Some("ba5e000000000000000000000000000000000002")
    );
    assert_eq!(plan.base_ref.as_deref(), Some("release/1.x"));
    let agent = plan.agent.unwrap_or_default();
    assert!(agent.contains("Copilot"), "{agent}");
    assert_eq!(plan.agent_source, Some(AgentSource::Author));
    assert_eq!(plan.default_branch.as_deref(), Some("main"));
    assert_eq!(plan.author_type.as_deref(), Some("Bot"));
}

#[test]
fn branch_prefix_marks_an_agent_even_under_a_human_account() {
    let plan = read("pull_request", &fixture("pull_request_branch_prefix.json")).unwrap();
    assert!(
        plan.agent.as_deref().is_some_and(|a| a.contains("codex/")),
        "{:?}",
        plan.agent
    );
    // Minimal payload without `repository`: owner/repo come from base.repo.
    assert_eq!(plan.owner, "acme");
}

#[test]
fn closed_pr_is_skipped() {
    let plan = read("pull_request", &fixture("pull_request_closed.json")).unwrap();
    assert!(plan.skip.is_some());
}

#[test]
fn push_existing_branch() {
    let plan = read("push", &fixture("push.json")).unwrap();
    assert_eq!(
        plan.base_sha.as_deref(),
        Some("ba5e000000000000000000000000000000000001")
    );
    assert_eq!(plan.check_sha, "a17e000000000000000000000000000000000002");
    assert_eq!(plan.head_ref.as_deref(), Some("main"));
    assert!(plan.skip.is_none());
    assert!(plan.pr_number.is_none());
}

#[test]
fn push_new_branch_has_no_base_and_detects_the_bot() {
    let plan = read("push", &fixture("push_new_branch.json")).unwrap();
    assert_eq!(plan.base_sha, None);
    assert_eq!(plan.default_branch.as_deref(), Some("main"));
    assert!(plan.skip.is_none());
    assert!(
        plan.agent.as_deref().is_some_and(|a| a.contains("Devin")),
        "{:?}",
        plan.agent
    );
}

#[test]
fn push_deleting_a_branch_is_skipped() {
    let plan = read("push", &fixture("push_deleted_branch.json")).unwrap();
    assert!(
        plan.skip.as_deref().is_some_and(|s| s.contains("deleted")),
        "{:?}",
        plan.skip
    );
}

#[test]
fn tag_push_is_skipped() {
    let plan = read("push", &fixture("push_tag.json")).unwrap();
    assert!(plan.skip.is_some());
}

#[test]
fn merge_group_uses_group_shas() {
    let plan = read("merge_group", &fixture("merge_group.json")).unwrap();
    assert_eq!(plan.kind, EventKind::MergeGroup);
    assert_eq!(plan.check_sha, "3e3e000000000000000000000000000000000010");
    assert_eq!(
        plan.base_sha.as_deref(),
        Some("ba5e000000000000000000000000000000000001")
    );
    assert_eq!(plan.base_ref.as_deref(), Some("main"));
    assert!(plan.skip.is_none());
    // The merge queue bot is not a coding agent.
    assert!(plan.agent.is_none());
}

#[test]
fn merge_group_destroyed_is_skipped() {
    let plan = read("merge_group", &fixture("merge_group_destroyed.json")).unwrap();
    assert!(plan.skip.is_some());
}

#[test]
fn payload_for_the_wrong_event_is_an_error() {
    assert!(matches!(
        read("pull_request", &fixture("push.json")),
        Err(EventError::Missing {
            field: "pull_request",
            ..
        })
    ));
    assert!(read("merge_group", &fixture("pull_request.json")).is_err());
    assert!(matches!(
        read("workflow_dispatch", "{}"),
        Err(EventError::Unsupported(_))
    ));
}

#[test]
fn truncated_and_mutated_payloads_never_panic() {
    for name in [
        "pull_request.json",
        "push.json",
        "merge_group.json",
        "pull_request_fork.json",
    ] {
        let text = fixture(name);
        for cut in (0..text.len()).step_by(7) {
            if text.is_char_boundary(cut) {
                for ev in ["pull_request", "pull_request_target", "push", "merge_group"] {
                    let _ = read(ev, &text[..cut]);
                }
            }
        }
        let mutated = text
            .replace("\"sha\"", "\"sha\": null, \"x\"")
            .replace("0000", "zzzz");
        let _ = read("pull_request", &mutated);
    }
}

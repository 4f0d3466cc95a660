//! Reading the GitHub Actions event payload into an [`EventPlan`].
//!
//! This is the first step of `integrity-gate github`: it turns `GITHUB_EVENT_NAME` and the JSON
//! at `GITHUB_EVENT_PATH` into the two commits to compare and the commit to attach the check run
//! to. It never uses `GITHUB_SHA`: for pull requests that is a synthetic merge commit the PR page
//! does not show, and for `pull_request_target` it is the default branch. The merge-base is not
//! taken from the payload either (`base.sha` is only the base tip); the caller computes it from
//! git objects. Payloads are read leniently (every field optional) and every SHA is validated
//! as hex before it can reach a `git` command line.

use serde::Deserialize;

/// Which trigger produced the payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// `pull_request` (read-only token on fork PRs).
    PullRequest,
    /// `pull_request_target` (base repository's token; objects-only mode, advanced).
    PullRequestTarget,
    /// `push` to a branch.
    Push,
    /// `merge_group` (`checks_requested`) from a merge queue.
    MergeGroup,
    /// `workflow_run`: the second stage of the fork-PR setup, which publishes the first
    /// stage's report (see [`super::relay`]).
    WorkflowRun,
}

impl EventKind {
    /// The event name as GitHub spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::PullRequest => "pull_request",
            EventKind::PullRequestTarget => "pull_request_target",
            EventKind::Push => "push",
            EventKind::MergeGroup => "merge_group",
            EventKind::WorkflowRun => "workflow_run",
        }
    }
}

/// Everything the `github` command needs from the event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventPlan {
    /// The trigger.
    pub kind: EventKind,
    /// Base tip from the payload; `None` for a push that created the branch (the caller picks
    /// a base, e.g. the default branch). Not the merge-base.
    pub base_sha: Option<String>,
    /// The commit under review.
    pub head_sha: String,
    /// The commit the check run is attached to (the PR head, never the merge commit).
    pub check_sha: String,
    /// Owner of the repository that receives the check run (the base repository for PRs).
    pub owner: String,
    /// Name of that repository.
    pub repo: String,
    /// Pull request number, for PR events.
    pub pr_number: Option<u64>,
    /// The head lives in another repository, or the head repository was deleted. The workflow
    /// token is then read-only on `pull_request`, so the check run is expected to fail with 403.
    pub fork: bool,
    /// PR author (`pull_request.user.login`), or the sender for push/merge_group.
    pub author_login: Option<String>,
    /// `user.type` of that account (`User`, `Bot`, `Organization`).
    pub author_type: Option<String>,
    /// Head branch name without `refs/heads/`.
    pub head_ref: Option<String>,
    /// Base branch name without `refs/heads/` (PR and merge-group events).
    pub base_ref: Option<String>,
    /// Set when there is nothing to analyse (deleted branch, closed PR, tag push...): the reason.
    pub skip: Option<String>,
    /// Why the change is believed to be agent-authored, if it is.
    pub agent: Option<String>,
    /// Which kind of signal produced `agent`. Only [`AgentSource::Author`] is asserted by
    /// GitHub; a policy that makes branch prefixes optional can ignore the others. Either way a
    /// signal may only make the policy stricter.
    pub agent_source: Option<AgentSource>,
    /// `repository.default_branch`, when the payload has it (the base for a new-branch push).
    pub default_branch: Option<String>,
}

/// Where an agent signal came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSource {
    /// PR author / sender login and type (GitHub-asserted).
    Author,
    /// Head branch prefix (set by whoever pushes).
    BranchPrefix,
}

/// Why an event could not be turned into a plan. All of these mean exit code 2.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EventError {
    /// The trigger is not one the gate understands.
    #[error(
        "unsupported event `{0}`: run integrity-gate on pull_request, pull_request_target, push, merge_group, or workflow_run (to publish a fork PR's report)"
    )]
    Unsupported(String),
    /// The payload is not valid JSON or has the wrong shape.
    #[error("cannot parse the event payload: {0}")]
    Json(String),
    /// A field the event must carry is absent.
    #[error("the {event} payload has no `{field}`")]
    Missing {
        /// Event name.
        event: &'static str,
        /// Dotted path of the missing field.
        field: &'static str,
    },
    /// A SHA is not 40 or 64 hex digits.
    #[error("`{field}` is not a commit id: {value:?}")]
    BadSha {
        /// Dotted path of the field.
        field: &'static str,
        /// The offending value (clipped).
        value: String,
    },
}

#[derive(Deserialize, Default)]
struct Payload {
    action: Option<String>,
    number: Option<u64>,
    pull_request: Option<PullRequest>,
    repository: Option<Repo>,
    sender: Option<User>,
    #[serde(rename = "ref")]
    git_ref: Option<String>,
    before: Option<String>,
    after: Option<String>,
    deleted: Option<bool>,
    merge_group: Option<MergeGroup>,
}

#[derive(Deserialize, Default)]
struct PullRequest {
    number: Option<u64>,
    state: Option<String>,
    user: Option<User>,
    head: Option<Branch>,
    base: Option<Branch>,
}

#[derive(Deserialize, Default)]
struct Branch {
    sha: Option<String>,
    #[serde(rename = "ref")]
    git_ref: Option<String>,
    repo: Option<Repo>,
}

#[derive(Deserialize, Default)]
struct Repo {
    full_name: Option<String>,
    default_branch: Option<String>,
    name: Option<String>,
    owner: Option<User>,
}

#[derive(Deserialize, Default)]
struct User {
    login: Option<String>,
    name: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize, Default)]
struct MergeGroup {
    head_sha: Option<String>,
    base_sha: Option<String>,
    head_ref: Option<String>,
    base_ref: Option<String>,
}

/// Parses `payload_json` for the event `event_name` (the value of `GITHUB_EVENT_NAME`).
pub fn read(event_name: &str, payload_json: &str) -> Result<EventPlan, EventError> {
    let kind = match event_name.trim() {
        "pull_request" => EventKind::PullRequest,
        "pull_request_target" => EventKind::PullRequestTarget,
        "push" => EventKind::Push,
        "merge_group" => EventKind::MergeGroup,
        "workflow_run" => return super::relay::read_workflow_run(payload_json),
        other => return Err(EventError::Unsupported(clip(other))),
    };
    let payload: Payload =
        serde_json::from_str(payload_json).map_err(|e| EventError::Json(e.to_string()))?;
    match kind {
        EventKind::PullRequest | EventKind::PullRequestTarget => pull_request(kind, payload),
        EventKind::Push => push(payload),
        EventKind::MergeGroup => merge_group(payload),
        EventKind::WorkflowRun => super::relay::read_workflow_run(payload_json),
    }
}

fn pull_request(kind: EventKind, p: Payload) -> Result<EventPlan, EventError> {
    let ev = kind.as_str();
    let pr = p.pull_request.ok_or(EventError::Missing {
        event: ev,
        field: "pull_request",
    })?;
    let head = pr.head.unwrap_or_default();
    let base = pr.base.unwrap_or_default();
    let head_sha = sha(ev, "pull_request.head.sha", head.sha)?;
    let base_sha = sha(ev, "pull_request.base.sha", base.sha)?;
    let default_branch = p
        .repository
        .as_ref()
        .or(base.repo.as_ref())
        .and_then(|r| r.default_branch.clone());
    let base_repo = base.repo.or(p.repository);
    let (owner, repo) = owner_repo(ev, base_repo.as_ref())?;
    let base_full = format!("{owner}/{repo}");
    // A deleted fork leaves `head.repo: null`; treat it as a fork, the token is read-only.
    let fork = match head.repo.as_ref().and_then(|r| r.full_name.as_deref()) {
        Some(full) => !full.eq_ignore_ascii_case(&base_full),
        None => true,
    };
    let user = pr.user.unwrap_or_default();
    let head_ref = head.git_ref.map(|r| strip_heads(&r));
    let skip = match (p.action.as_deref(), pr.state.as_deref()) {
        (Some("closed"), _) => Some("the pull request was closed".to_string()),
        _ => None,
    };
    let (agent, agent_source) = detect_agent(
        user.login.as_deref(),
        user.kind.as_deref(),
        head_ref.as_deref(),
    );
    Ok(EventPlan {
        kind,
        base_sha: Some(base_sha),
        check_sha: head_sha.clone(),
        head_sha,
        owner,
        repo,
        pr_number: pr.number.or(p.number),
        fork,
        author_login: user.login,
        author_type: user.kind,
        head_ref,
        base_ref: base.git_ref.map(|r| strip_heads(&r)),
        skip,
        agent,
        agent_source,
        default_branch,
    })
}

fn push(p: Payload) -> Result<EventPlan, EventError> {
    let ev = "push";
    let (owner, repo) = owner_repo(ev, p.repository.as_ref())?;
    let default_branch = p.repository.as_ref().and_then(|r| r.default_branch.clone());
    let git_ref = p.git_ref.unwrap_or_default();
    let after = p.after.ok_or(EventError::Missing {
        event: ev,
        field: "after",
    })?;
    let before = p.before.ok_or(EventError::Missing {
        event: ev,
        field: "before",
    })?;
    let sender = p.sender.unwrap_or_default();
    let head_ref = strip_heads(&git_ref);
    let mut skip = None;
    if p.deleted == Some(true) || is_zero(&after) {
        skip = Some(format!("the push deleted `{}`", clip(&git_ref)));
    } else if git_ref.starts_with("refs/tags/") {
        skip = Some(format!(
            "`{}` is a tag push, not a branch change",
            clip(&git_ref)
        ));
    }
    // A deleted branch has no head to validate; keep the plan well-formed with zeros.
    let head_sha = if skip.is_some() && is_zero(&after) {
        after.to_ascii_lowercase()
    } else {
        sha(ev, "after", Some(after))?
    };
    let base_sha = if is_zero(&before) {
        None
    } else {
        Some(sha(ev, "before", Some(before))?)
    };
    let (agent, agent_source) = detect_agent(
        sender.login.as_deref(),
        sender.kind.as_deref(),
        Some(&head_ref),
    );
    Ok(EventPlan {
        kind: EventKind::Push,
        base_sha,
        check_sha: head_sha.clone(),
        head_sha,
        owner,
        repo,
        pr_number: None,
        fork: false,
        author_login: sender.login.or(sender.name),
        author_type: sender.kind,
        head_ref: Some(head_ref),
        base_ref: None,
        skip,
        agent,
        agent_source,
        default_branch,
    })
}

fn merge_group(p: Payload) -> Result<EventPlan, EventError> {
    let ev = "merge_group";
    let (owner, repo) = owner_repo(ev, p.repository.as_ref())?;
    let default_branch = p.repository.as_ref().and_then(|r| r.default_branch.clone());
    let mg = p.merge_group.ok_or(EventError::Missing {
        event: ev,
        field: "merge_group",
    })?;
    let skip = match p.action.as_deref() {
        Some("checks_requested") | None => None,
        Some(other) => Some(format!(
            "merge_group action `{}` needs no check",
            clip(other)
        )),
    };
    let head_sha = sha(ev, "merge_group.head_sha", mg.head_sha)?;
    let base_sha = sha(ev, "merge_group.base_sha", mg.base_sha)?;
    let sender = p.sender.unwrap_or_default();
    let (agent, agent_source) = detect_agent(sender.login.as_deref(), sender.kind.as_deref(), None);
    Ok(EventPlan {
        kind: EventKind::MergeGroup,
        base_sha: Some(base_sha),
        check_sha: head_sha.clone(),
        head_sha,
        owner,
        repo,
        pr_number: None,
        fork: false,
        author_login: sender.login,
        author_type: sender.kind,
        head_ref: mg.head_ref.map(|r| strip_heads(&r)),
        base_ref: mg.base_ref.map(|r| strip_heads(&r)),
        skip,
        agent,
        agent_source,
        default_branch,
    })
}

fn detect_agent(
    login: Option<&str>,
    kind: Option<&str>,
    head_ref: Option<&str>,
) -> (Option<String>, Option<AgentSource>) {
    // The GitHub-asserted signal wins the explanation; the branch prefix is a fallback.
    if let Some(why) = login.and_then(|l| super::agent::from_author(l, kind)) {
        return (Some(why), Some(AgentSource::Author));
    }
    match head_ref.and_then(super::agent::from_branch) {
        Some(why) => (Some(why), Some(AgentSource::BranchPrefix)),
        None => (None, None),
    }
}

fn owner_repo(event: &'static str, repo: Option<&Repo>) -> Result<(String, String), EventError> {
    let repo = repo.ok_or(EventError::Missing {
        event,
        field: "repository",
    })?;
    if let Some((owner, name)) = repo.full_name.as_deref().and_then(|f| f.split_once('/'))
        && valid_name(owner)
        && valid_name(name)
    {
        return Ok((owner.to_string(), name.to_string()));
    }
    let owner = repo
        .owner
        .as_ref()
        .and_then(|o| o.login.clone().or_else(|| o.name.clone()))
        .filter(|o| valid_name(o))
        .ok_or(EventError::Missing {
            event,
            field: "repository.full_name",
        })?;
    let name = repo
        .name
        .clone()
        .filter(|n| valid_name(n))
        .ok_or(EventError::Missing {
            event,
            field: "repository.name",
        })?;
    Ok((owner, name))
}

/// Owner and repository names end up in API paths: allow only what GitHub allows.
fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s != "."
        && s != ".."
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn sha(event: &'static str, field: &'static str, v: Option<String>) -> Result<String, EventError> {
    let v = v.ok_or(EventError::Missing { event, field })?;
    if is_object_id(&v) && !is_zero(&v) {
        Ok(v.to_ascii_lowercase())
    } else {
        Err(EventError::BadSha {
            field,
            value: clip(&v),
        })
    }
}

/// True for a full SHA-1 or SHA-256 object id in hex.
pub fn is_object_id(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// True for git's null object id of any length (new branch / deletion marker).
pub fn is_zero(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b == b'0')
}

fn strip_heads(r: &str) -> String {
    r.strip_prefix("refs/heads/").unwrap_or(r).to_string()
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
    fn zero_and_object_ids() {
        assert!(is_zero("0000000000000000000000000000000000000000"));
        assert!(is_zero(&"0".repeat(64)));
        assert!(!is_zero(""));
        assert!(is_object_id(&"a".repeat(40)));
        assert!(is_object_id(&"A".repeat(64)));
        assert!(!is_object_id(&"g".repeat(40)));
        assert!(!is_object_id("--upload-pack=touch$IFS/tmp/x"));
    }

    #[test]
    fn unknown_event_is_an_error() {
        // workflow_run is the relay stage; an empty payload lacks what it needs.
        assert!(matches!(
            read("workflow_run", "{}"),
            Err(EventError::Missing { .. })
        ));
        assert!(matches!(
            read("issue_comment", "{}"),
            Err(EventError::Unsupported(_))
        ));
    }

    #[test]
    fn garbage_payload_is_an_error_not_a_panic() {
        for junk in ["", "null", "[]", "{\"pull_request\": 5}", "\u{0}", "{{{{"] {
            assert!(read("pull_request", junk).is_err(), "{junk:?}");
            assert!(read("push", junk).is_err(), "{junk:?}");
            assert!(read("merge_group", junk).is_err(), "{junk:?}");
        }
    }

    #[test]
    fn sha_with_option_injection_is_rejected() {
        let p = r#"{"pull_request":{"head":{"sha":"--upload-pack=evil"},"base":{"sha":"1111111111111111111111111111111111111111","repo":{"full_name":"o/r"}}}}"#;
        assert!(matches!(
            read("pull_request", p),
            Err(EventError::BadSha { .. })
        ));
    }

    #[test]
    fn repository_name_with_path_tricks_is_rejected() {
        let p = r#"{"pull_request":{"head":{"sha":"2222222222222222222222222222222222222222"},"base":{"sha":"1111111111111111111111111111111111111111","repo":{"full_name":"o/../../x"}}}}"#;
        assert!(read("pull_request", p).is_err());
    }
}

//! Where claims come from: commit messages, a pull request's title and body, a file
//! (`--claims FILE`), an agent's last message in its transcript.

use super::Claim;
use serde::Deserialize;

/// Commits of a range whose messages are read, newest first.
pub const MAX_COMMITS: usize = 250;

/// The messages of the commits in `base..head` (newest first, at most [`MAX_COMMITS`]).
pub fn commits(repo: &crate::git::Git, base: &str, head: &str) -> Vec<Claim> {
    // A base that is not a commit (git's empty tree) leaves every commit of head.
    let messages = repo
        .commit_messages(Some(base), head, MAX_COMMITS)
        .or_else(|_| repo.commit_messages(None, head, MAX_COMMITS))
        .unwrap_or_default();
    messages
        .into_iter()
        .map(|(id, message)| {
            Claim::new(
                format!("{}{}", super::COMMIT, &id[..id.len().min(12)]),
                &message,
            )
        })
        .collect()
}

#[derive(Deserialize, Default)]
struct Event {
    pull_request: Option<PullRequest>,
}

#[derive(Deserialize, Default)]
struct PullRequest {
    title: Option<String>,
    body: Option<String>,
}

/// The title and body of the pull request in a GitHub event payload (none for other events
/// or a payload that does not parse: the event reader has already judged it).
pub fn pull_request(payload_json: &str) -> Vec<Claim> {
    let Ok(event) = serde_json::from_str::<Event>(payload_json) else {
        return Vec::new();
    };
    let Some(pull) = event.pull_request else {
        return Vec::new();
    };
    [
        ("the pull request title", pull.title),
        ("the pull request body", pull.body),
    ]
    .into_iter()
    .filter_map(|(source, text)| Some(Claim::new(source, &text?)))
    .collect()
}

/// Most of a transcript read from its end, in bytes: an agent's last turn is at the end.
pub const TRANSCRIPT_TAIL_BYTES: u64 = 8 * 1024 * 1024;

/// The text of the agent's last turn in a Claude Code transcript (JSON lines): every
/// assistant text block after the last prompt a person typed. `None` when there is none.
pub fn last_assistant_message(jsonl: &str) -> Option<String> {
    let mut texts: Vec<String> = Vec::new();
    for line in jsonl.lines().rev() {
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let role = entry
            .get("type")
            .and_then(|kind| kind.as_str())
            .or_else(|| {
                entry
                    .pointer("/message/role")
                    .and_then(|role| role.as_str())
            });
        let content = entry.pointer("/message/content");
        match role {
            Some("assistant") => {
                let mut blocks = text_blocks(content);
                blocks.reverse();
                texts.extend(blocks);
            }
            Some("user") if !is_tool_result(content) => break,
            _ => {}
        }
    }
    texts.reverse();
    let joined = texts.join("\n");
    (!joined.trim().is_empty()).then_some(joined)
}

fn text_blocks(content: Option<&serde_json::Value>) -> Vec<String> {
    match content {
        Some(serde_json::Value::String(text)) => vec![text.clone()],
        Some(serde_json::Value::Array(blocks)) => blocks
            .iter()
            .filter(|block| block.get("type").and_then(|t| t.as_str()) == Some("text"))
            .filter_map(|block| block.get("text").and_then(|t| t.as_str()))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// A "user" entry that only carries tool results is the agent's own loop, not a prompt.
fn is_tool_result(content: Option<&serde_json::Value>) -> bool {
    match content {
        Some(serde_json::Value::Array(blocks)) => {
            !blocks.is_empty()
                && blocks
                    .iter()
                    .all(|block| block.get("type").and_then(|t| t.as_str()) == Some("tool_result"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_request_title_and_body_are_claims() {
        let claims =
            pull_request(r#"{"pull_request":{"title":"Fix login","body":"All tests pass."}}"#);
        assert_eq!(claims.len(), 2);
        assert_eq!(claims[0].source, "the pull request title");
        assert_eq!(claims[1].text, "All tests pass.");
        assert!(pull_request(r#"{"ref":"refs/heads/main"}"#).is_empty());
        assert!(pull_request("not json").is_empty());
    }

    #[test]
    fn the_last_turn_is_read_back_to_the_last_prompt() {
        let jsonl = [
            r#"{"type":"user","message":{"role":"user","content":"fix the test"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking."}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":"now make it pass"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Running the tests."},{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"All tests pass now."}]}}"#,
            "not json",
        ]
        .join("\n");
        assert_eq!(
            last_assistant_message(&jsonl).as_deref(),
            Some("Running the tests.\nAll tests pass now.")
        );
        assert_eq!(last_assistant_message(""), None);
    }
}

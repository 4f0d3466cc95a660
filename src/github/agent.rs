//! Recognising pull requests written by coding agents.
//!
//! The only signals GitHub itself asserts are the PR author's login and account type; branch
//! names, commit trailers and author emails are chosen by whoever pushes. Every signal here may
//! therefore only ever make the policy *stricter*: a caller must never relax anything because a
//! signal is absent, and the absence of a marker does not mean a human wrote the change. Each
//! detector returns a human-readable reason so the summary can say why the stricter policy ran.

use std::path::Path;

/// Bot logins of coding agents (compared case-insensitively). `[bot]` logins are reserved for
/// GitHub Apps, so a person cannot register one of these names.
const AGENT_BOT_LOGINS: &[(&str, &str)] = &[
    ("copilot-swe-agent[bot]", "GitHub Copilot coding agent"),
    ("copilot[bot]", "GitHub Copilot"),
    ("devin-ai-integration[bot]", "Devin"),
    ("google-labs-jules[bot]", "Google Jules"),
    ("chatgpt-codex-connector[bot]", "OpenAI Codex"),
    ("openai-codex[bot]", "OpenAI Codex"),
    ("claude[bot]", "Claude Code"),
    ("cursor[bot]", "Cursor"),
    ("amazon-q-developer[bot]", "Amazon Q Developer"),
    ("gemini-code-assist[bot]", "Gemini Code Assist"),
    ("codegen-sh[bot]", "Codegen"),
    ("cline[bot]", "Cline"),
    ("openhands-agent[bot]", "OpenHands"),
];

/// Branch prefixes agents use by default. Spoofable: tighten only.
const AGENT_BRANCH_PREFIXES: &[(&str, &str)] = &[
    ("copilot/", "GitHub Copilot"),
    ("codex/", "OpenAI Codex"),
    ("claude/", "Claude Code"),
    ("cursor/", "Cursor"),
    ("devin/", "Devin"),
    ("jules/", "Google Jules"),
    ("cline/", "Cline"),
    ("aider/", "Aider"),
    ("gemini/", "Gemini"),
    ("openhands/", "OpenHands"),
];

/// Email fragments of agent commit identities and co-authors (lower case).
const AGENT_EMAIL_MARKERS: &[(&str, &str)] = &[
    ("noreply@anthropic.com", "Claude"),
    ("+copilot@users.noreply.github.com", "GitHub Copilot"),
    ("copilot-swe-agent", "GitHub Copilot coding agent"),
    ("cursoragent@cursor.com", "Cursor"),
    ("noreply@aider.chat", "Aider"),
    ("openhands@all-hands.dev", "OpenHands"),
    ("devin-ai-integration", "Devin"),
    ("google-labs-jules", "Google Jules"),
    ("chatgpt-codex-connector", "OpenAI Codex"),
    ("openai-codex", "OpenAI Codex"),
];

/// Recognises an agent from the PR author as GitHub reports it (`user.login`, `user.type`).
///
/// `Copilot` is special: the coding agent opens PRs under the login `Copilot` with type `Bot`,
/// which is not a registrable user name, so the pair is GitHub-asserted.
pub fn from_author(login: &str, user_type: Option<&str>) -> Option<String> {
    let lower = login.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return None;
    }
    let is_bot = user_type.is_some_and(|t| t.eq_ignore_ascii_case("bot"));
    if lower == "copilot" && is_bot {
        return Some(format!(
            "PR author `{login}` (type Bot) is the GitHub Copilot coding agent"
        ));
    }
    AGENT_BOT_LOGINS
        .iter()
        .find(|(bot, _)| *bot == lower)
        .map(|(_, name)| format!("PR author `{login}` is the {name} app"))
}

/// Recognises an agent from the head branch name (spoofable; may only tighten the policy).
pub fn from_branch(head_ref: &str) -> Option<String> {
    let name = head_ref.trim();
    let name = name.strip_prefix("refs/heads/").unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    AGENT_BRANCH_PREFIXES
        .iter()
        .find(|(prefix, _)| lower.starts_with(prefix))
        .map(|(prefix, agent)| format!("branch `{name}` uses the {agent} prefix `{prefix}`"))
}

/// Recognises an agent from commit text: trailers (`Co-authored-by:`, `Made-with:`,
/// `Assisted-by:`, `Generated-by:`), "Generated with Claude Code" lines, `aider:` subjects, and
/// author/committer identities when the caller includes them (one `Name <email>` per line).
///
/// Matching is line-based and case-insensitive, so `CO-AUTHORED-BY:` or extra spaces before the
/// colon do not hide a trailer.
pub fn from_commit_text(text: &str) -> Option<String> {
    for raw in text.lines() {
        let line = raw.trim();
        let lower = line.to_ascii_lowercase();
        if let Some((key, value)) = lower.split_once(':') {
            let key = key.trim();
            let value = value.trim();
            match key {
                "co-authored-by" => {
                    if let Some(agent) = email_marker(value) {
                        return Some(format!("commit trailer `{}` names {agent}", clip(line)));
                    }
                    if value.starts_with("claude")
                        || value.starts_with("copilot")
                        || value.starts_with("cursor agent")
                    {
                        return Some(format!("commit trailer `{}` names an agent", clip(line)));
                    }
                }
                "made-with" | "assisted-by" | "generated-by" if !value.is_empty() => {
                    return Some(format!(
                        "commit trailer `{}` declares tool assistance",
                        clip(line)
                    ));
                }
                "aider" => {
                    return Some(format!("commit subject `{}` is Aider's format", clip(line)));
                }
                _ => {}
            }
        }
        if lower.contains("generated with claude code")
            || lower.contains("generated with [claude code]")
        {
            return Some("commit message says it was generated with Claude Code".to_string());
        }
        if lower.contains('<')
            && lower.contains('@')
            && let Some(agent) = email_marker(&lower)
        {
            return Some(format!(
                "commit identity `{}` belongs to {agent}",
                clip(line)
            ));
        }
    }
    None
}

/// Reads the messages and identities of the (at most 250 newest) commits in `base..head` and
/// runs [`from_commit_text`] over them. Both revisions must already be present locally.
pub fn from_commits(repo_dir: &Path, base: &str, head: &str) -> std::io::Result<Option<String>> {
    if !is_safe_rev(base) || !is_safe_rev(head) {
        return Ok(None);
    }
    let text = crate::git::Git::discover(repo_dir)
        .and_then(|repo| repo.commit_texts(base, head, 250))
        .map_err(|error| std::io::Error::other(error.to_string()))?;
    Ok(from_commit_text(&text))
}

fn is_safe_rev(rev: &str) -> bool {
    !rev.is_empty()
        && !rev.starts_with('-')
        && !rev.contains("..")
        && !rev.contains(char::is_whitespace)
}

fn email_marker(lower: &str) -> Option<&'static str> {
    AGENT_EMAIL_MARKERS
        .iter()
        .find(|(marker, _)| lower.contains(marker))
        .map(|(_, agent)| *agent)
}

/// Keeps quoted commit text short in the summary; cut on a char boundary.
fn clip(s: &str) -> String {
    crate::secrets::shorten_redacted(s, 120, "…").replace('`', "'")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn copilot_needs_bot_type() {
        assert!(from_author("Copilot", Some("Bot")).is_some());
        assert!(from_author("copilot", Some("bot")).is_some());
        // A user-typed account called Copilot cannot exist, but if the payload says User we do
        // not invent an agent from the name alone.
        assert!(from_author("Copilot", Some("User")).is_none());
        assert!(from_author("Copilot", None).is_none());
    }

    #[test]
    fn app_bots_are_recognised_case_insensitively() {
        for login in [
            "devin-ai-integration[bot]",
            "Google-Labs-Jules[bot]",
            "chatgpt-codex-connector[bot]",
            "copilot-swe-agent[bot]",
            "claude[bot]",
        ] {
            assert!(from_author(login, Some("Bot")).is_some(), "{login}");
        }
    }

    #[test]
    fn ordinary_bots_and_people_are_not_agents() {
        assert!(from_author("dependabot[bot]", Some("Bot")).is_none());
        assert!(from_author("renovate[bot]", Some("Bot")).is_none());
        assert!(from_author("octocat", Some("User")).is_none());
        assert!(from_author("devin", Some("User")).is_none());
        assert!(from_author("", None).is_none());
    }

    #[test]
    fn branch_prefixes() {
        assert!(from_branch("copilot/fix-login").is_some());
        assert!(from_branch("refs/heads/Codex/feature").is_some());
        assert!(from_branch("claude/issue-12").is_some());
        assert!(from_branch("feature/copilot").is_none());
        assert!(from_branch("codexfix").is_none());
        assert!(from_branch("main").is_none());
    }

    #[test]
    fn trailers_and_identities() {
        let msg = "Fix tests\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n";
        assert!(from_commit_text(msg).is_some());
        let shouty = "x\n\nCO-AUTHORED-BY :  Copilot <198982749+Copilot@users.noreply.github.com>";
        assert!(from_commit_text(shouty).is_some());
        assert!(from_commit_text("x\n\nMade-with: Cursor").is_some());
        assert!(from_commit_text("aider: fix the parser").is_some());
        assert!(from_commit_text("🤖 Generated with [Claude Code](https://claude.ai)").is_some());
        assert!(from_commit_text("Cursor Agent <cursoragent@cursor.com>").is_some());
    }

    #[test]
    fn human_commits_stay_silent() {
        let msg =
            "Fix login\n\nCo-authored-by: Jane Doe <jane@example.com>\nSigned-off-by: A <a@b.c>";
        assert!(from_commit_text(msg).is_none());
        assert!(from_commit_text("Jane <jane@example.com>\nRefs: #12").is_none());
        assert!(from_commit_text("").is_none());
        assert!(from_commit_text("made-with:").is_none());
    }

    #[test]
    fn odd_input_never_panics() {
        let long = "é".repeat(500);
        let _ = from_commit_text(&format!("co-authored-by: {long} <noreply@anthropic.com>"));
        let _ = from_commit_text("\u{0}:\u{0}\r\n::\n:");
        let _ = from_branch("\u{202e}copilot/");
        let _ = from_author("\u{0}", Some(""));
        assert!(clip(&long).ends_with('…'));
    }
}

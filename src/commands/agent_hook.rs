//! `integrity-gate agent-hook <agent>`: the gate at the end of a coding agent's turn, in the
//! hook protocol each agent documents, and `hook install --agent <agent>`.
//!
//! On the end-of-turn event (Claude Code `Stop`/`SubagentStop`, Codex `Stop`, Gemini CLI
//! `AfterAgent`, Cursor `stop`) it judges the working tree (uncommitted and untracked files
//! included) against the session's starting point, with the agent's last message as claims
//! for `unbacked-claim`, under the policy's `agents:` section. Blocking findings become the
//! agent's next instruction; the same findings are never blocked twice in a row, so an agent
//! that cannot (or will not) fix them stops and a person sees them. On the session-start event
//! it records HEAD as the starting point.

use super::{PolicySource, analyze_claimed, input, open_repo};
use crate::claims::Claim;
use crate::finding::stable_hash;
use crate::{Exit, Failure, git};
use serde::Deserialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The agents whose hook protocol is spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code: `Stop`/`SubagentStop` and `SessionStart` command hooks in
    /// `.claude/settings.json`; `{"decision":"block","reason":…}` continues the agent.
    Claude,
    /// Codex CLI: `Stop` and `SessionStart` in `.codex/hooks.json`; same decision shape.
    Codex,
    /// Gemini CLI: `AfterAgent` and `SessionStart` in `.gemini/settings.json`;
    /// `{"decision":"deny","reason":…}` rejects the response and retries with the reason.
    Gemini,
    /// Cursor: `stop` and `sessionStart` in `.cursor/hooks.json`; `{"followup_message":…}`
    /// is submitted as the next user message.
    Cursor,
}

impl Agent {
    /// Parses the name given on the command line.
    pub fn parse(name: &str) -> Result<Agent, Failure> {
        match name.to_ascii_lowercase().as_str() {
            "claude" | "claude-code" => Ok(Agent::Claude),
            "codex" => Ok(Agent::Codex),
            "gemini" | "gemini-cli" => Ok(Agent::Gemini),
            "cursor" => Ok(Agent::Cursor),
            _ => Err(Failure::new(format!(
                "unknown agent `{name}`: expected claude, codex, gemini or cursor"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
        }
    }
}

/// Longest hook input read from stdin.
const PAYLOAD_MAX_BYTES: u64 = 4 << 20;
/// Findings listed in the reason given to the agent.
const REASON_FINDINGS: usize = 20;

/// The fields of the agents' hook inputs that are read (each agent sends a subset).
#[derive(Deserialize, Default, Debug)]
struct Payload {
    session_id: Option<String>,
    conversation_id: Option<String>,
    transcript_path: Option<String>,
    cwd: Option<String>,
    workspace_roots: Option<Vec<String>>,
    hook_event_name: Option<String>,
    #[serde(default)]
    stop_hook_active: bool,
    last_assistant_message: Option<String>,
    prompt_response: Option<String>,
    loop_count: Option<u64>,
    status: Option<String>,
}

/// What the hook answers: bytes for stdout, a line for stderr.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The protocol's answer (empty: let the agent stop).
    pub stdout: Vec<u8>,
    /// What the person running the agent should know (the agents show it in their logs).
    pub stderr: String,
}

/// `integrity-gate agent-hook <agent>`: reads the hook input from stdin.
pub fn run(agent: &str) -> Result<(Vec<u8>, Exit), Failure> {
    let agent = Agent::parse(agent)?;
    let payload =
        input::read_stream_bounded(std::io::stdin(), "the hook's input", PAYLOAD_MAX_BYTES)?;
    let answer = respond(agent, &payload)?;
    if !answer.stderr.is_empty() {
        // The hook's stdout is the protocol; anything for a person goes to stderr.
        let _ = writeln!(std::io::stderr(), "{}", answer.stderr.trim_end());
    }
    Ok((answer.stdout, Exit::Clean))
}

/// The answer to one hook input.
pub fn respond(agent: Agent, payload: &str) -> Result<Answer, Failure> {
    let payload: Payload = serde_json::from_str(payload)
        .map_err(|e| Failure::new(format!("the hook's input is not the expected JSON: {e}")))?;
    let event = payload
        .hook_event_name
        .as_deref()
        .unwrap_or("")
        .to_ascii_lowercase();
    let cwd = payload
        .cwd
        .clone()
        .or_else(|| payload.workspace_roots.as_ref()?.first().cloned())
        .map(PathBuf::from);
    if event == "sessionstart" {
        return session_start(agent, &payload, cwd.as_deref());
    }
    if agent == Agent::Cursor && payload.status.as_deref().is_some_and(|s| s != "completed") {
        // An aborted or failed turn claims nothing and is not the agent declaring victory.
        return Ok(pass(agent, String::new()));
    }
    if open_repo(cwd.as_deref()).is_err() {
        // A hook installed for every project also runs outside repositories: nothing to judge.
        return Ok(pass(
            agent,
            "integrity-gate: not in a git repository; nothing to check".to_string(),
        ));
    }
    // Claude and Gemini say so with `stop_hook_active`; Cursor counts its follow-ups.
    let continuing = payload.stop_hook_active || payload.loop_count.unwrap_or(0) > 0;
    match judge(&payload, cwd.as_deref()) {
        Ok(verdict) => Ok(decide(agent, continuing, verdict)),
        Err(failure) if continuing => Ok(pass(
            agent,
            format!(
                "integrity-gate: could not check the agent's changes ({}); letting it stop",
                failure.message
            ),
        )),
        // Fail closed, once: the agent hears why its changes could not be checked.
        Err(failure) => Ok(block(
            agent,
            &format!(
                "integrity-gate could not check your changes: {}{}\nTell the user the \
                 integrity check did not run.",
                failure.message,
                failure
                    .hint
                    .map(|hint| format!(" ({hint})"))
                    .unwrap_or_default()
            ),
        )),
    }
}

/// The judged change: the blocking findings' lines and fingerprint, where the state lives.
struct Verdict {
    blocking: Vec<String>,
    fingerprint: String,
    base: String,
    state: PathBuf,
}

fn judge(payload: &Payload, cwd: Option<&Path>) -> Result<Verdict, Failure> {
    let repo = open_repo(cwd)?;
    let state = state_file(&repo, payload, "blocked");
    let recorded = std::fs::read_to_string(state_file(&repo, payload, "start"))
        .ok()
        .map(|text| text.trim().to_string())
        .filter(|id| repo.resolve(id).is_ok());
    let base = match recorded {
        Some(commit) => commit,
        // Without a default branch, the uncommitted changes are what is left to judge.
        None => repo.default_base().unwrap_or_else(|_| "HEAD".to_string()),
    };
    let range = git::Range {
        base: Some(&base),
        head: None,
        worktree: true,
    };
    let source = PolicySource {
        agent: true,
        ..PolicySource::default()
    };
    let claims: Vec<Claim> = last_message(payload)
        .map(|text| Claim::new("the agent's last message", &text))
        .into_iter()
        .collect();
    let (report, policy) = analyze_claimed(&repo, &range, &source, claims)?;
    let blocking: Vec<&crate::finding::Finding> = report
        .findings
        .iter()
        .filter(|finding| policy.fail_on.blocks(finding.severity))
        .collect();
    let mut prints: Vec<&str> = blocking.iter().map(|f| f.fingerprint.as_str()).collect();
    prints.sort_unstable();
    let lines = blocking
        .iter()
        .map(|finding| {
            format!(
                "- {}:{} [{}] {}",
                finding.path,
                finding.line,
                finding.rule,
                finding.shown_message()
            )
        })
        .collect();
    Ok(Verdict {
        blocking: lines,
        fingerprint: stable_hash(&prints),
        base: report.base.chars().take(12).collect(),
        state,
    })
}

fn decide(agent: Agent, continuing: bool, verdict: Verdict) -> Answer {
    if verdict.blocking.is_empty() {
        let _ = std::fs::remove_file(&verdict.state);
        return pass(agent, String::new());
    }
    let last = std::fs::read_to_string(&verdict.state).unwrap_or_default();
    if continuing && last.trim() == verdict.fingerprint {
        return pass(
            agent,
            format!(
                "integrity-gate: the agent was told about these {} blocking finding(s) and \
                 stopped again with the same ones; letting it stop. A person must review them \
                 (`integrity-gate diff --worktree`).",
                verdict.blocking.len()
            ),
        );
    }
    if let Some(parent) = verdict.state.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = std::fs::write(&verdict.state, &verdict.fingerprint);
    let shown = verdict.blocking.len().min(REASON_FINDINGS);
    let mut reason = format!(
        "integrity-gate: your changes since {} have {} blocking finding(s):\n{}\n",
        verdict.base,
        verdict.blocking.len(),
        verdict.blocking[..shown].join("\n")
    );
    if verdict.blocking.len() > shown {
        reason.push_str(&format!("- and {} more\n", verdict.blocking.len() - shown));
    }
    reason.push_str(
        "Undo these shortcuts (restore the tests, assertions and checks, drop the \
         suppressions) and fix the cause instead. If one is genuinely right, do not change it: \
         stop and tell the user which finding stands and why. Do not report the task as done \
         while they stand.",
    );
    block(agent, &reason)
}

fn pass(agent: Agent, stderr: String) -> Answer {
    let stdout = match agent {
        // Exit 0 and no output lets Claude Code and Codex stop.
        Agent::Claude | Agent::Codex => Vec::new(),
        // Gemini CLI and Cursor parse stdout as JSON on exit 0.
        Agent::Gemini | Agent::Cursor => b"{}\n".to_vec(),
    };
    Answer { stdout, stderr }
}

fn block(agent: Agent, reason: &str) -> Answer {
    let value = match agent {
        Agent::Claude | Agent::Codex => {
            serde_json::json!({ "decision": "block", "reason": reason })
        }
        Agent::Gemini => serde_json::json!({ "decision": "deny", "reason": reason }),
        Agent::Cursor => serde_json::json!({ "followup_message": reason }),
    };
    let mut stdout = value.to_string().into_bytes();
    stdout.push(b'\n');
    Answer {
        stdout,
        stderr: String::new(),
    }
}

/// Records HEAD as the session's starting point, unless the session already has one (a
/// resumed session keeps its start).
fn session_start(agent: Agent, payload: &Payload, cwd: Option<&Path>) -> Result<Answer, Failure> {
    let Ok(repo) = open_repo(cwd) else {
        return Ok(pass(agent, String::new()));
    };
    let path = state_file(&repo, payload, "start");
    if path.exists() {
        return Ok(pass(agent, String::new()));
    }
    let Ok(head) = repo.resolve("HEAD") else {
        return Ok(pass(agent, String::new()));
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::new(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(&path, format!("{head}\n"))
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))?;
    Ok(pass(agent, String::new()))
}

/// `<git dir>/integrity-gate/agent-sessions/<session>.<what>`: outside the working tree, so
/// the gate's own state is never part of the change it judges.
fn state_file(repo: &git::Git, payload: &Payload, what: &str) -> PathBuf {
    let id = payload
        .session_id
        .as_deref()
        .or(payload.conversation_id.as_deref())
        .unwrap_or("default");
    let safe = id.len() <= 128
        && !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let name = if safe {
        id.to_string()
    } else {
        stable_hash(&[id])
    };
    repo.git_dir()
        .join("integrity-gate")
        .join("agent-sessions")
        .join(format!("{name}.{what}"))
}

/// The agent's last message: from the input when the agent sends it, else from the transcript.
fn last_message(payload: &Payload) -> Option<String> {
    if let Some(text) = payload
        .last_assistant_message
        .as_ref()
        .or(payload.prompt_response.as_ref())
    {
        return Some(text.clone());
    }
    let path = payload.transcript_path.as_deref()?;
    let tail = read_tail(
        Path::new(path),
        crate::claims::sources::TRANSCRIPT_TAIL_BYTES,
    )?;
    crate::claims::sources::last_assistant_message(&tail)
}

/// The last `limit` bytes of a file, from a line start (a transcript can be hundreds of MB).
fn read_tail(path: &Path, limit: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let length = file.metadata().ok()?.len();
    let start = length.saturating_sub(limit);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if start == 0 {
        return Some(text);
    }
    let first_line_end = text.find('\n')?;
    Some(text[first_line_end + 1..].to_string())
}

/// Where each agent keeps project hooks, the events the gate hooks into, and how an entry
/// looks.
struct Settings {
    path: &'static str,
    events: &'static [&'static str],
    /// Cursor's entries are `{command}`; the others nest `{hooks: [{type, command}]}`.
    flat: bool,
}

fn settings(agent: Agent) -> Settings {
    match agent {
        Agent::Claude => Settings {
            path: ".claude/settings.json",
            events: &["SessionStart", "Stop", "SubagentStop"],
            flat: false,
        },
        Agent::Codex => Settings {
            path: ".codex/hooks.json",
            events: &["SessionStart", "Stop"],
            flat: false,
        },
        Agent::Gemini => Settings {
            path: ".gemini/settings.json",
            events: &["SessionStart", "AfterAgent"],
            flat: false,
        },
        Agent::Cursor => Settings {
            path: ".cursor/hooks.json",
            events: &["sessionStart", "stop"],
            flat: true,
        },
    }
}

/// `integrity-gate hook install --agent <agent>`: merges the gate's hook entries into the
/// project's agent settings, keeping every other setting and hook; running it again changes
/// nothing.
pub fn install(agent: &str, program: &str) -> Result<(Vec<u8>, Exit), Failure> {
    let agent = Agent::parse(agent)?;
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?;
    let repo = open_repo(Some(&cwd))?;
    let root = repo
        .workdir()
        .ok_or_else(|| Failure::new("a bare repository has no project settings to write"))?;
    let settings = settings(agent);
    let path = root.join(settings.path);
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            return Err(Failure::new(format!(
                "cannot read {}: {error}",
                path.display()
            )));
        }
    };
    let command = format!("{program} agent-hook {}", agent.name());
    let (merged, added) = merge(existing.as_deref(), &settings, &command)
        .map_err(|cause| Failure::new(format!("{}: {cause}; not changed", path.display())))?;
    if added.is_empty() {
        return Ok((
            format!(
                "{} already runs integrity-gate ({}); nothing changed\n",
                settings.path,
                settings.events.join(", ")
            )
            .into_bytes(),
            Exit::Clean,
        ));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::new(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(&path, merged)
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))?;
    Ok((
        format!(
            "added `{command}` to {} for {}\n",
            settings.path,
            added.join(", ")
        )
        .into_bytes(),
        Exit::Clean,
    ))
}

/// The settings text with the gate's entries added where missing, and the events it added.
fn merge(
    existing: Option<&str>,
    settings: &Settings,
    command: &str,
) -> Result<(String, Vec<&'static str>), String> {
    use serde_json::{Value, json};
    let mut root: Value = match existing {
        Some(text) if !text.trim().is_empty() => {
            serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?
        }
        _ if settings.flat => json!({ "version": 1 }),
        _ => json!({}),
    };
    let object = root
        .as_object_mut()
        .ok_or("the settings are not a JSON object")?;
    let hooks = object
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or("`hooks` is not an object")?;
    let mut added = Vec::new();
    for event in settings.events {
        let entries = hooks
            .entry(*event)
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{event}` is not a list"))?;
        let ours = |value: &Value| {
            value
                .get("command")
                .and_then(Value::as_str)
                .is_some_and(|c| c.contains("agent-hook"))
        };
        let present = entries.iter().any(|entry| {
            ours(entry)
                || entry
                    .get("hooks")
                    .and_then(Value::as_array)
                    .is_some_and(|inner| inner.iter().any(ours))
        });
        if present {
            continue;
        }
        entries.push(if settings.flat {
            json!({ "command": command })
        } else {
            json!({ "hooks": [{ "type": "command", "command": command }] })
        });
        added.push(*event);
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok((text, added))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_merges_beside_other_hooks_and_is_idempotent() {
        let existing = r#"{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"make lint"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[]}]}}"#;
        let claude = settings(Agent::Claude);
        let (text, added) = merge(Some(existing), &claude, "ig agent-hook claude").unwrap();
        assert_eq!(added, ["SessionStart", "Stop", "SubagentStop"]);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["model"], "opus");
        assert_eq!(value["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert_eq!(
            value["hooks"]["Stop"][0]["hooks"][0]["command"],
            "make lint"
        );
        assert_eq!(
            value["hooks"]["Stop"][1]["hooks"][0]["command"],
            "ig agent-hook claude"
        );
        assert!(value["hooks"]["PreToolUse"].is_array());
        let (again, added) = merge(Some(&text), &claude, "ig agent-hook claude").unwrap();
        assert!(added.is_empty());
        assert_eq!(again, text);
    }

    #[test]
    fn install_refuses_settings_it_cannot_read() {
        let claude = settings(Agent::Claude);
        assert!(merge(Some("{not json"), &claude, "x").is_err());
        assert!(merge(Some("[]"), &claude, "x").is_err());
        assert!(merge(Some(r#"{"hooks":{"Stop":{}}}"#), &claude, "x").is_err());
    }

    #[test]
    fn cursor_entries_are_flat_and_versioned() {
        let (text, added) = merge(None, &settings(Agent::Cursor), "ig agent-hook cursor").unwrap();
        assert_eq!(added, ["sessionStart", "stop"]);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["version"], 1);
        assert_eq!(value["hooks"]["stop"][0]["command"], "ig agent-hook cursor");
    }

    #[test]
    fn answers_speak_each_protocol() {
        let reason = "fix it";
        let claude: serde_json::Value =
            serde_json::from_slice(&block(Agent::Claude, reason).stdout).unwrap();
        assert_eq!(
            claude,
            serde_json::json!({"decision": "block", "reason": "fix it"})
        );
        let gemini: serde_json::Value =
            serde_json::from_slice(&block(Agent::Gemini, reason).stdout).unwrap();
        assert_eq!(gemini["decision"], "deny");
        let cursor: serde_json::Value =
            serde_json::from_slice(&block(Agent::Cursor, reason).stdout).unwrap();
        assert_eq!(cursor["followup_message"], "fix it");
        assert!(pass(Agent::Claude, String::new()).stdout.is_empty());
        assert_eq!(pass(Agent::Gemini, String::new()).stdout, b"{}\n");
    }
}

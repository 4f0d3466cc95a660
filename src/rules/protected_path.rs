//! `protected-path`: the change touches a path the base policy lists under `protected:` (or,
//! for an agent-authored change, under `agents.protected`).
//!
//! The entries come from the policy read at base ([`crate::config::Policy::protected`]), so a
//! change cannot unprotect a path for itself; the `agents.protected` entries are in that list
//! only when the change is agent-authored ([`crate::config::Policy::tightened_for_agents`]).

use super::context::Candidate;
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::changeset::{FilePair, Status};
use crate::config::Protected;
use crate::finding::{Confidence, Severity, Side};

declare_rule! {
    /// ## What it flags
    /// A change that adds, edits, deletes or moves (to or from) a path matched by an entry of
    /// the `protected:` list in the base revision's policy. The message names the path, the
    /// glob that matched and the entry's `reason`. One finding per file.
    ///
    /// For agent-authored changes (the `github` command recognises them from the pull
    /// request's author, branch, commit identities and trailers), the entries under
    /// `agents.protected` apply as well; `- default` there stands for CI workflows
    /// (`.github/workflows/**`, `.gitlab-ci.yml`, ...), the gate's own policy, lockfiles
    /// (`**/Cargo.lock`, `**/package-lock.json`, `**/yarn.lock`, `**/poetry.lock`, ...) and
    /// migrations (`**/migrations/**`, `**/db/migrate/**`, `**/alembic/versions/**`).
    /// ## Why it matters
    /// "Do not modify X" is the constraint agents drop most often. Listing X in the policy
    /// turns the instruction into a check that the change cannot switch off: the policy is
    /// read from base, never from the change.
    /// ## Example
    /// With this base policy, a change that edits `migrations/0042_drop_users.sql` fires with
    /// "schema changes need an owner's review":
    ///
    /// ```yaml
    /// protected:
    ///   - paths: ["migrations/**", ".github/workflows/**"]
    ///     reason: "schema changes need an owner's review"
    /// agents:
    ///   protected:
    ///     - default
    ///     - paths: ["infra/**"]
    ///       reason: "ops owns the infrastructure"
    /// ```
    /// ## Not flagged
    /// - Paths no entry matches (`src/migrations.rs` does not match `migrations/**`).
    /// - Paths under `agents.protected` in a change that is not agent-authored.
    /// - Protected entries the change itself adds to the policy (the policy is read from base).
    /// - Paths under the policy's `ignore:` globs, which no rule analyses.
    /// ## Configuration
    /// `protected:` (a list of `{paths, reason}`; `reason` is required) and
    /// `agents.protected` (the same, plus the word `default`) in `.integrity-gate.yml`;
    /// `rules.protected-path.severity`. An owner's approved change passes once reviewed, or
    /// through an `allow:` entry for `protected-path` with its own reason.
    pub static PROTECTED_PATH = {
        id: "protected-path",
        severity: Error,
        engine: FileSet,
        languages: [],
        summary: "a path the base policy lists under protected: (agents.protected for agents) is touched",
        maturity: Stable,
        check: None,
        change_check: check,
    }
}

fn check(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    if input.policy.protected.is_empty() {
        return;
    }
    for (index, pair) in input.pairs.iter().enumerate() {
        if let Some(candidate) = judge(pair, &input.policy.protected) {
            out.candidates.push((index, candidate));
        }
    }
}

/// The first entry protecting `path`, with the glob that matched.
fn matched<'a>(
    path: Option<&'a str>,
    entries: &'a [Protected],
) -> Option<(&'a str, &'a Protected, &'a str)> {
    let path = path?;
    entries
        .iter()
        .find_map(|entry| Some((path, entry, entry.matching_glob(path)?)))
}

/// The finding for one file: the first entry that protects its new path, else its old one.
fn judge(pair: &FilePair, entries: &[Protected]) -> Option<Candidate> {
    let (path, entry, glob) = matched(pair.new_path.as_deref(), entries)
        .or_else(|| matched(pair.old_path.as_deref(), entries))?;
    let old = pair.old_path.as_deref().unwrap_or_default();
    let new = pair.new_path.as_deref().unwrap_or_default();
    let what = match pair.status {
        Status::Added => format!("adds `{path}`"),
        Status::Deleted => format!("deletes `{path}`"),
        Status::Renamed => format!("moves `{old}` to `{new}`"),
        Status::Modified => format!("edits `{path}`"),
    };
    let scope = if entry.agents_only {
        "protected for agent-authored changes by the base policy's `agents.protected`"
    } else {
        "protected by the base policy"
    };
    let (side, line) = match pair.status {
        Status::Deleted => (Side::Base, pair.removed.iter().next().unwrap_or(1)),
        Status::Renamed if pair.new_path.as_deref() != Some(path) => (Side::Head, 1),
        _ => (Side::Head, pair.added.iter().next().unwrap_or(1)),
    };
    Some(Candidate {
        side,
        line,
        end_line: line,
        severity: Severity::Error,
        message: match pair.status {
            Status::Renamed => format!(
                "the change {what}; `{path}` is {scope} (`{glob}`): {}",
                entry.reason
            ),
            _ => format!(
                "the change {what}, which is {scope} (`{glob}`): {}",
                entry.reason
            ),
        },
        key: format!("protected:{path}"),
        moved: None,
        confidence: Confidence::Certain,
    })
}

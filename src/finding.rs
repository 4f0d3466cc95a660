//! Findings: the plain data that rules produce and reporters consume.
//!
//! This module sits between detection and output and depends on nothing else in the crate.
//! A `Finding` is built already redacted: no reporter or sink can leak what it never holds.

use serde::Serialize;

/// How serious a finding is. Ordered, so `severity >= fail_on` decides blocking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a reviewer's glance; never blocks by default.
    Note,
    /// Suspicious; blocks only under a stricter `fail-on`.
    Warning,
    /// Blocks the change under the default policy.
    Error,
}

impl Severity {
    /// The lower-case name used in the contract, configs and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses `note`, `warning` or `error`.
    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "note" => Some(Severity::Note),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// How sure the rule is that the finding means what its message says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Judged on plain evidence: a skip added, a test gone with nothing like it anywhere.
    #[default]
    Certain,
    /// Judged on a guess the gate cannot confirm (a test that may have moved under another
    /// name, a check that may live in a helper): shown one severity lower unless the policy
    /// sets `likely-severity`.
    Likely,
}

impl Confidence {
    /// The lower-case name used in the output.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Likely => "likely",
        }
    }
}

impl Severity {
    /// One step lower; a note stays a note.
    pub fn lower(self) -> Severity {
        match self {
            Severity::Error => Severity::Warning,
            Severity::Warning | Severity::Note => Severity::Note,
        }
    }
}

/// Which revision a finding's line numbers refer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The merge-base: used for what the change removed (a deleted test).
    Base,
    /// The head of the change: everything the change introduced.
    Head,
}

impl Side {
    /// The lower-case name used in the contract and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Base => "base",
            Side::Head => "head",
        }
    }
}

/// One thing the change did that a human should see before merge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable rule id from the contract, e.g. `skipped-test`.
    pub rule: &'static str,
    /// Severity after the policy was applied.
    pub severity: Severity,
    /// Repo-relative path with forward slashes, on the finding's side.
    pub path: String,
    /// First line, 1-based.
    pub line: u32,
    /// Last line, 1-based, inclusive.
    pub end_line: u32,
    /// The revision the lines refer to.
    pub side: Side,
    /// One sentence saying what changed.
    pub message: String,
    /// The source lines of the finding, secrets already redacted.
    pub snippet: String,
    /// Extension: `certain`, or `likely` when the judgement rests on a guess (then already
    /// one severity lower by default).
    pub confidence: Confidence,
    /// Stable identity of the finding without line numbers (rule, path, key), for SARIF
    /// fingerprints and for pairing runs.
    #[serde(skip)]
    pub fingerprint: String,
}

impl Finding {
    /// The message as reporters show it: a `likely` finding says so.
    pub fn shown_message(&self) -> std::borrow::Cow<'_, str> {
        match self.confidence {
            Confidence::Certain => self.message.as_str().into(),
            Confidence::Likely => format!("{} (likely)", self.message).into(),
        }
    }

    /// The order every output uses: path, line, rule, side, then message for total determinism.
    pub fn sort_key(&self) -> (&str, u32, &str, Side, &str) {
        (&self.path, self.line, self.rule, self.side, &self.message)
    }
}

/// A per-file condition that limited the analysis, shown so that nothing is skipped silently.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Note {
    /// Repo-relative path the note is about.
    pub path: String,
    /// What happened, e.g. "binary file, not analysed".
    pub message: String,
}

/// A short stable hash (FNV-1a, 64 bit) as 16 hex digits; used for fingerprints and redaction.
pub fn stable_hash(parts: &[&str]) -> String {
    let bytes = parts
        .iter()
        .flat_map(|part| part.bytes().chain(std::iter::once(0u8)));
    format!("{:016x}", fnv1a64(bytes))
}

/// 64-bit FNV-1a: tiny and identical across runs and platforms (unlike `DefaultHasher`).
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    fnv1a64_continue(FNV1A64_START, bytes)
}

/// The FNV-1a state before any byte.
pub const FNV1A64_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a continued from `hash` over more bytes, so hashes of growing prefixes cost O(length)
/// in all rather than O(length²).
pub fn fnv1a64_continue(hash: u64, bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(hash, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_orders_from_note_to_error() {
        assert!(Severity::Note < Severity::Warning);
        assert!(Severity::Warning < Severity::Error);
        assert_eq!(Severity::parse("warning"), Some(Severity::Warning));
        assert_eq!(Severity::parse("off"), None);
    }

    #[test]
    fn stable_hash_is_stable_and_separates_parts() {
        assert_eq!(stable_hash(&["a", "b"]), stable_hash(&["a", "b"]));
        assert_ne!(stable_hash(&["ab", ""]), stable_hash(&["a", "b"]));
        assert_eq!(stable_hash(&[""]).len(), 16);
    }
}

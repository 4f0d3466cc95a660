//! The policy, `.integrity-gate.yml`, read from the base revision (or `--config PATH`).
//!
//! The YAML is parsed into an untyped tree first and validated by hand, so that an unknown key
//! or rule id is reported with the file, the key and the nearest valid name (exit 2). Raw
//! options are then resolved into [`Policy`], which the engine reads.

use crate::finding::Severity;
use crate::rules;
use crate::text::nearest;
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// A rule's configured level: a severity, or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The rule does not run.
    Off,
    /// The rule runs and its findings get this severity.
    On(Severity),
}

/// The lowest severity that blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    /// Findings at or above this severity block.
    AtLeast(Severity),
    /// Nothing blocks (report only).
    Never,
}

impl FailOn {
    /// Parses `error`, `warning`, `note` or `never`.
    pub fn parse(text: &str) -> Option<FailOn> {
        match text {
            "never" => Some(FailOn::Never),
            other => Severity::parse(other).map(FailOn::AtLeast),
        }
    }

    /// Whether a finding of `severity` blocks.
    pub fn blocks(self, severity: Severity) -> bool {
        match self {
            FailOn::AtLeast(threshold) => severity >= threshold,
            FailOn::Never => false,
        }
    }
}

/// A reasoned exception from the policy's `allow:` list.
#[derive(Clone, Debug)]
pub struct Allow {
    /// The rule it exempts.
    pub rule: String,
    /// Paths it covers; `None` means everywhere.
    pub paths: Option<GlobSet>,
    /// Why (required).
    pub reason: String,
}

/// Stricter settings for agent-authored changes (applied by the `github` command).
#[derive(Clone, Debug, Default)]
pub struct AgentPolicy {
    /// Replaces `fail-on` when it is stricter.
    pub fail_on: Option<FailOn>,
    /// Per-rule levels that replace the main ones when stricter.
    pub rules: HashMap<&'static str, Level>,
    /// `agents.protected`: paths only a human may change, for agent-authored changes only.
    pub protected: Vec<Protected>,
    /// `agents.rules.mass-deletion` thresholds; the lower of these and the main ones applies.
    pub deletion: DeletionLimits,
}

/// An entry of `protected:` (rule `protected-path`): paths only a human may change, and why.
#[derive(Clone, Debug)]
pub struct Protected {
    /// The globs as written, for messages.
    pub globs: Vec<String>,
    /// The same globs, compiled (a folder name also covers everything below it).
    pub paths: GlobSet,
    /// Why (required): the finding's message gives it.
    pub reason: String,
    /// From `agents.protected`: applies to agent-authored changes only.
    pub agents_only: bool,
}

impl Protected {
    /// The first glob of this entry that matches `path`, if any.
    pub fn matching_glob(&self, path: &str) -> Option<&str> {
        if !self.paths.is_match(path) {
            return None;
        }
        // The set matched, so some glob (or its folder form) did; name the first that does.
        self.globs
            .iter()
            .find(|glob| {
                glob_set(std::slice::from_ref(glob), "").is_ok_and(|set| set.is_match(path))
            })
            .map(String::as_str)
            .or(self.globs.first().map(String::as_str))
    }
}

/// `rules.mass-deletion` thresholds; `None` keeps the rule's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeletionLimits {
    /// `max-files`: most deleted source and test files before the rule fires.
    pub max_files: Option<u64>,
    /// `max-lines`: most deleted lines of source and tests before the rule fires.
    pub max_lines: Option<u64>,
}

impl DeletionLimits {
    /// The lower of each threshold (an agent policy may only tighten).
    fn tightest(self, other: DeletionLimits) -> DeletionLimits {
        let lower = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        DeletionLimits {
            max_files: lower(self.max_files, other.max_files),
            max_lines: lower(self.max_lines, other.max_lines),
        }
    }
}

/// What `agents.protected: [default]` stands for: what an agent must not change on its own
/// (CI, the gate's policy, lockfiles, schema migrations).
pub const AGENT_DEFAULT_PROTECTED: &[&str] = &[
    ".github/workflows/**",
    ".github/actions/**",
    ".gitlab-ci.yml",
    ".circleci/**",
    ".buildkite/**",
    "azure-pipelines.yml",
    "Jenkinsfile",
    ".integrity-gate.yml",
    "**/Cargo.lock",
    "**/package-lock.json",
    "**/npm-shrinkwrap.json",
    "**/yarn.lock",
    "**/pnpm-lock.yaml",
    "**/bun.lockb",
    "**/poetry.lock",
    "**/uv.lock",
    "**/pdm.lock",
    "**/Pipfile.lock",
    "**/go.sum",
    "**/Gemfile.lock",
    "**/composer.lock",
    "**/migrations/**",
    "**/db/migrate/**",
    "**/alembic/versions/**",
];

/// The reason `agents.protected: [default]` gives.
pub const AGENT_DEFAULT_REASON: &str = "CI workflows, the gate's policy, lockfiles and migrations are changed by a human, not by an agent (agents.protected: default)";

/// Where the policy came from, as the reports state it (JSON `policy`, the summary lines).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PolicyOrigin {
    /// The commit it was read from (40 or 64 hex), `file:<path>` for `--config`, or `default`
    /// when base has no policy file.
    pub source: String,
    /// The file read inside that commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl PolicyOrigin {
    /// The policy file `path` inside `commit`.
    pub fn commit(commit: &str, path: &str) -> PolicyOrigin {
        PolicyOrigin {
            source: commit.to_string(),
            path: Some(path.to_string()),
        }
    }

    /// A policy file named on the command line.
    pub fn file(path: &str) -> PolicyOrigin {
        PolicyOrigin {
            source: format!("file:{path}"),
            path: None,
        }
    }

    /// No policy file: the built-in defaults.
    pub fn default_policy() -> PolicyOrigin {
        PolicyOrigin {
            source: "default".to_string(),
            path: None,
        }
    }

    /// One short human label: `1a2b3c4d5e6f:.integrity-gate.yml`, a path, or `defaults`.
    pub fn label(&self) -> String {
        match (&self.path, self.source.strip_prefix("file:")) {
            (Some(path), _) => format!("{}:{path}", &self.source[..12.min(self.source.len())]),
            (None, Some(file)) => file.to_string(),
            (None, None) => "defaults".to_string(),
        }
    }
}

/// The resolved policy.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Where it came from, for messages (`<base>:.integrity-gate.yml`, a path, or `defaults`).
    pub origin: String,
    /// Where it came from, for the reports.
    pub source: PolicyOrigin,
    /// Lowest blocking severity.
    pub fail_on: FailOn,
    /// Per-rule overrides.
    pub rules: HashMap<&'static str, Level>,
    /// Per-rule severity of `likely` findings (`rules.<id>.likely-severity`); without one, a
    /// likely finding is one step below the rule's level.
    pub likely: HashMap<&'static str, Severity>,
    /// Paths the gate never analyses.
    pub ignore: Option<GlobSet>,
    /// Reasoned exceptions.
    pub allow: Vec<Allow>,
    /// Stricter settings for agent-authored changes.
    pub agents: Option<AgentPolicy>,
    /// `protected:` entries (rule `protected-path`); after [`Policy::tightened_for_agents`],
    /// also the `agents.protected` ones.
    pub protected: Vec<Protected>,
    /// `rules.mass-deletion` thresholds.
    pub deletion: DeletionLimits,
    /// The change is agent-authored ([`Policy::tightened_for_agents`] was applied): rules
    /// that are stricter for agents by default (`mass-deletion`) read it.
    pub agent_authored: bool,
    /// Per-rule `test-functions`: the project's own names for test and suite functions
    /// (wrappers, global aliases such as `context` or `foo.bar`), read like `it`.
    pub test_functions: HashMap<&'static str, Vec<String>>,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            origin: "defaults".to_string(),
            source: PolicyOrigin::default_policy(),
            fail_on: FailOn::AtLeast(Severity::Error),
            rules: HashMap::new(),
            likely: HashMap::new(),
            ignore: None,
            allow: Vec::new(),
            agents: None,
            protected: Vec::new(),
            deletion: DeletionLimits::default(),
            agent_authored: false,
            test_functions: HashMap::new(),
        }
    }
}

impl Policy {
    /// The level a rule runs at: its override, or on at its default severity.
    pub fn level(&self, rule: &rules::Rule) -> Level {
        self.rules
            .get(rule.id)
            .copied()
            .unwrap_or(Level::On(rule.severity))
    }

    /// Whether the gate skips `path` entirely.
    pub fn is_ignored(&self, path: &str) -> bool {
        self.ignore.as_ref().is_some_and(|set| set.is_match(path))
    }

    /// The policy with its `agents:` section applied. Agent signals can be spoofed, so they
    /// may only ever make the policy stricter: a lower `fail-on`, higher rule levels.
    pub fn tightened_for_agents(&self) -> Policy {
        let mut policy = self.clone();
        policy.agent_authored = true;
        let Some(agents) = &self.agents else {
            return policy;
        };
        policy.protected.extend(agents.protected.iter().cloned());
        policy.deletion = policy.deletion.tightest(agents.deletion);
        if let Some(fail_on) = agents.fail_on {
            policy.fail_on = stricter_fail_on(policy.fail_on, fail_on);
        }
        for (id, level) in &agents.rules {
            let current = match rules::find(id) {
                Some(rule) => policy.level(rule),
                None => continue,
            };
            policy.rules.insert(id, stricter_level(current, *level));
        }
        policy
    }

    /// The `allow:` entry that exempts `rule` at `path`, if any.
    pub fn allowed(&self, rule: &str, path: &str) -> Option<&Allow> {
        self.allow.iter().find(|allow| {
            allow.rule == rule && allow.paths.as_ref().is_none_or(|set| set.is_match(path))
        })
    }
}

fn stricter_fail_on(a: FailOn, b: FailOn) -> FailOn {
    match (a, b) {
        (FailOn::Never, other) | (other, FailOn::Never) => other,
        (FailOn::AtLeast(x), FailOn::AtLeast(y)) => FailOn::AtLeast(x.min(y)),
    }
}

fn stricter_level(a: Level, b: Level) -> Level {
    match (a, b) {
        (Level::Off, other) | (other, Level::Off) => other,
        (Level::On(x), Level::On(y)) => Level::On(x.max(y)),
    }
}

/// Why a policy could not be used. Always exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{origin}: {message}")]
pub struct ConfigError {
    /// The file.
    pub origin: String,
    /// What is wrong, naming the key and the nearest valid one.
    pub message: String,
}

const TOP_KEYS: &[&str] = &["fail-on", "rules", "ignore", "allow", "agents", "protected"];
const RULE_KEYS: &[&str] = &["severity", "likely-severity", "test-functions"];
/// Options a rule takes beside `severity` (each rule's `explain` lists them).
const RULE_OPTIONS: &[(&str, &[&str])] = &[("mass-deletion", &["max-files", "max-lines"])];
/// Rules that read `test-functions`: the ones that judge test and suite calls.
const TEST_FUNCTION_RULES: &[&str] = &["focused-test", "skipped-test"];
const ALLOW_KEYS: &[&str] = &["rule", "paths", "reason"];
const AGENT_KEYS: &[&str] = &["fail-on", "rules", "protected"];
const PROTECTED_KEYS: &[&str] = &["paths", "reason"];

/// Parses and validates a policy file's text.
pub fn parse(text: &str, origin: &str) -> Result<Policy, ConfigError> {
    let error = |message: String| ConfigError {
        origin: origin.to_string(),
        message,
    };
    let value: Value = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_saphyr::from_str(text).map_err(|e| error(yaml_error(&e)))?
    };
    let mut policy = Policy {
        origin: origin.to_string(),
        ..Policy::default()
    };
    let top = match value {
        Value::Null => return Ok(policy),
        Value::Object(map) => map,
        _ => return Err(error("the policy must be a mapping of keys".into())),
    };
    check_keys(&top, TOP_KEYS, "").map_err(error)?;
    if let Some(value) = top.get("fail-on") {
        policy.fail_on = parse_fail_on(value, "fail-on").map_err(error)?;
    }
    if let Some(value) = top.get("rules") {
        (policy.rules, policy.likely) = parse_rules(value, "rules").map_err(error)?;
        policy.deletion = parse_deletion(value, "rules").map_err(error)?;
        policy.test_functions = parse_test_functions(value).map_err(error)?;
    }
    if let Some(value) = top.get("protected") {
        policy.protected = parse_protected(value, "protected", false).map_err(error)?;
    }
    if let Some(value) = top.get("ignore") {
        let globs = string_list(value, "ignore").map_err(error)?;
        policy.ignore = Some(glob_set(&globs, "ignore").map_err(error)?);
    }
    if let Some(value) = top.get("allow") {
        policy.allow = parse_allow(value).map_err(error)?;
    }
    if let Some(value) = top.get("agents") {
        let map = value
            .as_object()
            .ok_or_else(|| error("`agents` must be a mapping".into()))?;
        check_keys(map, AGENT_KEYS, "agents.").map_err(error)?;
        let mut agents = AgentPolicy::default();
        if let Some(value) = map.get("fail-on") {
            agents.fail_on = Some(parse_fail_on(value, "agents.fail-on").map_err(error)?);
        }
        if let Some(value) = map.get("rules") {
            // A stricter agent policy raises levels; how likely findings rank stays the main
            // policy's.
            (agents.rules, _) = parse_rules(value, "agents.rules").map_err(error)?;
            agents.deletion = parse_deletion(value, "agents.rules").map_err(error)?;
        }
        if let Some(value) = map.get("protected") {
            agents.protected = parse_protected(value, "agents.protected", true).map_err(error)?;
        }
        policy.agents = Some(agents);
    }
    Ok(policy)
}

/// The parser's error without the parser's message: that message quotes the input (the policy
/// may be any file the operator named, `/proc/self/environ` included), so only the position is
/// kept.
fn yaml_error(error: &serde_saphyr::Error) -> String {
    match error.location() {
        Some(at) => format!("invalid YAML at line {}, column {}", at.line(), at.column()),
        None => "invalid YAML".to_string(),
    }
}

/// A key as error messages show it: clipped, so a long key cannot carry a file's content out.
fn shown_key(key: &str) -> String {
    const MAX: usize = 40;
    match key.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &key[..end]),
        None => key.to_string(),
    }
}

fn check_keys(map: &Map<String, Value>, known: &[&str], prefix: &str) -> Result<(), String> {
    for key in map.keys() {
        if !known.contains(&key.as_str()) {
            return Err(unknown(
                "key",
                &format!("{prefix}{}", shown_key(key)),
                key,
                known.iter().copied(),
            ));
        }
    }
    Ok(())
}

fn unknown<'a>(what: &str, shown: &str, key: &str, known: impl Iterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.collect();
    match nearest(key, known.iter().copied(), 1).first() {
        Some(best) => format!("unknown {what} `{shown}` (did you mean `{best}`?)"),
        None => format!("unknown {what} `{shown}` (valid: {})", known.join(", ")),
    }
}

fn parse_fail_on(value: &Value, key: &str) -> Result<FailOn, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("`{key}` must be one of error, warning, note, never"))?;
    FailOn::parse(text).ok_or_else(|| format!("`{key}` is not one of error, warning, note, never"))
}

/// Rule levels and likely-finding severities per rule id.
type RuleSettings = (
    HashMap<&'static str, Level>,
    HashMap<&'static str, Severity>,
);

fn parse_rules(value: &Value, key: &str) -> Result<RuleSettings, String> {
    let map = value
        .as_object()
        .ok_or_else(|| format!("`{key}` must be a mapping of rule ids"))?;
    let mut levels = HashMap::new();
    let mut likely = HashMap::new();
    for (id, settings) in map {
        let rule = rules::find(id).ok_or_else(|| {
            unknown(
                "rule id",
                &format!("{key}.{}", shown_key(id)),
                id,
                rules::ALL_RULES.iter().map(|rule| rule.id),
            )
        })?;
        let settings = settings
            .as_object()
            .ok_or_else(|| format!("`{key}.{id}` must be a mapping (e.g. `severity: warning`)"))?;
        let options = RULE_OPTIONS
            .iter()
            .find(|(rule_id, _)| *rule_id == rule.id)
            .map_or(&[][..], |(_, options)| *options);
        let known: Vec<&str> = RULE_KEYS.iter().chain(options).copied().collect();
        check_keys(settings, &known, &format!("{key}.{id}.")).map_err(|e| e.to_string())?;
        if let Some(severity) = settings.get("severity") {
            // YAML 1.1 readers turn a bare `off` into `false`.
            let text = match severity {
                Value::Bool(false) => "off",
                other => other.as_str().unwrap_or_default(),
            };
            let level = match text {
                "off" => Level::Off,
                other => Level::On(Severity::parse(other).ok_or_else(|| {
                    format!("`{key}.{id}.severity` is not one of off, note, warning, error")
                })?),
            };
            levels.insert(rule.id, level);
        }
        if let Some(severity) = settings.get("likely-severity") {
            let severity = severity.as_str().and_then(Severity::parse).ok_or_else(|| {
                format!("`{key}.{id}.likely-severity` is not one of note, warning, error")
            })?;
            likely.insert(rule.id, severity);
        }
    }
    Ok((levels, likely))
}

/// `rules.mass-deletion.max-files` and `max-lines` (validated as keys by [`parse_rules`]).
fn parse_deletion(rules: &Value, key: &str) -> Result<DeletionLimits, String> {
    let Some(settings) = rules.get("mass-deletion").and_then(Value::as_object) else {
        return Ok(DeletionLimits::default());
    };
    let number = |name: &str| -> Result<Option<u64>, String> {
        match settings.get(name) {
            None => Ok(None),
            Some(value) => value.as_u64().map(Some).ok_or_else(|| {
                format!("`{key}.mass-deletion.{name}` must be a whole number (0 or more)")
            }),
        }
    };
    Ok(DeletionLimits {
        max_files: number("max-files")?,
        max_lines: number("max-lines")?,
    })
}

/// A `protected:` list: entries `{paths, reason}`; under `agents:`, also the word `default`
/// for [`AGENT_DEFAULT_PROTECTED`].
fn parse_protected(value: &Value, key: &str, agents: bool) -> Result<Vec<Protected>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("`{key}` must be a list of entries with paths and reason"))?;
    let mut entries = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let key = format!("{key}[{index}]");
        if agents && item.as_str() == Some("default") {
            let globs: Vec<String> = AGENT_DEFAULT_PROTECTED
                .iter()
                .map(|glob| glob.to_string())
                .collect();
            entries.push(Protected {
                paths: glob_set(&globs, &key)?,
                globs,
                reason: AGENT_DEFAULT_REASON.to_string(),
                agents_only: true,
            });
            continue;
        }
        let hint = if agents {
            " (or the word `default`)"
        } else {
            ""
        };
        let map = item
            .as_object()
            .ok_or_else(|| format!("`{key}` must be a mapping with paths and reason{hint}"))?;
        check_keys(map, PROTECTED_KEYS, &format!("{key}.")).map_err(|e| e.to_string())?;
        let globs = match map.get("paths") {
            Some(value) => string_list(value, &format!("{key}.paths"))?,
            None => return Err(format!("`{key}.paths` is required")),
        };
        if globs.is_empty() {
            return Err(format!("`{key}.paths` must name at least one glob"));
        }
        let reason = map
            .get("reason")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|reason| !reason.is_empty())
            .ok_or_else(|| {
                format!("`{key}.reason` is required: say why only a human may change these paths")
            })?;
        entries.push(Protected {
            paths: glob_set(&globs, &format!("{key}.paths"))?,
            globs,
            reason: reason.to_string(),
            agents_only: agents,
        });
    }
    Ok(entries)
}

/// `rules.<id>.test-functions`: names of the project's own test functions, each an identifier
/// or a dotted path of identifiers (`custom`, `foo.bar`); only for the rules that judge tests.
fn parse_test_functions(value: &Value) -> Result<HashMap<&'static str, Vec<String>>, String> {
    let mut out = HashMap::new();
    let Some(map) = value.as_object() else {
        return Ok(out);
    };
    for (id, settings) in map {
        let (Some(rule), Some(list)) = (
            rules::find(id),
            settings.as_object().and_then(|s| s.get("test-functions")),
        ) else {
            continue;
        };
        let key = format!("rules.{id}.test-functions");
        if !TEST_FUNCTION_RULES.contains(&rule.id) {
            return Err(format!(
                "`{key}` is not an option of {id} (it is one of {})",
                TEST_FUNCTION_RULES.join(", ")
            ));
        }
        let names = string_list(list, &key)?;
        for (index, name) in names.iter().enumerate() {
            let identifier = |part: &str| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                    && part
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            };
            if !name.split('.').all(identifier) {
                return Err(format!(
                    "`{key}[{index}]` must be an identifier or a dotted path (`custom`, `foo.bar`)"
                ));
            }
        }
        out.insert(rule.id, names);
    }
    Ok(out)
}

fn string_list(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("`{key}` must be a list of strings"))?;
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("`{key}` must be a list of strings"))
        })
        .collect()
}

fn glob_set(globs: &[String], key: &str) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for (index, glob) in globs.iter().enumerate() {
        // The error's kind only: globset's message quotes the glob.
        builder.add(
            Glob::new(glob).map_err(|e| format!("`{key}[{index}]`: invalid glob: {}", e.kind()))?,
        );
        // `vendor` and `vendor/` also mean everything below the folder.
        if !glob.contains('*') {
            let below = format!("{}/**", glob.trim_end_matches('/'));
            if let Ok(below) = Glob::new(&below) {
                builder.add(below);
            }
        }
    }
    builder
        .build()
        .map_err(|e| format!("`{key}`: invalid globs: {}", e.kind()))
}

fn parse_allow(value: &Value) -> Result<Vec<Allow>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| "`allow` must be a list of entries".to_string())?;
    let mut allows = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let key = format!("allow[{index}]");
        let map = item
            .as_object()
            .ok_or_else(|| format!("`{key}` must be a mapping with rule, paths and reason"))?;
        check_keys(map, ALLOW_KEYS, &format!("{key}.")).map_err(|e| e.to_string())?;
        let id = map
            .get("rule")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{key}.rule` is required"))?;
        let rule = rules::find(id).ok_or_else(|| {
            unknown(
                "rule id",
                &format!("{key}.rule: {}", shown_key(id)),
                id,
                rules::ALL_RULES.iter().map(|rule| rule.id),
            )
        })?;
        let reason = map
            .get("reason")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|reason| !reason.is_empty())
            .ok_or_else(|| format!("`{key}.reason` is required: say why the exception is safe"))?;
        let paths = match map.get("paths") {
            Some(value) => {
                let globs = string_list(value, &format!("{key}.paths"))?;
                Some(glob_set(&globs, &format!("{key}.paths"))?)
            }
            None => None,
        };
        allows.push(Allow {
            rule: rule.id.to_string(),
            paths,
            reason: reason.to_string(),
        });
    }
    Ok(allows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likely_severity_is_read_per_rule_and_checked() {
        let policy = parse("rules:\n  deleted-test:\n    likely-severity: error\n", "p").unwrap();
        assert_eq!(policy.likely.get("deleted-test"), Some(&Severity::Error));
        assert!(!policy.rules.contains_key("deleted-test"));
        let error = parse("rules:\n  deleted-test:\n    likely-severity: off\n", "p").unwrap_err();
        assert!(error.message.contains("likely-severity"), "{error}");
    }

    #[test]
    fn test_functions_are_read_for_test_rules_only() {
        let policy = parse(
            "rules:\n  focused-test:\n    test-functions: [custom, foo.bar]\n",
            "p",
        )
        .unwrap();
        assert_eq!(
            policy.test_functions["focused-test"],
            vec!["custom".to_string(), "foo.bar".to_string()]
        );
        assert!(!policy.test_functions.contains_key("skipped-test"));
        let error = parse("rules:\n  empty-catch:\n    test-functions: [x]\n", "p").unwrap_err();
        assert!(error.message.contains("not an option"), "{error}");
        let error = parse(
            "rules:\n  skipped-test:\n    test-functions: [\"a b\"]\n",
            "p",
        )
        .unwrap_err();
        assert!(error.message.contains("identifier"), "{error}");
    }

    #[test]
    fn empty_policy_is_the_default() {
        let policy = parse("", "p").unwrap();
        assert_eq!(policy.fail_on, FailOn::AtLeast(Severity::Error));
        assert!(policy.rules.is_empty());
    }

    #[test]
    fn parses_the_contract_example() {
        let text = r#"
fail-on: warning
rules:
  skipped-test:
    severity: warning
  focused-test:
    severity: off
ignore:
  - "vendor/**"
  - third_party
allow:
  - rule: leaked-secret
    paths: ["tests/fixtures/**"]
    reason: "synthetic keys used by the parser tests"
agents:
  fail-on: note
"#;
        let policy = parse(text, "p").unwrap();
        assert_eq!(policy.fail_on, FailOn::AtLeast(Severity::Warning));
        assert_eq!(policy.rules["skipped-test"], Level::On(Severity::Warning));
        assert_eq!(policy.rules["focused-test"], Level::Off);
        assert!(policy.is_ignored("vendor/a/b.js"));
        assert!(policy.is_ignored("third_party/x.py"));
        assert!(!policy.is_ignored("src/vendor.rs"));
        assert!(
            policy
                .allowed("leaked-secret", "tests/fixtures/k.pem")
                .is_some()
        );
        assert!(policy.allowed("leaked-secret", "src/k.pem").is_none());
        assert_eq!(
            policy.agents.unwrap().fail_on,
            Some(FailOn::AtLeast(Severity::Note))
        );
    }

    #[test]
    fn unknown_keys_name_the_nearest_valid_one() {
        let error = parse("rulez: {}\n", ".integrity-gate.yml").unwrap_err();
        assert_eq!(
            error.to_string(),
            ".integrity-gate.yml: unknown key `rulez` (did you mean `rules`?)"
        );
        let error = parse("rules:\n  skiped-test:\n    severity: off\n", "p").unwrap_err();
        assert!(
            error.message.contains("did you mean `skipped-test`"),
            "{error}"
        );
        let error = parse("rules:\n  skipped-test:\n    severty: off\n", "p").unwrap_err();
        assert!(error.message.contains("did you mean `severity`"), "{error}");
    }

    #[test]
    fn rejects_bad_values() {
        assert!(parse("fail-on: sometimes\n", "p").is_err());
        assert!(parse("rules:\n  skipped-test:\n    severity: loud\n", "p").is_err());
        assert!(parse("- a\n- b\n", "p").is_err());
        assert!(parse("ignore: [\"[\"]\n", "p").is_err());
        assert!(parse("fail-on: [unclosed\n", "p").is_err());
    }

    #[test]
    fn allow_entries_need_a_reason() {
        let error = parse("allow:\n  - rule: skipped-test\n", "p").unwrap_err();
        assert!(error.message.contains("reason"), "{error}");
        let error = parse("allow:\n  - rule: skipped-test\n    reason: \"  \"\n", "p").unwrap_err();
        assert!(error.message.contains("reason"), "{error}");
    }

    #[test]
    fn agent_policy_only_ever_tightens() {
        let text = "fail-on: warning\nrules:\n  skipped-test:\n    severity: error\n  focused-test:\n    severity: note\nagents:\n  fail-on: never\n  rules:\n    skipped-test:\n      severity: off\n    focused-test:\n      severity: error\n";
        let policy = parse(text, "p").unwrap().tightened_for_agents();
        assert_eq!(policy.fail_on, FailOn::AtLeast(Severity::Warning));
        assert_eq!(policy.rules["skipped-test"], Level::On(Severity::Error));
        assert_eq!(policy.rules["focused-test"], Level::On(Severity::Error));
        let stricter = parse("agents:\n  fail-on: note\n", "p")
            .unwrap()
            .tightened_for_agents();
        assert_eq!(stricter.fail_on, FailOn::AtLeast(Severity::Note));
    }

    #[test]
    fn policy_origins_label_and_serialise() {
        let sha = "c".repeat(40);
        let commit = PolicyOrigin::commit(&sha, ".integrity-gate.yml");
        assert_eq!(commit.label(), "cccccccccccc:.integrity-gate.yml");
        assert_eq!(
            serde_json::to_value(&commit).unwrap(),
            serde_json::json!({"source": sha, "path": ".integrity-gate.yml"})
        );
        let file = PolicyOrigin::file("/etc/gate.yml");
        assert_eq!(file.label(), "/etc/gate.yml");
        assert_eq!(
            serde_json::to_value(&file).unwrap(),
            serde_json::json!({"source": "file:/etc/gate.yml"})
        );
        assert_eq!(PolicyOrigin::default_policy().label(), "defaults");
        assert_eq!(Policy::default().source, PolicyOrigin::default_policy());
    }

    #[test]
    fn errors_give_positions_and_keys_never_values() {
        let value = "s3cr3t-value-from-the-file";
        for text in [
            format!("fail-on: [{value}\n"),
            format!("fail-on: {value}\n"),
            format!("rules:\n  skipped-test:\n    severity: {value}\n"),
            format!("ignore: [\"[{value}\"]\n"),
            format!("allow:\n  - rule: skipped-test\n    reason: r\n    paths: [\"[{value}\"]\n"),
        ] {
            let error = parse(&text, "p").unwrap_err();
            assert!(!error.message.contains("s3cr3t"), "{text}: {error}");
        }
        let error = parse("a: 1\nb: [\n", "p").unwrap_err();
        assert!(
            error.message.starts_with("invalid YAML at line "),
            "{error}"
        );
        let long = "k".repeat(100);
        let error = parse(&format!("{long}: 1\n"), "p").unwrap_err();
        assert!(!error.message.contains(&long), "{error}");
    }

    #[test]
    fn protected_entries_need_paths_and_a_reason() {
        let text = "protected:\n  - paths: [\"migrations/**\", .github/workflows]\n    reason: owners review schema changes\n";
        let policy = parse(text, "p").unwrap();
        let entry = &policy.protected[0];
        assert_eq!(entry.reason, "owners review schema changes");
        assert!(!entry.agents_only);
        assert_eq!(
            entry.matching_glob("migrations/0001_init.sql"),
            Some("migrations/**")
        );
        assert_eq!(
            entry.matching_glob(".github/workflows/ci.yml"),
            Some(".github/workflows")
        );
        assert_eq!(entry.matching_glob("src/migrations.rs"), None);
        for bad in [
            "protected:\n  - paths: [a]\n",
            "protected:\n  - reason: r\n",
            "protected:\n  - paths: []\n    reason: r\n",
            "protected:\n  - default\n",
            "protected:\n  - paths: [a]\n    reason: r\n    owner: me\n",
        ] {
            assert!(parse(bad, "p").is_err(), "{bad}");
        }
    }

    #[test]
    fn agent_protected_paths_apply_only_once_tightened() {
        let text = "agents:\n  protected:\n    - default\n    - paths: [infra]\n      reason: ops owns it\n";
        let policy = parse(text, "p").unwrap();
        assert!(policy.protected.is_empty());
        assert!(!policy.agent_authored);
        let tightened = policy.tightened_for_agents();
        assert!(tightened.agent_authored);
        assert_eq!(tightened.protected.len(), 2);
        assert!(tightened.protected.iter().all(|entry| entry.agents_only));
        let default = &tightened.protected[0];
        assert!(default.matching_glob("Cargo.lock").is_some());
        assert!(default.matching_glob("web/package-lock.json").is_some());
        assert!(default.matching_glob("db/migrations/0002.sql").is_some());
        assert!(default.matching_glob(".github/workflows/ci.yml").is_some());
        assert!(default.matching_glob("src/lib.rs").is_none());
        assert!(
            tightened.protected[1]
                .matching_glob("infra/main.tf")
                .is_some()
        );
    }

    #[test]
    fn mass_deletion_thresholds_are_options_of_that_rule_only() {
        let text = "rules:\n  mass-deletion:\n    max-files: 50\n    severity: error\nagents:\n  rules:\n    mass-deletion:\n      max-files: 10\n      max-lines: 300\n";
        let policy = parse(text, "p").unwrap();
        assert_eq!(policy.deletion.max_files, Some(50));
        assert_eq!(policy.deletion.max_lines, None);
        let tightened = policy.tightened_for_agents();
        assert_eq!(tightened.deletion.max_files, Some(10));
        assert_eq!(tightened.deletion.max_lines, Some(300));
        let error = parse("rules:\n  skipped-test:\n    max-files: 3\n", "p").unwrap_err();
        assert!(error.message.contains("skipped-test.max-files"), "{error}");
        let error = parse("rules:\n  mass-deletion:\n    max-file: 3\n", "p").unwrap_err();
        assert!(
            error.message.contains("did you mean `max-files`"),
            "{error}"
        );
        assert!(parse("rules:\n  mass-deletion:\n    max-lines: -1\n", "p").is_err());
        assert!(parse("rules:\n  mass-deletion:\n    max-lines: many\n", "p").is_err());
    }

    #[test]
    fn fail_on_blocks_at_and_above_the_threshold() {
        let fail_on = FailOn::AtLeast(Severity::Warning);
        assert!(fail_on.blocks(Severity::Error));
        assert!(fail_on.blocks(Severity::Warning));
        assert!(!fail_on.blocks(Severity::Note));
        assert!(!FailOn::Never.blocks(Severity::Error));
    }
}

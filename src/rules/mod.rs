//! The rule registry: every rule declared once, with everything user-facing derived from it.
//!
//! `integrity-gate rules`, `integrity-gate explain`, SARIF `rules[]` and the README table all read
//! [`ALL_RULES`]. A rule module holds its declaration (id, default severity, languages, summary,
//! documentation) and its check. Rules see a [`FileContext`] and emit [`Candidate`]s; the engine
//! turns candidates into findings (policy, suppressions, snippets). Rules never print or exit.

pub mod aliases;
mod assertions;
pub mod collection;
mod commented_out_validation;
mod comments;
mod condition;
mod context;
mod deleted_test;
mod disabled_check;
mod empty_catch;
mod fitted;
mod focused_test;
mod gate_config_change;
mod harness_switch;
mod inheritance;
mod inherited_suites;
pub mod inventory;
mod leaked_secret;
pub mod likeness;
mod logged_secret;
pub(crate) mod markers;
mod mass_deletion;
pub mod new_dependency;
mod protected_path;
mod skipped_test;
pub mod subjects;
mod todo_stub;
mod tolerances;
mod unbacked_claim;
mod unreadable_change;
mod unsafe_operation;
mod validation_cast;
mod weakened_assertion;
mod weakened_coverage;
mod weakened_security;

pub(crate) use disabled_check::fill_tsconfig_extends;
pub use fitted::{RELATED_TEST_MAX_BYTES, related_tests};
pub use gate_config_change::POLICY_PATH;
pub(crate) use todo_stub::is_test_path;
pub use unbacked_claim::UNBACKED_CLAIM;
pub use unreadable_change::{UNREADABLE_CHANGE, over_budget};

pub use condition::{Truth, evaluate};
pub use context::{Candidate, Fact, FactRef, FileContext, Moved, Output, SideText};

use crate::changeset::FilePair;
use crate::finding::Severity;
use crate::lang::Language;

/// How a rule looks at a change (design.md §1.2: four engines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// tree-sitter queries over both sides of a source file.
    Query,
    /// Structured comparison of manifests and configuration files.
    Manifest,
    /// Patterns over the lines the change added.
    Lines,
    /// Paths and statuses of the changed files.
    FileSet,
}

impl Engine {
    /// Lower-case name for listings.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Query => "query",
            Engine::Manifest => "manifest",
            Engine::Lines => "lines",
            Engine::FileSet => "fileset",
        }
    }
}

/// Whether a rule's detection is built yet. A planned rule is listed so that the contract's ids
/// are all visible, but it never reports anything and says so in `rules` and `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maturity {
    /// Detection implemented and covered by fixtures.
    Stable,
    /// Declared in the contract, detection not implemented yet.
    Planned,
}

/// A rule's per-file check.
pub type FileCheck = fn(&FileContext<'_>, &mut Output);

/// A rule's change-level check, which sees every analysed pair at once (a coverage threshold
/// moved from one file to another is judged by value, not as a removal).
pub type ChangeCheck = fn(&ChangeInput<'_>, &mut ChangeOutput);

/// What a change-level check reads: every analysed pair, and what the rule's own per-file check
/// handed over from each file ([`Output::handoffs`]), so a judgement that needs two files (a
/// test moved to another file and weakened there) is made once both have been read, without
/// parsing either again.
pub struct ChangeInput<'a> {
    /// The analysed pairs; candidates refer to them by index.
    pub pairs: &'a [&'a FilePair],
    /// (pair index, hand-off) for every hand-off of this rule, in pair order.
    pub handoffs: Vec<(usize, &'a (dyn std::any::Any + Send))>,
    /// Whose manifests the changed ones are (the project's, or test-fixture copies).
    pub workspaces: &'a crate::workspace::Workspaces,
    /// The policy (`protected:` entries, rule options, whether the change is agent-authored).
    pub policy: &'a crate::config::Policy,
    /// The top-level entries of head ([`crate::changeset::ChangeSet::head_top_level`]).
    pub head_top_level: Option<&'a std::collections::BTreeSet<String>>,
    /// Tests of the changed files that the change does not touch
    /// ([`crate::changeset::ChangeSet::related_tests`]).
    pub related_tests: &'a [(String, String)],
}

/// What a change-level check produces.
#[derive(Debug, Default)]
pub struct ChangeOutput {
    /// Proposed findings, each with the index of its pair.
    pub candidates: Vec<(usize, Candidate)>,
    /// Conditions that limited the check (a config that no longer parses).
    pub notes: Vec<crate::finding::Note>,
}

/// One rule, declared once.
pub struct Rule {
    /// Stable kebab-case id from the contract.
    pub id: &'static str,
    /// Severity unless the policy overrides it (a check may emit lower severities for weaker
    /// evidence; the policy then replaces the rule's severity for all of them).
    pub severity: Severity,
    /// How the rule looks at the change.
    pub engine: Engine,
    /// Languages with syntax queries; empty for rules that read config files or paths.
    pub languages: &'static [Language],
    /// One line for `rules` and SARIF `shortDescription`.
    pub summary: &'static str,
    /// Markdown documentation with the headings in [`DOC_HEADINGS`].
    pub docs: &'static str,
    /// Whether detection exists yet.
    pub maturity: Maturity,
    /// The per-file check, run on every changed file pair that is not ignored.
    pub check: Option<FileCheck>,
    /// The change-level check, run once over all pairs that are not ignored.
    pub change_check: Option<ChangeCheck>,
    /// For rules whose candidate keys name tests: what many findings in one file are, said
    /// once (`tests deleted from this file`), so the aggregate lists the tests by name.
    pub group: Option<&'static str>,
}

/// Headings every rule's documentation must have, in this order.
pub const DOC_HEADINGS: &[&str] = &[
    "## What it flags",
    "## Why it matters",
    "## Example",
    "## Not flagged",
    "## Configuration",
];

impl Rule {
    /// The documentation with the one leading space of each `///` line removed.
    pub fn docs_markdown(&self) -> String {
        let mut out = String::new();
        for line in self.docs.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// Language names joined for listings; rules without per-language queries read any file.
    pub fn languages_label(&self) -> String {
        if self.languages.is_empty() {
            return "any file (by path and content)".to_string();
        }
        self.languages
            .iter()
            .map(|language| language.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Declares a rule; doc comments become its documentation (clippy's `declare_clippy_lint!`).
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub static $name:ident = {
            id: $id:literal,
            severity: $severity:ident,
            engine: $engine:ident,
            languages: [$($language:ident),* $(,)?],
            summary: $summary:literal,
            maturity: $maturity:ident,
            check: $check:expr
            $(, change_check: $change:expr)?
            $(, group: $group:literal)? $(,)?
        }
    ) => {
        /// The rule's declaration; see its `docs`.
        pub static $name: $crate::rules::Rule = $crate::rules::Rule {
            id: $id,
            severity: $crate::finding::Severity::$severity,
            engine: $crate::rules::Engine::$engine,
            languages: &[$($crate::lang::Language::$language),*],
            summary: $summary,
            docs: concat!($($doc, "\n"),*),
            maturity: $crate::rules::Maturity::$maturity,
            check: $check,
            change_check: declare_rule!(@option $($change)?),
            group: declare_rule!(@option $($group)?),
        };
    };
    (@option) => { None };
    (@option $change:expr) => { Some($change) };
}
pub(crate) use declare_rule;

/// Every rule, sorted by id.
pub static ALL_RULES: &[&Rule] = &[
    &commented_out_validation::COMMENTED_OUT_VALIDATION,
    &deleted_test::DELETED_TEST,
    &disabled_check::DISABLED_CHECK,
    &empty_catch::EMPTY_CATCH,
    &focused_test::FOCUSED_TEST,
    &gate_config_change::GATE_CONFIG_CHANGE,
    &leaked_secret::LEAKED_SECRET,
    &logged_secret::LOGGED_SECRET,
    &mass_deletion::MASS_DELETION,
    &new_dependency::NEW_DEPENDENCY,
    &protected_path::PROTECTED_PATH,
    &skipped_test::SKIPPED_TEST,
    &fitted::TEST_FITTED_CODE,
    &todo_stub::TODO_STUB,
    &unbacked_claim::UNBACKED_CLAIM,
    &unreadable_change::UNREADABLE_CHANGE,
    &unsafe_operation::UNSAFE_OPERATION,
    &weakened_assertion::WEAKENED_ASSERTION,
    &weakened_coverage::WEAKENED_COVERAGE,
    &weakened_security::WEAKENED_SECURITY,
];

/// Looks a rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    ALL_RULES.iter().copied().find(|rule| rule.id == id)
}

/// The rule ids closest to `id` by edit distance, best first, for "did you mean" hints.
pub fn nearest_ids(id: &str) -> Vec<&'static str> {
    crate::text::nearest(id, ALL_RULES.iter().map(|rule| rule.id), 3)
}

#[cfg(test)]
mod tests;

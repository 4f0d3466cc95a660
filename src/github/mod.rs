//! The GitHub side of integrity-gate: everything `integrity-gate github`, the composite action,
//! the pre-push hook and the pre-commit hook need, and nothing of the analysis itself.
//!
//! Flow for `integrity-gate github`: [`event::read`] turns the event payload into an
//! [`event::EventPlan`] (which commits, which commit gets the check, fork or not, agent or
//! not); [`fetch::ensure_commits`] makes the commits and their merge-base present in a shallow
//! checkout; the caller analyses; [`run::deliver`] publishes the [`crate::engine::Report`] as a check
//! run ([`checks`]) or, when the token cannot write checks, as workflow commands
//! ([`commands`]), and always as a job summary ([`summary`]) and step outputs ([`outputs`]).
//! This module is the only one that touches the network; it never prints (log text goes to a
//! writer passed in) and never exits. [`crate::hook`] is the local counterpart for `git push`.

pub mod agent;
pub mod checks;
pub mod commands;
pub mod event;
pub mod fetch;
pub mod model;
pub mod outputs;
pub mod relay;
pub mod run;
pub mod summary;

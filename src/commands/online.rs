//! `--online`: asks the package registries about each new dependency (a name that does not
//! exist is a hallucinated package; one published days ago is suspicious). Kept out of the
//! engine so that analysis itself never touches the network.
//!
//! The registries' addresses can be changed with `INTEGRITY_GATE_CRATES_URL`,
//! `INTEGRITY_GATE_PYPI_URL` and `INTEGRITY_GATE_NPM_URL` (mirrors, and the tests' local server).

use crate::changeset::ChangeSet;
use crate::config::Policy;
use crate::deps::{self, HttpRegistryClient, RegistryClient};
use crate::engine::{self, Report};
use crate::rules::new_dependency::{NEW_DEPENDENCY, candidate};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Looks every new registry dependency up and adds what the registries said to `report`.
pub fn check(report: &mut Report, change: &ChangeSet, policy: &Policy) {
    let base = |key: &str, default: &str| {
        std::env::var(key)
            .ok()
            .filter(|value| !value.is_empty())
            .unwrap_or_else(|| default.to_string())
    };
    let client = HttpRegistryClient::with_bases(
        &base("INTEGRITY_GATE_CRATES_URL", "https://crates.io"),
        &base("INTEGRITY_GATE_PYPI_URL", "https://pypi.org"),
        &base("INTEGRITY_GATE_NPM_URL", "https://registry.npmjs.org"),
        Duration::from_secs(10),
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default();
    let candidates = lookups(&client, change, policy, now);
    engine::append(report, change, policy, &NEW_DEPENDENCY, candidates);
}

fn lookups(
    client: &dyn RegistryClient,
    change: &ChangeSet,
    policy: &Policy,
    now: i64,
) -> Vec<(usize, crate::rules::Candidate)> {
    let mut candidates = Vec::new();
    let workspaces = engine::workspaces(change);
    for (index, pair) in change.files.iter().enumerate() {
        let path = pair.path();
        // A test-fixture copy's packages are not the project's: nothing installs them, and
        // its workspace-local names are unknown to the registry by design.
        if policy.is_ignored(path)
            || workspaces.ownership(path) == crate::workspace::Ownership::FixtureCopy
        {
            continue;
        }
        let Some(kind) = deps::manifest_kind(path).filter(|kind| !kind.is_lockfile()) else {
            continue;
        };
        let Ok(new) = deps::new_dependencies(kind, path, pair.base.text(), pair.head.text()) else {
            continue;
        };
        for finding in deps::online_findings(client, &new, path, now) {
            candidates.push((index, candidate(finding)));
        }
    }
    candidates
}

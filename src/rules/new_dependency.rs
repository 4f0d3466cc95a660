//! `new-dependency`: a dependency added to a manifest, with git/URL sources, install scripts,
//! new index URLs and likely typosquats raised to errors. The detection core is
//! [`crate::deps`]; this rule feeds it every manifest and lockfile of the change at once, so
//! that lockfile growth is only reported when no manifest next to it changed.

use super::context::Candidate;
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::deps::{self, DependencyFinding};
use crate::finding::{Note, Severity, Side};
use crate::workspace::Ownership;

declare_rule! {
    /// ## What it flags
    /// Every dependency the change adds to a manifest: Cargo.toml (all dependency tables,
    /// target-specific ones, `[workspace.dependencies]`, `[patch]`), package.json
    /// (dependencies, dev-, optional-, peer-, overrides), pyproject.toml (PEP 621, PEP 735
    /// groups, poetry, `build-system.requires`, uv sources), `requirements*.txt` and
    /// `constraints*.txt`, Pipfile, setup.cfg `install_requires`/`extras_require`, setup.py (the
    /// literal lists of `install_requires=`, `setup_requires=`, `tests_require=`,
    /// `extras_require={...}`, also through a module-level name such as `REQUIRES = [...]`),
    /// go.mod `require`, and registry configs (`.npmrc`, `pip.conf`, `.cargo/config.toml`).
    ///
    /// - A new registry dependency is a `note`: a reviewer should see it.
    /// - A git, URL or out-of-repository path source, an alternate registry, a new index URL, or
    ///   a new or changed `preinstall`/`install`/`postinstall`/`prepare` script is an `error`.
    /// - A name within a small edit distance of a popular package that is not itself popular
    ///   (bundled lists of the most used PyPI, npm and crates.io names), or a popular name with
    ///   an affix (`python-requests`, `lodash-js`), is an `error` with "did you mean …?".
    /// - A lockfile that gains packages while no manifest next to it changed is a `warning`.
    /// - A package base already locked whose `resolved` URL (package-lock.json, yarn.lock),
    ///   pnpm `tarball`/`repo`, or `source` (Cargo.lock, uv.lock, poetry.lock) moves to another
    ///   host, another registry index or a git repository is an `error`, manifest change or not:
    ///   same name and version, other code.
    /// - With `--online`, a name the registry does not know (a hallucinated package) is an
    ///   `error`, one first published less than 30 days ago a `warning`.
    /// ## Why it matters
    /// Agents add packages freely, sometimes names that do not exist; attackers register such
    /// names (slopsquatting) and typos of popular ones. A dependency is code that runs in CI and
    /// in production.
    /// ## Example
    /// Fires: `reqeusts==2.31` added to `requirements.txt` ("did you mean `requests`?");
    /// `"left-pad": "github:someone/left-pad"` added to package.json.
    /// ## Not flagged
    /// - A name within look-alike distance of a popular one that the registry lists show to be
    ///   an established project of its own (`toronado` next to `tornado`) is a plain new
    ///   dependency, not a typosquat.
    /// - Test-fixture copies of other projects' manifests (a file two or more directories below
    ///   `test/`, `tests/`, `__tests__/` or `spec/`, or anywhere below `fixtures/`, `testdata/`
    ///   and the like) that no workspace of the project takes in: their registry packages,
    ///   local paths and lockfile growth are not reported (the report's notes list them), and
    ///   what would be an error is a note "in a test fixture manifest"; only a lifecycle script
    ///   that fetches or decodes code stays an error. A private test-fixture app that the
    ///   workspace installs may run one plain tool (`"prepare": "svelte-kit sync"`) on install.
    ///   A fixture-looking manifest that a workspace (package.json `workspaces`,
    ///   pnpm-workspace.yaml, lerna.json, Cargo `[workspace] members`, uv workspace members) or
    ///   a path dependency takes in is the project's and judged in full.
    /// - Version bumps (also in lockfiles, on the same registry host), removals, reordering,
    ///   comments, and a dependency moved between sections. Names are compared normalised
    ///   (PEP 503 for Python).
    /// ## Configuration
    /// `rules.new-dependency.severity` (replaces every level above); `allow:` entries with
    /// `paths` for vendored manifests.
    pub static NEW_DEPENDENCY = {
        id: "new-dependency",
        severity: Note,
        engine: Manifest,
        languages: [],
        summary: "a dependency is added to a manifest; git/URL sources and likely typosquats are errors",
        maturity: Stable,
        check: None,
        change_check: manifests,
    }
}

fn manifests(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let pairs = input.pairs;
    let changed: Vec<&str> = pairs
        .iter()
        .flat_map(|pair| [pair.old_path.as_deref(), pair.new_path.as_deref()])
        .flatten()
        .collect();
    for (index, pair) in pairs.iter().enumerate() {
        let Some(kind) = deps::manifest_kind(pair.path()) else {
            continue;
        };
        let base = pair.base.text();
        let head = pair.head.text();
        let ownership = input.workspaces.ownership(pair.path());
        if ownership == Ownership::FixtureCopy {
            out.notes
                .extend(fixture_copy_note(kind, pair.path(), base, head));
        }
        match deps::compare_in_change(kind, pair.path(), base, head, &changed, ownership) {
            Ok(findings) => out.candidates.extend(
                findings
                    .into_iter()
                    .map(|finding| (index, candidate(finding))),
            ),
            // Fail closed: a manifest that parsed in base and no longer does hides whatever
            // the change did to its dependencies.
            Err(message) if base.is_some_and(|base| parses(kind, pair.path(), base)) => {
                out.candidates.push((
                    index,
                    Candidate::at_line(
                        Side::Head,
                        1,
                        Severity::Error,
                        format!(
                            "the manifest no longer parses, so its dependencies cannot be checked: {message}"
                        ),
                        "unparsed-manifest".to_string(),
                    ),
                ));
            }
            Err(message) => out.notes.push(Note {
                path: pair.path().to_string(),
                message: format!("dependencies not checked: {message}"),
            }),
        }
    }
}

/// What a test-fixture copy's new registry dependencies were, since they are not findings.
fn fixture_copy_note(
    kind: deps::ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
) -> Option<Note> {
    let added = deps::new_dependencies(kind, path, base, head).ok()?;
    let names: Vec<String> = added
        .iter()
        .filter(|dependency| dependency.source == deps::Source::Registry)
        .map(|dependency| format!("`{}`", dependency.declared_name))
        .collect();
    let (first, rest) = names.split_at(names.len().min(5));
    let more = if rest.is_empty() {
        String::new()
    } else {
        format!(" and {} more", rest.len())
    };
    (!first.is_empty()).then(|| Note {
        path: path.to_string(),
        message: format!(
            "new registry dependencies of a test fixture manifest that no workspace of the \
             project takes in, not reported: {}{more}",
            first.join(", ")
        ),
    })
}

/// Whether `text` reads as a manifest of `kind`.
fn parses(kind: deps::ManifestKind, path: &str, text: &str) -> bool {
    deps::compare(kind, path, None, Some(text)).is_ok()
}

/// Maps a detection to a candidate on the head side.
pub fn candidate(finding: DependencyFinding) -> Candidate {
    let severity = match finding.severity {
        deps::Severity::Error => Severity::Error,
        deps::Severity::Warning => Severity::Warning,
        deps::Severity::Note => Severity::Note,
    };
    let key = match &finding.dependency {
        Some(dependency) => format!("{}:{}", finding.kind, dependency.name),
        None => format!("{}:{}", finding.kind, finding.message),
    };
    Candidate {
        side: Side::Head,
        line: finding.line.max(1),
        end_line: finding.end_line.max(finding.line).max(1),
        severity,
        message: finding.message,
        key,
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    }
}

//! Detection core of the `new-dependency` rule: it sits in the Manifest engine, after the git
//! stage has read one changed manifest or lockfile at base and at head, and before the engine turns
//! results into `Finding`s. It parses both texts, works out which dependencies, package sources,
//! index URLs and install scripts the change *introduces*, and judges each one (registry package →
//! note; git/URL/out-of-tree path source, new index, new install script or look-alike name →
//! error; lockfile growth without a manifest change → warning; a locked package's `resolved`/`source`
//! moved to another host or a git repository → error). It never reads files, runs git or
//! touches the network by itself: the optional registry look-up lives behind [`RegistryClient`].
//!
//! Decisions the rest of the gate relies on:
//! - Version bumps, removals, reordering, comment and whitespace edits are silent. A dependency is
//!   identified by ecosystem and normalised name, so moving it between sections (dev → normal,
//!   into a target table, into an optional group) is silent too: it was already reviewed when it
//!   entered the manifest. Changing where it comes from (registry → git, URL or path, another
//!   registry, a `[patch]`/`replace`/`tool.uv.sources` override) is reported like a new source.
//! - A parse error in head is returned as `Err` (the engine shows it as a note). A parse error in
//!   base makes base count as empty, so everything in head is reported: the gate cannot prove a
//!   dependency was there before, and a broken base is rare and visible.
//! - `workspace = true` (Cargo) and `workspace:` (npm/pnpm/yarn) entries only point at a package the
//!   workspace root already declares; the root's own manifest reports it when it is new there.
//! - Path sources that stay inside the repository are notes (`path-source`): that code is part of
//!   the change under review. A path that leaves the repository (absolute, `~`, or `..` past the
//!   root) is an error, as is every git and URL source.
//! - A test-fixture copy of another project's manifest ([`crate::workspace::Ownership`]) is not
//!   the project's dependency set: its notes are dropped and its errors become notes, except a
//!   lifecycle script that fetches or decodes code. The engine decides ownership; this module only
//!   applies it ([`compare_owned`]).

mod cargo;
mod golang;
mod lines;
mod lock_sources;
mod lockfile;
mod npm;
mod online;
mod python;
mod scripts;
mod setup_py;
mod typosquat;

use std::collections::BTreeSet;

use crate::workspace::Ownership;
use scripts::ScriptShape;

pub use lockfile::lockfile_manifest_changed;

pub use online::HttpRegistryClient;
pub use online::{
    PackageInfo, RegistryClient, YOUNG_PACKAGE_DAYS, first_published, online_findings,
    parse_timestamp, registry_name, registry_path,
};
pub use typosquat::{TyposquatHint, typosquat};

/// Package ecosystem a dependency belongs to; decides name normalisation and the popular list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ecosystem {
    /// crates.io / Cargo.
    Cargo,
    /// The npm registry (package.json and its lockfiles).
    Npm,
    /// PyPI (pyproject.toml, requirements files, Pipfile, setup.cfg).
    PyPI,
    /// Go modules (go.mod).
    Go,
}

impl Ecosystem {
    /// Human name of the default registry, used in messages.
    pub fn registry_label(self) -> &'static str {
        match self {
            Ecosystem::Cargo => "crates.io",
            Ecosystem::Npm => "npm",
            Ecosystem::PyPI => "PyPI",
            Ecosystem::Go => "the Go module proxy",
        }
    }
}

/// Where a dependency is fetched from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The ecosystem's default registry.
    Registry,
    /// A named or explicit registry other than the default (Cargo `registry = "…"`,
    /// `registry-index`); the value is the name or URL as written.
    AlternateRegistry(String),
    /// A git repository; the URL as written, without revision, branch or tag (those are the spec).
    Git(String),
    /// A direct download URL (tarball, wheel, sdist).
    Url(String),
    /// A local path as written in the manifest.
    Path(String),
}

/// One dependency as declared in a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// Ecosystem of the manifest that declares it.
    pub ecosystem: Ecosystem,
    /// Normalised package name (PEP 503 for PyPI, lowercase for npm and crates; Go as written).
    /// For renamed/aliased dependencies this is the real package name, not the local alias.
    pub name: String,
    /// The name as written in the manifest (the real package name for aliases), for messages.
    pub declared_name: String,
    /// Version requirement, git revision or path as written; may be empty.
    pub spec: String,
    /// Manifest section, e.g. `dependencies`, `target.'cfg(unix)'.dev-dependencies`,
    /// `project.optional-dependencies.test`, `devDependencies`, `require`.
    pub section: String,
    /// Where the package comes from.
    pub source: Source,
    /// 1-based line in the head text where the name appears, best effort; 0 = unknown.
    pub line: u32,
}

/// File kinds the rule understands, recognised by file name (see [`manifest_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManifestKind {
    /// `Cargo.toml`
    CargoToml,
    /// `package.json`
    PackageJson,
    /// `pyproject.toml`
    PyProject,
    /// `requirements*.txt`, `constraints*.txt`, `*requirements.txt`, `requirements*.in`,
    /// any `.txt`/`.in` inside a `requirements/` directory.
    Requirements,
    /// `Pipfile`
    Pipfile,
    /// `setup.cfg`
    SetupCfg,
    /// `setup.py`: the literal requirement lists of its `setup()` call
    SetupPy,
    /// `go.mod`
    GoMod,
    /// Package-manager configuration that can redirect installs to another index:
    /// `.npmrc`, `.yarnrc`, `.yarnrc.yml`, `pip.conf`, `pip.ini`, `.cargo/config(.toml)`.
    RegistryConfig,
    /// `Cargo.lock`
    CargoLock,
    /// `package-lock.json`, `npm-shrinkwrap.json`
    PackageLock,
    /// `yarn.lock`
    YarnLock,
    /// `pnpm-lock.yaml`
    PnpmLock,
    /// `poetry.lock`
    PoetryLock,
    /// `uv.lock`
    UvLock,
    /// `pdm.lock`
    PdmLock,
    /// `Pipfile.lock`
    PipfileLock,
    /// `go.sum`
    GoSum,
}

impl ManifestKind {
    /// True for lockfiles, whose findings depend on whether a manifest changed too.
    pub fn is_lockfile(self) -> bool {
        matches!(
            self,
            ManifestKind::CargoLock
                | ManifestKind::PackageLock
                | ManifestKind::YarnLock
                | ManifestKind::PnpmLock
                | ManifestKind::PoetryLock
                | ManifestKind::UvLock
                | ManifestKind::PdmLock
                | ManifestKind::PipfileLock
                | ManifestKind::GoSum
        )
    }

    /// Ecosystem whose packages this file lists (`RegistryConfig` has none of its own).
    pub fn ecosystem(self) -> Option<Ecosystem> {
        match self {
            ManifestKind::CargoToml | ManifestKind::CargoLock => Some(Ecosystem::Cargo),
            ManifestKind::PackageJson
            | ManifestKind::PackageLock
            | ManifestKind::YarnLock
            | ManifestKind::PnpmLock => Some(Ecosystem::Npm),
            ManifestKind::PyProject
            | ManifestKind::Requirements
            | ManifestKind::Pipfile
            | ManifestKind::SetupCfg
            | ManifestKind::SetupPy
            | ManifestKind::PoetryLock
            | ManifestKind::UvLock
            | ManifestKind::PdmLock
            | ManifestKind::PipfileLock => Some(Ecosystem::PyPI),
            ManifestKind::GoMod | ManifestKind::GoSum => Some(Ecosystem::Go),
            ManifestKind::RegistryConfig => None,
        }
    }
}

/// Recognise a manifest or lockfile from its repo-relative path (forward slashes).
///
/// Files under `node_modules/` are not recognised: they are installed packages, not the
/// project's manifests (committing them is a different problem).
pub fn manifest_kind(path: &str) -> Option<ManifestKind> {
    let path = path.trim_start_matches("./");
    if path.split('/').any(|c| c == "node_modules") {
        return None;
    }
    let (dir, file) = match path.rsplit_once('/') {
        Some((d, f)) => (d, f),
        None => ("", path),
    };
    let parent = dir.rsplit('/').next().unwrap_or("");
    let kind = match file {
        "Cargo.toml" => ManifestKind::CargoToml,
        "package.json" => ManifestKind::PackageJson,
        "pyproject.toml" => ManifestKind::PyProject,
        "Pipfile" => ManifestKind::Pipfile,
        "setup.cfg" => ManifestKind::SetupCfg,
        "setup.py" => ManifestKind::SetupPy,
        "go.mod" => ManifestKind::GoMod,
        "Cargo.lock" => ManifestKind::CargoLock,
        "package-lock.json" | "npm-shrinkwrap.json" => ManifestKind::PackageLock,
        "yarn.lock" => ManifestKind::YarnLock,
        "pnpm-lock.yaml" => ManifestKind::PnpmLock,
        "poetry.lock" => ManifestKind::PoetryLock,
        "uv.lock" => ManifestKind::UvLock,
        "pdm.lock" => ManifestKind::PdmLock,
        "Pipfile.lock" => ManifestKind::PipfileLock,
        "go.sum" => ManifestKind::GoSum,
        ".npmrc" | ".yarnrc" | ".yarnrc.yml" | "pip.conf" | "pip.ini" => {
            ManifestKind::RegistryConfig
        }
        "config" | "config.toml" if parent == ".cargo" => ManifestKind::RegistryConfig,
        _ => {
            let lower = file.to_ascii_lowercase();
            let is_txt = lower.ends_with(".txt");
            let is_in = lower.ends_with(".in");
            let named = (lower.starts_with("requirements") && (is_txt || is_in))
                || (lower.starts_with("constraints") && is_txt)
                || lower.ends_with("requirements.txt")
                || lower.ends_with("requirements.in");
            let in_req_dir = parent.eq_ignore_ascii_case("requirements") && (is_txt || is_in);
            if named || in_req_dir {
                ManifestKind::Requirements
            } else {
                return None;
            }
        }
    };
    Some(kind)
}

/// Severity of one finding; the engine maps it onto the contract's severities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth a reviewer's glance (a new registry package).
    Note,
    /// Suspicious but common (lockfile growth without a manifest change, a very young package).
    Warning,
    /// A supply-chain risk (non-registry source, new index, install script, look-alike name).
    Error,
}

/// One result of [`compare`]; the engine adds rule id, path and snippet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DependencyFinding {
    /// How serious the finding is.
    pub severity: Severity,
    /// 1-based first line in head (0 when unknown).
    pub line: u32,
    /// 1-based last line in head (0 when unknown).
    pub end_line: u32,
    /// One sentence for people, naming the package, the file and what is wrong.
    pub message: String,
    /// Machine-readable category: `registry`, `git-source`, `url-source`, `path-source`,
    /// `alternate-registry`, `typosquat`, `install-script`, `index-url`, `include`,
    /// `lockfile-only`, `source-moved`, `unknown-package`, `new-package`, `online-error`.
    pub kind: &'static str,
    /// The dependency this finding is about, when there is one (lets the engine run
    /// [`online_findings`] on exactly the new registry packages).
    pub dependency: Option<Dependency>,
}

/// A package index, registry or find-links location a manifest points installs at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexRef {
    /// The option or key that sets it (`--extra-index-url`, `[[tool.uv.index]]`, `registry`).
    pub key: String,
    /// URL or path as written.
    pub url: String,
    pub line: u32,
}

/// A lifecycle script that runs on install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InstallScript {
    pub name: String,
    pub command: String,
    pub line: u32,
}

/// A requirements file pulled in by `-r`/`-c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Include {
    pub option: String,
    pub target: String,
    pub line: u32,
}

/// Everything the rule extracts from one manifest text.
#[derive(Debug, Default, Clone)]
pub(crate) struct Extract {
    pub deps: Vec<Dependency>,
    pub indexes: Vec<IndexRef>,
    pub scripts: Vec<InstallScript>,
    pub includes: Vec<Include>,
    /// package.json `"private": true`: the package is never published, so its lifecycle
    /// scripts only run in this repository's own installs.
    pub private: bool,
}

fn extract(kind: ManifestKind, path: &str, text: &str) -> Result<Extract, String> {
    match kind {
        ManifestKind::CargoToml => cargo::extract(text),
        ManifestKind::PackageJson => npm::extract(text),
        ManifestKind::PyProject => python::extract_pyproject(text),
        ManifestKind::Requirements => Ok(python::extract_requirements(text)),
        ManifestKind::Pipfile => python::extract_pipfile(text),
        ManifestKind::SetupCfg => Ok(python::extract_setup_cfg(text)),
        ManifestKind::SetupPy => Ok(setup_py::extract(text)),
        ManifestKind::GoMod => Ok(golang::extract(text)),
        ManifestKind::RegistryConfig => Ok(lockfile::extract_registry_config(path, text)),
        _ => Ok(Extract::default()),
    }
}

/// Local path dependencies of a manifest as written (`file:` and `link:` prefixes removed),
/// relative to the manifest's directory; empty when the text does not parse.
pub fn local_paths(kind: ManifestKind, path: &str, text: &str) -> Vec<String> {
    let Ok(x) = extract(kind, path, text) else {
        return Vec::new();
    };
    x.deps
        .into_iter()
        .filter_map(|dep| match dep.source {
            Source::Path(p) => {
                let p = p.trim();
                let p = p.strip_prefix("file://").unwrap_or(p);
                let p = p.strip_prefix("file:").unwrap_or(p);
                Some(p.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The dependencies that head introduces relative to base (new names, or a new non-registry
/// source for a known name), after the rules in the module docs. Errors as for [`compare`].
pub fn new_dependencies(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
) -> Result<Vec<Dependency>, String> {
    let Some(head) = head else {
        return Ok(Vec::new());
    };
    let head_x = extract(kind, path, head)?;
    let base_x = base
        .and_then(|b| extract(kind, path, b).ok())
        .unwrap_or_default();
    Ok(introduced_deps(&base_x, &head_x))
}

fn introduced_deps(base: &Extract, head: &Extract) -> Vec<Dependency> {
    let mut seen: BTreeSet<(Ecosystem, String, Source)> = BTreeSet::new();
    let mut out = Vec::new();
    for dep in &head.deps {
        let known: Vec<&Dependency> = base
            .deps
            .iter()
            .filter(|b| b.ecosystem == dep.ecosystem && b.name == dep.name)
            .collect();
        let introduced = if known.is_empty() {
            true
        } else {
            dep.source != Source::Registry && !known.iter().any(|b| b.source == dep.source)
        };
        if introduced && seen.insert((dep.ecosystem, dep.name.clone(), dep.source.clone())) {
            out.push(dep.clone());
        }
    }
    out
}

/// Compare base and head of one manifest or lockfile and report what the change introduces.
///
/// `base` is `None` for an added file, `head` is `None` for a deleted one (nothing to report).
/// A head that does not parse gives `Err(message)`; a base that does not parse counts as empty.
/// For lockfiles this reports growth unconditionally; use [`compare_in_change`] (or
/// [`lockfile_manifest_changed`]) to drop it when a manifest next to the lockfile changed too.
pub fn compare(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
) -> Result<Vec<DependencyFinding>, String> {
    compare_owned(kind, path, base, head, Ownership::Project)
}

/// [`compare`] for a file of the given [`Ownership`]. A test-fixture copy's dependency set is
/// not the project's: what would be a note there (a registry package, a local path, lockfile
/// growth) is dropped, and what would be an error becomes a note that says where it is. A
/// lifecycle script is judged by what its command can do ([`script_severity`]).
pub fn compare_owned(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
    ownership: Ownership,
) -> Result<Vec<DependencyFinding>, String> {
    let out = compare_unfiltered(kind, path, base, head, ownership)?;
    Ok(match ownership {
        Ownership::FixtureCopy => out.into_iter().filter_map(as_fixture_copy).collect(),
        Ownership::Project | Ownership::FixtureMember => out,
    })
}

/// What a finding in a test-fixture copy becomes; install scripts are already judged.
fn as_fixture_copy(mut finding: DependencyFinding) -> Option<DependencyFinding> {
    if finding.kind == "install-script" {
        return Some(finding);
    }
    if finding.severity == Severity::Note || finding.kind == "lockfile-only" {
        return None;
    }
    finding.severity = Severity::Note;
    finding.message.push_str(FIXTURE_COPY_SUFFIX);
    Some(finding)
}

const FIXTURE_COPY_SUFFIX: &str =
    ", in a test fixture manifest that no workspace of the project takes in";

/// Severity of a new or changed lifecycle script, and what to add to its message; `None` when
/// it is not worth a finding. Scripts of the project's own manifests are errors. A private app
/// in a test-fixture directory that the workspace installs (one app per test case, each with
/// its framework's `prepare`) may run a plain tool command; a test-fixture copy that nothing
/// installs may run anything but network code, shown as a note when the gate cannot read it.
fn script_severity(
    ownership: Ownership,
    private: bool,
    command: &str,
) -> Option<(Severity, &'static str)> {
    let shape = scripts::shape(command);
    match ownership {
        Ownership::Project => Some((Severity::Error, "")),
        Ownership::FixtureMember if private && shape == ScriptShape::Plain => None,
        Ownership::FixtureMember => Some((Severity::Error, "")),
        Ownership::FixtureCopy => match shape {
            ScriptShape::Plain => None,
            ScriptShape::Opaque => Some((Severity::Note, FIXTURE_COPY_SUFFIX)),
            ScriptShape::Remote => Some((Severity::Error, "")),
        },
    }
}

fn compare_unfiltered(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
    ownership: Ownership,
) -> Result<Vec<DependencyFinding>, String> {
    let Some(head) = head else {
        return Ok(Vec::new());
    };
    if kind.is_lockfile() {
        let mut out = lockfile::compare(kind, path, base, head)?;
        out.extend(lock_sources::moved(kind, path, base, head));
        return Ok(out);
    }
    let head_x = extract(kind, path, head)?;
    let base_x = base
        .and_then(|b| extract(kind, path, b).ok())
        .unwrap_or_default();
    let mut out = Vec::new();
    let file = file_label(path);
    for dep in introduced_deps(&base_x, &head_x) {
        let was_known = base_x
            .deps
            .iter()
            .any(|b| b.ecosystem == dep.ecosystem && b.name == dep.name);
        out.push(judge(&dep, path, file, was_known));
    }
    for idx in &head_x.indexes {
        let norm = normalise_url(&idx.url);
        if base_x.indexes.iter().any(|b| normalise_url(&b.url) == norm) {
            continue;
        }
        out.push(DependencyFinding {
            severity: Severity::Error,
            line: idx.line,
            end_line: idx.line,
            message: format!(
                "new package index `{}` ({} in {file}): installs may now resolve packages from it",
                idx.url, idx.key
            ),
            kind: "index-url",
            dependency: None,
        });
    }
    for script in &head_x.scripts {
        let before = base_x.scripts.iter().find(|b| b.name == script.name);
        if before.is_some_and(|b| b.command.trim() == script.command.trim()) {
            continue;
        }
        let Some((mut severity, suffix)) =
            script_severity(ownership, head_x.private, &script.command)
        else {
            continue;
        };
        let mut suffix = suffix.to_string();
        // `preconstruct dev && manypkg check` → `manypkg check` (changesets 75b3b80c): every
        // step of the new command ran on every install before.
        if before.is_some_and(|b| steps_ran_before(&b.command, &script.command)) {
            continue;
        }
        // `cf-typegen` → `WRANGLER_LOG=warn npm run --silent cf-typegen`: the hook already ran
        // this command on every install.
        if before.is_some_and(|b| same_command_but_quieter(&b.command, &script.command)) {
            severity = severity.min(Severity::Warning);
            suffix = format!(
                "{suffix} (the command it ran before, with other environment settings or flags)"
            );
        } else if before.is_some_and(|b| same_local_scripts(&b.command, &script.command)) {
            // `try{require('./config/scripts/postinstall')}catch(e){}` →
            // `import('./config/scripts/postinstall.js').catch(() => void 0)` (msw 6d3013c6).
            severity = severity.min(Severity::Warning);
            suffix = format!(
                "{suffix} (it runs the same repository scripts as before, called another way)"
            );
        }
        let message = format!(
            "{} `{}` script in {file}: `{}` runs on every install{suffix}",
            if before.is_some() { "changed" } else { "new" },
            script.name,
            shorten(&script.command)
        );
        out.push(DependencyFinding {
            severity,
            line: script.line,
            end_line: script.line,
            message,
            kind: "install-script",
            dependency: None,
        });
    }
    for inc in &head_x.includes {
        if base_x.includes.iter().any(|b| b.target == inc.target) {
            continue;
        }
        let remote = is_remote(&inc.target);
        out.push(DependencyFinding {
            severity: if remote {
                Severity::Error
            } else {
                Severity::Note
            },
            line: inc.line,
            end_line: inc.line,
            message: if remote {
                format!(
                    "{file} now pulls requirements from the URL `{}` ({}): their content is not in the repository",
                    inc.target, inc.option
                )
            } else {
                format!(
                    "{file} now includes `{}` ({}): its requirements apply here too",
                    inc.target, inc.option
                )
            },
            kind: if remote { "url-source" } else { "include" },
            dependency: None,
        });
    }
    out.sort_by(|a, b| a.line.cmp(&b.line).then_with(|| a.message.cmp(&b.message)));
    Ok(out)
}

/// [`compare`], with lockfile growth (not a package's moved source) dropped when `changed_paths` (every path the change
/// touches, repo-relative) contains a manifest that the lockfile belongs to.
pub fn compare_in_change(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
    changed_paths: &[&str],
    ownership: Ownership,
) -> Result<Vec<DependencyFinding>, String> {
    if kind.is_lockfile() && lockfile_manifest_changed(path, changed_paths) {
        // Growth is explained by the manifest; a package locked from a new place is not.
        let moved = head
            .map(|head| lock_sources::moved(kind, path, base, head))
            .unwrap_or_default();
        return Ok(match ownership {
            Ownership::FixtureCopy => moved.into_iter().filter_map(as_fixture_copy).collect(),
            Ownership::Project | Ownership::FixtureMember => moved,
        });
    }
    compare_owned(kind, path, base, head, ownership)
}

fn judge(dep: &Dependency, path: &str, file: &str, was_known: bool) -> DependencyFinding {
    let spec = if dep.spec.is_empty() {
        String::new()
    } else {
        format!(" {}", dep.spec)
    };
    let place = format!("{file} [{}]", dep.section);
    // A known name with a new source reads "dependency `x` (...) now comes from ...".
    let (subject, now) = if was_known {
        (format!("dependency `{}`", dep.declared_name), "now ")
    } else {
        (format!("new dependency `{}`{spec}", dep.declared_name), "")
    };
    let registry = dep.ecosystem.registry_label();
    let (severity, kind, mut message) = match &dep.source {
        Source::Registry => (
            Severity::Note,
            "registry",
            format!("{subject} ({place}) from {registry}"),
        ),
        Source::AlternateRegistry(r) => (
            Severity::Error,
            "alternate-registry",
            format!("{subject} ({place}) {now}comes from the registry `{r}`, not {registry}"),
        ),
        Source::Git(url) => (
            Severity::Error,
            "git-source",
            format!("{subject} ({place}) {now}comes from git `{url}`, bypassing {registry}"),
        ),
        Source::Url(url) => (
            Severity::Error,
            "url-source",
            format!("{subject} ({place}) {now}is downloaded from `{url}`, not from a registry"),
        ),
        Source::Path(p) => {
            if path_leaves_repo(path, p) {
                (
                    Severity::Error,
                    "path-source",
                    format!("{subject} ({place}) {now}comes from `{p}`, outside the repository"),
                )
            } else {
                (
                    Severity::Note,
                    "path-source",
                    format!("{subject} ({place}) {now}comes from the local path `{p}`"),
                )
            }
        }
    };
    let registry_like = matches!(dep.source, Source::Registry | Source::AlternateRegistry(_));
    let mut kind = kind;
    let mut severity = severity;
    if registry_like && let Some(hint) = typosquat(dep.ecosystem, &dep.name) {
        message.push_str(&format!(
            ": did you mean `{}`? ({})",
            hint.similar_to, hint.reason
        ));
        kind = "typosquat";
        severity = Severity::Error;
    }
    DependencyFinding {
        severity,
        line: dep.line,
        end_line: dep.line,
        message,
        kind,
        dependency: Some(dep.clone()),
    }
}

fn file_label(path: &str) -> &str {
    if path.is_empty() { "manifest" } else { path }
}

fn shorten(s: &str) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::secrets::shorten_redacted(&one_line, 80, "...")
}

/// Whether `after` runs the same command words as `before`, only with environment
/// assignments or flags added or removed (`WRANGLER_LOG=warn npm run --silent x` for
/// `npm run x`). Not when an assignment or flag can load other code (`NODE_OPTIONS=..`,
/// `--require=..`, `-e`).
/// Whether every step of `after` (split at `&&`, `||`, `;`) is a step `before` ran.
fn steps_ran_before(before: &str, after: &str) -> bool {
    let steps = |command: &str| -> Vec<String> {
        command
            .split("&&")
            .flat_map(|part| part.split("||"))
            .flat_map(|part| part.split(';'))
            .map(|step| step.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|step| !step.is_empty())
            .collect()
    };
    let old = steps(before);
    let new = steps(after);
    !new.is_empty() && new.iter().all(|step| old.contains(step))
}

/// Whether both commands run the same repository-local script files (`./scripts/x`, with or
/// without its extension) and `after` fetches nothing and pipes nothing.
fn same_local_scripts(before: &str, after: &str) -> bool {
    const FETCHES: &[&str] = &[
        "http:", "https:", "curl", "wget", "npx", "bunx", "dlx", "|", "`", "$(",
    ];
    if FETCHES.iter().any(|word| after.contains(word)) {
        return false;
    }
    let scripts = |command: &str| -> std::collections::BTreeSet<String> {
        command
            .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '/' | '_' | '-')))
            .filter(|word| word.starts_with("./") && word.len() > 2)
            .map(|word| {
                let word = word.trim_start_matches("./");
                match word.rsplit_once('.') {
                    Some((stem, "js" | "mjs" | "cjs" | "ts" | "sh" | "py")) => stem.to_string(),
                    _ => word.to_string(),
                }
            })
            .collect()
    };
    let old = scripts(before);
    !old.is_empty() && old == scripts(after)
}

fn same_command_but_quieter(before: &str, after: &str) -> bool {
    const LOADS_CODE: &[&str] = &[
        "NODE_OPTIONS",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "DYLD_INSERT_LIBRARIES",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "BASH_ENV",
        "ENV",
        "PERL5OPT",
        "RUBYOPT",
        "PATH",
        "--require",
        "-r",
        "--import",
        "--loader",
        "--experimental-loader",
        "-e",
        "--eval",
        "-c",
        "--config",
    ];
    let words = |command: &str| -> Option<Vec<String>> {
        let mut kept = Vec::new();
        for word in command.split_whitespace() {
            let name = word.split('=').next().unwrap_or(word);
            let assignment = word.contains('=')
                && !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if assignment || word.starts_with('-') {
                if LOADS_CODE.contains(&name) {
                    return None;
                }
                continue;
            }
            kept.push(word.to_string());
        }
        Some(kept)
    };
    match (words(before), words(after)) {
        (Some(before), Some(after)) => !after.is_empty() && before == after,
        _ => false,
    }
}

fn normalise_url(u: &str) -> String {
    u.trim().trim_end_matches('/').to_ascii_lowercase()
}

pub(crate) fn is_remote(s: &str) -> bool {
    let l = s.trim().to_ascii_lowercase();
    l.contains("://") && !l.starts_with("file:")
}

/// True when a local dependency path (relative to the manifest's directory) points outside
/// the repository: absolute paths, home-relative paths, or more `..` than the manifest is deep.
pub(crate) fn path_leaves_repo(manifest_path: &str, dep_path: &str) -> bool {
    let p = dep_path.trim();
    let p = p.strip_prefix("file://").unwrap_or(p);
    let p = p.strip_prefix("file:").unwrap_or(p);
    let p = p.replace('\\', "/");
    if p.starts_with('/') || p.starts_with('~') || p.starts_with('$') {
        return true;
    }
    if p.len() >= 2 && p.as_bytes()[1] == b':' {
        return true; // C:/...
    }
    let mut depth: i64 = manifest_path
        .trim_start_matches("./")
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .count() as i64
        - 1;
    for comp in p.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => depth += 1,
        }
    }
    false
}

/// PEP 503 normalisation: lowercase, runs of `-`, `_`, `.` become one `-`.
pub(crate) fn pep503(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if c == '-' || c == '_' || c == '.' {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Normalised name per ecosystem, as stored in [`Dependency::name`].
pub fn normalise_name(ecosystem: Ecosystem, name: &str) -> String {
    match ecosystem {
        Ecosystem::PyPI => pep503(name),
        Ecosystem::Npm | Ecosystem::Cargo => name.trim().to_lowercase(),
        Ecosystem::Go => name.trim().to_string(),
    }
}

#[cfg(test)]
mod tests;

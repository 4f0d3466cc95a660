//! Lockfiles and package-manager configuration. A lockfile that gains packages while no
//! manifest it belongs to changes is how a dependency can slip in unreviewed (a hand-edited
//! lock, or a manifest change hidden in another pull request), so the rule counts the package
//! names head adds. Lockfiles are read line by line rather than with a full parser: only the
//! set of names matters, and a line reader degrades gracefully on formats that drift between
//! package-manager versions. Registry configuration files (`.npmrc`, `pip.conf`, …) are read
//! for the index URLs they set.

use std::collections::{BTreeMap, HashMap};

use super::{DependencyFinding, Extract, IndexRef, ManifestKind, Severity, manifest_kind, pep503};

/// Package names in a lockfile, each with the 1-based line where it first appears.
fn packages(kind: ManifestKind, text: &str) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let add = |name: &str, line: usize, out: &mut BTreeMap<String, u32>| {
        let name = name.trim().trim_matches(['"', '\'']);
        if !name.is_empty() {
            let n = u32::try_from(line + 1).unwrap_or(u32::MAX);
            out.entry(name.to_string()).or_insert(n);
        }
    };
    match kind {
        ManifestKind::CargoLock
        | ManifestKind::PoetryLock
        | ManifestKind::UvLock
        | ManifestKind::PdmLock => {
            // `[[package]]` blocks with `name = "..."`; Cargo workspace members have no
            // `source` line and are part of the repository, so only sourced ones count there.
            let mut current: Option<(String, usize)> = None;
            let mut in_package = false;
            let python = kind != ManifestKind::CargoLock;
            let flush = |cur: &mut Option<(String, usize)>,
                         sourced: bool,
                         out: &mut BTreeMap<String, u32>| {
                if let Some((n, l)) = cur.take()
                    && (python || sourced)
                {
                    let n = if python { pep503(&n) } else { n.to_lowercase() };
                    add(&n, l, out);
                }
            };
            let mut sourced = false;
            for (i, line) in text.lines().enumerate() {
                let t = line.trim();
                if t.starts_with('[') {
                    flush(&mut current, sourced, &mut out);
                    sourced = false;
                    in_package = t == "[[package]]";
                    continue;
                }
                if !in_package {
                    continue;
                }
                if let Some(v) = t.strip_prefix("name = ") {
                    current = Some((v.trim_matches('"').to_string(), i));
                } else if t.starts_with("source = ") {
                    sourced = true;
                }
            }
            flush(&mut current, sourced, &mut out);
        }
        ManifestKind::PackageLock => {
            if let Ok(serde_json::Value::Object(doc)) = crate::text::parse_json(text) {
                let anchors = QuotedLines::new(text);
                for (n, _) in package_lock_entries(&doc) {
                    let line = anchors.quoted(&n).max(anchors.module_tail(&n));
                    add(&n.to_lowercase(), line.saturating_sub(1), &mut out);
                }
            }
        }
        ManifestKind::YarnLock => {
            for (i, line) in text.lines().enumerate() {
                if line.starts_with([' ', '\t', '#']) || !line.trim_end().ends_with(':') {
                    continue;
                }
                for name in yarn_header_names(line) {
                    add(&name, i, &mut out);
                }
            }
        }
        ManifestKind::PnpmLock => {
            let mut in_packages = false;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                if !line.starts_with(' ') {
                    in_packages = line.trim_end() == "packages:";
                    continue;
                }
                if !in_packages {
                    continue;
                }
                let indent = line.len() - line.trim_start().len();
                if indent != 2 {
                    continue;
                }
                if let Some(name) = pnpm_entry_name(line) {
                    add(&name, i, &mut out);
                }
            }
        }
        ManifestKind::PipfileLock => {
            if let Ok(serde_json::Value::Object(doc)) = crate::text::parse_json(text) {
                for (cat, v) in &doc {
                    if cat == "_meta" {
                        continue;
                    }
                    if let serde_json::Value::Object(pkgs) = v {
                        let anchors = QuotedLines::new(text);
                        for name in pkgs.keys() {
                            add(
                                &pep503(name),
                                anchors.quoted(name).saturating_sub(1),
                                &mut out,
                            );
                        }
                    }
                }
            }
        }
        ManifestKind::GoSum => {
            for (i, line) in text.lines().enumerate() {
                if let Some(m) = line.split_whitespace().next() {
                    add(m, i, &mut out);
                }
            }
        }
        _ => {}
    }
    out
}

/// The first line of every quoted string in a JSON lockfile, and of every `node_modules/<name>`
/// tail of one, found in one pass: looking each package up in the whole text instead made a
/// 30,000-package lockfile take minutes.
pub(super) struct QuotedLines<'a> {
    quoted: HashMap<&'a str, usize>,
    module_tails: HashMap<&'a str, usize>,
}

impl<'a> QuotedLines<'a> {
    pub(super) fn new(text: &'a str) -> QuotedLines<'a> {
        let mut lines = QuotedLines {
            quoted: HashMap::new(),
            module_tails: HashMap::new(),
        };
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            for quoted in line.split('"').skip(1).step_by(2) {
                lines.quoted.entry(quoted).or_insert(number);
                for (at, _) in quoted.match_indices("node_modules/") {
                    let tail = &quoted[at + "node_modules/".len()..];
                    lines.module_tails.entry(tail).or_insert(number);
                }
            }
        }
        lines
    }

    /// 1-based line where `"name"` first appears, or 0.
    pub(super) fn quoted(&self, name: &str) -> usize {
        self.quoted.get(name).copied().unwrap_or(0)
    }

    /// 1-based line where a quoted string first ends in `node_modules/name`, or 0.
    fn module_tail(&self, name: &str) -> usize {
        self.module_tails.get(name).copied().unwrap_or(0)
    }
}

/// The installed packages of a package-lock.json: name and entry of every `node_modules/<name>`
/// in `packages` (v2, v3; workspace links left out), or of the nested `dependencies` (v1).
pub(super) fn package_lock_entries(
    doc: &serde_json::Map<String, serde_json::Value>,
) -> Vec<(String, &serde_json::Value)> {
    let mut entries = Vec::new();
    if let Some(serde_json::Value::Object(pkgs)) = doc.get("packages") {
        for (key, v) in pkgs {
            if v.get("link").and_then(serde_json::Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(pos) = key.rfind("node_modules/") {
                entries.push((key[pos + "node_modules/".len()..].to_string(), v));
            }
        }
    } else if let Some(serde_json::Value::Object(deps)) = doc.get("dependencies") {
        let mut stack = vec![deps];
        let mut budget = 1_000_000usize;
        while let Some(d) = stack.pop() {
            for (name, v) in d {
                budget = budget.saturating_sub(1);
                if budget == 0 {
                    break;
                }
                entries.push((name.clone(), v));
                if let Some(serde_json::Value::Object(inner)) = v.get("dependencies") {
                    stack.push(inner);
                }
            }
        }
    }
    entries
}

/// The package names (lower case) of a yarn.lock block header: `"a@^1", a@^1.2:`.
pub(super) fn yarn_header_names(line: &str) -> Vec<String> {
    let header = line.trim_end().trim_end_matches(':');
    header
        .split(", ")
        .map(|spec| spec.trim().trim_matches('"'))
        .filter(|spec| *spec != "__metadata")
        .map(|spec| match spec.get(1..).and_then(|r| r.find('@')) {
            Some(p) => &spec[..p + 1],
            None => spec,
        })
        .map(str::to_lowercase)
        .collect()
}

/// The package name (lower case) of a pnpm-lock.yaml `packages:` entry line
/// (`  name@1.2.3(peer@1):`, v5's `  /name/1.2.3:`); `None` for other lines.
pub(super) fn pnpm_entry_name(line: &str) -> Option<String> {
    let t = line.trim();
    if !t.ends_with(':') {
        return None;
    }
    let key = t.trim_end_matches(':').trim_matches(['"', '\'']);
    let key = key.trim_start_matches('/');
    let key = key.split('(').next().unwrap_or(key);
    let name = match key.get(1..).and_then(|r| r.rfind('@')) {
        Some(p) => &key[..p + 1],
        // pnpm lockfile v5: `/name/1.2.3`
        None => key.rsplit_once('/').map_or(key, |(n, _)| n),
    };
    Some(name.to_lowercase())
}

fn parses(kind: ManifestKind, text: &str) -> Result<(), String> {
    match kind {
        ManifestKind::PackageLock | ManifestKind::PipfileLock => crate::text::parse_json(text)
            .map(|_| ())
            .map_err(|e| format!("lockfile does not parse: {e}")),
        _ => Ok(()),
    }
}

/// Lockfile growth: new package names in head, reported as one warning with the count.
pub(crate) fn compare(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: &str,
) -> Result<Vec<DependencyFinding>, String> {
    parses(kind, head)?;
    let head_pk = packages(kind, head);
    let base_pk = base.map(|b| packages(kind, b)).unwrap_or_default();
    let mut added: Vec<(&String, u32)> = head_pk
        .iter()
        .filter(|(n, _)| !base_pk.contains_key(*n))
        .map(|(n, l)| (n, *l))
        .collect();
    if added.is_empty() {
        return Ok(Vec::new());
    }
    added.sort_by_key(|(n, l)| (*l, (*n).clone()));
    let count = added.len();
    let first = added.first().map_or(0, |(_, l)| *l);
    let names: Vec<String> = added
        .iter()
        .take(5)
        .map(|(n, _)| format!("`{n}`"))
        .collect();
    let more = if count > 5 { ", …" } else { "" };
    let manifests = manifests_for(kind).join(" or ");
    let plural = if count == 1 { "" } else { "s" };
    Ok(vec![DependencyFinding {
        severity: Severity::Warning,
        line: first,
        end_line: first,
        message: format!(
            "{path} gains {count} package{plural} ({}{more}) but no {manifests} next to it changed",
            names.join(", ")
        ),
        kind: "lockfile-only",
        dependency: None,
    }])
}

fn manifests_for(kind: ManifestKind) -> &'static [&'static str] {
    match kind {
        ManifestKind::CargoLock => &["Cargo.toml"],
        ManifestKind::PackageLock | ManifestKind::YarnLock | ManifestKind::PnpmLock => {
            &["package.json", "pnpm-workspace.yaml"]
        }
        ManifestKind::PoetryLock | ManifestKind::UvLock | ManifestKind::PdmLock => {
            &["pyproject.toml"]
        }
        ManifestKind::PipfileLock => &["Pipfile"],
        ManifestKind::GoSum => &["go.mod", "go.work"],
        _ => &[],
    }
}

/// True when `changed_paths` holds a manifest that `lock_path` belongs to: one of the
/// lockfile's manifest names in the lockfile's directory or below it (workspace members).
/// For a path that is not a lockfile this returns false.
pub fn lockfile_manifest_changed(lock_path: &str, changed_paths: &[&str]) -> bool {
    let Some(kind) = manifest_kind(lock_path).filter(|k| k.is_lockfile()) else {
        return false;
    };
    let lock_path = lock_path.trim_start_matches("./");
    let dir = lock_path.rsplit_once('/').map_or("", |(d, _)| d);
    let names = manifests_for(kind);
    changed_paths.iter().any(|p| {
        let p = p.trim_start_matches("./");
        let (pdir, file) = p.rsplit_once('/').unwrap_or(("", p));
        let under = dir.is_empty() || pdir == dir || pdir.starts_with(&format!("{dir}/"));
        under && names.contains(&file) && !pdir.split('/').any(|c| c == "node_modules")
    })
}

/// Index and registry URLs set in `.npmrc`, `.yarnrc(.yml)`, `pip.conf`/`pip.ini` and
/// `.cargo/config(.toml)`.
pub(crate) fn extract_registry_config(path: &str, text: &str) -> Extract {
    let mut x = Extract::default();
    let file = path.rsplit('/').next().unwrap_or(path);
    let cargo = file == "config" || file == "config.toml";
    let mut section = String::new();
    for (i, raw) in text.lines().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let t = raw.trim();
        if t.starts_with('#') || t.starts_with(';') || t.is_empty() {
            continue;
        }
        if t.starts_with('[') && t.ends_with(']') {
            section = t.trim_matches(['[', ']']).trim().to_ascii_lowercase();
            continue;
        }
        // `.npmrc` keys contain ':' (`@scope:registry=`), YAML uses ':' alone.
        let Some(pos) = t.find('=').or_else(|| t.find(':')) else {
            continue;
        };
        let key = t[..pos].trim().trim_matches('"').to_ascii_lowercase();
        let value = t[pos + 1..].trim().trim_matches(['"', '\'']).trim();
        if value.is_empty() {
            continue;
        }
        let relevant = if cargo {
            // `[registries.x] index = ...`, `[source.x] registry = ...`, `replace-with = ...`
            (section.starts_with("registries") && key == "index")
                || (section.starts_with("source")
                    && matches!(
                        key.as_str(),
                        "registry" | "replace-with" | "directory" | "local-registry" | "git"
                    ))
                || (section == "registry" && key == "index")
        } else {
            key == "registry"
                || key.ends_with(":registry")
                || key == "npmregistryserver"
                || key == "index-url"
                || key == "extra-index-url"
                || key == "find-links"
                || key == "index"
                || key == "trusted-host"
        };
        if relevant {
            x.indexes.push(IndexRef {
                key: if section.is_empty() {
                    key
                } else {
                    format!("{section}.{key}")
                },
                url: value.to_string(),
                line: no,
            });
        }
    }
    x
}

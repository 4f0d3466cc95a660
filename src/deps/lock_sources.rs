//! Where each locked package comes from. A lockfile can keep a package's name and version and
//! change only its `resolved` URL (npm, yarn), tarball or repository (pnpm) or `source` (Cargo,
//! uv, poetry): the install then fetches other code from another host while the manifest and
//! the version stay the same. A package that base locked and head locks from a new origin is
//! reported as an error, whether or not a manifest changed too.

use std::collections::{BTreeMap, BTreeSet};

use super::{DependencyFinding, ManifestKind, Severity, pep503};

/// Origin of a package locked without a URL: the package manager's default registry.
const DEFAULT_REGISTRY: &str = "the default registry";

/// Package name → origins it is locked from → the first 1-based line naming that origin.
type Origins = BTreeMap<String, BTreeMap<String, u32>>;

/// Packages base locked that head locks from an origin base never used for them.
pub(crate) fn moved(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: &str,
) -> Vec<DependencyFinding> {
    let Some(base) = base else {
        return Vec::new();
    };
    let base = origins(kind, base);
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut out = Vec::new();
    for (name, head_origins) in origins(kind, head) {
        let Some(before) = base.get(&name) else {
            continue;
        };
        for (origin, line) in &head_origins {
            let public = is_public_registry(kind, origin);
            if before.contains_key(origin)
                || (public && before.keys().any(|was| is_public_registry(kind, was)))
            {
                continue;
            }
            let was: BTreeSet<&str> = before.keys().map(String::as_str).collect();
            // Back to the public registry from a git checkout or another host (a pre-release
            // pin undone): the code now comes from where everyone else gets it, a note.
            out.push(DependencyFinding {
                severity: if public {
                    Severity::Note
                } else {
                    Severity::Error
                },
                line: *line,
                end_line: *line,
                message: if public {
                    format!(
                        "`{name}` in {file} resolves from `{origin}` again (was `{}`)",
                        was.into_iter().collect::<Vec<_>>().join("`, `")
                    )
                } else {
                    format!(
                        "`{name}` in {file} now resolves from `{origin}` (was `{}`): the install fetches code from another place than the one reviewed",
                        was.into_iter().collect::<Vec<_>>().join("`, `")
                    )
                },
                kind: "source-moved",
                dependency: None,
            });
        }
    }
    out
}

/// The manager's public registry, named by host or left implicit: a lockfile that starts (or
/// stops) writing `https://registry.npmjs.org/...` tarball URLs moves nothing (pnpm 9 dropped
/// them, yarn writes `registry.yarnpkg.com`, a proxy of the same registry).
fn is_public_registry(kind: ManifestKind, origin: &str) -> bool {
    if origin == DEFAULT_REGISTRY {
        return true;
    }
    match kind {
        ManifestKind::PackageLock | ManifestKind::YarnLock | ManifestKind::PnpmLock => matches!(
            origin,
            "registry.npmjs.org" | "registry.npmjs.com" | "registry.yarnpkg.com"
        ),
        ManifestKind::CargoLock => {
            origin.contains("github.com/rust-lang/crates.io-index")
                || origin.contains("index.crates.io")
        }
        ManifestKind::UvLock | ManifestKind::PoetryLock => {
            let host = origin.strip_prefix("registry ").unwrap_or(origin);
            ["pypi.org", "files.pythonhosted.org"]
                .iter()
                .any(|public| host == *public || host.starts_with(&format!("{public}/")))
        }
        _ => false,
    }
}

fn origins(kind: ManifestKind, text: &str) -> Origins {
    let mut out = Origins::new();
    match kind {
        ManifestKind::PackageLock => package_lock(text, &mut out),
        ManifestKind::YarnLock => yarn_lock(text, &mut out),
        ManifestKind::PnpmLock => pnpm_lock(text, &mut out),
        ManifestKind::CargoLock | ManifestKind::UvLock | ManifestKind::PoetryLock => {
            toml_lock(kind, text, &mut out);
        }
        _ => {}
    }
    out
}

fn record(out: &mut Origins, name: &str, origin: String, index: usize) {
    let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
    out.entry(name.to_lowercase())
        .or_default()
        .entry(origin)
        .or_insert(line);
}

/// package-lock.json: the `resolved` URL of every installed package.
fn package_lock(text: &str, out: &mut Origins) {
    let Ok(serde_json::Value::Object(doc)) = crate::text::parse_json(text) else {
        return;
    };
    let found = super::lockfile::package_lock_entries(&doc)
        .into_iter()
        .filter_map(|(name, entry)| {
            let resolved = entry.get("resolved")?.as_str()?;
            Some((name, resolved.to_string()))
        });
    let anchors = super::lockfile::QuotedLines::new(text);
    for (name, resolved) in found {
        let index = anchors.quoted(&resolved).saturating_sub(1);
        record(out, &name, origin(&resolved), index);
    }
}

/// yarn.lock (v1): `resolved "<url>"` under each block's header of `name@range` specs.
fn yarn_lock(text: &str, out: &mut Origins) {
    let mut names: Vec<String> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if !line.starts_with([' ', '\t', '#']) && line.trim_end().ends_with(':') {
            names = super::lockfile::yarn_header_names(line);
            continue;
        }
        let trimmed = line.trim();
        let Some(url) = trimmed
            .strip_prefix("resolved ")
            .or_else(|| trimmed.strip_prefix("resolved: "))
        else {
            continue;
        };
        for name in &names {
            record(out, name, origin(url), index);
        }
    }
}

/// pnpm-lock.yaml: each `packages:` entry's `resolution`: a `tarball` or git `repo`, else the
/// default registry (pnpm writes only an `integrity` for registry packages).
fn pnpm_lock(text: &str, out: &mut Origins) {
    let mut in_packages = false;
    let mut name: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            in_packages = line.trim_end() == "packages:";
            name = None;
            continue;
        }
        if !in_packages {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if indent == 2 {
            name = super::lockfile::pnpm_entry_name(line);
            continue;
        }
        let Some(name) = &name else { continue };
        let trimmed = line.trim();
        if !trimmed.starts_with("resolution:") && !trimmed.starts_with("tarball:") {
            continue;
        }
        let field = |key: &str| {
            let at = trimmed.find(key)? + key.len();
            let value = trimmed[at..].split([',', '}']).next()?.trim();
            Some(value.trim_matches(['"', '\'']).to_string())
        };
        let found = field("tarball:")
            .or_else(|| field("repo:").map(|repo| format!("git+{repo}")))
            .map(|url| origin(&url));
        match found {
            Some(found) => record(out, name, found, index),
            None if trimmed.contains("integrity:") => {
                record(out, name, DEFAULT_REGISTRY.to_string(), index)
            }
            None => {}
        }
    }
}

/// Cargo.lock, uv.lock and poetry.lock: `[[package]]` tables with a `source` (Cargo: a
/// string; uv: an inline table), or poetry's `[package.source]` table (none: PyPI).
fn toml_lock(kind: ManifestKind, text: &str, out: &mut Origins) {
    let python = kind != ManifestKind::CargoLock;
    let normalise = |name: &str| {
        if python {
            pep503(name)
        } else {
            name.to_lowercase()
        }
    };
    let mut name: Option<(String, usize)> = None;
    let mut source: Option<(String, usize)> = None;
    let mut in_source_table = false;
    let mut flush = |name: &mut Option<(String, usize)>, source: &mut Option<(String, usize)>| {
        if let Some((package, at)) = name.take() {
            match source.take() {
                Some((found, index)) => record(out, &package, found, index),
                // Cargo workspace members have no source and are part of the repository.
                None if kind == ManifestKind::PoetryLock => {
                    record(out, &package, DEFAULT_REGISTRY.to_string(), at)
                }
                None => {}
            }
        }
    };
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if trimmed == "[[package]]" {
                flush(&mut name, &mut source);
            }
            in_source_table = trimmed == "[package.source]";
            continue;
        }
        if let Some(value) = trimmed.strip_prefix("name = ") {
            if name.is_none() {
                name = Some((normalise(value.trim_matches('"')), index));
            }
        } else if let Some(value) = trimmed.strip_prefix("source = ") {
            source = Some((toml_source(value), index));
        } else if in_source_table && let Some(value) = trimmed.strip_prefix("url = ") {
            source = Some((origin(value), index));
        }
    }
    flush(&mut name, &mut source);
}

/// A Cargo `source` string or a uv `source` inline table, as an origin.
fn toml_source(value: &str) -> String {
    let value = value.trim();
    let Some(table) = value.strip_prefix('{') else {
        return origin(value);
    };
    let table = table.trim_end_matches('}');
    let (key, url) = table.split_once('=').unwrap_or((table, ""));
    let url = url
        .split(',')
        .next()
        .unwrap_or(url)
        .trim()
        .trim_matches('"');
    match key.trim() {
        "git" => origin(&format!("git+{url}")),
        "registry" => origin(&format!("registry+{url}")),
        other => format!("{other} {url}"),
    }
}

/// An origin for comparison: a registry index by host and path, a git repository by host and
/// path (its revision may change), a tarball URL by host alone (its path names the version).
/// Credentials, queries and fragments never take part, and never reach a message.
fn origin(raw: &str) -> String {
    let raw = raw.trim().trim_matches(['"', '\'']);
    let (kind, url) = if let Some(url) = raw.strip_prefix("git+") {
        ("git", url)
    } else if let Some(url) = raw
        .strip_prefix("registry+")
        .or_else(|| raw.strip_prefix("sparse+"))
    {
        ("registry", url)
    } else if raw.starts_with("git://") || raw.starts_with("git@") || raw.ends_with(".git") {
        ("git", raw)
    } else {
        ("url", raw)
    };
    let url = url.split(['?', '#']).next().unwrap_or(url);
    let without_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let (authority, path) = without_scheme
        .split_once('/')
        .unwrap_or((without_scheme, ""));
    // scp-like `git@host:org/repo`
    let (authority, path) = match authority.split_once(':') {
        Some((host, rest)) if !url.contains("://") => (host, format!("{rest}/{path}")),
        _ => (authority, path.to_string()),
    };
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or(authority)
        .to_ascii_lowercase();
    let path = path
        .trim_end_matches('/')
        .trim_end_matches(".git")
        .to_ascii_lowercase();
    match kind {
        "url" => host,
        kind => format!("{kind} {host}/{path}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_keep_what_matters() {
        assert_eq!(
            origin("https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"),
            "registry.npmjs.org"
        );
        assert_eq!(
            origin("https://user:s3cret@evil.example/left-pad.tgz"),
            "evil.example"
        );
        assert_eq!(
            origin("registry+https://github.com/rust-lang/crates.io-index"),
            "registry github.com/rust-lang/crates.io-index"
        );
        assert_eq!(
            origin("git+https://github.com/acme/serde?rev=abc#0123"),
            "git github.com/acme/serde"
        );
        assert_eq!(
            origin("git@github.com:acme/serde.git"),
            "git github.com/acme/serde"
        );
    }

    #[test]
    fn cargo_registry_to_git_is_a_move_and_a_bump_is_not() {
        let lock = |version: &str, source: &str| {
            format!(
                "version = 3\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"serde\"\nversion = \"{version}\"\nsource = \"{source}\"\n"
            )
        };
        let crates = "registry+https://github.com/rust-lang/crates.io-index";
        let base = lock("1.0.0", crates);
        let bumped = lock("1.0.1", crates);
        assert!(moved(ManifestKind::CargoLock, "Cargo.lock", Some(&base), &bumped).is_empty());
        let git = lock("1.0.0", "git+https://github.com/evil/serde?rev=1#1");
        let found = moved(ManifestKind::CargoLock, "Cargo.lock", Some(&base), &git);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, 10);
        assert!(found[0].message.contains("git github.com/evil/serde"));
    }

    #[test]
    fn yarn_pnpm_uv_and_poetry_moves() {
        let yarn =
            |url: &str| format!("lodash@^4.17.0:\n  version \"4.17.21\"\n  resolved \"{url}\"\n");
        let base = yarn("https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#abc");
        let head = yarn("https://evil.example/lodash-4.17.21.tgz");
        assert_eq!(
            moved(ManifestKind::YarnLock, "yarn.lock", Some(&base), &head).len(),
            1
        );
        let pnpm = |resolution: &str| {
            format!(
                "lockfileVersion: '9.0'\n\npackages:\n\n  lodash@4.17.21:\n    resolution: {resolution}\n"
            )
        };
        let base = pnpm("{integrity: sha512-abc}");
        let head = pnpm("{integrity: sha512-abc, tarball: https://evil.example/lodash.tgz}");
        assert_eq!(
            moved(ManifestKind::PnpmLock, "pnpm-lock.yaml", Some(&base), &head).len(),
            1
        );
        // The public registry named or left implicit is one place (pnpm 9 stopped writing it).
        let npm = pnpm(
            "{integrity: sha512-abc, tarball: https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz}",
        );
        let implicit = pnpm("{integrity: sha512-abc}");
        assert!(
            moved(
                ManifestKind::PnpmLock,
                "pnpm-lock.yaml",
                Some(&npm),
                &implicit
            )
            .is_empty()
        );
        assert!(
            moved(
                ManifestKind::PnpmLock,
                "pnpm-lock.yaml",
                Some(&implicit),
                &npm
            )
            .is_empty()
        );
        let uv = |source: &str| {
            format!(
                "version = 1\n\n[[package]]\nname = \"requests\"\nversion = \"2.32.0\"\nsource = {source}\n"
            )
        };
        let base = uv("{ registry = \"https://pypi.org/simple\" }");
        let head = uv("{ git = \"https://github.com/evil/requests?rev=main#abc\" }");
        assert_eq!(
            moved(ManifestKind::UvLock, "uv.lock", Some(&base), &head).len(),
            1
        );
        let poetry_base = "[[package]]\nname = \"requests\"\nversion = \"2.32.0\"\n";
        let poetry_head = format!(
            "{poetry_base}\n[package.source]\ntype = \"git\"\nurl = \"https://github.com/evil/requests.git\"\n"
        );
        assert_eq!(
            moved(
                ManifestKind::PoetryLock,
                "poetry.lock",
                Some(poetry_base),
                &poetry_head
            )
            .len(),
            1
        );
    }
}

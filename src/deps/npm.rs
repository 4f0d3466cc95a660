//! `package.json` extraction: the four dependency maps npm installs from, the override maps
//! (`overrides`, yarn `resolutions`, `pnpm.overrides`) that can point an existing package at a
//! git or URL copy, and the lifecycle scripts that npm runs on `npm install`.

use serde_json::{Map, Value};

use super::lines::{json_anchor, json_key_line};
use super::{Dependency, Ecosystem, Extract, InstallScript, Source};

const SECTIONS: &[&str] = &[
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
];

/// Scripts npm (and yarn/pnpm in npm-compatible mode) runs when the package is installed,
/// either as a dependency or in the project itself. `prepublish` still runs on a bare
/// `npm install` for compatibility.
const INSTALL_SCRIPTS: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "preprepare",
    "prepare",
    "postprepare",
    "prepublish",
];

pub(crate) fn extract(text: &str) -> Result<Extract, String> {
    let doc: Value = crate::text::parse_json(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("package.json does not parse: {e}"))?;
    let Value::Object(doc) = doc else {
        return Err("package.json is not a JSON object".to_string());
    };
    let mut x = Extract {
        private: doc.get("private") == Some(&Value::Bool(true)),
        ..Extract::default()
    };
    for section in SECTIONS {
        if let Some(Value::Object(deps)) = doc.get(*section) {
            for (key, v) in deps {
                let Some(spec) = v.as_str() else { continue };
                if let Some(mut dep) = entry(key, spec, section) {
                    dep.line = json_key_line(text, section, key);
                    x.deps.push(dep);
                }
            }
        }
    }
    if let Some(Value::Object(o)) = doc.get("overrides") {
        overrides(text, &mut x, o, "overrides");
    }
    if let Some(Value::Object(o)) = doc.get("resolutions") {
        overrides(text, &mut x, o, "resolutions");
    }
    if let Some(Value::Object(pnpm)) = doc.get("pnpm")
        && let Some(Value::Object(o)) = pnpm.get("overrides")
    {
        overrides(text, &mut x, o, "overrides");
    }
    if let Some(Value::Object(scripts)) = doc.get("scripts") {
        for name in INSTALL_SCRIPTS {
            if let Some(cmd) = scripts.get(*name).and_then(Value::as_str) {
                x.scripts.push(InstallScript {
                    name: (*name).to_string(),
                    command: cmd.to_string(),
                    line: json_key_line(text, "scripts", name),
                });
            }
        }
    }
    Ok(x)
}

/// Overrides only change versions of packages that are already in the tree, so a registry
/// override is a version pin, not a new dependency; only non-registry targets are kept.
fn overrides(text: &str, x: &mut Extract, map: &Map<String, Value>, section: &str) {
    let mut stack: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut budget = 10_000usize;
    while let Some((key, v)) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        match v {
            Value::String(spec) => {
                let name = override_target(key);
                if name.is_empty() || name == "." {
                    continue;
                }
                if let Some(mut dep) = entry(name, spec, section)
                    && dep.source != Source::Registry
                {
                    let anchor = json_anchor(section);
                    dep.line = super::lines::find_after(text, &anchor, &format!("\"{key}\""));
                    x.deps.push(dep);
                }
            }
            Value::Object(inner) => {
                for (k, iv) in inner {
                    // `"." : "1.2.3"` in npm overrides means the parent key itself.
                    let k = if k == "." { key } else { k.as_str() };
                    stack.push((k, iv));
                }
            }
            _ => {}
        }
    }
}

/// Package name from an override key: `foo`, `foo@^1`, `**/foo`, `parent/foo`, `@s/foo@1`.
fn override_target(key: &str) -> &str {
    let mut k = key.trim();
    if let Some(pos) = k.rfind("/@") {
        k = &k[pos + 1..];
    } else if !k.starts_with('@') {
        if let Some(pos) = k.rfind('/') {
            k = &k[pos + 1..];
        }
    } else if k.matches('/').count() > 1
        && let Some(pos) = k.rfind('/')
    {
        k = &k[pos + 1..];
    }
    strip_version(k)
}

fn strip_version(k: &str) -> &str {
    match k.get(1..).and_then(|rest| rest.find('@')) {
        Some(pos) => &k[..pos + 1],
        None => k,
    }
}

/// Classify one npm dependency spec. `None` for `workspace:` links, which only point at a
/// sibling package of the same repository.
pub(crate) fn entry(key: &str, spec: &str, section: &str) -> Option<Dependency> {
    let raw = spec.trim();
    let lower = raw.to_ascii_lowercase();
    let mut real = key.to_string();
    let mut shown_spec = raw.to_string();
    let source = if lower.starts_with("workspace:") {
        return None;
    } else if let Some(alias) = raw.strip_prefix("npm:") {
        // `"lodash": "npm:lodahs@^4"` installs `lodahs` under the name `lodash`.
        let target = strip_version(alias);
        if !target.is_empty() {
            real = target.to_string();
        }
        shown_spec = alias.get(target.len() + 1..).unwrap_or("").to_string();
        Source::Registry
    } else if lower.starts_with("git+")
        || lower.starts_with("git://")
        || lower.starts_with("git@")
        || lower.starts_with("github:")
        || lower.starts_with("gitlab:")
        || lower.starts_with("bitbucket:")
        || lower.starts_with("gist:")
    {
        let (url, frag) = split_fragment(raw);
        shown_spec = frag.to_string();
        Source::Git(url.to_string())
    } else if lower.starts_with("http://") || lower.starts_with("https://") {
        if lower.contains(".git#") || lower.ends_with(".git") {
            let (url, frag) = split_fragment(raw);
            shown_spec = frag.to_string();
            Source::Git(url.to_string())
        } else {
            shown_spec = String::new();
            Source::Url(raw.to_string())
        }
    } else if let Some(p) = lower
        .starts_with("file:")
        .then(|| &raw[5..])
        .or_else(|| lower.starts_with("link:").then(|| &raw[5..]))
        .or_else(|| lower.starts_with("portal:").then(|| &raw[7..]))
    {
        shown_spec = String::new();
        Source::Path(p.to_string())
    } else if raw.starts_with("./")
        || raw.starts_with("../")
        || raw.starts_with('/')
        || raw.starts_with("~/")
    {
        shown_spec = String::new();
        Source::Path(raw.to_string())
    } else if is_github_shorthand(raw) {
        let (url, frag) = split_fragment(raw);
        shown_spec = frag.to_string();
        Source::Git(format!("github:{url}"))
    } else {
        Source::Registry
    };
    Some(Dependency {
        ecosystem: Ecosystem::Npm,
        name: real.to_lowercase(),
        declared_name: real,
        spec: shown_spec,
        section: section.to_string(),
        source,
        line: 0,
    })
}

fn split_fragment(s: &str) -> (&str, &str) {
    match s.split_once('#') {
        Some((u, f)) => (u, f),
        None => (s, ""),
    }
}

/// `user/repo` or `user/repo#ref`: npm installs it from GitHub.
fn is_github_shorthand(spec: &str) -> bool {
    let (base, _) = split_fragment(spec);
    let Some((user, repo)) = base.split_once('/') else {
        return false;
    };
    let ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    };
    !user.starts_with('@') && ok(user) && ok(repo)
}

//! `Cargo.toml` extraction: every dependency table Cargo reads (`[dependencies]`, dev- and
//! build- tables in both spellings, `[target.<cfg>.*]`, `[workspace.dependencies]`) plus the
//! override tables `[patch.<registry>]` and `[replace]`, which can swap a crates.io package
//! for a git or path copy without touching the dependency tables at all.

use toml::{Table, Value};

use super::lines::toml_key_line;
use super::{Dependency, Ecosystem, Extract, Source};

const DEP_TABLES: &[&str] = &[
    "dependencies",
    "dev-dependencies",
    "dev_dependencies",
    "build-dependencies",
    "build_dependencies",
];

pub(crate) fn extract(text: &str) -> Result<Extract, String> {
    let doc: Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("Cargo.toml does not parse: {}", e.message()))?;
    let mut x = Extract::default();
    for t in DEP_TABLES {
        if let Some(Value::Table(deps)) = doc.get(*t) {
            collect(text, &mut x, deps, t, &[t]);
        }
    }
    if let Some(Value::Table(targets)) = doc.get("target") {
        for (cfg, v) in targets {
            let Value::Table(tt) = v else { continue };
            for t in DEP_TABLES {
                if let Some(Value::Table(deps)) = tt.get(*t) {
                    let section = format!("target.{}.{t}", quote_key(cfg));
                    collect(text, &mut x, deps, &section, &["target", t]);
                }
            }
        }
    }
    if let Some(Value::Table(ws)) = doc.get("workspace")
        && let Some(Value::Table(deps)) = ws.get("dependencies")
    {
        collect(
            text,
            &mut x,
            deps,
            "workspace.dependencies",
            &["workspace", "dependencies"],
        );
    }
    if let Some(Value::Table(patch)) = doc.get("patch") {
        for (registry, v) in patch {
            let Value::Table(deps) = v else { continue };
            let section = format!("patch.{}", quote_key(registry));
            collect(text, &mut x, deps, &section, &["patch", registry]);
        }
    }
    if let Some(Value::Table(replace)) = doc.get("replace") {
        // Keys are package ids such as "foo:0.1.0".
        for (id, v) in replace {
            let name = id.split(':').next().unwrap_or(id);
            if let Some(mut dep) = entry(name, v, "replace") {
                dep.line = toml_key_line(text, &["replace"], name);
                x.deps.push(dep);
            }
        }
    }
    Ok(x)
}

fn quote_key(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        format!("'{k}'")
    }
}

fn collect(text: &str, x: &mut Extract, deps: &Table, section: &str, anchor: &[&str]) {
    for (key, v) in deps {
        if let Some(mut dep) = entry(key, v, section) {
            dep.line = toml_key_line(text, anchor, key);
            x.deps.push(dep);
        }
    }
}

/// One dependency entry; `None` for `workspace = true` inheritance and malformed entries.
fn entry(key: &str, v: &Value, section: &str) -> Option<Dependency> {
    let (real, spec, source) = match v {
        Value::String(req) => (key.to_string(), req.clone(), Source::Registry),
        Value::Table(t) => {
            if t.get("workspace").and_then(Value::as_bool) == Some(true) {
                return None;
            }
            let real = t
                .get("package")
                .and_then(Value::as_str)
                .unwrap_or(key)
                .to_string();
            let s = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
            if let Some(git) = s("git") {
                let rev = s("rev")
                    .or_else(|| s("tag"))
                    .or_else(|| s("branch"))
                    .unwrap_or_default();
                (real, rev, Source::Git(git))
            } else if let Some(path) = s("path") {
                (real, path.clone(), Source::Path(path))
            } else if let Some(reg) = s("registry").or_else(|| s("registry-index")) {
                (
                    real,
                    s("version").unwrap_or_default(),
                    Source::AlternateRegistry(reg),
                )
            } else {
                (real, s("version").unwrap_or_default(), Source::Registry)
            }
        }
        _ => return None,
    };
    Some(Dependency {
        ecosystem: Ecosystem::Cargo,
        name: real.to_lowercase(),
        declared_name: real,
        spec,
        section: section.to_string(),
        source,
        line: 0,
    })
}

//! `go.mod` extraction: direct `require` lines (single and block form) and `replace`
//! directives. Requirements marked `// indirect` are the transitive closure that `go mod tidy`
//! writes, which is lockfile content rather than a decision of the author, so they are skipped;
//! a `replace` is a decision and swaps the source of a module, so it is kept.

use super::{Dependency, Ecosystem, Extract, Source};

pub(crate) fn extract(text: &str) -> Extract {
    let mut x = Extract::default();
    let mut block: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (code, comment) = match raw.find("//") {
            Some(p) => (&raw[..p], &raw[p + 2..]),
            None => (raw, ""),
        };
        let indirect = comment.trim_start().starts_with("indirect");
        let code = code.trim();
        if code.is_empty() {
            continue;
        }
        let (verb, rest) = if let Some(b) = &block {
            if code == ")" {
                block = None;
                continue;
            }
            (b.clone(), code)
        } else {
            let (verb, rest) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
            let rest = rest.trim();
            if rest == "(" {
                block = Some(verb.to_string());
                continue;
            }
            (verb.to_string(), rest)
        };
        match verb.as_str() {
            "require" if !indirect => {
                let mut parts = rest.split_whitespace();
                if let (Some(path), Some(version)) = (parts.next(), parts.next()) {
                    x.deps
                        .push(module(path, version, "require", Source::Registry, no));
                }
            }
            "replace" => {
                let Some((old, new)) = rest.split_once("=>") else {
                    continue;
                };
                let old_path = old.split_whitespace().next().unwrap_or("");
                let mut new_parts = new.split_whitespace();
                let target = new_parts.next().unwrap_or("");
                let version = new_parts.next().unwrap_or("");
                if old_path.is_empty() || target.is_empty() {
                    continue;
                }
                let source = if target.starts_with("./")
                    || target.starts_with("../")
                    || target.starts_with('/')
                    || target == "."
                    || target == ".."
                {
                    Source::Path(target.to_string())
                } else if target == old_path {
                    // Same module, another version: a version pin, not a new source.
                    Source::Registry
                } else {
                    Source::Git(format!("{target} {version}").trim().to_string())
                };
                if source != Source::Registry {
                    x.deps
                        .push(module(old_path, version, "replace", source, no));
                }
            }
            _ => {}
        }
    }
    x
}

fn module(path: &str, version: &str, section: &str, source: Source, line: u32) -> Dependency {
    let path = path.trim_matches('"');
    Dependency {
        ecosystem: Ecosystem::Go,
        name: path.to_string(),
        declared_name: path.to_string(),
        spec: version.to_string(),
        section: section.to_string(),
        source,
        line,
    }
}

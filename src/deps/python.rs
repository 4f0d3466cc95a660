//! Python manifests: PEP 508 requirement strings and the files that hold them
//! (`pyproject.toml` with PEP 621, PEP 735, Poetry, uv and PDM tables; requirements and
//! constraints files with pip's options; `Pipfile`; `setup.cfg`). Besides dependencies it
//! collects the package indexes a file points pip, uv, Poetry, PDM or Pipenv at, and uv's
//! per-package `tool.uv.sources` overrides, which turn a PyPI dependency into a git/URL/path one.

use toml::{Table, Value};

use super::lines::{find_anywhere, toml_key_line};
use super::{Dependency, Ecosystem, Extract, Include, IndexRef, Source, pep503};

/// A parsed PEP 508 requirement (only what the rule needs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Requirement {
    pub name: String,
    pub spec: String,
    pub url: Option<String>,
}

/// Parse `name[extras] (spec) ; marker` or `name[extras] @ url ; marker`.
pub(crate) fn parse_pep508(s: &str) -> Option<Requirement> {
    let s = s.trim();
    let name_end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.'))
        .map_or(s.len(), |(i, _)| i);
    let name = &s[..name_end];
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut rest = s[name_end..].trim_start();
    if rest.starts_with('[') {
        let close = rest.find(']')?;
        rest = rest[close + 1..].trim_start();
    }
    if let Some(after_at) = rest.strip_prefix('@') {
        let url = after_at.trim_start();
        // The URL ends at whitespace; a marker follows after " ;".
        let url = url.split_whitespace().next().unwrap_or("");
        let url = url.trim_end_matches(';');
        if url.is_empty() {
            return None;
        }
        return Some(Requirement {
            name: name.to_string(),
            spec: String::new(),
            url: Some(url.to_string()),
        });
    }
    let spec = rest.split(';').next().unwrap_or("").trim();
    let spec = spec
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(spec)
        .trim();
    if !spec.is_empty() && !spec.starts_with(['<', '>', '=', '!', '~', ',']) {
        return None;
    }
    Some(Requirement {
        name: name.to_string(),
        spec: spec.to_string(),
        url: None,
    })
}

/// Source of a direct reference URL (`name @ url`, `-e url`, a bare URL line).
pub(crate) fn url_source(url: &str) -> Source {
    let lower = url.to_ascii_lowercase();
    let strip_rev = |u: &str| -> String {
        let u = u.split('#').next().unwrap_or(u);
        // `git+https://host/repo.git@v1.2` : the `@rev` after the path is a revision.
        let path_start = u.find("://").map_or(0, |p| p + 3);
        let path_start = u[path_start..]
            .find('/')
            .map_or(u.len(), |p| path_start + p);
        match u[path_start..].rfind('@') {
            Some(at) => u[..path_start + at].to_string(),
            None => u.to_string(),
        }
    };
    if lower.starts_with("git+")
        || lower.starts_with("hg+")
        || lower.starts_with("svn+")
        || lower.starts_with("bzr+")
    {
        Source::Git(strip_rev(url))
    } else if lower.starts_with("file:") {
        Source::Path(url.to_string())
    } else if lower.contains("://") {
        Source::Url(url.to_string())
    } else {
        Source::Path(url.to_string())
    }
}

fn dep(name: &str, spec: &str, section: &str, source: Source, line: u32) -> Dependency {
    Dependency {
        ecosystem: Ecosystem::PyPI,
        name: pep503(name),
        declared_name: name.to_string(),
        spec: spec.to_string(),
        section: section.to_string(),
        source,
        line,
    }
}

pub(crate) fn from_pep508(req: &Requirement, section: &str, line: u32) -> Dependency {
    let source = req.url.as_deref().map_or(Source::Registry, url_source);
    dep(&req.name, &req.spec, section, source, line)
}

/// Guess a project name for a requirement given only as URL or path: `#egg=name`, a wheel or
/// sdist file name, or the last path component.
fn name_from_location(loc: &str) -> String {
    if let Some(pos) = loc.find("egg=") {
        let n = &loc[pos + 4..];
        let end = n.find(['&', ' ', '[']).unwrap_or(n.len());
        return n[..end].to_string();
    }
    let path = loc.split(['#', '?']).next().unwrap_or(loc);
    let last = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path);
    let last = last.split('@').next().unwrap_or(last);
    let stem = last
        .strip_suffix(".git")
        .or_else(|| last.strip_suffix(".whl"))
        .or_else(|| last.strip_suffix(".tar.gz"))
        .or_else(|| last.strip_suffix(".zip"))
        .unwrap_or(last);
    // Wheel and sdist names are `name-version...`; the name cannot contain '-' there.
    if last != stem && !last.ends_with(".git") {
        return stem.split('-').next().unwrap_or(stem).to_string();
    }
    stem.to_string()
}

const INDEX_OPTIONS: &[&str] = &[
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--trusted-host",
];

/// Requirements and constraints files (pip's format).
pub(crate) fn extract_requirements(text: &str) -> Extract {
    let mut x = Extract::default();
    let mut logical = String::new();
    let mut start_line = 0u32;
    for (i, raw) in text.lines().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if logical.is_empty() {
            start_line = no;
        }
        if let Some(cont) = raw.strip_suffix('\\') {
            logical.push_str(cont);
            logical.push(' ');
            continue;
        }
        logical.push_str(raw);
        let line = std::mem::take(&mut logical);
        requirement_line(&mut x, &line, start_line);
    }
    if !logical.is_empty() {
        let line = std::mem::take(&mut logical);
        requirement_line(&mut x, &line, start_line);
    }
    x
}

fn strip_comment(line: &str) -> &str {
    let mut prev_ws = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_ws {
            return &line[..i];
        }
        prev_ws = c.is_whitespace();
    }
    line
}

fn requirement_line(x: &mut Extract, line: &str, no: u32) {
    let line = strip_comment(line).trim();
    if line.is_empty() {
        return;
    }
    if line.starts_with('-') {
        let (opt, value) = split_option(line);
        let value = value.trim();
        match opt {
            "-r" | "--requirement" | "-c" | "--constraint" if !value.is_empty() => {
                x.includes.push(Include {
                    option: opt.to_string(),
                    target: value.to_string(),
                    line: no,
                });
            }
            "-e" | "--editable" => {
                let loc = value.split_whitespace().next().unwrap_or("");
                if !loc.is_empty() {
                    let name = name_from_location(loc);
                    let source = url_source(loc);
                    x.deps.push(dep(&name, "", "editable", source, no));
                }
            }
            o if INDEX_OPTIONS.contains(&o) => {
                let v = value.split_whitespace().next().unwrap_or("");
                if !v.is_empty() {
                    x.indexes.push(IndexRef {
                        key: o.to_string(),
                        url: v.to_string(),
                        line: no,
                    });
                }
            }
            _ => {}
        }
        return;
    }
    // Per-requirement options (`--hash=...`, `--config-settings`) follow the requirement.
    let req_text = match line.find(" -") {
        Some(p) => &line[..p],
        None => line,
    };
    let req_text = req_text.trim();
    if let Some(r) = parse_pep508(req_text) {
        x.deps.push(from_pep508(&r, "requirements", no));
        return;
    }
    // A bare URL or path: `git+https://...#egg=x`, `./wheels/x-1.0-py3-none-any.whl`, `.`.
    let loc = req_text.split([' ', ';']).next().unwrap_or("");
    let looks_located = loc.contains("://")
        || loc.contains('/')
        || loc.starts_with('.')
        || loc.starts_with("file:")
        || loc.ends_with(".whl")
        || loc.ends_with(".tar.gz");
    if looks_located {
        let name = name_from_location(loc);
        if !name.is_empty() {
            x.deps
                .push(dep(&name, "", "requirements", url_source(loc), no));
        }
    }
}

/// Split `--opt=value`, `--opt value`, `-ivalue`, `-i value`.
fn split_option(line: &str) -> (&str, &str) {
    if line.starts_with("--") {
        let end = line.find(['=', ' ', '\t']).unwrap_or(line.len());
        let value = line[end..].trim_start_matches(['=', ' ', '\t']);
        (&line[..end], value)
    } else {
        let opt = line.get(..2).unwrap_or(line);
        let value = line
            .get(2..)
            .unwrap_or("")
            .trim_start_matches(['=', ' ', '\t']);
        (opt, value)
    }
}

fn str_list(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn table(v: Option<&Value>) -> Option<&Table> {
    v.and_then(Value::as_table)
}

pub(crate) fn extract_pyproject(text: &str) -> Result<Extract, String> {
    let doc: Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("pyproject.toml does not parse: {}", e.message()))?;
    let mut x = Extract::default();
    let tool = table(doc.get("tool"));
    let uv = tool.and_then(|t| table(t.get("uv")));
    let uv_sources = uv.and_then(|u| table(u.get("sources")));

    let pep508_list = |x: &mut Extract, items: Vec<&str>, section: &str, anchor: &[&str]| {
        for item in items {
            if let Some(r) = parse_pep508(item) {
                let line = toml_key_line(text, anchor, &r.name);
                let mut d = from_pep508(&r, section, line);
                if d.source == Source::Registry
                    && let Some(src) = uv_sources.and_then(|s| uv_source(s, &d.name))
                {
                    d.source = src;
                }
                x.deps.push(d);
            }
        }
    };

    if let Some(project) = table(doc.get("project")) {
        pep508_list(
            &mut x,
            str_list(project.get("dependencies")),
            "project.dependencies",
            &["project"],
        );
        if let Some(opt) = table(project.get("optional-dependencies")) {
            for (group, v) in opt {
                let section = format!("project.optional-dependencies.{group}");
                pep508_list(
                    &mut x,
                    str_list(Some(v)),
                    &section,
                    &["optional-dependencies"],
                );
            }
        }
    }
    if let Some(groups) = table(doc.get("dependency-groups")) {
        for (group, v) in groups {
            let section = format!("dependency-groups.{group}");
            pep508_list(&mut x, str_list(Some(v)), &section, &["dependency-groups"]);
        }
    }
    if let Some(bs) = table(doc.get("build-system")) {
        pep508_list(
            &mut x,
            str_list(bs.get("requires")),
            "build-system.requires",
            &["build-system"],
        );
    }
    if let Some(uv) = uv {
        pep508_list(
            &mut x,
            str_list(uv.get("dev-dependencies")),
            "tool.uv.dev-dependencies",
            &["tool", "uv"],
        );
        // A source override for a name that no list mentions still changes resolution when
        // the package arrives transitively, so it is recorded as its own entry.
        if let Some(sources) = uv_sources {
            for name in sources.keys() {
                if let Some(src) = uv_source(sources, &pep503(name)) {
                    let line = toml_key_line(text, &["tool", "uv", "sources"], name);
                    x.deps.push(dep(name, "", "tool.uv.sources", src, line));
                }
            }
        }
        for key in ["index-url", "extra-index-url", "find-links"] {
            let urls: Vec<&str> = match uv.get(key) {
                Some(Value::String(s)) => vec![s.as_str()],
                other => str_list(other),
            };
            for u in urls {
                push_index(&mut x, text, &format!("tool.uv.{key}"), u);
            }
        }
        if let Some(Value::Array(indexes)) = uv.get("index") {
            for i in indexes.iter().filter_map(Value::as_table) {
                if let Some(u) = i.get("url").and_then(Value::as_str) {
                    push_index(&mut x, text, "[[tool.uv.index]]", u);
                }
            }
        }
    }
    if let Some(poetry) = tool.and_then(|t| table(t.get("poetry"))) {
        for (section, anchor) in [
            ("dependencies", ["tool", "poetry"]),
            ("dev-dependencies", ["poetry", "dev-dependencies"]),
        ] {
            if let Some(deps) = table(poetry.get(section)) {
                poetry_table(
                    text,
                    &mut x,
                    deps,
                    &format!("tool.poetry.{section}"),
                    &anchor,
                );
            }
        }
        if let Some(groups) = table(poetry.get("group")) {
            for (g, v) in groups {
                if let Some(deps) = table(v.get("dependencies")) {
                    let section = format!("tool.poetry.group.{g}.dependencies");
                    poetry_table(text, &mut x, deps, &section, &["group", g]);
                }
            }
        }
        let sources: Vec<&Table> = match poetry.get("source") {
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_table).collect(),
            Some(Value::Table(t)) => vec![t],
            _ => Vec::new(),
        };
        for s in sources {
            if let Some(u) = s.get("url").and_then(Value::as_str) {
                push_index(&mut x, text, "[[tool.poetry.source]]", u);
            }
        }
    }
    if let Some(pdm) = tool.and_then(|t| table(t.get("pdm"))) {
        if let Some(groups) = table(pdm.get("dev-dependencies")) {
            for (g, v) in groups {
                let section = format!("tool.pdm.dev-dependencies.{g}");
                pep508_list(&mut x, str_list(Some(v)), &section, &["pdm"]);
            }
        }
        if let Some(Value::Array(sources)) = pdm.get("source") {
            for s in sources.iter().filter_map(Value::as_table) {
                if let Some(u) = s.get("url").and_then(Value::as_str) {
                    push_index(&mut x, text, "[[tool.pdm.source]]", u);
                }
            }
        }
    }
    Ok(x)
}

fn push_index(x: &mut Extract, text: &str, key: &str, url: &str) {
    x.indexes.push(IndexRef {
        key: key.to_string(),
        url: url.to_string(),
        line: find_anywhere(text, url),
    });
}

/// `[tool.uv.sources] name = { git = ... }` (or a list of such tables with markers).
fn uv_source(sources: &Table, normalised: &str) -> Option<Source> {
    let v = sources
        .iter()
        .find(|(k, _)| pep503(k) == normalised)
        .map(|(_, v)| v)?;
    let t = match v {
        Value::Table(t) => t,
        Value::Array(a) => a.iter().find_map(Value::as_table)?,
        _ => return None,
    };
    let s = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(g) = s("git") {
        Some(Source::Git(g))
    } else if let Some(u) = s("url") {
        Some(Source::Url(u))
    } else {
        // `workspace = true` and `index = "name"` keep the registry; a new named index is
        // reported where the index itself is declared.
        s("path").map(Source::Path)
    }
}

fn poetry_table(text: &str, x: &mut Extract, deps: &Table, section: &str, anchor: &[&str]) {
    for (name, v) in deps {
        if name.eq_ignore_ascii_case("python") {
            continue;
        }
        let entries: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        let line = toml_key_line(text, anchor, name);
        for e in entries {
            let (spec, source) = match e {
                Value::String(s) => (s.clone(), Source::Registry),
                Value::Table(t) => pip_style_table(t),
                _ => continue,
            };
            x.deps.push(dep(name, &spec, section, source, line));
        }
    }
}

/// Poetry and Pipenv describe a dependency with the same keys: `version`, `git` (+ `rev`,
/// `tag`, `branch`, `ref`), `path`, `file`, `url`.
fn pip_style_table(t: &Table) -> (String, Source) {
    let s = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(g) = s("git") {
        let rev = s("rev")
            .or_else(|| s("ref"))
            .or_else(|| s("tag"))
            .or_else(|| s("branch"))
            .unwrap_or_default();
        (rev, Source::Git(g))
    } else if let Some(u) = s("url") {
        (String::new(), url_source(&u))
    } else if let Some(p) = s("path").or_else(|| s("file")) {
        let source = if p.contains("://") && !p.starts_with("file:") {
            Source::Url(p.clone())
        } else {
            Source::Path(p.clone())
        };
        (String::new(), source)
    } else {
        (s("version").unwrap_or_default(), Source::Registry)
    }
}

/// Top-level Pipfile tables that are not package categories.
const PIPFILE_NON_PACKAGE: &[&str] = &["source", "requires", "scripts", "pipenv"];

pub(crate) fn extract_pipfile(text: &str) -> Result<Extract, String> {
    let doc: Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("Pipfile does not parse: {}", e.message()))?;
    let mut x = Extract::default();
    for (category, v) in &doc {
        if PIPFILE_NON_PACKAGE.contains(&category.as_str()) {
            continue;
        }
        let Value::Table(pkgs) = v else { continue };
        for (name, spec) in pkgs {
            let (spec, source) = match spec {
                Value::String(s) => (s.clone(), Source::Registry),
                Value::Table(t) => pip_style_table(t),
                _ => continue,
            };
            let line = toml_key_line(text, &[category.as_str()], name);
            x.deps.push(dep(name, &spec, category, source, line));
        }
    }
    let sources: Vec<&Table> = match doc.get("source") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_table).collect(),
        Some(Value::Table(t)) => vec![t],
        _ => Vec::new(),
    };
    for s in sources {
        if let Some(u) = s.get("url").and_then(Value::as_str) {
            push_index(&mut x, text, "[[source]]", u);
        }
    }
    Ok(x)
}

/// `setup.cfg` is INI: `[options] install_requires = ...` with the list on indented
/// continuation lines, `[options.extras_require]` with one list per extra, and
/// `[easy_install]` index settings.
pub(crate) fn extract_setup_cfg(text: &str) -> Extract {
    let mut x = Extract::default();
    let mut section = String::new();
    let mut key = String::new();
    for (i, raw) in text.lines().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let continuation = raw.starts_with([' ', '\t']) && !key.is_empty();
        let value = if continuation {
            trimmed
        } else if trimmed.starts_with('[') && trimmed.ends_with(']') {
            section = trimmed[1..trimmed.len() - 1].trim().to_ascii_lowercase();
            key.clear();
            continue;
        } else if let Some(pos) = trimmed.find(['=', ':']) {
            key = trimmed[..pos].trim().to_ascii_lowercase().replace('-', "_");
            trimmed[pos + 1..].trim()
        } else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        let dep_section = match (section.as_str(), key.as_str()) {
            ("options", "install_requires" | "setup_requires" | "tests_require") => {
                Some(format!("options.{key}"))
            }
            ("options.extras_require", extra) => Some(format!("options.extras_require.{extra}")),
            _ => None,
        };
        if let Some(ds) = dep_section {
            let value = strip_comment(value).trim();
            if let Some(r) = parse_pep508(value) {
                x.deps.push(from_pep508(&r, &ds, no));
            }
        } else if section == "easy_install" && matches!(key.as_str(), "index_url" | "find_links") {
            for u in value.split_whitespace() {
                x.indexes.push(IndexRef {
                    key: format!("easy_install.{key}"),
                    url: u.to_string(),
                    line: no,
                });
            }
        }
    }
    x
}

//! Language code (JavaScript, TypeScript, TSX, Python, Rust) in tests, build scripts and
//! scripts: the calls `queries/<lang>/unsafe-operation.scm` finds are read with local aliases
//! substituted (`queries/<lang>/aliases.scm`), literal pieces assembled and base64 literals
//! decoded, then judged: a command goes through the shared shell analyser, a file write or
//! delete through the outside-path classifier, a request through the environment reads it
//! sends.

use super::shell::{self, Category, Place, Scope};
use super::values::{
    self, Aliases, EnvRead, assemble, env_reads, literals, redacted_at, redirects_home, under_temp,
    with_decoded_literals,
};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::query::{KEY_SEPARATOR, QueryMatch};
use crate::rules::FileContext;
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One judged call on one side.
pub struct CodeHit {
    pub line: u32,
    pub end_line: u32,
    pub severity: Severity,
    pub message: String,
    /// Pairs base and head: the category and the call's resolved text, whitespace-normalized.
    pub identity: String,
    /// Lines of the alias bindings the judgement used.
    pub alias_lines: Vec<u32>,
}

/// Whether a file of code runs on a developer's machine as part of testing or building:
/// tests, build scripts, conftest, task runners, tool configs, scripts folders.
pub fn developer_code(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let script_dir = path.split('/').rev().skip(1).any(|dir| {
        matches!(
            dir,
            "scripts"
                | "script"
                | "tools"
                | "hack"
                | "ci"
                | ".github"
                | "tasks"
                | "e2e"
                | "cypress"
                | "playwright"
        )
    });
    crate::rules::is_test_path(path)
        || script_dir
        || matches!(
            name,
            "build.rs"
                | "setup.py"
                | "conftest.py"
                | "noxfile.py"
                | "fabfile.py"
                | "tasks.py"
                | "dodo.py"
                | "gulpfile.js"
                | "Gulpfile.js"
                | "Gruntfile.js"
                | "jakefile.js"
        )
        || [
            ".config.js",
            ".config.ts",
            ".config.mjs",
            ".config.cjs",
            ".config.mts",
            ".config.cts",
        ]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
        || [
            "setuptests",
            "jest.setup",
            "vitest.setup",
            "globalsetup",
            "global-setup",
            "globalteardown",
            "global-teardown",
            "test-setup",
            "testsetup",
        ]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
}

/// How a message names the code.
pub fn label(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if matches!(name, "build.rs" | "setup.py") {
        "build script"
    } else if crate::rules::is_test_path(path) || !developer_code(path) {
        // Outside developer code only Rust's inline `mod tests` is read.
        "test code"
    } else {
        "script"
    }
}

/// The judged calls of one side.
pub fn hits(context: &FileContext<'_>, side: Side, language: Language) -> Vec<CodeHit> {
    let Some(text) = context.side(side) else {
        return Vec::new();
    };
    let text = text.text;
    let developer = developer_code(context.pair.path());
    let found = context.matches(side, "unsafe-operation");
    if found.is_empty() {
        return Vec::new();
    }
    let aliases = Aliases::from_matches(&context.matches(side, "aliases"), text);
    let home_redirected = redirects_home(text);
    let mut out = Vec::new();
    for matched in outermost(&found) {
        // Rust's inline `mod tests` is test code even in `src/`.
        let inline_test = language == Language::Rust
            && matched
                .key
                .split(KEY_SEPARATOR)
                .any(|scope| scope == "tests" || scope == "test");
        if !developer && !inline_test {
            continue;
        }
        let Some(call) = text.get(matched.byte_range.clone()) else {
            continue;
        };
        let (resolved, alias_lines) = aliases.resolve(call, &matched.key, matched.line);
        let resolved = with_decoded_literals(&resolved);
        let kind = matched.property("kind").unwrap_or_default();
        for (category, severity, message) in judge(kind, &resolved, language, home_redirected) {
            out.push(CodeHit {
                line: matched.line,
                end_line: matched.end_line,
                severity,
                identity: format!(
                    "{}:{}",
                    category.key(),
                    super::sources::normalized(&resolved)
                ),
                message,
                alias_lines: alias_lines.clone(),
            });
        }
    }
    out
}

/// Matches not inside another match of the same kind (a Rust method chain matches at every
/// `.send()`/`.call()` link; the outermost holds the whole chain).
fn outermost(found: &[QueryMatch]) -> Vec<&QueryMatch> {
    found
        .iter()
        .filter(|inner| {
            !found.iter().any(|outer| {
                outer.property("kind") == inner.property("kind")
                    && outer.byte_range != inner.byte_range
                    && outer.byte_range.start <= inner.byte_range.start
                    && inner.byte_range.end <= outer.byte_range.end
            })
        })
        .collect()
}

type Judged = (Category, Severity, String);

fn judge(kind: &str, resolved: &str, language: Language, home_redirected: bool) -> Vec<Judged> {
    match kind {
        "exec" => exec(resolved, language),
        "write" => write(resolved, language, home_redirected)
            .map(|(category, what, path)| {
                (
                    category,
                    Severity::Error,
                    format!("writes to {what} `{path}`, outside the repository"),
                )
            })
            .into_iter()
            .collect(),
        "delete" => delete(resolved, home_redirected).into_iter().collect(),
        "send" => send(resolved).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn exec(resolved: &str, language: Language) -> Vec<Judged> {
    if language == Language::Rust && !resolved.contains("Command::new") {
        return Vec::new();
    }
    // The callee's name is not part of the command.
    let arguments = resolved
        .find('(')
        .map_or(resolved, |open| &resolved[open..]);
    let command = assemble(arguments);
    let mut out: Vec<Judged> = shell::analyse(&command, Place::Developer, &Scope::default())
        .into_iter()
        .map(|hit| {
            (
                hit.category,
                hit.severity,
                format!(
                    "runs `{}`, which {}",
                    crate::rules::markers::shorten(&command, 80),
                    hit.message
                ),
            )
        })
        .collect();
    let first = command.split_whitespace().next().unwrap_or_default();
    if out.is_empty() && ["curl", "wget", "nc", "ncat", "http"].contains(&first) {
        out.extend(send(resolved));
    }
    out
}

/// Home-directory markers in code.
fn mentions_home(text: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    values::regex(
        &PATTERN,
        r#"expanduser|Path\.home\(\)|\bhome\(\)|homedir\(\)|home_dir\(\)|environ\[\s*["']HOME["']|environ\.get\(\s*["']HOME["']|getenv\(\s*["']HOME["']|env\.HOME\b|env::var(?:_os)?\(\s*"HOME"\s*\)|USERPROFILE|["'`]~/?["'`]|["'`]~/"#,
    )
    .is_some_and(|pattern| pattern.is_match(text))
}

/// Path components from a call's literals: interpolations removed, modes, encodings and
/// prose left out.
fn components(resolved: &str) -> Vec<String> {
    literals(resolved)
        .into_iter()
        .filter_map(|literal| {
            let content = literal.content;
            let starts_interpolated = content.starts_with("${") || content.starts_with('{');
            let mut cleaned = String::new();
            let mut depth = 0usize;
            for c in content.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth = depth.saturating_sub(1),
                    _ if depth == 0 && !(c == '$' && cleaned.ends_with('$')) => cleaned.push(c),
                    _ => {}
                }
            }
            let cleaned = cleaned.trim_end_matches('$').replace("$/", "/");
            let cleaned = if starts_interpolated {
                cleaned.trim_start_matches(['$', '/']).to_string()
            } else {
                cleaned
            };
            let mode = cleaned.len() <= 3 && cleaned.chars().all(|c| "rwaxbt+".contains(c));
            let prose =
                cleaned.contains(char::is_whitespace) || cleaned.len() > 200 || cleaned.is_empty();
            let not_path = matches!(
                cleaned.as_str(),
                "HOME" | "USERPROFILE" | "utf-8" | "utf8" | "UTF-8" | "~" | "base64"
            );
            (!mode && !prose && !not_path).then_some(cleaned)
        })
        .take(24)
        .collect()
}

/// The outside path a write reaches, if any: (category, description, path as shown).
fn write(
    resolved: &str,
    language: Language,
    home_redirected: bool,
) -> Option<(Category, &'static str, String)> {
    let callee = resolved.split('(').next().unwrap_or_default();
    if callee.ends_with("open") && language == Language::Python {
        // `open(path)` reads; only a write, append or create mode changes the file.
        let writes = literals(resolved).iter().any(|literal| {
            let mode = literal.content.as_str();
            !mode.is_empty()
                && mode.len() <= 3
                && mode.chars().all(|c| "rwaxbt+".contains(c))
                && mode.contains(['w', 'a', 'x', '+'])
        });
        if !writes {
            return None;
        }
    }
    if language == Language::Rust && callee.ends_with("open") {
        let writes = (resolved.contains("OpenOptions") || resolved.contains("File::options"))
            && [
                "append(true)",
                "write(true)",
                "create(true)",
                "truncate(true)",
            ]
            .iter()
            .any(|option| resolved.contains(option));
        if !writes {
            return None;
        }
    }
    outside_path(resolved, home_redirected)
}

fn outside_path(resolved: &str, home_redirected: bool) -> Option<(Category, &'static str, String)> {
    if under_temp(resolved) {
        return None;
    }
    let home = mentions_home(resolved) && !home_redirected;
    let parts = components(resolved);
    for start in 0..parts.len() {
        let mut path = String::new();
        for part in &parts[start..] {
            let absolute = part.starts_with('/') || part.starts_with("~/");
            if path.is_empty() {
                if absolute {
                    path.push_str(part);
                } else if home {
                    path.push_str("~/");
                    path.push_str(part.trim_start_matches("./"));
                } else {
                    break;
                }
            } else if absolute {
                break;
            } else {
                path.push('/');
                path.push_str(part.trim_start_matches('/'));
            }
            if home_redirected && path.starts_with("~/") {
                break;
            }
            if let Some((category, what)) = shell::sensitive_target(&path) {
                return Some((category, what, path));
            }
        }
    }
    None
}

fn delete(resolved: &str, home_redirected: bool) -> Option<Judged> {
    if under_temp(resolved) {
        return None;
    }
    let parts = components(resolved);
    // Nothing but the home directory (or `/`) itself as the target.
    let only_root = parts.iter().all(|part| part == "/");
    let home = mentions_home(resolved) && !home_redirected;
    if only_root && (home || parts.iter().any(|part| part == "/")) {
        return Some((
            Category::Delete,
            Severity::Error,
            "deletes the home directory or `/` recursively".to_string(),
        ));
    }
    let (_, what, path) = outside_path(resolved, home_redirected)?;
    Some((
        Category::Delete,
        Severity::Error,
        format!("deletes {what} `{path}`, outside the repository"),
    ))
}

/// A request that carries the environment or a secret outside an authentication header.
fn send(resolved: &str) -> Option<Judged> {
    for read in env_reads(resolved) {
        match read {
            EnvRead::Everything(range) if !redacted_at(resolved, &range) => {
                return Some((
                    Category::Exfiltration,
                    Severity::Error,
                    "sends the whole environment to a network endpoint".to_string(),
                ));
            }
            EnvRead::Secret(name, range)
                if !redacted_at(resolved, &range) && !in_auth(resolved, range.start) =>
            {
                return Some((
                    Category::Exfiltration,
                    Severity::Error,
                    format!("sends the secret `{name}` in a request body or URL"),
                ));
            }
            _ => {}
        }
    }
    None
}

/// Whether the text before `at` puts the value in an authentication header or option
/// (`headers={"Authorization": …}`, `.bearer_auth(…)`), which is how a token is meant to be
/// sent, rather than in the body.
fn in_auth(resolved: &str, at: usize) -> bool {
    let before = &resolved[..values::floor(resolved, at)];
    let last = |words: &[&str]| words.iter().filter_map(|word| before.rfind(word)).max();
    let auth = last(&[
        "headers",
        "Authorization",
        "authorization",
        "auth=",
        "auth:",
        "bearer_auth",
        "basic_auth",
        ".header(",
        "Bearer",
        "token_auth",
        "X-Api-Key",
        "x-api-key",
    ]);
    let body = last(&[
        "data",
        "json",
        "body",
        "params",
        "form",
        "files",
        "content=",
        "query",
        "send_string",
        "send_form",
    ]);
    match (auth, body) {
        (Some(auth), Some(body)) => auth > body,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Head hits without a counterpart in base, on lines (or alias bindings) the change added.
pub fn added(context: &FileContext<'_>, language: Language) -> Vec<CodeHit> {
    let head = hits(context, Side::Head, language);
    if head.is_empty() {
        return head;
    }
    let mut base: HashMap<String, usize> = HashMap::new();
    for hit in hits(context, Side::Base, language) {
        *base.entry(hit.identity).or_default() += 1;
    }
    head.into_iter()
        .filter(|hit| {
            if let Some(count) = base.get_mut(&hit.identity)
                && *count > 0
            {
                *count -= 1;
                return false;
            }
            context.pair.added.overlaps(hit.line, hit.end_line)
                || hit
                    .alias_lines
                    .iter()
                    .any(|line| context.is_added_line(*line))
        })
        .collect()
}

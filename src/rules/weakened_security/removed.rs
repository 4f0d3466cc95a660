//! Protection the change removes: an authentication decorator, dependency or route middleware
//! that base had on a function or route head still has, and security middleware that left the
//! app (unless another changed file's head installs it: a move).

use super::hits::{Hit, Kind};
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use crate::rules::{Candidate, Fact, FactRef, FileContext, Moved, Output};
use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

/// Fact name: security middleware some changed file's head installs.
const INSTALLED: &str = "security-middleware";

/// Names that say authentication or authorization (`login_required`, `get_current_user`).
fn auth_word() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r"(?i)auth|login|logged|user|token|jwt|permission|admin|verify|role|scope|security|api_?key|staff|superuser|credential|guard|protect|session|passport",
            )
            .ok()
        })
        .as_ref()
}

/// The identifiers of a match that name protection: `login_required` in
/// `@login_required(login_url="/x")`, `get_current_user` in `Depends(get_current_user)`.
fn tokens(hit: &Hit) -> BTreeSet<String> {
    let Some(word) = auth_word() else {
        return BTreeSet::new();
    };
    hit.text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .filter(|token| !token.is_empty() && !token.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|token| *token != "Depends" && *token != "Security")
        .filter(|token| word.is_match(token))
        .map(str::to_string)
        .collect()
}

/// The middleware's name: `helmet` for `helmet({..})`, the string for Django's list.
/// A layer named by the protection it applies: `require_auth` for
/// `middleware::from_fn(require_auth)`.
fn middleware_name(hit: &Hit) -> String {
    let text = hit.text.trim_matches(['"', '\'']);
    let head = text.split('(').next().unwrap_or(text);
    let wrapper = head.rsplit("::").next().is_some_and(|last| {
        last.starts_with("from_fn")
            || last.starts_with("from_extractor")
            || last.starts_with("map_request")
    });
    if wrapper && let Some(token) = tokens(hit).into_iter().next() {
        return token;
    }
    head.to_string()
}

/// Reports removed protection.
pub fn report(
    context: &FileContext<'_>,
    language: Language,
    head: &[Hit],
    base: &[Hit],
    out: &mut Output,
) {
    let Some(head_text) = context.side(Side::Head) else {
        return;
    };
    // Authentication per protected function or route.
    let per_key = |hits: &[Hit]| {
        let mut map: HashMap<String, (BTreeSet<String>, String)> = HashMap::new();
        for hit in hits.iter().filter(|hit| hit.kind == Kind::Auth) {
            let entry = map.entry(hit.key.clone()).or_default();
            entry.0.extend(tokens(hit));
            entry.1 = hit.name.clone();
        }
        map
    };
    let head_auth = per_key(head);
    let mut base_auth: Vec<(String, (BTreeSet<String>, String))> =
        per_key(base).into_iter().collect();
    base_auth.sort();
    for (key, (tokens, name)) in base_auth {
        let kept = head_auth
            .get(&key)
            .map(|(tokens, _)| tokens.clone())
            .unwrap_or_default();
        let lost: Vec<&String> = tokens
            .iter()
            .filter(|token| !kept.contains(*token))
            .collect();
        if lost.is_empty() {
            continue;
        }
        let Some(line) = defined_at(head_text.text, &name, language) else {
            continue;
        };
        if context.pair.removed.iter().next().is_none() {
            continue;
        }
        let lost = lost
            .iter()
            .map(|token| format!("`{token}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let what = if language.family() == "js" {
            format!("route {name}")
        } else {
            format!("`{name}`")
        };
        out.candidates.push(Candidate::at_line(
            Side::Head,
            line,
            Severity::Error,
            format!("{what} loses its authentication check ({lost} removed) but is still defined"),
            format!("auth:{key}"),
        ));
    }
    // Security middleware of the app.
    let names = |hits: &[Hit]| -> BTreeSet<String> {
        hits.iter()
            .filter(|hit| hit.kind == Kind::Middleware)
            .map(middleware_name)
            .collect()
    };
    let installed = names(head);
    if language.family() == "js"
        && let Some(base_text) = context.side(Side::Base)
    {
        moved_after_routes(context, head_text.text, base_text.text, head, base, out);
    }
    for hit in base.iter().filter(|hit| hit.kind == Kind::Middleware) {
        let name = middleware_name(hit);
        if installed.contains(&name) || !context.pair.removed.overlaps(hit.line, hit.end_line) {
            continue;
        }
        out.candidates.push(Candidate {
            side: Side::Base,
            line: hit.line,
            end_line: hit.end_line,
            severity: Severity::Error,
            message: format!(
                "security middleware `{name}` is removed from the app (`{}`)",
                hit.shown
            ),
            key: format!("middleware:{name}"),
            moved: Some(Moved {
                family: language.family(),
                key: name.clone(),
                already: FactRef::head(INSTALLED),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: Confidence::Certain,
        });
    }
}

/// The 1-based line of the first Express-style route (`app.get(`, `router.post(`).
fn first_route(text: &str) -> Option<u32> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    let pattern = PATTERN
        .get_or_init(|| {
            Regex::new(r"\b(app|router|server|api)\.(get|post|put|patch|delete|all|route)\(").ok()
        })
        .as_ref()?;
    let index = text.lines().position(|line| pattern.is_match(line))?;
    u32::try_from(index + 1).ok()
}

/// Middleware that base installed before the first route and head installs after it: Express
/// runs middleware in order, so the routes above it no longer pass through it.
fn moved_after_routes(
    context: &FileContext<'_>,
    head_text: &str,
    base_text: &str,
    head: &[Hit],
    base: &[Hit],
    out: &mut Output,
) {
    let (Some(head_route), Some(base_route)) = (first_route(head_text), first_route(base_text))
    else {
        return;
    };
    for hit in head.iter().filter(|hit| hit.kind == Kind::Middleware) {
        let name = middleware_name(hit);
        let before_in_base = base
            .iter()
            .filter(|old| old.kind == Kind::Middleware && middleware_name(old) == name)
            .any(|old| old.line < base_route);
        let before_in_head = head
            .iter()
            .filter(|new| new.kind == Kind::Middleware && middleware_name(new) == name)
            .any(|new| new.line < head_route);
        if before_in_base
            && !before_in_head
            && hit.line > head_route
            && context.pair.added.overlaps(hit.line, hit.end_line)
        {
            out.candidates.push(Candidate::at_line(
                Side::Head,
                hit.line,
                Severity::Error,
                format!(
                    "security middleware `{name}` now comes after the routes (line {head_route} \
                     on): the routes declared before it no longer pass through it"
                ),
                format!("middleware-moved:{name}"),
            ));
        }
    }
}

/// Head facts: the security middleware this file installs.
pub fn facts(language: Language, head: &[Hit], out: &mut Output) {
    for hit in head.iter().filter(|hit| hit.kind == Kind::Middleware) {
        out.facts.push(Fact {
            side: Side::Head,
            name: INSTALLED,
            family: language.family(),
            key: middleware_name(hit),
            severity: Severity::Error,
        });
    }
}

/// The 1-based head line where the function `name` (Python, Rust) or the route with the path
/// literal `name` (JavaScript) is defined, if head still has it.
fn defined_at(text: &str, name: &str, language: Language) -> Option<u32> {
    let needles: Vec<String> = match language.family() {
        "js" => vec![name.to_string()],
        _ => vec![format!("def {name}("), format!("fn {name}(")],
    };
    text.lines()
        .position(|line| needles.iter().any(|needle| line.contains(needle.as_str())))
        .and_then(|index| u32::try_from(index + 1).ok())
}

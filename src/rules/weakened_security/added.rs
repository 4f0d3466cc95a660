//! Matches the change adds: a head match whose identity occurs more often than in base, on a
//! line the change added, judged by its kind.

use super::hits::{Hit, Kind, constant, reported};
use super::in_tests;
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use crate::rules::{Candidate, Fact, FactRef, FileContext, Moved, Output};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Fact name: a reported pattern that left this file's base (it may reappear in another file).
const WEAKENED: &str = "weakened";

type Identity = (String, Kind, String);

fn counts(hits: &[Hit]) -> HashMap<Identity, usize> {
    let mut counts = HashMap::new();
    for hit in hits.iter().filter(|hit| reported(hit.kind)) {
        *counts.entry(hit.identity()).or_insert(0) += 1;
    }
    counts
}

/// Reports the head matches the change adds.
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
    let mut left = counts(base);
    // Pairs by identity: base's occurrences answer for head's, in order.
    let mut fresh = Vec::new();
    for hit in head.iter().filter(|hit| reported(hit.kind)) {
        let identity = hit.identity();
        match left.get_mut(&identity) {
            Some(count) if *count > 0 => *count -= 1,
            _ => fresh.push(hit),
        }
    }
    // Then code execution by what it runs: the same built code run through another call
    // (`vm.runInContext(code, ..)` → `new vm.Script(code, ..)`, new options, a new enclosing
    // helper) is the file's old capability rewritten, not a new one.
    let mut executed: HashMap<(Kind, &str), usize> = HashMap::new();
    for hit in base
        .iter()
        .filter(|hit| reported(hit.kind) && executes(hit.kind))
    {
        if let Some(count) = left.get_mut(&hit.identity())
            && *count > 0
        {
            *count -= 1;
            if let Some(arg) = hit.arg.as_deref() {
                *executed.entry((hit.kind, arg)).or_insert(0) += 1;
            }
        }
    }
    fresh.retain(|hit| {
        let Some(count) = hit
            .arg
            .as_deref()
            .filter(|_| executes(hit.kind))
            .and_then(|arg| executed.get_mut(&(hit.kind, arg)))
            .filter(|count| **count > 0)
        else {
            return true;
        };
        *count -= 1;
        false
    });
    // Then every other weakening by the setting it makes, whoever's: base's
    // `ssl_context.check_hostname = False` in a function the change rewrote answers for head's
    // `ctx.check_hostname = False` in the new one. Only base's occurrences head lost count, so
    // one more than base had is still new.
    let mut rewritten: HashMap<(Kind, &str), usize> = HashMap::new();
    for hit in base
        .iter()
        .filter(|hit| reported(hit.kind) && !executes(hit.kind))
    {
        if let Some(count) = left.get_mut(&hit.identity())
            && *count > 0
        {
            *count -= 1;
            *rewritten.entry((hit.kind, setting(&hit.text))).or_insert(0) += 1;
        }
    }
    fresh.retain(|hit| {
        if executes(hit.kind) {
            return true;
        }
        match rewritten.get_mut(&(hit.kind, setting(&hit.text))) {
            Some(count) if *count > 0 => {
                *count -= 1;
                false
            }
            _ => true,
        }
    });
    let credentials = head.iter().any(|hit| hit.kind == Kind::Credentials);
    let permissive = head.iter().any(|hit| hit.kind == Kind::Cors);
    let tests = in_tests(head_text.path);
    for hit in fresh {
        if !context.pair.added.overlaps(hit.line, hit.end_line) {
            continue;
        }
        let Some((severity, message)) =
            judge(context, hit, head_text.text, credentials, permissive)
        else {
            continue;
        };
        let execution = executes(hit.kind);
        let (severity, message) = if tests && severity > Severity::Warning {
            (Severity::Warning, format!("{message} (in test code)"))
        } else if execution && severity > Severity::Warning && developer_script(head_text.path) {
            // The input of a maintainer's own script is the maintainer's: an injection there
            // needs the attacker at the keyboard already.
            (
                Severity::Warning,
                format!("{message} (in a developer script)"),
            )
        } else {
            (severity, message)
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: hit.line,
            end_line: hit.end_line,
            severity,
            message,
            key: format!("{}:{}", hit.key, hit.text),
            moved: Some(Moved {
                family: language.family(),
                key: hit.text.clone(),
                already: FactRef::base(WEAKENED),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: Confidence::Certain,
        });
    }
}

/// A weakening's text without the object it is made on: `ssl_context.check_hostname = False`
/// and `self.check_hostname = False` make the same setting.
fn setting(text: &str) -> &str {
    let Some((target, _)) = text.split_once('=') else {
        return text;
    };
    let target = target.trim_end();
    match target.rfind('.') {
        Some(dot)
            if target[..dot]
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$')) =>
        {
            &text[dot + 1..]
        }
        _ => text,
    }
}

/// Kinds that run code or commands built from their argument.
fn executes(kind: Kind) -> bool {
    matches!(kind, Kind::Dynamic | Kind::ChildProcess | Kind::Deserialize)
}

/// Base matches that left their file, so a move into another changed file is not new.
pub fn facts(language: Language, head: &[Hit], base: &[Hit], out: &mut Output) {
    let head_counts = counts(head);
    let mut base_counts = counts(base);
    for (identity, count) in &mut base_counts {
        *count = count.saturating_sub(head_counts.get(identity).copied().unwrap_or(0));
    }
    for hit in base.iter().filter(|hit| reported(hit.kind)) {
        if base_counts
            .get(&hit.identity())
            .is_some_and(|left| *left > 0)
        {
            out.facts.push(Fact {
                side: Side::Base,
                name: WEAKENED,
                family: language.family(),
                key: hit.text.clone(),
                severity: Severity::Error,
            });
        }
    }
}

/// The severity and message of a new match, or `None` when its kind's condition fails.
fn judge(
    context: &FileContext<'_>,
    hit: &Hit,
    text: &str,
    credentials: bool,
    permissive: bool,
) -> Option<(Severity, String)> {
    let shown = &hit.shown;
    let path = context.pair.path();
    match hit.kind {
        Kind::Flag if hit.message.contains("verification") && opt_in_switch(text, hit.line) => {
            Some((
                Severity::Warning,
                format!(
                    "{} under an explicit opt-in switch (an `insecure` mode the user asks for): `{shown}`",
                    hit.message
                ),
            ))
        }
        Kind::Flag => Some((
            hit.severity.unwrap_or(Severity::Error),
            format!("{}: `{shown}`", hit.message),
        )),
        Kind::Cors if credentials => Some((
            Severity::Error,
            format!(
                "{}, with credentials allowed: any site can act as the signed-in user \
                 (`{shown}`)",
                hit.message
            ),
        )),
        Kind::Cors => Some((Severity::Warning, format!("{}: `{shown}`", hit.message))),
        Kind::Credentials if permissive => Some((
            Severity::Error,
            format!(
                "credentials are allowed cross-origin next to a CORS policy that accepts any \
                 origin (`{shown}`)"
            ),
        )),
        Kind::Credentials => None,
        Kind::Cookie => {
            let object = hit.object.as_deref().unwrap_or_default();
            let before = lines_before(text, hit.line, 2).to_ascii_lowercase();
            let cookie = cookie_options(object) || before.contains("cookie");
            cookie.then(|| (Severity::Error, format!("{}: `{shown}`", hit.message)))
        }
        Kind::Dynamic => dynamic(hit),
        Kind::ChildProcess => (text.contains("child_process"))
            .then(|| dynamic(hit))
            .flatten(),
        Kind::Deserialize => {
            let arg = hit.arg.as_deref().unwrap_or_default();
            let round_trip = arg.contains("dumps(") || arg.contains("dump(");
            (!constant(arg) && !round_trip)
                .then(|| (Severity::Error, format!("{}: `{shown}`", hit.message)))
        }
        Kind::WeakHash => weak_hash(hit, text),
        Kind::WeakSecret => {
            let arg = hit.arg.as_deref().unwrap_or_default();
            (constant(arg) && !in_tests(path))
                .then(|| (Severity::Error, format!("{}: `{shown}`", hit.message)))
        }
        Kind::Settings => production_settings(path)
            .then(|| (Severity::Error, format!("{} (`{shown}`)", hit.message))),
        Kind::JwtDecode => {
            let base = context.side(Side::Base)?;
            let function = hit.function.as_deref()?;
            let scope_verified = |side_text: &str| {
                scope_text(side_text, function).is_some_and(|body| body.contains("jwt.verify("))
            };
            (scope_verified(base.text) && !scope_verified(text)).then(|| {
                (
                    Severity::Error,
                    format!(
                        "`{}` replaces `jwt.verify` in `{}`: the token's signature is no longer \
                         checked",
                        shown, function
                    ),
                )
            })
        }
        Kind::ViaFalse | Kind::ViaTrue | Kind::Auth | Kind::Middleware | Kind::JwtVerify => None,
    }
}

fn dynamic(hit: &Hit) -> Option<(Severity, String)> {
    let arg = hit.arg.as_deref().unwrap_or_default();
    (!constant(arg)).then(|| {
        (
            Severity::Error,
            format!(
                "{} (`{}` is not a constant): `{}`",
                hit.message,
                crate::rules::markers::shorten(arg.trim(), 40),
                hit.shown
            ),
        )
    })
}

/// Whether text names a password (`password`, `user_pass`, `pwd`), not a word that merely
/// contains "pass" (`bypass`, `passthrough`).
pub(super) fn mentions_password(text: &str) -> bool {
    static PASSWORD: OnceLock<Option<Regex>> = OnceLock::new();
    PASSWORD
        .get_or_init(|| {
            Regex::new(r"(?i)passw(or)?d|passphrase|(^|[^a-z])(pass|pwd|pw)([^a-z]|$)").ok()
        })
        .as_ref()
        .is_some_and(|pattern| pattern.is_match(text))
}

/// md5/sha1 with a password in the call, on its line, or in the scope's name.
fn weak_hash(hit: &Hit, text: &str) -> Option<(Severity, String)> {
    let lower = hit.text.to_ascii_lowercase();
    // `hashlib.new(name, data)` and `new(..)` of other APIs: only md5/sha1 by name.
    let named = ["'md5'", "\"md5\"", "'sha1'", "\"sha1\""]
        .iter()
        .any(|name| lower.contains(name));
    if hit.text.contains("new(") && !named {
        return None;
    }
    let line = lines_around(text, hit.line, hit.end_line);
    (mentions_password(&line) || mentions_password(&hit.key))
        .then(|| (Severity::Error, format!("{}: `{}`", hit.message, hit.shown)))
}

/// Scripts the maintainers run by hand or in CI (`scripts/`, `tools/`, `bin/`, `.claude/`,
/// `.github/`), not code the product ships.
fn developer_script(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut dirs: Vec<&str> = lower.split('/').collect();
    dirs.pop();
    dirs.iter().any(|dir| {
        matches!(
            *dir,
            "scripts"
                | "script"
                | "tools"
                | "tooling"
                | "bin"
                | ".claude"
                | ".github"
                | "dev"
                | "devtools"
                | "ci"
                | ".husky"
                | "benchmarks"
                | "bench"
        )
    })
}

/// Whether an object literal holds cookie options.
fn cookie_options(object: &str) -> bool {
    [
        "httpOnly", "sameSite", "maxAge", "expires", "signed", "domain", "cookie",
    ]
    .iter()
    .any(|key| object.contains(key))
}

/// Production settings files: `settings.py`, `settings/prod.py`, `config/settings/base.py`;
/// not development, local or test settings.
fn production_settings(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let file = lower.rsplit('/').next().unwrap_or(&lower);
    let stem = file.trim_end_matches(".py");
    let settings =
        stem.contains("settings") || lower.contains("/settings/") || lower.starts_with("settings/");
    let development = ["dev", "local", "test", "ci"].iter().any(|word| {
        stem.split(['_', '.', '-'])
            .any(|part| part.starts_with(word))
    });
    settings && !development && !in_tests(path)
}

/// The text of the `count` lines before 1-based `line`.
/// Whether one of the few lines above `line` opens a branch on a switch whose name says it
/// turns verification off (`if insecure {`, `if (opts.skipTlsVerify)`, `if args.no_verify:`):
/// an escape hatch the user must ask for, not verification switched off for everyone
/// (zellij 458f90cb, 7c686235: `--insecure` for development servers).
fn opt_in_switch(text: &str, line: u32) -> bool {
    static SWITCH: OnceLock<Regex> = OnceLock::new();
    let switch = SWITCH.get_or_init(|| {
        Regex::new(r"(?i)\bif\b[^\n{:]*\b(insecure|dangerous|danger_?\w*|skip_?(tls_?|ssl_?|cert_?)?verif\w*|no_?verify\w*|allow_?invalid\w*|accept_?invalid\w*)\b")
            .unwrap_or_else(|_| unreachable!("a constant pattern"))
    });
    let above = lines_before(text, line.saturating_sub(1), 5);
    // `if insecure || true {`, `let insecure = true;`: a switch nobody has to throw.
    let always_on = above.contains("||")
        || text.lines().any(|line| {
            let squashed: String = line.split_whitespace().collect();
            let lower = squashed.to_ascii_lowercase();
            lower.contains("insecure=true")
                || lower.contains("insecure:bool=true")
                || lower.contains("insecure=1")
        });
    switch.is_match(&above) && !always_on
}

fn lines_before(text: &str, line: u32, count: u32) -> String {
    let first = line.saturating_sub(count).max(1);
    lines_around(text, first, line)
}

/// The text of 1-based lines `first..=last`.
fn lines_around(text: &str, first: u32, last: u32) -> String {
    text.lines()
        .skip(first.saturating_sub(1) as usize)
        .take((last.saturating_sub(first) + 1) as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The body of the function named `name` (from its header to the next line indented as
/// little), a bounded text search good enough to ask whether it calls `jwt.verify`.
fn scope_text<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let headers = [
        format!("function {name}("),
        format!("{name} = ("),
        format!("{name}("),
        format!("{name} = async ("),
    ];
    let start = headers
        .iter()
        .filter_map(|header| text.find(header.as_str()))
        .min()?;
    let rest = &text[start..];
    let end = rest
        .match_indices("\n}")
        .next()
        .map_or(rest.len(), |(at, _)| at);
    Some(&rest[..end])
}

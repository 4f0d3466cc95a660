//! `logged-secret`: the change adds a log or print of a credential. Code is read through
//! `queries/<lang>/logged-secret.scm` (the logging calls) and the shared `aliases` query (what a
//! local name holds); shell lines (scripts, recipes, `RUN`, CI steps, package.json scripts)
//! through the shared command parser of `unsafe-operation`.

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use super::unsafe_operation::shell::{self, Place};
use super::unsafe_operation::sources::{self, ShellLine};
use super::unsafe_operation::values::{
    self, Aliases, EnvRead, blank_literals, env_reads, in_literal_text, is_secret_name, redacted_at,
};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

declare_rule! {
    /// ## What it flags
    /// A logging or print call the change adds whose arguments read a credential:
    ///
    /// - a secret-named environment variable (`*_TOKEN`, `*_SECRET`, `*_KEY`, `*_PASSWORD`,
    ///   `*_CREDENTIALS`, …; not `PUBLIC_KEY`, `*_PUBLISHABLE_KEY`, `*_KEY_ID`, `csrf_token`)
    ///   read with `os.environ[…]`/`os.getenv`, `process.env.X`, `env::var("X")`, directly or
    ///   through a local alias (`token = os.environ["GITHUB_TOKEN"]` … `print(token)`);
    /// - a secret-named field of a config or settings object (`settings.SECRET_KEY`,
    ///   `config.apiKey`, `creds["password"]`, `cfg.private_key`);
    /// - the whole environment (`print(os.environ)`, `console.log(process.env)`,
    ///   `JSON.stringify(process.env)`, `dbg!(env::vars())`), and (a warning) a whole settings
    ///   object (`vars(settings)`, `settings.__dict__`, `config.model_dump()`).
    ///
    /// Logging calls: Python `print`, `logging`/`logger`/`log`.*, `sys.stdout.write`,
    /// `click.echo`, `rich`; JavaScript/TypeScript `console.*`, `logger.*`, `core.info` and
    /// friends, `process.stdout.write`; Rust `println!`, `eprintln!`, `dbg!`, and the `log`
    /// and `tracing` macros.
    ///
    /// Shell (scripts, Makefiles, Dockerfile `RUN`, CI steps, package.json scripts): `echo`,
    /// `printf`, `Write-Host` or `printenv NAME` of a secret-named variable or of
    /// `${{ secrets.X }}`, not redirected to a file and not piped into a consumer. GitHub
    /// masks the exact value of a registered secret in logs, so a plain
    /// `echo ${{ secrets.X }}` in a workflow is a warning; a transformed value is not masked,
    /// so `echo "$TOKEN" | base64` (also `rev`, `xxd`, `od`, `sed`, `tr`) is an error
    /// everywhere, and so is a plain echo in a script that runs on a developer's machine or
    /// in an image build. `env`/`printenv` dumping the whole environment is a warning in CI
    /// and in image builds (values that are not registered secrets are not masked), a note in
    /// a local script.
    /// ## Why it matters
    /// A secret printed while debugging a connection ends up in CI logs (public for open
    /// source projects), log aggregators and terminal scrollback; once logged it must be
    /// rotated.
    /// ## Example
    /// Fires: `console.log("DB password:", process.env.DB_PASSWORD)`;
    /// `logger.debug(f"using {token}")` after `token = os.getenv("API_TOKEN")`;
    /// `println!("{:?}", std::env::vars().collect::<Vec<_>>())`;
    /// `run: echo "${{ secrets.NPM_TOKEN }}" | base64`.
    /// ## Not flagged
    /// - Redacted forms: a fixed-length prefix or suffix (`token[:4]`, `.slice(0, 4)`,
    ///   `${TOKEN:0:4}`), a length (`len(token)`, `.length`), a hash (`sha256(…)`), a mask
    ///   or redact helper (`mask(token)`), a presence test (`"set" if token else "unset"`,
    ///   `!!process.env.X`, `token is not None`).
    /// - Non-secret names (`process.env.NODE_ENV`, `os.environ["HOME"]`), environment keys
    ///   only (`list(os.environ.keys())`, `Object.keys(process.env)`), words inside a message
    ///   string (`print("password reset sent")`), sample code quoted in a message
    ///   (`` console.log(`pass password: process.env.DB_PASSWORD`) ``: only `${…}` reads it).
    /// - A secret echoed into a file or a consumer (`>> $GITHUB_ENV`, `| docker login
    ///   --password-stdin`, `::add-mask::`).
    /// - What already existed in base (moved or re-indented lines, the same call).
    /// ## Configuration
    /// `rules.logged-secret.severity`.
    pub static LOGGED_SECRET = {
        id: "logged-secret",
        severity: Error,
        engine: Lines,
        languages: [],
        summary: "a log or print of a credential is added (a secret-named env var or field, the whole environment)",
        maturity: Stable,
        check: Some(check),
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    if let Some(language) = context.language {
        code(context, language, out);
        return;
    }
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if !sources::holds_commands(context.pair.path(), head.text) {
        return;
    }
    for line in sources::added(context).0 {
        if let Some((severity, message)) = shell_line(&line) {
            out.candidates.push(Candidate {
                end_line: line.end_line,
                ..Candidate::at_line(
                    Side::Head,
                    line.line,
                    severity,
                    format!("{} {message}", line.origin.label()),
                    format!("echo:{}", sources::normalized(&line.text)),
                )
            });
        }
    }
}

struct Hit {
    line: u32,
    end_line: u32,
    severity: Severity,
    message: String,
    identity: String,
    alias_lines: Vec<u32>,
}

fn code(context: &FileContext<'_>, language: Language, out: &mut Output) {
    let head = hits(context, Side::Head);
    if head.is_empty() {
        return;
    }
    let _ = language;
    let mut base: HashMap<String, usize> = HashMap::new();
    for hit in hits(context, Side::Base) {
        *base.entry(hit.identity).or_default() += 1;
    }
    for hit in head {
        if let Some(count) = base.get_mut(&hit.identity)
            && *count > 0
        {
            *count -= 1;
            continue;
        }
        let fresh = context.pair.added.overlaps(hit.line, hit.end_line)
            || hit
                .alias_lines
                .iter()
                .any(|line| context.is_added_line(*line));
        if fresh {
            out.candidates.push(Candidate {
                end_line: hit.end_line,
                ..Candidate::at_line(
                    Side::Head,
                    hit.line,
                    hit.severity,
                    hit.message,
                    hit.identity,
                )
            });
        }
    }
}

fn hits(context: &FileContext<'_>, side: Side) -> Vec<Hit> {
    let Some(text) = context.side(side) else {
        return Vec::new();
    };
    let text = text.text;
    let found = context.matches(side, "logged-secret");
    if found.is_empty() {
        return Vec::new();
    }
    let aliases = Aliases::from_matches(&context.matches(side, "aliases"), text);
    let mut out = Vec::new();
    for matched in found.iter() {
        let Some(call) = text.get(matched.byte_range.clone()) else {
            continue;
        };
        let Some(open) = call.find(['(', '[', '{']) else {
            continue;
        };
        let (callee, arguments) = call.split_at(open);
        let (resolved, alias_lines) = aliases.resolve(arguments, &matched.key, matched.line);
        let Some((severity, what)) = judge(&resolved) else {
            continue;
        };
        // `token: u32` (a request's sequence number): a number named like a secret is none.
        if what.starts_with("logs the secret field")
            && secret_field(&resolved).is_some_and(|(field, _)| {
                numeric_field(text, field.rsplit('.').next().unwrap_or(&field))
            })
        {
            continue;
        }
        let callee = callee.trim_end_matches('!').trim();
        out.push(Hit {
            line: matched.line,
            end_line: matched.end_line,
            severity,
            message: format!("`{callee}` {what}"),
            identity: format!("log:{}", sources::normalized(&resolved)),
            alias_lines,
        });
    }
    out
}

/// Whether the file declares `name` (field or parameter) with a number type and never with
/// another: `token: u32`, `token: Option<u64>`, `token: int`, `token?: number`.
fn numeric_field(text: &str, name: &str) -> bool {
    const NUMBERS: &[&str] = &[
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
        "int",
        "float",
        "number",
        "bigint",
        "NonZeroU32",
        "NonZeroU64",
    ];
    let Ok(pattern) = Regex::new(&format!(
        r"\b{}\s*\??\s*:\s*(?:Option<\s*)?(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)?([A-Za-z_][A-Za-z0-9_]*)",
        regex::escape(name)
    )) else {
        return false;
    };
    // What stands after `name:` is a type, or a value in a struct literal (`token: None`,
    // `token: next`): a type is a number, a capitalised name or a builtin text type.
    let mut types = pattern
        .captures_iter(text)
        .filter_map(|captures| captures.get(1))
        .map(|found| found.as_str())
        .filter(|kind| {
            NUMBERS.contains(kind)
                || matches!(
                    *kind,
                    "str" | "bytes" | "string" | "any" | "object" | "dict"
                )
                || (kind.starts_with(|c: char| c.is_ascii_uppercase())
                    && !matches!(*kind, "None" | "Some" | "Default" | "Self" | "Ok" | "Err"))
        })
        .peekable();
    types.peek().is_some() && types.all(|kind| NUMBERS.contains(&kind))
}

/// Whether the environment at `range` is handed to a child process (`spawnSync(cmd, { env:
/// { ...process.env, X } })`, `run(cmd, env=os.environ)`): a value that came back from such a
/// call (its output, through an alias) carries no environment to log.
fn child_environment(text: &str, range: &std::ops::Range<usize>) -> bool {
    static ENV_ARGUMENT: OnceLock<Option<Regex>> = OnceLock::new();
    let before = text.get(..range.start).unwrap_or_default();
    let start = before.len().saturating_sub(40);
    let start = (start..=before.len())
        .find(|at| before.is_char_boundary(*at))
        .unwrap_or(before.len());
    values::regex(
        &ENV_ARGUMENT,
        r"\benv\s*[:=]\s*(?:\{\s*|dict\(\s*)?(?:\.\.\.|\*\*)?\s*$",
    )
    .is_some_and(|pattern| pattern.is_match(&before[start..]))
}

/// What a logging call's arguments (aliases substituted) expose.
fn judge(arguments: &str) -> Option<(Severity, String)> {
    for read in env_reads(arguments) {
        match read {
            EnvRead::Everything(range) | EnvRead::Secret(_, range)
                if in_literal_text(arguments, range.start) => {}
            EnvRead::Everything(range)
                if !redacted_at(arguments, &range) && !child_environment(arguments, &range) =>
            {
                return Some((Severity::Error, "logs the whole environment".to_string()));
            }
            EnvRead::Secret(name, range) if !redacted_at(arguments, &range) => {
                return Some(through_call(
                    arguments,
                    range.start,
                    format!("logs the secret environment variable `{name}`"),
                ));
            }
            _ => {}
        }
    }
    if let Some((field, at)) = secret_field(arguments) {
        return Some(through_call(
            arguments,
            at,
            format!("logs the secret field `{field}`"),
        ));
    }
    static DUMP: OnceLock<Option<Regex>> = OnceLock::new();
    let dump = values::regex(
        &DUMP,
        r"(?:\bvars|\basdict|JSON\.stringify)\(\s*(?:self\.)?(?:settings|config|conf|cfg|credentials|creds|secrets)\s*[,)]|\b(?:settings|config|conf|cfg|credentials|creds|secrets)\.(?:__dict__|model_dump\(|dict\(|to_dict\(|_asdict\()",
    );
    if dump.is_some_and(|pattern| pattern.is_match(&blank_literals(arguments))) {
        return Some((
            Severity::Warning,
            "logs a whole settings object".to_string(),
        ));
    }
    None
}

/// Calls that hand a value on as it is, in another type or format: what they return is the
/// secret.
const PASS_THROUGH: &[&str] = &[
    "String",
    "str",
    "repr",
    "format",
    "stringify",
    "toString",
    "inspect",
    "dumps",
    "dbg",
    "Some",
    "f",
    "concat",
    "join",
    "pformat",
    "debug",
];

/// The finding for a secret read at `at` in a logging call's `arguments`: an error, unless the
/// value is first handed to another function (`wrapParam('password', options.password, true,
/// 'secret')`), which may mask it: then a warning that names that function.
fn through_call(arguments: &str, at: usize, what: String) -> (Severity, String) {
    match enclosing_call(arguments, at) {
        Some(callee) if !PASS_THROUGH.contains(&callee) => (
            Severity::Warning,
            format!("{what} through `{callee}(…)`, which may mask it"),
        ),
        _ => (Severity::Error, what),
    }
}

/// The name of the innermost call around byte `at` of `arguments` (which open with the logging
/// call's own bracket, not counted), if there is one; grouping brackets are looked through.
fn enclosing_call(arguments: &str, at: usize) -> Option<&str> {
    let before = arguments.get(..at)?;
    let blanked = blank_literals(before);
    let mut open: Vec<usize> = Vec::new();
    for (index, byte) in blanked.bytes().enumerate() {
        match byte {
            b'(' => open.push(index),
            b')' => {
                open.pop();
            }
            _ => {}
        }
    }
    // A grouping bracket (`client=(creds.token.get(..))`) names no call: the call around it
    // still receives the value.
    open.iter()
        .rev()
        .take_while(|at| **at != 0)
        .find_map(|&at| {
            let name_start = before[..at]
                .trim_end()
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .map_or(0, |index| index + 1);
            let name = before[name_start..at].trim_end();
            (!name.is_empty()).then_some(name)
        })
}

/// A secret-named field read in the arguments (`settings.SECRET_KEY`, `creds["password"]`),
/// outside message text and not redacted.
fn secret_field(arguments: &str) -> Option<(String, usize)> {
    static ATTRIBUTE: OnceLock<Option<Regex>> = OnceLock::new();
    static SUBSCRIPT: OnceLock<Option<Regex>> = OnceLock::new();
    let blanked = blank_literals(arguments);
    if let Some(pattern) = values::regex(
        &ATTRIBUTE,
        r"(?:([A-Za-z_][A-Za-z0-9_]*)|[)\]}])\??\.([A-Za-z_][A-Za-z0-9_]*)",
    ) {
        for captures in pattern.captures_iter(&blanked) {
            let (Some(name), Some(whole)) = (captures.get(2), captures.get(0)) else {
                continue;
            };
            let object = captures.get(1).map_or("", |object| object.as_str());
            let after = &blanked[whole.end()..];
            let called = after.trim_start().starts_with('(');
            let environment = matches!(object, "env" | "environ");
            if !called
                && !environment
                && is_secret_name(name.as_str())
                && !redacted_at(&blanked, &whole.range())
            {
                return Some((format!("{object}.{}", name.as_str()), whole.start()));
            }
        }
    }
    if let Some(pattern) = values::regex(
        &SUBSCRIPT,
        r#"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[\s*|\.get\(\s*)["']([A-Za-z_][A-Za-z0-9_]*)["']\s*[\]),]"#,
    ) {
        for captures in pattern.captures_iter(arguments) {
            let (Some(object), Some(name), Some(whole)) =
                (captures.get(1), captures.get(2), captures.get(0))
            else {
                continue;
            };
            let environment = matches!(object.as_str(), "environ" | "env" | "getenv");
            if !environment
                && is_secret_name(name.as_str())
                && !redacted_at(arguments, &whole.range())
            {
                return Some((
                    format!("{}[\"{}\"]", object.as_str(), name.as_str()),
                    whole.start(),
                ));
            }
        }
    }
    None
}

const ECHOES: &[&str] = &["echo", "printf", "Write-Host", "Write-Output", "print"];

/// Programs whose output is the secret in another form, which log masking does not catch.
const TRANSFORMS: &[&str] = &[
    "base64", "rev", "xxd", "od", "hexdump", "sed", "tr", "awk", "fold", "basenc", "base32",
];

/// What a command line prints of a secret, if anything.
fn shell_line(line: &ShellLine) -> Option<(Severity, String)> {
    for pipeline in shell::parse(&line.text) {
        for (index, command) in pipeline.iter().enumerate() {
            let program = command.program();
            let to_file = command.redirects.iter().any(|target| {
                !matches!(target.as_str(), "/dev/stdout" | "/dev/stderr" | "/dev/tty")
            });
            if to_file {
                continue;
            }
            let next = pipeline.get(index + 1);
            let printed = if ECHOES.contains(&program) {
                let text = command.args().join(" ");
                if text.contains("::add-mask::") || text.starts_with("::") {
                    continue;
                }
                shell::secret_variables(&text)
            } else if program == "printenv" && !command.args().is_empty() {
                command
                    .args()
                    .iter()
                    .filter(|name| is_secret_name(name))
                    .cloned()
                    .collect()
            } else if matches!(program, "env" | "printenv") && command.args().is_empty() {
                let last_to_stdout = pipeline[index..]
                    .iter()
                    .all(|later| later.redirects.is_empty())
                    && pipeline[index + 1..].iter().all(|later| {
                        matches!(later.program(), "sort" | "grep" | "cat" | "less" | "uniq")
                    });
                if !last_to_stdout {
                    continue;
                }
                let severity = match line.place {
                    Place::Developer => Severity::Note,
                    Place::Runner | Place::Image => Severity::Warning,
                };
                return Some((
                    severity,
                    format!(
                        "prints the whole environment with `{program}` (values that are not registered secrets are not masked)"
                    ),
                ));
            } else {
                continue;
            };
            let Some(secret) = printed.first() else {
                continue;
            };
            match next {
                None => {
                    let (severity, note) = match line.place {
                        Place::Runner => (
                            Severity::Warning,
                            " (GitHub masks a registered secret's exact value, nothing else)",
                        ),
                        Place::Developer | Place::Image => (Severity::Error, ""),
                    };
                    return Some((severity, format!("prints the secret `{secret}`{note}")));
                }
                Some(next) if TRANSFORMS.contains(&next.program()) => {
                    let ends_in_log = pipeline[index + 1..]
                        .iter()
                        .all(|later| later.redirects.is_empty());
                    if ends_in_log {
                        return Some((
                            Severity::Error,
                            format!(
                                "prints the secret `{secret}` transformed by `{}`, which log masking does not catch",
                                next.program()
                            ),
                        ));
                    }
                }
                Some(_) => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, place: Place) -> Option<Severity> {
        shell_line(&ShellLine {
            line: 1,
            end_line: 1,
            text: text.to_string(),
            place,
            origin: sources::Origin::Script,
        })
        .map(|(severity, _)| severity)
    }

    #[test]
    fn shell_echoes() {
        assert_eq!(
            line("echo ${{ secrets.NPM_TOKEN }}", Place::Runner),
            Some(Severity::Warning)
        );
        assert_eq!(
            line("echo \"${{ secrets.NPM_TOKEN }}\" | base64", Place::Runner),
            Some(Severity::Error)
        );
        assert_eq!(
            line("echo \"token: $API_TOKEN\"", Place::Developer),
            Some(Severity::Error)
        );
        assert_eq!(
            line(
                "echo \"//r/:_authToken=$NPM_TOKEN\" > .npmrc",
                Place::Runner
            ),
            None
        );
        assert_eq!(
            line(
                "echo \"$TOKEN\" | docker login --password-stdin",
                Place::Runner
            ),
            None
        );
        assert_eq!(line("echo \"::add-mask::$API_TOKEN\"", Place::Runner), None);
        assert_eq!(line("echo \"${API_TOKEN:0:4}\"", Place::Developer), None);
        assert_eq!(
            line("echo \"TOKEN=$API_TOKEN\" >> $GITHUB_ENV", Place::Runner),
            None
        );
        assert_eq!(line("echo $HOME", Place::Developer), None);
    }

    #[test]
    fn code_arguments() {
        assert!(judge(r#"("DB password:", process.env.DB_PASSWORD)"#).is_some());
        assert!(judge(r#"(f"using {os.environ['API_TOKEN']}")"#).is_some());
        assert!(judge(r#"(settings.SECRET_KEY)"#).is_some());
        assert!(judge(r#"(creds["password"])"#).is_some());
        assert!(judge(r#"("password reset sent")"#).is_none());
        assert!(judge(r#"(os.environ["API_TOKEN"][:4])"#).is_none());
        assert!(judge(r#"(len(os.environ["API_TOKEN"]))"#).is_none());
        assert!(judge(r#"(process.env.NODE_ENV)"#).is_none());
        assert!(judge(r#"(user.password_hash)"#).is_none());
        assert!(judge(r#"(mask(config.apiKey))"#).is_none());
        assert!(judge(r#"("{:?}", std::env::vars().collect::<Vec<_>>())"#).is_some());
    }

    #[test]
    fn a_grouping_bracket_does_not_hide_the_call_around_it() {
        let severity = |arguments: &str| judge(arguments).map(|(severity, _)| severity);
        assert_eq!(
            severity(r#"(f"{watch(client=(config.credentials.client()), n=1).message}")"#),
            Some(Severity::Warning)
        );
        assert_eq!(severity(r#"((config.credentials))"#), Some(Severity::Error));
        assert_eq!(
            severity(r#"(str((config.credentials)))"#),
            Some(Severity::Error)
        );
    }
}

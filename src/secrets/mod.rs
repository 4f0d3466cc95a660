//! Detection core of the `leaked-secret` rule: finds credentials in single lines of text,
//! recognises files that must never be committed, and redacts secrets for display.
//!
//! The engine calls [`Scanner::scan_line`] on every line a change adds and
//! [`sensitive_file`] on every added or renamed path. Each rule in the catalogue
//! ([`rules`]) names keywords; one Aho-Corasick pass over the line selects the few rules
//! whose keywords occur, and only those run their regexes, so a line without any keyword
//! costs one automaton scan however many rules exist. Matches then pass plausibility
//! filters (entropy, placeholders, references, identifier shapes) before they become
//! [`SecretHit`]s. No function here returns or formats a secret in full: callers get byte
//! ranges and must display [`redact`]ed forms.

mod assembled;
mod encoded;
mod files;
mod filters;
mod kubernetes;
mod rules;
mod stream;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod vectors;

use crate::finding::fnv1a64;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::{Regex, RegexBuilder};

pub use assembled::assembled_values;
pub use files::sensitive_file;
pub use kubernetes::secret_data_values;
pub use rules::{Pattern, SecretRule};
pub use stream::StreamHit;

/// The rule catalogue, for documentation and tests.
pub fn rules() -> &'static [SecretRule] {
    rules::RULES
}

/// Whether the token format `re` found `secret` in also takes a longer value: the same secret
/// with its last character repeated matches as a longer secret. False for fixed-length formats
/// (`ghp_` and 36 characters), where a cut-short value would not have matched at all.
fn format_continues(re: &Regex, secret: &str) -> bool {
    let Some(last) = secret.chars().last() else {
        return false;
    };
    let longer: String = secret.chars().chain(std::iter::repeat_n(last, 8)).collect();
    re.captures(longer.as_bytes())
        .and_then(|caps| caps.name("s").or_else(|| caps.get(0)))
        .is_some_and(|m| m.len() > secret.len())
}

/// Whether `rule_id` is a keyword rule (`password = "…"`) rather than a self-identifying token.
pub fn is_generic(rule_id: &str) -> bool {
    rules::RULES
        .iter()
        .any(|rule| rule.id == rule_id && rule.pattern == Pattern::Generic)
}

/// One credential found in a scanned line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretHit {
    /// Rule id, e.g. `github-pat`.
    pub rule_id: &'static str,
    /// Rule description, e.g. "GitHub personal access token".
    pub description: &'static str,
    /// Byte offset where the secret starts within the scanned line.
    pub start: usize,
    /// Byte offset just past the secret (always a char boundary).
    pub end: usize,
}

/// Lines longer than this (minified bundles, data blobs) are scanned in overlapping windows
/// ([`stream`]), which bounds the cost of one regex pass without leaving any byte unscanned.
const MAX_SCAN_BYTES: usize = 1 << 20;

/// Assignment operators across config and programming languages: `=`, `:=`, `::=`,
/// `:::=`, `?=`, `.=`, `=>`, `:`, `,` (function arguments, `setProperty("K", "v")`), `>`
/// (XML element text).
const OPERATOR: &str = r"(?::::=|::=|:=|\?=|\.=|=>|=|:|,|>)";
/// [`OPERATOR`] for unquoted values: without `,`.
const OPERATOR_UNQUOTED: &str = r"(?::::=|::=|:=|\?=|\.=|=>|=|:|>)";
/// What may follow a secret: a quote, whitespace, a delimiter, an escaped newline, or the end.
const TERMINATOR: &str = r#"(?:['"`\s;,)<}\]&]|\\[nrt]|$)"#;

/// A rule's compiled form. Tiers order overlapping hits: a self-identifying token beats a
/// service-keyword match, which beats a generic keyword assignment.
struct Compiled {
    rule: &'static SecretRule,
    regexes: Vec<Regex>,
    /// Service rules: the service-name regex alone, to check where it sits in the identifier.
    ident_re: Option<Regex>,
    tier: u8,
}

/// The catalogue behind its keyword prefilter. A rule's regexes are compiled the first time
/// the prefilter selects it, so a change whose added lines mention no keyword compiles none
/// (most of the ~200 rules are never needed in one run). Callers share one [`scanner`].
pub struct Scanner {
    prefilter: AhoCorasick,
    /// For each prefilter pattern, the indexes of the rules that listed it.
    keyword_rules: Vec<Vec<usize>>,
    compiled: Vec<std::sync::OnceLock<Compiled>>,
    /// The keywords of self-identifying token formats (`ghp_`, `akia`, `xoxb-`...), lower
    /// case: what a token cut short by truncation still starts with.
    token_prefixes: Vec<&'static str>,
}

/// The process-wide scanner.
pub fn scanner() -> &'static Scanner {
    static SCANNER: std::sync::OnceLock<Scanner> = std::sync::OnceLock::new();
    SCANNER.get_or_init(Scanner::new)
}

fn compile_rule(rule: &'static SecretRule) -> Compiled {
    let (regexes, tier) = match rule.pattern {
        Pattern::Token(re) => (vec![build(&token_regex(re))], 0),
        Pattern::PrivateKey => (vec![build(PRIVATE_KEY_HEADER)], 0),
        Pattern::Service { idents, value } => (vec![build(&service_regex(idents, value))], 1),
        Pattern::UrlPassword => (vec![build(URL_PASSWORD)], 1),
        Pattern::Generic => (generic_regexes().iter().map(|p| build(p)).collect(), 2),
    };
    let ident_re = match rule.pattern {
        Pattern::Service { idents, .. } => Some(build(&format!("(?i:{idents})"))),
        _ => None,
    };
    Compiled {
        rule,
        regexes,
        ident_re,
        tier,
    }
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

fn build(pattern: &str) -> Regex {
    // ASCII-only classes keep the automata small; secrets are ASCII.
    #[allow(clippy::expect_used)]
    RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(1 << 23)
        .build()
        .expect("built-in secret regex must compile (checked by tests)")
}

/// Between an identifier and its operator: a closing quote or bracket, or a type or second
/// word (`var token string = …`, `telegram bot: …`).
const IDENT_GAP: &str = r#"['"\]]{0,2}(?:[ \t]+[A-Za-z][A-Za-z0-9_]{0,15})?['"]?[ \t]{0,4}"#;

fn service_regex(idents: &str, value: &str) -> String {
    format!(
        r#"(?P<id>[A-Za-z0-9_.-]*?(?i:{idents})[A-Za-z0-9_.-]{{0,30}}){IDENT_GAP}{OPERATOR}[ \t]{{0,4}}['"`]?[ \t]{{0,2}}(?P<s>(?:{value})){TERMINATOR}"#
    )
}

/// A token right after an escaped newline (`"…\\nnpm_…"` in JSON or PEM-in-a-string) has no
/// word boundary before it; accept the escape as a boundary too.
fn token_regex(re: &str) -> String {
    match re.strip_prefix(r"\b(?P<s>") {
        Some(rest) => format!(r"(?:\b|\\[nrt])(?P<s>{rest}"),
        None => re.to_string(),
    }
}

const GENERIC_IDENTS: &str = "pass|pwd|secret|token|key|auth|credential|creds|api|bearer";

fn generic_regexes() -> Vec<String> {
    vec![
        // Quoted value: anything without quotes or whitespace.
        format!(
            r#"(?P<id>[A-Za-z0-9_.-]*?(?i:{GENERIC_IDENTS})[A-Za-z0-9_.-]{{0,30}}){IDENT_GAP}{OPERATOR}[ \t]{{0,4}}['"`](?P<s>[^'"`\s]{{6,200}})['"`]"#
        ),
        // Unquoted value (env files, YAML, properties): a conservative character set, and it
        // must be followed by a terminator so that `f(x)` or `a.b[c]` never match.
        // Not after a comma: `open(name, mode, pwd, force_zip64=force_zip64)` is an argument
        // list, not a setting.
        format!(
            r#"(?P<id>[A-Za-z0-9_.-]*?(?i:{GENERIC_IDENTS})[A-Za-z0-9_.-]{{0,30}}){IDENT_GAP}{OPERATOR_UNQUOTED}[ \t]{{0,4}}(?P<s>[A-Za-z0-9_.~+/=@!#%^*?-]{{6,200}}){TERMINATOR}"#
        ),
    ]
}

const PRIVATE_KEY_HEADER: &str = r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----";

const URL_PASSWORD: &str = r#"(?i)\b(?P<scheme>[a-z][a-z0-9+.-]{1,20})://(?P<u>[^:/?#@\s'"`<>]{1,100}):(?P<s>[^@/?#\s'"`<>]{1,200})@(?P<h>[A-Za-z0-9_.-]+|\[[0-9a-fA-F:]+\])"#;

impl Scanner {
    /// Compile the catalogue. Panics only if a built-in pattern is invalid, which the unit
    /// tests rule out.
    pub fn new() -> Scanner {
        let mut keywords: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut compiled = Vec::with_capacity(rules::RULES.len());
        for (idx, rule) in rules::RULES.iter().enumerate() {
            for kw in rule.keywords {
                let kw = kw.to_ascii_lowercase();
                match keywords.iter().position(|k| *k == kw) {
                    Some(p) => keyword_rules[p].push(idx),
                    None => {
                        keywords.push(kw);
                        keyword_rules.push(vec![idx]);
                    }
                }
            }
            let _ = rule;
            compiled.push(std::sync::OnceLock::new());
        }
        #[allow(clippy::expect_used)]
        let prefilter = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&keywords)
            .expect("keyword automaton from built-in literals");
        let token_prefixes = rules::RULES
            .iter()
            .filter(|rule| matches!(rule.pattern, Pattern::Token(_)))
            .flat_map(|rule| rule.keywords.iter().copied())
            .collect();
        Scanner {
            prefilter,
            keyword_rules,
            compiled,
            token_prefixes,
        }
    }

    /// Find every credential in one line. Hits do not overlap; where two rules claim the
    /// same text the more specific one wins. Never panics, whatever the input.
    pub fn scan_line(&self, line: &str) -> Vec<SecretHit> {
        if line.len() > MAX_SCAN_BYTES {
            return self.scan_in_windows(line);
        }
        let mut selected: Vec<bool> = Vec::new();
        for m in self.prefilter.find_overlapping_iter(line) {
            if selected.is_empty() {
                selected = vec![false; self.compiled.len()];
            }
            for &r in &self.keyword_rules[m.pattern().as_usize()] {
                selected[r] = true;
            }
        }
        if selected.is_empty() {
            return Vec::new();
        }
        let mut candidates: Vec<(u8, SecretHit)> = Vec::new();
        for (idx, cell) in self.compiled.iter().enumerate() {
            if selected[idx] {
                let c = cell.get_or_init(|| compile_rule(&rules::RULES[idx]));
                self.run_rule(c, line, &mut candidates);
            }
        }
        resolve_overlaps(candidates)
    }

    fn run_rule(&self, c: &Compiled, line: &str, out: &mut Vec<(u8, SecretHit)>) {
        let bytes = line.as_bytes();
        for re in &c.regexes {
            for caps in re.captures_iter(bytes) {
                let Some(m) = caps.name("s").or_else(|| caps.get(0)) else {
                    continue;
                };
                let (start, end) = widen_to_char_boundaries(line, m.start(), m.end());
                let secret = &line[start..end];
                let group = |name: &str| {
                    caps.name(name).map(|g| {
                        let (s, e) = widen_to_char_boundaries(line, g.start(), g.end());
                        &line[s..e]
                    })
                };
                let (start, end) = match c.rule.pattern {
                    Pattern::PrivateKey => match private_key_span(line, start, end) {
                        Some(span) => span,
                        None => continue,
                    },
                    _ => {
                        if let (Some(re), Some(id)) = (&c.ident_re, group("id"))
                            && !names_service(re, id)
                        {
                            continue;
                        }
                        // `"/etc/passwd", "…"` names a path, not a credential variable: an
                        // identifier never continues a path.
                        let in_path = matches!(c.rule.pattern, Pattern::Generic)
                            && caps.name("id").is_some_and(|id| {
                                id.start() > 0 && matches!(bytes[id.start() - 1], b'/' | b'\\')
                            });
                        if in_path {
                            continue;
                        }
                        // `codecov.io/gh/o/r/graph/badge.svg?token=erZTquL5n0`: Codecov's
                        // graphing token, made to be published in badge and graph URLs.
                        if matches!(c.rule.pattern, Pattern::Generic)
                            && codecov_graph_url(&line[..start])
                        {
                            continue;
                        }
                        let quoted = start > 0 && matches!(bytes[start - 1], b'"' | b'\'' | b'`');
                        // `type Password = Uint8Array | string`: a TypeScript type alias names
                        // types, never a value (h3 13d46b7c).
                        if matches!(c.rule.pattern, Pattern::Generic)
                            && !quoted
                            && type_alias(&line[..start])
                        {
                            continue;
                        }
                        // A URL's scheme stands where a keyword rule's identifier would.
                        let ident = group("id").or_else(|| group("scheme"));
                        if !accept(c.rule, secret, ident, group("u"), group("h"), quoted) {
                            continue;
                        }
                        if matches!(c.rule.pattern, Pattern::Token(_))
                            && followed_by_extension(&line[end..])
                        {
                            continue;
                        }
                        // Cut short for display (`ops_eyJzaWdu…`, `sk_live_51H8aB...`): not
                        // the value. A token of a fixed length followed by dots is whole.
                        if (line[end..].starts_with("...") || line[end..].starts_with('\u{2026}'))
                            && format_continues(re, secret)
                        {
                            continue;
                        }
                        // A bare JWT whose payload names nobody (`{"confidence":0.8}`) is
                        // sample data; one sent in an authorization header is a credential
                        // whatever it says, and is another rule's hit.
                        if c.rule.id == "jwt" && !encoded::jwt_names_a_principal(secret) {
                            continue;
                        }
                        (start, end)
                    }
                };
                out.push((
                    c.tier,
                    SecretHit {
                        rule_id: c.rule.id,
                        description: c.rule.description,
                        start,
                        end,
                    },
                ));
            }
        }
    }

    /// `line` with every hit replaced by its [`redact`]ed form (for snippets and messages).
    /// What a truncation left of a token is redacted too (see [`Scanner::cut_fragments`]), so
    /// text that was cut before it reached here still shows no more than a redacted form.
    pub fn redact_line(&self, line: &str) -> String {
        let mut hits = self.scan_line(line);
        hits.extend(self.encoded_hits(line));
        self.redact_hits(line, hits)
    }

    /// Base64 runs of `line` that decode to a self-identifying token (`Z2hwX…` for `ghp_…`):
    /// each hit spans the encoded run and names the token's rule. Generic keyword matches in
    /// decoded text are left out: decoding made no assignment the scanner can read.
    pub fn encoded_hits(&self, line: &str) -> Vec<SecretHit> {
        let mut hits = Vec::new();
        for (range, decoded) in encoded::printable_runs(line) {
            if let Some(token) = self
                .scan_line(&decoded)
                .into_iter()
                .find(|hit| !is_generic(hit.rule_id))
            {
                hits.push(SecretHit {
                    start: range.start,
                    end: range.end,
                    ..token
                });
            }
        }
        hits
    }

    /// Find every credential in a repository path. A token in a file name is followed by an
    /// extension (`ghp_….txt`), which [`Scanner::scan_line`] takes for a file name around a
    /// token-shaped run and skips, so the path is also scanned with its `.` and `/` read as
    /// separators (byte offsets unchanged); the more specific hit wins where both find one.
    pub fn scan_path(&self, path: &str) -> Vec<SecretHit> {
        let separated = path.replace(['.', '/'], " ");
        let candidates = self
            .scan_line(path)
            .into_iter()
            .chain(self.scan_line(&separated))
            .map(|hit| (0, hit))
            .collect();
        resolve_overlaps(candidates)
    }

    /// `path` with every credential in it redacted ([`Scanner::scan_path`]): how every output
    /// shows a path.
    pub fn redact_path(&self, path: &str) -> String {
        self.redact_hits(path, self.scan_path(path))
    }

    fn redact_hits(&self, line: &str, hits: Vec<SecretHit>) -> String {
        let mut spans: Vec<(usize, usize)> = hits.iter().map(|hit| (hit.start, hit.end)).collect();
        // A secret found once is redacted wherever else it stands on the line: overlapping
        // matches (two credentialed URLs run together) can hide a second copy from the scan.
        let found: std::collections::BTreeSet<&str> = hits
            .iter()
            .map(|hit| &line[hit.start..hit.end])
            .filter(|secret| !secret.is_empty())
            .collect();
        // Building an automaton costs microseconds even for no pattern, and almost every line
        // has no secret: skip it then (it was a sixth of a large change's CPU time).
        if !found.is_empty()
            && let Ok(copies) = AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&found)
        {
            spans.extend(
                copies
                    .find_iter(line)
                    .map(|copy| (copy.start(), copy.end())),
            );
        }
        spans.extend(self.cut_fragments(line));
        spans.sort_unstable();
        // Overlapping spans are redacted as one, so no byte of either is shown.
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (start, end) in spans {
            match merged.last_mut() {
                Some(last) if start < last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut out = String::with_capacity(line.len());
        let mut pos = 0;
        for (start, end) in merged {
            out.push_str(&line[pos..start]);
            out.push_str(&redact(&line[start..end]));
            pos = end;
        }
        out.push_str(&line[pos..]);
        out
    }

    /// [`Scanner::redact_line`] over every line of a multi-line text, keeping line endings.
    /// Many findings on one long line share its snippet, so the last result is remembered
    /// (per thread): each line is scanned once, not once per finding.
    pub fn redact_text(&self, text: &str) -> String {
        thread_local! {
            static LAST: std::cell::RefCell<Option<(String, String)>> =
                const { std::cell::RefCell::new(None) };
        }
        let cached = LAST.with_borrow(|last| {
            last.as_ref()
                .filter(|(input, _)| input == text)
                .map(|(_, output)| output.clone())
        });
        if let Some(output) = cached {
            return output;
        }
        let output: String = text
            .split_inclusive('\n')
            .map(|l| self.redact_line(l))
            .collect();
        LAST.set(Some((text.to_string(), output.clone())));
        output
    }

    /// Spans of `line` that a truncation left of a secret: the run of token characters right
    /// before a cut marker (`…` or `...`, but not a redacted form's own `…[redacted`) that is
    /// longer than a redacted form shows and either starts like a self-identifying token
    /// (`ghp_Zq7W…`) or is long and random enough to be one.
    fn cut_fragments(&self, line: &str) -> Vec<(usize, usize)> {
        let is_token_byte =
            |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+' | b'/');
        let bytes = line.as_bytes();
        let mut fragments = Vec::new();
        for marker in ["\u{2026}", "..."] {
            for (at, _) in line.match_indices(marker) {
                if line[at + marker.len()..].starts_with("[redacted fp:") {
                    continue;
                }
                let start = (0..at)
                    .rev()
                    .take_while(|&i| is_token_byte(bytes[i]))
                    .last()
                    .unwrap_or(at);
                let run = line[start..at].trim_start_matches(['.', '_', '-', '+', '/']);
                let start = at - run.len();
                if run.len() <= 4 {
                    continue;
                }
                let lower = run.to_ascii_lowercase();
                let token_start = self
                    .token_prefixes
                    .iter()
                    .any(|prefix| lower.starts_with(prefix) && lower.len() > prefix.len());
                // Paths and identifiers are as varied as keys by entropy alone; their parts
                // read as words.
                let random = run.len() >= 16
                    && run.bytes().any(|b| b.is_ascii_digit())
                    && run.bytes().any(|b| b.is_ascii_alphabetic())
                    && filters::shannon_entropy(run) >= 3.5
                    && !run.split(['/', '.', '_', '-']).all(|part| {
                        part.bytes().all(|b| b.is_ascii_digit())
                            || filters::is_identifier_like_value(part)
                    });
                if token_start || random {
                    fragments.push((start, at));
                }
            }
        }
        fragments
    }
}

/// `text` redacted, then cut to at most `max_chars` characters ending in `ellipsis`: the
/// only way text quoted from a change may be shortened for display. Redacting first means
/// a cut can only shorten a redacted form, never expose the part of a secret it kept; the cut
/// result is redacted once more in case the cut split a token the scanner did not know whole.
pub fn shorten_redacted(text: &str, max_chars: usize, ellipsis: &str) -> String {
    let scanner = scanner();
    let redacted = scanner.redact_text(text);
    if redacted.chars().count() <= max_chars {
        return redacted;
    }
    let keep = max_chars.saturating_sub(ellipsis.chars().count());
    let mut cut: String = redacted.chars().take(keep).collect();
    cut.push_str(ellipsis);
    scanner.redact_text(&cut)
}

/// Whether `before` (a line up to a match) ends in a TypeScript type alias's head: `type X = `,
/// `export type X<T> = `, also quoted in a comment or prose (`` `type X = `` ``).
fn type_alias(before: &str) -> bool {
    let Some(rest) = before.trim_end().strip_suffix('=') else {
        return false;
    };
    let rest = rest.trim_end();
    let name_start = rest
        .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '<' | '>' | ',' | ' ')))
        .map_or(0, |at| at + 1);
    let head = rest[name_start..].trim_start();
    let Some((prefix, name)) = head.rsplit_once("type ") else {
        return false;
    };
    let name = name.split('<').next().unwrap_or_default().trim();
    matches!(prefix.trim(), "" | "export" | "declare" | "export declare")
        && !name.is_empty()
        && !name.contains(' ')
}

/// Whether `before` (a line up to a match) ends inside a Codecov graph or badge URL's query.
fn codecov_graph_url(before: &str) -> bool {
    let url = before
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '(' | '"' | '\'' | '<' | '['))
        .next()
        .unwrap_or(before);
    url.contains("codecov.io/")
        && url.contains("/graph/")
        && url.contains('?')
        && !url.contains('@')
}

/// Per-kind plausibility checks on a regex match.
fn accept(
    rule: &SecretRule,
    secret: &str,
    ident: Option<&str>,
    user: Option<&str>,
    host: Option<&str>,
    quoted: bool,
) -> bool {
    match rule.pattern {
        Pattern::Token(_) | Pattern::Service { .. } => {
            if let Some(id) = ident
                && (!service_ident_ok(id) || filters::is_identifier_like_value(secret))
            {
                return false;
            }
            if let Some(u) = user {
                // curl --user name:password
                return filters::plausible_password(u, secret, rule.min_entropy);
            }
            !filters::is_placeholder(secret)
                && filters::shannon_entropy(secret)
                    >= filters::entropy_threshold(rule.min_entropy, secret.len())
        }
        Pattern::Generic => {
            let ident = ident.unwrap_or("");
            let strength = filters::ident_strength(ident);
            filters::plausible_generic_value(strength, ident, secret, rule.min_entropy, quoted)
        }
        Pattern::UrlPassword => {
            let host = host.unwrap_or("").to_ascii_lowercase();
            let example_host = host.starts_with("example.")
                || host.contains(".example")
                || host == "host"
                || host == "hostname";
            // `singlestore://root:singlestore@…`, `postgres://postgres:postgres@…`: the
            // product's name as its password is the default of a local test database.
            let scheme_default = ident.is_some_and(|scheme| secret.eq_ignore_ascii_case(scheme));
            !example_host
                && !scheme_default
                && filters::plausible_password(user.unwrap_or(""), secret, rule.min_entropy)
        }
        Pattern::PrivateKey => true,
    }
}

/// The service name must start a word of the identifier and be cased like a word
/// (`etsy`, `ETSY`, `Etsy`) or end one, so `SetSysctl` does not name Etsy nor `sumOfExposures` Sumo Logic.
fn names_service(re: &Regex, ident: &str) -> bool {
    let b = ident.as_bytes();
    re.find_iter(b).any(|m| {
        let word = &b[m.start()..m.end()];
        let letters: Vec<u8> = word
            .iter()
            .copied()
            .filter(u8::is_ascii_alphabetic)
            .collect();
        let cased = letters.iter().all(u8::is_ascii_lowercase)
            || letters.iter().all(u8::is_ascii_uppercase)
            || (letters.first().is_some_and(u8::is_ascii_uppercase)
                && letters.iter().skip(1).all(u8::is_ascii_lowercase));
        let starts_word = m.start() == 0 || {
            let prev = b[m.start() - 1];
            !prev.is_ascii_alphanumeric()
                || ((prev.is_ascii_lowercase() || prev.is_ascii_digit())
                    && word[0].is_ascii_uppercase())
        };
        // `RapidAPI` is mixed-case but still a whole word: it ends where a new word starts.
        let ends_word = b.get(m.end()).is_none_or(|n| !n.is_ascii_lowercase());
        (cased || ends_word) && starts_word
    })
}

/// `….ico-<hex>.png`: a token-shaped run that is really part of a file or host name.
fn followed_by_extension(rest: &str) -> bool {
    let b = rest.as_bytes();
    b.first() == Some(&b'.') && b.get(1).is_some_and(u8::is_ascii_alphabetic)
}

/// Identifiers that name the service but something public about it.
fn service_ident_ok(ident: &str) -> bool {
    const PUBLIC: &[&str] = &[
        "public",
        "pub",
        "publishable",
        "url",
        "uri",
        "endpoint",
        "name",
        "path",
        "file",
        "version",
        "region",
        "host",
        "domain",
        "email",
        "username",
    ];
    !filters::split_words(ident)
        .iter()
        .any(|w| PUBLIC.contains(&w.as_str()))
}

/// A private-key header counts when key material follows it on the same line (JSON and
/// escaped strings) or when the line is the header alone (a PEM file or heredoc); a header
/// inside program text (`if line == "-----BEGIN…"`) is a parser, not a key.
fn private_key_span(line: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    // The body ends at the next `-----` (its END line, or another header), and a body is a
    // few KiB: looking further would make a line of headers quadratic.
    let rest = &line[end..];
    let rest = &rest[..floor_char_boundary(rest, MAX_KEY_BODY_BYTES)];
    let rest = &rest[..rest.find("-----").unwrap_or(rest.len())];
    let body_len = rest
        .bytes()
        .take_while(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'+' | b'/' | b'=' | b'\\' | b' ' | b'\t' | b'\r' | b'\n' | b':' | b'-' | b','
                )
        })
        .count();
    let body = &rest[..body_len];
    let material = body
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '='))
        .any(|run| run.len() >= 40);
    if material {
        // Cover the inline body up to the END line.
        return Some((start, end + body_len));
    }
    let trimmed = line
        .trim()
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '|' | '+' | ',' | '(' | ')' | ';'));
    let trimmed = trimmed.trim();
    (trimmed.len() == end - start).then_some((start, end))
}

/// How far past a private-key header its inline body is looked for (an 8192-bit RSA key in
/// PEM is about 6.5 KiB).
const MAX_KEY_BODY_BYTES: usize = 16 << 10;

/// Keep the most specific hit wherever hits overlap, then order by position. Kept hits are
/// disjoint, so only the nearest kept hit on each side can overlap a candidate: a line with
/// thousands of hits costs `n log n`, not `n²`.
fn resolve_overlaps(mut candidates: Vec<(u8, SecretHit)>) -> Vec<SecretHit> {
    candidates.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then((b.1.end - b.1.start).cmp(&(a.1.end - a.1.start)))
            .then(a.1.start.cmp(&b.1.start))
    });
    let mut kept: std::collections::BTreeMap<usize, SecretHit> = Default::default();
    for (_, hit) in candidates {
        let before = kept.range(..=hit.start).next_back().map(|(_, k)| k);
        let after = kept.range(hit.start..).next().map(|(_, k)| k);
        let overlaps =
            before.is_some_and(|k| hit.start < k.end) || after.is_some_and(|k| k.start < hit.end);
        if !overlaps {
            kept.insert(hit.start, hit);
        }
    }
    kept.into_values().collect()
}

fn floor_char_boundary(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    let mut i = max;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte regexes over ASCII classes can stop inside a multi-byte char; widen to whole chars.
fn widen_to_char_boundaries(s: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    end = end.min(s.len());
    start = start.min(end);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    while !s.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// A display form that never contains the secret: at most 4 leading chars (fewer for short
/// secrets, never more than a quarter of it) and a 32-bit FNV-1a fingerprint, e.g.
/// `ghp_…[redacted fp:1a2b3c4d]`. The same secret always gives the same text, so findings
/// can be correlated without revealing it.
pub fn redact(secret: &str) -> String {
    let shown = (secret.chars().count() / 4).min(4);
    let prefix: String = secret.chars().take(shown).collect();
    let h = fnv1a64(secret.bytes());
    let short = ((h >> 32) ^ (h & 0xffff_ffff)) as u32;
    format!("{prefix}\u{2026}[redacted fp:{short:08x}]")
}

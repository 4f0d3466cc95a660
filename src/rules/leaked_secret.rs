//! `leaked-secret`: a credential on a line the change adds, or a file that should never be
//! committed. The detection core is [`crate::secrets`]; this rule decides what is new.

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use crate::changeset::{Content, Raw, Status};
use crate::finding::{Severity, Side};
use crate::secrets::{self, StreamHit, redact};
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A credential on a line the change adds, in any text file: more than 200 formats
    /// (AWS, GitHub, GitLab, Slack, Stripe, Google, Azure, OpenAI, Anthropic, Hugging Face, npm,
    /// PyPI, Twilio, SendGrid, Mailgun, Discord, Telegram, Shopify, Datadog, Heroku,
    /// DigitalOcean, JWTs, PEM/OpenSSH/PGP private keys, ...), credentialed URLs
    /// (`postgres://user:pass@host`), and secret-looking assignments (`password = "…"`,
    /// `api_key: …`) whose value has enough entropy. Also files that should never be committed:
    /// `.env` and `.env.*`, `*.pem`/`*.key` holding a private key, `id_rsa`/`id_ed25519`,
    /// `*.p12`/`*.pfx`, `credentials.json`, `.npmrc` with `_authToken`, `.pypirc` with a password.
    ///
    /// The encoded values under `data:` of a Kubernetes `Secret` manifest (kind exactly
    /// `Secret`; not templated, empty or shorter than 12 characters).
    ///
    /// A self-identifying token written in pieces counts as written whole: literals joined by
    /// `+` or adjacent (`"sk_live_" + "…"`, Python `"AKIA" "…"`), a template of literal parts
    /// (`` `ghp_${"…"}${"…"}` ``), a literal array joined (`["xoxb", "…"].join("-")`).
    ///
    /// A credential in a file or directory name the change adds (`config/ghp_….txt`) is a
    /// finding too. A line with more than ten credentials lists ten (self-identifying tokens
    /// first) and counts the rest in one more finding.
    ///
    /// The secret itself never appears in any output: messages, snippets and paths show at most
    /// four leading characters and a short fingerprint (`ghp_…[redacted fp:1a2b3c4d]`), and
    /// text is redacted before it is ever shortened. A path holding a secret is printed in that
    /// redacted form everywhere, check-run annotations included, so GitHub cannot place such an
    /// annotation on the diff: losing the placement is better than printing the token.
    /// ## Why it matters
    /// Agents paste the credential that makes an integration test pass. Once pushed, a secret
    /// must be rotated, whatever happens to the pull request.
    /// ## Example
    /// Fires: `client = Github("ghp_…")` added to `deploy.py`; a new `.env` file;
    /// a database URL with a literal password (`postgres://app:<password>@db.internal/app`,
    /// with a real-looking password in place of `<password>`).
    /// ## Not flagged
    /// - Placeholders: `xxx`, `<your-key>`, `changeme`, `${VAR}`, `${{ secrets.X }}`,
    ///   `os.environ[...]`, `process.env.X`, repeated characters, documented example keys
    ///   (AWS's `…EXAMPLE`, the authentication RFCs' sample passwords), short values built
    ///   around a metasyntactic word (`foo(b]c`, `bar` in a URL parser's test vectors).
    /// - Hashes and ids: lockfile `integrity` hashes, pinned action SHAs, UUIDs.
    /// - A secret that already existed in base (a moved line), and `.env.example`/`.env.sample`.
    /// ## Configuration
    /// `rules.leaked-secret.severity`; test fixtures with synthetic keys belong in an `allow:`
    /// entry with `paths` and a `reason`.
    pub static LEAKED_SECRET = {
        id: "leaked-secret",
        severity: Error,
        engine: Lines,
        languages: [],
        summary: "a credential is added (token formats, private keys, credentialed URLs, .env files)",
        maturity: Stable,
        check: Some(check),
    }
}

/// Findings listed one by one per line; a line holding more (a generated blob of
/// assignments) gets one more finding that counts the rest, so the report stays readable and
/// the work per line stays linear.
const MAX_FINDINGS_PER_LINE: usize = 10;

fn check(context: &FileContext<'_>, out: &mut Output) {
    sensitive_file(context, out);
    link_target(context, out);
    large_file(context, out);
    secret_in_path(context, out);
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let base_text = context.side(Side::Base).map(|base| base.text);
    let scanner = secrets::scanner();
    // In a package manager's committed bundle only self-identifying tokens count: its minified
    // code is full of `password`/`apiKey` names next to prompts and public service ids.
    let vendored = crate::paths::vendored_tool(head.path).is_some();
    let base_assembled = std::cell::OnceCell::new();
    let manifest_values = kubernetes_values(head.path, head.text);
    let lines: Vec<&str> = head.text.lines().collect();
    for (index, line) in head.text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if !context.is_added_line(number) {
            continue;
        }
        let mut hits: Vec<_> = scanner
            .scan_line(line)
            .into_iter()
            .chain(element_value(scanner, &lines, index))
            .filter(|hit| !(vendored && secrets::is_generic(hit.rule_id)))
            .filter(|hit| hit.rule_id != "private-key" || pem_has_material(&lines, index))
            .filter(|hit| {
                // A line moved or re-indented by the change carries a secret base already had.
                let secret = line.get(hit.start..hit.end).unwrap_or_default();
                !base_text.is_some_and(|base| base.contains(secret))
            })
            .collect();
        // Self-identifying tokens first: they are what a capped line must not lose.
        hits.sort_by_key(|hit| (secrets::is_generic(hit.rule_id), hit.start));
        // One value found by two patterns (an `Authorization` header and a credential
        // variable) is one leak: the first, most specific, pattern names it.
        let mut values_seen: Vec<&str> = Vec::new();
        hits.retain(|hit| {
            let secret = line.get(hit.start..hit.end).unwrap_or_default();
            let seen = values_seen.contains(&secret);
            values_seen.push(secret);
            !seen
        });
        for hit in hits.iter().take(MAX_FINDINGS_PER_LINE) {
            let secret = line.get(hit.start..hit.end).unwrap_or_default();
            push(out, number, hit.rule_id, hit.description, secret);
        }
        if hits.is_empty() {
            assembled(line, number, base_text, &base_assembled, vendored, out);
            encoded(line, number, base_text, vendored, out);
            for (_, range) in manifest_values.iter().filter(|(at, _)| *at == index) {
                let secret = line.get(range.clone()).unwrap_or_default();
                if !base_text.is_some_and(|base| base.contains(secret)) {
                    push(
                        out,
                        number,
                        "kubernetes-secret",
                        "Kubernetes Secret data",
                        secret,
                    );
                }
            }
        }
        if let Some(first_unlisted) = hits.get(MAX_FINDINGS_PER_LINE) {
            let more = hits.len() - MAX_FINDINGS_PER_LINE;
            let shown = redact(
                line.get(first_unlisted.start..first_unlisted.end)
                    .unwrap_or_default(),
            );
            out.candidates.push(Candidate::at_line(
                Side::Head,
                number,
                Severity::Error,
                format!("{more} more credentials added on this line, not listed one by one"),
                format!("more:{shown}"),
            ));
        }
    }
}

/// A token written in pieces (`"sk_live_" + "…"`, `` `ghp_${"…"}` ``, `[..].join("-")`): the
/// pieces put back together are scanned, and a self-identifying token found there is reported.
/// Generic keyword matches are left out: joined text is no assignment the scanner can read.
fn assembled(
    line: &str,
    number: u32,
    base_text: Option<&str>,
    base_assembled: &std::cell::OnceCell<Vec<String>>,
    vendored: bool,
    out: &mut Output,
) {
    if vendored {
        return;
    }
    // Pieces that base already put together the same way were moved, not added.
    let in_base = |secret: &str| {
        base_text.is_some_and(|base| base.contains(secret))
            || base_assembled
                .get_or_init(|| {
                    base_text
                        .map(|base| base.lines().flat_map(secrets::assembled_values).collect())
                        .unwrap_or_default()
                })
                .iter()
                .any(|value| value.contains(secret))
    };
    for value in secrets::assembled_values(line) {
        let probe = format!("\"{value}\"");
        for hit in secrets::scanner().scan_line(&probe) {
            let secret = probe.get(hit.start..hit.end).unwrap_or_default();
            if secrets::is_generic(hit.rule_id) || line.contains(secret) || in_base(secret) {
                continue;
            }
            let shown = redact(secret);
            out.candidates.push(Candidate::at_line(
                Side::Head,
                number,
                Severity::Error,
                format!(
                    "{} added, assembled from string pieces: `{shown}`",
                    hit.description
                ),
                format!("{}:{shown}", hit.rule_id),
            ));
        }
    }
}

/// A value alone on its line between an XML element's tags (`<snykToken>` / value /
/// `</snykToken>`): scanned as `<snykToken>value</snykToken>` would be, at the value's place.
fn element_value(
    scanner: &secrets::Scanner,
    lines: &[&str],
    index: usize,
) -> Vec<secrets::SecretHit> {
    let value = lines[index].trim();
    if value.is_empty() || value.contains(['<', '>', ' ', '=']) || index == 0 {
        return Vec::new();
    }
    let (Some(open), Some(close)) = (
        lines[index - 1].trim().strip_prefix('<'),
        lines.get(index + 1),
    ) else {
        return Vec::new();
    };
    let Some(tag) = open.strip_suffix('>') else {
        return Vec::new();
    };
    let tag_ok = !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'));
    if !tag_ok || close.trim() != format!("</{tag}>") {
        return Vec::new();
    }
    let probe = format!("<{tag}>{value}</{tag}>");
    let offset = lines[index].len() - lines[index].trim_start().len();
    let at = tag.len() + 2;
    scanner
        .scan_line(&probe)
        .into_iter()
        .filter(|hit| hit.start >= at && hit.end <= at + value.len())
        .map(|mut hit| {
            hit.start = hit.start - at + offset;
            hit.end = hit.end - at + offset;
            hit
        })
        .collect()
}

/// A PEM header alone on its line counts when key material follows before the END line: a
/// header around `anything` is a sample of the format.
fn pem_has_material(lines: &[&str], index: usize) -> bool {
    let line = lines[index];
    // An inline body was checked by the scanner.
    if line.trim().len() > 70 {
        return true;
    }
    let mut material = 0usize;
    for next in lines.iter().skip(index + 1).take(200) {
        let next = next.trim();
        if next.starts_with("-----END") {
            break;
        }
        if next.contains(':') && !next.contains(' ') {
            continue;
        }
        if next
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        {
            material += next.len();
        }
    }
    material >= 64
}

/// A self-identifying token written base64-encoded (`Z2hwX…`): the decoded text is scanned,
/// and a token found there is reported; generic keyword matches are left out.
fn encoded(line: &str, number: u32, base_text: Option<&str>, vendored: bool, out: &mut Output) {
    if vendored {
        return;
    }
    for hit in secrets::scanner().encoded_hits(line) {
        let run = &line[hit.start..hit.end];
        if base_text.is_some_and(|base| base.contains(run)) {
            continue;
        }
        let shown = redact(run);
        out.candidates.push(Candidate::at_line(
            Side::Head,
            number,
            Severity::Error,
            format!("{} added, base64-encoded: `{shown}`", hit.description),
            format!("{}:{shown}", hit.rule_id),
        ));
    }
}

/// The encoded values of a Kubernetes `Secret` manifest (YAML files only).
fn kubernetes_values(path: &str, text: &str) -> Vec<(usize, std::ops::Range<usize>)> {
    let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
    if !yaml || !text.contains("ecret") {
        return Vec::new();
    }
    secrets::secret_data_values(text)
}

/// A token used as a file or directory name is as leaked as one in the file. Reported on
/// line 1 of the file; the engine redacts the path itself in every output, so the finding
/// names the file in its redacted form (GitHub cannot place that annotation on the diff,
/// which is the price of not printing the token).
fn secret_in_path(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let Some(path) = pair.new_path.as_deref() else {
        return;
    };
    let old_path = pair.old_path.as_deref().unwrap_or_default();
    for hit in secrets::scanner().scan_path(path) {
        let secret = path.get(hit.start..hit.end).unwrap_or_default();
        if old_path.contains(secret) {
            continue; // The name was already in base: a rename or edit did not add it.
        }
        let shown = redact(secret);
        out.candidates.push(Candidate::at_line(
            Side::Head,
            1,
            Severity::Error,
            format!("{} added in the file name: `{shown}`", hit.description),
            format!("path:{}:{shown}", hit.rule_id),
        ));
    }
}

fn push(out: &mut Output, line: u32, rule_id: &str, description: &str, secret: &str) {
    let shown = redact(secret);
    out.candidates.push(Candidate::at_line(
        Side::Head,
        line,
        Severity::Error,
        format!("{description} added: `{shown}`"),
        format!("{rule_id}:{shown}"),
    ));
}

/// A symbolic link's target is a path the change adds too: a token can sit in it.
fn link_target(context: &FileContext<'_>, out: &mut Output) {
    let target = |content: &Content| match content.unreadable()?.raw.as_ref()? {
        Raw::LinkTarget(target) => Some(target.clone()),
        Raw::Large(_) => None,
    };
    let Some(head) = target(&context.pair.head) else {
        return;
    };
    let base = target(&context.pair.base).unwrap_or_default();
    for hit in secrets::scanner().scan_line(&head) {
        let secret = &head[hit.start..hit.end];
        if !base.contains(secret) {
            push(out, 1, hit.rule_id, hit.description, secret);
        }
    }
}

/// A file over the size cap is not held as text; its bytes are streamed through the scanner.
/// Without a line diff, "added" means "not among the secrets base already held".
fn large_file(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let head = match large_hits(&pair.head) {
        None => return,
        Some(Ok(hits)) => hits,
        Some(Err(error)) => {
            // Fail closed: bytes the scanner could not read may hold a secret.
            out.candidates.push(Candidate::at_line(
                Side::Head,
                1,
                Severity::Error,
                format!("file over 2 MiB could not be scanned for secrets: {error}"),
                "unscanned".to_string(),
            ));
            return;
        }
    };
    if head.is_empty() {
        return;
    }
    let base_secrets: HashSet<String> = match (pair.base.text(), large_hits(&pair.base)) {
        (Some(text), _) => head
            .iter()
            .filter(|hit| text.contains(&hit.secret))
            .map(|hit| hit.secret.clone())
            .collect(),
        (None, Some(Ok(base))) => base.into_iter().map(|hit| hit.secret).collect(),
        (None, _) => HashSet::new(),
    };
    let vendored = pair
        .new_path
        .as_deref()
        .is_some_and(|path| crate::paths::vendored_tool(path).is_some());
    for hit in head {
        let ignored = vendored && secrets::is_generic(hit.rule_id);
        if !ignored && !base_secrets.contains(&hit.secret) {
            push(out, hit.line, hit.rule_id, hit.description, &hit.secret);
        }
    }
}

/// The secrets in a side over the size cap; `None` when the side is not one, an error when
/// its bytes could not be read again.
fn large_hits(content: &Content) -> Option<Result<Vec<StreamHit>, String>> {
    let Raw::Large(source) = content.unreadable()?.raw.as_ref()? else {
        return None;
    };
    let scanner = secrets::scanner();
    Some(
        match source.with_reader(|reader| scanner.scan_reader(reader)) {
            Some(Ok(hits)) => Ok(hits),
            Some(Err(error)) => Err(error.to_string()),
            None => Err("the content could not be opened".to_string()),
        },
    )
}

fn sensitive_file(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let Some(path) = pair.new_path.as_deref() else {
        return;
    };
    let head_text = pair.head.text();
    let Some(reason) = secrets::sensitive_file(path, head_text) else {
        return;
    };
    // Judged when the file becomes sensitive: added, renamed into place, or (for files judged
    // by content, such as `.npmrc`) edited so that it now holds a credential.
    let was_sensitive = match pair.status {
        Status::Added => false,
        _ => pair
            .old_path
            .as_deref()
            .and_then(|old| secrets::sensitive_file(old, pair.base.text()))
            .is_some(),
    };
    if was_sensitive {
        return;
    }
    out.candidates.push(Candidate::at_line(
        Side::Head,
        1,
        Severity::Error,
        format!("{reason} committed: files like this must never be in the repository"),
        format!("file:{path}"),
    ));
}

//! `leaked-secret`: a credential on a line the change adds, or a file that should never be
//! committed. The detection core is [`crate::secrets`]; this rule decides what is new.

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use crate::changeset::Status;
use crate::finding::{Severity, Side};
use crate::secrets::{self, redact};

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
    /// The secret itself never appears in any output: messages and snippets show at most four
    /// leading characters and a short fingerprint (`ghp_…[redacted fp:1a2b3c4d]`).
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
    ///   (AWS's `…EXAMPLE`).
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

fn check(context: &FileContext<'_>, out: &mut Output) {
    sensitive_file(context, out);
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let base_text = context.side(Side::Base).map(|base| base.text);
    let scanner = secrets::scanner();
    for (index, line) in head.text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if !context.is_added_line(number) {
            continue;
        }
        for hit in scanner.scan_line(line) {
            let secret = line.get(hit.start..hit.end).unwrap_or_default();
            // A line moved or re-indented by the change carries a secret base already had.
            if base_text.is_some_and(|base| base.contains(secret)) {
                continue;
            }
            let shown = redact(secret);
            out.candidates.push(Candidate {
                side: Side::Head,
                line: number,
                end_line: number,
                severity: Severity::Error,
                message: format!("{} added: `{shown}`", hit.description),
                key: format!("{}:{shown}", hit.rule_id),
                moved: None,
            });
        }
    }
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
    out.candidates.push(Candidate {
        side: Side::Head,
        line: 1,
        end_line: 1,
        severity: Severity::Error,
        message: format!("{reason} committed: files like this must never be in the repository"),
        key: format!("file:{path}"),
        moved: None,
    });
}

//! Files without a grammar (workflows, package.json scripts, shell scripts, Dockerfiles,
//! `.env`, `.npmrc`): TLS verification switched off on a line the change adds, when base did
//! not hold that line already.

use crate::changeset::FilePair;
use crate::finding::Severity;
use crate::rules::{Candidate, ChangeOutput};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// (pattern, what it switches off).
fn patterns() -> &'static [(Regex, &'static str)] {
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            (
                r#"NODE_TLS_REJECT_UNAUTHORIZED["']?\s*[:=]\s*["']?0\b"#,
                "TLS certificate verification is switched off for Node (`NODE_TLS_REJECT_UNAUTHORIZED=0`)",
            ),
            (
                r#"PYTHONHTTPSVERIFY["']?\s*[:=]\s*["']?0\b"#,
                "TLS certificate verification is switched off for Python (`PYTHONHTTPSVERIFY=0`)",
            ),
            (
                r#"(?i)GIT_SSL_NO_VERIFY["']?\s*[:=]\s*["']?(true|1)\b|http\.sslVerify\s*(=\s*)?false"#,
                "TLS certificate verification is switched off for git",
            ),
            (
                r#"(?i)^\s*strict-ssl\s*=\s*false|npm\s+config\s+set\s+strict-ssl\s+false|^\s*strictSsl:\s*false|yarn\s+config\s+set\s+strict-ssl\s+false"#,
                "TLS certificate verification is switched off for the package manager",
            ),
            (
                r#"(?i)^\s*["']?(verify_ssl|ssl_verify|tls_verify|verify_tls|verify_certs|ssl_verification|verify)["']?\s*[:=]\s*["']?false\b|insecure_skip_verify["']?\s*[:=]\s*["']?true\b|--no-check-certificate|\bcurl\b.*\s(-k|--insecure)\b"#,
                "TLS certificate verification is switched off in configuration or a command",
            ),
            (
                r#"ACTIONS_ALLOW_UNSECURE_COMMANDS["']?\s*[:=]\s*["']?true"#,
                "workflow commands are accepted from any step output (`ACTIONS_ALLOW_UNSECURE_COMMANDS`)",
            ),
            (
                r#"toJSON\(\s*secrets\s*\)"#,
                "every repository secret is handed to one step (`toJSON(secrets)`)",
            ),
            (
                r#"(?i)--trusted-host\b|^\s*trusted-host\s*="#,
                "pip trusts a host without TLS verification",
            ),
        ]
        .into_iter()
        .filter_map(|(pattern, what)| Some((Regex::new(pattern).ok()?, what)))
        .collect()
    })
}

/// Files whose lines configure or run something: CI and package-manager configuration, shell
/// scripts, Dockerfiles, Makefiles, `.env`. Documentation and other text (README, the gate's
/// own query files) only talk about these settings.
fn configures(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let extension = name.rsplit_once('.').map(|(_, extension)| extension);
    matches!(
        extension,
        Some(
            "yml"
                | "yaml"
                | "json"
                | "toml"
                | "ini"
                | "cfg"
                | "conf"
                | "sh"
                | "bash"
                | "zsh"
                | "ps1"
                | "mk"
                | "env"
        )
    ) || name.starts_with(".env")
        || name.starts_with("dockerfile")
        || name.ends_with(".dockerfile")
        || matches!(
            name,
            "makefile" | "justfile" | ".npmrc" | ".yarnrc" | "procfile"
        )
        || (extension.is_none() && lower.contains("bin/"))
}

/// Reports added lines that switch TLS verification off.
pub fn check(index: usize, pair: &FilePair, out: &mut ChangeOutput) {
    let Some(head) = pair.head.text() else {
        return;
    };
    if !configures(pair.path()) {
        return;
    }
    let mut in_base: HashMap<&str, usize> = HashMap::new();
    for line in pair.base.text().unwrap_or_default().lines() {
        *in_base.entry(line.trim()).or_default() += 1;
    }
    let tests = super::in_tests(pair.path());
    for (number, line) in head.lines().enumerate() {
        let Ok(number) = u32::try_from(number + 1) else {
            break;
        };
        // A commented-out setting does nothing.
        if [";", "#", "//"]
            .iter()
            .any(|opener| line.trim_start().starts_with(opener))
        {
            continue;
        }
        let Some((_, what)) = patterns()
            .iter()
            .find(|(pattern, _)| pattern.is_match(line))
        else {
            continue;
        };
        // The same line in base answers for one of head's.
        if let Some(left) = in_base.get_mut(line.trim())
            && *left > 0
        {
            *left -= 1;
            continue;
        }
        if !pair.added.contains(number) {
            continue;
        }
        let severity = if tests {
            Severity::Warning
        } else {
            Severity::Error
        };
        out.candidates.push((
            index,
            Candidate::at_line(
                crate::finding::Side::Head,
                number,
                severity,
                format!(
                    "{what}: `{}`",
                    crate::rules::markers::shorten(line.trim(), 80)
                ),
                format!("tls-line:{}", line.trim()),
            ),
        ));
    }
}

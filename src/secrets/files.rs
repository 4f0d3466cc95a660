//! Files that must never be committed, judged by name and, where the name alone is not
//! enough (`.npmrc`, `.pypirc`, `.netrc`, `*.pem`), by content.

/// Template variants of `.env` that are meant to be committed.
const ENV_TEMPLATES: &[&str] = &[
    "example",
    "sample",
    "template",
    "dist",
    "defaults",
    "default",
    "schema",
    "tpl",
    "local.example",
];

/// If `path` names a file that must never be committed, say why. `content` (the head
/// version, when the caller has it) lets `.npmrc`/`.pypirc`/`.netrc` be judged by what
/// they hold and lets a `*.pem`/`*.key` holding only public material pass.
pub fn sensitive_file(path: &str, content: Option<&str>) -> Option<&'static str> {
    let normalized = path.replace('\\', "/");
    let name = normalized.rsplit('/').next().unwrap_or("");
    let lower = name.to_ascii_lowercase();
    if lower == ".env" {
        return Some("environment file (.env) with local secrets");
    }
    if let Some(suffix) = lower.strip_prefix(".env.") {
        // `.env.development` and `.env.production` are a mode's committed defaults for Vite,
        // Next.js and create-react-app (`.env.local` and `.env.*.local` hold the secrets):
        // one whose settings name no credential is such defaults.
        let mode_defaults = !suffix.split('.').any(|part| part == "local")
            && content.is_some_and(names_no_credential);
        return (!ENV_TEMPLATES.contains(&suffix) && !mode_defaults)
            .then_some("environment file (.env.*) with local secrets");
    }
    if matches!(
        lower.as_str(),
        "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | "id_ecdsa_sk" | "id_ed25519_sk"
    ) {
        return Some("SSH private key file");
    }
    if lower == "credentials.json" {
        return Some("credentials file (credentials.json)");
    }
    if lower == ".git-credentials" {
        return Some("git credential store (.git-credentials)");
    }
    if lower == ".htpasswd" {
        return Some("password file (.htpasswd)");
    }
    let ext = lower.rsplit_once('.');
    if let Some((stem, ext)) = ext
        && !stem.is_empty()
    {
        match ext {
            "pem" | "key" => {
                if content.is_some_and(holds_only_public_material) {
                    return None;
                }
                return Some(if ext == "pem" {
                    "private key file (*.pem)"
                } else {
                    "private key file (*.key)"
                });
            }
            "p12" | "pfx" => return Some("PKCS#12 key store (*.p12 / *.pfx)"),
            "jks" | "keystore" => return Some("Java key store"),
            "ppk" => return Some("PuTTY private key file (*.ppk)"),
            _ => {}
        }
    }
    let content = content?;
    match lower.as_str() {
        ".npmrc" if npmrc_has_token(content) => Some(".npmrc with an auth token"),
        ".pypirc" if has_password_line(content, &["password"]) => Some(".pypirc with a password"),
        ".netrc" | "_netrc" if has_netrc_password(content) => Some(".netrc with a password"),
        _ => None,
    }
}

/// PEM text with no private key in it: only certificates or public keys, or a private-key
/// header with no key material under it (a stub). Binary (DER) content stays suspicious.
fn holds_only_public_material(content: &str) -> bool {
    if !content.contains("-----BEGIN") {
        return false;
    }
    if !content.contains("PRIVATE KEY") {
        return true;
    }
    !content.lines().any(|l| {
        let l = l.trim();
        l.len() >= 40
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    })
}

/// A literal token is present; `${NPM_TOKEN}`-style references are what `.npmrc` should hold.
fn npmrc_has_token(content: &str) -> bool {
    content.lines().any(|line| {
        let line = line.trim();
        if line.starts_with(['#', ';']) {
            return false;
        }
        ["_authtoken", "_auth", "_password"].iter().any(|k| {
            let lower = line.to_ascii_lowercase();
            lower
                .find(&format!("{k}="))
                .or_else(|| lower.find(&format!("{k} =")))
                .is_some_and(|i| {
                    let value = line[i..]
                        .split_once('=')
                        .map_or("", |(_, v)| v)
                        .trim()
                        .trim_matches('"');
                    literal_value(value)
                })
        })
    })
}

fn literal_value(value: &str) -> bool {
    !value.is_empty() && !value.starts_with(['$', '%', '<', '{']) && !value.contains("${")
}

/// `password = value` / `password: value` with a literal value.
fn has_password_line(content: &str, keys: &[&str]) -> bool {
    content.lines().any(|line| {
        let t = line.trim();
        let lower = t.to_ascii_lowercase();
        keys.iter().any(|k| {
            lower.starts_with(k)
                && t[k.len()..]
                    .trim_start()
                    .strip_prefix(['=', ':'])
                    .is_some_and(|v| literal_value(v.trim()))
        })
    })
}

/// `machine host login user password secret` (one line or several).
fn has_netrc_password(content: &str) -> bool {
    let mut words = content.split_whitespace();
    while let Some(w) = words.next() {
        if w == "password" && words.next().is_some_and(literal_value) {
            return true;
        }
    }
    false
}

/// Whether a dotenv file's settings (`NAME=value` lines) name no credential: no key holding
/// `KEY`, `SECRET`, `TOKEN`, `PASS`, `PWD`, `AUTH`, `CRED`, `PRIVATE`, `SESSION`, `COOKIE`,
/// `SALT` or `DSN`, and no value holding `://user:password@`. A value the secret scanner finds
/// is its own finding either way.
fn names_no_credential(content: &str) -> bool {
    const CREDENTIAL: &[&str] = &[
        "KEY", "SECRET", "TOKEN", "PASS", "PWD", "AUTH", "CRED", "PRIVATE", "SESSION", "COOKIE",
        "SALT", "DSN",
    ];
    content.lines().all(|line| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return true;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((name, value)) = line.split_once('=') else {
            return false;
        };
        let name = name.trim().to_ascii_uppercase();
        let url_password = value.split_once("://").is_some_and(|(_, rest)| {
            rest.split('/')
                .next()
                .is_some_and(|host| host.contains(':') && host.contains('@'))
        });
        !CREDENTIAL.iter().any(|word| name.contains(word)) && !url_password
    })
}

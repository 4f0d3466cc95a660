//! Plausibility checks that decide whether a regex match is a real credential.
//!
//! Regexes find the right *shape*; these functions reject what has the shape but is not a
//! secret: placeholders (`xxxx`, `<your-key>`, `changeme`), references to the environment
//! (`${VAR}`, `process.env.X`), documented example keys, identifiers, hashes and UUIDs.
//! Precision comes first: a gate that cries wolf gets switched off.

/// Shannon entropy in bits per character (over bytes; secrets are ASCII).
pub fn shannon_entropy(s: &str) -> f32 {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let n = bytes.len() as f32;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f32 / n;
            -p * p.log2()
        })
        .sum()
}

/// The entropy a string must reach: the rule's threshold, lowered for short strings whose
/// maximum possible entropy (log2 of the length) would otherwise make the rule unreachable.
pub fn entropy_threshold(base: f32, len: usize) -> f32 {
    let len_cap = (len.max(1) as f32).log2() * 0.85;
    base.min(len_cap)
}

/// Substrings that mark a value as a stand-in rather than a credential.
const PLACEHOLDER_MARKERS: &[&str] = &[
    "xxxx",
    "example",
    "sample",
    "dummy",
    "placeholder",
    "changeme",
    "change_me",
    "change-me",
    "redacted",
    "replace",
    "your_",
    "your-",
    "yourkey",
    "yourtoken",
    "yoursecret",
    "yourpass",
    "insert",
    "fake",
    "foobar",
    "notreal",
    "not_real",
    "not-real",
    "****",
    "....",
    "1234567",
    "abcdefg",
    "qwerty",
    "lorem",
    "<",
    ">",
    "${",
    "{{",
    "}}",
    "%(",
    "\u{2026}",
    "todo",
];

/// Documented example credentials that vendors publish in their docs (fragments suffice).
const KNOWN_EXAMPLES: &[&str] = &[
    // Azurite / Azure Storage Emulator well-known account key.
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq",
    // jwt.io's sample token payload ({"sub":"1234567890","name":"John Doe",...}).
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lI",
    // The digest and basic authentication RFCs' sample users' passwords (RFC 2069/2617 Mufasa,
    // RFC 7617 Aladdin).
    "CircleOfLife",
    "Circle Of Life",
    "open sesame",
    // Stripe's documentation key.
    "4eC39HqLyjWDarjtT1zdp7dc",
    // Google API keys published in firebase-android-sdk's examples and test configurations
    // (the list gitleaks allows).
    "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
    "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
    "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
    "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
    "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
    "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
    "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
    "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
    "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
    "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
    "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
    "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
    "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
    "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
    "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
    "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
];

/// True when the value is obviously a stand-in: placeholder words, template syntax,
/// documented example keys, or a string dominated by one repeated character.
pub fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if PLACEHOLDER_MARKERS.iter().any(|m| lower.contains(m)) {
        return true;
    }
    if KNOWN_EXAMPLES.iter().any(|k| value.contains(k)) {
        return true;
    }
    metasyntactic(&lower) || dominated_by_one_char(value) || names_itself(&lower)
}

/// A value that spells what it stands in for, in leetspeak or not (`publ1sh-t0k3n`,
/// `wr0ng-t0k3n`, `s3cr3t-value`): test data made to read as a token, not one. The value must
/// be two to four words of three letters or more between separators, one of them such a word,
/// so a random string that holds the letters (`token_8f7Hq2LmZx`) stays a candidate.
fn names_itself(lower: &str) -> bool {
    // Not `password` (people pick `MyPassword1`), not `test` (`test_` starts real test-mode
    // keys of Lob, Flutterwave, Stripe).
    const WORDS: &[&str] = &["token", "secret", "wrong", "invalid", "bogus"];
    if lower.len() > 40 {
        return false;
    }
    let plain: String = lower
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' => 'i',
            '3' => 'e',
            '4' => 'a',
            '5' => 's',
            '7' => 't',
            '@' => 'a',
            '$' => 's',
            other => other,
        })
        .collect();
    let words: Vec<&str> = plain
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|word| !word.is_empty())
        .collect();
    // Words only (`publish`, `token`): a random tail (`token_8f7Hq2LmZx`) leaves fragments.
    (2..=4).contains(&words.len())
        && words.iter().all(|word| word.len() >= 3)
        && plain
            .chars()
            .all(|c| c.is_ascii_alphabetic() || matches!(c, '-' | '_' | '.'))
        && words.iter().any(|word| WORDS.contains(word))
}

/// A short value built around a metasyntactic word (`foo(b]c`, `bar`, `baz-1`): test data of
/// parsers, not a credential someone pasted.
fn metasyntactic(lower: &str) -> bool {
    const WORDS: &[&str] = &["foo", "bar", "baz", "qux", "quux", "xyzzy"];
    lower.len() < 16
        && lower
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|word| WORDS.contains(&word))
}

/// A string where one byte makes up more than 40% of it (`aaaaaaaa1`, `0000-0000`).
fn dominated_by_one_char(value: &str) -> bool {
    let bytes = value.as_bytes();
    if bytes.len() < 8 {
        return false;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0) as usize;
    max * 5 > bytes.len() * 2
}

/// Values that point at a secret instead of containing one.
pub fn is_reference(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let starts = ['$', '%', '@', '{', '[', '<', '&', '*'];
    if value.starts_with(starts) {
        return true;
    }
    const REFS: &[&str] = &[
        "process.env",
        "os.environ",
        "os.getenv",
        "getenv",
        "env[",
        "env.",
        "secrets.",
        "vault:",
        "system.getenv",
        "environment.",
        "config.",
        "settings.",
        "params.",
        "args.",
        "self.",
        "this.",
        "context.",
        "ctx.",
    ];
    REFS.iter().any(|r| lower.starts_with(r))
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex.
pub fn is_uuid(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[derive(Default)]
struct Classes {
    lower: bool,
    upper: bool,
    digit: bool,
    symbol: bool,
}

fn classes(value: &str) -> Classes {
    let mut c = Classes::default();
    for b in value.bytes() {
        match b {
            b'a'..=b'z' => c.lower = true,
            b'A'..=b'Z' => c.upper = true,
            b'0'..=b'9' => c.digit = true,
            _ => c.symbol = true,
        }
    }
    c
}

/// Shapes of ordinary program text: identifiers (`snake_case`, `camelCase`, `ENV_NAME`),
/// dotted paths (`config.secret.key`), file paths, URLs, versions and numbers.
pub fn looks_like_code_or_text(value: &str) -> bool {
    let b = value.as_bytes();
    if b.iter().all(u8::is_ascii_digit) {
        return true;
    }
    if value.starts_with(['/', '.', '~']) || value.contains("://") || value.starts_with("http") {
        return true;
    }
    // Versions and numbers: 1.2.3, 0.15.0_2023-SNAPSHOT style are all digits and separators
    // apart from a short tail.
    let digits_and_seps = b
        .iter()
        .filter(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'_'))
        .count();
    if digits_and_seps * 10 >= b.len() * 8 {
        return true;
    }
    // Dotted identifiers: every segment is a word without digits in the middle.
    if value.contains('.') && value.split('.').all(is_wordish) {
        return true;
    }
    if is_syntax_node_span(value) {
        return true;
    }
    // File names such as key.pem, secrets.yaml.
    if let Some((_, ext)) = value.rsplit_once('.')
        && matches!(
            ext.to_ascii_lowercase().as_str(),
            "pem"
                | "key"
                | "json"
                | "yaml"
                | "yml"
                | "txt"
                | "cer"
                | "crt"
                | "p12"
                | "pfx"
                | "jks"
                | "env"
                | "xml"
                | "properties"
                | "conf"
                | "cfg"
                | "ini"
                | "toml"
                | "html"
                | "js"
                | "ts"
                | "py"
                | "rs"
                | "go"
                | "rb"
                | "java"
                | "sh"
        )
    {
        return true;
    }
    is_identifier_shape(value)
}

/// Service values that read as program identifiers (`getPagesInConfluence`, `API_VERSION`).
pub fn is_identifier_like_value(value: &str) -> bool {
    is_identifier_shape(value) || (value.contains('.') && value.split('.').all(is_wordish))
}

/// Paths, URLs, numbers and file names, but not identifier shapes.
fn looks_like_text(value: &str) -> bool {
    let b = value.as_bytes();
    b.iter().all(u8::is_ascii_digit) || value.starts_with(['/', '.', '~']) || value.contains("://")
}

/// A segment made of letters with at most a trailing run of digits (`KeyPair`, `u16`, `v2`).
fn is_wordish(seg: &str) -> bool {
    let trimmed = seg.trim_end_matches(|c: char| c.is_ascii_digit());
    !trimmed.is_empty()
        && trimmed
            .bytes()
            .all(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'-')
}

/// `snake_case`, `kebab-case`, `SCREAMING_CASE` and `camelCase` identifiers made of words.
fn is_identifier_shape(value: &str) -> bool {
    let b = value.as_bytes();
    if !b
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
    {
        return false;
    }
    let has_sep = value.contains(['_', '-']);
    let c = classes(value);
    // A separator-joined run of words where each part is a plain word (digits only at the end).
    if has_sep
        && value
            .split(['_', '-'])
            .all(|p| p.is_empty() || is_wordish(p))
    {
        return true;
    }
    // camelCase / PascalCase: letters only (optionally trailing digits), with upper-case
    // letters only at word starts, i.e. never two upper-case letters in a row.
    if !has_sep && !c.digit
        || value
            .trim_end_matches(|ch: char| ch.is_ascii_digit())
            .bytes()
            .all(|ch| ch.is_ascii_alphabetic())
    {
        let core = value.trim_end_matches(|ch: char| ch.is_ascii_digit());
        if core.is_empty() {
            return false;
        }
        let bytes = core.as_bytes();
        let no_double_upper = bytes
            .windows(2)
            .all(|w| !(w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()));
        if no_double_upper || bytes.iter().all(u8::is_ascii_uppercase) {
            return true;
        }
    }
    false
}

/// Common default or placeholder passwords that are not worth a finding.
const TRIVIAL_PASSWORDS: &[&str] = &[
    "password", "passwd", "pass", "pwd", "secret", "admin", "root", "guest", "test", "testing",
    "postgres", "mysql", "redis", "rabbitmq", "user", "username", "token", "apikey", "api_key",
    "default", "letmein", "welcome", "hunter2", "demo", "none", "null", "nil", "true", "false",
    "mongo", "mongodb", "sa", "dev", "local", "docker", "example", "private",
];

/// The password half of `user:password` (URLs, curl) is a plausible credential.
pub fn plausible_password(user: &str, password: &str, min_entropy: f32) -> bool {
    // GitHub's `https://<token>:x-oauth-basic@github.com`: the fixed password says the
    // credential is the user part.
    if password.eq_ignore_ascii_case("x-oauth-basic") {
        return user != password && plausible_password("", user, min_entropy);
    }
    if password.len() < 3 || password.eq_ignore_ascii_case(user) {
        return false;
    }
    let lower = password.to_ascii_lowercase();
    if TRIVIAL_PASSWORDS.contains(&lower.as_str())
        || lower.contains("password")
        || lower.contains("passwd")
    {
        return false;
    }
    if is_placeholder(password) || is_reference(password) || password.starts_with(':') {
        return false;
    }
    shannon_entropy(password) >= entropy_threshold(min_entropy, password.len())
}

/// Split an identifier into lower-case words at `_ - . space` and camelCase boundaries.
pub fn split_words(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = ident.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 {
            chars.get(i - 1).copied()
        } else {
            None
        };
        let next = chars.get(i + 1).copied();
        let boundary = ch.is_ascii_uppercase()
            && !cur.is_empty()
            && (prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(|p| p.is_ascii_uppercase())
                    && next.is_some_and(|n| n.is_ascii_lowercase())));
        if boundary {
            words.push(std::mem::take(&mut cur));
        }
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// How strongly an identifier says "this holds a credential".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentStrength {
    /// Not a credential name (or a name of something that is not secret).
    None,
    /// `password`, `pwd`, `passphrase`: human-chosen, lower entropy is normal.
    Password,
    /// `token`, `secret`, `api_key`, `client_secret`, …: machine-generated values.
    Secret,
}

/// Words that, anywhere in the identifier, say the value is not a secret.
const NON_SECRET_WORDS: &[&str] = &[
    // WebRTC SDP `a=ice-pwd:`: a per-session value sent in the clear to the peer.
    "ice",
    "public",
    "pub",
    "publishable",
    "hash",
    "hashed",
    "sha",
    "sha1",
    "sha256",
    "sha512",
    "md5",
    "checksum",
    "digest",
    "integrity",
    "fingerprint",
    "csrf",
    "xsrf",
    "authenticity",
    "nonce",
    "name",
    "names",
    "id",
    "ids",
    "file",
    "filename",
    "path",
    "dir",
    "url",
    "uri",
    "endpoint",
    "type",
    "length",
    "len",
    "size",
    "count",
    "format",
    "header",
    "field",
    "column",
    "prefix",
    "label",
    "version",
    "cache",
    "sort",
    "primary",
    "foreign",
    "partition",
    "index",
    "idx",
    "event",
    "mapping",
    "ref",
    "kind",
    "mode",
    "policy",
    "page",
    "cursor",
    "continuation",
    "max",
    "min",
    "expires",
    "expiry",
    "expiration",
    "ttl",
    "timeout",
    "lifetime",
    "algorithm",
    "alg",
    "hint",
    "placeholder",
    "example",
    "sample",
    "dummy",
    "fake",
    "mock",
    "regex",
    "pattern",
    "prompt",
    "message",
    "msg",
    "description",
    "desc",
    "title",
    "text",
    "help",
    "error",
    "err",
    "policy",
    "rotation",
    "location",
    "manager",
    "provider",
    "source",
    "param",
    "parameter",
    "variable",
    "var",
    "env",
    "arn",
    "region",
    "port",
    "username",
    "template",
    "tokenizer",
    "tokens",
    "keyword",
    "keywords",
    "keyboard",
    "keypress",
    "keyframe",
    "monkey",
    "hotkey",
    "shortcut",
    "signature",
    "sig",
];

/// Words after `key` that qualify it as a credential (`api_key`, `secretKey`, …).
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "client",
    "master",
    "app",
    "application",
    "account",
    "encryption",
    "signing",
    "license",
    "licence",
    "service",
    "admin",
    "sdk",
    "subscription",
    "consumer",
    "shared",
    "session",
    "storage",
    "webhook",
    "integration",
    "personal",
    "server",
    "security",
    "crypt",
    "aes",
    "hmac",
    "jwt",
    "root",
    "write",
    "read",
    "ingest",
    "ingestion",
    "deploy",
    "upload",
];

/// Trailing words that do not change what an identifier names (`API_KEY_PROD`).
const NEUTRAL_SUFFIXES: &[&str] = &[
    "value",
    "val",
    "str",
    "string",
    "b64",
    "base64",
    "raw",
    "prod",
    "production",
    "dev",
    "development",
    "staging",
    "stage",
    "live",
    "default",
    "new",
    "old",
    "v1",
    "v2",
    "v3",
    "plain",
    "cleartext",
    "clear",
];

/// Classify an assignment's identifier by its last meaningful word.
pub fn ident_strength(ident: &str) -> IdentStrength {
    // Odd casing (`PaSsWoRd`) defeats camelCase splitting, so also judge the identifier split
    // only at separators, and take the stronger verdict.
    let by_separator: Vec<String> = ident
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let a = strength_of_words(split_words(ident));
    let b = strength_of_words(by_separator);
    match (a, b) {
        (IdentStrength::Secret, _) | (_, IdentStrength::Secret) => IdentStrength::Secret,
        (IdentStrength::Password, _) | (_, IdentStrength::Password) => IdentStrength::Password,
        _ => IdentStrength::None,
    }
}

fn strength_of_words(mut words: Vec<String>) -> IdentStrength {
    if words.iter().any(|w| NON_SECRET_WORDS.contains(&w.as_str())) {
        return IdentStrength::None;
    }
    while words.last().is_some_and(|w| {
        NEUTRAL_SUFFIXES.contains(&w.as_str()) || w.bytes().all(|b| b.is_ascii_digit())
    }) {
        words.pop();
    }
    let Some(last) = words.last() else {
        return IdentStrength::None;
    };
    match last.as_str() {
        "password" | "passwd" | "pwd" | "pass" | "passphrase" | "passcode" | "pword" => {
            IdentStrength::Password
        }
        "secret" | "token" | "credential" | "credentials" | "creds" | "apikey" | "apitoken"
        | "accesskey" | "secretkey" | "privatekey" | "authtoken" | "accesstoken"
        | "clientsecret" | "auth" | "bearer" => IdentStrength::Secret,
        "key" => {
            let qualified = words.len() >= 2
                && words
                    .get(words.len() - 2)
                    .is_some_and(|w| KEY_QUALIFIERS.contains(&w.as_str()));
            if qualified {
                IdentStrength::Secret
            } else {
                IdentStrength::None
            }
        }
        other if other.ends_with("password") || other.ends_with("passwd") => {
            IdentStrength::Password
        }
        other
            if other.ends_with("apikey")
                || other.ends_with("secretkey")
                || other.ends_with("accesstoken") =>
        {
            IdentStrength::Secret
        }
        _ => IdentStrength::None,
    }
}

/// Decide whether a value assigned to a credential-named identifier is itself a secret.
pub fn plausible_generic_value(
    strength: IdentStrength,
    ident: &str,
    value: &str,
    base_entropy: f32,
    quoted: bool,
) -> bool {
    // Unquoted, a closing full stop ends a sentence (`.. now expected to pass: stricter.`),
    // not a value.
    let value = if quoted {
        value
    } else {
        value.strip_suffix('.').unwrap_or(value)
    };
    let (min_len, base) = match strength {
        IdentStrength::None => return false,
        IdentStrength::Password => (8, 3.0_f32),
        IdentStrength::Secret => (10, base_entropy),
    };
    if value.len() < min_len || value.len() > 200 {
        return false;
    }
    if is_placeholder(value) || is_reference(value) || is_uuid(value) {
        return false;
    }
    // Code after a closing quote, not a value: in `t = "Input new password: "), m = n.l` the
    // prompt's own closing quote was read as an opening one.
    if value.starts_with([')', ']', '}', ',', ';']) {
        return false;
    }
    // A quoted literal assigned to a password is a password even when it reads like a word
    // (`"thisIsDog11"`); unquoted, the same text is a variable name.
    let literal_password = quoted && strength == IdentStrength::Password;
    if if literal_password {
        looks_like_text(value)
    } else {
        looks_like_code_or_text(value)
    } {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    if TRIVIAL_PASSWORDS
        .iter()
        .any(|t| t.len() >= 4 && lower.contains(t))
    {
        return false;
    }
    // A value that repeats its own variable's words (`API_TOKEN=api_token_here`).
    if split_words(ident)
        .iter()
        .any(|w| w.len() >= 4 && lower.contains(w.as_str()))
    {
        return false;
    }
    // `host:port`, `urn:x:y`, `type:name`: a colon outside a password is structure, not a key.
    if strength == IdentStrength::Secret && value.contains(':') {
        return false;
    }
    let c = classes(value);
    let n_classes = [c.lower, c.upper, c.digit, c.symbol]
        .iter()
        .filter(|&&x| x)
        .count();
    let shape_ok = match strength {
        IdentStrength::Password => n_classes >= 2,
        _ => c.digit && (c.lower || c.upper) || (value.len() >= 20 && c.lower && c.upper),
    };
    shape_ok && shannon_entropy(value) >= entropy_threshold(base, value.len())
}

/// A token kind with its byte span, `PLAIN_LITERAL@0..3` or `DOT3@28..31`, as parser test
/// snapshots print syntax trees (`value_token: PLAIN_LITERAL@0..3 "key"`): the field name says
/// token, the value is the tree's own notation.
fn is_syntax_node_span(value: &str) -> bool {
    let Some((kind, span)) = value.split_once('@') else {
        return false;
    };
    let Some((start, end)) = span.split_once("..") else {
        return false;
    };
    let number = |text: &str| !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit());
    kind.starts_with(|c: char| c.is_ascii_alphabetic())
        && kind.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && number(start)
        && number(end)
}

//! Base64 in credentials: a self-identifying token written base64-encoded (`Z2hwX…` for
//! `ghp_…`) is as leaked as the token, and a JWT whose payload names nobody (no subject,
//! issuer, audience, expiry, user or scope: `{"confidence":0.8}`) is sample data, not a
//! credential.

/// Shorter runs encode fewer bytes than any token format this catalogue knows.
const MIN_RUN: usize = 24;
/// Longer runs are data blobs, not an encoded token.
const MAX_RUN: usize = 4096;

/// Base64 runs of a line that decode to printable ASCII: (byte range in the line, decoded).
pub fn printable_runs(line: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let bytes = line.as_bytes();
    let is_b64 = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_' | b'=');
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if !is_b64(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_b64(bytes[at]) {
            at += 1;
        }
        let run = &line[start..at];
        // A word run (`some_identifier_name`) decodes too: encoded text has mixed case and
        // digits or padding.
        let mixed = run.bytes().any(|b| b.is_ascii_uppercase())
            && run.bytes().any(|b| b.is_ascii_lowercase())
            && (run.bytes().any(|b| b.is_ascii_digit()) || run.ends_with('='));
        if (MIN_RUN..=MAX_RUN).contains(&run.len())
            && mixed
            && let Some(decoded) = crate::text::base64_bytes(run)
            && let Ok(text) = String::from_utf8(decoded)
            && text.chars().all(|c| c.is_ascii_graphic() || c == ' ')
        {
            found.push((start..at, text));
        }
    }
    found
}

/// Whether a JWT's payload (its second segment) names a principal, an audience, a lifetime
/// or a grant; `true` when it cannot be read (then the token is judged as before).
pub fn jwt_names_a_principal(token: &str) -> bool {
    const CLAIMS: [&str; 24] = [
        "sub",
        "iss",
        "aud",
        "exp",
        "iat",
        "nbf",
        "jti",
        "azp",
        "scope",
        "scp",
        "role",
        "roles",
        "user",
        "user_id",
        "userid",
        "uid",
        "email",
        "name",
        "username",
        "client_id",
        "sid",
        "tid",
        "oid",
        "ref",
    ];
    let Some(payload) = token.split('.').nth(1) else {
        return true;
    };
    let Some(text) =
        crate::text::base64_bytes(payload).and_then(|bytes| String::from_utf8(bytes).ok())
    else {
        return true;
    };
    let Ok(serde_json::Value::Object(claims)) = serde_json::from_str::<serde_json::Value>(&text)
    else {
        return true;
    };
    claims.keys().any(|key| {
        let key = key.to_ascii_lowercase();
        CLAIMS.contains(&key.as_str()) || key.contains("user") || key.contains("account")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_finds_printable_runs() {
        assert_eq!(
            crate::text::base64_bytes("aGVsbG8gd29ybGQ=").unwrap(),
            b"hello world"
        );
        // Put together here, so the file holds no encoded token for a scanner to find.
        let encoded = [
            "Z2hwX0FiQ2RFZkdoSWpLbE1u",
            "T3BRclN0VXZXeFl6MDEyMzQ1Njc4OQ==",
        ]
        .concat();
        let line = format!("token: {encoded}");
        let runs = printable_runs(&line);
        assert_eq!(runs.len(), 1);
        assert!(runs[0].1.starts_with("ghp_"));
        assert!(printable_runs("some_identifier_name_that_is_long").is_empty());
    }

    #[test]
    fn jwt_claims() {
        // {"alg":"HS256","typ":"JWT"}.{"confidence":0.8}
        assert!(!jwt_names_a_principal(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb25maWRlbmNlIjowLjh9.kvRPfjAhLhtRTczoRgctVGp7KY1QVH3UBZM-gM0x8ec"
        ));
        // {"sub":"42"}
        assert!(jwt_names_a_principal(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln"
        ));
        assert!(jwt_names_a_principal("eyJhbGciOiJIUzI1NiJ9.!!!.c2ln"));
    }
}

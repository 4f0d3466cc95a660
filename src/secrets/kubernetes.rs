//! Kubernetes `Secret` manifests: the values under `data:` are the secrets, base64-encoded,
//! so no token format shows through. Only a document whose `kind` is exactly `Secret` counts
//! (not `ExternalSecret` or `SopsSecret`, which hold references or ciphertext); templated,
//! empty and very short values (`YmFyCg==`) are left out.

/// Shorter base64 values encode a few bytes only (a flag, a port).
const MIN_VALUE: usize = 12;
/// A manifest longer than this is not read.
const MAX_TEXT: usize = 1 << 20;

/// `(0-based line, byte range in the line)` of each secret value in the manifest's text.
pub fn secret_data_values(text: &str) -> Vec<(usize, std::ops::Range<usize>)> {
    if text.len() > MAX_TEXT {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < lines.len() {
        let end = (start..lines.len())
            .find(|&at| at > start && lines[at].trim_end() == "---")
            .unwrap_or(lines.len());
        if lines[start..end].iter().any(|line| is_secret_kind(line)) {
            document_values(&lines, start, end, &mut out);
        }
        start = end;
    }
    out
}

fn is_secret_kind(line: &str) -> bool {
    let Some(value) = line.trim().strip_prefix("kind:") else {
        return false;
    };
    unquote(value.trim()).eq_ignore_ascii_case("secret")
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn document_values(
    lines: &[&str],
    start: usize,
    end: usize,
    out: &mut Vec<(usize, std::ops::Range<usize>)>,
) {
    let mut at = start;
    while at < end {
        let line = lines[at];
        let trimmed = line.trim();
        if trimmed != "data:" {
            at += 1;
            continue;
        }
        let data_indent = indent(line);
        at += 1;
        while at < end {
            let entry = lines[at];
            let entry_trimmed = entry.trim();
            if entry_trimmed.is_empty() || entry_trimmed.starts_with('#') {
                at += 1;
                continue;
            }
            if indent(entry) <= data_indent {
                break;
            }
            let Some((_, value)) = entry_trimmed.split_once(':') else {
                at += 1;
                continue;
            };
            let value = value.trim();
            if matches!(value, "|" | ">" | "|-" | ">-") {
                // A block scalar: the encoded value on the next, deeper line.
                if let Some(next) = lines.get(at + 1).filter(|_| at + 1 < end)
                    && indent(next) > indent(entry)
                {
                    push_value(next, at + 1, out);
                }
                at += 2;
                continue;
            }
            push_value(entry, at, out);
            at += 1;
        }
    }
}

fn push_value(line: &str, index: usize, out: &mut Vec<(usize, std::ops::Range<usize>)>) {
    // `password: <value>`, `.dockercfg: <value>`, or a block scalar's line alone.
    let value_text = line
        .trim()
        .split_once(':')
        .map_or(line.trim(), |(_, value)| value);
    let value = unquote(value_text.trim());
    let base64 = value.len() >= MIN_VALUE
        && value
            .trim_end_matches('=')
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
        && value
            .chars()
            .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
    if !base64 {
        return;
    }
    if let Some(at) = line.rfind(value) {
        out.push((index, at..at + value.len()));
    }
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_encoded_values_of_secret_documents_only() {
        // The encoded value put together here, so the file holds none for a scanner to find.
        let value = ["UyFCXCpk", "JHpEc2I9"].concat();
        let text = format!(
            "apiVersion: v1\nkind: Secret\ndata:\n  # a comment\n  password: {value}\n  flag: YmFyCg==\n  tpl: {{{{ .Values.x }}}}\n  .dockercfg: |\n    eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUifX0=\n---\nkind: ExternalSecret\ndata:\n  key: {value}\n"
        );
        let found: Vec<usize> = secret_data_values(&text)
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert_eq!(found, vec![4, 8]);
    }
}

//! `setup.py`: dependencies declared in code. The literal lists given to `install_requires=`,
//! `setup_requires=` and `tests_require=`, the lists of `extras_require={...}`, and a list
//! assigned to a module-level name those keywords name (`install_requires=REQUIRES`). What is
//! computed (read from a file, built in a loop) is not read: the gate never runs the script.

use super::Extract;
use super::python::{from_pep508, parse_pep508};

/// Files longer than this are not read (no setup script is).
const MAX_TEXT: usize = 1 << 20;

const LIST_KEYS: [&str; 3] = ["install_requires", "setup_requires", "tests_require"];

pub(crate) fn extract(text: &str) -> Extract {
    let mut x = Extract::default();
    if text.len() > MAX_TEXT {
        return x;
    }
    let bytes = text.as_bytes();
    for key in LIST_KEYS.iter().chain(&["extras_require"]) {
        for (at, _) in text.match_indices(key) {
            // A keyword argument or a dict key: `install_requires=[`, `"install_requires": [`.
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let rest = text[at + key.len()..].trim_start_matches(['"', '\'']);
            let Some(value) = rest
                .trim_start()
                .strip_prefix(['=', ':'])
                .filter(|value| !value.starts_with('='))
            else {
                continue;
            };
            let offset = text.len() - value.len();
            let value_start = offset + (value.len() - value.trim_start().len());
            let start = match resolve(text, value_start) {
                Some(start) => start,
                None => continue,
            };
            if *key == "extras_require" {
                extras(text, start, &mut x);
            } else {
                for (string, position) in strings_in(text, start) {
                    push(&mut x, &string, key, text, position);
                }
            }
        }
    }
    x
}

/// Where the literal for the value at `at` starts: the value itself when it is a list, tuple
/// or dict, or the literal assigned to the name it is (`REQUIRES = [...]` at line start).
fn resolve(text: &str, at: usize) -> Option<usize> {
    let value = &text[at..];
    if value.starts_with(['[', '(', '{']) {
        return Some(at);
    }
    let name: String = value
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return None;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix(name.as_str())
            && let Some(assigned) = rest.trim_start().strip_prefix('=')
            && !assigned.starts_with('=')
        {
            let literal = assigned.trim_start();
            if literal.starts_with(['[', '(', '{']) {
                return Some(offset + (line.len() - literal.len()));
            }
        }
        offset += line.len();
    }
    None
}

/// The string literals directly inside the bracketed literal starting at `start`, with their
/// byte offsets (nested brackets are read too; comments skipped).
fn strings_in(text: &str, start: usize) -> Vec<(String, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut depth = 0usize;
    let mut at = start;
    while at < bytes.len() {
        match bytes[at] {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            b'#' => {
                at = text[at..].find('\n').map_or(bytes.len(), |end| at + end);
                continue;
            }
            quote @ (b'"' | b'\'') => {
                let body_start = at + 1;
                let Some(length) = text[body_start..].find(char::from(quote)) else {
                    break;
                };
                found.push((text[body_start..body_start + length].to_string(), at));
                at = body_start + length + 1;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// `extras_require={"dev": ["pytest"], "docs": [...]}`: each extra's strings, by extra.
fn extras(text: &str, start: usize, x: &mut Extract) {
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'{') {
        return;
    }
    let strings = strings_in(text, start);
    // Keys are the strings followed by `:`; the rest belong to the key before them.
    let mut extra = String::new();
    for (string, position) in strings {
        let after = text[position + string.len() + 2..].trim_start();
        if after.starts_with(':') {
            extra = string;
            continue;
        }
        push(
            x,
            &string,
            &format!("extras_require.{extra}"),
            text,
            position,
        );
    }
}

fn push(x: &mut Extract, requirement: &str, section: &str, text: &str, position: usize) {
    let Some(requirement) = parse_pep508(requirement.trim()) else {
        return;
    };
    let line = u32::try_from(text[..position].matches('\n').count() + 1).unwrap_or(u32::MAX);
    x.deps.push(from_pep508(&requirement, section, line));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_literal_and_named_lists() {
        let text = "REQUIRES = [\n    'requests>=2',  # http\n    \"click\",\n]\n\nsetup(\n    name='x',\n    install_requires=REQUIRES,\n    tests_require=('pytest',),\n    extras_require={\n        'dev': ['black', 'mypy==1.0'],\n        \"docs\": [\"sphinx\"],\n    },\n)\n";
        let found = extract(text);
        let names: Vec<(&str, &str, u32)> = found
            .deps
            .iter()
            .map(|dep| (dep.name.as_str(), dep.section.as_str(), dep.line))
            .collect();
        assert_eq!(
            names,
            [
                ("requests", "install_requires", 2),
                ("click", "install_requires", 3),
                ("pytest", "tests_require", 9),
                ("black", "extras_require.dev", 11),
                ("mypy", "extras_require.dev", 11),
                ("sphinx", "extras_require.docs", 12),
            ]
        );
        assert!(
            extract("install_requires = read_requirements()\n")
                .deps
                .is_empty()
        );
    }
}

//! Scanning input of any length: lines longer than one scan window, and files over the size cap
//! read from a stream. Both are cut into overlapping windows, so memory stays bounded, the
//! per-line cost cap of [`Scanner::scan_line`] never leaves bytes unscanned, and a secret that
//! straddles two windows is found exactly once (by the window its first byte belongs to).

use super::{Scanner, SecretHit, floor_char_boundary};
use std::io::{self, Read};

/// Bytes each window owns: a hit counts in the window where its secret starts.
const STEP: usize = 256 * 1024;
/// Bytes read before the owned range, so the assignment in front of a value
/// (`password = "…"`) is part of the window.
const LEAD: usize = 4 * 1024;
/// Bytes read after the owned range, so a secret that starts there also ends in the window.
const TAIL: usize = 8 * 1024;

// A window must fit in one regex pass, or scanning it would recurse.
const _: () = assert!(LEAD + STEP + TAIL <= super::MAX_SCAN_BYTES);

/// A secret found in a stream, with what the rule needs to report it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamHit {
    /// 1-based line of the secret's first byte.
    pub line: u32,
    /// Rule id, e.g. `github-pat`.
    pub rule_id: &'static str,
    /// Rule description.
    pub description: &'static str,
    /// The secret itself; callers must display it only [`super::redact`]ed.
    pub secret: String,
}

impl Scanner {
    /// Every credential in a line too long for one regex pass, scanned in overlapping windows
    /// instead of being cut off ([`Scanner::scan_line`] sends such lines here).
    pub(super) fn scan_in_windows(&self, line: &str) -> Vec<SecretHit> {
        let mut hits = Vec::new();
        let mut owned = 0;
        while owned < line.len() {
            let owned_end = ceil_char_boundary(line, owned + STEP);
            let window_start = floor_char_boundary(line, owned.saturating_sub(LEAD));
            let window_end = ceil_char_boundary(line, owned_end + TAIL);
            for hit in self.scan_line(&line[window_start..window_end]) {
                let start = window_start + hit.start;
                if (owned..owned_end).contains(&start) {
                    hits.push(SecretHit {
                        start,
                        end: window_start + hit.end,
                        ..hit
                    });
                }
            }
            owned = owned_end;
        }
        hits
    }

    /// Every credential in the bytes `reader` yields, decoded lossily (one stray byte blinds
    /// nothing), with line numbers. Holds one window (about 270 KiB) at a time.
    pub fn scan_reader(&self, reader: &mut dyn Read) -> io::Result<Vec<StreamHit>> {
        let mut hits = Vec::new();
        // `buffer` holds up to LEAD bytes before `owned` and whatever was read after it.
        let mut buffer: Vec<u8> = Vec::new();
        let mut owned = 0;
        let mut line = 1u32;
        let mut at_end = false;
        loop {
            let wanted = owned + STEP + TAIL;
            while !at_end && buffer.len() < wanted {
                let filled = buffer.len();
                buffer.resize(wanted, 0);
                match reader.read(&mut buffer[filled..]) {
                    Ok(0) => {
                        at_end = true;
                        buffer.truncate(filled);
                    }
                    Ok(read) => buffer.truncate(filled + read),
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {
                        buffer.truncate(filled);
                    }
                    Err(error) => return Err(error),
                }
            }
            if owned >= buffer.len() {
                return Ok(hits);
            }
            let owned_end = (owned + STEP).min(buffer.len());
            let window_end = (owned_end + TAIL).min(buffer.len());
            self.scan_window(
                [
                    &buffer[..owned],
                    &buffer[owned..owned_end],
                    &buffer[owned_end..window_end],
                ],
                line,
                &mut hits,
            );
            let newlines = buffer[owned..owned_end]
                .iter()
                .filter(|byte| **byte == b'\n')
                .count();
            line = line.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
            let keep_from = owned_end.saturating_sub(LEAD);
            buffer.drain(..keep_from);
            owned = owned_end - keep_from;
        }
    }

    /// Scans one window `[lead, owned, tail]` line by line and keeps the hits whose secret
    /// starts in `owned`; `first_line` is the line number at the start of `owned`.
    fn scan_window(
        &self,
        [lead, owned, tail]: [&[u8]; 3],
        first_line: u32,
        out: &mut Vec<StreamHit>,
    ) {
        let lead = String::from_utf8_lossy(lead);
        let owned = String::from_utf8_lossy(owned);
        let text = format!("{lead}{owned}{}", String::from_utf8_lossy(tail));
        let owned_range = lead.len()..lead.len() + owned.len();
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            let line_range = line_start..line_start + line.len();
            line_start = line_range.end;
            if line_range.end <= owned_range.start || line_range.start >= owned_range.end {
                continue;
            }
            for hit in self.scan_line(line) {
                let start = line_range.start + hit.start;
                if !owned_range.contains(&start) {
                    continue;
                }
                let newlines = text[owned_range.start..start].matches('\n').count();
                out.push(StreamHit {
                    line: first_line.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX)),
                    rule_id: hit.rule_id,
                    description: hit.description,
                    secret: line[hit.start..hit.end].to_string(),
                });
            }
        }
    }
}

fn ceil_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::scanner;

    fn token() -> String {
        format!("ghp_{}", "Zq3vK8mR2xL9pW4tY7nB5cH1jD6fG0sA1bC2")
    }

    #[test]
    fn long_lines_are_scanned_to_the_end_and_across_window_edges() {
        let token = token();
        // Tokens at the start, straddling every early window edge, and far past 1 MiB.
        let mut line = format!("a = \"{token}\"; ");
        for edge in [STEP, 2 * STEP, 3 * STEP] {
            let pad = edge - line.len() - 10;
            line.push_str(&"é".repeat(pad / 2));
            line.push_str(&" ".repeat(pad % 2));
            line.push_str(&format!("t = \"{token}\"; "));
        }
        line.push_str(&"x ".repeat(600_000));
        line.push_str(&format!("t = \"{token}\";"));
        assert!(line.len() > (1 << 20) + STEP);
        let hits = scanner().scan_line(&line);
        assert_eq!(hits.len(), 5, "{hits:?}");
        for hit in hits {
            assert_eq!(&line[hit.start..hit.end], token);
        }
    }

    #[test]
    fn streams_every_byte_with_line_numbers_and_lossy_decoding() {
        let token = token();
        let mut bytes = b"\0\xe9\xff header\n".to_vec();
        bytes.extend_from_slice(format!("GITHUB_TOKEN={token}\n").as_bytes());
        let filler = "x = 1\n".repeat(50_000);
        bytes.extend_from_slice(filler.as_bytes());
        // A token that straddles the edge of the window it starts in.
        let edge = STEP * 2;
        bytes.resize(edge - 8, b'y');
        bytes.extend_from_slice(format!("\nk = \"{token}\"\n").as_bytes());
        let hits = scanner().scan_reader(&mut &bytes[..]).unwrap();
        let found: Vec<(u32, &str)> = hits
            .iter()
            .map(|hit| (hit.line, hit.secret.as_str()))
            .collect();
        let last_line = u32::try_from(bytes.iter().filter(|b| **b == b'\n').count()).unwrap();
        assert_eq!(found, [(2, token.as_str()), (last_line, token.as_str())]);
    }

    #[test]
    fn empty_and_tiny_streams() {
        assert!(scanner().scan_reader(&mut &b""[..]).unwrap().is_empty());
        assert!(scanner().scan_reader(&mut &b"x"[..]).unwrap().is_empty());
    }
}

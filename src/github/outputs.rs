//! Writing step outputs (`$GITHUB_OUTPUT`) and the job summary (`$GITHUB_STEP_SUMMARY`).
//!
//! Outputs use the multi-line `name<<DELIMITER` form with a random delimiter that is checked
//! not to occur in the value, so a value derived from the PR cannot close the block early and
//! smuggle in another output. The job summary is appended (other steps may have written to the
//! same file) and kept under GitHub's 1 MiB per-step limit, cut on a line boundary.

use std::io::Write;
use std::path::Path;

/// GitHub rejects a step summary above 1 MiB; stay a little below it.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024 - 1024;

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The file could not be opened or written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// An output name GitHub would misparse.
    #[error("invalid output name {0:?}")]
    BadName(String),
}

/// Appends `name<<DELIM\nvalue\nDELIM\n` records for every pair to the `$GITHUB_OUTPUT` file.
pub fn write_github_output(path: &Path, pairs: &[(&str, &str)]) -> Result<(), OutputError> {
    let mut buf = String::new();
    for (name, value) in pairs {
        buf.push_str(&output_record(name, value)?);
    }
    append(path, buf.as_bytes())
}

/// One output record in the heredoc form.
pub fn output_record(name: &str, value: &str) -> Result<String, OutputError> {
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(OutputError::BadName(name.to_string()));
    }
    let mut delim = format!("ghadelimiter_{}", super::commands::random_token());
    while value.contains(&delim) {
        delim = format!("ghadelimiter_{}", super::commands::random_token());
    }
    Ok(format!("{name}<<{delim}\n{value}\n{delim}\n"))
}

/// Appends `markdown` to the job summary file, keeping the file under the 1 MiB limit.
/// Returns whether the text had to be shortened.
pub fn append_step_summary(path: &Path, markdown: &str) -> Result<bool, OutputError> {
    let existing = std::fs::metadata(path)
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    let room = STEP_SUMMARY_LIMIT.saturating_sub(existing);
    let text = super::summary::truncate_markdown(
        markdown,
        room,
        "the job summary size limit (1 MiB) was reached; the full list is in the JSON and SARIF outputs",
    );
    let cut = text.len() < markdown.len();
    let mut body = text;
    if !body.ends_with('\n') {
        body.push('\n');
    }
    if body.len() > room {
        // Not even the truncation note fits: leave the file as it is.
        return Ok(true);
    }
    append(path, body.as_bytes())?;
    Ok(cut)
}

fn append(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    f.write_all(bytes).map_err(io)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// Parses the heredoc form the way the runner does.
    fn parse(s: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut lines = s.lines();
        while let Some(head) = lines.next() {
            let Some((name, delim)) = head.split_once("<<") else {
                continue;
            };
            let mut value = Vec::new();
            for l in lines.by_ref() {
                if l == delim {
                    break;
                }
                value.push(l);
            }
            out.push((name.to_string(), value.join("\n")));
        }
        out
    }

    #[test]
    fn values_cannot_break_out_of_their_record() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out");
        let evil = "x\nghadelimiter_\nconclusion=success\nEOF";
        write_github_output(&p, &[("conclusion", "failure"), ("findings", evil)]).unwrap();
        write_github_output(&p, &[("blocking", "3")]).unwrap();
        let parsed = parse(&std::fs::read_to_string(&p).unwrap());
        assert_eq!(parsed.len(), 3);
        assert_eq!(parsed[0], ("conclusion".into(), "failure".into()));
        assert_eq!(parsed[1], ("findings".into(), evil.into()));
        assert_eq!(parsed[2], ("blocking".into(), "3".into()));
    }

    #[test]
    fn bad_names_are_refused() {
        for n in ["", "a=b", "a<<b", "x\ny"] {
            assert!(output_record(n, "v").is_err(), "{n:?}");
        }
    }

    #[test]
    fn step_summary_appends_and_respects_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("summary.md");
        std::fs::write(&p, "previous step\n").unwrap();
        assert!(!append_step_summary(&p, "# ours\nline").unwrap());
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text, "previous step\n# ours\nline\n");
        let big = "a line of the summary\n".repeat(60_000);
        assert!(append_step_summary(&p, &big).unwrap());
        let len = std::fs::metadata(&p).unwrap().len() as usize;
        assert!(len <= STEP_SUMMARY_LIMIT, "{len}");
        assert!(std::fs::read_to_string(&p).unwrap().contains("size limit"));
    }
}

//! Files the operator names (`--config`, `--report`, `GITHUB_EVENT_PATH`, `debug`'s FILE),
//! read with bounds: only regular files, at most a fixed number of bytes. `/dev/zero` or a FIFO
//! would otherwise be read for ever, and the event payload is shaped by whoever opened the pull
//! request. Errors name the file and never quote what it contains.

use crate::Failure;
use std::io::Read;
use std::path::Path;

/// Largest policy file (`--config` or the blob at base).
pub const POLICY_MAX_BYTES: u64 = 1 << 20;
/// Largest event payload: GitHub caps webhook payloads at 25 MB.
pub const EVENT_MAX_BYTES: u64 = 25 << 20;
/// Largest relayed first-stage report.
pub const REPORT_MAX_BYTES: u64 = 32 << 20;
/// Largest git pre-push input (one short line per pushed ref).
pub const PRE_PUSH_MAX_BYTES: u64 = 16 << 20;

/// `1 MiB`, `25 MiB`: a byte limit as the messages say it.
pub fn size_label(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads `path` as UTF-8 text of at most `limit` bytes; `what` names it in errors
/// (`policy`, `GITHUB_EVENT_PATH`).
pub fn read_bounded(path: &Path, what: &str, limit: u64) -> Result<String, Failure> {
    let fail =
        |cause: String| Failure::new(format!("cannot read {what} {}: {cause}", path.display()));
    let file = open_without_blocking(path).map_err(|e| fail(e.to_string()))?;
    let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".to_string()));
    }
    // Bounded by reading, not by the size from `metadata`: /proc files report 0 and a file
    // can grow while it is read.
    read_limited(file, limit).map_err(fail)
}

/// Reads at most `limit` bytes of `reader` as text (git's pre-push input).
pub fn read_stream_bounded(reader: impl Read, what: &str, limit: u64) -> Result<String, Failure> {
    read_limited(reader, limit)
        .map_err(|cause| Failure::new(format!("cannot read {what}: {cause}")))
}

/// The text of `reader` when it is UTF-8 and at most `limit` bytes; the error is the cause.
fn read_limited(reader: impl Read, limit: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than {}", size_label(limit)));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// Opening a FIFO for reading waits for a writer; open without waiting and let the
/// regular-file check refuse it.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_limit_are_read() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "fail-on: error\n").unwrap();
        assert_eq!(
            read_bounded(file.path(), "policy", 15).unwrap(),
            "fail-on: error\n"
        );
        let error = read_bounded(file.path(), "policy", 14).unwrap_err();
        assert!(
            error.message.ends_with("larger than 14 bytes"),
            "{}",
            error.message
        );
    }

    #[test]
    fn devices_fifos_and_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        for path in [Path::new("/dev/zero"), fifo.as_path(), dir.path()] {
            let error = read_bounded(path, "policy", 1 << 20).unwrap_err();
            assert!(
                error.message.ends_with("not a regular file"),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn streams_are_bounded_and_never_quoted() {
        assert_eq!(read_stream_bounded(&b"abc"[..], "input", 3).unwrap(), "abc");
        let error = read_stream_bounded(&b"secret"[..], "input", 3).unwrap_err();
        assert_eq!(error.message, "cannot read input: larger than 3 bytes");
        let error = read_stream_bounded(&b"\xff secret"[..], "input", 30).unwrap_err();
        assert!(!error.message.contains("secret"), "{}", error.message);
        assert_eq!(size_label(1 << 20), "1 MiB");
    }
}

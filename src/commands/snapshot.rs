//! `integrity-gate snapshot BEFORE AFTER [--project PATH]`: two snapshots of a sandbox (two
//! directory trees or two tar archives, no git), judged like a change: the project part by
//! every rule, and every file that changed outside the project by where it is. A shell
//! startup file, a crontab, a systemd or launchd unit, an SSH key, anything under `/etc`, git's
//! global config or hooks is an `unsafe-operation` error; anything else outside is a note.
//!
//! Nothing is followed: a symbolic link is compared by its target, and a file that cannot be
//! read is a finding, never a silent skip. Walks and archives are bounded.

use super::{exit_for, load_policy_file, override_fail_on};
use crate::cli::SnapshotArgs;
use crate::config::{Level, Policy};
use crate::engine::Report;
use crate::finding::{Finding, Note, Severity, Side, fnv1a64_continue, stable_hash};
use crate::fixtures::{SYMLINK_SUFFIX, Tree};
use crate::{Exit, Failure, report};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// Entries read per snapshot.
const MAX_ENTRIES: usize = 1_000_000;
/// Directory depth walked.
const MAX_DEPTH: usize = 256;
/// Bytes of project files held in memory per snapshot.
const MAX_PROJECT_BYTES: u64 = 1 << 30;
/// Files changed outside the project that are listed one by one in the notes.
const LISTED_OUTSIDE: usize = 50;
/// The rule that reports changes outside the project.
const UNSAFE_OPERATION: &str = "unsafe-operation";

/// One entry of a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    /// A regular file: its size and content hash, and its bytes when it is in the project.
    File {
        size: u64,
        hash: u64,
        bytes: Option<Vec<u8>>,
    },
    /// A symbolic (or, in an archive, hard) link and its target.
    Link(String),
    /// A fifo, socket or device.
    Special(&'static str),
    /// Could not be read; the metadata that can still be compared.
    Unreadable { reason: String, signature: String },
}

/// A snapshot: snapshot-relative path (forward slashes) → entry.
type Entries = BTreeMap<String, Entry>;

/// What is read of a snapshot: the project part in full, the rest by hash.
struct Reader<'a> {
    project: &'a str,
    entries: Entries,
    project_bytes: u64,
    label: &'a str,
}

impl Reader<'_> {
    fn in_project(&self, path: &str) -> bool {
        in_project(self.project, path)
    }

    fn add(&mut self, path: String, entry: Entry) -> Result<(), Failure> {
        if self.entries.len() >= MAX_ENTRIES {
            return Err(Failure::new(format!(
                "{}: more than {MAX_ENTRIES} entries; snapshot a smaller tree",
                self.label
            )));
        }
        if let Entry::File {
            bytes: Some(bytes), ..
        } = &entry
        {
            self.project_bytes += bytes.len() as u64;
            if self.project_bytes > MAX_PROJECT_BYTES {
                return Err(Failure::new(format!(
                    "{}: the project part holds more than {} MiB",
                    self.label,
                    MAX_PROJECT_BYTES >> 20
                )));
            }
        }
        self.entries.insert(path, entry);
        Ok(())
    }
}

fn in_project(project: &str, path: &str) -> bool {
    project.is_empty()
        || path == project
        || path
            .strip_prefix(project)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `integrity-gate snapshot`.
pub fn run(args: &SnapshotArgs) -> Result<(Vec<u8>, Exit), Failure> {
    let project = normalize_project(args.project.as_deref())?;
    let before = read_snapshot(&args.before, &project, "BEFORE")?;
    let after = read_snapshot(&args.after, &project, "AFTER")?;
    let policy = match &args.config {
        Some(path) => load_policy_file(path)?,
        None => policy_in(&before, &project)?,
    };
    let policy = override_fail_on(policy, args.fail_on.as_deref())?;
    let report = judge(
        &before,
        &after,
        &project,
        &policy,
        &args.before,
        &args.after,
    );
    let bytes = report::render(args.format, &report, report::Style { color: false });
    Ok((bytes, exit_for(&report)))
}

/// `--project PATH` as a snapshot-relative prefix (`/work/app` and `work/app/` both mean
/// `work/app`); `..` is refused.
fn normalize_project(project: Option<&Path>) -> Result<String, Failure> {
    let Some(project) = project else {
        return Ok(String::new());
    };
    let text = project.to_string_lossy().replace('\\', "/");
    let parts: Vec<&str> = text
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    if parts.contains(&"..") {
        return Err(Failure::new(format!(
            "--project {text}: a path inside the snapshots, without `..`"
        )));
    }
    Ok(parts.join("/"))
}

/// The policy at the project's root in BEFORE (the base side, as `diff` reads it).
fn policy_in(before: &Entries, project: &str) -> Result<Policy, Failure> {
    let path = join(project, crate::rules::POLICY_PATH);
    let Some(Entry::File {
        bytes: Some(bytes), ..
    }) = before.get(&path)
    else {
        return Ok(Policy::default());
    };
    let text = String::from_utf8(bytes.clone())
        .map_err(|_| Failure::new(format!("invalid policy: BEFORE/{path}: not UTF-8")))?;
    Ok(crate::config::parse(&text, &format!("BEFORE/{path}"))?)
}

fn join(project: &str, path: &str) -> String {
    if project.is_empty() {
        path.to_string()
    } else {
        format!("{project}/{path}")
    }
}

fn read_snapshot(path: &Path, project: &str, label: &str) -> Result<Entries, Failure> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| Failure::new(format!("{label} {}: {e}", path.display())))?;
    let mut reader = Reader {
        project,
        entries: Entries::new(),
        project_bytes: 0,
        label,
    };
    if meta.is_dir() {
        walk(&mut reader, path, "", 0)?;
    } else if meta.is_file() {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::new(format!("{label} {}: {e}", path.display())))?;
        read_tar(&mut reader, std::io::BufReader::new(file))
            .map_err(|cause| Failure::new(format!("{label} {}: {cause}", path.display())))?;
    } else {
        return Err(Failure::new(format!(
            "{label} {}: expected a directory or a tar archive",
            path.display()
        )));
    }
    Ok(reader.entries)
}

fn walk(reader: &mut Reader<'_>, dir: &Path, prefix: &str, depth: usize) -> Result<(), Failure> {
    if depth > MAX_DEPTH {
        return Err(Failure::new(format!(
            "{}: directories nested deeper than {MAX_DEPTH} levels at {prefix}",
            reader.label
        )));
    }
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(error) => {
            // An unlistable directory hides whatever it holds: a finding, never a skip.
            let signature = signature_of(dir);
            let key = if prefix.is_empty() { "." } else { prefix };
            return reader.add(
                key.to_string(),
                Entry::Unreadable {
                    reason: format!("directory cannot be listed: {error}"),
                    signature,
                },
            );
        }
    };
    let mut names: Vec<std::ffi::OsString> = Vec::new();
    for entry in listing {
        match entry {
            Ok(entry) => names.push(entry.file_name()),
            Err(error) => {
                return Err(Failure::new(format!(
                    "{}: cannot list {}: {error}",
                    reader.label,
                    dir.display()
                )));
            }
        }
    }
    names.sort();
    for name in names {
        let full = dir.join(&name);
        let name = name.to_string_lossy().replace('\\', "/");
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let meta = match std::fs::symlink_metadata(&full) {
            Ok(meta) => meta,
            Err(error) => {
                reader.add(
                    path,
                    Entry::Unreadable {
                        reason: error.to_string(),
                        signature: String::new(),
                    },
                )?;
                continue;
            }
        };
        let kind = meta.file_type();
        if kind.is_dir() {
            walk(reader, &full, &path, depth + 1)?;
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&full)
                .map(|target| target.to_string_lossy().into_owned())
                .unwrap_or_else(|error| format!("(unreadable link: {error})"));
            reader.add(path, Entry::Link(target))?;
        } else if kind.is_file() {
            let keep = reader.in_project(&path);
            let entry = match std::fs::File::open(&full) {
                Ok(file) => match read_file(file, keep) {
                    Ok(entry) => entry,
                    Err(error) => Entry::Unreadable {
                        reason: error.to_string(),
                        signature: signature_of(&full),
                    },
                },
                Err(error) => Entry::Unreadable {
                    reason: error.to_string(),
                    signature: signature_of(&full),
                },
            };
            reader.add(path, entry)?;
        } else {
            reader.add(
                path,
                Entry::Special("special file (fifo, socket or device)"),
            )?;
        }
    }
    Ok(())
}

/// Size and modification time: what can still be compared of a file that cannot be read.
fn signature_of(path: &Path) -> String {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => {
            let modified = meta
                .modified()
                .ok()
                .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |time| time.as_nanos());
            format!("{} bytes, modified {modified}", meta.len())
        }
        Err(_) => String::new(),
    }
}

fn read_file(mut file: impl Read, keep: bool) -> std::io::Result<Entry> {
    let mut hash = crate::finding::FNV1A64_START;
    let mut size = 0u64;
    let mut kept = keep.then(Vec::new);
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        let chunk = &buffer[..read];
        hash = fnv1a64_continue(hash, chunk.iter().copied());
        size += read as u64;
        if let Some(kept) = kept.as_mut() {
            kept.extend_from_slice(chunk);
        }
    }
    Ok(Entry::File {
        size,
        hash,
        bytes: kept,
    })
}

/// Reads a ustar/GNU/pax tar archive (what `tar -cf` writes), entry by entry.
fn read_tar(reader: &mut Reader<'_>, mut input: impl Read) -> Result<(), String> {
    let mut long_name: Option<String> = None;
    let mut long_link: Option<String> = None;
    let mut pax: BTreeMap<String, String> = BTreeMap::new();
    let mut zero_blocks = 0;
    loop {
        let mut header = [0u8; 512];
        match read_full(&mut input, &mut header) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(error) => return Err(format!("not a readable tar archive: {error}")),
        }
        if header.iter().all(|&b| b == 0) {
            zero_blocks += 1;
            if zero_blocks == 2 {
                return Ok(());
            }
            continue;
        }
        zero_blocks = 0;
        if !checksum_ok(&header) {
            return Err("not a tar archive (header checksum mismatch)".to_string());
        }
        let size = pax
            .get("size")
            .and_then(|size| size.parse().ok())
            .map_or_else(|| octal(&header[124..136]), Ok)?;
        let kind = header[156];
        let data_blocks = size.div_ceil(512) * 512;
        let name = pax
            .remove("path")
            .or_else(|| long_name.take())
            .unwrap_or_else(|| ustar_name(&header));
        let link = pax
            .remove("linkpath")
            .or_else(|| long_link.take())
            .unwrap_or_else(|| text_field(&header[157..257]));
        match kind {
            b'L' | b'K' | b'x' | b'g' => {
                if size > 1 << 20 {
                    return Err("an extended header larger than 1 MiB".to_string());
                }
                let mut data = vec![0u8; data_blocks as usize];
                read_exact(&mut input, &mut data)?;
                data.truncate(size as usize);
                match kind {
                    b'L' => long_name = Some(text_field(&data)),
                    b'K' => long_link = Some(text_field(&data)),
                    b'x' => pax = pax_records(&data),
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        pax.clear();
        let path = archive_path(&name)?;
        match kind {
            b'0' | b'\0' | b'7' => {
                let keep = reader.in_project(&path);
                let mut limited = (&mut input).take(size);
                let entry = read_file(&mut limited, keep).map_err(|e| e.to_string())?;
                if limited.limit() != 0 {
                    return Err(format!("{path}: the archive ends inside the file"));
                }
                skip(&mut input, data_blocks - size)?;
                if !path.is_empty() {
                    reader.add(path, entry).map_err(|failure| failure.message)?;
                }
            }
            b'1' | b'2' => {
                skip(&mut input, data_blocks)?;
                let shown = if kind == b'1' {
                    format!("(hard link) {link}")
                } else {
                    link
                };
                reader
                    .add(path, Entry::Link(shown))
                    .map_err(|failure| failure.message)?;
            }
            b'5' => skip(&mut input, data_blocks)?,
            _ => {
                skip(&mut input, data_blocks)?;
                reader
                    .add(
                        path,
                        Entry::Special("special file (fifo, socket or device)"),
                    )
                    .map_err(|failure| failure.message)?;
            }
        }
    }
}

fn read_full(input: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<bool> {
    let mut filled = 0;
    while filled < buffer.len() {
        let read = input.read(&mut buffer[filled..])?;
        if read == 0 {
            if filled == 0 {
                return Ok(false);
            }
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "truncated header",
            ));
        }
        filled += read;
    }
    Ok(true)
}

fn read_exact(input: &mut impl Read, buffer: &mut [u8]) -> Result<(), String> {
    input
        .read_exact(buffer)
        .map_err(|e| format!("truncated archive: {e}"))
}

fn skip(input: &mut impl Read, bytes: u64) -> Result<(), String> {
    let copied = std::io::copy(&mut input.take(bytes), &mut std::io::sink())
        .map_err(|e| format!("truncated archive: {e}"))?;
    if copied != bytes {
        return Err("truncated archive".to_string());
    }
    Ok(())
}

fn checksum_ok(header: &[u8; 512]) -> bool {
    let Ok(stored) = octal(&header[148..156]) else {
        return false;
    };
    let sum: u64 = header
        .iter()
        .enumerate()
        .map(|(at, &byte)| {
            if (148..156).contains(&at) {
                u64::from(b' ')
            } else {
                u64::from(byte)
            }
        })
        .sum();
    sum == stored
}

fn octal(field: &[u8]) -> Result<u64, String> {
    // GNU base-256 for sizes past 8 GiB.
    if field.first().is_some_and(|&b| b & 0x80 != 0) {
        return Ok(field[1..]
            .iter()
            .fold(u64::from(field[0] & 0x7f), |n, &b| (n << 8) | u64::from(b)));
    }
    let text = text_field(field);
    let text = text.trim_matches(|c: char| c == ' ' || c == '\0');
    if text.is_empty() {
        return Ok(0);
    }
    u64::from_str_radix(text, 8).map_err(|_| format!("bad number {text:?} in a tar header"))
}

fn text_field(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

fn ustar_name(header: &[u8; 512]) -> String {
    let name = text_field(&header[..100]);
    let prefix = if &header[257..262] == b"ustar" {
        text_field(&header[345..500])
    } else {
        String::new()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}/{name}")
    }
}

fn pax_records(data: &[u8]) -> BTreeMap<String, String> {
    let text = String::from_utf8_lossy(data);
    let mut records = BTreeMap::new();
    let mut rest: &str = &text;
    while let Some((length, _)) = rest.split_once(' ') {
        let Ok(length) = length.parse::<usize>() else {
            break;
        };
        let Some(record) = rest.get(..length) else {
            break;
        };
        if let Some((_, pair)) = record.split_once(' ')
            && let Some((key, value)) = pair.trim_end_matches('\n').split_once('=')
        {
            records.insert(key.to_string(), value.to_string());
        }
        rest = &rest[length..];
    }
    records
}

/// An archive member's path, relative; one that climbs out of the archive is refused.
fn archive_path(name: &str) -> Result<String, String> {
    let parts: Vec<&str> = name
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    if parts.contains(&"..") {
        return Err(format!("member {name:?} climbs out of the archive"));
    }
    Ok(parts.join("/"))
}

/// The report: the project's change through the engine, plus what changed outside it.
fn judge(
    before: &Entries,
    after: &Entries,
    project: &str,
    policy: &Policy,
    before_label: &Path,
    after_label: &Path,
) -> Report {
    let (base, head, mut extra, mut notes) = project_trees(before, after, project);
    let mut change = crate::fixtures::change_set_of_trees(base, head);
    change.base = before_label.display().to_string();
    change.head = after_label.display().to_string();
    let mut report = crate::engine::analyze(&change, policy);
    let outside = outside_changes(before, after, project);
    let mut listed = 0;
    for change in &outside {
        match change.what {
            Some(what) => extra.push(unsafe_finding(change, what)),
            None if change.unreadable.is_some() => extra.push(unsafe_finding(change, "")),
            None => {
                listed += 1;
                if listed <= LISTED_OUTSIDE {
                    notes.push(Note {
                        path: format!("/{}", change.path),
                        message: format!("{} outside the project", change.how),
                    });
                }
            }
        }
    }
    if listed > LISTED_OUTSIDE {
        notes.push(Note {
            path: "/".to_string(),
            message: format!(
                "and {} more files changed outside the project",
                listed - LISTED_OUTSIDE
            ),
        });
    }
    let scanner = crate::secrets::scanner();
    for finding in extra {
        if let Some(finding) = apply_policy(finding, policy) {
            let mut finding = finding;
            finding.message = scanner.redact_line(&finding.message);
            finding.path = scanner.redact_path(&finding.path);
            report.findings.push(finding);
        }
    }
    report.notes.extend(notes);
    report.notes.sort();
    report.notes.dedup();
    report
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    report.files_scanned += outside.len();
    report.blocking = report
        .findings
        .iter()
        .filter(|finding| policy.fail_on.blocks(finding.severity))
        .count();
    report
}

/// The policy's level and `allow:` entries for a finding made outside the engine.
fn apply_policy(mut finding: Finding, policy: &Policy) -> Option<Finding> {
    if policy.allowed(finding.rule, &finding.path).is_some() {
        return None;
    }
    match policy.rules.get(finding.rule) {
        Some(Level::Off) => return None,
        Some(Level::On(severity)) => finding.severity = *severity,
        None => {}
    }
    Some(finding)
}

/// Base and head trees of the project (project-relative, links as `<name>.symlink`), the
/// findings its entries make on their own (an unreadable file, a planted git hook), and
/// notes.
fn project_trees(
    before: &Entries,
    after: &Entries,
    project: &str,
) -> (Tree, Tree, Vec<Finding>, Vec<Note>) {
    let mut findings = Vec::new();
    let mut notes = Vec::new();
    let mut trees = [Tree::new(), Tree::new()];
    for (side, entries) in [before, after].into_iter().enumerate() {
        for (path, entry) in entries.iter().filter(|(p, _)| in_project(project, p)) {
            let relative = if project.is_empty() {
                path.as_str()
            } else {
                path.strip_prefix(project)
                    .unwrap_or(path)
                    .trim_start_matches('/')
            };
            // The project's git directory is git's, not the change, except hooks planted there.
            if relative == ".git" || relative.starts_with(".git/") {
                continue;
            }
            match entry {
                Entry::File {
                    bytes: Some(bytes), ..
                } => {
                    trees[side].insert(relative.to_string(), bytes.clone());
                }
                Entry::Link(target) => {
                    trees[side].insert(
                        format!("{relative}{SYMLINK_SUFFIX}"),
                        target.clone().into_bytes(),
                    );
                }
                Entry::File { bytes: None, .. } => {}
                Entry::Special(what) => notes.push(Note {
                    path: relative.to_string(),
                    message: format!("{what}; not analysed"),
                }),
                Entry::Unreadable { reason, .. } => {
                    let label = if side == 0 { "BEFORE" } else { "AFTER" };
                    findings.push(Finding {
                        rule: "unreadable-change",
                        severity: Severity::Error,
                        path: relative.to_string(),
                        line: 1,
                        end_line: 1,
                        side: if side == 0 { Side::Base } else { Side::Head },
                        message: format!(
                            "cannot be read in the {label} snapshot ({reason}): the gate cannot \
                             judge it"
                        ),
                        snippet: String::new(),
                        confidence: crate::finding::Confidence::Certain,
                        fingerprint: stable_hash(&["unreadable-change", relative, label]),
                    });
                }
            }
        }
    }
    // Hooks written into the project's own git directory run on the next commit or push.
    let hooks = join(project, ".git/hooks/");
    for change in changes(before, after, |path| path.starts_with(&hooks)) {
        if change.path.ends_with(".sample") && change.how == "removed" {
            continue;
        }
        findings.push(unsafe_finding(
            &change,
            "a git hook in the project's repository",
        ));
    }
    let [base, head] = trees;
    (base, head, findings, notes)
}

/// A path that differs between the snapshots.
struct Changed {
    path: String,
    how: &'static str,
    /// What makes it unsafe, if anything does.
    what: Option<&'static str>,
    /// Why it could not be compared, when it could not.
    unreadable: Option<String>,
}

fn changes(before: &Entries, after: &Entries, wanted: impl Fn(&str) -> bool) -> Vec<Changed> {
    let paths: std::collections::BTreeSet<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|path| wanted(path))
        .collect();
    let mut out = Vec::new();
    for path in paths {
        let (old, new) = (before.get(path), after.get(path));
        let unreadable = [old, new]
            .into_iter()
            .flatten()
            .find_map(|entry| match entry {
                Entry::Unreadable { reason, .. } => Some(reason.clone()),
                _ => None,
            });
        let how = match (old, new) {
            (None, Some(_)) => "added",
            (Some(_), None) => "removed",
            (Some(old), Some(new)) if same(old, new) => continue,
            _ => "modified",
        };
        out.push(Changed {
            path: path.clone(),
            how,
            what: sensitive(path),
            unreadable,
        });
    }
    out
}

fn same(old: &Entry, new: &Entry) -> bool {
    match (old, new) {
        (
            Entry::File {
                size: a, hash: x, ..
            },
            Entry::File {
                size: b, hash: y, ..
            },
        ) => a == b && x == y,
        (Entry::Unreadable { signature: a, .. }, Entry::Unreadable { signature: b, .. }) => {
            !a.is_empty() && a == b
        }
        (old, new) => old == new,
    }
}

fn outside_changes(before: &Entries, after: &Entries, project: &str) -> Vec<Changed> {
    changes(before, after, |path| !in_project(project, path))
}

fn unsafe_finding(change: &Changed, what: &str) -> Finding {
    let path = format!("/{}", change.path);
    let (severity, message) = match (&change.unreadable, what) {
        (Some(reason), "") => (
            Severity::Warning,
            format!(
                "outside the project, {} and could not be read ({reason}): whether it is \
                 unsafe is unknown",
                change.how
            ),
        ),
        (Some(reason), what) => (
            Severity::Error,
            format!(
                "{what} outside the project was {} and could not be read ({reason})",
                change.how
            ),
        ),
        (None, what) => (
            Severity::Error,
            format!("{what} outside the project was {}", change.how),
        ),
    };
    Finding {
        rule: UNSAFE_OPERATION,
        severity,
        line: 1,
        end_line: 1,
        side: if change.how == "removed" {
            Side::Base
        } else {
            Side::Head
        },
        fingerprint: stable_hash(&[UNSAFE_OPERATION, &path]),
        path,
        message,
        snippet: String::new(),
        confidence: crate::finding::Confidence::Certain,
    }
}

/// Shell startup files, by name wherever they are (homes differ: `/root`, `/home/x`,
/// `/Users/x`).
const SHELL_STARTUP: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".xprofile",
    ".xinitrc",
    ".inputrc",
];

/// What makes a changed path outside the project unsafe, or `None`.
fn sensitive(path: &str) -> Option<&'static str> {
    let parts: Vec<&str> = path.split('/').collect();
    let name = parts.last().copied().unwrap_or_default();
    let within = |dir: &[&str]| {
        parts
            .windows(dir.len())
            .take(parts.len().saturating_sub(1))
            .any(|window| window == dir)
    };
    if SHELL_STARTUP.contains(&name)
        || within(&[".config", "fish"])
        || within(&[".oh-my-zsh"])
        || within(&["etc", "profile.d"])
    {
        return Some("a shell startup file");
    }
    if within(&["var", "spool", "cron"])
        || within(&["var", "spool", "anacron"])
        || parts.first().is_some_and(|first| first.starts_with("cron"))
        || name == "crontab"
    {
        return Some("a crontab");
    }
    if within(&[".config", "systemd"])
        || within(&["lib", "systemd"])
        || within(&["etc", "systemd"])
        || name.ends_with(".service")
        || name.ends_with(".timer")
    {
        return Some("a systemd unit");
    }
    if within(&["Library", "LaunchAgents"]) || within(&["Library", "LaunchDaemons"]) {
        return Some("a launchd unit");
    }
    if within(&[".ssh"]) || within(&["etc", "ssh"]) {
        return Some("an SSH key or configuration file");
    }
    if parts.first() == Some(&"etc") {
        return Some("a file under /etc");
    }
    if name == ".gitconfig"
        || within(&[".config", "git"])
        || name == "gitconfig"
        || within(&[".git", "hooks"])
        || within(&[".githooks"])
        || within(&[".git-hooks"])
    {
        return Some("git's global configuration or a git hooks directory");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_paths_outside_the_project() {
        assert_eq!(sensitive("home/dev/.bashrc"), Some("a shell startup file"));
        assert_eq!(sensitive("root/.zshrc"), Some("a shell startup file"));
        assert_eq!(sensitive("etc/hosts"), Some("a file under /etc"));
        assert_eq!(sensitive("etc/cron.d/job"), Some("a file under /etc"));
        assert_eq!(sensitive("var/spool/cron/crontabs/root"), Some("a crontab"));
        assert!(sensitive("home/dev/.ssh/authorized_keys").is_some());
        assert!(sensitive("home/dev/.config/systemd/user/x.service").is_some());
        assert!(sensitive("Users/dev/Library/LaunchAgents/x.plist").is_some());
        assert!(sensitive("home/dev/.gitconfig").is_some());
        assert!(sensitive("home/dev/.config/git/hooks/pre-commit").is_some());
        assert_eq!(sensitive("home/dev/.cache/pip/x"), None);
        assert_eq!(sensitive("tmp/build.log"), None);
        assert_eq!(sensitive("home/dev/notes/ssh.txt"), None);
    }

    #[test]
    fn project_paths_are_snapshot_relative() {
        assert_eq!(
            normalize_project(Some(Path::new("/work/app/"))).unwrap(),
            "work/app"
        );
        assert!(normalize_project(Some(Path::new("../x"))).is_err());
        assert!(in_project("work/app", "work/app/src/x.py"));
        assert!(!in_project("work/app", "work/application/x.py"));
        assert!(in_project("", "anything"));
    }

    #[test]
    fn tar_numbers_and_names() {
        assert_eq!(octal(b"0000644\0").unwrap(), 0o644);
        assert_eq!(octal(b"        ").unwrap(), 0);
        assert!(archive_path("./a/../../etc/passwd").is_err());
        assert_eq!(archive_path("./etc/passwd").unwrap(), "etc/passwd");
        let records = pax_records(b"20 path=a/long/name\n");
        assert_eq!(records.get("path").map(String::as_str), Some("a/long/name"));
    }
}

//! The change set: the pairs of files a change touched, with both sides' content and the lines
//! it added and removed.
//!
//! Built by the git layer from two commits (or the working tree), or by the fixture harness from
//! two directory trees. It knows nothing of rules. Content that is not plain text (binary, too
//! large, not UTF-8, LFS pointers, submodules, symlinks) keeps its reason and whatever can still be
//! read of it (a lossy copy, a link target, a way to stream it), never an error.

use std::collections::BTreeMap;

/// Files larger than this are not held in memory for line and syntax rules; the secret scanner
/// streams them, and `unreadable-change` reports what that hides.
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// Lockfiles are read whole by the dependency rules, which are cheap on them, and outgrow the
/// general cap in honest projects (a monorepo's `package-lock.json` passes 2 MiB easily).
pub const MAX_LOCKFILE_BYTES: usize = 32 * 1024 * 1024;

/// File names that get [`MAX_LOCKFILE_BYTES`] (the lockfiles `deps` reads; a test there keeps
/// the two lists in step).
pub const LOCKFILE_NAMES: &[&str] = &[
    "Cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "uv.lock",
    "pdm.lock",
    "Pipfile.lock",
    "go.sum",
];

/// The size cap for the file at `path`: past it, the file is not held in memory as text.
pub fn size_cap(path: &str) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    if LOCKFILE_NAMES.contains(&name) {
        MAX_LOCKFILE_BYTES
    } else {
        MAX_FILE_BYTES
    }
}

/// How many leading bytes decide "binary" (git's own heuristic looks at the first 8000).
const BINARY_PROBE_BYTES: usize = 8000;

/// How a file changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Only in head.
    Added,
    /// In both, same path.
    Modified,
    /// Only in base.
    Deleted,
    /// Moved, possibly with edits.
    Renamed,
}

/// One side's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// The file does not exist on this side.
    Absent,
    /// Readable UTF-8 text within the size cap.
    Text(String),
    /// Present but not plain text; rules read what [`Unreadable::lossy`] recovers, and
    /// `unreadable-change` judges whether the rest hides a change.
    Unreadable(Unreadable),
}

/// Why a side is not plain text, and what can still be read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The cause.
    pub kind: Unreadability,
    /// The bytes decoded lossily (invalid sequences become U+FFFD, NULs are kept), for files
    /// within the size cap: one stray byte must not blind the rules.
    pub lossy: Option<String>,
    /// The file type its leading bytes announce (`PNG image`), which tells a genuine binary
    /// asset from text made unreadable.
    pub magic: Option<&'static str>,
    /// What the secret scanner reads when there is no lossy text.
    pub raw: Option<Raw>,
}

/// Why a side is not plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreadability {
    /// A NUL byte near the start (git's binary heuristic).
    Binary,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// A Git LFS pointer in place of the content.
    LfsPointer,
    /// A symbolic link (its target is the blob).
    Symlink,
    /// A submodule (a commit of another repository).
    Submodule,
    /// The blob or working-tree file could not be read.
    Missing,
}

impl Unreadability {
    /// The note shown for a side like this.
    pub fn reason(self) -> &'static str {
        match self {
            Unreadability::Binary => "binary content (NUL bytes); rules read a lossy text copy",
            Unreadability::NotUtf8 => "not valid UTF-8; rules read a lossy text copy",
            Unreadability::TooLarge => {
                "file larger than 2 MiB; only the secret scanner reads it (streamed)"
            }
            Unreadability::LfsPointer => "Git LFS pointer; the content itself is not in the change",
            Unreadability::Symlink => "symbolic link; only its target path is read",
            Unreadability::Submodule => "submodule; its content is not in the change",
            Unreadability::Missing => "content could not be read",
        }
    }
}

/// Content kept out of memory or outside the text, for the secret scanner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Raw {
    /// A symbolic link's target, decoded lossily.
    LinkTarget(String),
    /// A file over the size cap, read again in chunks when scanned.
    Large(LargeSource),
}

/// Where a file over the size cap can be read again, one at a time and in chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LargeSource {
    /// A blob in the repository at this git directory.
    Blob {
        /// The repository's git directory.
        repository: std::path::PathBuf,
        /// The blob id.
        id: git2::Oid,
    },
    /// A file in the working tree.
    File(std::path::PathBuf),
    /// Bytes already in memory (the fixture harness reads whole trees).
    Bytes(std::sync::Arc<[u8]>),
}

impl LargeSource {
    /// Calls `read` with a reader over the content. A blob is loaded by libgit2 for the
    /// duration of the call only, so at most one large file per thread is in memory.
    pub fn with_reader<R>(&self, read: impl FnOnce(&mut dyn std::io::Read) -> R) -> Option<R> {
        match self {
            LargeSource::Blob { repository, id } => {
                let repo = git2::Repository::open(repository).ok()?;
                let blob = repo.find_blob(*id).ok()?;
                Some(read(&mut blob.content()))
            }
            LargeSource::File(path) => {
                let file = std::fs::File::open(path).ok()?;
                Some(read(&mut std::io::BufReader::new(file)))
            }
            LargeSource::Bytes(bytes) => Some(read(&mut &bytes[..])),
        }
    }
}

impl Unreadable {
    /// The repository path a symbolic link at `path` points to, when it is one and its target
    /// is a relative path that stays inside the repository (`""`: the repository's root).
    pub fn link_in_repository(&self, path: &str) -> Option<String> {
        let Some(Raw::LinkTarget(target)) = &self.raw else {
            return None;
        };
        if target.is_empty() || target.starts_with(['/', '\\', '~']) || target.contains(':') {
            return None;
        }
        let directory = path.rsplit_once('/').map_or("", |(directory, _)| directory);
        join_relative(directory, target)
    }
}

/// `relative` (separated by `/` or `\\`) read from the repository directory `directory`,
/// without `.` and `..` steps; `None` when it climbs above the repository's root.
pub fn join_relative(directory: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = directory
        .split('/')
        .filter(|part| !part.is_empty())
        .collect();
    for part in relative.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

impl Content {
    /// Classifies raw bytes: oversized, binary, LFS pointer, non-UTF-8 or text. Whatever is
    /// within the size cap stays readable, lossily when it must.
    pub fn from_bytes(bytes: Vec<u8>) -> Content {
        Content::from_bytes_capped(bytes, MAX_FILE_BYTES)
    }

    /// [`Content::from_bytes`] for the file at `path`, under that file's [`size_cap`].
    pub fn of_file(path: &str, bytes: Vec<u8>) -> Content {
        Content::from_bytes_capped(bytes, size_cap(path))
    }

    fn from_bytes_capped(bytes: Vec<u8>, cap: usize) -> Content {
        if bytes.len() > cap {
            let magic = sniff(&bytes);
            return Content::large(magic, LargeSource::Bytes(bytes.into()));
        }
        let probe = &bytes[..bytes.len().min(BINARY_PROBE_BYTES)];
        let kind = if probe.contains(&0) {
            Unreadability::Binary
        } else if bytes.starts_with(b"version https://git-lfs.github.com/spec/") {
            Unreadability::LfsPointer
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => return Content::Text(text),
                Err(error) => {
                    let bytes = error.into_bytes();
                    return Content::lossy(Unreadability::NotUtf8, &bytes);
                }
            }
        };
        Content::lossy(kind, &bytes)
    }

    fn lossy(kind: Unreadability, bytes: &[u8]) -> Content {
        Content::Unreadable(Unreadable {
            kind,
            // NUL ends the input for tree-sitter's lexers; as U+FFFD the rest is still parsed.
            lossy: Some(String::from_utf8_lossy(bytes).replace('\0', "\u{fffd}")),
            magic: sniff(bytes),
            raw: None,
        })
    }

    /// A side over the size cap, read again by the secret scanner from `source`.
    pub fn large(magic: Option<&'static str>, source: LargeSource) -> Content {
        Content::Unreadable(Unreadable {
            kind: Unreadability::TooLarge,
            lossy: None,
            magic,
            raw: Some(Raw::Large(source)),
        })
    }

    /// A symbolic link whose target path is `target`.
    pub fn symlink(target: &[u8]) -> Content {
        Content::Unreadable(Unreadable {
            kind: Unreadability::Symlink,
            lossy: None,
            magic: None,
            raw: Some(Raw::LinkTarget(
                String::from_utf8_lossy(target).into_owned(),
            )),
        })
    }

    /// A side with nothing readable (a submodule, a missing blob).
    pub fn opaque(kind: Unreadability) -> Content {
        Content::Unreadable(Unreadable {
            kind,
            lossy: None,
            magic: None,
            raw: None,
        })
    }

    /// The text rules read: the text itself, or its lossy copy when the file is not plain
    /// text but small enough to hold.
    pub fn text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            Content::Unreadable(unreadable) => unreadable.lossy.as_deref(),
            Content::Absent => None,
        }
    }

    /// Why this side is not plain text, if it is not.
    pub fn unreadable(&self) -> Option<&Unreadable> {
        match self {
            Content::Unreadable(unreadable) => Some(unreadable),
            _ => None,
        }
    }
}

/// The file type announced by well-known magic numbers at the start of `bytes`.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(usize, &[u8], &str)] = &[
        (0, b"\x89PNG\r\n\x1a\n", "PNG image"),
        (0, b"\xff\xd8\xff", "JPEG image"),
        (0, b"GIF87a", "GIF image"),
        (0, b"GIF89a", "GIF image"),
        (0, b"%PDF-", "PDF document"),
        (0, b"PK\x03\x04", "ZIP archive"),
        (0, b"PK\x05\x06", "ZIP archive"),
        (0, b"\x1f\x8b", "gzip archive"),
        (0, b"BZh", "bzip2 archive"),
        (0, b"\xfd7zXZ\x00", "xz archive"),
        (0, b"7z\xbc\xaf\x27\x1c", "7z archive"),
        (0, b"\x28\xb5\x2f\xfd", "zstd archive"),
        (257, b"ustar", "tar archive"),
        (0, b"\0asm", "WebAssembly module"),
        (0, b"wOFF", "WOFF font"),
        (0, b"wOF2", "WOFF2 font"),
        (0, b"\x00\x01\x00\x00\x00", "TrueType font"),
        (0, b"OTTO", "OpenType font"),
        (0, b"\x00\x00\x01\x00", "icon"),
        (0, b"BM", "BMP image"),
        (0, b"II*\x00", "TIFF image"),
        (0, b"MM\x00*", "TIFF image"),
        (0, b"\x7fELF", "ELF executable"),
        (0, b"\xca\xfe\xba\xbe", "Java class or Mach-O binary"),
        (0, b"\xcf\xfa\xed\xfe", "Mach-O binary"),
        (0, b"MZ", "Windows executable"),
        (0, b"SQLite format 3\x00", "SQLite database"),
        (0, b"OggS", "Ogg media"),
        (0, b"fLaC", "FLAC audio"),
        (0, b"ID3", "MP3 audio"),
        (0, b"\x1aE\xdf\xa3", "Matroska/WebM media"),
        (0, b"PAR1", "Parquet file"),
    ];
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" {
        return Some("RIFF media (WebP/WAV/AVI)");
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return Some("ISO media (MP4/MOV/HEIC)");
    }
    MAGIC
        .iter()
        .find(|(offset, magic, _)| bytes.get(*offset..offset + magic.len()) == Some(*magic))
        .map(|(_, _, name)| *name)
}

/// A sorted set of 1-based line numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineSet(Vec<u32>);

impl LineSet {
    /// Builds a set from line numbers in any order.
    pub fn from_lines(mut lines: Vec<u32>) -> LineSet {
        lines.sort_unstable();
        lines.dedup();
        LineSet(lines)
    }

    /// Whether `line` is in the set.
    pub fn contains(&self, line: u32) -> bool {
        self.0.binary_search(&line).is_ok()
    }

    /// Whether any line of `first..=last` is in the set.
    pub fn overlaps(&self, first: u32, last: u32) -> bool {
        let start = self.0.partition_point(|line| *line < first);
        self.0.get(start).is_some_and(|line| *line <= last)
    }

    /// How many lines of the set come before `line`.
    pub fn count_before(&self, line: u32) -> usize {
        self.0.partition_point(|other| *other < line)
    }

    /// The lines in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().copied()
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no line is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One changed file.
#[derive(Clone, Debug)]
pub struct FilePair {
    /// How it changed.
    pub status: Status,
    /// Path in base (absent for added files).
    pub old_path: Option<String>,
    /// Path in head (absent for deleted files).
    pub new_path: Option<String>,
    /// Base content.
    pub base: Content,
    /// Head content.
    pub head: Content,
    /// Head lines the change added.
    pub added: LineSet,
    /// Base lines the change removed.
    pub removed: LineSet,
    /// When the change reverts a commit of base's history that touched this file (its message
    /// names X by its hash, its quoted subject or its pull request number, and the revert takes
    /// out production code X added): that commit, and this file's text before it.
    pub reverted: Option<Box<Reverted>>,
    /// For a tsconfig, the files its `extends` chain names (relative paths only), nearest
    /// first, each with its text as head has it: a setting removed here falls back to theirs.
    /// Empty when it extends nothing the repository holds, or the files could not be read.
    pub extends: Vec<(String, String)>,
}

/// A commit the change reverts, as one file saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reverted {
    /// The reverted commit, abbreviated.
    pub commit: String,
    /// The file's text before that commit; `None` when the commit added the file.
    pub before: Option<String>,
}

impl Reverted {
    /// Whether the reverted commit brought `text` into the file: absent before it.
    pub fn added(&self, text: &str) -> bool {
        !text.is_empty()
            && !self
                .before
                .as_deref()
                .is_some_and(|before| before.contains(text))
    }
}

impl FilePair {
    /// Builds a pair and computes its added and removed lines when both sides are text.
    pub fn new(
        status: Status,
        old_path: Option<String>,
        new_path: Option<String>,
        base: Content,
        head: Content,
    ) -> FilePair {
        let (added, removed) = changed_lines(base.text(), head.text());
        FilePair {
            status,
            old_path,
            new_path,
            base,
            head,
            added,
            removed,
            reverted: None,
            extends: Vec::new(),
        }
    }

    /// The path a finding about this file names: head's, or base's for deletions.
    pub fn path(&self) -> &str {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or_default()
    }

    /// Why this pair is not plain text on some side (head first), for the engine's note.
    pub fn skip_reason(&self) -> Option<&'static str> {
        [&self.head, &self.base]
            .into_iter()
            .find_map(|content| Some(content.unreadable()?.kind.reason()))
    }
}

/// Added head lines and removed base lines, by a line diff of the two texts (libgit2's, so the
/// fixture harness and real repositories agree).
/// The head lines added and the base lines removed, when the side exists.
pub fn changed_lines(base: Option<&str>, head: Option<&str>) -> (LineSet, LineSet) {
    match (base, head) {
        (None, None) => (LineSet::default(), LineSet::default()),
        (None, Some(head)) => (all_lines(head), LineSet::default()),
        (Some(base), None) => (LineSet::default(), all_lines(base)),
        (Some(base), Some(head)) => diff_lines(base, head),
    }
}

fn all_lines(text: &str) -> LineSet {
    let count = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
    LineSet::from_lines((1..=count).collect())
}

fn diff_lines(base: &str, head: &str) -> (LineSet, LineSet) {
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let mut options = git2::DiffOptions::new();
    options.context_lines(0);
    let patch = git2::Patch::from_buffers(
        base.as_bytes(),
        None,
        head.as_bytes(),
        None,
        Some(&mut options),
    );
    if let Ok(patch) = patch {
        for hunk in 0..patch.num_hunks() {
            let lines = patch.num_lines_in_hunk(hunk).unwrap_or(0);
            for index in 0..lines {
                let Ok(line) = patch.line_in_hunk(hunk, index) else {
                    continue;
                };
                match line.origin() {
                    '+' => added.extend(line.new_lineno()),
                    '-' => removed.extend(line.old_lineno()),
                    _ => {}
                }
            }
        }
    }
    (LineSet::from_lines(added), LineSet::from_lines(removed))
}

/// Everything the change touched, ready for the engine.
#[derive(Clone, Debug, Default)]
pub struct ChangeSet {
    /// The merge-base commit (40 hex), or a label for non-git inputs.
    pub base: String,
    /// The head commit (40 hex), or a label.
    pub head: String,
    /// Changed files, sorted by path.
    pub files: Vec<FilePair>,
    /// Conditions found while building the set (submodules, symlinks, unreadable paths).
    pub notes: Vec<crate::finding::Note>,
    /// Base-revision path and text of the test-runner configurations that say what the
    /// runner collects, whether the change touches them or not: the root-level ones
    /// (`pytest.ini`, `pyproject.toml`, ...), pytest's in the directories above the Python
    /// files the change touches, and the JavaScript runners' at any depth that can judge the
    /// change.
    pub runner_configs: Vec<(String, String)>,
    /// Base-revision paths of JavaScript/TypeScript files (at most [`MAX_BASE_JS_FILES`]),
    /// listed only when the change edits a JavaScript runner configuration: the existing
    /// tests a narrowed configuration would stop collecting.
    pub base_js_files: Vec<String>,
    /// Base-revision text of the workspace-declaring files (package.json, pnpm-workspace.yaml,
    /// lerna.json, Cargo.toml, pyproject.toml) above the changed manifests that lie in
    /// test-fixture directories, except those the change itself touches (their texts are in
    /// `files`): they say whether such a manifest is the project's ([`crate::workspace`]).
    /// `None` for a file that exists but could not be read (too large, not UTF-8).
    pub workspace_files: Vec<(String, Option<String>)>,
    /// The names of head's top-level entries (files and folders), so that a folder the change
    /// removes whole is told from one that keeps unchanged files; `None` when not known.
    pub head_top_level: Option<std::collections::BTreeSet<String>>,
    /// What the change's author says about it (commit messages, the pull request's title and
    /// body, an agent's last message), for `unbacked-claim`.
    pub claims: Vec<crate::claims::Claim>,
    /// Base text of the tests that by naming convention belong to the changed production files
    /// but that the change does not touch (`test_x.py` for `x.py`), so `test-fitted-code` can
    /// link the code to the tests it is fitted to.
    pub related_tests: Vec<(String, String)>,
}

/// Most base paths listed in [`ChangeSet::base_js_files`].
pub const MAX_BASE_JS_FILES: usize = 200_000;

/// Builds pairs from two path → bytes maps (the fixture harness and `--worktree` share this):
/// same path on both sides is a modification; a deleted and an added file with mostly the same
/// lines are a rename.
pub fn pair_trees(
    base: BTreeMap<String, Vec<u8>>,
    mut head: BTreeMap<String, Vec<u8>>,
) -> Vec<FilePair> {
    let mut pairs = Vec::new();
    let mut deleted = Vec::new();
    for (path, base_bytes) in base {
        match head.remove(&path) {
            Some(head_bytes) if head_bytes == base_bytes => {}
            Some(head_bytes) => {
                let (base, head) = (
                    Content::of_file(&path, base_bytes),
                    Content::of_file(&path, head_bytes),
                );
                pairs.push(FilePair::new(
                    Status::Modified,
                    Some(path.clone()),
                    Some(path),
                    base,
                    head,
                ));
            }
            None => deleted.push((path, base_bytes)),
        }
    }
    let mut added: Vec<(String, Vec<u8>)> = head.into_iter().collect();
    for (old_path, base_bytes) in deleted {
        let best = added
            .iter()
            .enumerate()
            .map(|(index, (_, head_bytes))| (similarity(&base_bytes, head_bytes), index))
            .filter(|(score, _)| *score >= 50)
            .max();
        match best {
            Some((_, index)) => {
                let (new_path, head_bytes) = added.remove(index);
                let (base, head) = (
                    Content::of_file(&old_path, base_bytes),
                    Content::of_file(&new_path, head_bytes),
                );
                pairs.push(FilePair::new(
                    Status::Renamed,
                    Some(old_path),
                    Some(new_path),
                    base,
                    head,
                ));
            }
            None => pairs.push(FilePair::new(
                Status::Deleted,
                Some(old_path.clone()),
                None,
                Content::of_file(&old_path, base_bytes),
                Content::Absent,
            )),
        }
    }
    for (new_path, head_bytes) in added {
        let head = Content::of_file(&new_path, head_bytes);
        pairs.push(FilePair::new(
            Status::Added,
            None,
            Some(new_path),
            Content::Absent,
            head,
        ));
    }
    pairs.sort_by(|a, b| a.path().cmp(b.path()));
    pairs
}

/// Percentage of lines kept between two blobs, as git's rename detection estimates it.
fn similarity(base: &[u8], head: &[u8]) -> usize {
    let (Ok(base), Ok(head)) = (std::str::from_utf8(base), std::str::from_utf8(head)) else {
        return usize::from(base == head) * 100;
    };
    let base_lines = base.lines().count();
    let head_lines = head.lines().count();
    let largest = base_lines.max(head_lines);
    if largest == 0 {
        return 100;
    }
    let (added, _) = diff_lines(base, head);
    let kept = head_lines.saturating_sub(added.len());
    kept * 100 / largest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(content: &Content) -> Option<Unreadability> {
        content.unreadable().map(|unreadable| unreadable.kind)
    }

    #[test]
    fn classifies_content() {
        let binary = Content::from_bytes(b"a\0b".to_vec());
        assert_eq!(kind(&binary), Some(Unreadability::Binary));
        assert_eq!(binary.text(), Some("a\u{fffd}b"));
        let latin1 = Content::from_bytes(vec![0xff, 0xfe, 0x41]);
        assert_eq!(kind(&latin1), Some(Unreadability::NotUtf8));
        assert_eq!(latin1.text(), Some("\u{fffd}\u{fffd}A"));
        let pointer = Content::from_bytes(
            b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\n".to_vec(),
        );
        assert_eq!(kind(&pointer), Some(Unreadability::LfsPointer));
        assert_eq!(
            Content::from_bytes(b"ok\n".to_vec()),
            Content::Text("ok\n".into())
        );
    }

    #[test]
    fn oversized_content_is_streamed_not_held_as_text() {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.resize(MAX_FILE_BYTES + 1, b'a');
        let content = Content::from_bytes(bytes);
        assert_eq!(kind(&content), Some(Unreadability::TooLarge));
        assert_eq!(content.text(), None);
        let unreadable = content.unreadable().unwrap();
        assert_eq!(unreadable.magic, Some("PNG image"));
        let Some(Raw::Large(source)) = &unreadable.raw else {
            panic!("no source to stream: {unreadable:?}");
        };
        let length = source.with_reader(|reader| std::io::copy(reader, &mut std::io::sink()));
        assert_eq!(length.unwrap().unwrap(), MAX_FILE_BYTES as u64 + 1);
    }

    #[test]
    fn sniffs_assets_but_not_text() {
        assert_eq!(sniff(b"GIF89a\x01\x00"), Some("GIF image"));
        assert_eq!(sniff(b"\0asm\x01\0\0\0"), Some("WebAssembly module"));
        let mut tar = vec![0u8; 300];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(sniff(&tar), Some("tar archive"));
        assert_eq!(sniff(b"function f() {}\n"), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn computes_added_and_removed_lines() {
        let pair = FilePair::new(
            Status::Modified,
            Some("a".into()),
            Some("a".into()),
            Content::Text("one\ntwo\nthree\n".into()),
            Content::Text("one\n2\nthree\nfour\n".into()),
        );
        assert_eq!(pair.added.iter().collect::<Vec<_>>(), [2, 4]);
        assert_eq!(pair.removed.iter().collect::<Vec<_>>(), [2]);
        assert!(pair.added.overlaps(3, 4));
        assert!(!pair.added.overlaps(3, 3));
    }

    #[test]
    fn pairs_trees_with_renames() {
        let body = "line\n".repeat(20);
        let base = BTreeMap::from([
            ("old.py".to_string(), body.clone().into_bytes()),
            ("gone.py".to_string(), b"x = 1\n".to_vec()),
        ]);
        let head = BTreeMap::from([
            ("new.py".to_string(), format!("{body}extra\n").into_bytes()),
            ("fresh.py".to_string(), b"y = 2\n".to_vec()),
        ]);
        let pairs = pair_trees(base, head);
        let statuses: Vec<(Status, &str)> = pairs.iter().map(|p| (p.status, p.path())).collect();
        assert_eq!(
            statuses,
            [
                (Status::Added, "fresh.py"),
                (Status::Deleted, "gone.py"),
                (Status::Renamed, "new.py")
            ]
        );
    }
}

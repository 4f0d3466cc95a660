//! The change set: the pairs of files a change touched, with both sides' content and the lines
//! it added and removed.
//!
//! Built by the git layer from two commits (or the working tree), or by the fixture harness from
//! two directory trees. It knows nothing of rules. Content that syntax rules cannot read (binary,
//! too large, not UTF-8, LFS pointers, submodules, symlinks) is kept as a reason, never an error.

use std::collections::BTreeMap;

/// Files larger than this are not analysed (noted in the output instead).
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

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
    /// Readable UTF-8 text.
    Text(String),
    /// Present but not analysable; the reason is shown as a note.
    Skipped(&'static str),
}

impl Content {
    /// Classifies raw bytes: binary, oversized, LFS pointer, non-UTF-8 or text.
    pub fn from_bytes(bytes: Vec<u8>) -> Content {
        if bytes.len() > MAX_FILE_BYTES {
            return Content::Skipped("file larger than 2 MiB, not analysed");
        }
        let probe = &bytes[..bytes.len().min(8000)];
        if probe.contains(&0) {
            return Content::Skipped("binary file, not analysed");
        }
        if bytes.starts_with(b"version https://git-lfs.github.com/spec/") {
            return Content::Skipped("Git LFS pointer, content not analysed");
        }
        match String::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(_) => Content::Skipped("not valid UTF-8, syntax rules skipped"),
        }
    }

    /// The text, when the content is text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            _ => None,
        }
    }
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
        let (added, removed) = line_changes(base.text(), head.text());
        FilePair {
            status,
            old_path,
            new_path,
            base,
            head,
            added,
            removed,
        }
    }

    /// The path a finding about this file names: head's, or base's for deletions.
    pub fn path(&self) -> &str {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or_default()
    }

    /// The reason this pair cannot be analysed as text, if any side is skipped.
    pub fn skip_reason(&self) -> Option<&'static str> {
        [&self.head, &self.base]
            .into_iter()
            .find_map(|content| match content {
                Content::Skipped(reason) => Some(*reason),
                _ => None,
            })
    }
}

/// Added head lines and removed base lines, by a line diff of the two texts (libgit2's, so the
/// fixture harness and real repositories agree).
fn line_changes(base: Option<&str>, head: Option<&str>) -> (LineSet, LineSet) {
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
    /// Base-revision text of the root-level test-runner configurations (`pytest.ini`,
    /// `pyproject.toml`, ...), which say what the runner collects, whether the change touches
    /// them or not.
    pub runner_configs: Vec<(String, String)>,
    /// Base-revision paths of JavaScript/TypeScript files (at most [`MAX_BASE_JS_FILES`]),
    /// listed only when the change edits a root-level jest or vitest configuration: the
    /// existing tests a narrowed configuration would stop collecting.
    pub base_js_files: Vec<String>,
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
            Some(head_bytes) => pairs.push(FilePair::new(
                Status::Modified,
                Some(path.clone()),
                Some(path),
                Content::from_bytes(base_bytes),
                Content::from_bytes(head_bytes),
            )),
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
                pairs.push(FilePair::new(
                    Status::Renamed,
                    Some(old_path),
                    Some(new_path),
                    Content::from_bytes(base_bytes),
                    Content::from_bytes(head_bytes),
                ));
            }
            None => pairs.push(FilePair::new(
                Status::Deleted,
                Some(old_path),
                None,
                Content::from_bytes(base_bytes),
                Content::Absent,
            )),
        }
    }
    for (new_path, head_bytes) in added {
        pairs.push(FilePair::new(
            Status::Added,
            None,
            Some(new_path),
            Content::Absent,
            Content::from_bytes(head_bytes),
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

    #[test]
    fn classifies_content() {
        assert!(matches!(
            Content::from_bytes(b"a\0b".to_vec()),
            Content::Skipped(_)
        ));
        assert!(matches!(
            Content::from_bytes(vec![0xff, 0xfe, 0x41]),
            Content::Skipped(_)
        ));
        assert!(matches!(
            Content::from_bytes(
                b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\n".to_vec()
            ),
            Content::Skipped(_)
        ));
        assert_eq!(
            Content::from_bytes(b"ok\n".to_vec()),
            Content::Text("ok\n".into())
        );
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

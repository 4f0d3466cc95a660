//! The git layer: resolves the revisions of a change and reads what it touched.
//!
//! First stage of the pipeline. It turns `BASE`/`--head`/`--worktree` into a [`ChangeSet`]:
//! merge-base (three-dot, like a pull request), tree-to-tree diff with rename detection, both
//! sides' blobs. It knows nothing of rules. Every failure is a [`GitError`] with a one-line
//! cause and, where one exists, a hint that says how to fix it.

pub mod command;
mod js_configs;

use crate::changeset::{
    ChangeSet, Content, FilePair, LargeSource, MAX_FILE_BYTES, Status, Unreadability, size_cap,
    sniff,
};
use crate::finding::Note;
use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, FileMode, Oid, Repository};
use std::path::Path;

/// Whether the change takes out code of `pair` that the reverted commit brought: a removed line
/// that the file did not have before that commit (`before`) and that head no longer has. A
/// comment or a line re-indented beside the deleted tests undoes nothing.
fn takes_out_what_it_added(pair: &FilePair, before: Option<&str>) -> bool {
    let Some(base) = pair.base.text() else {
        return false;
    };
    let head = pair.head.text().unwrap_or_default();
    let kept: std::collections::HashSet<&str> = head.lines().map(str::trim).collect();
    let had: std::collections::HashSet<&str> =
        before.unwrap_or_default().lines().map(str::trim).collect();
    let lines: Vec<&str> = base.lines().collect();
    pair.removed.iter().any(|number| {
        let line = lines
            .get(number.saturating_sub(1) as usize)
            .map_or("", |line| line.trim());
        line.chars().filter(|c| c.is_alphanumeric()).count() >= 3
            && !crate::rules::subjects::is_comment(line)
            && !had.contains(line)
            && !kept.contains(line)
    })
}

/// How far back in the base branch's first-parent history a reverted subject is looked for.
const MAX_SUBJECT_SEARCH: usize = 5_000;

/// The subject a revert's first line quotes: `Revert "x" (#12)` → `x`.
fn reverted_subject(first_line: &str) -> Option<String> {
    let rest = first_line.trim().strip_prefix("Revert \"")?;
    let end = rest.rfind('"')?;
    let subject = &rest[..end];
    (!subject.is_empty()).then(|| subject.to_string())
}

/// A subject without the pull request number a squash merge appends: `x (#12)` → `x`.
fn without_pr_number(subject: &str) -> &str {
    let trimmed = subject.trim();
    match trimmed.rfind(" (#") {
        Some(at)
            if trimmed.ends_with(')')
                && trimmed[at + 3..trimmed.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            &trimmed[..at]
        }
        _ => trimmed,
    }
}

/// Most commits a range's messages may name as reverted that are looked at.
const MAX_REVERTED: usize = 8;
/// A reverted commit touching more paths than this is not read (a mass revert is judged as
/// any other change).
const MAX_REVERTED_PATHS: usize = 2_000;

/// What went wrong, with the hint to print after it.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// Not inside a git repository.
    #[error("not a git repository: {0}")]
    NotARepository(String),
    /// A revision that does not resolve to a commit.
    #[error("unknown revision `{0}`")]
    BadRevision(String),
    /// No default base could be found.
    #[error("no base given and none of origin/HEAD, main, master exists")]
    NoDefaultBase,
    /// The two revisions share no history.
    #[error("no merge base between `{base}` and `{head}`: they share no history")]
    NoMergeBase {
        /// Base revision as given.
        base: String,
        /// Head revision as given.
        head: String,
    },
    /// A shallow clone that lacks the history the merge-base needs.
    #[error("no merge base between `{base}` and `{head}` in this shallow clone")]
    ShallowMissingBase {
        /// Base revision as given.
        base: String,
        /// Head revision as given.
        head: String,
    },
    /// A short name that refs of different kinds give to different commits (a tag shadowing
    /// a branch).
    #[error("ambiguous revision `{name}`: {first} and {second} point to different commits")]
    AmbiguousRevision {
        /// The name as given.
        name: String,
        /// One full ref name (the branch, when there is one).
        first: String,
        /// Another full ref name that points elsewhere.
        second: String,
    },
    /// A file read from a commit is larger than the gate reads.
    #[error("{path}: larger than {} MiB", limit >> 20)]
    TooLarge {
        /// `<commit>:<path>`.
        path: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A bare repository without an explicit head.
    #[error("this is a bare repository: name the head revision with --head")]
    BareWithoutHead,
    /// `--worktree` in a bare repository.
    #[error("--worktree needs a working tree, and this repository is bare")]
    BareWorktree,
    /// A repository without any commit yet.
    #[error("the repository has no commits yet")]
    Empty,
    /// Anything else libgit2 reports.
    #[error("git: {0}")]
    Other(String),
}

impl GitError {
    /// How to fix it, when we know.
    pub fn hint(&self) -> Option<String> {
        let hint = match self {
            GitError::ShallowMissingBase { .. } => {
                "fetch full history: `git fetch --unshallow`, or actions/checkout with `fetch-depth: 0`"
            }
            GitError::NoDefaultBase => "name the base branch: `integrity-gate diff main`",
            GitError::BadRevision(_) => {
                "check the branch name; in CI, fetch the base branch first (`git fetch origin main`)"
            }
            GitError::NotARepository(_) => "run inside a git checkout",
            GitError::AmbiguousRevision { first, .. } => {
                return Some(format!("pass the full ref name, e.g. `{first}`"));
            }
            _ => return None,
        };
        Some(hint.to_string())
    }
}

impl From<git2::Error> for GitError {
    fn from(error: git2::Error) -> GitError {
        GitError::Other(error.message().to_string())
    }
}

/// git's empty tree (SHA-1 and SHA-256): as a base, it means "everything in head is new".
pub const EMPTY_TREES: &[&str] = &[
    "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
];

/// An opened repository.
pub struct Git {
    repo: Repository,
}

/// Which revisions to compare.
pub struct Range<'a> {
    /// BASE as given, or `None` for the default.
    pub base: Option<&'a str>,
    /// `--head`, or `None` for `HEAD`.
    pub head: Option<&'a str>,
    /// Include uncommitted changes (and untracked files) of the working tree.
    pub worktree: bool,
}

impl Git {
    /// Opens the repository containing `path`.
    pub fn discover(path: &Path) -> Result<Git, GitError> {
        Repository::discover(path)
            .map(|repo| Git { repo })
            .map_err(|_| GitError::NotARepository(path.display().to_string()))
    }

    /// Resolves a revision to a commit id. A short name is looked up the way git does
    /// (`refs/tags/` before `refs/heads/`!), so a tag named like the base branch would silently
    /// replace it; when refs sharing the name point at different commits the name is refused
    /// instead, naming them (see [`Git::unambiguous`]). Full ref names, object ids and
    /// expressions (`main~3`, `HEAD^`) keep working; an expression's leading name is checked too.
    pub fn resolve(&self, spec: &str) -> Result<Oid, GitError> {
        let expanded;
        let spec = match self.unambiguous(spec)? {
            Some(full) => {
                expanded = full;
                expanded.as_str()
            }
            None => spec,
        };
        let object = self.repo.revparse_single(spec).map_err(|error| {
            if error.code() == ErrorCode::UnbornBranch {
                GitError::Empty
            } else {
                GitError::BadRevision(spec.to_string())
            }
        })?;
        let commit = object
            .peel_to_commit()
            .map_err(|_| GitError::BadRevision(spec.to_string()))?;
        Ok(commit.id())
    }

    /// `spec` with its leading short name replaced by the one full ref it means, `None` when
    /// there is nothing to replace (an object id, a full ref name, a name no ref has), or an
    /// error when refs sharing the name point at different commits.
    fn unambiguous(&self, spec: &str) -> Result<Option<String>, GitError> {
        let end = spec.find(['~', '^', ':']).unwrap_or(spec.len());
        let end = spec.find("@{").map_or(end, |at| at.min(end));
        let (name, rest) = spec.split_at(end);
        let full_id = matches!(name.len(), 40 | 64) && name.bytes().all(|b| b.is_ascii_hexdigit());
        if name.is_empty() || name.starts_with("refs/") || full_id {
            return Ok(None);
        }
        // git's own lookup order (`git help revisions`), but every match counts.
        let candidates = [
            name.to_string(),
            format!("refs/{name}"),
            format!("refs/tags/{name}"),
            format!("refs/heads/{name}"),
            format!("refs/remotes/{name}"),
            format!("refs/remotes/{name}/HEAD"),
        ];
        let mut found: Vec<(String, Oid)> = Vec::new();
        for candidate in candidates {
            let Ok(reference) = self.repo.find_reference(&candidate) else {
                continue;
            };
            let Ok(commit) = reference.peel_to_commit() else {
                continue;
            };
            found.push((candidate, commit.id()));
        }
        // The branch wins when it exists: it is what a base or head name normally means.
        let Some((winner, winner_id)) = found
            .iter()
            .find(|(full, _)| full.starts_with("refs/heads/"))
            .or(found.first())
        else {
            return Ok(None);
        };
        if let Some((shadow, _)) = found.iter().find(|(_, id)| id != winner_id) {
            return Err(GitError::AmbiguousRevision {
                name: name.to_string(),
                first: winner.clone(),
                second: shadow.clone(),
            });
        }
        Ok(Some(format!("{winner}{rest}")))
    }

    /// The default base: the remote's default branch, then `main`, then `master`. A name that
    /// exists but is ambiguous stops the search: falling through to the next candidate would
    /// let a tag pick the base.
    pub fn default_base(&self) -> Result<String, GitError> {
        for candidate in [
            "origin/HEAD",
            "main",
            "master",
            "origin/main",
            "origin/master",
        ] {
            // A name that does not exist sends the search on to the next candidate.
            let resolved = self.resolve(candidate);
            if let Err(error @ GitError::AmbiguousRevision { .. }) = resolved {
                return Err(error);
            }
            if resolved.is_ok() {
                return Ok(candidate.to_string());
            }
        }
        Err(GitError::NoDefaultBase)
    }

    /// The author and committer identities and the message of each commit in `base..head`,
    /// newest first and at most `max` of them, in the shape of `git log
    /// --format='%an <%ae>%n%cn <%ce>%n%B%n'`. Read with libgit2 rather than `git log`, so no
    /// program the repository's config names (`gpg.program` through `log.showSignature`) runs.
    pub fn commit_texts(&self, base: &str, head: &str, max: usize) -> Result<String, GitError> {
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(git2::Sort::TIME)?;
        walk.push(self.resolve(head)?)?;
        walk.hide(self.resolve(base)?)?;
        let mut text = String::new();
        for id in walk.take(max) {
            let commit = self.repo.find_commit(id?)?;
            for person in [commit.author(), commit.committer()] {
                let name = String::from_utf8_lossy(person.name_bytes());
                let email = String::from_utf8_lossy(person.email_bytes());
                text.push_str(&format!("{name} <{email}>\n"));
            }
            text.push_str(&String::from_utf8_lossy(commit.message_bytes()));
            text.push_str("\n\n");
        }
        Ok(text)
    }

    /// (commit id, message) of each commit in `base..head` (every commit of head without a
    /// base), newest first and at most `max` of them; read with libgit2 like
    /// [`Git::commit_texts`].
    pub fn commit_messages(
        &self,
        base: Option<&str>,
        head: &str,
        max: usize,
    ) -> Result<Vec<(String, String)>, GitError> {
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(git2::Sort::TIME)?;
        walk.push(self.resolve(head)?)?;
        if let Some(base) = base {
            walk.hide(self.resolve(base)?)?;
        }
        let mut messages = Vec::new();
        for id in walk.take(max) {
            let commit = self.repo.find_commit(id?)?;
            let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
            messages.push((commit.id().to_string(), message));
        }
        Ok(messages)
    }

    /// Marks each pair of `change` that a commit the change reverts had touched (see
    /// [`FilePair::reverted`]). Only a commit in the history of the merge-base counts, named
    /// by a `This reverts commit X.` line of one of the range's commit messages, and only when
    /// the change also touches some production file of that commit: a revert undoes the
    /// feature with its tests. Anything unreadable leaves the pair unmarked (judged as any
    /// other change).
    pub fn mark_reverts(&self, change: &mut ChangeSet) {
        static REVERTS: std::sync::LazyLock<Option<regex::Regex>> =
            std::sync::LazyLock::new(|| {
                regex::Regex::new(r"This reverts commit ([0-9a-f]{7,40})").ok()
            });
        let Some(pattern) = REVERTS.as_ref() else {
            return;
        };
        let Ok(merge_base) = self.resolve(&change.base) else {
            return;
        };
        let named: std::collections::BTreeSet<&str> = change
            .claims
            .iter()
            .filter(|claim| claim.source.starts_with(crate::claims::COMMIT))
            .flat_map(|claim| pattern.captures_iter(&claim.text))
            .filter_map(|captures| captures.get(1).map(|sha| sha.as_str()))
            .take(MAX_REVERTED)
            .collect();
        let mut named: Vec<Oid> = named
            .into_iter()
            .filter_map(|sha| {
                Some(
                    self.repo
                        .revparse_single(sha)
                        .ok()?
                        .peel_to_commit()
                        .ok()?
                        .id(),
                )
            })
            .collect();
        // A squashed revert pull request names what it reverts by subject only:
        // `Revert "chore: remove dependency on chokidar" (#16641)`.
        let subjects: Vec<String> = change
            .claims
            .iter()
            .filter(|claim| claim.source.starts_with(crate::claims::COMMIT))
            .filter_map(|claim| reverted_subject(claim.text.lines().next().unwrap_or_default()))
            .take(MAX_REVERTED)
            .collect();
        // Or by pull request number: "This also reverts #6391", "Reverts owner/repo#812".
        static BY_NUMBER: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(
            || {
                regex::Regex::new(
                    r"(?i)\brevert(?:s|ed|ing)?\s+(?:pr\s+|pull\s+request\s+|[\w.-]+/[\w.-]+)?#(\d{1,7})\b",
                )
                .ok()
            },
        );
        let numbers: Vec<String> = BY_NUMBER
            .as_ref()
            .map(|by_number| {
                change
                    .claims
                    .iter()
                    .filter(|claim| claim.source.starts_with(crate::claims::COMMIT))
                    .flat_map(|claim| by_number.captures_iter(&claim.text))
                    .filter_map(|captures| captures.get(1).map(|n| format!("(#{})", n.as_str())))
                    .take(MAX_REVERTED)
                    .collect()
            })
            .unwrap_or_default();
        if !subjects.is_empty() || !numbers.is_empty() {
            named.extend(self.commits_by_subject(merge_base, &subjects, &numbers));
        }
        named.sort_unstable();
        named.dedup();
        for id in named.into_iter().take(MAX_REVERTED) {
            let Some((id, parent, touched)) = self.reverted_commit(id, merge_base) else {
                continue;
            };
            let undoes_code = change.files.iter().any(|pair| {
                pair.old_path.as_deref().is_some_and(|path| {
                    touched.contains(path)
                        && !crate::rules::is_test_path(path)
                        && self
                            .text_before(parent, path)
                            .is_some_and(|before| takes_out_what_it_added(pair, before.as_deref()))
                })
            });
            if !undoes_code {
                continue;
            }
            let commit = id.to_string()[..12].to_string();
            for pair in change
                .files
                .iter_mut()
                .filter(|pair| pair.reverted.is_none())
            {
                let Some(path) = pair.old_path.clone().filter(|path| touched.contains(path)) else {
                    continue;
                };
                // Unreadable before the commit: the pair stays unmarked, judged as any other.
                let Some(before) = self.text_before(parent, &path) else {
                    continue;
                };
                pair.reverted = Some(Box::new(crate::changeset::Reverted {
                    commit: commit.clone(),
                    before,
                }));
            }
        }
    }

    /// A file's text at `commit`: `Some(None)` when it did not exist there, `None` when it
    /// cannot be read as text.
    fn text_before(&self, commit: Oid, path: &str) -> Option<Option<String>> {
        match self
            .read_file_at(commit, path, MAX_FILE_BYTES as u64)
            .ok()?
        {
            None => Some(None),
            Some(bytes) => String::from_utf8(bytes).ok().map(Some),
        }
    }

    /// A commit named by a revert message: its id, its first parent and the paths it touched,
    /// when it is the merge-base or one of its ancestors and has a parent.
    fn reverted_commit(
        &self,
        id: Oid,
        merge_base: Oid,
    ) -> Option<(Oid, Oid, std::collections::BTreeSet<String>)> {
        if id != merge_base && !self.repo.graph_descendant_of(merge_base, id).ok()? {
            return None;
        }
        let commit = self.repo.find_commit(id).ok()?;
        let parent = commit.parent(0).ok()?;
        let diff = self
            .repo
            .diff_tree_to_tree(Some(&parent.tree().ok()?), Some(&commit.tree().ok()?), None)
            .ok()?;
        if diff.deltas().len() > MAX_REVERTED_PATHS {
            return None;
        }
        let touched = diff
            .deltas()
            .flat_map(|delta| [delta.old_file().path(), delta.new_file().path()])
            .flatten()
            .filter_map(|path| path.to_str().map(str::to_string))
            .collect();
        Some((id, parent.id(), touched))
    }

    /// The commits among the last [`MAX_SUBJECT_SEARCH`] first-parent ancestors of `from`
    /// whose subject is one of `subjects` (a pull request number at the end set aside) or ends
    /// with one of the pull request `numbers` (`(#6391)`).
    fn commits_by_subject(&self, from: Oid, subjects: &[String], numbers: &[String]) -> Vec<Oid> {
        let Ok(mut walk) = self.repo.revwalk() else {
            return Vec::new();
        };
        if walk.push(from).is_err() || walk.simplify_first_parent().is_err() {
            return Vec::new();
        }
        let wanted: Vec<&str> = subjects
            .iter()
            .map(|subject| without_pr_number(subject))
            .collect();
        walk.take(MAX_SUBJECT_SEARCH)
            .filter_map(Result::ok)
            .filter(|id| {
                self.repo.find_commit(*id).ok().is_some_and(|commit| {
                    commit.summary().ok().flatten().is_some_and(|summary| {
                        wanted.contains(&without_pr_number(summary))
                            || numbers
                                .iter()
                                .any(|number| summary.trim_end().ends_with(number))
                    })
                })
            })
            .take(MAX_REVERTED)
            .collect()
    }

    /// The repository's git directory (`.git`), where the gate keeps per-session state.
    pub fn git_dir(&self) -> &Path {
        self.repo.path()
    }

    /// The working tree's root, `None` in a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// A file's bytes at `commit`, if it exists there; larger than `limit` bytes is an error
    /// (checked before the blob is copied).
    pub fn read_file_at(
        &self,
        commit: Oid,
        path: &str,
        limit: u64,
    ) -> Result<Option<Vec<u8>>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let entry = match tree.get_path(Path::new(path)) {
            Ok(entry) => entry,
            Err(error) if error.code() == ErrorCode::NotFound => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let blob = entry.to_object(&self.repo)?.peel_to_blob()?;
        if blob.size() as u64 > limit {
            return Err(GitError::TooLarge {
                path: format!("{}:{path}", &commit.to_string()[..12]),
                limit,
            });
        }
        Ok(Some(blob.content().to_vec()))
    }

    /// Resolves the range and reads the change: merge-base(base, head)..head. Also returns the
    /// commit BASE itself resolves to (the base branch as it is now, where the policy is read),
    /// `None` when the base is git's empty tree (a first push with nothing before it).
    pub fn change_set(&self, range: &Range<'_>) -> Result<(Option<Oid>, ChangeSet), GitError> {
        if self.repo.is_bare() && range.worktree {
            return Err(GitError::BareWorktree);
        }
        if self.repo.is_bare() && range.head.is_none() {
            return Err(GitError::BareWithoutHead);
        }
        if self.repo.head().is_err() && range.head.is_none() && self.repo.is_empty()? {
            return Err(GitError::Empty);
        }
        let base_name = match range.base {
            Some(base) => base.to_string(),
            None => self.default_base()?,
        };
        let head_name = range.head.unwrap_or("HEAD");
        let head = self.resolve(head_name)?;
        if EMPTY_TREES.contains(&base_name.as_str()) {
            let mut change = self.tree_changes(None, head)?;
            change.base = base_name;
            change.head = head.to_string();
            return Ok((None, change));
        }
        let base = self.resolve(&base_name)?;
        let merge_base = match self.repo.merge_base(base, head) {
            Ok(oid) => oid,
            Err(error) if error.code() == ErrorCode::NotFound => {
                let (base, head) = (base_name.clone(), head_name.to_string());
                return Err(if self.repo.is_shallow() {
                    GitError::ShallowMissingBase { base, head }
                } else {
                    GitError::NoMergeBase { base, head }
                });
            }
            Err(error) => return Err(error.into()),
        };
        let diffing = crate::timings::span("phase", || "git: diff and blobs".into());
        let mut change = if range.worktree {
            self.worktree_changes(merge_base)?
        } else {
            self.tree_changes(Some(merge_base), head)?
        };
        drop(diffing);
        let _configs = crate::timings::span("phase", || "git: base configs".into());
        change.base = merge_base.to_string();
        change.head = head.to_string();
        for path in crate::rules::collection::runner_config_paths(&change.files) {
            let bytes = match self.read_file_at(merge_base, &path, MAX_FILE_BYTES as u64) {
                Ok(bytes) => bytes,
                Err(GitError::TooLarge { .. }) => {
                    change.notes.push(Note {
                        path,
                        message: "base's runner configuration is larger than 2 MiB, not read: \
                                  the runner's default collection applies"
                            .to_string(),
                    });
                    continue;
                }
                Err(error) => return Err(error),
            };
            if let Some(text) = bytes.and_then(|bytes| String::from_utf8(bytes).ok()) {
                change.runner_configs.push((path, text));
            }
        }
        // Whether a changed manifest in a test-fixture directory is the project's: what the
        // workspace declarations above it say (an unreadable one counts as taking it in).
        change.workspace_files = crate::workspace::read_declaring_files(&change.files, |name| {
            match self.read_file_at(merge_base, name, MAX_FILE_BYTES as u64) {
                Ok(None) => Ok(None),
                Ok(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|_| ()),
                Err(_) => Err(()),
            }
        });
        self.read_js_runner_configs(merge_base, &mut change)?;
        self.read_extended_tsconfigs(merge_base, &mut change);
        let _related = crate::timings::span("phase", || "git: related tests".into());
        change.related_tests = self.related_tests(merge_base, &change.files)?;
        Ok((Some(base), change))
    }

    /// Base's conventional tests of the changed production files that the change leaves alone
    /// (see [`crate::rules::related_tests`]); a test too large or not UTF-8 is left out.
    fn related_tests(
        &self,
        commit: Oid,
        files: &[crate::changeset::FilePair],
    ) -> Result<Vec<(String, String)>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        Ok(crate::rules::related_tests(files, |path| {
            let entry = tree.get_path(Path::new(path)).ok()?;
            let blob = entry.to_object(&self.repo).ok()?.peel_to_blob().ok()?;
            if blob.size() as u64 > crate::rules::RELATED_TEST_MAX_BYTES {
                return None;
            }
            String::from_utf8(blob.content().to_vec()).ok()
        }))
    }

    fn diff_options() -> DiffOptions {
        let mut options = DiffOptions::new();
        options.context_lines(0).ignore_submodules(false);
        options
    }

    fn tree_changes(&self, base: Option<Oid>, head: Oid) -> Result<ChangeSet, GitError> {
        let base_tree = match base {
            Some(base) => Some(self.repo.find_commit(base)?.tree()?),
            None => None,
        };
        let head_tree = self.repo.find_commit(head)?.tree()?;
        let mut diff = self.repo.diff_tree_to_tree(
            base_tree.as_ref(),
            Some(&head_tree),
            Some(&mut Self::diff_options()),
        )?;
        diff.find_similar(Some(
            DiffFindOptions::new().renames(true).rename_threshold(50),
        ))?;
        let mut change = self.collect(&diff, None)?;
        change.head_top_level = Some(
            head_tree
                .iter()
                .filter_map(|entry| entry.name().ok().map(str::to_string))
                .collect(),
        );
        Ok(change)
    }

    fn worktree_changes(&self, base: Oid) -> Result<ChangeSet, GitError> {
        let base_tree = self.repo.find_commit(base)?.tree()?;
        let mut options = Self::diff_options();
        options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .show_untracked_content(true);
        let mut diff = self
            .repo
            .diff_tree_to_workdir_with_index(Some(&base_tree), Some(&mut options))?;
        diff.find_similar(Some(
            DiffFindOptions::new()
                .renames(true)
                .rename_threshold(50)
                .for_untracked(true),
        ))?;
        let mut change = self.collect(&diff, self.repo.workdir())?;
        change.head_top_level = self.repo.workdir().and_then(top_level_on_disk);
        Ok(change)
    }

    /// Turns a diff into file pairs. `workdir` is set when head content comes from the
    /// working tree rather than from blobs.
    fn collect(
        &self,
        diff: &git2::Diff<'_>,
        workdir: Option<&Path>,
    ) -> Result<ChangeSet, GitError> {
        let mut change = ChangeSet::default();
        let mut sides = Vec::new();
        for delta in diff.deltas() {
            let status = match delta.status() {
                Delta::Added | Delta::Untracked | Delta::Copied => Status::Added,
                Delta::Deleted => Status::Deleted,
                Delta::Renamed => Status::Renamed,
                Delta::Modified | Delta::Typechange => Status::Modified,
                _ => continue,
            };
            let old_path = delta.old_file().path().map(path_text);
            let new_path = delta.new_file().path().map(path_text);
            let (old_path, new_path) = match status {
                Status::Added => (None, new_path),
                Status::Deleted => (old_path, None),
                _ => (old_path, new_path),
            };
            // Symbolic links and submodules are kept as pairs (not dropped with a note) so that
            // a text file replaced by one is judged, and a link's target is scanned for secrets.
            let base = match status {
                Status::Added => Content::Absent,
                _ => self.side_content(
                    delta.old_file().id(),
                    delta.old_file().mode(),
                    old_path.as_deref().unwrap_or_default(),
                ),
            };
            let head = match (status, workdir) {
                (Status::Deleted, _) => Content::Absent,
                (_, Some(workdir)) if delta.new_file().mode() != FileMode::Commit => {
                    read_worktree_file(workdir, new_path.as_deref().unwrap_or_default())
                }
                _ => self.side_content(
                    delta.new_file().id(),
                    delta.new_file().mode(),
                    new_path.as_deref().unwrap_or_default(),
                ),
            };
            sides.push((status, old_path, new_path, base, head));
        }
        // Blobs come from one repository handle, one by one; the line diffs of large files
        // are independent and cost more, so they run on every core.
        change.files = {
            use rayon::prelude::*;
            sides
                .into_par_iter()
                .map(|(status, old_path, new_path, base, head)| {
                    FilePair::new(status, old_path, new_path, base, head)
                })
                .collect()
        };
        change.files.sort_by(|a, b| a.path().cmp(b.path()));
        Ok(change)
    }

    /// One side of a delta: a submodule, a symbolic link (its target), or a blob.
    fn side_content(&self, id: Oid, mode: FileMode, path: &str) -> Content {
        match mode {
            FileMode::Commit => Content::opaque(Unreadability::Submodule),
            FileMode::Link => match self.repo.find_blob(id) {
                Ok(blob) => Content::symlink(blob.content()),
                Err(_) => Content::opaque(Unreadability::Missing),
            },
            _ => self.blob_content(id, path),
        }
    }

    fn blob_content(&self, id: Oid, path: &str) -> Content {
        match self.repo.find_blob(id) {
            Ok(blob) if blob.size() > size_cap(path) => {
                // Not copied: the secret scanner reads the blob again, in chunks, when it
                // gets to this file.
                let source = LargeSource::Blob {
                    repository: self.repo.path().to_path_buf(),
                    id,
                };
                Content::large(sniff(blob.content()), source)
            }
            Ok(blob) => Content::of_file(path, blob.content().to_vec()),
            Err(_) => Content::opaque(Unreadability::Missing),
        }
    }
}

/// The names in the working tree's top folder (without `.git`), bounded: past the bound the
/// answer is unknown rather than partial. A folder emptied on disk but not removed still
/// counts as present, which only ever hides a removal from `mass-deletion`.
fn top_level_on_disk(workdir: &Path) -> Option<std::collections::BTreeSet<String>> {
    const MAX_ENTRIES: usize = 100_000;
    let mut names = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(workdir).ok()?.take(MAX_ENTRIES + 1) {
        let name = entry.ok()?.file_name().to_string_lossy().into_owned();
        if name != ".git" {
            names.insert(name);
        }
    }
    (names.len() <= MAX_ENTRIES).then_some(names)
}

fn read_worktree_file(workdir: &Path, path: &str) -> Content {
    let full = workdir.join(path);
    match std::fs::symlink_metadata(&full) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(&full) {
            Ok(target) => Content::symlink(target.as_os_str().as_encoded_bytes()),
            Err(_) => Content::opaque(Unreadability::Missing),
        },
        Ok(meta) if meta.len() > size_cap(path) as u64 => {
            let mut head = [0u8; 512];
            let read = std::fs::File::open(&full)
                .and_then(|mut file| std::io::Read::read(&mut file, &mut head))
                .unwrap_or(0);
            Content::large(sniff(&head[..read]), LargeSource::File(full))
        }
        Ok(_) => match std::fs::read(&full) {
            Ok(bytes) => Content::of_file(path, bytes),
            Err(_) => Content::opaque(Unreadability::Missing),
        },
        Err(_) => Content::Absent,
    }
}

/// Repo-relative path with forward slashes; non-UTF-8 bytes are replaced visibly.
fn path_text(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

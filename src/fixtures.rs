//! Builds change sets from two plain directory trees (`base/`, `head/`), without git, and
//! renders findings as the fixtures' `expected.txt` rows. Used by the fixture tests; also
//! handy for trying a rule on two hand-written trees.
//!
//! A file named `<name>.symlink` stands for a symbolic link `<name>` whose target is the
//! file's content (trailing whitespace left out), as git stores one: fixtures stay plain files
//! on every platform.

use crate::changeset::{ChangeSet, Content, FilePair, Status, pair_trees};
use crate::engine::Report;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// Reads every file below `root` as repo-relative path → bytes (a missing root is empty).
pub fn read_tree(root: &Path) -> io::Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    if root.is_dir() {
        walk(root, root, &mut files)?;
    }
    Ok(files)
}

fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|entry| entry.path());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, files)?;
        } else {
            let relative = path
                .strip_prefix(root)
                .map_err(io::Error::other)?
                .to_string_lossy()
                .replace('\\', "/");
            files.insert(relative, std::fs::read(&path)?);
        }
    }
    Ok(())
}

/// The suffix of a file that stands for a symbolic link.
pub const SYMLINK_SUFFIX: &str = ".symlink";

/// The change from the tree at `base` to the tree at `head`.
pub fn change_set(base: &Path, head: &Path) -> io::Result<ChangeSet> {
    Ok(change_set_of_trees(read_tree(base)?, read_tree(head)?))
}

/// The claims a fixture case makes about its change: the text of `claims.txt` beside its
/// `base/` and `head/`, if any (for `unbacked-claim`).
pub fn claims(case: &Path) -> io::Result<Vec<crate::claims::Claim>> {
    match std::fs::read_to_string(case.join("claims.txt")) {
        Ok(text) => Ok(vec![crate::claims::Claim::new("claims.txt", &text)]),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(error),
    }
}

/// The change from one tree (repo-relative path → bytes, links as `<name>.symlink` files) to
/// another, with what the engine reads of base beside the changed files (runner and
/// workspace configurations) taken from the base tree.
pub fn change_set_of_trees(base_tree: Tree, head_tree: Tree) -> ChangeSet {
    let (base_files, base_links) = split_links(base_tree);
    let (head_files, head_links) = split_links(head_tree);
    let head_top_level = head_files
        .keys()
        .chain(head_links.keys())
        .map(|path| path.split('/').next().unwrap_or(path).to_string())
        .collect();
    let base_text = |path: &str| -> Option<Result<String, ()>> {
        let bytes = base_files.get(path)?;
        Some(String::from_utf8(bytes.clone()).map_err(|_| ()))
    };
    // JavaScript runner configurations at any depth, as the git layer reads them.
    let js_configs: Vec<(String, String)> = base_files
        .iter()
        .filter(|(path, _)| {
            crate::rules::collection::is_js_runner_config(path)
                && !path.split('/').any(|part| part == "node_modules")
        })
        .map(|(path, bytes)| (path.clone(), String::from_utf8_lossy(bytes).into_owned()))
        .collect();
    let base_js_files = base_files
        .keys()
        .filter(|path| crate::rules::collection::is_js_source(path))
        .cloned()
        .collect();
    let mut runner_configs: Vec<(String, String)> = Vec::new();
    let mut workspace_files = Vec::new();
    let mut files = pair_trees(base_files.clone(), head_files);
    files.extend(link_pairs(&base_links, &head_links));
    files.sort_by(|a, b| a.path().cmp(b.path()));
    for path in crate::rules::collection::runner_config_paths(&files) {
        if let Some(Ok(text)) = base_text(&path) {
            runner_configs.push((path, text));
        }
    }
    for (path, text) in js_configs {
        if !runner_configs.iter().any(|(known, _)| *known == path) {
            runner_configs.push((path, text));
        }
    }
    crate::rules::fill_tsconfig_extends(&mut files, |path| base_text(path)?.ok());
    workspace_files.extend(crate::workspace::read_declaring_files(
        &files,
        |name| match base_text(name) {
            None => Ok(None),
            Some(Ok(text)) => Ok(Some(text)),
            Some(Err(())) => Err(()),
        },
    ));
    ChangeSet {
        base: "base".to_string(),
        head: "head".to_string(),
        notes: Vec::new(),
        runner_configs,
        base_js_files,
        workspace_files,
        claims: Vec::new(),
        head_top_level: Some(head_top_level),
        related_tests: crate::rules::related_tests(&files, |path| base_text(path)?.ok()),
        files,
    }
}

/// Repo-relative path → bytes.
pub type Tree = BTreeMap<String, Vec<u8>>;

/// The regular files of `tree`, and its links (path → target).
fn split_links(tree: Tree) -> (Tree, Tree) {
    let (links, files): (Tree, Tree) = tree
        .into_iter()
        .partition(|(path, _)| path.ends_with(SYMLINK_SUFFIX));
    let links = links
        .into_iter()
        .map(|(path, target)| {
            let path = path.trim_end_matches(SYMLINK_SUFFIX).to_string();
            (path, target.trim_ascii_end().to_vec())
        })
        .collect();
    (files, links)
}

/// The links added, removed or retargeted, as git reports them (a link never pairs with a
/// regular file: one replacing the other is a deletion and an addition).
fn link_pairs(base: &Tree, head: &Tree) -> Vec<FilePair> {
    let paths: std::collections::BTreeSet<&String> = base.keys().chain(head.keys()).collect();
    paths
        .into_iter()
        .filter_map(|path| {
            let side = |tree: &Tree| tree.get(path).map(|target| Content::symlink(target));
            let (status, old_path, new_path) = match (base.get(path), head.get(path)) {
                (Some(old), Some(new)) if old == new => return None,
                (Some(_), Some(_)) => (Status::Modified, Some(path), Some(path)),
                (Some(_), None) => (Status::Deleted, Some(path), None),
                (None, _) => (Status::Added, None, Some(path)),
            };
            Some(FilePair::new(
                status,
                old_path.cloned(),
                new_path.cloned(),
                side(base).unwrap_or(Content::Absent),
                side(head).unwrap_or(Content::Absent),
            ))
        })
        .collect()
}

/// One row per finding: `side | path:line-end | rule | severity | message`, the message as
/// reporters show it (a `likely` finding's ends in `(likely)`).
pub fn expected_rows(report: &Report) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        out.push_str(&format!(
            "{} | {}:{}-{} | {} | {} | {}\n",
            finding.side.as_str(),
            finding.path,
            finding.line,
            finding.end_line,
            finding.rule,
            finding.severity.as_str(),
            finding.shown_message()
        ));
    }
    out
}

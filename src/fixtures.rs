//! Builds change sets from two plain directory trees (`base/`, `head/`), without git, and
//! renders findings as the fixtures' `expected.txt` rows. Used by the fixture tests; also
//! handy for trying a rule on two hand-written trees.

use crate::changeset::{ChangeSet, pair_trees};
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

/// The change from the tree at `base` to the tree at `head`.
pub fn change_set(base: &Path, head: &Path) -> io::Result<ChangeSet> {
    let mut runner_configs: Vec<(String, String)> = crate::rules::collection::runner_config_names()
        .filter_map(|name| {
            let text = std::fs::read_to_string(base.join(name)).ok()?;
            Some((name.to_string(), text))
        })
        .collect();
    let base_files = read_tree(base)?;
    // JavaScript runner configurations at any depth, as the git layer reads them.
    for (path, bytes) in &base_files {
        if crate::rules::collection::is_js_runner_config(path)
            && !path.split('/').any(|part| part == "node_modules")
            && !runner_configs.iter().any(|(known, _)| known == path)
        {
            let text = String::from_utf8_lossy(bytes).into_owned();
            runner_configs.push((path.clone(), text));
        }
    }
    let base_js_files = base_files
        .keys()
        .filter(|path| crate::rules::collection::is_js_source(path))
        .cloned()
        .collect();
    Ok(ChangeSet {
        base: "base".to_string(),
        head: "head".to_string(),
        files: pair_trees(base_files, read_tree(head)?),
        notes: Vec::new(),
        runner_configs,
        base_js_files,
    })
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

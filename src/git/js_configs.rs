//! Base's JavaScript runner configurations below the root, so each JS/TS file is judged by the
//! nearest one (`rules::collection::js`). When the change edits a runner configuration, every
//! configuration and every JS/TS file of base is listed (the edit is judged over all the test
//! files it would drop); otherwise only the configurations in the directories that hold a
//! changed JS/TS file, which are the only ones that can judge it.

use super::{Git, GitError};
use crate::changeset::{ChangeSet, FilePair, MAX_BASE_JS_FILES, MAX_FILE_BYTES};
use crate::rules::collection::{is_js_runner_config, is_js_source, js};
use git2::{ErrorCode, Oid};
use std::collections::BTreeSet;
use std::path::Path;

impl Git {
    /// Adds base's JavaScript runner configurations to `change.runner_configs` (those at the
    /// root were read already), and base's JS/TS files when the change edits one.
    pub(super) fn read_js_runner_configs(
        &self,
        commit: Oid,
        change: &mut ChangeSet,
    ) -> Result<(), GitError> {
        let paths = if change.files.iter().any(edits_js_runner) {
            let (files, configs) = self.walk_js(commit)?;
            change.base_js_files = files;
            configs
        } else {
            // A checker's exclusions are judged by whether they name a file that exists.
            if change.files.iter().any(edits_js_checker_excludes) {
                change.base_js_files = self.walk_js(commit)?.0;
            }
            let sources: Vec<&String> = change
                .files
                .iter()
                .flat_map(|pair| [&pair.old_path, &pair.new_path])
                .flatten()
                .filter(|path| is_js_source(path))
                .collect();
            if sources.is_empty() {
                return Ok(());
            }
            let dirs: BTreeSet<&str> = sources
                .iter()
                .flat_map(|path| path.match_indices('/').map(|(index, _)| &path[..index]))
                .chain([""])
                .collect();
            self.configs_in(commit, &dirs)?
        };
        for path in paths.into_iter().take(js::MAX_CONFIGS) {
            if change
                .runner_configs
                .iter()
                .any(|(known, _)| *known == path)
            {
                continue;
            }
            let text = match self.read_file_at(commit, &path, MAX_FILE_BYTES as u64) {
                Ok(bytes) => bytes.and_then(|bytes| String::from_utf8(bytes).ok()),
                // Unread, it stands for a configuration with nothing known: the defaults.
                Err(GitError::TooLarge { .. }) => Some(String::new()),
                Err(error) => return Err(error),
            };
            if let Some(text) = text {
                change.runner_configs.push((path, text));
            }
        }
        Ok(())
    }

    /// Fills each changed tsconfig's [`FilePair::extends`] (see
    /// [`crate::rules::fill_tsconfig_extends`]) from base at `commit`.
    pub(super) fn read_extended_tsconfigs(&self, commit: Oid, change: &mut ChangeSet) {
        crate::rules::fill_tsconfig_extends(&mut change.files, |path| {
            let bytes = self
                .read_file_at(commit, path, MAX_FILE_BYTES as u64)
                .ok()??;
            String::from_utf8(bytes).ok()
        });
    }

    /// Base's JS/TS files (at most [`MAX_BASE_JS_FILES`]) and runner configurations below the
    /// root, `node_modules` left out.
    fn walk_js(&self, commit: Oid) -> Result<(Vec<String>, Vec<String>), GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let mut files = Vec::new();
        let mut configs = Vec::new();
        tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            if files.len() >= MAX_BASE_JS_FILES && configs.len() >= js::MAX_CONFIGS {
                return git2::TreeWalkResult::Abort;
            }
            let Ok(name) = entry.name() else {
                return git2::TreeWalkResult::Ok;
            };
            match entry.kind() {
                Some(git2::ObjectType::Tree) if name == "node_modules" => {
                    git2::TreeWalkResult::Skip
                }
                Some(git2::ObjectType::Blob) => {
                    let path = format!("{dir}{name}");
                    if is_js_source(&path) && files.len() < MAX_BASE_JS_FILES {
                        files.push(path.clone());
                    }
                    if js::config_kind(name).is_some() && configs.len() < js::MAX_CONFIGS {
                        configs.push(path);
                    }
                    git2::TreeWalkResult::Ok
                }
                _ => git2::TreeWalkResult::Ok,
            }
        })
        .or_else(|error| match error.code() {
            // The caps were reached: the lists are what fits.
            ErrorCode::User => Ok(()),
            _ => Err(error),
        })?;
        Ok((files, configs))
    }

    /// The runner configurations directly in `dirs` (repository directories, "" the root).
    fn configs_in(&self, commit: Oid, dirs: &BTreeSet<&str>) -> Result<Vec<String>, GitError> {
        let root = self.repo.find_commit(commit)?.tree()?;
        let mut configs = Vec::new();
        for dir in dirs {
            let tree = if dir.is_empty() {
                root.clone()
            } else {
                match root.get_path(Path::new(dir)) {
                    Ok(entry) => match entry.to_object(&self.repo)?.into_tree() {
                        Ok(tree) => tree,
                        Err(_) => continue,
                    },
                    Err(error) if error.code() == ErrorCode::NotFound => continue,
                    Err(error) => return Err(error.into()),
                }
            };
            for entry in tree.iter() {
                let Ok(name) = entry.name() else {
                    continue;
                };
                if entry.kind() == Some(git2::ObjectType::Blob) && js::config_kind(name).is_some() {
                    configs.push(if dir.is_empty() {
                        name.to_string()
                    } else {
                        format!("{dir}/{name}")
                    });
                }
            }
            if configs.len() >= js::MAX_CONFIGS {
                break;
            }
        }
        Ok(configs)
    }
}

/// Whether the change edits a TypeScript project's or ESLint's list of excluded files.
fn edits_js_checker_excludes(pair: &FilePair) -> bool {
    [&pair.old_path, &pair.new_path]
        .into_iter()
        .flatten()
        .any(|path| {
            let name = js::file_name(path);
            (name.starts_with("tsconfig") && name.ends_with(".json")) || name == ".eslintignore"
        })
}

/// Whether the change edits a JavaScript runner configuration; a `package.json` counts only
/// when it names a runner setting on either side (most edits there are dependencies).
fn edits_js_runner(pair: &FilePair) -> bool {
    let names_runner = [pair.base.text(), pair.head.text()]
        .into_iter()
        .flatten()
        .any(|text| {
            ["\"jest\"", "\"mocha\"", "\"ava\"", "--config", "--project"]
                .iter()
                .any(|needle| text.contains(needle))
        });
    [&pair.old_path, &pair.new_path]
        .into_iter()
        .flatten()
        .any(|path| {
            is_js_runner_config(path) && (js::file_name(path) != "package.json" || names_runner)
        })
}

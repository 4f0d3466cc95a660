//! pytest's collection of one Python file: the configuration pytest would use for it, which is
//! the nearest `pytest.ini`, `pyproject.toml` with `[tool.pytest.ini_options]`, `tox.ini` with
//! `[pytest]` or `setup.cfg` with `[tool:pytest]` in the file's directory or above (in that
//! order within one directory; a `pytest.ini` counts even without settings), `testpaths`
//! relative to that configuration's directory. A monorepo's packages each run pytest under
//! their own configuration.
//!
//! Configurations are read from base, so a change cannot narrow what counts as a test. A
//! configuration the change adds where base had none (a sub-project the change creates) can
//! only widen head's collection, and only within pytest's defaults: a file in head is
//! collected when base's configuration collects it, or when the new configuration and
//! pytest's defaults both do.

use crate::changeset::join_relative;
use globset::{Glob, GlobMatcher};
use std::collections::BTreeMap;

/// The pytest configuration files, in the order pytest looks for them in one directory.
pub const PYTEST_CONFIGS: &[&str] = &["pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"];

/// At most this many directories are searched for nested configurations (the shallowest
/// first: sub-project roots sit near the top).
pub const MAX_CONFIG_DIRECTORIES: usize = 10_000;

/// The settings of one pytest configuration.
#[derive(Debug)]
pub struct PytestConfig {
    /// The configuration file's path (`None`: no configuration, pytest's defaults).
    file: Option<String>,
    /// Its directory, `""` at the root; `testpaths` are relative to it.
    dir: String,
    python_files: Vec<GlobMatcher>,
    python_file_patterns: Vec<String>,
    python_functions: Vec<String>,
    python_classes: Vec<String>,
    /// `testpaths` as written, and as repository paths.
    testpaths: Vec<(String, String)>,
    /// A configuration only head has: it may narrow pytest's defaults, never widen them.
    within_defaults: bool,
}

impl Default for PytestConfig {
    /// pytest's defaults, as for a repository without configuration.
    fn default() -> PytestConfig {
        PytestConfig {
            file: None,
            dir: String::new(),
            python_files: Vec::new(),
            python_file_patterns: Vec::new(),
            python_functions: Vec::new(),
            python_classes: Vec::new(),
            testpaths: Vec::new(),
            within_defaults: false,
        }
    }
}

impl PytestConfig {
    /// Reads the configuration file at `path`, `None` when it holds no pytest settings.
    pub fn read(path: &str, text: &str) -> Option<PytestConfig> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let settings = match crate::rules::disabled_check::pytest_settings(name, text) {
            Some(settings) => settings,
            // pytest takes a `pytest.ini` even when it is empty.
            None if name == "pytest.ini" => Default::default(),
            None => return None,
        };
        let testpaths = settings
            .testpaths
            .into_iter()
            .filter_map(|written| {
                let joined = join_relative(dir, &written)?;
                let written = written.trim_start_matches("./").trim_matches('/');
                Some((written.to_string(), joined))
            })
            .collect();
        Some(PytestConfig {
            file: Some(path.to_string()),
            dir: dir.to_string(),
            python_files: settings
                .python_files
                .iter()
                .filter_map(|pattern| Glob::new(pattern).ok())
                .map(|glob| glob.compile_matcher())
                .collect(),
            python_file_patterns: settings.python_files,
            python_functions: settings.python_functions,
            python_classes: settings.python_classes,
            testpaths,
            within_defaults: false,
        })
    }

    /// The directory the configuration applies to, `""` at the root.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    /// Whether pytest collects tests from the file at `path`.
    pub fn collects_file(&self, path: &str) -> bool {
        let in_testpaths = self.testpaths.is_empty()
            || self.testpaths.iter().any(|(_, dir)| {
                dir.is_empty() || path == dir || path.starts_with(&format!("{dir}/"))
            });
        let file = path.rsplit('/').next().unwrap_or(path);
        let by_default = || {
            let stem = file.strip_suffix(".py").unwrap_or(file);
            stem.starts_with("test") || stem.ends_with("_test")
        };
        let matches = if self.python_files.is_empty() {
            by_default()
        } else {
            self.python_files.iter().any(|glob| glob.is_match(file))
                && (!self.within_defaults || by_default())
        };
        in_testpaths && matches
    }

    /// Whether a function named `name` is collected as a test.
    pub fn collects_function(&self, name: &str) -> bool {
        matches_any(&self.python_functions, "test", name)
            && (!self.within_defaults || name.starts_with("test"))
    }

    /// Whether a class named `name` is collected as a test class.
    pub fn collects_class(&self, name: &str) -> bool {
        matches_any(&self.python_classes, "Test", name)
            && (!self.within_defaults || name.starts_with("Test"))
    }

    /// The file patterns, as people write them (for messages).
    pub fn file_patterns(&self) -> String {
        let mut text = if self.python_file_patterns.is_empty() {
            "pytest's default `test_*.py`, `*_test.py`".to_string()
        } else {
            format!(
                "pytest `python_files`: {}",
                quoted(self.python_file_patterns.iter())
            )
        };
        if !self.testpaths.is_empty() {
            let written = self.testpaths.iter().map(|(written, _)| written);
            text.push_str(&format!("; `testpaths`: {}", quoted(written)));
        }
        self.in_file(text)
    }

    /// The class name patterns, as people write them: `Test*` by default.
    pub fn class_patterns(&self) -> String {
        if self.python_classes.is_empty() {
            return "`Test*`".to_string();
        }
        self.in_file(quoted(self.python_classes.iter()))
    }

    /// `text`, naming the configuration when it is not the root's.
    fn in_file(&self, text: String) -> String {
        match &self.file {
            Some(file) if self.within_defaults => {
                format!("`{file}` new in this change, read within pytest's defaults: {text}")
            }
            Some(file) if !self.dir.is_empty() => format!("`{file}`: {text}"),
            _ => text,
        }
    }
}

/// How pytest collects one Python file: each path at which pytest reaches it (its own, and
/// through head's links) with the configuration that judges it there. The file holds a test
/// when one of them collects the file, the function and its classes.
#[derive(Debug)]
pub struct PytestFile<'a> {
    views: Vec<(String, &'a PytestConfig)>,
}

impl<'a> PytestFile<'a> {
    /// The file judged by each of `views` (path, configuration).
    pub fn new(views: Vec<(String, &'a PytestConfig)>) -> PytestFile<'a> {
        PytestFile { views }
    }

    /// Whether some configuration collects tests from the file.
    pub fn collects_file(&self) -> bool {
        self.views
            .iter()
            .any(|(path, config)| config.collects_file(path))
    }

    /// Whether some configuration collects a function named `name` (in whatever file).
    pub fn collects_function(&self, name: &str) -> bool {
        self.views
            .iter()
            .any(|(_, config)| config.collects_function(name))
    }

    /// The configurations that collect both the file and a function named `name`: its
    /// enclosing classes are judged by them alone.
    pub fn for_function(&self, name: &str) -> PytestFile<'a> {
        let views = self
            .views
            .iter()
            .filter(|(path, config)| config.collects_file(path) && config.collects_function(name))
            .cloned()
            .collect();
        PytestFile { views }
    }

    /// Whether some configuration collects a class named `name`.
    pub fn collects_class(&self, name: &str) -> bool {
        self.views
            .iter()
            .any(|(_, config)| config.collects_class(name))
    }

    /// The file patterns of each configuration, `|` between them (for messages).
    pub fn file_patterns(&self) -> String {
        self.describe(PytestConfig::file_patterns)
    }

    /// The class name patterns of each configuration (for messages).
    pub fn class_patterns(&self) -> String {
        self.describe(PytestConfig::class_patterns)
    }

    fn describe(&self, part: fn(&PytestConfig) -> String) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (_, config) in &self.views {
            let text = part(config);
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        parts.join(" | ")
    }
}

/// The pytest configuration of each directory that has one, on one side.
#[derive(Debug, Default)]
pub struct PytestConfigs {
    by_dir: BTreeMap<String, PytestConfig>,
}

impl PytestConfigs {
    /// Reads the configurations among `files` (path and text; other files are left alone),
    /// keeping pytest's choice in each directory.
    pub fn read(files: &[(String, String)]) -> PytestConfigs {
        let mut configs = PytestConfigs::default();
        for name in PYTEST_CONFIGS {
            for (path, text) in files.iter().filter(|(path, _)| file_name(path) == *name) {
                let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
                if configs.by_dir.contains_key(dir) {
                    continue;
                }
                if let Some(config) = PytestConfig::read(path, text) {
                    configs.by_dir.insert(dir.to_string(), config);
                }
            }
        }
        configs
    }

    /// The configurations among `files` (head's text of the pytest configuration files the
    /// change touched) in directories where `base` has none: each read within pytest's
    /// defaults.
    pub fn new_in_head(files: &[(String, String)], base: &PytestConfigs) -> PytestConfigs {
        let mut configs = PytestConfigs::read(files);
        configs
            .by_dir
            .retain(|dir, _| !base.by_dir.contains_key(dir));
        for config in configs.by_dir.values_mut() {
            config.within_defaults = true;
        }
        configs
    }

    /// The configuration nearest to `path`: in its directory or the closest one above.
    pub fn nearest(&self, path: &str) -> Option<&PytestConfig> {
        let mut dir = path;
        loop {
            dir = dir.rsplit_once('/').map_or("", |(dir, _)| dir);
            if let Some(config) = self.by_dir.get(dir) {
                return Some(config);
            }
            if dir.is_empty() {
                return None;
            }
        }
    }
}

/// The paths at which a nested pytest configuration could decide how the files at `paths`
/// are collected: each configuration name in each directory above them, the root left out
/// (its configurations are read with the other runners'), shallowest directories first.
pub fn nested_config_paths<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut dirs: std::collections::BTreeSet<(usize, &str)> = Default::default();
    for path in paths {
        let mut dir = path;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            dirs.insert((parent.matches('/').count(), parent));
            dir = parent;
        }
    }
    dirs.into_iter()
        .take(MAX_CONFIG_DIRECTORIES)
        .flat_map(|(_, dir)| {
            PYTEST_CONFIGS
                .iter()
                .map(move |name| format!("{dir}/{name}"))
        })
        .collect()
}

/// Whether `path` names a pytest configuration file (in any directory).
pub fn is_pytest_config(path: &str) -> bool {
    PYTEST_CONFIGS.contains(&file_name(path))
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn quoted<'a>(items: impl Iterator<Item = &'a String>) -> String {
    items
        .map(|item| format!("`{item}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// pytest reads each entry as a prefix, or as a glob when it has glob characters.
fn matches_any(patterns: &[String], default: &str, name: &str) -> bool {
    if patterns.is_empty() {
        return name.starts_with(default);
    }
    patterns.iter().any(|pattern| {
        if pattern.contains(['*', '?', '[']) {
            Glob::new(pattern).is_ok_and(|glob| glob.compile_matcher().is_match(name))
        } else {
            name.starts_with(pattern.as_str())
        }
    })
}

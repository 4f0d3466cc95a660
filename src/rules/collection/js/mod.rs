//! Which JavaScript/TypeScript files the project's test runners collect, from the base
//! revision's runner configurations at any depth: jest ([`jest`]), vitest ([`vitest`]), ava,
//! playwright, mocha and jest/vitest run with `--config` from a script ([`others`]).
//!
//! A file is judged, for each runner, by the NEAREST configuration of that runner in its
//! directory or an ancestor (`packages/a/vitest.config.ts` over the root's), with globs
//! relative to that configuration's directory. A configuration that lists projects (jest
//! `projects`, vitest `test.projects`/`test.workspace`, a `vitest.workspace.*` file) also
//! reaches below nearer ones: a file is collected when ANY project collects it. Projects named
//! by a directory use that directory's own configuration, or the defaults when it has none.
//! A configuration under another name (`vitest.e2e.config.ts`, `jest-e2e.json`, run with
//! `--config` or named as a project) adds what it collects below its directory without hiding
//! the usual one.
//!
//! jest, vitest and ava decide: when one of them sees a file, the file is a test file only if
//! one of them (or an additive runner) collects it. playwright and mocha only add what they
//! collect (their `testDir`/`testMatch` and `spec` globs): the default patterns still stand
//! for runners nobody configured (`node --test`, jest without a configuration file) unless
//! jest, vitest or ava see the file.
//!
//! Only literal values count ([`literal`]): a computed value is unknown and the runner keeps
//! its defaults there, so unknown settings fail toward "collected". Exclusion lists are the
//! exception: their literal entries count even next to a spread. Configurations are read from
//! base, like the policy, so a change cannot redefine what counts as a test for its own
//! judgement.

mod jest;
pub mod literal;
mod others;
pub mod runner;
mod vitest;

use super::glob::Glob;
use literal::Literal;
pub use runner::{DEFAULT_PATTERNS, JsRunner, default_test_file};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
pub use vitest::projects_of as vitest_projects;

/// Configuration files of other JavaScript test runners read at the root (playwright, mocha);
/// below the root, [`config_kind`] recognises them.
pub const OTHER_RUNNERS: &[(&str, &str)] = &[
    ("playwright.config.ts", "playwright"),
    ("playwright.config.js", "playwright"),
    ("playwright.config.mts", "playwright"),
    ("playwright.config.mjs", "playwright"),
    ("playwright.config.cts", "playwright"),
    ("playwright.config.cjs", "playwright"),
    (".mocharc.js", "mocha"),
    (".mocharc.cjs", "mocha"),
    (".mocharc.json", "mocha"),
    (".mocharc.jsonc", "mocha"),
    (".mocharc.yml", "mocha"),
    (".mocharc.yaml", "mocha"),
];

/// Configurations read per change (the rest are left out; their directories keep the
/// configurations above them).
pub const MAX_CONFIGS: usize = 400;

/// What a runner configuration file is, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A jest configuration.
    Jest {
        /// A name jest finds by itself (`jest.config.*`); others are run with `--config`.
        standard: bool,
    },
    /// A vitest (or vite) configuration.
    Vitest {
        /// A name vitest finds by itself (`vitest.config.*`, `vite.config.*`).
        standard: bool,
    },
    /// A `vitest.workspace.*` file: a list of projects.
    Workspace,
    /// A playwright configuration.
    Playwright,
    /// A `.mocharc.*` file.
    Mocha,
    /// A `package.json` (jest, mocha and ava keys, scripts).
    Package,
}

const MODULE_EXTENSIONS: &[&str] = &["js", "ts", "mjs", "cjs", "mts", "cts"];

/// The kind of runner configuration a file name is, if any.
pub fn config_kind(name: &str) -> Option<Kind> {
    use crate::rules::disabled_check::{JEST_CONFIGS, VITEST_CONFIGS};
    if name == "package.json" {
        return Some(Kind::Package);
    }
    if JEST_CONFIGS.contains(&name) {
        return Some(Kind::Jest { standard: true });
    }
    if VITEST_CONFIGS.contains(&name) {
        return Some(Kind::Vitest { standard: true });
    }
    if OTHER_RUNNERS
        .iter()
        .any(|(other, tool)| *other == name && *tool == "mocha")
    {
        return Some(Kind::Mocha);
    }
    let (stem, extension) = name.rsplit_once('.')?;
    let module = MODULE_EXTENSIONS.contains(&extension);
    let word = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let parts: Vec<&str> = stem.split('.').collect();
    match parts.as_slice() {
        ["vitest", "workspace"] if module || extension == "json" => Some(Kind::Workspace),
        // vitest's own `^vite(st)?(\.[\w-]+)?\.config\.`.
        [tool, middle @ .., "config"]
            if module && matches!(*tool, "vite" | "vitest") && middle.len() <= 1 =>
        {
            middle
                .iter()
                .all(|part| word(part))
                .then_some(Kind::Vitest { standard: false })
        }
        [tool, ..] if module && tool.starts_with("playwright") && parts.contains(&"config") => {
            parts
                .iter()
                .all(|part| word(part))
                .then_some(Kind::Playwright)
        }
        // `jest.e2e.config.js`, `jest.config.unit.ts`, `jest-e2e.json` (run with `--config`).
        [tool, ..]
            if (tool == &"jest" || tool.starts_with("jest-"))
                && parts.iter().all(|part| word(part))
                && ((module && parts.contains(&"config")) || extension == "json") =>
        {
            Some(Kind::Jest { standard: false })
        }
        _ => None,
    }
}

/// Whether `path` (at any depth) is a runner configuration whose edit can change collection.
pub fn is_runner_config(path: &str) -> bool {
    config_kind(file_name(path)).is_some()
}

/// The runners, in the order a file is judged by them; the first three decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// jest: decides.
    Jest,
    /// vitest: decides.
    Vitest,
    /// ava: decides.
    Ava,
    /// playwright: adds.
    Playwright,
    /// mocha: adds.
    Mocha,
    /// jest or vitest run with `--config` from a `package.json` script: adds the defaults.
    Script,
}

const TOOLS: [Tool; 6] = [
    Tool::Jest,
    Tool::Vitest,
    Tool::Ava,
    Tool::Playwright,
    Tool::Mocha,
    Tool::Script,
];

impl Tool {
    /// Whether this runner decides what is a test where it looks (the others only add).
    fn decides(self) -> bool {
        matches!(self, Tool::Jest | Tool::Vitest | Tool::Ava)
    }
}

/// What one configuration file (or one role of a `package.json`) says.
#[derive(Debug, Clone)]
pub struct Config {
    /// The runner.
    pub tool: Tool,
    /// The file.
    pub path: String,
    /// Its directory ("" at the root).
    pub dir: String,
    /// A name the runner finds by itself in its directory (what a project directory uses).
    pub standard: bool,
    /// The configuration only gathers projects: its projects reach files even below a
    /// nearer configuration.
    pub container: bool,
    /// Its own runners: itself, or its inline projects.
    pub runners: Vec<JsRunner>,
    /// Projects named by path or glob (repository-relative): directories, or configuration
    /// files.
    pub projects: Vec<Glob>,
    /// What `!` entries take out of the matches of `projects`.
    pub projects_ignored: Vec<Glob>,
}

impl Config {
    /// A configuration with no runners yet.
    pub fn new(tool: Tool, path: &str, dir: &str) -> Config {
        Config {
            tool,
            path: path.to_string(),
            dir: dir.to_string(),
            standard: true,
            container: false,
            runners: Vec::new(),
            projects: Vec::new(),
            projects_ignored: Vec::new(),
        }
    }
}

/// The label of a configuration's runner in messages: the runner's name, with the file's path
/// unless it is the runner's usual file at the root.
pub fn label(tool: &str, path: &str, standard: bool) -> String {
    if standard && !path.contains('/') {
        tool.to_string()
    } else {
        format!("{tool} (`{path}`)")
    }
}

/// The configuration files of one directory.
pub struct InDir<'a> {
    dir: &'a str,
    texts: &'a HashMap<&'a str, &'a str>,
}

impl<'a> InDir<'a> {
    /// The path and text of the file `name` in this directory, if it was read.
    pub fn get(&self, name: &str) -> Option<(String, &'a str)> {
        let path = join(self.dir, name);
        let text = self.texts.get(path.as_str())?;
        Some((path, text))
    }

    /// The value of the configuration at `path`, with the other configurations it imports.
    pub fn value(&self, path: &str, text: &str) -> Literal {
        read_value_in(path, text, self.texts)
    }
}

/// Every JavaScript runner configuration of one revision, by directory.
#[derive(Debug, Default)]
pub struct JsCollection {
    configs: Vec<Config>,
    by_dir: HashMap<String, Vec<usize>>,
}

impl JsCollection {
    /// Reads the runner configurations among `configs` (repository path and text); other
    /// files are ignored.
    pub fn from_configs(configs: &[(String, String)]) -> JsCollection {
        let texts = runner_texts(configs);
        let mut dirs: BTreeSet<&str> = texts.keys().map(|path| parent(path)).collect();
        dirs.insert("");
        let mut collection = JsCollection::default();
        for dir in dirs {
            for config in read_dir(dir, &texts) {
                collection.push(config);
            }
        }
        collection
    }

    /// This collection with the configuration `path` reading `text` (`None`: deleted), read
    /// from `configs` again for that directory only (a configuration elsewhere that `extends`
    /// it keeps base's reading); and the directory whose files the edit can change (`""`: any,
    /// when a configuration there reaches outside its directory).
    pub fn replacing(
        &self,
        configs: &[(String, String)],
        path: &str,
        text: Option<&str>,
    ) -> (JsCollection, String) {
        let dir = parent(path);
        let mut texts = runner_texts(configs);
        texts.remove(path);
        if let Some(text) = text {
            texts.insert(path, text);
        }
        let mut after = JsCollection::default();
        for config in self.configs.iter().filter(|config| config.dir != dir) {
            after.push(config.clone());
        }
        for config in read_dir(dir, &texts) {
            after.push(config);
        }
        let inside = |inner: &str| inner == dir || dir.is_empty() || runner::under(inner, dir);
        let escapes = [self, &after].iter().any(|collection| {
            collection
                .by_dir
                .get(dir)
                .into_iter()
                .flatten()
                .any(|&index| {
                    let config = &collection.configs[index];
                    config.runners.iter().any(|runner| !inside(&runner.scope))
                        || config.projects.iter().any(|glob| !inside(glob.as_str()))
                })
        });
        let reach = if escapes {
            String::new()
        } else {
            dir.to_string()
        };
        (after, reach)
    }

    fn push(&mut self, config: Config) {
        self.by_dir
            .entry(config.dir.clone())
            .or_default()
            .push(self.configs.len());
        self.configs.push(config);
    }

    /// Whether any runner configuration was found.
    pub fn is_empty(&self) -> bool {
        self.configs.is_empty()
    }

    /// Whether a runner collects tests from the file at `path`.
    pub fn collects(&self, path: &str) -> bool {
        self.judge(path).is_none()
    }

    /// Why no runner collects `path`, naming the patterns; `None` when one does.
    pub fn reason(&self, path: &str) -> Option<String> {
        self.judge(path)
    }

    fn judge(&self, path: &str) -> Option<String> {
        let ancestors = ancestors(path);
        let mut reasons: Vec<String> = Vec::new();
        let mut decided = false;
        for tool in TOOLS {
            // The nearest configuration the runner finds by itself judges; one run with
            // `--config` and one listing projects reach below it, and add.
            let mut nearest = true;
            for dir in &ancestors {
                let mut found = false;
                for config in self.at(dir, tool) {
                    if self.left_out_by_outer_projects(config) {
                        continue;
                    }
                    found |= config.standard;
                    if config.standard && !config.container && !nearest {
                        continue;
                    }
                    for runner in self.runners(config, &ancestors) {
                        if !runner.sees(path) {
                            continue;
                        }
                        decided |= tool.decides() && (config.standard || config.container);
                        match runner.reason(path) {
                            None => return None,
                            Some(reason) if !reasons.contains(&reason) => reasons.push(reason),
                            Some(_) => {}
                        }
                    }
                }
                nearest &= !found;
            }
        }
        if !decided {
            if default_test_file(path) {
                return None;
            }
            reasons.insert(0, format!("default patterns: {DEFAULT_PATTERNS}"));
        }
        Some(reasons.join("; "))
    }

    /// A configuration below one that lists its runner's projects explicitly, and not among
    /// them: that run never uses it (jest's `e2e/<case>/package.json`, a fixture project its
    /// own e2e tests start by hand, beside `projects: ['<rootDir>', '<rootDir>/examples/*/']`).
    /// Its files are judged by the configurations above it instead.
    fn left_out_by_outer_projects(&self, config: &Config) -> bool {
        if config.dir.is_empty() || !config.standard {
            return false;
        }
        let outer = ancestors(&config.dir)
            .into_iter()
            .filter(|dir| *dir != config.dir)
            .flat_map(|dir| self.at(dir, config.tool))
            .filter(|outer| !outer.projects.is_empty())
            .collect::<Vec<_>>();
        !outer.is_empty()
            && outer.iter().all(|outer| {
                let named = |path: &str| {
                    outer.projects.iter().any(|glob| glob.is_match(path))
                        && !outer
                            .projects_ignored
                            .iter()
                            .any(|glob| glob.is_match(path))
                };
                !named(&config.dir) && !named(&config.path)
            })
    }

    fn at<'s>(&'s self, dir: &str, tool: Tool) -> impl Iterator<Item = &'s Config> + 's {
        self.by_dir
            .get(dir)
            .into_iter()
            .flatten()
            .map(|&index| &self.configs[index])
            .filter(move |config| config.tool == tool)
    }

    /// A configuration's runners that may see `path`: its own, and those of the projects it
    /// names by path (a directory's own configuration, or the defaults there).
    fn runners<'s>(&'s self, config: &'s Config, ancestors: &[&str]) -> Vec<Cow<'s, JsRunner>> {
        let mut runners: Vec<Cow<'s, JsRunner>> =
            config.runners.iter().map(Cow::Borrowed).collect();
        if config.projects.is_empty() {
            return runners;
        }
        for dir in ancestors.iter().filter(|dir| {
            config.dir.is_empty() || runner::under(dir, &config.dir) || **dir == config.dir
        }) {
            let named = |path: &str| {
                config.projects.iter().any(|glob| glob.is_match(path))
                    && !config
                        .projects_ignored
                        .iter()
                        .any(|glob| glob.is_match(path))
            };
            let named_dir = **dir != config.dir && named(dir);
            let mut found = false;
            for other in self.at(dir, config.tool) {
                if other.path == config.path {
                    continue;
                }
                let named_file = named(&other.path);
                if named_file || named_dir && other.standard {
                    found |= named_dir && other.standard;
                    runners.extend(other.runners.iter().map(Cow::Borrowed));
                }
            }
            if named_dir && !found {
                let label = format!("{} project `{dir}`", tool_name(config.tool));
                runners.push(Cow::Owned(JsRunner::defaults(label, dir)));
            }
        }
        runners
    }
}

/// The runner configurations among `configs`, by path (at most [`MAX_CONFIGS`]).
fn runner_texts(configs: &[(String, String)]) -> HashMap<&str, &str> {
    configs
        .iter()
        .filter(|(path, _)| is_runner_config(path))
        .take(MAX_CONFIGS)
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect()
}

/// The configurations of directory `dir`, from `texts`.
fn read_dir(dir: &str, texts: &HashMap<&str, &str>) -> Vec<Config> {
    let lookup = |path: &str| texts.get(path).map(|text| read_value_in(path, text, texts));
    let in_dir = InDir { dir, texts };
    let mut names: Vec<&str> = texts
        .keys()
        .filter(|path| parent(path) == dir)
        .map(|path| file_name(path))
        .collect();
    names.sort_unstable();
    let package = in_dir
        .get("package.json")
        .and_then(|(path, text)| Some((path, crate::rules::disabled_check::jsonc(text)?)));
    let mut out = jest::configs(dir, &names, &in_dir, package.as_ref());
    out.extend(vitest::configs(dir, &names, &in_dir, &lookup));
    out.extend(others::configs(dir, &names, &in_dir, package.as_ref()));
    out
}

fn tool_name(tool: Tool) -> &'static str {
    match tool {
        Tool::Jest => "jest",
        Tool::Vitest => "vitest",
        Tool::Ava => "ava",
        Tool::Playwright => "playwright",
        Tool::Mocha => "mocha",
        Tool::Script => "script",
    }
}

/// How many configuration modules deep an import is followed (`jest.config.ci.mjs` spreading
/// `jest.config.mjs`, which spreads a shared preset).
const IMPORT_DEPTH: usize = 3;

/// Reads a configuration file's value by its extension; a JavaScript/TypeScript module's
/// relative default imports of other runner configurations among `texts` are read too
/// (`import base from './jest.config.mjs'; export default {...base, reporters: [..]}`).
pub fn read_value_in(path: &str, text: &str, texts: &HashMap<&str, &str>) -> Literal {
    read_importing(path, text, texts, 0)
}

fn read_importing(path: &str, text: &str, texts: &HashMap<&str, &str>, depth: usize) -> Literal {
    use crate::lang::Language;
    let language = match path.rsplit_once('.').map_or("", |(_, extension)| extension) {
        "js" | "mjs" | "cjs" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        _ => return read_value(path, text),
    };
    let resolve = |specifier: &str| {
        if depth + 1 >= IMPORT_DEPTH || !specifier.starts_with('.') {
            return None;
        }
        let target = runner::join_dir(parent(path), specifier)?;
        let found = ["", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json"]
            .iter()
            .map(|extension| format!("{target}{extension}"))
            .find(|candidate| candidate != path && texts.contains_key(candidate.as_str()))?;
        let imported = texts.get(found.as_str())?;
        Some(read_importing(&found, imported, texts, depth + 1))
    };
    literal::module_importing(text, language, &resolve)
}

/// Reads a configuration file's value by its extension.
pub fn read_value(path: &str, text: &str) -> Literal {
    use crate::lang::Language;
    let extension = path.rsplit_once('.').map_or("", |(_, extension)| extension);
    let value = match extension {
        "json" | "jsonc" => crate::rules::disabled_check::jsonc(text),
        "yml" | "yaml" => crate::rules::disabled_check::yaml(text),
        "js" | "mjs" | "cjs" => return literal::module(text, Language::JavaScript),
        "ts" | "mts" | "cts" => return literal::module(text, Language::TypeScript),
        _ => None,
    };
    value.map_or(Literal::Unknown, |value| literal::from_json(&value))
}

/// The directories holding `path`, nearest first, the repository root (`""`) last.
fn ancestors(path: &str) -> Vec<&str> {
    let mut dirs: Vec<&str> = path
        .match_indices('/')
        .map(|(index, _)| &path[..index])
        .collect();
    dirs.reverse();
    dirs.push("");
    dirs
}

/// The last part of a path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// A glob over repository paths for a project entry written relative to `dir` (`<rootDir>`
/// stands for `dir` too); `None` when it leaves the repository.
pub fn project_glob(dir: &str, entry: &str) -> Option<Glob> {
    let entry = runner::relative_glob(entry);
    let entry = entry.trim_end_matches('/');
    let (fixed, rest): (Vec<&str>, Vec<&str>) = {
        let parts: Vec<&str> = entry.split('/').collect();
        let magic = parts
            .iter()
            .position(|part| part.contains(['*', '?', '[', '{', '(', '!', '+', '@']))
            .unwrap_or(parts.len());
        (parts[..magic].to_vec(), parts[magic..].to_vec())
    };
    if rest.contains(&"..") {
        return None;
    }
    let fixed = runner::join_dir(dir, &fixed.join("/"))?;
    let pattern = match (fixed.is_empty(), rest.is_empty()) {
        (_, true) => fixed,
        (true, false) => rest.join("/"),
        (false, false) => format!("{fixed}/{}", rest.join("/")),
    };
    Some(Glob::new(&pattern))
}

#[cfg(test)]
mod tests;

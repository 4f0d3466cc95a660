//! tox environments that ran a checker (lint, type check, tests) removed from `tox.ini`: the
//! section deleted while no environment of head runs the same tool (an error), or the
//! environment dropped from `envlist` so a plain `tox` no longer runs it (a warning:
//! `tox -e NAME` still can).

use super::config_text::ini;
use super::workflows::{check_tools, runs_check};
use super::{Output, file_name, locate, push};
use crate::finding::{Severity, Side};
use crate::rules::FileContext;
use std::collections::{BTreeMap, BTreeSet};

/// Expansions of one envlist factor group beyond which it is not expanded.
const MAX_NAMES: usize = 256;

#[derive(Debug, Default)]
struct Tox {
    /// Names `tox` runs by default.
    envlist: BTreeSet<String>,
    /// Environment → its commands (sections `[testenv:NAME]`, factor groups expanded).
    sections: BTreeMap<String, String>,
    /// `[testenv]` commands, inherited by environments without their own.
    default: Option<String>,
}

impl Tox {
    fn commands(&self, env: &str) -> Option<&str> {
        self.sections
            .get(env)
            .map(String::as_str)
            .filter(|commands| !commands.is_empty())
            .or(self.default.as_deref())
    }

    /// The checks every environment of this file runs.
    fn tools(&self) -> BTreeSet<String> {
        let mut commands: Vec<&str> = self.sections.values().map(String::as_str).collect();
        commands.extend(self.default.as_deref());
        commands.iter().flat_map(|text| check_tools(text)).collect()
    }
}

fn read(text: &str) -> Tox {
    let mut tox = Tox::default();
    for entry in ini(text) {
        let section = entry.section.as_str();
        if section == "tox" && matches!(entry.key.as_str(), "envlist" | "env_list") {
            for name in split_envlist(&entry.value) {
                tox.envlist.extend(expand(&name));
            }
        } else if section == "testenv" && entry.key == "commands" {
            tox.default = Some(entry.value.clone());
        } else if let Some(name) = section.strip_prefix("testenv:") {
            for env in expand(name.trim()) {
                let commands = tox.sections.entry(env).or_default();
                if entry.key == "commands" {
                    commands.clone_from(&entry.value);
                }
            }
        }
    }
    tox
}

/// `py3{10,11}, lint` → `py3{10,11}`, `lint`: commas and lines outside braces.
fn split_envlist(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => {
                depth += 1;
                current.push(c);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ',' | '\n' if depth == 0 => {
                names.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    names.push(current);
    names
        .into_iter()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .collect()
}

/// `py3{10,11}-lint` → `py310-lint`, `py311-lint` (bounded).
fn expand(name: &str) -> Vec<String> {
    let mut names = vec![String::new()];
    let mut rest = name;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|at| open + at) else {
            break;
        };
        let prefix = &rest[..open];
        let choices: Vec<&str> = rest[open + 1..close].split(',').map(str::trim).collect();
        let mut next = Vec::new();
        for name in &names {
            for choice in &choices {
                next.push(format!("{name}{prefix}{choice}"));
            }
        }
        if next.len() > MAX_NAMES {
            return vec![name.to_string()];
        }
        names = next;
        rest = &rest[close + 1..];
    }
    names
        .into_iter()
        .map(|name| format!("{name}{rest}"))
        .collect()
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    if file_name(context.pair.path()) != "tox.ini" {
        return;
    }
    let (Some(base), Some(head)) = (context.side(Side::Base), context.side(Side::Head)) else {
        return;
    };
    let before = read(base.text);
    let after = read(head.text);
    let still_run = after.tools();
    let by_default: BTreeSet<String> = after
        .envlist
        .iter()
        .filter_map(|env| after.commands(env))
        .flat_map(check_tools)
        .collect();
    let mut envs: BTreeSet<&String> = before.sections.keys().collect();
    envs.extend(&before.envlist);
    for env in envs {
        let Some(commands) = before.commands(env) else {
            continue;
        };
        if !runs_check(commands) {
            continue;
        }
        let tools = check_tools(commands);
        let first = commands.lines().find(|line| !line.trim().is_empty());
        let shown = crate::rules::markers::shorten(first.unwrap_or_default().trim(), 60);
        let defined = after.sections.contains_key(env) || after.envlist.contains(env);
        if !defined {
            if !tools.is_subset(&still_run) {
                let line = locate(base.text, None, env, &context.pair.removed);
                out.candidates.push(crate::rules::Candidate::at_line(
                    Side::Base,
                    line,
                    Severity::Error,
                    format!("the change removes tox environment `{env}`, which ran `{shown}`"),
                    format!("tox:removed:{env}"),
                ));
            }
        } else if before.envlist.contains(env)
            && !after.envlist.contains(env)
            && !tools.is_subset(&by_default)
        {
            let line = locate(head.text, None, "envlist", &context.pair.added);
            push(
                out,
                Side::Head,
                line,
                Severity::Warning,
                format!(
                    "tox environment `{env}` (`{shown}`) is dropped from `envlist`: a plain `tox` no longer runs it"
                ),
                format!("tox:envlist:{env}"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envlists_and_sections() {
        assert_eq!(
            split_envlist("py3{10,11}, lint\n  docs"),
            ["py3{10,11}", "lint", "docs"]
        );
        assert_eq!(expand("py3{10,11}-dj{4,5}").len(), 4);
        assert_eq!(expand("lint"), ["lint"]);
        let tox = read(
            "[tox]\nenvlist = py3{10,11}, lint\n[testenv]\ncommands = pytest\n[testenv:lint]\ncommands = ruff check .\n",
        );
        assert!(tox.envlist.contains("py310"));
        assert_eq!(tox.commands("py311"), Some("pytest"));
        assert_eq!(tox.commands("lint"), Some("ruff check ."));
        assert_eq!(tox.tools().len(), 2);
    }
}

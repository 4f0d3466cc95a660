//! Where shell commands live, and the logical command lines a change adds there: shell scripts
//! and git hooks, Makefile and justfile recipes, Dockerfile `RUN`, CI files (GitHub workflow
//! and composite-action `run:` steps, GitLab, CircleCI, Azure, Travis, Bitbucket), and
//! package.json `scripts`. Shared by `unsafe-operation` and `logged-secret`.

use super::shell::{Place, Scope};
use crate::finding::Side;
use crate::rules::FileContext;
use crate::rules::disabled_check::jsonc;
use regex::Regex;
use std::collections::HashSet;
use std::sync::OnceLock;

/// What kind of file a command line came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Script,
    Makefile,
    Dockerfile,
    Workflow,
    PackageScript(String),
}

impl Origin {
    /// How a message names the command's place.
    pub fn label(&self) -> String {
        match self {
            Origin::Script => "script".to_string(),
            Origin::Makefile => "Makefile recipe".to_string(),
            Origin::Dockerfile => "Dockerfile `RUN`".to_string(),
            Origin::Workflow => "CI step".to_string(),
            Origin::PackageScript(name) if is_lifecycle(name) => {
                format!("package.json `{name}` script (runs on every install)")
            }
            Origin::PackageScript(name) => format!("package.json `{name}` script"),
        }
    }
}

/// npm lifecycle scripts that run on `npm install` without being asked for.
fn is_lifecycle(name: &str) -> bool {
    matches!(
        name,
        "preinstall"
            | "install"
            | "postinstall"
            | "prepare"
            | "prepublish"
            | "preprepare"
            | "postprepare"
    )
}

/// One logical command line (continuations joined) of one side.
#[derive(Clone, Debug)]
pub struct ShellLine {
    /// 1-based first and last physical lines.
    pub line: u32,
    pub end_line: u32,
    /// The command, continuations joined, leading YAML/Make/Docker syntax removed.
    pub text: String,
    pub place: Place,
    pub origin: Origin,
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// How a file holds commands, if it does.
fn kind(path: &str, text: &str) -> Option<(Origin, Place)> {
    let name = file_name(path);
    let lower = name.to_ascii_lowercase();
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .unwrap_or_default();
    if name == "package.json" {
        return Some((Origin::PackageScript(String::new()), Place::Developer));
    }
    if lower == "dockerfile"
        || lower.starts_with("dockerfile.")
        || lower.ends_with(".dockerfile")
        || lower == "containerfile"
    {
        return Some((Origin::Dockerfile, Place::Image));
    }
    if matches!(name, "Makefile" | "makefile" | "GNUmakefile") || extension == "mk" {
        return Some((Origin::Makefile, Place::Developer));
    }
    if matches!(name, "justfile" | "Justfile" | ".justfile") {
        return Some((Origin::Makefile, Place::Developer));
    }
    let ci = (path.starts_with(".github/workflows/") && matches!(extension, "yml" | "yaml"))
        || matches!(name, "action.yml" | "action.yaml")
        || matches!(
            name,
            ".gitlab-ci.yml" | "azure-pipelines.yml" | ".travis.yml" | "bitbucket-pipelines.yml"
        )
        || path.starts_with(".circleci/") && matches!(extension, "yml" | "yaml");
    if ci {
        return Some((Origin::Workflow, Place::Runner));
    }
    let hook = [".husky/", ".githooks/", ".git-hooks/", "githooks/"]
        .iter()
        .any(|dir| path.starts_with(dir) || path.contains(&format!("/{dir}")));
    let shebang = text.lines().next().is_some_and(|first| {
        first.starts_with("#!")
            && ["sh", "bash", "zsh", "dash", "ksh", "pwsh"]
                .iter()
                .any(|shell| {
                    first.ends_with(shell)
                        || first.contains(&format!("/{shell} "))
                        || first.contains(&format!(" {shell}"))
                })
    });
    if matches!(extension, "sh" | "bash" | "zsh" | "ksh" | "ps1" | "command")
        || name == ".envrc"
        || (hook && !path.contains("/_/"))
        || shebang
    {
        return Some((Origin::Script, Place::Developer));
    }
    None
}

/// Whether the file at `path` holds shell commands this module reads.
pub fn holds_commands(path: &str, text: &str) -> bool {
    kind(path, text).is_some()
}

/// The logical command lines of one side's text, and what the file assigns (for unguarded
/// variables).
pub fn lines(path: &str, text: &str) -> (Vec<ShellLine>, Scope) {
    let Some((origin, place)) = kind(path, text) else {
        return (Vec::new(), Scope::default());
    };
    let scope = Scope::of_script(text);
    let lines = match &origin {
        Origin::PackageScript(_) => package_scripts(text),
        Origin::Dockerfile => logical(text, place, &origin, dockerfile_command),
        Origin::Makefile => logical(text, place, &origin, recipe_command),
        Origin::Workflow => logical(text, place, &origin, yaml_command),
        Origin::Script => logical(text, place, &origin, |line| Some(line.to_string())),
    };
    (lines, scope)
}

/// The command lines the change adds to this file: on added lines, and not already a command
/// line of base (a moved or re-indented line is not new).
pub fn added(context: &FileContext<'_>) -> (Vec<ShellLine>, Scope) {
    let Some(head) = context.side(Side::Head) else {
        return (Vec::new(), Scope::default());
    };
    let (head_lines, scope) = lines(head.path, head.text);
    let base: HashSet<String> = context
        .side(Side::Base)
        .map(|base| {
            lines(base.path, base.text)
                .0
                .into_iter()
                .map(|line| normalized(&line.text))
                .collect()
        })
        .unwrap_or_default();
    let fresh = head_lines
        .into_iter()
        .filter(|line| {
            context.pair.added.overlaps(line.line, line.end_line)
                && !base.contains(&normalized(&line.text))
        })
        .collect();
    (fresh, scope)
}

/// Whitespace-normalized text, to pair lines regardless of indentation.
pub fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Joins continuation lines, skips heredoc bodies and comments, and maps each physical line to
/// its command text with `extract` (`None`: not a command line).
fn logical(
    text: &str,
    place: Place,
    origin: &Origin,
    extract: impl Fn(&str) -> Option<String>,
) -> Vec<ShellLine> {
    static HEREDOC: OnceLock<Option<Regex>> = OnceLock::new();
    let heredoc = super::values::regex(&HEREDOC, r#"<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#);
    let mut out = Vec::new();
    let mut pending: Option<(u32, String)> = None;
    let mut heredoc_end: Option<String> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if let Some(end) = &heredoc_end {
            if raw.trim() == end {
                heredoc_end = None;
            }
            continue;
        }
        let piece = match &pending {
            Some(_) => Some(raw.trim().to_string()),
            None => extract(raw),
        };
        let Some(piece) = piece else { continue };
        let trimmed = piece.trim();
        if pending.is_none() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        let (continues, body) = match trimmed.strip_suffix('\\') {
            Some(body) => (true, body),
            None => (false, trimmed),
        };
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(body.trim_end());
        if continues && joined.len() < 16 * 1024 {
            pending = Some((start, joined));
            continue;
        }
        if let Some(word) = heredoc
            .and_then(|pattern| pattern.captures(&joined))
            .and_then(|captures| captures.get(1))
        {
            heredoc_end = Some(word.as_str().to_string());
        }
        out.push(ShellLine {
            line: start,
            end_line: number,
            text: joined,
            place,
            origin: origin.clone(),
        });
    }
    if let Some((start, joined)) = pending {
        out.push(ShellLine {
            line: start,
            end_line: start,
            text: joined,
            place,
            origin: origin.clone(),
        });
    }
    out
}

fn dockerfile_command(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    let rest = trimmed
        .get(..4)
        .filter(|head| head.eq_ignore_ascii_case("RUN "))?;
    let _ = rest;
    let mut command = trimmed[4..].trim_start();
    // `RUN --mount=type=secret,id=x …`
    while command.starts_with("--") {
        command = command
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest.trim_start());
    }
    Some(command.to_string())
}

/// A recipe line (tab-indented), with make's `$$` unescaped and `@`/`-`/`+` prefixes dropped.
fn recipe_command(line: &str) -> Option<String> {
    let body = line
        .strip_prefix('\t')
        .or_else(|| line.strip_prefix("    "))?;
    let body = body.trim_start().trim_start_matches(['@', '-', '+']);
    Some(body.replace("$$", "$"))
}

/// A YAML line that holds a command: `run: …`, `- script`, a line of a block scalar. Mapping
/// keys (`name: …`, `uses: …`) are not commands.
fn yaml_command(line: &str) -> Option<String> {
    static KEY: OnceLock<Option<Regex>> = OnceLock::new();
    let trimmed = line.trim();
    let item = trimmed.strip_prefix("- ").unwrap_or(trimmed).trim_start();
    for key in [
        "run:",
        "script:",
        "command:",
        "before_script:",
        "after_script:",
        "install:",
    ] {
        if let Some(value) = item.strip_prefix(key) {
            let value = value.trim();
            if value.starts_with('|') || value.starts_with('>') || value.is_empty() {
                return None;
            }
            return Some(unquote(value).to_string());
        }
    }
    let mapping = super::values::regex(&KEY, r#"^["']?[A-Za-z_][\w.-]*["']?:(?:\s|$)"#)
        .is_some_and(|pattern| pattern.is_match(item));
    if mapping || item.starts_with("${{") && item.ends_with("}}") {
        return None;
    }
    Some(unquote(item).to_string())
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// Each package.json script as one logical line, at the line that names it.
fn package_scripts(text: &str) -> Vec<ShellLine> {
    let Some(value) = jsonc(text) else {
        return Vec::new();
    };
    let Some(scripts) = value.get("scripts").and_then(|scripts| scripts.as_object()) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.contains("\"scripts\""))
        .unwrap_or(0);
    scripts
        .iter()
        .filter_map(|(name, command)| {
            let command = command.as_str()?;
            let needle = format!("\"{name}\"");
            let index = lines
                .iter()
                .enumerate()
                .skip(start)
                .find(|(_, line)| line.contains(&needle))
                .map_or(start, |(index, _)| index);
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            Some(ShellLine {
                line: number,
                end_line: number,
                text: command.to_string(),
                place: Place::Developer,
                origin: Origin::PackageScript(name.clone()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn workflow_lines() {
        let text = "jobs:\n  a:\n    steps:\n      - name: Install\n        run: curl -sSf https://x | sh\n      - run: |\n          echo a \\\n            b\n          cat <<EOF\n          sudo x\n          EOF\n";
        let (found, _) = super::lines(".github/workflows/ci.yml", text);
        let texts: Vec<&str> = found.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts, ["curl -sSf https://x | sh", "echo a b", "cat <<EOF"]);
        assert_eq!(found[1].line, 7);
        assert_eq!(found[1].end_line, 8);
    }

    #[test]
    fn makefile_and_dockerfile() {
        let (found, _) = super::lines("Makefile", "X = 1\nall:\n\t@rm -rf $$HOME/\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "rm -rf $HOME/");
        let (found, _) = super::lines(
            "Dockerfile",
            "FROM x\nRUN --mount=type=cache,target=/c apt-get update && \\\n  curl x | sh\n",
        );
        assert_eq!(found[0].text, "apt-get update && curl x | sh");
    }
}

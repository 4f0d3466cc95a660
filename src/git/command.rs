//! The git command line, for what libgit2 does not do here (network fetches, the shallow-clone
//! plumbing, the pre-push hook's range queries).
//!
//! The repository's own config is not trusted: an earlier step of the job may have run the
//! change's code, and several settings make git run a program (`core.fsmonitor`,
//! `core.hooksPath`, `gpg.program` through `log.showSignature`, `core.sshCommand`, the remote's
//! `uploadpack`, `ext::` URLs). [`git`] overrides those on the command line, which git reads
//! after every config file. Credentials keep working: actions/checkout's
//! `http.<url>.extraheader` is left alone, and `GIT_SSH_COMMAND` (the workflow's environment,
//! which outranks `core.sshCommand`) still selects an ssh command. [`run`] stops a process that
//! outlives [`TIMEOUT_ENV`] seconds (120 by default), so a stalled remote cannot hang the job.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Environment variable: how many seconds a git process may run (default 120).
pub const TIMEOUT_ENV: &str = "INTEGRITY_GATE_GIT_TIMEOUT";

const DEFAULT_TIMEOUT_SECONDS: u64 = 120;

/// `-c` overrides for every git process: no program the repository's config names may run.
const SAFE_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "log.showSignature=false",
    "core.sshCommand=false",
    "core.askPass=",
    "remote.origin.uploadpack=git-upload-pack",
    "protocol.ext.allow=never",
    "protocol.git.allow=never",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "maintenance.auto=false",
    "gc.auto=0",
];

/// Why a git process did not finish.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `git` could not be started (or its output read).
    #[error("cannot run git: {0}")]
    Spawn(#[from] std::io::Error),
    /// It ran longer than the limit and was stopped.
    #[error("timed out after {seconds} s (set {TIMEOUT_ENV} to allow longer)")]
    TimedOut {
        /// The limit.
        seconds: u64,
    },
}

/// `git -C dir` with the overrides, no terminal prompts and untranslated messages.
pub fn git(dir: &Path) -> Command {
    git_keeping(dir, &[])
}

/// [`git`] without the overrides of the `keep` keys, for a command that must read the
/// repository's own value (`rev-parse --git-path hooks` and `core.hooksPath`) and runs nothing.
pub fn git_keeping(dir: &Path, keep: &[&str]) -> Command {
    let mut command = Command::new("git");
    for setting in SAFE_CONFIG {
        if !keep.iter().any(|key| {
            setting
                .split_once('=')
                .is_some_and(|(name, _)| name == *key)
        }) {
            command.arg("-c").arg(setting);
        }
    }
    command
        .arg("-C")
        .arg(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C");
    command
}

/// The time limit from [`TIMEOUT_ENV`], or the default.
pub fn timeout() -> Duration {
    let seconds = std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|value| value.trim().parse::<u64>().ok())
        .filter(|seconds| *seconds > 0)
        .unwrap_or(DEFAULT_TIMEOUT_SECONDS);
    Duration::from_secs(seconds)
}

/// Runs `command` to completion like [`Command::output`] (stdin closed), stopping it and every
/// process it started once it outlives [`timeout`].
pub fn run(command: Command) -> Result<Output, RunError> {
    run_within(command, timeout())
}

fn run_within(mut command: Command, limit: Duration) -> Result<Output, RunError> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so that a timeout also stops the helpers git started
    // (git-remote-https, ssh, upload-pack), which hold the pipes open.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() >= limit {
            stop(&mut child);
            return Err(RunError::TimedOut {
                seconds: limit.as_secs(),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    };
    // git has exited, but a helper it left behind may still hold a pipe open: wait for the
    // output only as long as the limit allows, then stop the group and take what arrived.
    let collect = |reader: Receiver<Vec<u8>>| {
        let left = limit.saturating_sub(started.elapsed());
        reader.recv_timeout(left).unwrap_or_else(|_| {
            kill_group(child.id());
            reader
                .recv_timeout(Duration::from_secs(1))
                .unwrap_or_default()
        })
    };
    Ok(Output {
        status,
        stdout: collect(stdout),
        stderr: collect(stderr),
    })
}

/// Reads a pipe to its end on a thread (both pipes at once, so neither can fill up and block).
fn drain(pipe: Option<impl Read + Send + 'static>) -> Receiver<Vec<u8>> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = sender.send(bytes);
    });
    receiver
}

fn stop(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

/// Stops every process of the group that `process_group(0)` made for the child `id`.
fn kill_group(id: u32) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(id) {
        // SAFETY: kill(2) with a negative pid only sends a signal to that process group; it
        // touches no memory.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_override_is_a_key_value_pair() {
        for setting in SAFE_CONFIG {
            let (key, _) = setting.split_once('=').unwrap();
            assert!(key.contains('.'), "{setting}");
        }
        let args: Vec<String> = git(Path::new("/repo"))
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args.len(), SAFE_CONFIG.len() * 2 + 2);
        assert_eq!(&args[args.len() - 2..], ["-C", "/repo"]);
        let kept = git_keeping(Path::new("/repo"), &["core.hooksPath"]);
        assert_eq!(kept.get_args().count(), args.len() - 2);
        assert!(
            !kept
                .get_args()
                .any(|arg| arg.to_string_lossy().starts_with("core.hooksPath"))
        );
    }

    #[test]
    fn output_is_collected_and_slow_processes_are_stopped() {
        let mut echo = Command::new("sh");
        echo.args(["-c", "echo out; echo err >&2; exit 3"]);
        let output = run(echo).unwrap();
        assert_eq!(output.stdout, b"out\n");
        assert_eq!(output.stderr, b"err\n");
        assert_eq!(output.status.code(), Some(3));
        // A grandchild that holds the pipes open is stopped with its parent.
        let mut stalled = Command::new("sh");
        stalled.args(["-c", "sleep 30 & sleep 30"]);
        let started = Instant::now();
        let error = run_within(stalled, Duration::from_millis(300)).unwrap_err();
        assert!(matches!(error, RunError::TimedOut { .. }), "{error}");
        assert!(started.elapsed() < Duration::from_secs(10));
        // A helper left behind holding the pipes once the child itself has exited.
        let mut left_behind = Command::new("sh");
        left_behind.args(["-c", "sleep 30 & echo done"]);
        let started = Instant::now();
        let output = run_within(left_behind, Duration::from_millis(500)).unwrap();
        assert!(output.status.success());
        assert_eq!(output.stdout, b"done\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

//! Helpers for tests that need real git repositories and the real binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built binary under test.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_integrity-gate"))
}

/// A temporary git repository driven through the `git` CLI.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    pub fn new() -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().unwrap(),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "user.email", "t@example.com"]);
        repo.git(&["config", "user.name", "Test"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn git(&self, args: &[&str]) -> String {
        let output = Command::new("git")
            .args(args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    pub fn write(&self, path: &str, content: impl AsRef<[u8]>) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
    }

    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }

    /// Runs the binary in the repository.
    pub fn run(&self, args: &[&str]) -> Output {
        run_in(self.path(), args)
    }
}

pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(output), stderr(output)))
}

/// The rule id of every finding in a JSON report, in order.
pub fn rules_of(report: &serde_json::Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["rule"].as_str().unwrap().to_string())
        .collect()
}

/// `integrity-gate diff main --format json` in `repo`: each finding of `rule` as
/// "severity message".
pub fn findings_of(repo: &Repo, rule: &str) -> Vec<String> {
    let output = repo.run(&["diff", "main", "--format", "json"]);
    json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["rule"] == rule)
        .map(|finding| {
            format!(
                "{} {}",
                finding["severity"].as_str().unwrap(),
                finding["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// The request lines a [`serve`] server received, in order.
pub type Requests = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// A stand-in HTTP server on 127.0.0.1 for at most `max_requests` connections: `respond`
/// maps a request line (`GET /path HTTP/1.1`) to a status line and a body. Returns the base
/// URL and the request lines received. Every response closes its connection.
pub fn serve(
    max_requests: usize,
    respond: impl Fn(&str) -> (&'static str, Vec<u8>) + Send + 'static,
) -> (String, Requests) {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let seen = Requests::default();
    let recorded = std::sync::Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max_requests) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) <= 2 {
                    break;
                }
            }
            let request_line = request_line.trim().to_string();
            recorded.lock().unwrap().push(request_line.clone());
            let (status, body) = respond(&request_line);
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(&body);
        }
    });
    (format!("http://{address}"), seen)
}

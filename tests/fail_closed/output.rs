//! Output hardening against a hostile change: no output format reveals more of a secret than
//! its redacted form (even when a message is cut), paths are scanned and redacted, text from
//! the change cannot forge workflow commands or break out of the check run's Markdown, and
//! the secret scanner stays fast on a crafted long line.

use crate::github::api::rt;
use crate::github::binary::{bodies, checks_api, run_github};
use crate::support::{Repo, json, stderr, stdout};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const FORMATS: [&str; 7] = [
    "json", "sarif", "github", "human", "gitlab", "junit", "markdown",
];

/// A GitHub personal access token shaped exactly like a real one (prefix and 36 characters),
/// made of characters unlikely to appear in any other output.
fn token() -> String {
    format!("ghp_{}", "Zq7WvX3kTj9RmPb2LsYd8HcNf4GuKe6Aw5Eo")
}

/// Every fragment of `secret` longer than a redacted form may show (4 characters) that
/// occurs in `output`.
fn leaked_fragments(output: &str, secret: &str) -> Vec<String> {
    let chars: Vec<char> = secret.chars().collect();
    chars
        .windows(8)
        .map(|w| w.iter().collect::<String>())
        .filter(|fragment| output.contains(fragment.as_str()))
        .collect()
}

/// A repository with a base commit from `base` and a `feature` branch from `head` checked out.
fn change(base: &[(&str, &str)], head: &[(&str, &str)]) -> (Repo, String, String) {
    let repo = Repo::new();
    for (path, content) in base {
        repo.write(path, content);
    }
    let base_sha = repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for (path, content) in head {
        repo.write(path, content);
    }
    let head_sha = repo.commit("head");
    (repo, base_sha, head_sha)
}

/// Every output the gate produces for the change: each `--format`, and `integrity-gate
/// github` (its log, the check run it creates with annotations and summary, the job summary).
fn every_output(repo: &Repo, base: &str, head: &str) -> Vec<(String, String)> {
    let mut outputs = Vec::new();
    for format in FORMATS {
        let output = repo.run(&["diff", "main", "--format", format]);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{format}: {}",
            stderr(&output)
        );
        outputs.push((format.to_string(), stdout(&output) + &stderr(&output)));
    }
    let runtime = rt();
    let server = checks_api(&runtime, 1..);
    let (output, dir) = run_github(repo, &server, base, head);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "github: {}",
        stderr(&output)
    );
    outputs.push(("github log".into(), stdout(&output) + &stderr(&output)));
    for (method, path, body) in bodies(&runtime, &server) {
        outputs.push((format!("{method} {path}"), body.to_string()));
    }
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap_or_default();
    outputs.push(("job summary".into(), summary));
    outputs
}

fn assert_no_leak(outputs: &[(String, String)], secret: &str) {
    for (name, text) in outputs {
        let fragments = leaked_fragments(text, secret);
        assert!(fragments.is_empty(), "{name} leaks {fragments:?}:\n{text}");
    }
}

const BASE_TEST: &str = "import os\nimport pytest\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n";

#[test]
fn a_token_cut_by_message_truncation_is_redacted_in_every_output() {
    let secret = token();
    let skipped = BASE_TEST.replace(
        "def test_adds",
        &format!(
            "@pytest.mark.skipif(os.getenv(\"TK\") != \"{secret}\", reason=\"x\")\ndef test_adds"
        ),
    );
    let (repo, base, head) = change(
        &[("tests/test_a.py", BASE_TEST)],
        &[("tests/test_a.py", &skipped)],
    );
    let report = json(&repo.run(&["diff", "main", "--format", "json"]));
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"skipped-test"), "{report}");
    assert!(rules.contains(&"leaked-secret"), "{report}");
    assert_no_leak(&every_output(&repo, &base, &head), &secret);
}

#[test]
fn a_token_used_as_a_file_name_is_flagged_and_redacted_in_every_output() {
    let secret = token();
    let name = format!("config/{secret}.txt");
    let (repo, base, head) = change(
        &[("README.md", "hello\n")],
        &[(name.as_str(), "harmless\n")],
    );
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report = json(&output);
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "leaked-secret")
        .unwrap_or_else(|| panic!("no leaked-secret finding: {report}"));
    let shown = finding["path"].as_str().unwrap();
    assert!(shown.starts_with("config/ghp_…[redacted fp:"), "{shown}");
    assert!(shown.ends_with(".txt"), "{shown}");
    assert_no_leak(&every_output(&repo, &base, &head), &secret);
}

/// True when a line of a GitHub Actions log is a workflow command the gate did not mean:
/// anything starting with `::` other than the commands the gate writes.
fn forged_command(line: &str) -> bool {
    const MEANT: [&str; 7] = [
        "::error file=",
        "::error title=",
        "::warning file=",
        "::warning title=",
        "::notice file=",
        "::notice title=",
        "::group::",
    ];
    // `integrity-gate github` wraps the report it quotes in `::stop-commands::TOKEN` ...
    // `::TOKEN::`, inside which the runner reads no command at all.
    let stop_marker = line.starts_with("::stop-commands::")
        || line
            .strip_prefix("::")
            .and_then(|rest| rest.strip_suffix("::"))
            .is_some_and(|token| token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()));
    line.trim_start().starts_with("::")
        && !MEANT.iter().any(|meant| line.starts_with(meant))
        && line != "::endgroup::"
        && !stop_marker
}

#[test]
fn control_characters_from_the_change_cannot_forge_workflow_commands() {
    let secret = token();
    let hostile_path = "tests/a\n::error::FORGED-PATH\n.py";
    let hostile_test =
        "test(`x\n::add-mask::FORGED-NAME\r\n\u{1b}[31m\u{2028}\u{202e}y`, () => {});\n";
    let (repo, base, head) = change(
        &[(
            "package.json",
            "{\"devDependencies\": {\"jest\": \"29\"}}\n",
        )],
        &[
            (hostile_path, &format!("TOKEN = \"{secret}\"\n")),
            (
                "src/app.test.js",
                &hostile_test.replace("test(", "test.only("),
            ),
        ],
    );
    let outputs = every_output(&repo, &base, &head);
    let human = &outputs.iter().find(|(name, _)| name == "human").unwrap().1;
    assert!(
        human.contains("FORGED-PATH"),
        "the hostile path is reported: {human}"
    );
    assert!(
        human.contains("FORGED-NAME"),
        "the hostile test is reported: {human}"
    );
    for (name, text) in &outputs {
        if name.starts_with("POST") || name.starts_with("GET") || name == "json" || name == "sarif"
        {
            continue; // JSON escapes control characters itself.
        }
        // The job summary is a Markdown file, not a log: the runner reads no commands there.
        let log = name != "job summary";
        for line in text.lines() {
            assert!(
                !(log && forged_command(line)),
                "{name} forges {line:?}:\n{text}"
            );
            assert!(
                !line.contains(['\r', '\u{1b}', '\u{2028}', '\u{202e}']),
                "{name} prints a raw control character in {line:?}"
            );
        }
    }
    // Check-run annotations are JSON, but what they say is shown on the diff as it is.
    for (name, text) in outputs.iter().filter(|(name, _)| name.starts_with("POST")) {
        let body: serde_json::Value = serde_json::from_str(text).unwrap();
        for annotation in body["output"]["annotations"].as_array().unwrap() {
            for field in ["message", "raw_details", "path"] {
                let value = annotation[field].as_str().unwrap_or_default();
                assert!(
                    !value.contains(['\r', '\u{1b}', '\u{2028}', '\u{202e}']),
                    "{name}: annotation {field} {value:?}"
                );
            }
        }
    }
    // An operator's bad argument is echoed escaped, on one line.
    let output = repo.run(&["diff", "main\n::error::FORGED-ARG"]);
    assert_eq!(output.status.code(), Some(2));
    let error = stderr(&output);
    assert!(error.starts_with("error: "), "{error}");
    assert!(error.contains("main\\n::error::FORGED-ARG"), "{error}");
    assert!(error.lines().all(|line| !forged_command(line)), "{error}");
}

/// The parts of one Markdown line outside code spans (CommonMark: a backtick run closed by a
/// run of the same length), with backslash escapes removed so that only live syntax is left.
fn outside_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut index = 0;
    while index < chars.len() {
        match chars[index] {
            '\\' if index + 1 < chars.len() && chars[index + 1].is_ascii_punctuation() => {
                index += 2;
            }
            '`' => {
                let run = chars[index..].iter().take_while(|c| **c == '`').count();
                let mut close = index + run;
                let mut closed = None;
                while close < chars.len() {
                    let next = chars[close..].iter().take_while(|c| **c == '`').count();
                    if next == run {
                        closed = Some(close + next);
                        break;
                    }
                    close += next.max(1);
                }
                match closed {
                    Some(end) => index = end,
                    None => {
                        out.extend(std::iter::repeat_n('`', run));
                        index += run;
                    }
                }
            }
            c => {
                out.push(c);
                index += 1;
            }
        }
    }
    out
}

#[test]
fn hostile_test_names_cannot_break_out_of_the_check_run_markdown() {
    let hostile = "a`![img](https://evil.example/x.png)`[link](https://evil.example) <b>bold</b> @octocat www.evil.example `` ` | x";
    let test = format!("test.only({:?}, () => {{}});\n", hostile);
    let (repo, base, head) = change(
        &[(
            "package.json",
            "{\"devDependencies\": {\"jest\": \"29\"}}\n",
        )],
        &[("src/app.test.js", &test)],
    );
    let outputs = every_output(&repo, &base, &head);
    let mut markdown = Vec::new();
    for (name, text) in &outputs {
        if name == "job summary" {
            markdown.push(text.clone());
        }
        if name.starts_with("POST") {
            let body: serde_json::Value = serde_json::from_str(text).unwrap();
            for field in ["summary", "text"] {
                markdown.push(
                    body["output"][field]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        markdown.iter().any(|md| md.contains("octocat")),
        "{markdown:?}"
    );
    for md in &markdown {
        let mut in_fence = false;
        for line in md.lines() {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
                continue;
            }
            if in_fence {
                continue;
            }
            let live = outside_code_spans(line);
            for syntax in ["![", "](", "<b>", "@octocat", "https://", "www.evil"] {
                assert!(!live.contains(syntax), "{syntax} is live in {line:?}\n{md}");
            }
        }
    }
}

/// Runs the binary with a time limit; `None` when it was killed for running over. The pipes
/// are drained while it runs, so a large report cannot stall it.
fn run_within(repo: &Repo, args: &[&str], limit: Duration) -> Option<Output> {
    let mut child = Command::new(crate::support::binary())
        .args(args)
        .current_dir(repo.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(Output {
                status,
                stdout: stdout.join().unwrap(),
                stderr: stderr.join().unwrap(),
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A deterministic pseudo-random alphanumeric string (xorshift), so the values have the
/// entropy of real secrets.
fn random_alnum(seed: &mut u64, len: usize) -> String {
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            ALNUM[(*seed % 62) as usize] as char
        })
        .collect()
}

#[test]
fn a_long_line_of_secret_assignments_is_scanned_in_bounded_time() {
    let secret = token();
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for keyword in ["password=\"", "api_key="] {
        let mut line = String::new();
        while line.len() < 256 * 1024 {
            if line.len() >= 128 * 1024 && !line.contains(&secret) {
                line.push_str(&format!("gh=\"{secret}\" "));
            }
            line.push_str(keyword);
            line.push_str(&random_alnum(&mut seed, 16));
            line.push_str(if keyword.ends_with('"') { "\" " } else { " " });
        }
        line.push('\n');
        let (repo, _, _) = change(&[("README.md", "hello\n")], &[("settings.cfg", &line)]);
        let output = run_within(
            &repo,
            &["diff", "main", "--format", "json"],
            Duration::from_secs(20),
        )
        .unwrap_or_else(|| panic!("{keyword}: still running after 20 s"));
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let report = json(&output);
        let messages: Vec<&str> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["message"].as_str())
            .collect();
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("GitHub personal access token")),
            "{keyword}: the token in the middle was missed"
        );
        assert!(leaked_fragments(&stdout(&output), &secret).is_empty());
    }
}

#[test]
fn a_long_line_of_private_key_headers_is_scanned_in_bounded_time() {
    let line = "-----BEGIN RSA PRIVATE KEY-----".repeat(256 * 1024 / 31) + "\n";
    let (repo, _, _) = change(&[("README.md", "hello\n")], &[("keys.txt", &line)]);
    let output = run_within(
        &repo,
        &["diff", "main", "--format", "json"],
        Duration::from_secs(20),
    )
    .expect("still running after 20 s");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
}

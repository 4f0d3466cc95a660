//! Fail closed in the git layer, the policy source and operator input (issue 10, items 1, 3,
//! 6, 18 and 19): each test builds the hostile repository or input and runs the real binary.

use crate::support::{Repo, binary, json, rules_of, stderr, stdout};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const TEST_FILE: &str = "tests/test_math.py";
const BASE_TEST: &str = "import pytest\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n\n\ndef test_subtracts():\n    assert 2 - 1 == 1\n";
const POLICY: &str = ".integrity-gate.yml";

fn skipped(text: &str) -> String {
    text.replace("def test_adds", "@pytest.mark.skip\ndef test_adds")
}

/// Runs `command`, failing the test (and killing the child) when it outlives `limit`: a hang
/// must fail, not stall the test run.
fn run_bounded(mut command: Command, limit: Duration) -> Output {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out_pipe.read_to_end(&mut bytes);
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err_pipe.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

/// The binary under a 4 GiB address-space limit, so that an unbounded read fails fast instead
/// of taking the machine's memory.
fn capped_binary(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(binary())
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_EVENT_NAME")
        .env_remove("GITHUB_EVENT_PATH");
    command
}

/// main has a policy and the test file; `feature` (checked out) skips a test; then main moves
/// on to `next_policy`. Returns (repo, main's tip, feature's head).
fn policy_tightened_after_branching(first: &str, next_policy: &str) -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write(POLICY, first);
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base with a lax policy");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped(BASE_TEST));
    let head = repo.commit("skip a test");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(POLICY, next_policy);
    let tip = repo.commit("tighten the policy");
    repo.git(&["checkout", "-q", "feature"]);
    (repo, tip, head)
}

/// main has the test; `feature` skips it and is checked out.
fn skip_on_feature() -> Repo {
    let repo = Repo::new();
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped(BASE_TEST));
    repo.commit("skip");
    repo
}

/// The `github` command for a pull_request event from `base` to `head`, without a token (no
/// API calls); the JSON report goes to `out/report.json`.
fn github_command(repo_dir: &Path, out: &Path, base: &str, head: &str) -> Command {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/_github/events/pull_request.json");
    let payload = std::fs::read_to_string(fixture)
        .unwrap()
        .replace("ba5e000000000000000000000000000000000001", base)
        .replace("c0ffee0000000000000000000000000000000042", head);
    let event = out.join("event.json");
    std::fs::write(&event, payload).unwrap();
    let mut command = Command::new(binary());
    command
        .args(["github", "--check-run", "false", "--json"])
        .arg(out.join("report.json"))
        .current_dir(repo_dir)
        .env("GITHUB_EVENT_NAME", "pull_request")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_WORKSPACE", repo_dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("GITHUB_TOKEN")
        .env_remove("INTEGRITY_GATE_TOKEN")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT");
    command
}

// ---- item 1: the policy comes from the base ref as it is now ----

#[test]
fn diff_reads_the_policy_from_the_base_tip_not_the_merge_base() {
    let (repo, tip, _) = policy_tightened_after_branching(
        "rules:\n  skipped-test:\n    severity: off\n",
        "rules:\n  skipped-test:\n    severity: error\n",
    );
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report = json(&output);
    assert_eq!(rules_of(&report), ["skipped-test"]);
    assert_eq!(report["policy"]["source"], tip.as_str());
    assert_eq!(report["policy"]["path"], POLICY);
    // The range is still the three-dot one: base is the merge-base, not main's tip.
    assert_ne!(report["base"], tip.as_str());
    let human = repo.run(&["diff", "main", "--format", "human"]);
    let text = stdout(&human);
    assert!(
        text.contains(&format!("policy {}:{POLICY}", &tip[..12])),
        "{text}"
    );
}

/// Runs `pre-push` in `repo` with `line` as git's stdin and asserts that it blocks the push
/// for the skipped test (the tighter policy applied).
fn assert_pre_push_blocks_the_skip(repo: &Repo, line: &str) {
    let mut child = Command::new(binary())
        .arg("pre-push")
        .current_dir(repo.path())
        .env_remove("PRE_COMMIT")
        .env_remove("PRE_COMMIT_FROM_REF")
        .env_remove("PRE_COMMIT_TO_REF")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{line}").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("skipped-test"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn pre_push_reads_the_policy_from_the_remote_sha() {
    let (repo, tip, head) =
        policy_tightened_after_branching("ignore:\n  - \"tests/**\"\n", "fail-on: error\n");
    assert_pre_push_blocks_the_skip(
        &repo,
        &format!("refs/heads/feature {head} refs/heads/main {tip}"),
    );
}

/// A push that creates the branch has no remote commit of its own: the range starts at the
/// fork point, but the policy is the remote default branch's as it is now.
#[test]
fn pre_push_of_a_new_branch_reads_the_policy_from_the_remote_default_branch() {
    let (repo, tip, head) =
        policy_tightened_after_branching("ignore:\n  - \"tests/**\"\n", "fail-on: error\n");
    repo.git(&["update-ref", "refs/remotes/origin/main", &tip]);
    repo.git(&[
        "symbolic-ref",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/main",
    ]);
    let zero = "0".repeat(40);
    assert_pre_push_blocks_the_skip(
        &repo,
        &format!("refs/heads/feature {head} refs/heads/feature {zero}"),
    );
}

#[test]
fn github_reads_the_policy_from_the_event_base_sha() {
    let (repo, tip, head) =
        policy_tightened_after_branching("ignore:\n  - \"tests/**\"\n", "fail-on: error\n");
    let out = tempfile::tempdir().unwrap();
    let output = run_bounded(
        github_command(repo.path(), out.path(), &tip, &head),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(rules_of(&report), ["skipped-test"]);
    assert_eq!(report["policy"]["source"], tip.as_str());
}

#[test]
fn the_report_says_when_the_policy_is_a_file_or_the_defaults() {
    let repo = skip_on_feature();
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(json(&output)["policy"]["source"], "default");
    let policy = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(policy.path(), "fail-on: never\n").unwrap();
    let path = policy.path().to_str().unwrap();
    let output = repo.run(&["diff", "main", "--format", "json", "--config", path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(json(&output)["policy"]["source"], format!("file:{path}"));
}

// ---- item 3: a rename into an ignored path is analysed ----

/// main ignores `vendor/**` (plus `extra` files); `feature` moves the test file there.
fn moved_into_vendor(extra: &[(&str, &str)], head_text: &str) -> Repo {
    let repo = Repo::new();
    repo.write(POLICY, "ignore:\n  - \"vendor/**\"\n");
    repo.write(TEST_FILE, BASE_TEST);
    for (path, text) in extra {
        repo.write(path, text);
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    std::fs::create_dir_all(repo.path().join("vendor/tests")).unwrap();
    repo.git(&["mv", TEST_FILE, "vendor/tests/test_math.py"]);
    repo.write("vendor/tests/test_math.py", head_text);
    repo.commit("move the tests into vendor/");
    repo
}

#[test]
fn a_skip_added_while_renaming_into_an_ignored_path_is_found() {
    // pytest's defaults still collect vendor/tests/test_math.py: a normal rename, new skip.
    let repo = moved_into_vendor(&[], &skipped(BASE_TEST));
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report = json(&output);
    assert_eq!(rules_of(&report), ["skipped-test"]);
    assert_eq!(report["findings"][0]["path"], "vendor/tests/test_math.py");
    assert_eq!(report["summary"]["files_scanned"], 1);
}

#[test]
fn a_test_file_renamed_out_of_collection_into_an_ignored_path_is_a_deletion() {
    let repo = moved_into_vendor(
        &[("pytest.ini", "[pytest]\ntestpaths = tests\n")],
        BASE_TEST,
    );
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report = json(&output);
    assert_eq!(report["summary"]["files_scanned"], 1);
    let rules = rules_of(&report);
    assert!(
        !rules.is_empty() && rules.iter().all(|rule| rule == "deleted-test"),
        "{rules:?}"
    );
    let text = stdout(&output);
    assert!(
        text.contains("test_adds") && text.contains("test_subtracts"),
        "{text}"
    );
}

#[test]
fn a_plain_rename_into_an_ignored_path_is_never_a_silent_zero() {
    let repo = moved_into_vendor(&[], BASE_TEST);
    let output = repo.run(&["diff", "main", "--format", "json"]);
    let report = json(&output);
    assert_eq!(report["summary"]["files_scanned"], 1, "{report}");
    let notes = report["notes"].to_string();
    assert!(notes.contains("ignore"), "{notes}");
}

#[test]
fn files_that_stay_inside_an_ignored_path_are_still_ignored() {
    let repo = Repo::new();
    repo.write(POLICY, "ignore:\n  - \"vendor/**\"\n");
    repo.write("vendor/tests/test_math.py", BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    std::fs::create_dir_all(repo.path().join("vendor/lib")).unwrap();
    repo.git(&["mv", "vendor/tests/test_math.py", "vendor/lib/test_math.py"]);
    repo.write("vendor/lib/test_math.py", skipped(BASE_TEST));
    repo.commit("move inside vendor");
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(json(&output)["summary"]["files_scanned"], 0);
}

// ---- item 6: a tag cannot hijack BASE or --head ----

#[test]
fn a_tag_that_shadows_the_base_branch_is_refused() {
    let repo = skip_on_feature();
    repo.git(&["tag", "main", "HEAD"]);
    for args in [
        &["diff", "main"][..],
        &["diff", "main~0"][..],
        &["diff"][..],
    ] {
        let output = repo.run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stdout(&output)
        );
        let text = stderr(&output);
        assert!(
            text.contains("refs/heads/main") && text.contains("refs/tags/main"),
            "{args:?}: {text}"
        );
        assert!(text.contains("full ref name"), "{args:?}: {text}");
        assert_eq!(
            text.lines()
                .filter(|line| line.starts_with("error"))
                .count(),
            1
        );
    }
    // The full ref name, a SHA and an expression on it still work.
    let sha = repo.git(&["rev-parse", "refs/heads/main"]);
    for base in ["refs/heads/main", sha.as_str(), "refs/heads/main~0"] {
        let output = repo.run(&["diff", base, "--format", "json"]);
        assert_eq!(output.status.code(), Some(1), "{base}: {}", stderr(&output));
        assert_eq!(rules_of(&json(&output)), ["skipped-test"], "{base}");
    }
}

#[test]
fn a_tag_that_shadows_the_head_branch_is_refused() {
    let repo = skip_on_feature();
    repo.git(&["tag", "feature", "main"]);
    let output = repo.run(&["diff", "refs/heads/main", "--head", "feature"]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = stderr(&output);
    assert!(
        text.contains("refs/heads/feature") && text.contains("refs/tags/feature"),
        "{text}"
    );
    let output = repo.run(&["diff", "main", "--head", "HEAD~0", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
}

#[test]
fn a_tag_on_the_same_commit_as_the_branch_is_not_ambiguous() {
    let repo = skip_on_feature();
    repo.git(&["tag", "main", "refs/heads/main"]);
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(rules_of(&json(&output)), ["skipped-test"]);
}

// ---- item 18: operator input is bounded and never echoed ----

#[test]
fn config_from_a_device_is_refused_quickly() {
    let repo = skip_on_feature();
    let output = run_bounded(
        capped_binary(repo.path(), &["diff", "main", "--config", "/dev/zero"]),
        Duration::from_secs(20),
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("not a regular file"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|line| line.starts_with("error"))
            .count(),
        1
    );
}

#[test]
fn config_errors_never_echo_the_file() {
    let repo = skip_on_feature();
    // Assembled at run time so that this file holds no credential-shaped literal.
    let marker = &["ghp", "Zk3q9XbT1mWv7LpR2sYc8NdH4jGf6aUe0oQi"].join("_");
    let mut command = capped_binary(
        repo.path(),
        &["diff", "main", "--config", "/proc/self/environ"],
    );
    command.env("SECRET_LOOKING_MARKER", marker);
    let output = run_bounded(command, Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        !text.contains(marker) && !text.contains("SECRET_LOOKING"),
        "{text}"
    );

    let policy = tempfile::NamedTempFile::new().unwrap();
    let path = policy.path().to_str().unwrap();
    for body in [
        format!("fail-on: [unclosed {marker}\n"),
        format!("fail-on: {marker}\n"),
        format!("ignore:\n  - \"[{marker}\"\n"),
        format!("rules:\n  skipped-test:\n    severity: {marker}\n"),
        format!("{marker}: 1\n"),
        format!("key: value\n\t{marker}: [\n"),
    ] {
        std::fs::write(policy.path(), &body).unwrap();
        let output = repo.run(&["diff", "main", "--config", path]);
        assert_eq!(output.status.code(), Some(2), "{body}");
        let text = stderr(&output);
        assert!(!text.contains(&marker[4..24]), "{body}: {text}");
        assert!(text.contains(path), "{body}: {text}");
    }
}

#[test]
fn oversized_policies_are_refused() {
    let repo = skip_on_feature();
    let big = format!("# {}\nfail-on: error\n", "x".repeat(2 << 20));
    let policy = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(policy.path(), &big).unwrap();
    let output = repo.run(&["diff", "main", "--config", policy.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert!(stderr(&output).contains("1 MiB"), "{}", stderr(&output));

    // The same policy committed to base.
    repo.git(&["checkout", "-q", "main"]);
    repo.write(POLICY, &big);
    repo.commit("huge policy");
    repo.git(&["checkout", "-q", "feature"]);
    let output = repo.run(&["diff", "main"]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = stderr(&output);
    assert!(text.contains("1 MiB") && text.contains(POLICY), "{text}");
}

#[test]
fn event_and_report_files_are_bounded() {
    let repo = skip_on_feature();
    let big = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(big.path(), vec![b' '; 40 << 20]).unwrap();
    for (name, path) in [
        ("pull_request", "/dev/zero"),
        ("pull_request", big.path().to_str().unwrap()),
    ] {
        let mut command = capped_binary(repo.path(), &["github", "--check-run", "false"]);
        command
            .env("GITHUB_EVENT_NAME", name)
            .env("GITHUB_EVENT_PATH", path);
        let output = run_bounded(command, Duration::from_secs(20));
        assert_eq!(output.status.code(), Some(2), "{path}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("GITHUB_EVENT_PATH"),
            "{}",
            stderr(&output)
        );
    }
    let event = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        event.path(),
        r#"{"action":"completed","workflow_run":{"id":1,"head_sha":"c0ffee0000000000000000000000000000000042","conclusion":"success","event":"pull_request","head_branch":"f","pull_requests":[]},"repository":{"name":"widgets","owner":{"login":"acme"}}}"#,
    )
    .unwrap();
    let mut command = capped_binary(
        repo.path(),
        &["github", "--check-run", "false", "--report", "/dev/zero"],
    );
    command
        .env("GITHUB_EVENT_NAME", "workflow_run")
        .env("GITHUB_EVENT_PATH", event.path());
    let output = run_bounded(command, Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("/dev/zero"), "{}", stderr(&output));
}

// ---- item 19: git subprocesses ignore the repository's own commands and cannot hang ----

fn marker_script(dir: &Path, name: &str, then: &str) -> (PathBuf, PathBuf) {
    let marker = dir.join(format!("{name}.ran"));
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n{then}\n", marker.display()),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    (script, marker)
}

/// A commit on top of HEAD that carries a (fake) signature header, so that `git log` with
/// `log.showSignature` would call `gpg.program` on it.
fn signed_commit(repo: &Repo) -> String {
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let parent = repo.git(&["rev-parse", "HEAD"]);
    let body = format!(
        "tree {tree}\nparent {parent}\nauthor T <t@example.com> 1700000000 +0000\ncommitter T <t@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n"
    );
    let object = repo.path().join("commit.txt");
    std::fs::write(&object, body).unwrap();
    let sha = repo.git(&[
        "hash-object",
        "-t",
        "commit",
        "-w",
        object.to_str().unwrap(),
    ]);
    std::fs::remove_file(object).unwrap();
    repo.git(&["update-ref", "HEAD", &sha]);
    sha
}

#[test]
fn github_never_runs_commands_from_the_repository_git_config() {
    let scripts = tempfile::tempdir().unwrap();
    let origin = skip_on_feature();
    let head = signed_commit(&origin);
    let base = origin.git(&["rev-parse", "main"]);
    // A clone of `feature` alone: main's tip must be fetched, through the local transport.
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", origin.path().display());
    let status = Command::new("git")
        .args([
            "clone",
            "-q",
            "--single-branch",
            "--branch",
            "feature",
            &url,
        ])
        .arg(clone.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .unwrap();
    assert!(status.success());
    let (fsmonitor, fsmonitor_ran) = marker_script(scripts.path(), "fsmonitor", "exit 1");
    let (gpg, gpg_ran) = marker_script(scripts.path(), "gpg", "exit 1");
    let (upload, upload_ran) =
        marker_script(scripts.path(), "upload", "exec git-upload-pack \"$@\"");
    let (ssh, ssh_ran) = marker_script(scripts.path(), "ssh", "exit 1");
    let hooks = scripts.path().join("hooks");
    std::fs::create_dir(&hooks).unwrap();
    let (hook, hook_ran) = marker_script(scripts.path(), "hook", "exit 0");
    std::fs::copy(&hook, hooks.join("reference-transaction")).unwrap();
    std::fs::copy(&hook, hooks.join("post-checkout")).unwrap();
    let config = |key: &str, value: &Path| {
        let status = Command::new("git")
            .arg("-C")
            .arg(clone.path())
            .args(["config", key])
            .arg(value)
            .status()
            .unwrap();
        assert!(status.success());
    };
    config("core.fsmonitor", &fsmonitor);
    config("gpg.program", &gpg);
    config("log.showSignature", Path::new("true"));
    config("remote.origin.uploadpack", &upload);
    config("core.sshCommand", &ssh);
    config("core.hooksPath", &hooks);
    let out = tempfile::tempdir().unwrap();
    let output = run_bounded(
        github_command(clone.path(), out.path(), &base, &head),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    for (what, marker) in [
        ("core.fsmonitor", fsmonitor_ran),
        ("gpg.program", gpg_ran),
        ("remote.origin.uploadpack", upload_ran),
        ("core.sshCommand", ssh_ran),
        ("core.hooksPath", hook_ran),
    ] {
        assert!(!marker.exists(), "{what} ran");
    }
}

#[test]
fn a_stalled_fetch_is_killed_at_the_timeout() {
    // An "origin" that accepts connections and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let repo = skip_on_feature();
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&[
        "remote",
        "add",
        "origin",
        &format!("http://127.0.0.1:{port}/acme/widgets.git"),
    ]);
    let missing_base = "ba5e000000000000000000000000000000000001";
    let out = tempfile::tempdir().unwrap();
    let mut command = github_command(repo.path(), out.path(), missing_base, &head);
    command.env("INTEGRITY_GATE_GIT_TIMEOUT", "2");
    let started = Instant::now();
    let output = run_bounded(command, Duration::from_secs(40));
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(started.elapsed() < Duration::from_secs(30));
    let text = stderr(&output);
    assert!(text.contains("timed out after 2 s"), "{text}");
}

#[test]
fn commit_trailers_are_read_without_git_log() {
    let repo = skip_on_feature();
    let base = repo.git(&["rev-parse", "main"]);
    repo.write("notes.txt", "more\n");
    repo.git(&["add", "-A"]);
    repo.git(&[
        "commit",
        "-q",
        "-m",
        "Fix the cart\n\nCo-authored-by: Claude <noreply@anthropic.com>",
    ]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    let found = integrity_gate::github::agent::from_commits(repo.path(), &base, &head).unwrap();
    assert!(found.is_some_and(|reason| reason.contains("Claude")));
    let before = integrity_gate::github::agent::from_commits(repo.path(), &base, &base).unwrap();
    assert_eq!(before, None);
}

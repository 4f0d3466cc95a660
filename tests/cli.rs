//! The binary against real temporary git repositories: exit codes, JSON shape, every error
//! path, and the per-file conditions (renames, binary, non-UTF-8, syntax errors, submodules,
//! symlinks), `--worktree`, bare repositories and the policy read from base.

use crate::support::{Repo, json, run_in, stderr, stdout};

pub(crate) const TEST_FILE: &str = "tests/test_cart.py";
pub(crate) const BASE_TEST: &str = "import pytest\n\n\ndef test_adds():\n    assert 1 + 1 == 2\n\n\ndef test_removes():\n    assert 2 - 1 == 1\n";

fn skipped() -> String {
    BASE_TEST.replace("def test_adds", "@pytest.mark.skip\ndef test_adds")
}

/// main has the test file; branch `feature` adds `head_change` on top.
pub(crate) fn repo_with_branch(head_change: impl FnOnce(&Repo)) -> Repo {
    let repo = Repo::new();
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    head_change(&repo);
    repo.commit("head");
    repo
}

#[test]
fn a_new_skip_blocks_with_exit_1_and_contract_json() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = json(&output);
    let base = repo.git(&["rev-parse", "main"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(report["version"], 1);
    assert_eq!(report["base"], base);
    assert_eq!(report["head"], head);
    let finding = &report["findings"][0];
    assert_eq!(finding["rule"], "skipped-test");
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["path"], TEST_FILE);
    assert_eq!(finding["line"], 4);
    assert_eq!(finding["end_line"], 4);
    assert_eq!(finding["side"], "head");
    assert_eq!(finding["snippet"], "@pytest.mark.skip");
    assert!(finding["message"].as_str().unwrap().contains("test_adds"));
    assert_eq!(
        report["summary"],
        serde_json::json!({
            "files_scanned": 1, "findings": 1, "blocking": 1,
            "tests": {"base": 2, "head": 2, "added": 0, "deleted": 0, "skipped": 1}
        })
    );
    assert_eq!(finding["confidence"], "certain");
    assert_eq!(finding.as_object().unwrap().len(), 9);
    let text = stdout(&output);
    let positions: Vec<usize> = [
        "rule",
        "severity",
        "path",
        "line",
        "end_line",
        "side",
        "message",
        "snippet",
        "confidence",
    ]
    .iter()
    .map(|key| text.find(&format!("\"{key}\":")).unwrap())
    .collect();
    assert!(
        positions.windows(2).all(|pair| pair[0] < pair[1]),
        "contract field order: {text}"
    );
}

#[test]
fn a_clean_change_exits_0_and_the_default_base_is_main() {
    let repo = repo_with_branch(|repo| repo.write("src/app.py", "print('hi')\n"));
    let output = repo.run(&["diff", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(json(&output)["findings"], serde_json::json!([]));
}

#[test]
fn three_dot_semantics_ignore_what_happened_on_main_since() {
    let repo = Repo::new();
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("src/app.py", "x = 1\n");
    repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(TEST_FILE, skipped());
    repo.commit("main skips a test after the branch point");
    repo.git(&["checkout", "-q", "feature"]);
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn human_output_shows_the_source_line_and_a_summary() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let output = repo.run(&["diff", "main"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("error[skipped-test]"), "{text}");
    assert!(text.contains("tests/test_cart.py:4"), "{text}");
    assert!(text.contains("@pytest.mark.skip"), "{text}");
    assert!(
        text.contains("1 finding (1 blocking) in 1 changed file"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no colour when not a terminal: {text}"
    );
}

#[test]
fn sarif_and_github_formats() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let output = repo.run(&["diff", "main", "--format", "sarif"]);
    assert_eq!(output.status.code(), Some(1));
    let sarif = json(&output);
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().unwrap().len(),
        integrity_gate::rules::ALL_RULES.len()
    );
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "skipped-test");
    assert_eq!(result["level"], "error");
    let fingerprint = result["partialFingerprints"]["integrityGate/v1"]
        .as_str()
        .unwrap();
    assert_eq!(fingerprint.len(), 16);
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    let output = repo.run(&["diff", "main", "--format", "github"]);
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "::error file=tests/test_cart.py,line=4,endLine=4,title=integrity-gate skipped-test::"
        ),
        "{text}"
    );
}

#[test]
fn sarif_fingerprints_do_not_depend_on_line_numbers() {
    let fingerprint = |prefix: &str| {
        let repo = repo_with_branch(|repo| repo.write(TEST_FILE, format!("{prefix}{}", skipped())));
        let output = repo.run(&["diff", "main", "--format", "sarif"]);
        json(&output)["runs"][0]["results"][0]["partialFingerprints"]["integrityGate/v1"].clone()
    };
    assert_eq!(fingerprint(""), fingerprint("# moved down\n\n\n"));
}

#[test]
fn errors_exit_2_with_a_one_line_cause() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let output = repo.run(&["diff", "no-such-branch"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error: unknown revision `no-such-branch`"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("hint:"));

    let output = repo.run(&["diff", "main", "--head", "nope"]);
    assert_eq!(output.status.code(), Some(2));

    let output = repo.run(&["diff", "main", "--format", "yaml"]);
    assert_eq!(output.status.code(), Some(2));

    let output = repo.run(&["diff", "main", "--fail-on", "sometimes"]);
    assert_eq!(output.status.code(), Some(2));

    let output = repo.run(&["explain", "skiped-test"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("did you mean `skipped-test`"),
        "{}",
        stderr(&output)
    );

    let outside = tempfile::tempdir().unwrap();
    let output = run_in(outside.path(), &["diff", "main"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not a git repository"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn unrelated_histories_have_no_merge_base() {
    let repo = repo_with_branch(|_| {});
    repo.git(&["checkout", "-q", "--orphan", "other"]);
    repo.write("x.py", "x = 1\n");
    repo.commit("unrelated");
    let output = repo.run(&["diff", "main"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no merge base"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_empty_repository_is_an_error() {
    let repo = Repo::new();
    let output = repo.run(&["diff", "main"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error: "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_shallow_clone_missing_the_base_says_how_to_fix_it() {
    let origin = Repo::new();
    origin.write(TEST_FILE, BASE_TEST);
    origin.commit("base");
    origin.git(&["checkout", "-q", "-b", "feature"]);
    for index in 0..3 {
        origin.write("src/app.py", format!("x = {index}\n"));
        origin.commit("work");
    }
    origin.git(&["checkout", "-q", "main"]);
    origin.write("src/other.py", "y = 1\n");
    origin.commit("main moves on");
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", origin.path().display());
    let status = std::process::Command::new("git")
        .args([
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
            ".",
        ])
        .current_dir(clone.path())
        .status()
        .unwrap();
    assert!(status.success());
    let output = run_in(
        clone.path(),
        &["diff", "origin/main", "--head", "origin/feature"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = stderr(&output);
    assert!(text.contains("shallow"), "{text}");
    assert!(text.contains("fetch-depth: 0"), "{text}");
}

#[test]
fn invalid_policy_in_base_exits_2_naming_the_key() {
    let repo = Repo::new();
    repo.write(
        ".integrity-gate.yml",
        "rulez:\n  skipped-test:\n    severity: off\n",
    );
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped());
    repo.commit("head");
    let output = repo.run(&["diff", "main"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(
        text.contains(".integrity-gate.yml: unknown key `rulez` (did you mean `rules`?)"),
        "{text}"
    );
}

#[test]
fn a_policy_in_base_can_turn_a_rule_off() {
    let repo = Repo::new();
    repo.write(
        ".integrity-gate.yml",
        "rules:\n  skipped-test:\n    severity: off\n",
    );
    repo.write(TEST_FILE, BASE_TEST);
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(TEST_FILE, skipped());
    repo.commit("head");
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_policy_edit_in_the_change_is_reported_and_not_applied() {
    let repo = repo_with_branch(|repo| {
        repo.write(TEST_FILE, skipped());
        repo.write(
            ".integrity-gate.yml",
            "fail-on: never\nrules:\n  skipped-test:\n    severity: off\n",
        );
    });
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let rules: Vec<String> = json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["rule"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rules, ["gate-config-change", "skipped-test"]);
}

#[test]
fn config_flag_reads_a_policy_file() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let policy = repo
        .path()
        .join("..")
        .join(format!("policy-{}.yml", std::process::id()));
    std::fs::write(&policy, "rules:\n  skipped-test:\n    severity: warning\n").unwrap();
    let output = repo.run(&[
        "diff",
        "main",
        "--format",
        "json",
        "--config",
        policy.to_str().unwrap(),
    ]);
    std::fs::remove_file(&policy).unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json(&output)["findings"][0]["severity"], "warning");
    let output = repo.run(&["diff", "main", "--config", "/nonexistent/policy.yml"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_renamed_file_that_carries_an_old_skip_reports_nothing() {
    let repo = Repo::new();
    repo.write(TEST_FILE, skipped());
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.git(&["mv", TEST_FILE, "tests/test_basket.py"]);
    repo.commit("rename");
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(json(&output)["summary"]["files_scanned"], 1);
}

#[test]
fn binary_non_utf8_and_syntax_errors_are_notes_not_crashes() {
    let repo = repo_with_branch(|repo| {
        repo.write(
            "assets/logo.png",
            [0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0xff],
        );
        repo.write(
            "tests/test_latin1.py",
            b"# caf\xe9\ndef test_x():\n    pass\n",
        );
        repo.write(
            TEST_FILE,
            skipped().replace("def test_removes():", "def test_removes(:"),
        );
    });
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = json(&output);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("assets/logo.png") && notes.contains("binary"),
        "{notes}"
    );
    assert!(
        notes.contains("tests/test_latin1.py") && notes.contains("UTF-8"),
        "{notes}"
    );
    assert!(notes.contains("syntax error"), "{notes}");
    assert_eq!(report["findings"][0]["rule"], "skipped-test");
}

#[test]
fn submodules_are_noted_and_symlinks_where_tests_live_are_findings() {
    let repo = repo_with_branch(|repo| {
        let nested = Repo::new();
        nested.write("lib.py", "x = 1\n");
        nested.commit("nested");
        let target = repo.path().join("vendor/lib");
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let status = std::process::Command::new("git")
            .args([
                "clone",
                "-q",
                nested.path().to_str().unwrap(),
                target.to_str().unwrap(),
            ])
            .status()
            .unwrap();
        assert!(status.success());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("test_cart.py", repo.path().join("tests/test_link.py"))
                .unwrap();
            std::os::unix::fs::symlink("../../outside.py", repo.path().join("tests/test_out.py"))
                .unwrap();
        }
    });
    let output = repo.run(&["diff", "main", "--format", "json"]);
    let report = json(&output);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("vendor/lib") && notes.contains("submodule"),
        "{notes}"
    );
    // A submodule outside any path a rule reads is a note; a symbolic link added where the test
    // runner looks, to something outside the repository, hides what it stands for, so it is an
    // `unreadable-change` finding. A link to another file of the repository hides nothing: the
    // gate reads that file where it stands.
    let findings: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["path"].as_str().unwrap()))
        .collect();
    #[cfg(unix)]
    {
        assert!(
            notes.contains("tests/test_link.py") && notes.contains("symbolic link"),
            "{notes}"
        );
        assert_eq!(findings, [("unreadable-change", "tests/test_out.py")]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    }
    #[cfg(not(unix))]
    assert_eq!(findings, []);
}

#[test]
fn worktree_includes_uncommitted_and_untracked_changes() {
    let repo = repo_with_branch(|repo| repo.write("src/app.py", "x = 1\n"));
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    repo.write(TEST_FILE, skipped());
    repo.write(
        "src/new.test.js",
        "describe('a', () => {\n  it.only('b', () => {});\n});\n",
    );
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "without --worktree, only commits count"
    );
    let output = repo.run(&["diff", "main", "--worktree", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let rules: Vec<String> = json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["rule"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rules, ["focused-test", "skipped-test"]);
}

#[test]
fn a_bare_repository_works_with_head() {
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let bare = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--bare", repo.path().to_str().unwrap(), "."])
        .current_dir(bare.path())
        .status()
        .unwrap();
    assert!(status.success());
    let output = run_in(
        bare.path(),
        &["diff", "main", "--head", "feature", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(json(&output)["findings"][0]["rule"], "skipped-test");
    let output = run_in(bare.path(), &["diff", "main"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--head"), "{}", stderr(&output));
}

#[test]
fn rules_and_explain_come_from_the_registry() {
    let repo = Repo::new();
    let output = repo.run(&["rules"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(
        text.lines().count(),
        integrity_gate::rules::ALL_RULES.len(),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|line| line.starts_with("skipped-test ") && line.contains("error"))
    );
    for rule in integrity_gate::rules::ALL_RULES {
        let line = text
            .lines()
            .find(|line| line.starts_with(&format!("{} ", rule.id)))
            .unwrap_or_else(|| panic!("{} not listed: {text}", rule.id));
        let planned = rule.maturity == integrity_gate::rules::Maturity::Planned;
        assert_eq!(line.contains("[planned"), planned, "{line}");
        assert!(line.contains(rule.severity.as_str()), "{line}");
    }
    let output = repo.run(&["explain", "focused-test"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(text.starts_with("# focused-test"), "{text}");
    assert!(text.contains("## Not flagged"), "{text}");
}

#[test]
fn output_to_a_closed_pipe_is_not_an_error() {
    use std::process::{Command, Stdio};
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let mut child = Command::new(crate::support::binary())
        .args(["diff", "main", "--format", "sarif"])
        .current_dir(repo.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

#[test]
fn readme_rules_table_is_generated_from_the_registry() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start_marker = "<!-- rules-table:";
    let end_marker = "<!-- /rules-table -->";
    let start = readme
        .find(start_marker)
        .expect("README has the rules-table marker");
    let start = start + readme[start..].find('\n').unwrap() + 1;
    let end = readme.find(end_marker).expect("README has the end marker");
    let mut table = String::from(
        "| rule | default | languages | fires when the change… |\n|---|---|---|---|\n",
    );
    for rule in integrity_gate::rules::ALL_RULES {
        let planned = if rule.maturity == integrity_gate::rules::Maturity::Planned {
            " *(planned)*"
        } else {
            ""
        };
        table.push_str(&format!(
            "| `{}` | {} | {} | {}{} |\n",
            rule.id,
            rule.severity.as_str(),
            rule.languages_label(),
            rule.summary,
            planned
        ));
    }
    if std::env::var_os("INTEGRITY_GATE_BLESS").is_some() {
        let updated = format!("{}{}{}", &readme[..start], table, &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        table,
        "README rules table is stale: run `INTEGRITY_GATE_BLESS=1 cargo test`"
    );
}

#[test]
fn no_output_format_ever_contains_the_secret() {
    // Synthetic, built at run time so that this file itself holds no token.
    let secret = format!("ghp_{}", "Zq8Xw2Lk5Vb9Nm3Rt7Yp1Hs4Dg6Fj0Ca2Ue8");
    let url_password = "Vq3-Zp8-Lm2-Kx7";
    let repo = repo_with_branch(|repo| {
        repo.write(
            "deploy/settings.py",
            format!(
                "GITHUB_TOKEN = \"{secret}\"\nDATABASE_URL = \"postgres://app:{url_password}@db.internal/app\"\n"
            ),
        );
        repo.write(
            ".github/workflows/ci.yml",
            format!("env:\n  TOKEN: {secret}\n"),
        );
    });
    for format in [
        "human", "json", "sarif", "github", "gitlab", "junit", "markdown",
    ] {
        let output = repo.run(&["diff", "main", "--format", format]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
        let text = stdout(&output);
        assert!(text.contains("leaked-secret"), "{format}: {text}");
        assert!(text.contains("redacted"), "{format}: {text}");
        assert!(!text.contains(&secret), "{format} leaks the token: {text}");
        assert!(
            !text.contains(&secret[4..20]),
            "{format} leaks part of the token"
        );
        assert!(
            !text.contains(url_password),
            "{format} leaks the URL password: {text}"
        );
    }
}

/// A stand-in package registry on 127.0.0.1: `known` names answer with an old first upload,
/// everything else 404. Returns the base URL and the request lines it received.
fn fake_registry(known: &'static [&'static str]) -> (String, crate::support::Requests) {
    crate::support::serve(16, move |request_line| {
        let hit = known
            .iter()
            .any(|name| request_line.contains(&format!("/pypi/{name}/json")));
        if hit {
            (
                "200 OK",
                br#"{"releases":{"1.0":[{"upload_time_iso_8601":"2015-01-01T00:00:00Z"}]}}"#
                    .to_vec(),
            )
        } else {
            ("404 Not Found", br#"{"message":"Not Found"}"#.to_vec())
        }
    })
}

/// The workspace declarations that decide whose a fixture-looking manifest is are read from
/// the base commit when the change does not touch them.
#[test]
fn fixture_manifests_are_judged_by_the_workspace_declared_at_base() {
    let repo = Repo::new();
    repo.write("pnpm-workspace.yaml", "packages:\n  - test/apps/*\n");
    repo.write("package.json", "{\"name\": \"mono\", \"private\": true}\n");
    for dir in ["test/apps/member", "test/fixtures/copy"] {
        repo.write(&format!("{dir}/package.json"), "{\"name\": \"x\"}\n");
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for dir in ["test/apps/member", "test/fixtures/copy"] {
        repo.write(
            &format!("{dir}/package.json"),
            "{\"name\": \"x\", \"dependencies\": {\"lodahs\": \"^4\"}}\n",
        );
    }
    repo.commit("add deps");
    let output = std::process::Command::new(crate::support::binary())
        .args(["diff", "main", "--format", "json"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    let findings = json(&output)["findings"].clone();
    let found: Vec<String> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| format!("{} {}", finding["severity"], finding["path"]))
        .collect();
    assert_eq!(
        found,
        [
            "\"error\" \"test/apps/member/package.json\"",
            "\"note\" \"test/fixtures/copy/package.json\""
        ],
        "{}",
        stderr(&output)
    );
}

#[test]
fn online_flags_a_package_the_registry_does_not_know() {
    let repo = Repo::new();
    repo.write("requirements.txt", "flask==3.0.0\n");
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "requirements.txt",
        "flask==3.0.0\nfastjsonschema-utils==0.1\nsix==1.16.0\n",
    );
    // A third-party copy kept as test data: its packages are nobody's to look up.
    repo.write(
        "test/ecosystem/proj/requirements.txt",
        "fixture-only-package==0.1\n",
    );
    repo.commit("add deps");
    let (url, seen) = fake_registry(&["six"]);
    let output = std::process::Command::new(crate::support::binary())
        .args(["diff", "main", "--online", "--format", "json"])
        .current_dir(repo.path())
        .env("INTEGRITY_GATE_PYPI_URL", &url)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let findings = json(&output)["findings"].clone();
    let messages: Vec<String> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| format!("{} {}", finding["severity"], finding["message"]))
        .collect();
    assert!(
        messages.iter().any(|m| m.starts_with("\"error\"")
            && m.contains("fastjsonschema-utils")
            && m.contains("does not exist")),
        "{messages:?}"
    );
    assert!(
        !messages
            .iter()
            .any(|m| m.contains("six") && m.contains("does not exist")),
        "{messages:?}"
    );
    let requests = seen.lock().unwrap().clone();
    assert!(
        requests
            .iter()
            .any(|line| line.starts_with("GET /pypi/six/json")),
        "{requests:?}"
    );
    assert!(
        !requests
            .iter()
            .any(|line| line.contains("fixture-only-package")),
        "{requests:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("fixture-only-package")),
        "{messages:?}"
    );
    // Without --online nothing is asked, even with a registry configured.
    let asked_before = seen.lock().unwrap().len();
    let output = std::process::Command::new(crate::support::binary())
        .args(["diff", "main", "--format", "json"])
        .current_dir(repo.path())
        .env("INTEGRITY_GATE_PYPI_URL", &url)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(seen.lock().unwrap().len(), asked_before);
}

#[test]
fn pytest_collection_settings_come_from_base() {
    let repo = Repo::new();
    repo.write(
        "pytest.ini",
        "[pytest]\npython_files = check_*.py\npython_functions = check_\n",
    );
    repo.write(
        "tests/check_session.py",
        "def check_login():\n    assert login(\"a\")\n\n\ndef check_logout():\n    assert logout() == 204\n",
    );
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    // The change deletes a test and also redefines collection so that it would not count.
    repo.write("pytest.ini", "[pytest]\npython_files = test_*.py\n");
    repo.write(
        "tests/check_session.py",
        "def check_login():\n    assert login(\"a\")\n",
    );
    repo.commit("head");
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let findings = json(&output)["findings"].to_string();
    assert!(findings.contains("check_logout"), "{findings}");
}

#[test]
fn jest_and_vitest_collection_settings_come_from_base() {
    let repo = Repo::new();
    repo.write(
        "jest.config.js",
        "module.exports = { testMatch: ['**/*.check.js'] };\n",
    );
    repo.write(
        "vite.config.ts",
        "export default { test: { include: ['**/*.vitest.ts'] } };\n",
    );
    repo.write(
        "src/session.check.js",
        "it('logs in', () => {\n  expect(login('a')).toBe(true);\n});\n\nit('logs out', () => {\n  expect(logout()).toBe(204);\n});\n",
    );
    repo.write(
        "src/slug.vitest.ts",
        "it('slugifies', () => {\n  expect(slugify('A B')).toBe('a-b');\n});\n",
    );
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    // The change deletes a test and renames a test file out of vitest's `include`, and also
    // redefines collection so that neither would count; base settings still decide.
    repo.write(
        "jest.config.js",
        "module.exports = { testMatch: ['**/*.nothing.js'] };\n",
    );
    repo.write(
        "vite.config.ts",
        "export default { test: { include: ['**/*.ts'] } };\n",
    );
    repo.write(
        "src/session.check.js",
        "it('logs in', () => {\n  expect(login('a')).toBe(true);\n});\n",
    );
    repo.git(&["mv", "src/slug.vitest.ts", "src/slug.ts"]);
    repo.commit("head");
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let findings = json(&output)["findings"].to_string();
    assert!(findings.contains("logs out"), "{findings}");
    assert!(
        findings.contains("vitest `include`: `**/*.vitest.ts`"),
        "{findings}"
    );
}

#[test]
fn a_bug_in_the_gate_is_exit_2_with_a_clear_redacted_error() {
    use std::process::Command;
    let repo = repo_with_branch(|repo| repo.write(TEST_FILE, skipped()));
    let secret = format!("ghp_{}", "Zq8Xw2Lk5Vb9Nm3Rt7Yp1Hs4Dg6Fj0Ca2Ue8");
    let output = Command::new(crate::support::binary())
        .args(["diff", "main"])
        .current_dir(repo.path())
        .env(
            "INTEGRITY_GATE_TEST_PANIC",
            format!("a line with {secret} in it"),
        )
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("hit a bug and could not judge this change"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("test panic quoting a line with ghp_"), "{err}");
    assert!(!err.contains(&secret), "{err}");
    assert!(output.stdout.is_empty(), "{}", stdout(&output));
}

/// "Fixed the failing tests" in one commit of several is no claim about a test another commit
/// deleted: a warning that says so. Said by the only commit of the range, it is an error.
#[test]
fn a_claim_of_one_commit_among_several_is_a_warning_and_of_the_only_commit_an_error() {
    let unbacked = |messages: &[&str]| {
        let repo = Repo::new();
        repo.write("src/price.py", "def price(x):\n    return x * 2\n");
        repo.write(
            "tests/test_price.py",
            "from src.price import price\n\n\ndef test_doubles():\n    assert price(2) == 4\n\n\ndef test_zero():\n    assert price(0) == 0\n",
        );
        repo.commit("base");
        repo.git(&["checkout", "-q", "-b", "feature"]);
        repo.write(
            "tests/test_price.py",
            "from src.price import price\n\n\ndef test_doubles():\n    assert price(2) == 4\n",
        );
        repo.commit(messages[0]);
        for (n, message) in messages.iter().enumerate().skip(1) {
            repo.write(&format!("docs/note{n}.md"), "notes\n");
            repo.commit(message);
        }
        crate::support::findings_of(&repo, "unbacked-claim")
    };
    let alone = unbacked(&["Fixed the failing tests"]);
    assert_eq!(alone.len(), 1, "{alone:?}");
    assert!(alone[0].starts_with("error "), "{alone:?}");
    let among = unbacked(&["Fixed the failing tests", "Write the release notes"]);
    assert_eq!(among.len(), 1, "{among:?}");
    assert!(among[0].starts_with("warning "), "{among:?}");
    assert!(among[0].contains("one of 2 commits'"), "{among:?}");
}

/// A revert takes out the tests the reverted commit added with its feature: a warning naming
/// the commit. Named by `This reverts commit X.` or, for a squashed revert pull request, by
/// the quoted subject. A message that claims a revert while the change leaves that commit's
/// production code alone is no revert: the deletion stays an error.
#[test]
fn a_revert_that_takes_out_the_reverted_commits_test_is_a_warning_and_a_claimed_one_is_not() {
    // How the change touches the reverted commit's production file: undoing it, adding only a
    // comment beside it, or not at all (another file).
    #[derive(Clone, Copy, PartialEq)]
    enum Code {
        Reverted,
        Commented,
        Untouched,
    }
    let deleted_test = |code: Code, message: &dyn Fn(&str) -> String| {
        let repo = Repo::new();
        repo.write("src/etag.py", "def digest(body):\n    return hash(body)\n");
        repo.write(
            "tests/test_etag.py",
            "from src.etag import digest\n\n\ndef test_digest():\n    assert digest(b'a') == digest(b'a')\n",
        );
        repo.commit("base");
        repo.write(
            "src/etag.py",
            "def digest(body):\n    return hash(b''.join(body))\n",
        );
        repo.write(
            "tests/test_etag.py",
            "from src.etag import digest\n\n\ndef test_digest():\n    assert digest(b'a') == digest(b'a')\n\n\ndef test_digest_of_chunks():\n    assert digest([b'a', b'b']) == digest([b'ab'])\n",
        );
        let feature = repo.commit("fix: hash chunked streams (#5199)");
        repo.git(&["checkout", "-q", "-b", "feature"]);
        match code {
            Code::Reverted => {
                repo.write("src/etag.py", "def digest(body):\n    return hash(body)\n");
            }
            Code::Commented => repo.write(
                "src/etag.py",
                "# Digest of a body or of its chunks.\ndef digest(body):\n    return hash(b''.join(body))\n",
            ),
            Code::Untouched => repo.write("README.md", "etag\n"),
        }
        repo.write(
            "tests/test_etag.py",
            "from src.etag import digest\n\n\ndef test_digest():\n    assert digest(b'a') == digest(b'a')\n",
        );
        repo.commit(&message(feature.trim()));
        crate::support::findings_of(&repo, "deleted-test")
    };
    let by_sha = deleted_test(Code::Reverted, &|sha| {
        format!("Revert \"fix: hash chunked streams\"\n\nThis reverts commit {sha}.\n")
    });
    assert_eq!(by_sha.len(), 1, "{by_sha:?}");
    assert!(by_sha[0].starts_with("warning "), "{by_sha:?}");
    assert!(by_sha[0].contains("reverts commit"), "{by_sha:?}");
    let by_subject = deleted_test(Code::Reverted, &|_| {
        "Revert \"fix: hash chunked streams (#5199)\" (#5210)\n\nReverts org/repo#5199\n".into()
    });
    assert!(
        by_subject.len() == 1 && by_subject[0].starts_with("warning "),
        "{by_subject:?}"
    );
    // A feature that says in passing which pull request it reverts.
    let by_number = deleted_test(Code::Reverted, &|_| {
        "feat: hash whole bodies\n\nThis also reverts #5199, which hashed each chunk.\n".into()
    });
    assert!(
        by_number.len() == 1 && by_number[0].starts_with("warning "),
        "{by_number:?}"
    );
    for code in [Code::Untouched, Code::Commented] {
        let claimed = deleted_test(code, &|sha| {
            format!("Tidy the tests\n\nThis reverts commit {sha}.\n")
        });
        assert_eq!(claimed.len(), 1, "{claimed:?}");
        assert!(claimed[0].starts_with("error "), "{claimed:?}");
        let by_number = deleted_test(code, &|_| "Tidy the tests; reverts #5199\n".into());
        assert!(
            by_number.len() == 1 && by_number[0].starts_with("error "),
            "{by_number:?}"
        );
    }
    // A number no commit of the history ends with names nothing.
    let unknown = deleted_test(Code::Reverted, &|_| {
        "feat: hash whole bodies; reverts #4242\n".into()
    });
    assert!(
        unknown.len() == 1 && unknown[0].starts_with("error "),
        "{unknown:?}"
    );
}

/// A revert that gives a test back the code it had before the reverted commit: the checks
/// that commit added are a warning naming it.
#[test]
fn a_revert_that_restores_a_test_is_a_warning() {
    let repo = Repo::new();
    repo.write("src/watch.py", "def watch(path):\n    return [path]\n");
    let before = "from src.watch import watch\n\n\ndef test_watch():\n    events = watch('a')\n    assert events\n";
    repo.write("tests/test_watch.py", before);
    repo.commit("base");
    repo.write(
        "src/watch.py",
        "def watch(path):\n    return [path, path + '2']\n",
    );
    repo.write(
        "tests/test_watch.py",
        "from src.watch import watch\n\n\ndef test_watch():\n    events = watch('a')\n    assert events\n    assert events[1] == 'a2'\n",
    );
    repo.commit("chore: drop the watcher dependency (#16621)");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("src/watch.py", "def watch(path):\n    return [path]\n");
    repo.write("tests/test_watch.py", before);
    repo.commit("Revert \"chore: drop the watcher dependency\" (#16641)\n\nReverts org/kit#16621");
    let weakened = crate::support::findings_of(&repo, "weakened-assertion");
    assert_eq!(weakened.len(), 1, "{weakened:?}");
    assert!(weakened[0].starts_with("warning "), "{weakened:?}");
    assert!(weakened[0].contains("as it was before it"), "{weakened:?}");
}

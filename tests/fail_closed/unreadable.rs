//! Issue 10 items 4, 5 and 17: a change that makes a file unreadable (a stray byte, padding past
//! the size cap, an LFS pointer, a symlink, a submodule, a parse that runs past its budget) must
//! not hide what it does, and the secret scanner reads every added byte.

use crate::support::{Repo, binary, json, stderr, stdout};
use std::process::{Command, Output};

/// A token of the `github-pat` format, assembled so this file holds no literal token.
fn token() -> String {
    format!("ghp_{}", "Zq3vK8mR2xL9pW4tY7nB5cH1jD6fG0sA1bC2")
}

/// A repository whose `main` holds `base` and whose `feature` branch holds `head` on top.
fn change(base: &[(&str, &[u8])], head: &[(&str, &[u8])]) -> Repo {
    let repo = Repo::new();
    for (path, content) in base {
        repo.write(path, content);
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for (path, content) in head {
        repo.write(path, content);
    }
    repo.commit("head");
    repo
}

fn diff(repo: &Repo) -> Output {
    repo.run(&["diff", "main", "--format", "json"])
}

/// (rule, severity, path) of every finding, after checking the run did not crash.
fn findings(output: &Output) -> Vec<(String, String, String)> {
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {}",
        stderr(output)
    );
    json(output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            let field = |name: &str| finding[name].as_str().unwrap().to_string();
            (field("rule"), field("severity"), field("path"))
        })
        .collect()
}

fn has(output: &Output, rule: &str, path: &str) -> bool {
    findings(output)
        .iter()
        .any(|(r, severity, p)| r == rule && p == path && severity == "error")
}

fn assert_blocks(output: &Output, rule: &str, path: &str) {
    assert!(
        has(output, rule, path),
        "expected a {rule} error on {path}: {}",
        stdout(output)
    );
    assert_eq!(output.status.code(), Some(1), "{}", stdout(output));
}

const GUARD_BASE: &str = "function handler(req, res) {\n  if (!req.user) return res.status(401).end();\n  res.json(load(req.user));\n}\n";

/// The guard commented out, with `extra` bytes in a comment on the first line.
fn guard_head(extra: &[u8]) -> Vec<u8> {
    let mut head = b"// caf".to_vec();
    head.extend_from_slice(extra);
    head.extend_from_slice(
        b"\nfunction handler(req, res) {\n  // if (!req.user) return res.status(401).end();\n  res.json(load(req.user));\n}\n",
    );
    head
}

/// The guard commented out next to `stray` bytes is still seen, and the bytes are reported.
fn assert_guard_still_seen(stray: &[u8]) {
    let repo = change(
        &[("src/api.js", GUARD_BASE.as_bytes())],
        &[("src/api.js", &guard_head(stray))],
    );
    let output = diff(&repo);
    assert_blocks(&output, "commented-out-validation", "src/api.js");
    assert_blocks(&output, "unreadable-change", "src/api.js");
}

#[test]
fn latin1_byte_does_not_hide_a_commented_out_guard() {
    assert_guard_still_seen(b"\xe9");
}

#[test]
fn nul_byte_does_not_hide_a_commented_out_guard() {
    assert_guard_still_seen(b"\0");
}

#[test]
fn padding_past_the_size_cap_is_a_finding() {
    let padding = vec![b' '; 3 * 1024 * 1024];
    let repo = change(
        &[("src/api.js", GUARD_BASE.as_bytes())],
        &[("src/api.js", &guard_head(&padding))],
    );
    assert_blocks(&diff(&repo), "unreadable-change", "src/api.js");
}

#[test]
fn non_utf8_package_json_does_not_hide_a_neutered_test_script() {
    let base = b"{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n";
    let head = b"{\n  \"name\": \"caf\xe9\",\n  \"scripts\": {\n    \"test\": \"exit 0\"\n  }\n}\n";
    let repo = change(&[("package.json", base)], &[("package.json", head)]);
    let output = diff(&repo);
    assert_blocks(&output, "disabled-check", "package.json");
    assert_blocks(&output, "unreadable-change", "package.json");
}

#[test]
fn latin1_requirements_do_not_hide_a_typosquat() {
    let base = b"flask==3.0.0\n";
    let head = b"# d\xe9pendances\nflask==3.0.0\nreqeusts==2.31.0\n";
    let repo = change(&[("requirements.txt", base)], &[("requirements.txt", head)]);
    assert_blocks(&diff(&repo), "new-dependency", "requirements.txt");
}

#[test]
fn deeply_nested_package_json_still_has_its_dependencies_checked() {
    let base =
        b"{\n  \"name\": \"app\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\"\n  }\n}\n";
    let nested = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let head = format!(
        "{{\n  \"name\": \"app\",\n  \"config\": {nested},\n  \"dependencies\": {{\n    \"left-pad\": \"1.3.0\",\n    \"evil\": \"git+https://example.com/evil.git\"\n  }}\n}}\n"
    );
    let repo = change(
        &[("package.json", base)],
        &[("package.json", head.as_bytes())],
    );
    assert_blocks(&diff(&repo), "new-dependency", "package.json");
}

#[test]
fn symlink_replacing_a_text_file_is_a_finding() {
    let repo = change(&[("src/api.js", GUARD_BASE.as_bytes())], &[]);
    std::fs::remove_file(repo.path().join("src/api.js")).unwrap();
    std::os::unix::fs::symlink("../vendor/api.js", repo.path().join("src/api.js")).unwrap();
    repo.commit("symlink");
    assert_blocks(&diff(&repo), "unreadable-change", "src/api.js");
}

#[test]
fn lfs_pointer_replacing_a_text_file_is_a_finding() {
    let pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";
    let repo = change(
        &[("src/api.js", GUARD_BASE.as_bytes())],
        &[("src/api.js", pointer)],
    );
    assert_blocks(&diff(&repo), "unreadable-change", "src/api.js");
}

#[test]
fn submodule_replacing_a_directory_is_a_finding() {
    let repo = change(
        &[("tests/test_api.py", b"def test_a():\n    assert 1\n")],
        &[],
    );
    let commit = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["rm", "-q", "-r", "tests"]);
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{commit},tests"),
    ]);
    repo.git(&["commit", "-q", "-m", "submodule"]);
    assert_blocks(&diff(&repo), "unreadable-change", "tests");
}

#[test]
fn unreadable_file_added_where_a_rule_looks_is_a_finding() {
    let repo = change(
        &[("README.md", b"app\n")],
        &[("tests/test_login.py", b"def test_login():\n\0    pass\n")],
    );
    assert_blocks(&diff(&repo), "unreadable-change", "tests/test_login.py");
}

#[test]
fn binary_assets_stay_notes() {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&[0, 1, 2, 3, 0xff, 0xfe, 0]);
    // Raw audio has no magic number: its extension says what it is.
    let pcm = [0u8, 0, 0, 0, 0xff, 0x7f, 0, 0x80, 0x12, 0];
    let repo = change(
        &[("README.md", b"app\n")],
        &[
            ("assets/logo.png", &png),
            ("tests/fixtures/pixel.png", &png),
            ("tests/assets/voice_16khz.pcm", &pcm),
        ],
    );
    let output = diff(&repo);
    assert_eq!(findings(&output), []);
    assert_eq!(output.status.code(), Some(0));
    // Notes, not silence: each asset is still listed.
    let notes = json(&output)["notes"].to_string();
    for path in [
        "assets/logo.png",
        "tests/fixtures/pixel.png",
        "tests/assets/voice_16khz.pcm",
    ] {
        assert!(notes.contains(path), "{notes}");
    }
}

/// A package manager's committed release (Yarn Berry's `.yarn/releases/yarn-x.cjs`, minified
/// and over the size cap): its size is a note and its `apiKey:"…"`/`password: "` code is no
/// credential, but a real token added in it is still found (jestjs/jest 5ed18751a8).
#[test]
fn a_committed_yarn_release_is_a_note_but_a_token_in_it_still_blocks() {
    let bundle = |extra: &str| {
        let mut text = "var a=1;".repeat(300_000);
        text.push_str("\nmatchMessage:\"Hit Enter to retry.\",t==null&&(t=\"Input new password: \"),m=n.l7Qz2Vx9,Kp=\"\n");
        text.push_str("sK={appId:\"OFCNCOG2CU\",apiKey:\"6fe4476ee5a1832882e326b506d14126\",indexName:\"npm-search\"}\n");
        text.push_str(extra);
        text.into_bytes()
    };
    let path = ".yarn/releases/yarn-4.18.0.cjs";
    let plain = bundle("");
    assert!(plain.len() > 2 * 1024 * 1024);
    let repo = change(&[("README.md", b"app\n")], &[(path, &plain)]);
    let output = diff(&repo);
    let found = findings(&output);
    assert!(
        found.iter().all(|(_, severity, _)| severity == "note"),
        "{found:?}"
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let with_token = bundle(&format!("var GITHUB_TOKEN=\"{}\";\n", token()));
    assert_secret_found(path, &with_token);
}

/// A secret in a file the old classification refused to read is still found.
fn assert_secret_found(path: &str, head: &[u8]) {
    let repo = change(&[("README.md", b"app\n")], &[(path, head)]);
    let output = diff(&repo);
    assert_blocks(&output, "leaked-secret", path);
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    assert!(!printed.contains(&token()), "the token was printed in full");
}

#[test]
fn secret_after_a_nul_byte_is_found() {
    assert_secret_found(
        "config/settings.dat",
        format!("\0\0header\nGITHUB_TOKEN={}\n", token()).as_bytes(),
    );
}

#[test]
fn secret_in_a_non_utf8_file_is_found() {
    let mut head = b"caf\xe9\n".to_vec();
    head.extend_from_slice(format!("token = \"{}\"\n", token()).as_bytes());
    assert_secret_found("deploy/env.txt", &head);
}

#[test]
fn secret_past_the_size_cap_is_found() {
    let mut head = "x = 1\n".repeat(600_000).into_bytes();
    head.extend_from_slice(format!("token = \"{}\"\n", token()).as_bytes());
    assert!(head.len() > 3 * 1024 * 1024);
    assert_secret_found("deploy/big.txt", &head);
}

#[test]
fn secret_in_an_lfs_pointer_lookalike_is_found() {
    let head = format!(
        "version https://git-lfs.github.com/spec/v1\noid sha256:00\ntoken {}\n",
        token()
    );
    assert_secret_found("deploy/blob.bin", head.as_bytes());
}

#[test]
fn secret_past_one_mebibyte_of_a_long_line_is_found() {
    let head = format!(
        "var a = \"{}\"; var t = \"{}\";\n",
        "a ".repeat(700_000),
        token()
    );
    assert_secret_found("dist/bundle.txt", head.as_bytes());
}

#[test]
fn secret_in_a_symlink_target_is_found() {
    let repo = change(&[("README.md", b"app\n")], &[]);
    std::os::unix::fs::symlink(
        format!("/tmp/{}", token()),
        repo.path().join("link-to-secret"),
    )
    .unwrap();
    repo.commit("link");
    let output = diff(&repo);
    assert_blocks(&output, "leaked-secret", "link-to-secret");
    assert!(!stdout(&output).contains(&token()));
}

#[test]
fn file_past_the_parse_budget_is_a_finding_and_the_run_goes_on() {
    let mut big = String::from("function f(a) {\n");
    // About 1.8 MB: well past a 20-ms budget in debug and release builds alike.
    for index in 0..55_000 {
        big.push_str(&format!("  if (a === {index}) return {index};\n"));
    }
    big.push_str("}\n");
    let repo = change(
        &[
            ("src/api.js", GUARD_BASE.as_bytes()),
            ("README.md", b"app\n"),
        ],
        &[
            ("src/big.js", big.as_bytes()),
            ("src/api.js", &guard_head(b"")),
        ],
    );
    let output = Command::new(binary())
        .args(["diff", "main", "--format", "json"])
        .current_dir(repo.path())
        .env("INTEGRITY_GATE_PARSE_BUDGET_MS", "20")
        .output()
        .unwrap();
    assert_blocks(&output, "unreadable-change", "src/big.js");
    // The run goes on: the other file is still judged.
    assert_blocks(&output, "commented-out-validation", "src/api.js");
    // Without the budget, the file parses and nothing hides it.
    let output = diff(&repo);
    assert!(!has(&output, "unreadable-change", "src/big.js"));
}

#[test]
fn manifest_that_no_longer_parses_is_a_finding() {
    let base =
        b"{\n  \"name\": \"app\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\"\n  }\n}\n";
    let head = b"{\n  \"name\": \"app\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\",\n    \"evil\": \"git+https://example.com/evil.git\"\n  \n}\n";
    let repo = change(&[("package.json", base)], &[("package.json", head)]);
    assert_blocks(&diff(&repo), "new-dependency", "package.json");
}

#[test]
fn deeply_nested_package_json_still_has_its_coverage_threshold_checked() {
    let package = |lines: u32, extra: &str| {
        format!(
            "{{\n  \"name\": \"app\",{extra}\n  \"jest\": {{\n    \"coverageThreshold\": {{\n      \"global\": {{ \"lines\": {lines} }}\n    }}\n  }}\n}}\n"
        )
    };
    let nested = format!("\n  \"config\": {}{},", "[".repeat(200), "]".repeat(200));
    let repo = change(
        &[("package.json", package(90, "").as_bytes())],
        &[("package.json", package(10, &nested).as_bytes())],
    );
    let output = diff(&repo);
    assert_blocks(&output, "weakened-coverage", "package.json");
    // Read, not refused: the finding names the lowered threshold itself.
    assert!(stdout(&output).contains("90 → 10"), "{}", stdout(&output));
}

#[test]
fn uncommitted_large_file_and_symlink_are_scanned_with_worktree() {
    let repo = change(&[("README.md", b"app\n")], &[]);
    let mut big = "x = 1\n".repeat(600_000).into_bytes();
    big.extend_from_slice(format!("token = \"{}\"\n", token()).as_bytes());
    repo.write("deploy/big.txt", &big);
    std::os::unix::fs::symlink(format!("/tmp/{}", token()), repo.path().join("link")).unwrap();
    let output = repo.run(&["diff", "main", "--worktree", "--format", "json"]);
    assert_blocks(&output, "leaked-secret", "deploy/big.txt");
    assert_blocks(&output, "leaked-secret", "link");
    assert!(!stdout(&output).contains(&token()));
}

/// A lockfile that outgrows the general 2 MiB cap is still read whole (honest monorepos have
/// such lockfiles): no `unreadable-change`, and a package moved to another host still blocks.
#[test]
fn a_lockfile_past_two_mebibytes_is_still_read() {
    let entry = |name: &str, host: &str| {
        format!(
            "    \"node_modules/{name}\": {{\"version\": \"1.0.0\", \"resolved\": \
             \"https://{host}/{name}/-/{name}-1.0.0.tgz\"}},\n"
        )
    };
    let lock = |moved_host: &str| {
        let mut text = String::from("{\n  \"lockfileVersion\": 3,\n  \"packages\": {\n");
        for index in 0..30_000 {
            text.push_str(&entry(&format!("pkg-{index}"), "registry.npmjs.org"));
        }
        text.push_str(&entry("left-pad", moved_host));
        text.push_str("    \"\": {\"name\": \"app\"}\n  }\n}\n");
        text
    };
    let base = lock("registry.npmjs.org");
    assert!(base.len() > 2 * 1024 * 1024);
    let repo = change(
        &[("package-lock.json", base.as_bytes())],
        &[("package-lock.json", lock("evil.example.com").as_bytes())],
    );
    let output = diff(&repo);
    let found = findings(&output);
    assert!(
        !found.iter().any(|(rule, _, _)| rule == "unreadable-change"),
        "{found:?}"
    );
    assert_blocks(&output, "new-dependency", "package-lock.json");
}

/// Outside code, configuration and tests only the secret scanner reads a file, and it still
/// does: a stray byte in documentation is shown as a warning, not a block.
#[test]
fn a_stray_byte_in_documentation_is_a_warning() {
    let repo = change(
        &[("docs/guide.txt", b"Caf\xc3\xa9 guide\n")],
        &[("docs/guide.txt", b"Caf\xe9 guide\n")],
    );
    let output = diff(&repo);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(findings(&output).contains(&(
        "unreadable-change".to_string(),
        "warning".to_string(),
        "docs/guide.txt".to_string()
    )));
}

/// A new link to another file of the repository (one shared build config linked into every
/// package) hides nothing, since the gate reads that file where it stands; a new link out of
/// the repository still blocks.
#[test]
fn a_new_link_inside_the_repository_is_not_a_finding() {
    let repo = change(&[("scripts/build.config.js", b"export default {};\n")], &[]);
    std::fs::create_dir_all(repo.path().join("packages/a")).unwrap();
    std::os::unix::fs::symlink(
        "../../scripts/build.config.js",
        repo.path().join("packages/a/build.config.js"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../../../outside/build.config.js",
        repo.path().join("packages/a/other.config.js"),
    )
    .unwrap();
    repo.commit("links");
    let output = diff(&repo);
    let unreadable: Vec<String> = findings(&output)
        .into_iter()
        .filter(|(rule, _, _)| rule == "unreadable-change")
        .map(|(_, _, path)| path)
        .collect();
    assert_eq!(unreadable, ["packages/a/other.config.js"]);
}

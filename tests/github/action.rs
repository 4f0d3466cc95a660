//! The composite action and the pre-commit hook definition: parsed and checked for script
//! injection, and the install/run scripts executed against a fake runner environment, the
//! install script downloading with the real curl from a stand-in release server on 127.0.0.1
//! that serves archives it built itself.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn crate_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(crate_file(rel)).unwrap();
    serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn steps(action: &Value) -> Vec<Value> {
    action["runs"]["steps"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

const INPUTS: [&str; 11] = [
    "token",
    "base",
    "config",
    "fail-on",
    "check-run",
    "annotations",
    "summary",
    "sarif",
    "version",
    "from-source",
    "args",
];
const OUTPUTS: [&str; 5] = [
    "conclusion",
    "findings",
    "blocking",
    "json-file",
    "sarif-file",
];

#[test]
fn action_declares_the_interface() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let inputs: BTreeSet<&str> = action["inputs"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(inputs, INPUTS.into_iter().collect());
    assert_eq!(action["inputs"]["token"]["default"], "${{ github.token }}");
    let outputs: BTreeSet<&str> = action["outputs"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(outputs, OUTPUTS.into_iter().collect());
    for name in OUTPUTS {
        assert_eq!(
            action["outputs"][name]["value"],
            format!("${{{{ steps.gate.outputs.{name} }}}}"),
            "output {name}"
        );
    }
}

#[test]
fn run_scripts_never_interpolate_expressions() {
    let action = yaml("action.yml");
    let mut runs = 0;
    for step in steps(&action) {
        if let Some(run) = step["run"].as_str() {
            runs += 1;
            // Stricter than the rule (no `${{ inputs.` / `${{ github.event`): no expression at all.
            assert!(!run.contains("${{"), "expression inside run: {run}");
            assert!(
                step["shell"].is_string(),
                "composite run steps need a shell: {step}"
            );
        }
    }
    assert!(runs >= 2);
}

#[test]
fn every_input_reaches_scripts_through_env_and_uses_are_pinned() {
    let action = yaml("action.yml");
    let mut used = BTreeSet::new();
    for step in steps(&action) {
        if let Some(env) = step["env"].as_object() {
            for value in env.values() {
                let v = value.as_str().unwrap_or_default();
                if let Some(name) = v
                    .strip_prefix("${{ inputs.")
                    .and_then(|r| r.strip_suffix(" }}"))
                {
                    assert!(INPUTS.contains(&name), "unknown input {name}");
                    used.insert(name.to_string());
                }
            }
        }
        if let Some(uses) = step["uses"].as_str() {
            let (_, rev) = uses.split_once('@').unwrap_or((uses, ""));
            assert!(
                rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit()),
                "`{uses}` must be pinned by commit SHA"
            );
        }
        // `with:` may carry step outputs, but never raw inputs or event text.
        if let Some(with) = step["with"].as_object() {
            for v in with.values() {
                let v = v.as_str().unwrap_or_default();
                assert!(!v.contains("github.event"), "{v}");
            }
        }
    }
    let expected: BTreeSet<String> = INPUTS.iter().map(|s| s.to_string()).collect();
    assert_eq!(used, expected, "every input must be passed through env");
    // The token goes to the gate step only.
    let token_steps = steps(&action)
        .iter()
        .filter(|s| {
            s["env"]
                .as_object()
                .is_some_and(|e| e.values().any(|v| v == "${{ inputs.token }}"))
        })
        .count();
    assert_eq!(token_steps, 1);
}

/// Every third-party action in the workflows (and the action) is pinned by a full commit SHA
/// with the release it was read from as a comment; local actions (`./…`) are the only others.
#[test]
fn workflows_pin_every_action_by_commit_sha() {
    let dir = crate_file(".github/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    let names: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    assert_eq!(names, ["ci.yml", "release.yml"]);
    files.push(crate_file("action.yml"));
    let mut pinned = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let Some(uses) = line
                .trim_start()
                .trim_start_matches("- ")
                .strip_prefix("uses: ")
            else {
                continue;
            };
            let (action, comment) = uses.split_once(" # ").unwrap_or((uses, ""));
            if action.starts_with("./") {
                continue;
            }
            let (_, rev) = action.split_once('@').unwrap_or((action, ""));
            assert!(
                rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit()),
                "{}: `{action}` must be pinned by commit SHA",
                file.display()
            );
            assert!(
                comment.starts_with('v'),
                "{}: `{action}` needs its version as a comment",
                file.display()
            );
            pinned += 1;
        }
    }
    assert!(pinned >= 10, "{pinned}");
}

#[test]
fn pre_commit_hook_definition() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hook = &hooks[0];
    assert_eq!(hook["id"], "integrity-gate");
    assert_eq!(hook["pass_filenames"], false);
    assert_eq!(hook["always_run"], true);
    assert_eq!(hook["minimum_pre_commit_version"], "3.2.0");
    let stages: Vec<&str> = hook["stages"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(stages.contains(&"pre-push"), "{stages:?}");
    assert!(!stages.contains(&"push"), "deprecated stage name");
    assert!(
        hook["entry"]
            .as_str()
            .is_some_and(|e| e.starts_with("integrity-gate ") && !e.contains('$'))
    );
    assert_eq!(
        hook["language"], "python",
        "no Rust toolchain for hook users"
    );
}

fn toml_file(rel: &str) -> toml::Table {
    let text = std::fs::read_to_string(crate_file(rel)).unwrap();
    text.parse::<toml::Table>()
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// pre-commit installs the root pyproject.toml: a shim pinning the wheel of this very
/// version, which python/pyproject.toml builds from Cargo.toml with the binary inside.
#[test]
fn python_packages_follow_the_crate_version() {
    let version = env!("CARGO_PKG_VERSION");
    let shim = toml_file("pyproject.toml");
    assert_eq!(shim["project"]["version"].as_str(), Some(version));
    let pin = format!("integrity-gate=={version}");
    assert_eq!(
        shim["project"]["dependencies"]
            .as_array()
            .map(|deps| deps.iter().filter_map(|d| d.as_str()).collect::<Vec<_>>()),
        Some(vec![pin.as_str()])
    );
    let wheel = toml_file("python/pyproject.toml");
    assert_eq!(wheel["project"]["name"].as_str(), Some("integrity-gate"));
    assert_eq!(
        wheel["build-system"]["build-backend"].as_str(),
        Some("maturin")
    );
    let maturin = &wheel["tool"]["maturin"];
    assert_eq!(maturin["bindings"].as_str(), Some("bin"));
    assert_eq!(maturin["manifest-path"].as_str(), Some("../Cargo.toml"));
}

/// A fake runner: an action directory with its own Cargo.toml/lock and checksum table, a bin
/// directory with stub tools, and the files Actions provides.
struct FakeRunner {
    tmp: tempfile::TempDir,
}

impl FakeRunner {
    fn new(checksums: &str) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let action = tmp.path().join("action-src");
        std::fs::create_dir_all(action.join("action")).unwrap();
        std::fs::write(
            action.join("Cargo.toml"),
            "[package]\nname = \"integrity-gate\"\nversion = \"0.3.1\"\n\n[dependencies]\nfoo = { version = \"9.9.9\" }\n",
        )
        .unwrap();
        std::fs::write(action.join("Cargo.lock"), "# lock\n").unwrap();
        std::fs::write(action.join("action/checksums.txt"), checksums).unwrap();
        for d in ["bin", "temp", "toolcache"] {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        FakeRunner { tmp }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    fn stub(&self, name: &str, body: &str) {
        let p = self.path("bin").join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    /// A cargo that records its arguments and "builds" a binary into CARGO_TARGET_DIR.
    fn stub_cargo(&self) {
        let log = self.path("cargo.log");
        self.stub(
            "cargo",
            &format!(
                "echo \"$@\" >> '{}'\nmkdir -p \"$CARGO_TARGET_DIR/release\"\nprintf 'built-from-source' > \"$CARGO_TARGET_DIR/release/integrity-gate\"",
                log.display()
            ),
        );
    }

    fn script(&self, script: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(crate_file(script)).args(args).env_clear();
        cmd.env(
            "PATH",
            format!("{}:/usr/bin:/bin", self.path("bin").display()),
        )
        .env("GITHUB_ACTION_PATH", self.path("action-src"))
        .env("GITHUB_OUTPUT", self.path("output.txt"))
        .env("GITHUB_PATH", self.path("path.txt"))
        .env("RUNNER_TEMP", self.path("temp"))
        .env("RUNNER_TOOL_CACHE", self.path("toolcache"))
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    fn outputs(&self) -> std::collections::HashMap<String, String> {
        std::fs::read_to_string(self.path("output.txt"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                l.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect()
    }
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn install_without_prebuilt_asset_builds_from_source() {
    let fake = FakeRunner::new("# no releases yet\n");
    fake.stub_cargo();
    ok(&fake.script(
        "action/install.sh",
        &["plan"],
        &[("IG_ACTION_REPOSITORY", "acme/integrity-gate")],
    ));
    let plan = fake.outputs();
    assert_eq!(plan["mode"], "source");
    assert_eq!(plan["version"], "0.3.1");
    assert!(
        plan["cache-key"].starts_with("integrity-gate-0.3.1-Linux-X64-source-"),
        "{}",
        plan["cache-key"]
    );

    ok(&fake.script("action/install.sh", &["install"], &[]));
    let cargo = std::fs::read_to_string(fake.path("cargo.log")).unwrap();
    let manifest = fake.path("action-src/Cargo.toml");
    assert_eq!(
        cargo.trim(),
        format!(
            "build --release --locked --manifest-path {}",
            manifest.display()
        )
    );
    let bin = PathBuf::from(&fake.outputs()["bin"]);
    assert_eq!(std::fs::read_to_string(&bin).unwrap(), "built-from-source");
    assert!(bin.starts_with(fake.path("toolcache")));
    let path_file = std::fs::read_to_string(fake.path("path.txt")).unwrap();
    assert_eq!(
        path_file.trim(),
        bin.parent().unwrap().display().to_string()
    );

    // A second install (cache hit) does not build again.
    ok(&fake.script("action/install.sh", &["install"], &[]));
    assert_eq!(
        std::fs::read_to_string(fake.path("cargo.log"))
            .unwrap()
            .lines()
            .count(),
        1
    );
}

fn release_archive(fake: &FakeRunner) -> (PathBuf, String) {
    let stage = fake.path("stage");
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::write(stage.join("integrity-gate"), "prebuilt-binary").unwrap();
    let archive = fake.path("asset.tar.gz");
    let status = Command::new("tar")
        .args([
            "-czf",
            archive.to_str().unwrap(),
            "-C",
            stage.to_str().unwrap(),
            "integrity-gate",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let sha = sha256_hex(&std::fs::read(&archive).unwrap(), &fake.path("temp"));
    (archive, sha)
}

fn stub_curl(fake: &FakeRunner, archive: &Path) {
    // Writes the prepared archive to the -o path and records the URL.
    fake.stub(
        "curl",
        &format!(
            "while [ $# -gt 0 ]; do case \"$1\" in -o) out=\"$2\"; shift 2;; http*) echo \"$1\" > '{}'; shift;; *) shift;; esac; done\ncp '{}' \"$out\"",
            fake.path("curl.log").display(),
            archive.display()
        ),
    );
}

#[test]
fn install_uses_the_pinned_release_asset_when_listed() {
    let fake = FakeRunner::new("");
    let (archive, sha) = release_archive(&fake);
    std::fs::write(
        fake.path("action-src/action/checksums.txt"),
        format!("# table\n0.3.1 x86_64-unknown-linux-musl {sha}\n"),
    )
    .unwrap();
    fake.stub_cargo();
    stub_curl(&fake, &archive);
    let env = [("IG_ACTION_REPOSITORY", "acme/integrity-gate")];
    ok(&fake.script("action/install.sh", &["plan"], &env));
    assert_eq!(fake.outputs()["mode"], "prebuilt");
    ok(&fake.script("action/install.sh", &["install"], &env));
    let bin = PathBuf::from(&fake.outputs()["bin"]);
    assert_eq!(std::fs::read_to_string(bin).unwrap(), "prebuilt-binary");
    assert!(
        !fake.path("cargo.log").exists(),
        "cargo must not run when a pinned asset exists"
    );
    let url = std::fs::read_to_string(fake.path("curl.log")).unwrap();
    assert_eq!(
        url.trim(),
        "https://github.com/acme/integrity-gate/releases/download/v0.3.1/integrity-gate-x86_64-unknown-linux-musl.tar.gz"
    );
}

#[test]
fn install_without_cargo_or_asset_explains_what_to_add() {
    let fake = FakeRunner::new("");
    let out = fake.script(
        "action/install.sh",
        &["install"],
        &[("RUNNER_OS", "FreeBSD")],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("add a Rust toolchain step"));
}

#[test]
fn install_rejects_odd_version_inputs() {
    let fake = FakeRunner::new("");
    fake.stub_cargo();
    for bad in ["../../etc", "1.2", "$(id)", "1.2.3; rm -rf /"] {
        let out = fake.script("action/install.sh", &["plan"], &[("IG_VERSION", bad)]);
        assert!(!out.status.success(), "{bad}");
    }
    ok(&fake.script("action/install.sh", &["plan"], &[("IG_VERSION", "v0.3.1")]));
    ok(&fake.script("action/install.sh", &["plan"], &[("IG_VERSION", "0.4.0")]));
    assert!(
        std::fs::read_to_string(fake.path("output.txt"))
            .unwrap()
            .contains("mode=crates")
    );
}

#[test]
fn run_passes_inputs_as_literal_arguments() {
    let fake = FakeRunner::new("");
    let args_log = fake.path("args.log");
    fake.stub(
        "fake-gate",
        &format!("for a in \"$@\"; do echo \"[$a]\"; done > '{}'\necho \"token=$INTEGRITY_GATE_TOKEN\" >> '{}'", args_log.display(), args_log.display()),
    );
    let gate = fake.path("bin/fake-gate");
    let pwned = fake.path("pwned");
    let evil = format!("$(touch {})", pwned.display());
    let out = fake.script(
        "action/run.sh",
        &[],
        &[
            ("IG_BIN", gate.to_str().unwrap()),
            ("IG_BASE", &evil),
            ("IG_FAIL_ON", "warning"),
            ("IG_CHECK_RUN", "false"),
            ("IG_SARIF", "false"),
            ("IG_ARGS", "--verbose   --max-annotations 10 *"),
            ("INTEGRITY_GATE_TOKEN", "tok"),
        ],
    );
    ok(&out);
    assert!(!pwned.exists(), "an input was evaluated by the shell");
    let seen = std::fs::read_to_string(&args_log).unwrap();
    let args: Vec<&str> = seen.lines().filter(|l| l.starts_with('[')).collect();
    let expected_json = format!("[{}]", fake.path("temp/integrity-gate.json").display());
    let expected_base = format!("[{evil}]");
    assert_eq!(
        args,
        [
            "[github]",
            "[--base]",
            expected_base.as_str(),
            "[--fail-on]",
            "[warning]",
            "[--check-run]",
            "[false]",
            "[--annotations]",
            "[true]",
            "[--summary]",
            "[true]",
            "[--json]",
            expected_json.as_str(),
            "[--verbose]",
            "[--max-annotations]",
            "[10]",
            "[*]",
        ]
    );
    assert!(seen.contains("token=tok"));
    // Default SARIF path when the input is empty.
    ok(&fake.script("action/run.sh", &[], &[("IG_BIN", gate.to_str().unwrap())]));
    let seen = std::fs::read_to_string(&args_log).unwrap();
    assert!(
        seen.contains(&format!(
            "[{}]",
            fake.path("temp/integrity-gate.sarif").display()
        )),
        "{seen}"
    );
}

/// Every runner the release covers: (RUNNER_OS, RUNNER_ARCH, target, archive suffix).
const RUNNERS: [(&str, &str, &str, &str); 5] = [
    ("Linux", "X64", "x86_64-unknown-linux-musl", ".tar.gz"),
    ("Linux", "ARM64", "aarch64-unknown-linux-musl", ".tar.gz"),
    ("macOS", "X64", "x86_64-apple-darwin", ".tar.gz"),
    ("macOS", "ARM64", "aarch64-apple-darwin", ".tar.gz"),
    ("Windows", "X64", "x86_64-pc-windows-msvc", ".zip"),
];

/// A release archive laid out as the release workflow packs it
/// (`integrity-gate-<target>/integrity-gate[.exe]` plus the docs), whose "binary" is `binary`.
fn target_archive(dir: &Path, target: &str, suffix: &str, binary: &str) -> Vec<u8> {
    let name = format!("integrity-gate-{target}");
    let stage = dir.join(format!("stage-{target}"));
    std::fs::create_dir_all(stage.join(&name)).unwrap();
    let exe = if suffix == ".zip" { ".exe" } else { "" };
    std::fs::write(
        stage.join(&name).join(format!("integrity-gate{exe}")),
        binary,
    )
    .unwrap();
    std::fs::write(stage.join(&name).join("README.md"), "readme").unwrap();
    let archive = dir.join(format!("{name}{suffix}"));
    let status = if suffix == ".zip" {
        Command::new("zip")
            .arg("-qr")
            .arg(&archive)
            .arg(&name)
            .current_dir(&stage)
            .status()
    } else {
        Command::new("tar")
            .arg("-czf")
            .arg(&archive)
            .arg("-C")
            .arg(&stage)
            .arg(&name)
            .status()
    };
    assert!(status.unwrap().success(), "packing {target}");
    std::fs::read(archive).unwrap()
}

/// The SHA-256 of `bytes` in hex, from `sha256sum` or (macOS) `shasum -a 256`, as the
/// install script computes it.
fn sha256_hex(bytes: &[u8], dir: &Path) -> String {
    let file = dir.join("to-hash");
    std::fs::write(&file, bytes).unwrap();
    let out = Command::new("sha256sum")
        .arg(&file)
        .output()
        .or_else(|_| {
            Command::new("shasum")
                .args(["-a", "256"])
                .arg(&file)
                .output()
        })
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A stand-in release: `assets` maps `/v<version>/<file>` to its bytes, anything else is 404.
fn release_server(
    assets: std::collections::HashMap<String, Vec<u8>>,
) -> (String, crate::support::Requests) {
    crate::support::serve(32, move |request_line| {
        let path = request_line.split_whitespace().nth(1).unwrap_or_default();
        match assets.get(path) {
            Some(bytes) => ("200 OK", bytes.clone()),
            None => ("404 Not Found", b"Not Found".to_vec()),
        }
    })
}

/// The archives of every target for `version`, their checksum lines, and the server.
fn release(fake: &FakeRunner, version: &str) -> (String, String, crate::support::Requests) {
    let mut assets = std::collections::HashMap::new();
    let mut checksums = String::from("# version target sha256\n");
    for (_, _, target, suffix) in RUNNERS {
        let binary = format!("binary for {target}");
        let bytes = target_archive(&fake.path("release"), target, suffix, &binary);
        checksums.push_str(&format!(
            "{version} {target} {}\n",
            sha256_hex(&bytes, &fake.path("temp"))
        ));
        assets.insert(
            format!("/v{version}/integrity-gate-{target}{suffix}"),
            bytes,
        );
    }
    let (url, seen) = release_server(assets);
    (url, checksums, seen)
}

/// Every file under the fake runner's tool cache and temp that looks like the gate's binary.
fn installed_binaries(fake: &FakeRunner) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![fake.path("toolcache"), fake.path("temp")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("integrity-gate"))
            {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn install_downloads_and_verifies_the_asset_for_each_runner() {
    for (os, arch, target, suffix) in RUNNERS {
        let fake = FakeRunner::new("");
        let (url, checksums, seen) = release(&fake, "0.3.1");
        std::fs::write(fake.path("action-src/action/checksums.txt"), &checksums).unwrap();
        fake.stub_cargo();
        let env = [
            ("RUNNER_OS", os),
            ("RUNNER_ARCH", arch),
            ("IG_ACTION_REPOSITORY", "acme/integrity-gate"),
            ("IG_RELEASE_BASE_URL", url.as_str()),
        ];
        ok(&fake.script("action/install.sh", &["plan"], &env));
        assert_eq!(fake.outputs()["mode"], "prebuilt", "{os}/{arch}");
        ok(&fake.script("action/install.sh", &["install"], &env));
        assert_eq!(
            *seen.lock().unwrap(),
            [format!(
                "GET /v0.3.1/integrity-gate-{target}{suffix} HTTP/1.1"
            )],
            "{os}/{arch}"
        );
        let bin = PathBuf::from(&fake.outputs()["bin"]);
        let exe = if os == "Windows" { ".exe" } else { "" };
        assert!(
            bin.ends_with(format!("bin/integrity-gate{exe}")),
            "{}",
            bin.display()
        );
        assert_eq!(
            std::fs::read_to_string(&bin).unwrap(),
            format!("binary for {target}")
        );
        assert!(!fake.path("cargo.log").exists(), "{os}/{arch}: no build");
    }
}

#[test]
fn install_refuses_a_release_asset_whose_checksum_differs() {
    let fake = FakeRunner::new("");
    let (_, checksums, _) = release(&fake, "0.3.1");
    std::fs::write(fake.path("action-src/action/checksums.txt"), &checksums).unwrap();
    // The server hands out another, well-formed archive under the pinned name: a swapped
    // release asset.
    let asset = "/v0.3.1/integrity-gate-x86_64-unknown-linux-musl.tar.gz";
    let target = "x86_64-unknown-linux-musl";
    let swapped = target_archive(&fake.path("evil"), target, ".tar.gz", "swapped binary");
    let (url, seen) = release_server(std::collections::HashMap::from([(
        asset.to_string(),
        swapped,
    )]));
    fake.stub_cargo();
    let env = [
        ("IG_ACTION_REPOSITORY", "acme/integrity-gate"),
        ("IG_RELEASE_BASE_URL", url.as_str()),
    ];
    ok(&fake.script("action/install.sh", &["plan"], &env));
    let out = fake.script("action/install.sh", &["install"], &env);
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("checksum mismatch"), "{stderr}");
    assert_eq!(seen.lock().unwrap().len(), 1);
    assert!(!fake.outputs().contains_key("bin"));
    assert!(!fake.path("path.txt").exists(), "nothing added to PATH");
    assert_eq!(installed_binaries(&fake), Vec::<PathBuf>::new());
    assert!(
        !fake.path("cargo.log").exists(),
        "a mismatch is refused, not papered over with a build"
    );
}

#[test]
fn install_builds_from_source_when_the_release_lacks_the_asset() {
    let fake = FakeRunner::new("");
    let (_, checksums, _) = release(&fake, "0.3.1");
    std::fs::write(fake.path("action-src/action/checksums.txt"), &checksums).unwrap();
    let (url, seen) = release_server(std::collections::HashMap::new());
    fake.stub_cargo();
    let env = [
        ("IG_ACTION_REPOSITORY", "acme/integrity-gate"),
        ("IG_RELEASE_BASE_URL", url.as_str()),
    ];
    ok(&fake.script("action/install.sh", &["plan"], &env));
    assert_eq!(fake.outputs()["mode"], "prebuilt");
    let out = fake.script("action/install.sh", &["install"], &env);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("building from source instead"));
    assert_eq!(
        *seen.lock().unwrap(),
        ["GET /v0.3.1/integrity-gate-x86_64-unknown-linux-musl.tar.gz HTTP/1.1"]
    );
    let cargo = std::fs::read_to_string(fake.path("cargo.log")).unwrap();
    assert!(cargo.starts_with("build --release --locked"), "{cargo}");
    let bin = PathBuf::from(&fake.outputs()["bin"]);
    assert_eq!(std::fs::read_to_string(bin).unwrap(), "built-from-source");
}

#[test]
fn install_takes_another_pinned_version_from_the_release_and_builds_when_asked() {
    let fake = FakeRunner::new("");
    let (url, checksums, seen) = release(&fake, "0.2.0");
    std::fs::write(fake.path("action-src/action/checksums.txt"), &checksums).unwrap();
    fake.stub_cargo();
    let env = [
        ("IG_VERSION", "v0.2.0"),
        ("IG_ACTION_REPOSITORY", "acme/integrity-gate"),
        ("IG_RELEASE_BASE_URL", url.as_str()),
    ];
    ok(&fake.script("action/install.sh", &["plan"], &env));
    assert_eq!(fake.outputs()["mode"], "prebuilt");
    ok(&fake.script("action/install.sh", &["install"], &env));
    assert_eq!(
        seen.lock().unwrap().last().map(String::as_str),
        Some("GET /v0.2.0/integrity-gate-x86_64-unknown-linux-musl.tar.gz HTTP/1.1")
    );

    // `from-source: true` builds although an asset is pinned: the action's own version from
    // its checkout, another version from crates.io.
    for (version, mode) in [("", "source"), ("0.2.0", "crates")] {
        let fake = FakeRunner::new(&checksums.replace("0.2.0", "0.3.1"));
        fake.stub_cargo();
        let env = [
            ("IG_VERSION", version),
            ("IG_FROM_SOURCE", "true"),
            ("IG_ACTION_REPOSITORY", "acme/integrity-gate"),
            ("IG_RELEASE_BASE_URL", url.as_str()),
        ];
        ok(&fake.script("action/install.sh", &["plan"], &env));
        assert_eq!(fake.outputs()["mode"], mode, "version {version:?}");
    }
    let requests = seen.lock().unwrap().len();
    assert_eq!(requests, 1, "building never downloads");
}

#[test]
fn install_rejects_a_plain_http_release_off_the_loopback_and_bad_inputs() {
    let fake = FakeRunner::new("0.3.1 x86_64-unknown-linux-musl not-a-sha\n");
    let out = fake.script(
        "action/install.sh",
        &["plan"],
        &[("IG_RELEASE_BASE_URL", "https://example.invalid/r")],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed"));
    let fake = FakeRunner::new("");
    for (name, value) in [
        ("IG_RELEASE_BASE_URL", "http://example.com/releases"),
        ("IG_FROM_SOURCE", "yes"),
    ] {
        let out = fake.script("action/install.sh", &["plan"], &[(name, value)]);
        assert!(!out.status.success(), "{name}={value}");
    }
}

#[test]
fn a_source_build_is_cached_per_source_tree() {
    let fake = FakeRunner::new("");
    std::fs::create_dir_all(fake.path("action-src/src")).unwrap();
    std::fs::write(fake.path("action-src/src/main.rs"), "fn main() {}\n").unwrap();
    let key = || {
        let _ = std::fs::remove_file(fake.path("output.txt"));
        ok(&fake.script("action/install.sh", &["plan"], &[]));
        fake.outputs()["cache-key"].clone()
    };
    let first = key();
    assert_eq!(first, key(), "the same tree, the same key");
    std::fs::write(
        fake.path("action-src/src/main.rs"),
        "fn main() { todo!() }\n",
    )
    .unwrap();
    assert_ne!(first, key(), "a changed source is not served an old build");
}

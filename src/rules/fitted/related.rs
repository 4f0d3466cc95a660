//! Where the tests of a production file live by convention, so that the tests a change does not
//! touch still link to the code it changes (the usual shape of a fitted change: the failing
//! test stays as it is and the code is bent to it).

use crate::lang::Language;

/// Most related test files read per change.
pub const MAX_FILES: usize = 64;
/// Largest related test file read, in bytes.
pub const MAX_BYTES: u64 = 512 * 1024;
/// Most candidate paths looked up per change.
pub const MAX_CANDIDATES: usize = 4096;

/// The conventional test files of the changed production files that the change itself does
/// not touch, as `read` finds them (path → text; `None` when absent or unreadable).
pub fn read_related(
    files: &[crate::changeset::FilePair],
    mut read: impl FnMut(&str) -> Option<String>,
) -> Vec<(String, String)> {
    let touched: std::collections::HashSet<&str> = files
        .iter()
        .flat_map(|pair| [pair.old_path.as_deref(), pair.new_path.as_deref()])
        .flatten()
        .collect();
    let mut looked = 0;
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for pair in files {
        let Some(path) = pair.new_path.as_deref() else {
            continue;
        };
        if pair.added.is_empty() {
            continue;
        }
        for candidate in candidates(path) {
            if looked >= MAX_CANDIDATES || found.len() >= MAX_FILES {
                return found;
            }
            if touched.contains(candidate.as_str()) || !seen.insert(candidate.clone()) {
                continue;
            }
            looked += 1;
            if let Some(text) = read(&candidate) {
                found.push((candidate, text));
            }
        }
    }
    found
}

/// The conventional test paths for the production file `path`: `test_x.py`, `x_test.py`,
/// `x.test.ts`, `x.spec.js`, `__tests__/x.test.tsx`, `tests/x.rs`, in the file's folder, its
/// `tests`/`test`/`__tests__` subfolders, and the `tests`/`test` folders of every folder above
/// it (mirroring the path below `src/`).
pub fn candidates(path: &str) -> Vec<String> {
    let Some(language) = Language::from_path(path) else {
        return Vec::new();
    };
    if crate::rules::is_test_path(path) {
        return Vec::new();
    }
    let (dir, file) = match path.rsplit_once('/') {
        Some((dir, file)) => (dir, file),
        None => ("", path),
    };
    let Some((stem, _)) = file.split_once('.') else {
        return Vec::new();
    };
    // A package's or crate's root file is tested under the package's name.
    let stem = if matches!(stem, "__init__" | "index" | "mod" | "lib") {
        dir.rsplit('/').find(|part| *part != "src").unwrap_or(stem)
    } else {
        stem
    };
    if stem.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = match language {
        Language::Python => vec![format!("test_{stem}.py"), format!("{stem}_test.py")],
        Language::Rust => vec![
            format!("{stem}.rs"),
            format!("{stem}_test.rs"),
            format!("test_{stem}.rs"),
        ],
        _ => ["test", "spec"]
            .iter()
            .flat_map(|kind| {
                ["ts", "tsx", "js", "jsx", "mjs", "cjs"]
                    .iter()
                    .map(move |extension| format!("{stem}.{kind}.{extension}"))
            })
            .collect(),
    };
    let mut dirs: Vec<String> = Vec::new();
    let join = |a: &str, b: &str| match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    };
    if language != Language::Rust {
        dirs.push(dir.to_string());
    }
    for sub in ["tests", "test", "__tests__"] {
        dirs.push(join(dir, sub));
    }
    // Every folder above, with the part of the path below it (without a leading `src/`).
    let parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for depth in 0..parts.len() {
        let above = parts[..depth].join("/");
        let below: Vec<&str> = parts[depth..]
            .iter()
            .copied()
            .skip_while(|part| *part == "src" || *part == "lib")
            .collect();
        for sub in ["tests", "test"] {
            dirs.push(join(&above, sub));
            if !below.is_empty() {
                dirs.push(join(&join(&above, sub), &below.join("/")));
            }
        }
    }
    let mut out = Vec::new();
    for dir in dirs {
        for name in &names {
            let candidate = join(&dir, name);
            if candidate != path && !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventional_test_paths() {
        let py = candidates("src/billing/tax.py");
        assert!(py.contains(&"tests/test_tax.py".to_string()), "{py:?}");
        assert!(
            py.contains(&"tests/billing/test_tax.py".to_string()),
            "{py:?}"
        );
        assert!(
            py.contains(&"src/billing/test_tax.py".to_string()),
            "{py:?}"
        );
        let ts = candidates("src/price.ts");
        assert!(ts.contains(&"src/price.test.ts".to_string()), "{ts:?}");
        assert!(
            ts.contains(&"src/__tests__/price.spec.tsx".to_string()),
            "{ts:?}"
        );
        let rs = candidates("src/factorial.rs");
        assert!(rs.contains(&"tests/factorial.rs".to_string()), "{rs:?}");
        let lib = candidates("crates/mathlib/src/lib.rs");
        assert!(
            lib.contains(&"crates/mathlib/tests/mathlib.rs".to_string()),
            "{lib:?}"
        );
        assert!(candidates("tests/test_tax.py").is_empty());
        assert!(candidates("README.md").is_empty());
    }
}

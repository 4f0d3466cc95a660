//! Replays the committed fuzz corpus of every target on stable Rust: an input that once
//! crashed the gate stays a regression test once it is in `fuzz/corpus/<target>/`.

use integrity_gate::fuzzing::{TARGETS, run};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn names_in(dir: &Path, suffix: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|name| name.strip_suffix(suffix).map(str::to_string))
        .collect()
}

#[test]
fn every_target_has_a_fuzz_target_file_and_a_corpus() {
    let declared: BTreeSet<String> = TARGETS.iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(names_in(&fuzz_dir().join("fuzz_targets"), ".rs"), declared);
    assert_eq!(names_in(&fuzz_dir().join("corpus"), ""), declared);
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for name in &declared {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] for {name}"
        );
    }
}

#[test]
fn the_corpus_of_every_target_runs_without_a_panic() {
    let mut inputs = 0;
    for (name, _) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} has no inputs", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| run(name, &data));
            assert!(outcome.is_ok(), "{name} panicked on {}", file.display());
            inputs += 1;
        }
    }
    assert!(inputs >= TARGETS.len());
}

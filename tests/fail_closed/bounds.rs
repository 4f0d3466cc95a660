//! Crashes and runaway cost on hostile syntax (issue 10, items 13–15), and the bad-input suite
//! helper: run the binary on a hostile repository under a wall-clock limit, measure the child's
//! peak memory, and insist on a clean exit (0, 1 or 2; never a signal, never a hang).

use crate::support::{Repo, binary};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Generous budgets for a debug build on a shared machine; the real targets live in the bench
/// numbers of the closing note.
const TIME_LIMIT: Duration = Duration::from_secs(30);
const MEMORY_LIMIT_KIB: i64 = 1536 * 1024;

/// What one bounded run of the binary produced.
pub struct Bounded {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// Peak resident set of the child, KiB (`ru_maxrss` from `wait4`).
    pub peak_kib: i64,
}

impl Bounded {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }
}

/// Runs the binary in `repo` with `args`, killing it past `limit` of CPU time. Panics (fails the test) when
/// the limit is exceeded, when the child dies of a signal or exits with anything but 0/1/2, or
/// when its peak memory passes `MEMORY_LIMIT_KIB`.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also reports its peak memory"
)]
pub fn run_bounded(repo: &Repo, args: &[&str], limit: Duration) -> Bounded {
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(repo.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).ok();
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let (raw_status, usage) = loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(reaped >= 0, "wait4 failed");
        if reaped == pid {
            break (status, usage);
        }
        // The bound is CPU time, so a loaded machine (other builds sharing the cores) does not
        // fail a linear run; wall time only catches a child that hangs without working.
        let cpu = cpu_time(pid);
        if cpu.is_some_and(|cpu| cpu > limit) || started.elapsed() > limit * WALL_FACTOR {
            child.kill().ok();
            // SAFETY: reaps the child we just killed.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            panic!(
                "integrity-gate {args:?} ran past {limit:?} of CPU time ({cpu:?}) or {:?} of wall time and was killed\nstderr: {}",
                limit * WALL_FACTOR,
                tail(&stderr.join().unwrap_or_default())
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let bounded = Bounded {
        status: ExitStatus::from_raw(raw_status),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        elapsed: started.elapsed(),
        peak_kib: usage.ru_maxrss,
    };
    assert!(
        matches!(bounded.status.code(), Some(0..=2)),
        "integrity-gate {args:?} ended with {:?} (signal {:?}) after {:?}\nstderr: {}",
        bounded.status.code(),
        bounded.status.signal(),
        bounded.elapsed,
        tail(&bounded.stderr)
    );
    assert!(
        bounded.peak_kib <= MEMORY_LIMIT_KIB,
        "integrity-gate {args:?} peaked at {} MiB",
        bounded.peak_kib / 1024
    );
    bounded
}

/// How many times its CPU-time bound a run may take in wall time before it counts as hung.
const WALL_FACTOR: u32 = 8;

/// The CPU time (user and system) `pid` has used so far, from `/proc/<pid>/stat`.
fn cpu_time(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name: state is the 3rd field, utime the 14th.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()?;
    Some(Duration::from_millis(ticks * 1000 / per_second.max(1)))
}

fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(2000);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    &text[start..]
}

/// `main` holds `path` with `base`; the branch `pr` replaces it with `head`.
fn change(files: &[(String, String, String)]) -> Repo {
    let repo = Repo::new();
    repo.write("README.md", "x\n");
    for (path, base, _) in files {
        if !base.is_empty() {
            repo.write(path, base);
        }
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "pr"]);
    for (path, _, head) in files {
        repo.write(path, head);
    }
    repo.commit("hostile");
    repo
}

/// Runs the gate on [`change`]`(files)` within the budgets; it must judge every file.
fn analyse(files: &[(String, String, String)]) -> (Bounded, serde_json::Value) {
    let repo = change(files);
    let run = run_bounded(&repo, &["diff", "main", "--format", "json"], TIME_LIMIT);
    assert_ne!(run.status.code(), Some(2), "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["summary"]["files_scanned"], files.len());
    (run, report)
}

/// About 100k levels or terms: far past any stack a recursive walk could use.
const DEPTH: usize = 100_000;

/// Deep shapes of one expression, as (name, expression) in `language`'s syntax.
fn deep_expressions(language: &str) -> Vec<(&'static str, String)> {
    let closures = match language {
        "python" => "lambda: ".repeat(DEPTH) + "1",
        "rust" => "|| ".repeat(DEPTH) + "1",
        _ => "() => ".repeat(DEPTH) + "1",
    };
    let blocks = match language {
        // Python has no block expression; nested calls are its deepest statement shape.
        "python" => "f(".repeat(DEPTH) + &")".repeat(DEPTH),
        "rust" => "{".repeat(DEPTH) + "1" + &"}".repeat(DEPTH),
        // Statement blocks inside an arrow function's body (a bare `{{` would be an object).
        _ => "(() => ".to_string() + &"{".repeat(DEPTH) + &"}".repeat(DEPTH) + ")()",
    };
    vec![
        ("brackets", "[".repeat(DEPTH) + &"]".repeat(DEPTH)),
        ("parens", "(".repeat(DEPTH) + "1" + &")".repeat(DEPTH)),
        ("terms", vec!["1"; DEPTH].join(" + ")),
        ("chain", "a".to_string() + &".b()".repeat(DEPTH)),
        ("closures", closures),
        ("blocks", blocks),
    ]
}

/// A test file whose first test the change rewrites around `expression` (base: a plain test),
/// so the delta rules parse and compare both sides, and whose second test the change skips: the
/// skip must still be reported next to the deep expression.
fn test_file(language: &str, shape: &str, expression: &str) -> (String, String, String) {
    let (path, template, skip) = match language {
        "python" => (
            format!("tests/test_{shape}.py"),
            "import pytest\n\n\ndef test_deep():\n    x = EXPR\n    assert x == 1\n\n\nSKIPdef test_other():\n    assert 2 == 2\n",
            "@pytest.mark.skip\n",
        ),
        "rust" => (
            format!("tests/{shape}.rs"),
            "#[test]\nfn deep() {\n    let x = EXPR;\n    assert_eq!(x, 1);\n}\n\n#[test]\nSKIPfn other() {\n    assert_eq!(2, 2);\n}\n",
            "#[ignore]\n",
        ),
        _ => (
            format!(
                "tests/{shape}.test.{}",
                if language == "typescript" { "ts" } else { "js" }
            ),
            "test('deep', () => {\n  const x = EXPR;\n  expect(x).toBe(1);\n});\n\ntestSKIP('other', () => {\n  expect(2).toBe(2);\n});\n",
            ".skip",
        ),
    };
    (
        path,
        template.replace("EXPR", "1").replace("SKIP", ""),
        template.replace("EXPR", expression).replace("SKIP", skip),
    )
}

/// Every deep shape in `language`, one file each, in one change: the binary must finish with a
/// verdict, never a signal (a stack overflow aborts with SIGABRT and prints nothing).
fn deep_shapes_finish(language: &str) {
    let files: Vec<_> = deep_expressions(language)
        .into_iter()
        .map(|(shape, expression)| test_file(language, shape, &expression))
        .collect();
    let (run, report) = analyse(&files);
    for (path, _, _) in &files {
        let skips = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|finding| finding["path"] == path.as_str() && finding["rule"] == "skipped-test")
            .count();
        assert_eq!(skips, 1, "{path}: {}", run.stdout);
    }
}

#[test]
fn deep_rust_finishes_without_a_stack_overflow() {
    deep_shapes_finish("rust");
}

#[test]
fn deep_javascript_finishes_without_a_stack_overflow() {
    deep_shapes_finish("javascript");
}

#[test]
fn deep_typescript_finishes_without_a_stack_overflow() {
    deep_shapes_finish("typescript");
}

#[test]
fn deep_python_finishes_without_a_stack_overflow() {
    deep_shapes_finish("python");
}

/// Item 14: 100k unbalanced openers parse as one flat run of tokens, which tree-sitter's query
/// cursor scans once per token (13 s for JavaScript `{`, 40-50 s for the others); and a 100k
/// method chain started a candidate match at every level (over a minute). The file must be
/// judged quickly, and what the rules could not search must be shown: a change that brings in
/// such a shape has blinded the syntax rules on that file, so it is an `unreadable-change`
/// error.
#[test]
fn unbalanced_openers_and_long_chains_stay_linear() {
    let files: Vec<(String, String, String)> = [
        ("src/open.js", "{".repeat(DEPTH)),
        ("src/open.ts", "([".repeat(DEPTH / 2)),
        ("src/open.py", "(".repeat(DEPTH)),
        ("src/open.rs", format!("fn f() {}", "{".repeat(DEPTH))),
        ("src/chain.js", format!("a{};\n", ".b()".repeat(DEPTH))),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), String::new(), text))
    .collect();
    let (run, report) = analyse(&files);
    for (path, _, _) in &files {
        assert!(
            blinded(&report, path, "error"),
            "no unreadable-change error for {path}: {}",
            run.stdout
        );
    }
}

/// Whether `report` holds an `unreadable-change` finding of `severity` saying the syntax rules
/// could not search `path`.
fn blinded(report: &serde_json::Value, path: &str, severity: &str) -> bool {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|finding| {
            finding["rule"] == "unreadable-change"
                && finding["path"] == path
                && finding["severity"] == severity
                && finding["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("syntax rules did not"))
        })
}

/// The evasion the error exists for: a long run of bare tokens padded into a test file blinds
/// every syntax rule on it, so the skip added beside it goes unseen; the padding itself must
/// block. A shape base already had is shown as a warning, not blamed on the change.
#[test]
fn padding_a_test_file_to_blind_the_syntax_rules_blocks() {
    let padding = format!("const pad = [{}];\n", ",".repeat(20_000));
    let base = "test('adds', () => { expect(1 + 1).toBe(2); });\n".to_string();
    let head = format!("{padding}test.skip('adds', () => {{ expect(1 + 1).toBe(2); }});\n");
    let files = vec![("src/add.test.js".to_string(), base, head.clone())];
    let (run, report) = analyse(&files);
    assert_eq!(run.status.code(), Some(1), "{}", run.stdout);
    assert!(
        blinded(&report, "src/add.test.js", "error"),
        "{}",
        run.stdout
    );

    let files = vec![(
        "src/add.test.js".to_string(),
        head.clone(),
        head.replace("expect(1 + 1)", "expect(2 + 0)"),
    )];
    let (run, report) = analyse(&files);
    assert!(
        blinded(&report, "src/add.test.js", "warning"),
        "{}",
        run.stdout
    );
}

/// Longest snippet a finding may carry, in characters; the engine cuts longer ones.
const SNIPPET_BUDGET: usize = 1000;

/// Item 15: one minified line holding thousands of swallowed errors. Every finding used to copy
/// (and redact) the whole line: gigabytes and tens of seconds.
#[test]
fn a_minified_line_of_empty_catches_is_bounded_and_still_reported() {
    let mut line = String::new();
    let mut count = 0;
    while line.len() < 512 * 1024 {
        line.push_str(&format!("function f{count}(){{try{{x()}}catch(e){{}}}}"));
        count += 1;
    }
    line.push('\n');
    let (run, report) = analyse(&[("src/min.js".into(), String::new(), line)]);
    let findings = report["findings"].as_array().unwrap();
    let catches: Vec<_> = findings
        .iter()
        .filter(|finding| finding["rule"] == "empty-catch")
        .collect();
    assert!(!catches.is_empty(), "{}", run.stdout);
    // Thousands of the same cause on one line are one finding that says how many.
    assert!(
        catches.len() <= 10,
        "{} empty-catch findings",
        catches.len()
    );
    assert!(
        catches.iter().any(|finding| finding["message"]
            .as_str()
            .unwrap()
            .contains(&count.to_string())),
        "no finding counts the {count} handlers: {}",
        catches[0]["message"]
    );
    for finding in findings {
        let snippet = finding["snippet"].as_str().unwrap();
        assert!(
            snippet.chars().count() <= SNIPPET_BUDGET,
            "{} snippet of {} chars",
            finding["rule"],
            snippet.chars().count()
        );
    }
}

/// Item 14: a jest config nested 100k objects deep. Listing its settings climbed the parents of
/// every `key: value` pair (O(pairs · depth²)): over a minute even at 10k. The threshold that
/// the change removed must still be reported.
#[test]
fn a_deeply_nested_config_object_stays_linear() {
    let base = "module.exports = {coverageThreshold: {global: {lines: 90}}};\n";
    let head = format!(
        "module.exports = {{coverageThreshold: {}1{}}};\n",
        "{a: ".repeat(DEPTH),
        "}".repeat(DEPTH)
    );
    let (run, report) = analyse(&[("jest.config.js".into(), base.into(), head)]);
    assert_eq!(run.status.code(), Some(1), "{}", run.stdout);
    assert!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|finding| finding["rule"] == "weakened-coverage"),
        "{}",
        run.stdout
    );
}

/// Item 14/15: 15k empty catches, one per line, in one test nested 150 callbacks deep. Per
/// finding the gate rescanned the file for its snippet, hashed every line prefix of the test
/// body anew and climbed the parents of each match: over a minute in a debug build.
#[test]
fn thousands_of_findings_in_one_nested_test_stay_linear() {
    let head = format!(
        "test('t', () => {{{}{}{}}});\n",
        "(() => {".repeat(150),
        "try { x() } catch (e) {}\n".repeat(15_000),
        "})();".repeat(150)
    );
    let (run, report) = analyse(&[("tests/many.test.js".into(), String::new(), head)]);
    let catches: Vec<&serde_json::Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["rule"] == "empty-catch")
        .collect();
    // Every catch is found; alike findings in one file are reported once, with the count.
    assert_eq!(catches.len(), 1, "{}", run.stderr);
    let message = catches[0]["message"].as_str().unwrap();
    assert!(
        message.contains("and 14999 more `empty-catch` findings in this file"),
        "{message}"
    );
}

/// Item 14: the same key nested 100k deep (`{coverageThreshold: {coverageThreshold: ...}}`).
/// Every same-named pair was converted again, each cut-off level copying the rest of the file:
/// over a minute and 2 GB.
#[test]
fn a_config_key_nested_in_itself_stays_linear() {
    let base = "module.exports = {coverageThreshold: {global: {lines: 90}}};\n";
    let head = format!(
        "module.exports = {{coverageThreshold: {}1{}}};\n",
        "{coverageThreshold:".repeat(DEPTH),
        "}".repeat(DEPTH)
    );
    let (run, _) = analyse(&[("jest.config.js".into(), base.into(), head)]);
    assert_eq!(run.status.code(), Some(1), "{}", run.stdout);
}

/// Thousands of findings in one file, each next to a copied suppression: every finding asked
/// where its line stood in base by rebuilding the file's line pairing (20,000 took 142 s in a
/// debug build). The pairing is built once per file now.
#[test]
fn thousands_of_copied_suppressions_stay_linear() {
    let base =
        "# integrity-gate: allow disabled-check -- vendored module\nimport os  # noqa: F401\n"
            .to_string();
    let mut head = base.clone();
    for index in 0..20_000 {
        head.push_str(&format!(
            "# integrity-gate: allow disabled-check -- vendored module\nx{index} = 1  # noqa: E501\n"
        ));
    }
    let files = vec![("src/settings.py".to_string(), base, head)];
    let (_, report) = analyse(&files);
    let findings = report["findings"].as_array().unwrap();
    // Alike findings in one file are reported once, saying how many there are.
    let count = |rule: &str| -> usize {
        findings
            .iter()
            .filter(|finding| finding["rule"] == rule)
            .map(|finding| {
                let message = finding["message"].as_str().unwrap();
                let more = format!(" more `{rule}` findings in this file");
                message.split_once(&more).map_or(1, |(before, _)| {
                    1 + before.rsplit(' ').next().unwrap().parse::<usize>().unwrap()
                })
            })
            .sum()
    };
    // The copies silence nothing (each new `noqa` is reported) and each copy is itself new.
    assert!(
        count("disabled-check") >= 20_000,
        "{}",
        count("disabled-check")
    );
    assert!(count("gate-config-change") >= 20_000);
}

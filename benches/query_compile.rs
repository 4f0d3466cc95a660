//! Compile time of every embedded query, slowest first. Query compilation is most of the gate's
//! run time on a small change, so this is the number to watch when a query grows a pattern.
//! Run with `cargo bench --bench query_compile`; with `PATTERNS=typescript/skipped-test` it
//! also times each pattern of that query compiled alone; with `LANGUAGE=typescript QUERY=..` it
//! times that query text.

use integrity_gate::query::{QUERY_SOURCES, compile};
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn main() {
    let mut timings: Vec<(Duration, String, usize)> = QUERY_SOURCES
        .iter()
        .map(|source| {
            let best = (0..RUNS)
                .map(|_| {
                    let start = Instant::now();
                    let compiled = compile(source);
                    let elapsed = start.elapsed();
                    assert!(
                        compiled.is_ok(),
                        "{}/{} compiles",
                        source.language.name(),
                        source.name
                    );
                    elapsed
                })
                .min()
                .unwrap_or_default();
            let patterns = source
                .text
                .lines()
                .filter(|line| line.starts_with('(') || line.starts_with('['))
                .count();
            (
                best,
                format!("{}/{}", source.language.name(), source.name),
                patterns,
            )
        })
        .collect();
    timings.sort_by_key(|timing| std::cmp::Reverse(timing.0));
    let total: Duration = timings.iter().map(|(time, _, _)| *time).sum();
    println!("{:>9}  {:>8}  query", "ms (best)", "patterns");
    for (time, name, patterns) in &timings {
        println!("{:>9.2}  {:>8}  {name}", time.as_secs_f64() * 1e3, patterns);
    }
    println!(
        "{:>9.2}  {:>8}  total, one core",
        total.as_secs_f64() * 1e3,
        ""
    );
    if let Ok(wanted) = std::env::var("PATTERNS") {
        patterns(&wanted);
    }
    if let (Ok(language), Ok(text)) = (std::env::var("LANGUAGE"), std::env::var("QUERY")) {
        let Some(language) = integrity_gate::lang::Language::ALL
            .into_iter()
            .find(|known| known.name() == language)
        else {
            println!("no language {language}");
            return;
        };
        time_text(&language.grammar(), &text);
    }
}

/// A query text from the environment (`LANGUAGE=typescript QUERY='(call_expression) @x'`),
/// for trying out a pattern's cost before committing to it.
fn time_text(grammar: &tree_sitter::Language, text: &str) {
    let best = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let compiled = tree_sitter::Query::new(grammar, text);
            (start.elapsed(), compiled.is_ok())
        })
        .min()
        .unwrap_or_default();
    println!(
        "{:>9.2}  (compiles: {})  {text}",
        best.0.as_secs_f64() * 1e3,
        best.1
    );
}

/// Each pattern of one query compiled on its own, so the expensive ones can be found.
fn patterns(wanted: &str) {
    let Some(source) = QUERY_SOURCES
        .iter()
        .find(|source| format!("{}/{}", source.language.name(), source.name) == wanted)
    else {
        println!("no query {wanted}");
        return;
    };
    let grammar = source.language.grammar();
    let Ok(query) = tree_sitter::Query::new(&grammar, source.text) else {
        return;
    };
    let starts: Vec<usize> = (0..query.pattern_count())
        .map(|index| query.start_byte_for_pattern(index))
        .chain([source.text.len()])
        .collect();
    for (index, range) in starts.windows(2).enumerate() {
        let text = &source.text[range[0]..range[1]];
        let best = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let _ = tree_sitter::Query::new(&grammar, text);
                start.elapsed()
            })
            .min()
            .unwrap_or_default();
        let first = text.lines().next().unwrap_or_default();
        println!(
            "{:>9.2}  pattern {index}: {first}",
            best.as_secs_f64() * 1e3
        );
    }
}

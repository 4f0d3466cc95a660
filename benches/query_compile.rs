//! Compile time of every embedded query, slowest first. Query compilation is most of the gate's
//! run time on a small change, so this is the number to watch when a query grows a pattern.
//! Run with `cargo bench --bench query_compile`.

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
    timings.sort_by_key(|b| std::cmp::Reverse(b.0));
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
}

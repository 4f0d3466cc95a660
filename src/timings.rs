//! `--timings`: where a run spends its time, per phase, per rule, per query and per file.
//!
//! Off by default and then free (one relaxed atomic load per span). When on, each [`span`]
//! records its *self* time (its elapsed time minus the spans opened inside it on the same
//! thread), so a rule that triggers a file's parse is not charged for the parse, and the self
//! times of all spans add up to the instrumented CPU time. Spans run on every rayon thread, so
//! the sum may exceed the wall time; the wall time of the whole run is reported on its own.
//!
//! Global rather than threaded through every signature because the spans sit deep inside
//! lazily-evaluated rule code (a parse happens inside whichever rule asks first).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);
static RECORDS: Mutex<Option<Records>> = Mutex::new(None);

/// How many of the slowest files the report lists.
const SLOWEST_FILES: usize = 10;

#[derive(Default)]
struct Records {
    started: Option<Instant>,
    /// (category, name) → (self time, calls).
    spans: HashMap<(&'static str, String), (Duration, u32)>,
    /// Per changed file: wall time of its analysis and its bytes on both sides.
    files: Vec<(String, Duration, usize)>,
}

thread_local! {
    /// Elapsed time of the spans closed inside each open span, innermost last.
    static OPEN: RefCell<Vec<Duration>> = const { RefCell::new(Vec::new()) };
}

/// Turns recording on for the rest of the process.
pub fn enable() {
    let mut records = lock();
    *records = Some(Records {
        started: Some(Instant::now()),
        ..Records::default()
    });
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether `--timings` is on.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

fn lock() -> std::sync::MutexGuard<'static, Option<Records>> {
    RECORDS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A timed section; its self time is recorded when it is dropped.
#[must_use = "the span is measured until it is dropped"]
pub struct Span {
    open: Option<(Instant, &'static str, String)>,
}

/// Starts a span in `category` (`phase`, `rule`, `parse`, `query`) named `name`. The name is
/// built only when recording is on.
pub fn span(category: &'static str, name: impl FnOnce() -> String) -> Span {
    if !enabled() {
        return Span { open: None };
    }
    OPEN.with(|open| open.borrow_mut().push(Duration::ZERO));
    Span {
        open: Some((Instant::now(), category, name())),
    }
}

impl Drop for Span {
    fn drop(&mut self) {
        let Some((start, category, name)) = self.open.take() else {
            return;
        };
        let elapsed = start.elapsed();
        let inner = OPEN.with(|open| {
            let mut open = open.borrow_mut();
            let inner = open.pop().unwrap_or_default();
            if let Some(parent) = open.last_mut() {
                *parent += elapsed;
            }
            inner
        });
        if let Some(records) = lock().as_mut() {
            let entry = records.spans.entry((category, name)).or_default();
            entry.0 += elapsed.saturating_sub(inner);
            entry.1 += 1;
        }
    }
}

/// Records one changed file's analysis time.
pub fn file(path: &str, elapsed: Duration, bytes: usize) {
    if !enabled() {
        return;
    }
    if let Some(records) = lock().as_mut() {
        records.files.push((path.to_string(), elapsed, bytes));
    }
}

/// The report, when recording is on: phases, rules, parses and queries by self time, then the
/// slowest files.
pub fn report() -> Option<String> {
    use std::fmt::Write;
    if !enabled() {
        return None;
    }
    let guard = lock();
    let records = guard.as_ref()?;
    let wall = records.started.map(|started| started.elapsed())?;
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "timings: {:.1} ms wall, {} threads",
        ms(wall),
        rayon::current_num_threads()
    );
    for category in ["phase", "parse", "query", "rule"] {
        let mut rows: Vec<_> = records
            .spans
            .iter()
            .filter(|((known, _), _)| *known == category)
            .map(|((_, name), (time, calls))| (name.as_str(), *time, *calls))
            .collect();
        if rows.is_empty() {
            continue;
        }
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let total: Duration = rows.iter().map(|row| row.1).sum();
        let _ = writeln!(
            out,
            "  {category} (self time, all threads): {:.1} ms",
            ms(total)
        );
        for (name, time, calls) in rows {
            let _ = writeln!(out, "    {:>9.1} ms  {calls:>5}×  {name}", ms(time));
        }
    }
    let mut files: Vec<_> = records.files.iter().collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if !files.is_empty() {
        let _ = writeln!(out, "  slowest files (of {}):", files.len());
        for (path, time, bytes) in files.into_iter().take(SLOWEST_FILES) {
            let _ = writeln!(
                out,
                "    {:>9.1} ms  {:>7} KB  {}",
                ms(*time),
                bytes / 1024,
                crate::text::escape_controls(path)
            );
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_spans_record_self_time_and_the_report_lists_them() {
        enable();
        {
            let _outer = span("rule", || "outer-rule".to_string());
            std::thread::sleep(Duration::from_millis(20));
            {
                let _inner = span("parse", || "inner-parse".to_string());
                std::thread::sleep(Duration::from_millis(30));
            }
        }
        file("a/b.py", Duration::from_millis(55), 4096);
        let report = report().unwrap_or_default();
        let guard = lock();
        let records = guard.as_ref().map(|records| &records.spans);
        let time = |category, name: &str| {
            records
                .and_then(|spans| spans.get(&(category, name.to_string())))
                .map(|(time, _)| *time)
                .unwrap_or_default()
        };
        let outer = time("rule", "outer-rule");
        let inner = time("parse", "inner-parse");
        assert!(inner >= Duration::from_millis(30), "{inner:?}");
        // The outer span is charged its own 20 ms, not the inner 30 ms.
        assert!(outer >= Duration::from_millis(20), "{outer:?}");
        assert!(outer < Duration::from_millis(45), "{outer:?}");
        assert!(report.contains("outer-rule"), "{report}");
        assert!(report.contains("inner-parse"), "{report}");
        assert!(report.contains("a/b.py"), "{report}");
    }
}

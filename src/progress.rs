//! A progress bar on stderr while a long range is analysed: only for `diff` with a format
//! people read, only when stderr is a terminal, and only past [`MIN_FILES`] files, so
//! pipelines, CI logs and machine-readable output never see it.
//!
//! Global rather than threaded through the engine, like [`crate::timings`]: the engine ticks
//! once per analysed file from rayon's threads, and an inactive bar costs one relaxed atomic
//! load per file. Fewer than 100 lines of drawing did not earn a dependency.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Ranges with at most this many files finish before a bar would help.
pub const MIN_FILES: usize = 300;

/// Width of the bar itself, in cells.
const WIDTH: usize = 30;

static ALLOWED: AtomicBool = AtomicBool::new(false);
static ACTIVE: AtomicBool = AtomicBool::new(false);
static BAR: Mutex<Option<Bar<std::io::Stderr>>> = Mutex::new(None);

/// A bar over `total` files, drawn on `out`, redrawn when the whole percentage changes.
pub struct Bar<W: Write> {
    total: usize,
    done: usize,
    drawn_percent: Option<usize>,
    out: W,
}

impl<W: Write> Bar<W> {
    /// A bar, or `None` when `out` is not a terminal or the range is too small to need one.
    pub fn new(total: usize, out: W, out_is_terminal: bool) -> Option<Bar<W>> {
        (out_is_terminal && total > MIN_FILES).then_some(Bar {
            total,
            done: 0,
            drawn_percent: None,
            out,
        })
    }

    /// Counts `files` more as done and redraws if the percentage moved.
    pub fn advance(&mut self, files: usize) {
        self.done = (self.done + files).min(self.total);
        let percent = self.done * 100 / self.total.max(1);
        if self.drawn_percent == Some(percent) {
            return;
        }
        self.drawn_percent = Some(percent);
        let filled = self.done * WIDTH / self.total.max(1);
        // Errors writing to stderr are not worth failing the analysis for.
        let _ = write!(
            self.out,
            "\r\x1b[2Kintegrity-gate [{}{}] {percent:>3}% {}/{} files",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled),
            self.done,
            self.total
        );
        let _ = self.out.flush();
    }

    /// Clears the bar's line, so the report or an error starts on a clean line.
    pub fn finish(mut self) -> W {
        if self.drawn_percent.is_some() {
            let _ = write!(self.out, "\r\x1b[2K");
            let _ = self.out.flush();
        }
        self.out
    }
}

/// Lets the next analysis draw a bar on stderr (when stderr is a terminal). `diff` calls this
/// for the formats people read.
pub fn allow() {
    ALLOWED.store(true, Ordering::Relaxed);
}

/// Starts the bar for an analysis of `total` files, if allowed and worth it.
pub fn start(total: usize) {
    use std::io::IsTerminal;
    if !ALLOWED.load(Ordering::Relaxed) {
        return;
    }
    let stderr = std::io::stderr();
    let terminal = stderr.is_terminal();
    if let Some(bar) = Bar::new(total, stderr, terminal) {
        *lock() = Some(bar);
        ACTIVE.store(true, Ordering::Relaxed);
    }
}

/// One more file analysed.
pub fn tick() {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    if let Some(bar) = lock().as_mut() {
        bar.advance(1);
    }
}

/// Removes the bar, if one was drawn.
pub fn finish() {
    if !ACTIVE.swap(false, Ordering::Relaxed) {
        return;
    }
    if let Some(bar) = lock().take() {
        bar.finish();
    }
}

fn lock() -> std::sync::MutexGuard<'static, Option<Bar<std::io::Stderr>>> {
    BAR.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_drawn_when_the_stream_is_not_a_terminal() {
        assert!(Bar::new(10_000, Vec::new(), false).is_none());
    }

    #[test]
    fn nothing_is_drawn_for_a_small_range() {
        assert!(Bar::new(MIN_FILES, Vec::new(), true).is_none());
    }

    #[test]
    fn draws_once_per_percent_and_clears_its_line() {
        let mut bar = Bar::new(1000, Vec::new(), true).unwrap();
        for _ in 0..1000 {
            bar.advance(1);
        }
        bar.advance(5); // past the end: stays at the total
        let out = String::from_utf8(bar.finish()).unwrap();
        assert_eq!(
            out.matches('\r').count(),
            102,
            "0 to 100 percent, then the clear"
        );
        assert!(out.contains("[###############               ]  50% 500/1000 files"));
        assert!(out.contains("100% 1000/1000 files"));
        assert!(out.ends_with("\r\x1b[2K"));
        assert!(!out.contains('\n'), "the bar never scrolls the terminal");
    }
}

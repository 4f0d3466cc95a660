//! Tolerances widened where no assertion shows it: an epsilon constant of a test module raised
//! (`EPS = 1e-9` → `1e-1`, `const EPSILON: f64 = ...`), an image or snapshot comparison's
//! threshold raised in a test or a test runner's configuration (`maxDiffPixels`,
//! `maxDiffPixelRatio`, `failureThreshold`, `threshold`, `tolerance`). The assertion reads the
//! same; it accepts more.
//!
//! Settings are paired by name and order of appearance between base and head of one file;
//! only a head value on a line the change added counts.

use super::context::{Candidate, FileContext, Output};
use crate::finding::{Severity, Side};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Files longer than this are not scanned line by line here.
const MAX_TEXT: usize = 2 << 20;

fn setting() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r#"(?:^|[^A-Za-z0-9_.])["']?(?P<name>[A-Za-z_][A-Za-z0-9_]*)["']?\s*(?::\s*[A-Za-z][A-Za-z0-9_<>]*\s*)?(?:=|:)\s*(?P<value>\d[\d_]*(?:\.[\d_]+)?(?:[eE][-+]?\d+)?)(?:[^\w.]|$)"#,
            )
            .ok()
        })
        .as_ref()
}

/// What a name is, when it is a tolerance: an epsilon-like constant or argument, or an image
/// comparison's allowance (which needs an image comparison around to mean one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Epsilon,
    Image,
    /// `threshold`/`tolerance` alone: an image allowance only in a file that compares images.
    Ambiguous,
}

fn kind(name: &str) -> Option<Kind> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "maxdiffpixels"
        | "maxdiffpixelratio"
        | "failurethreshold"
        | "diffthreshold"
        | "pixelthreshold"
        | "mismatchtolerance"
        | "mismatchthreshold"
        | "allowedmismatchedpixelratio"
        | "max_diff_pixels"
        | "max_diff_pixel_ratio" => Some(Kind::Image),
        "eps" | "epsilon" | "tol" | "rtol" | "atol" | "abs_tol" | "rel_tol" | "reltol"
        | "abstol" | "float_tolerance" => Some(Kind::Epsilon),
        "threshold" | "tolerance" => Some(Kind::Ambiguous),
        _ if lower.ends_with("_eps")
            || lower.ends_with("_epsilon")
            || lower.ends_with("_tol")
            || lower.ends_with("_tolerance")
            || (lower.ends_with("tolerance") && lower.len() > 9) =>
        {
            Some(Kind::Epsilon)
        }
        _ => None,
    }
}

/// Where a widened tolerance loosens tests: test files and the test runners' configurations
/// and setup files.
fn judged_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    super::todo_stub::is_test_path(path)
        || [
            "playwright.config.",
            "playwright-ct.config.",
            "jest.config.",
            "vitest.config.",
            "jest.setup.",
            "vitest.setup.",
            "setupTests.",
            "jest-image-snapshot",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// Whether a file compares images, so `threshold: 0.2` is a comparison's allowance.
fn compares_images(text: &str) -> bool {
    [
        "toHaveScreenshot",
        "toMatchImageSnapshot",
        "toMatchScreenshot",
        "pixelmatch",
        "looks-same",
        "looksSame",
        "compareScreenshot",
        "matchImageSnapshot",
        "assert_image",
        "image_snapshot",
    ]
    .iter()
    .any(|marker| text.contains(marker))
}

/// The tolerance settings of a text: (name, value, 1-based line), comments skipped.
fn settings(text: &str) -> Vec<(String, f64, u32, Kind)> {
    let Some(pattern) = setting() else {
        return Vec::new();
    };
    let images = compares_images(text);
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") || trimmed.starts_with('#') || trimmed.starts_with('*') {
            continue;
        }
        if !(line.contains("tol")
            || line.contains("eps")
            || line.contains("EPS")
            || line.contains("TOL")
            || line.contains("hreshold")
            || line.contains("iff")
            || line.contains("ismatch")
            || line.contains("Tol"))
        {
            continue;
        }
        for captures in pattern.captures_iter(line) {
            let name = &captures["name"];
            let Some(kind) = kind(name) else {
                continue;
            };
            if kind == Kind::Ambiguous && !images {
                continue;
            }
            // A tolerance written in the assertion itself is judged with the assertion.
            if kind == Kind::Epsilon
                && ["assert", "approx", "isclose", "AlmostEqual", "CloseTo"]
                    .iter()
                    .any(|call| line.contains(call))
            {
                continue;
            }
            let Ok(value) = captures["value"].replace('_', "").parse::<f64>() else {
                continue;
            };
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            found.push((name.to_string(), value, number, kind));
        }
    }
    found
}

fn show(value: f64) -> String {
    if value != 0.0 && (value.abs() < 1e-3 || value.abs() >= 1e6) {
        format!("{value:e}")
    } else {
        let text = format!("{value}");
        text
    }
}

pub(super) fn check(context: &FileContext<'_>, out: &mut Output) {
    let (Some(base), Some(head)) = (context.side(Side::Base), context.side(Side::Head)) else {
        return;
    };
    if !judged_path(head.path) || head.text.len() > MAX_TEXT || base.text.len() > MAX_TEXT {
        return;
    }
    let mut before: HashMap<String, Vec<f64>> = HashMap::new();
    for (name, value, _, _) in settings(base.text) {
        before.entry(name).or_default().push(value);
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (name, value, line, kind) in settings(head.text) {
        let index = seen.entry(name.clone()).or_default();
        let nth = *index;
        *index += 1;
        if !context.is_added_line(line) {
            continue;
        }
        let Some(old) = before
            .get(&name)
            .and_then(|values| values.get(nth))
            .copied()
        else {
            continue;
        };
        if value <= old {
            continue;
        }
        // Ten times looser, or a ratio (0..1) loosened by a tenth or more, is as strong as a
        // widened tolerance in the assertion itself; less is a warning.
        let large = (old > 0.0 && value / old >= 10.0)
            || old == 0.0
            || (value <= 1.0 && value - old >= 0.1);
        let severity = if large {
            Severity::Error
        } else {
            Severity::Warning
        };
        let what = match kind {
            Kind::Epsilon => "tolerance",
            Kind::Image | Kind::Ambiguous => "image comparison allowance",
        };
        out.candidates.push(Candidate::at_line(
            Side::Head,
            line,
            severity,
            format!(
                "{what} `{name}` raised {} → {}: the assertions that compare within it accept more while they read the same",
                show(old),
                show(value)
            ),
            format!("tolerance:{name}:{nth}"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tolerance_settings() {
        let text = "EPS = 1e-9\nconst EPSILON: f64 = 0.000_001;\n// eps = 5\nexpect(page).toHaveScreenshot({ maxDiffPixels: 10, threshold: 0.2 });\nlimit = threshold + 1\nassert math.isclose(a, b, rel_tol=1e-6)\n";
        let found: Vec<(String, f64)> = settings(text)
            .into_iter()
            .map(|(name, value, _, _)| (name, value))
            .collect();
        assert_eq!(
            found,
            [
                ("EPS".to_string(), 1e-9),
                ("EPSILON".to_string(), 1e-6),
                ("maxDiffPixels".to_string(), 10.0),
                ("threshold".to_string(), 0.2),
            ]
        );
        assert!(settings("rate_limiter = Limiter(threshold=3)\n").is_empty());
        assert!(judged_path("tests/visual.spec.ts") && judged_path("playwright.config.ts"));
        assert!(!judged_path("src/geometry.py"));
    }
}

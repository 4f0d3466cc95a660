//! `empty-catch`: the change adds an error handler that swallows the error.
//!
//! The queries (`queries/*/empty-catch.scm`) find every handler; [`handlers`] reads each one's
//! body from the syntax tree and decides whether it swallows the error. This module pairs head
//! handlers with base handlers (by enclosing scope and normalized text, never by line numbers)
//! so that only what the change introduces is reported. A handler whose text changed is paired
//! by the code it guards ([`caught`]): if the base handler there already swallowed at least what
//! it catches, or only did other work (cleanup, a fallback value), the swallow is not new.
//! Otherwise the evidence is graded:
//!
//! - error: the same hunk removed what the handler did before (a `throw`, a log call, a use of
//!   the error), or the protected code existed before without the handler (wrapped to silence
//!   it), or, in Rust, base propagated the same call with `?`/`.unwrap()`/`.expect()`;
//! - warning: a new swallowing handler without such evidence;
//! - note: an explanatory comment in an otherwise empty handler, or `except ImportError: pass`.

mod caught;
mod handlers;
mod rust;

use super::context::{Candidate, Fact, FileContext, Moved, Output};
use super::declare_rule;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use handlers::Handler;
use std::collections::HashMap;

declare_rule! {
    /// ## What it flags
    /// An error handler added by the change that swallows the error:
    ///
    /// - JavaScript/TypeScript: a `catch` block that is empty or holds only comments,
    ///   `.catch(() => {})`, `.catch(() => null)`, `.catch(() => undefined)`, `.catch(noop)`,
    ///   `.then(ok, () => {})`; a `catch` that only returns a stand-in (`[]`, `{}`, `""`, `0`,
    ///   `false`, `null`, `undefined`, or the function's own parameter) around code that ran
    ///   unprotected in base.
    /// - Python: an `except` whose body is only `pass`, `...` or `continue`;
    ///   `with contextlib.suppress(Exception)` (or `BaseException`); a bare or broad
    ///   `except Exception:` that only returns `None` or another stand-in (`[]`, `{}`, `0`,
    ///   `False`, the input unconverted) around code that used to raise.
    /// - Rust: `let _ = expr;`, `expr.ok();`, `expr.is_ok();` / `.is_err();` and an empty
    ///   `if let Err(_) = expr {}` where base propagated the same call in the same function with `?`, `.unwrap()` or `.expect()`; `unwrap_or_default()`/`unwrap_or(..)`/
    ///   `unwrap_or_else(..)` where base propagated it with `?`; `Err(_) => {}`,
    ///   `Err(_) => ()`, `Err(_) => continue`.
    ///
    /// An error when the change removed what the handler did (a `throw`, a log call, a use of
    /// the error, a `return False`), wrapped code that existed before in the handler, or
    /// replaced a propagation of the same call; a warning for a new swallowing handler
    /// otherwise (also one that now catches more than base did: `except OSError: pass` →
    /// `except Exception: pass`, or `except Exception` → `except CancelledError`). A note when
    /// the empty handler carries an explanatory comment, when it guards only a `return` or an assignment and code after the
    /// `try` falls back (`try { return parse(x) } catch {}  return fallback`), and for
    /// `except ImportError: pass`. An explanatory comment lowers strong evidence to a warning
    /// (for Rust discards: a comment added on the line above).
    /// ## Why it matters
    /// Swallowing the exception makes the failing path look like success: the test that
    /// exercised the error stops failing, and so does production, silently.
    /// ## Example
    /// Fires (error: the hunk removed the `raise`):
    ///
    /// ```python
    /// try:
    ///     charge(card)
    /// except PaymentError:
    ///     pass            # was: raise CheckoutFailed(...)
    /// ```
    ///
    /// Fires: `save().catch(() => {})`; `let _ = fs::write(path, data);` where base had
    /// `fs::write(path, data)?;`.
    /// ## Not flagged
    /// - Handlers that log, re-raise, return an error or record the failure.
    /// - Tests that assert an exception (`try { f(); fail() } catch {}`, `self.fail(...)`).
    /// - `except ImportError:` around an optional import with a fallback assignment (an empty
    ///   one is at most a note).
    /// - Handlers that already existed in base (also when moved or re-indented), and narrow
    ///   `contextlib.suppress(FileNotFoundError)`.
    /// - A handler rewritten around the same code that already swallowed at least as much in
    ///   base: `except (TimeoutError, Exception): pass` narrowed to `except (TimeoutError,
    ///   OSError): pass`, `.catch(noop)` spelled `.catch(() => {})`, `Err(_) => {}` spelled
    ///   `Err(_) => ()`.
    /// - A handler emptied whose base version around the same code already swallowed the error
    ///   and only did other work, which the change moved out: cleanup moved to `else:`, a
    ///   fallback value built after the `await` (`.catch(() => fallback)` →
    ///   `.catch(() => undefined)`). Raising, logging, reporting, using the error, building an
    ///   error value or setting a failure flag is not "other work": emptying that is an error.
    /// - Type tests (`*.test-d.ts`, `*.spec-d.tsx`): compiled by the type checker, never run.
    /// - Rust `let _ =` and `.ok()` on calls that base did not propagate, and `unwrap_or(..)`
    ///   replacing an `.unwrap()` (a panic turned into a default).
    /// ## Configuration
    /// `rules.empty-catch.severity` in `.integrity-gate.yml`; a deliberate handler that already
    /// exists in base can carry `// integrity-gate: allow empty-catch -- <reason>`.
    pub static EMPTY_CATCH = {
        id: "empty-catch",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "an error handler that swallows the error is added",
        maturity: Stable,
        check: Some(check),
    }
}

/// Whether `path` is a TypeScript type test: `*.test-d.ts`, `*.spec-d.tsx`, tsd's
/// `index.test-d.ts`.
fn type_test_file(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    [".test-d.", ".spec-d."]
        .iter()
        .any(|marker| file.contains(marker))
        && (file.ends_with(".ts") || file.ends_with(".tsx") || file.ends_with(".mts"))
}

/// Fact name for a swallowing handler that left a file's base (it may reappear elsewhere).
const SWALLOWED: &str = "swallowed";

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    if language == Language::Rust {
        rust::check(context, out);
    }
    // A type test (`*.test-d.ts`, vitest's typecheck and tsd) is compiled, never run: its
    // `catch {}` swallows nothing.
    if type_test_file(context.pair.path()) {
        return;
    }
    let head = handlers::collect(context, Side::Head, language);
    let base = handlers::collect(context, Side::Base, language);
    let count = |list: &[Handler]| {
        let mut counts: HashMap<(String, String), usize> = HashMap::new();
        for handler in list.iter().filter(|handler| handler.swallow.is_some()) {
            *counts
                .entry((handler.scope.clone(), handler.identity.clone()))
                .or_default() += 1;
        }
        counts
    };
    let head_counts = count(&head);
    let base_counts = count(&base);
    // Swallowing handlers base has more of than head: rewritten in place, or gone.
    let mut gone: HashMap<(String, String), usize> = base_counts
        .iter()
        .filter_map(|(id, in_base)| {
            let left = in_base.saturating_sub(head_counts.get(id).copied().unwrap_or(0));
            (left > 0).then(|| (id.clone(), left))
        })
        .collect();
    for handler in &head {
        let Some(swallow) = &handler.swallow else {
            continue;
        };
        if !context.pair.added.overlaps(handler.line, handler.end_line) || handler.asserts_exception
        {
            continue;
        }
        let id = (handler.scope.clone(), handler.identity.clone());
        if head_counts.get(&id) <= base_counts.get(&id) || was_swallowing(handler, &base, &mut gone)
        {
            continue;
        }
        let evidence = match judge_base(context, handler, &base) {
            Base::AlreadySwallowed => continue,
            Base::Evidence(evidence) => Some(evidence),
            Base::Silent => None,
        };
        if swallow.needs_evidence && evidence.is_none() {
            continue;
        }
        // A fallback only softens a new handler; with strong evidence it is still the change
        // that made the error disappear.
        let severity = match (&evidence, swallow.import_fallback) {
            (_, true) => Severity::Note,
            (Some(_), false) if swallow.commented => Severity::Warning,
            (Some(_), false) => Severity::Error,
            (None, false) if swallow.commented || handler.fallback => Severity::Note,
            (None, false) => Severity::Warning,
        };
        let mut message = format!("{} swallows the error", swallow.what);
        if let Some(evidence) = evidence {
            message.push_str("; ");
            message.push_str(&evidence);
        } else if swallow.import_fallback {
            message.push_str(" (an optional import without a fallback value)");
        } else if swallow.commented {
            message.push_str(" (only a comment explains it)");
        } else if handler.fallback {
            message.push_str(" (the code after the `try` falls back)");
        }
        out.candidates.push(Candidate {
            side: Side::Head,
            line: handler.line,
            end_line: handler.end_line,
            severity,
            message,
            key: format!("{}:{}", handler.scope, handler.identity),
            moved: Some(Moved {
                family: language.family(),
                key: handler.identity.clone(),
                already: crate::rules::FactRef::base(SWALLOWED),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
    // Handlers that left this file may reappear in another changed file (a move).
    for handler in base.iter().filter(|handler| handler.swallow.is_some()) {
        let id = (handler.scope.clone(), handler.identity.clone());
        if gone.get(&id).is_some_and(|left| *left > 0) {
            out.facts.push(Fact {
                side: Side::Base,
                name: SWALLOWED,
                family: language.family(),
                key: handler.identity.clone(),
                severity: Severity::Error,
            });
        }
    }
}

/// Whether `theirs` in base and `handler` in head are one handler rewritten: the same scope and
/// the same guarded code, and the base one caught at least what the head one does.
fn same_place(theirs: &Handler, handler: &Handler) -> bool {
    theirs.scope == handler.scope
        && theirs.place.is_some()
        && theirs.place == handler.place
        && theirs.caught.covers(&handler.caught)
}

/// Whether a base handler at the same place already swallowed at least what `handler` does, and
/// the change rewrote it (narrowed `except (TimeoutError, Exception)` to `except (TimeoutError,
/// OSError)`, `.catch(noop)` respelled `.catch(() => {})`). Each base handler answers once.
fn was_swallowing(
    handler: &Handler,
    base: &[Handler],
    gone: &mut HashMap<(String, String), usize>,
) -> bool {
    let counterpart = base.iter().find(|old| {
        old.swallow.is_some()
            && same_place(old, handler)
            && gone
                .get(&(old.scope.clone(), old.identity.clone()))
                .is_some_and(|left| *left > 0)
    });
    let Some(old) = counterpart else {
        return false;
    };
    if let Some(left) = gone.get_mut(&(old.scope.clone(), old.identity.clone())) {
        *left -= 1;
    }
    true
}

/// What base says about a new swallowing handler.
enum Base {
    /// The change made the error disappear (the message's tail says how).
    Evidence(String),
    /// The handler at the same place already swallowed the error in base and only did other
    /// work (cleanup, a fallback value), which the change moved out: not a new swallow.
    AlreadySwallowed,
    /// Nothing either way.
    Silent,
}

/// Pairs a new swallowing handler with what base had around the same code: a handler there
/// that already swallowed makes it not new; one whose work the change removed is evidence.
fn judge_base(context: &FileContext<'_>, handler: &Handler, base: &[Handler]) -> Base {
    if let Some(scrutinee) = handler.signature.strip_prefix("match ")
        && let Some(how) = rust::Compared::new(context)
            .and_then(|compared| compared.dropped(&handler.scope, scrutinee, rust::ANY))
    {
        return Base::Evidence(format!("base propagated `{scrutinee}` with {how}"));
    }
    // The same handler in base did something, and the change removed it.
    let removed = &context.pair.removed;
    let replaced: Vec<&Handler> = base
        .iter()
        .filter(|old| {
            old.swallow.is_none()
                && (old.scope == handler.scope && old.signature == handler.signature
                    || same_place(old, handler))
                && removed.overlaps(old.body_lines.0, old.body_lines.1)
        })
        .collect();
    // Leniency needs the tight pairing (same guarded code); any counterpart that let the
    // failure out keeps the finding.
    if replaced.iter().all(|old| !old.lets_failure_out)
        && replaced.iter().any(|old| same_place(old, handler))
    {
        return Base::AlreadySwallowed;
    }
    strong_evidence(context, handler, &replaced).map_or(Base::Silent, Base::Evidence)
}

/// Why the swallowing handler is certainly the change's doing, if the hunk shows it.
fn strong_evidence(
    context: &FileContext<'_>,
    handler: &Handler,
    replaced: &[&Handler],
) -> Option<String> {
    let removed = &context.pair.removed;
    let base_text = context.side(Side::Base)?.text;
    let replaced = replaced
        .iter()
        .find(|old| old.lets_failure_out)
        .or(replaced.first());
    if let Some(old) = replaced {
        let did = (old.body_lines.0..=old.body_lines.1)
            .filter(|line| removed.contains(*line))
            .filter_map(|line| base_text.lines().nth(line as usize - 1))
            .map(str::trim)
            .find(|line| !line.is_empty() && !is_comment(line) && !is_header(line))?;
        return Some(format!(
            "the change removed what the handler did before (`{}`)",
            super::markers::shorten(did, 60)
        ));
    }
    // The protected code existed before the change without this handler.
    let first = handler.protected_first_line.as_deref()?;
    let wrapped = removed.iter().any(|line| {
        base_text
            .lines()
            .nth(line as usize - 1)
            .is_some_and(|text| text.trim() == first)
    });
    wrapped.then(|| {
        format!(
            "it wraps code that ran unprotected before (`{}`)",
            super::markers::shorten(first, 60)
        )
    })
}

/// A line that only opens or closes the handler (`} catch (e) {`, `except X:`, `}`).
fn is_header(line: &str) -> bool {
    line.starts_with('}')
        || line.ends_with('{')
        || (line.starts_with("except") && line.ends_with(':'))
        || line == ")"
}

fn is_comment(line: &str) -> bool {
    ["//", "#", "/*", "*"]
        .iter()
        .any(|start| line.starts_with(start))
}

/// Whitespace-free text, so re-indentation and reformatting do not change identities.
pub(super) fn normalize(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

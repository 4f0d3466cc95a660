//! Settings passed by name: `verify=VERIFY`, `verify=settings.VERIFY_SSL`,
//! `rejectUnauthorized: config.tls.verify`, `danger_accept_invalid_certs(cfg.insecure)`. Such a
//! use is insecure only where the name is set to the insecure value, in the same file or in a
//! settings file, `.env` or YAML of the same change. Each file hands its uses over; the
//! change-level check pairs them with assignments on both sides and reports a pairing head
//! has and base did not: at the use when the use is new, else at the assignment.

use super::hits::{Hit, Kind};
use crate::finding::{Severity, Side};
use crate::rules::{Candidate, ChangeInput, ChangeOutput, FileContext, Output};
use regex::Regex;
use std::collections::HashSet;

/// One use of a named setting where a security check reads it.
#[derive(Clone, Debug)]
struct Use {
    /// The setting's last name segment (`VERIFY_SSL` of `settings.VERIFY_SSL`).
    name: String,
    /// Whether the insecure value is `true` (else `false`).
    insecure_true: bool,
    /// 1-based line.
    line: u32,
    /// The use as written, for messages.
    shown: String,
    /// What the setting controls.
    what: String,
    /// Whether the change adds this use (its identity is not in base).
    new: bool,
}

/// A file's uses, head and base.
#[derive(Debug, Default)]
struct Uses {
    head: Vec<Use>,
    base: Vec<Use>,
}

fn uses(hits: &[Hit]) -> Vec<Use> {
    hits.iter()
        .filter(|hit| matches!(hit.kind, Kind::ViaFalse | Kind::ViaTrue))
        .filter_map(|hit| {
            let value = hit.value.as_deref()?;
            Some(Use {
                name: last_segment(value)?,
                insecure_true: hit.kind == Kind::ViaTrue,
                line: hit.line,
                shown: hit.shown.clone(),
                what: hit.message.clone(),
                new: false,
            })
        })
        .collect()
}

/// `settings.VERIFY_SSL` → `VERIFY_SSL`, `config["verify_ssl"]` → `verify_ssl`,
/// `Settings::INSECURE` → `INSECURE`; `None` for names too short to pair safely.
pub(super) fn last_segment(value: &str) -> Option<String> {
    let trimmed = value.trim().trim_end_matches([']', ')']);
    let last = trimmed
        .rsplit(['.', '[', ':'])
        .next()?
        .trim_matches(['"', '\'', '`', ' ', '&']);
    let valid = last.len() >= 3 && last.chars().all(|c| c.is_alphanumeric() || c == '_');
    valid.then(|| last.to_string())
}

/// Hands the file's uses to the change-level check.
pub fn hand_off(context: &FileContext<'_>, head: &[Hit], base: &[Hit], out: &mut Output) {
    let mut head_uses = uses(head);
    let base_uses = uses(base);
    if head_uses.is_empty() {
        return;
    }
    let base_shown: HashSet<String> = base_uses
        .iter()
        .map(|found| super::normalize(&found.shown))
        .collect();
    for found in &mut head_uses {
        found.new = context.pair.added.contains(found.line)
            && !base_shown.contains(&super::normalize(&found.shown));
    }
    out.handoffs.push(Box::new(Uses {
        head: head_uses,
        base: base_uses,
    }));
}

/// One assignment of an insecure value to a name.
struct Assignment {
    pair: usize,
    line: u32,
    shown: String,
    added: bool,
}

/// Lines of `text` that set `name` to the insecure value: `VERIFY = False`,
/// `verify_ssl: false`, `const VERIFY = false;`, `VERIFY_SSL=0`, `let insecure = true;`.
pub(super) fn assignments(text: &str, name: &str, insecure_true: bool) -> Vec<(u32, String)> {
    let values = if insecure_true {
        "true|1|yes|on"
    } else {
        "false|0|no|off"
    };
    let pattern = format!(
        r#"(?i)^\s*(?:export\s+)?(?:(?:pub(?:\([^)]*\))?\s+)?(?:const|let|var|static)\s+(?:mut\s+)?)?(?:self\.|this\.|cls\.)?["']?{}["']?\s*(?::\s*[A-Za-z_][\w:<>]*\s*)?[:=]\s*["']?(?:{values})["']?\s*[,;]?\s*(?:(?:#|//).*)?$"#,
        regex::escape(name)
    );
    let Ok(pattern) = Regex::new(&pattern) else {
        return Vec::new();
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| pattern.is_match(line))
        .filter_map(|(index, line)| Some((u32::try_from(index + 1).ok()?, line.trim().to_string())))
        .collect()
}

/// Pairs every file's uses with the change's assignments.
pub fn judge(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let mut reported: HashSet<(usize, u32)> = HashSet::new();
    for (index, handoff) in &input.handoffs {
        let Some(uses) = handoff.downcast_ref::<Uses>() else {
            continue;
        };
        for found in &uses.head {
            let mut head_assignments = Vec::new();
            let mut base_assigned: HashSet<String> = HashSet::new();
            for (pair_index, pair) in input.pairs.iter().enumerate() {
                if let Some(text) = pair.head.text() {
                    for (line, shown) in assignments(text, &found.name, found.insecure_true) {
                        head_assignments.push(Assignment {
                            pair: pair_index,
                            line,
                            added: pair.added.contains(line),
                            shown,
                        });
                    }
                }
                if let Some(text) = pair.base.text() {
                    base_assigned.extend(
                        assignments(text, &found.name, found.insecure_true)
                            .into_iter()
                            .map(|(_, shown)| super::normalize(&shown)),
                    );
                }
            }
            let used_in_base = uses.base.iter().any(|old| old.name == found.name);
            for assignment in head_assignments {
                let paired_in_base =
                    used_in_base && base_assigned.contains(&super::normalize(&assignment.shown));
                if paired_in_base || !(found.new || assignment.added) {
                    continue;
                }
                let Some(pair) = input.pairs.get(assignment.pair) else {
                    continue;
                };
                let Some(use_pair) = input.pairs.get(*index) else {
                    continue;
                };
                let (at_pair, at_line, message) = if found.new {
                    (
                        *index,
                        found.line,
                        format!(
                            "{} is switched off through a setting: `{}` with `{}` ({}:{})",
                            found.what,
                            found.shown,
                            assignment.shown,
                            pair.path(),
                            assignment.line
                        ),
                    )
                } else {
                    (
                        assignment.pair,
                        assignment.line,
                        format!(
                            "`{}` switches {} off where `{}` reads it ({}:{})",
                            assignment.shown,
                            found.what.to_lowercase(),
                            found.shown,
                            use_pair.path(),
                            found.line
                        ),
                    )
                };
                if !reported.insert((at_pair, at_line)) {
                    continue;
                }
                let tests = input
                    .pairs
                    .get(at_pair)
                    .is_some_and(|pair| super::in_tests(pair.path()));
                let severity = if tests {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                out.candidates.push((
                    at_pair,
                    Candidate::at_line(
                        Side::Head,
                        at_line,
                        severity,
                        message,
                        format!("indirect:{}", found.name),
                    ),
                ));
            }
        }
    }
}

//! A test file moved from one test harness to another: the helpers it imported in base are
//! gone from it in head, and new ones came in (`setupCommandMocks()` and `executeCommand(..)`
//! → `runOnEngine(..)`). Checks that read only the old harness's output (`JSON.parse` of the
//! captured console, the `'process.exit called'` that its `process.exit` stand-in threw) could
//! not stay: the new harness delivers that output another way. Such a removal is still
//! reported, as a warning naming the harness, since the file's own code cannot show that the
//! new harness checks the same thing.
//!
//! Read from the file's text alone, line by line: imported names, then the local names
//! assigned from them (a few steps deep: `mocks = setupCommandMocks()`, `consoleOutput =
//! mocks.consoleOutput`, `jsonOutput = consoleOutput.join('\n')`). A name still written
//! anywhere in head does not count, so a check whose subject survives is never excused.

use std::collections::{HashMap, HashSet};

/// Assignment steps followed from an imported name to the locals that hold its output.
const STEPS: usize = 4;

/// Lines read per side; past it the file is judged without this excuse.
const MAX_LINES: usize = 20_000;

/// Names of the old harness in one test file: imported by base, assigned from those in base,
/// and written nowhere in head. Empty unless head imports something base did not.
#[derive(Debug, Default)]
pub struct HarnessSwitch {
    /// Each old-harness name, with the import its value came from.
    gone: HashMap<String, String>,
}

impl HarnessSwitch {
    pub fn of(base: &str, head: &str) -> HarnessSwitch {
        if base.lines().count() > MAX_LINES || head.lines().count() > MAX_LINES {
            return HarnessSwitch::default();
        }
        let head_words: HashSet<&str> = words(head).collect();
        let base_words: HashSet<&str> = words(base).collect();
        let base_imports = imported(base);
        let head_imports = imported(head);
        let arrived = head_imports
            .iter()
            .any(|name| !base_words.contains(name.as_str()));
        let imported_gone: Vec<String> = base_imports
            .into_iter()
            .filter(|name| !head_words.contains(name.as_str()))
            .collect();
        if !arrived || imported_gone.is_empty() {
            return HarnessSwitch::default();
        }
        let mut gone: HashMap<String, String> = imported_gone
            .iter()
            .map(|name| (name.clone(), name.clone()))
            .collect();
        let assignments: Vec<(Vec<&str>, Vec<&str>)> =
            base.lines().filter_map(assignment).collect();
        for _ in 0..STEPS {
            let before = gone.len();
            for (targets, read) in &assignments {
                let Some(origin) = read.iter().find_map(|name| gone.get(*name)).cloned() else {
                    continue;
                };
                for target in targets {
                    if !head_words.contains(*target) && !gone.contains_key(*target) {
                        gone.insert(target.to_string(), origin.clone());
                    }
                }
            }
            if gone.len() == before {
                break;
            }
        }
        HarnessSwitch { gone }
    }

    /// The imports of the old harness, by name.
    pub fn gone_imports(&self) -> Vec<&str> {
        let mut imports: Vec<&str> = self.gone.values().map(String::as_str).collect();
        imports.sort_unstable();
        imports.dedup();
        imports
    }

    /// The import of the old harness whose output `text` reads (first by position).
    pub fn read_by(&self, text: &str) -> Option<&str> {
        if self.gone.is_empty() {
            return None;
        }
        words(text).find_map(|word| self.gone.get(word).map(String::as_str))
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|word| !word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()))
}

/// Names a file imports: `import { a, b as c } from '..'` (over several lines), `import d from
/// '..'`, `const { e } = require('..')`, `from m import f, g`.
fn imported(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_braces = false;
    let mut in_python_parens = false;
    for line in text.lines().take(MAX_LINES) {
        let trimmed = line.trim();
        let mut take = |list: &str| {
            for item in list.split(',') {
                let item = item.trim().trim_start_matches("type ");
                let local = item.rsplit(" as ").next().unwrap_or(item).trim();
                let local = local.rsplit(':').next().unwrap_or(local);
                let local = local.trim().trim_matches(['{', '}']).trim();
                if !local.is_empty() && words(local).count() == 1 && local != "*" {
                    names.push(local.to_string());
                }
            }
        };
        if in_braces || in_python_parens {
            let closing = if in_braces { '}' } else { ')' };
            let (list, closed) = match trimmed.split_once(closing) {
                Some((list, _)) => (list, true),
                None => (trimmed, false),
            };
            take(list);
            if closed {
                in_braces = false;
                in_python_parens = false;
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("import ") {
            let rest = rest.trim_start_matches("type ");
            if let Some(after) = rest.split_once('{').map(|(_, after)| after) {
                match after.split_once('}') {
                    Some((list, _)) => take(list),
                    None => {
                        take(after);
                        in_braces = true;
                    }
                }
            } else if let Some((default, _)) = rest.split_once(" from ") {
                take(default.trim_end_matches(','));
            }
        } else if let Some(path) = trimmed
            .strip_prefix("use ")
            .or_else(|| trimmed.strip_prefix("pub use "))
        {
            // Rust: `use support::nu;`, `use support::{nu, pipeline};`, `use x::y as z;`.
            let path = path.trim_end_matches(';');
            match path.split_once('{') {
                Some((_, after)) => match after.rsplit_once('}') {
                    Some((list, _)) => take(list),
                    None => {
                        take(after);
                        in_braces = true;
                    }
                },
                None => take(path),
            }
        } else if trimmed.contains("require(") && trimmed.starts_with("const ") {
            if let Some((left, _)) = trimmed.split_once('=') {
                let left = left.trim_start_matches("const ").trim();
                take(left.trim_matches(|c| c == '{' || c == '}' || c == ' '));
            }
        } else if trimmed.starts_with("from ")
            && let Some((_, list)) = trimmed.split_once(" import ")
        {
            match list.trim().strip_prefix('(') {
                Some(inner) => match inner.split_once(')') {
                    Some((list, _)) => take(list),
                    None => {
                        take(inner);
                        in_python_parens = true;
                    }
                },
                None => take(list),
            }
        }
    }
    names
}

/// `const { a, b } = expr`, `let x = expr`, `x = expr`, `self.x = expr`: the names assigned
/// and the names the right side reads.
fn assignment(line: &str) -> Option<(Vec<&str>, Vec<&str>)> {
    let trimmed = line.trim();
    let trimmed = ["const ", "let ", "var "]
        .iter()
        .find_map(|keyword| trimmed.strip_prefix(keyword))
        .unwrap_or(trimmed);
    let (left, right) = trimmed.split_once('=')?;
    // `==`, `=>`, `<=`, `!=` are no assignments.
    if right.starts_with(['=', '>']) || left.ends_with(['<', '>', '!', '=']) {
        return None;
    }
    let left = left.split(':').next().unwrap_or(left);
    let targets: Vec<&str> = words(left)
        .filter(|word| !matches!(*word, "this" | "self"))
        .collect();
    if targets.is_empty() || targets.len() > 8 {
        return None;
    }
    Some((targets, words(right).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "import { describe, it, expect } from 'vitest';\nimport {\n  executeCommand,\n  setupCommandMocks,\n} from './utils/cli-test-helpers';\n\nlet consoleOutput: string[] = [];\nbeforeEach(() => {\n  const mocks = setupCommandMocks();\n  consoleOutput = mocks.consoleOutput;\n});\nit('emits', async () => {\n  await executeCommand(command, ['--json']);\n  const jsonOutput = consoleOutput.join('\\n');\n  expect(() => JSON.parse(jsonOutput)).not.toThrow();\n  expect(result.exitCode).toBe(0);\n});\n";
    const HEAD: &str = "import { describe, it, expect } from 'vitest';\nimport { runOnEngine } from './utils/engine';\n\nit('emits', async () => {\n  const run = await runOnEngine(setup, ['contract', 'emit', '--json']);\n  expect(run.exitCode).toBe(0);\n});\n";

    #[test]
    fn names_that_hold_the_old_harness_output_are_gone() {
        let switch = HarnessSwitch::of(BASE, HEAD);
        assert_eq!(
            switch.read_by("expect(() => JSON.parse(jsonOutput)).not.toThrow()"),
            Some("setupCommandMocks")
        );
        assert_eq!(
            switch.read_by("await expect(executeCommand(command, [])).rejects.toThrow()"),
            Some("executeCommand")
        );
        assert_eq!(switch.read_by("expect(result.exitCode).toBe(0)"), None);
    }

    #[test]
    fn rust_use_declarations_are_imports() {
        let base = "use support::nu;\nuse support::{fs::Stub, playground::Playground};\n\n#[test]\nfn t() {\n    let actual = nu!(\"ls\");\n    assert_eq!(actual.out, \"a\");\n}\n";
        let head = "use rstest::rstest;\nuse support::prelude::*;\n\n#[test]\nfn t() -> Result {\n    test().run(\"ls\").expect_value_eq(\"a\")\n}\n";
        assert_eq!(
            imported(base),
            vec![
                "nu".to_string(),
                "Stub".to_string(),
                "Playground".to_string()
            ]
        );
        let switch = HarnessSwitch::of(base, head);
        assert_eq!(switch.read_by("letactual=nu!(\"ls\");"), Some("nu"));
        assert_eq!(HarnessSwitch::of(base, base).read_by("nu!(\"ls\")"), None);
    }

    #[test]
    fn no_new_import_means_no_switch() {
        let head = HEAD.replace("import { runOnEngine } from './utils/engine';\n", "");
        let switch = HarnessSwitch::of(BASE, &head);
        assert_eq!(switch.read_by("JSON.parse(jsonOutput)"), None);
    }

    #[test]
    fn a_name_head_still_writes_is_not_excused() {
        let head = format!("{HEAD}const jsonOutput = '';\n");
        let switch = HarnessSwitch::of(BASE, &head);
        assert_eq!(switch.read_by("JSON.parse(jsonOutput)"), None);
    }

    #[test]
    fn python_imports_in_parentheses() {
        let base = "from tests.helpers import (\n    run_cli,\n    capture,\n)\n\ndef test_x():\n    out = capture(run_cli(['x']))\n    assert 'ok' in out\n";
        let head = "from tests.engine import invoke\n\ndef test_x():\n    result = invoke(['x'])\n    assert result.code == 0\n";
        let switch = HarnessSwitch::of(base, head);
        assert_eq!(switch.read_by("assert 'ok' in out"), Some("capture"));
    }
}

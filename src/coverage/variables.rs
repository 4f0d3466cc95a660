//! Thresholds passed through a variable: `COV_MIN ?= 95` in a Makefile, `COV_MIN=95` in a
//! script, `const COV_MIN = 95` in a JavaScript build script, `env: { COV_MIN: 95 }` in a
//! workflow. A command's `$(COV_MIN)`, `${COV_MIN}`, `$COV_MIN` and `${{ env.COV_MIN }}` read the
//! number the file defines, so lowering the variable lowers the threshold. Only numbers are
//! substituted: anything else stays as written (and counts as no literal).

use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // constant pattern, exercised by tests
    Regex::new(
        r#"^(?:export\s+|(?:const|let|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?=|:=|::=|=)\s*["']?(\d+(?:\.\d+)?)["']?\s*;?\s*(?:#.*)?$"#,
    )
    .expect("valid regex")
});

static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // constant pattern, exercised by tests
    Regex::new(
        r"\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$\(([A-Za-z_][A-Za-z0-9_]*)\)|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-(\d+(?:\.\d+)?))?\}|\$([A-Za-z_][A-Za-z0-9_]*)",
    )
    .expect("valid regex")
});

/// Numeric variables a file defines at its top level (lines not indented by a tab, so a
/// recipe's shell assignment does not leak into other targets).
pub(crate) fn numeric_definitions(lines: &[&str]) -> HashMap<String, String> {
    let mut found = HashMap::new();
    for line in lines {
        if line.starts_with('\t') {
            continue;
        }
        if let Some(captures) = DEFINITION.captures(line.trim()) {
            found.insert(captures[1].to_string(), captures[2].to_string());
        }
    }
    found
}

/// `text` with each reference to a numeric variable replaced by its value (a `${NAME:-90}`
/// default stands when the variable is not defined).
pub(crate) fn substitute(text: &str, variables: &HashMap<String, String>) -> String {
    if !text.contains('$') {
        return text.to_string();
    }
    REFERENCE
        .replace_all(text, |captures: &regex::Captures<'_>| {
            let name = (1..=5)
                .filter(|group| *group != 4)
                .find_map(|group| captures.get(group))
                .map(|name| name.as_str())
                .unwrap_or_default();
            match variables.get(name) {
                Some(value) => value.clone(),
                None => captures.get(4).map_or_else(
                    || captures[0].to_string(),
                    |default| default.as_str().to_string(),
                ),
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_and_references() {
        let lines = [
            "COV_MIN ?= 95",
            "export BRANCHES=80 # why",
            "const STATEMENTS = 97;",
            "\tLOCAL=1",
            "NAME = src",
        ];
        let vars = numeric_definitions(&lines);
        assert_eq!(vars.len(), 3);
        assert_eq!(
            substitute(
                "pytest --cov-fail-under=$(COV_MIN) --x=${BRANCHES} $STATEMENTS",
                &vars
            ),
            "pytest --cov-fail-under=95 --x=80 97"
        );
        assert_eq!(
            substitute("--fail-under=${{ env.COV_MIN }}", &vars),
            "--fail-under=95"
        );
        assert_eq!(
            substitute("--fail-under=${MISSING:-90}", &vars),
            "--fail-under=90"
        );
        assert_eq!(
            substitute("--fail-under=$MISSING", &vars),
            "--fail-under=$MISSING"
        );
    }
}

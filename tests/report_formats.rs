//! The formats for other CIs through the binary on a real repository: GitLab Code Quality
//! checked against the required fields of GitLab's documented format (a schema fixture
//! written from the documentation, `tests/golden/report/gitlab-code-quality.schema.json`),
//! JUnit's one case per rule, and the Markdown summary. The golden files of the shared sample
//! report are checked against the same schema.

use crate::cli::{BASE_TEST, TEST_FILE, repo_with_branch};
use crate::support::{Repo, stderr, stdout};
use serde_json::Value;

fn golden_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/report")
}

fn schema() -> Value {
    let text = std::fs::read_to_string(golden_dir().join("gitlab-code-quality.schema.json"))
        .expect("schema fixture");
    serde_json::from_str(&text).expect("schema fixture is JSON")
}

/// Every violation of `schema` by `value`, as `path: reason`. Knows exactly the keywords the
/// fixture uses; any other keyword is itself a violation, so the fixture cannot grow a
/// constraint that nothing checks.
fn violations(schema: &Value, value: &Value, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(rules) = schema.as_object() else {
        return vec![format!("{at}: schema is not an object")];
    };
    for (keyword, rule) in rules {
        match keyword.as_str() {
            "$comment" => {}
            "type" => {
                let ok = match rule.as_str() {
                    Some("array") => value.is_array(),
                    Some("object") => value.is_object(),
                    Some("string") => value.is_string(),
                    Some("integer") => value.is_u64() || value.is_i64(),
                    _ => false,
                };
                if !ok {
                    out.push(format!("{at}: expected {rule}, got {value}"));
                }
            }
            "required" => {
                for name in rule.as_array().into_iter().flatten() {
                    let name = name.as_str().unwrap_or_default();
                    if value.get(name).is_none() {
                        out.push(format!("{at}: missing `{name}`"));
                    }
                }
            }
            "properties" => {
                for (name, sub) in rule.as_object().into_iter().flatten() {
                    if let Some(field) = value.get(name) {
                        out.extend(violations(sub, field, &format!("{at}.{name}")));
                    }
                }
            }
            "items" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    out.extend(violations(rule, item, &format!("{at}[{i}]")));
                }
            }
            "enum" => {
                if !rule.as_array().is_some_and(|values| values.contains(value)) {
                    out.push(format!("{at}: {value} is not one of {rule}"));
                }
            }
            "minimum" => {
                if value.as_i64().zip(rule.as_i64()).is_none_or(|(v, m)| v < m) {
                    out.push(format!("{at}: {value} is below {rule}"));
                }
            }
            "minLength" => {
                let min = rule.as_u64().unwrap_or(0) as usize;
                if value.as_str().is_none_or(|s| s.chars().count() < min) {
                    out.push(format!("{at}: shorter than {min}"));
                }
            }
            "x-not-prefix" => {
                let prefix = rule.as_str().unwrap_or_default();
                if value.as_str().is_some_and(|s| s.starts_with(prefix)) {
                    out.push(format!("{at}: starts with {prefix}"));
                }
            }
            "x-unique-by" => {
                let field = rule.as_str().unwrap_or_default();
                let mut seen = std::collections::BTreeSet::new();
                for item in value.as_array().into_iter().flatten() {
                    if !seen.insert(item[field].to_string()) {
                        out.push(format!("{at}: repeated {field} {}", item[field]));
                    }
                }
            }
            other => out.push(format!("{at}: the validator does not know `{other}`")),
        }
    }
    out
}

#[test]
fn the_schema_check_rejects_what_gitlab_would() {
    let schema = schema();
    let good = serde_json::json!([{
        "description": "d", "check_name": "c", "fingerprint": "f", "severity": "major",
        "location": { "path": "a.py", "lines": { "begin": 1 } }
    }]);
    assert_eq!(violations(&schema, &good, "$"), Vec::<String>::new());
    type Breaking = fn(&mut Value);
    let broken: [(&str, Breaking); 6] = [
        ("missing `check_name`", |v| {
            v[0].as_object_mut().unwrap().remove("check_name");
        }),
        ("is not one of", |v| v[0]["severity"] = "error".into()),
        ("starts with ./", |v| {
            v[0]["location"]["path"] = "./a.py".into()
        }),
        ("below", |v| v[0]["location"]["lines"]["begin"] = 0.into()),
        ("missing `lines`", |v| {
            v[0]["location"].as_object_mut().unwrap().remove("lines");
        }),
        ("repeated fingerprint", |v| {
            let copy = v[0].clone();
            v.as_array_mut().unwrap().push(copy);
        }),
    ];
    for (expected, breaking) in broken {
        let mut value = good.clone();
        breaking(&mut value);
        let found = violations(&schema, &value, "$");
        assert!(
            found.iter().any(|v| v.contains(expected)),
            "{expected}: {found:?}"
        );
    }
}

#[test]
fn the_golden_gitlab_report_meets_the_schema() {
    let text = std::fs::read_to_string(golden_dir().join("sample.gitlab.json")).unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    assert!(report.as_array().is_some_and(|a| a.len() >= 5));
    assert_eq!(violations(&schema(), &report, "$"), Vec::<String>::new());
}

/// main has two tests; the branch skips one and deletes the other.
fn cheating_repo() -> Repo {
    repo_with_branch(|repo| {
        let (kept, _deleted) =
            BASE_TEST.split_at(BASE_TEST.find("\n\n\ndef test_removes").unwrap());
        repo.write(
            TEST_FILE,
            format!(
                "{}\n",
                kept.replace("def test_adds", "@pytest.mark.skip\ndef test_adds")
            ),
        );
    })
}

#[test]
fn gitlab_format_through_the_binary() {
    let repo = cheating_repo();
    let output = repo.run(&["diff", "main", "--format", "gitlab"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(violations(&schema(), &report, "$"), Vec::<String>::new());
    let rules: Vec<&str> = report
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|issue| issue["check_name"].as_str())
        .collect();
    assert_eq!(rules, ["skipped-test", "deleted-test"]);
    assert_eq!(report[0]["location"]["path"], TEST_FILE);
    assert_eq!(report[0]["location"]["lines"]["begin"], 4);
    assert_eq!(report[0]["severity"], "critical");
    assert!(
        report[1]["description"]
            .as_str()
            .is_some_and(|d| d.ends_with("(base revision, line 8)")),
        "{report}"
    );
}

#[test]
fn junit_format_through_the_binary() {
    let repo = cheating_repo();
    let output = repo.run(&["diff", "main", "--format", "junit"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let xml = stdout(&output);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    let rules = integrity_gate::rules::ALL_RULES.len();
    assert_eq!(xml.matches("<testcase ").count(), rules, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 2, "{xml}");
    assert!(
        xml.contains(&format!("tests=\"{rules}\" failures=\"2\"")),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase classname=\"integrity-gate\" name=\"skipped-test\">\n      <failure type=\"error\" message=\"tests/test_cart.py:4: "),
        "{xml}"
    );
    assert!(xml.trim_end().ends_with("</testsuites>"));
}

#[test]
fn markdown_format_through_the_binary() {
    let repo = cheating_repo();
    let output = repo.run(&["diff", "main", "--format", "markdown"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let md = stdout(&output);
    assert!(
        md.starts_with("## ❌ integrity-gate: 2 blocking findings"),
        "{md}"
    );
    assert!(md.contains("### Removed by this change"), "{md}");
    assert!(md.contains("@pytest.mark.skip"), "{md}");
}

/// A range past the progress bar's threshold, run with stderr captured (not a terminal): no
/// bar, no escape sequence, nothing on stderr at all, in every format.
#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let repo = Repo::new();
    repo.write("README.md", "base\n");
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let files = integrity_gate::progress::MIN_FILES + 20;
    for i in 0..files {
        repo.write(
            &format!("src/m{i:04}.py"),
            format!("def f{i}():\n    return {i}\n"),
        );
    }
    repo.commit("many files");
    for format in ["human", "markdown", "json"] {
        let output = repo.run(&["diff", "main", "--format", format]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{format}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{format}");
        assert!(!stdout(&output).contains("files\r"), "{format}");
    }
    let summary = stdout(&repo.run(&["diff", "main"]));
    assert!(
        summary.contains(&format!("in {files} changed files")),
        "{summary}"
    );
}

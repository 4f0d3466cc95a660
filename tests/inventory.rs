//! The test inventory summary end to end: a real repository where one test moves to another
//! file and another is deleted, checked in the JSON, human and SARIF outputs.

use crate::support::{Repo, json, stderr, stdout};

fn moved_and_deleted() -> Repo {
    let repo = Repo::new();
    repo.write(
        "tests/test_a.py",
        "def test_moves():\n    assert move() == 1\n\n\ndef test_goes():\n    assert gone() == 2\n\n\ndef test_stays():\n    assert stay() == 3\n",
    );
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "tests/test_a.py",
        "def test_stays():\n    assert stay() == 3\n",
    );
    repo.write(
        "tests/test_b.py",
        "def test_moves():\n    assert move() == 1\n\n\ndef test_new():\n    assert new() == 4\n",
    );
    repo.commit("head");
    repo
}

#[test]
fn a_move_is_not_a_deletion_and_the_summary_counts_both() {
    let repo = moved_and_deleted();
    let output = repo.run(&["diff", "main", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = json(&output);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["rule"], "deleted-test");
    assert_eq!(findings[0]["side"], "base");
    assert_eq!(findings[0]["path"], "tests/test_a.py");
    assert_eq!(findings[0]["line"], 5);
    assert_eq!(
        report["summary"]["tests"],
        serde_json::json!({"base": 3, "head": 3, "added": 1, "deleted": 1, "skipped": 0})
    );
    let human = repo.run(&["diff", "main", "--format", "human"]);
    assert!(
        stdout(&human).contains("tests: 3 → 3; 1 deleted, 0 newly skipped, 1 added"),
        "{}",
        stdout(&human)
    );
    let sarif = json(&repo.run(&["diff", "main", "--format", "sarif"]));
    assert_eq!(sarif["runs"][0]["properties"]["tests"]["deleted"], 1);
}

//! The text judgements the query kinds rest on.

use super::added::mentions_password;
use super::hits::constant;
use super::indirect::{assignments, last_segment};

#[test]
fn constants_are_literals_without_substitutions() {
    for literal in [
        "\"git status\"",
        "'ls'",
        "r\"raw\"",
        "b'bytes'",
        "`plain`",
        "f\"no braces\"",
        "[\"-c\", \"uptime\"]",
        "42",
        "r#\"raw\"#",
    ] {
        assert!(constant(literal), "{literal}");
    }
    for built in [
        "cmd",
        "f\"convert {name}\"",
        "`make ${target}`",
        "\"rm -rf \" + path",
        "format!(\"tar {dir}\")",
        "\"a\" + \"b\"",
        "[\"-c\", cmd]",
    ] {
        assert!(!constant(built), "{built}");
    }
}

#[test]
fn a_setting_is_named_by_its_last_segment() {
    assert_eq!(
        last_segment("settings.VERIFY_SSL").as_deref(),
        Some("VERIFY_SSL")
    );
    assert_eq!(
        last_segment("config[\"verify_ssl\"]").as_deref(),
        Some("verify_ssl")
    );
    assert_eq!(
        last_segment("Settings::INSECURE").as_deref(),
        Some("INSECURE")
    );
    assert_eq!(last_segment("&cfg.insecure").as_deref(), Some("insecure"));
    // Too short to pair safely across files.
    assert_eq!(last_segment("ok"), None);
}

#[test]
fn insecure_assignments_in_code_and_configuration() {
    let text = "VERIFY_SSL = False\nverify_ssl: false\nconst VERIFY_SSL = false;\n\
                export VERIFY_SSL=0\nVERIFY_SSL = True\nif VERIFY_SSL == False:\n\
                requests.get(url, verify_ssl=False)\n";
    let lines: Vec<u32> = assignments(text, "VERIFY_SSL", false)
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    assert_eq!(lines, vec![1, 2, 3, 4]);
    let rust = "const INSECURE: bool = true;\nlet insecure = false;\n";
    let lines: Vec<u32> = assignments(rust, "INSECURE", true)
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    assert_eq!(lines, vec![1]);
}

#[test]
fn password_evidence_is_a_word_not_a_substring() {
    for yes in [
        "password",
        "user_pass",
        "hash_pwd(",
        "PASSWD",
        "new_passphrase",
        "pw)",
    ] {
        assert!(mentions_password(yes), "{yes}");
    }
    for no in ["bypass_cache", "passthrough", "compass", "power"] {
        assert!(!mentions_password(no), "{no}");
    }
}

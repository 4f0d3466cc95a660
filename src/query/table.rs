//! The hand-written table of embedded queries. Keep it sorted by language, then name; the test
//! `query::tests::table_matches_files` fails when this table and `queries/` disagree.

use super::QuerySource;
use crate::lang::Language;

macro_rules! queries {
    ($($language:ident / $name:literal),* $(,)?) => {
        /// Every embedded query, in table order.
        pub static QUERY_SOURCES: &[QuerySource] = &[
            $(QuerySource {
                language: Language::$language,
                name: $name,
                text: include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"), "/queries/", queries!(@dir $language), "/", $name, ".scm"
                )),
            }),*
        ];
    };
    (@dir JavaScript) => { "javascript" };
    (@dir TypeScript) => { "typescript" };
    (@dir Tsx) => { "tsx" };
    (@dir Python) => { "python" };
    (@dir Rust) => { "rust" };
}

queries! {
    JavaScript / "aliases",
    JavaScript / "assertions",
    JavaScript / "commented-out-validation",
    JavaScript / "comments",
    JavaScript / "disabled-check",
    JavaScript / "empty-catch",
    JavaScript / "focused-test",
    JavaScript / "logged-secret",
    JavaScript / "skipped-test",
    JavaScript / "test-fitted-code",
    JavaScript / "tests",
    JavaScript / "todo-stub",
    JavaScript / "weakened-security",
    JavaScript / "unsafe-operation",
    TypeScript / "aliases",
    TypeScript / "assertions",
    TypeScript / "commented-out-validation",
    TypeScript / "comments",
    TypeScript / "disabled-check",
    TypeScript / "empty-catch",
    TypeScript / "focused-test",
    TypeScript / "logged-secret",
    TypeScript / "skipped-test",
    TypeScript / "test-fitted-code",
    TypeScript / "tests",
    TypeScript / "todo-stub",
    TypeScript / "weakened-security",
    TypeScript / "unsafe-operation",
    Tsx / "aliases",
    Tsx / "assertions",
    Tsx / "commented-out-validation",
    Tsx / "comments",
    Tsx / "disabled-check",
    Tsx / "empty-catch",
    Tsx / "focused-test",
    Tsx / "logged-secret",
    Tsx / "skipped-test",
    Tsx / "test-fitted-code",
    Tsx / "tests",
    Tsx / "todo-stub",
    Tsx / "weakened-security",
    Tsx / "unsafe-operation",
    Python / "aliases",
    Python / "assertions",
    Python / "commented-out-validation",
    Python / "comments",
    Python / "disabled-check",
    Python / "empty-catch",
    Python / "focused-test",
    Python / "logged-secret",
    Python / "skipped-test",
    Python / "test-fitted-code",
    Python / "tests",
    Python / "todo-stub",
    Python / "weakened-security",
    Python / "unsafe-operation",
    Rust / "aliases",
    Rust / "assertions",
    Rust / "commented-out-validation",
    Rust / "comments",
    Rust / "disabled-check",
    Rust / "empty-catch",
    Rust / "logged-secret",
    Rust / "skipped-test",
    Rust / "test-fitted-code",
    Rust / "tests",
    Rust / "todo-stub",
    Rust / "weakened-security",
    Rust / "unsafe-operation",
}

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
    JavaScript / "disabled-check",
    JavaScript / "empty-catch",
    JavaScript / "focused-test",
    JavaScript / "skipped-test",
    JavaScript / "tests",
    TypeScript / "disabled-check",
    TypeScript / "empty-catch",
    TypeScript / "focused-test",
    TypeScript / "skipped-test",
    TypeScript / "tests",
    Tsx / "disabled-check",
    Tsx / "empty-catch",
    Tsx / "focused-test",
    Tsx / "skipped-test",
    Tsx / "tests",
    Python / "disabled-check",
    Python / "empty-catch",
    Python / "focused-test",
    Python / "skipped-test",
    Python / "tests",
    Rust / "disabled-check",
    Rust / "empty-catch",
    Rust / "skipped-test",
    Rust / "tests",
}

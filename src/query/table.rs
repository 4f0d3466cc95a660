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
    JavaScript / "assertions",
    JavaScript / "focused-test",
    JavaScript / "skipped-test",
    JavaScript / "tests",
    TypeScript / "assertions",
    TypeScript / "focused-test",
    TypeScript / "skipped-test",
    TypeScript / "tests",
    Tsx / "assertions",
    Tsx / "focused-test",
    Tsx / "skipped-test",
    Tsx / "tests",
    Python / "assertions",
    Python / "focused-test",
    Python / "skipped-test",
    Python / "tests",
    Rust / "assertions",
    Rust / "skipped-test",
    Rust / "tests",
}

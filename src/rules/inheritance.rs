//! Python test classes that run tests they inherit: `class TestRequest(TestRequestBase)` runs
//! every `test_*` method of `TestRequestBase`, wherever that class lives (a helper module
//! outside the runner's file patterns, such as `tests/utils/bases/http_request.py`). A test
//! moved up into such a base, or a base class moved out of the collected files while its
//! subclasses keep inheriting it, still runs.
//!
//! Read from each file's text, line by line (bounded): `class` headers with their bases.

/// Lines read per file; past it the file's classes are not read (no excuse is made).
const MAX_LINES: usize = 20_000;

/// One class of a Python file.
#[derive(Debug, PartialEq, Eq)]
pub struct Class {
    pub name: String,
    /// The base classes' last names (`bases.TestRequestBase` → `TestRequestBase`).
    pub bases: Vec<String>,
}

/// The classes of a Python file, in order.
pub fn classes(text: &str) -> Vec<Class> {
    if text.lines().count() > MAX_LINES {
        return Vec::new();
    }
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("class "))
        .filter_map(header)
        .collect()
}

/// A class header's name and bases: what follows `class ` (`TestX(bases.Base, metaclass=M):`).
pub fn header(header: &str) -> Option<Class> {
    let name: String = header
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return None;
    }
    let bases = header[name.len()..]
        .trim_start()
        .strip_prefix('(')
        .and_then(|rest| rest.split(')').next())
        .map(|list| {
            list.split(',')
                .map(str::trim)
                .filter(|base| !base.is_empty() && !base.contains('='))
                .map(|base| base.rsplit('.').next().unwrap_or(base).to_string())
                .collect()
        })
        .unwrap_or_default();
    Some(Class { name, bases })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_with_their_bases() {
        let text = "import x\n\nclass TestRequestBase:\n    request_class = None\n\n    def test_init(self):\n        def inner():\n            pass\n        assert inner\n\n    async def test_async(self):\n        pass\n\n\nclass TestRequest(bases.TestRequestBase, metaclass=Meta):\n    request_class = Request\n\n    class Inner:\n        def helper(self):\n            pass\n\n    def test_xml(self):\n        pass\n\ndef test_free():\n    pass\n";
        let found = classes(text);
        let class = |name: &str, bases: &[&str]| Class {
            name: name.into(),
            bases: bases.iter().map(|base| base.to_string()).collect(),
        };
        assert_eq!(
            found,
            vec![
                class("TestRequestBase", &[]),
                class("TestRequest", &["TestRequestBase"]),
                class("Inner", &[]),
            ]
        );
    }
}

; rule: skipped-test
; language: python
; matches: pytest and unittest markers and calls that stop a test from running or from counting:
;   `@pytest.mark.skip`, `@pytest.mark.skipif(cond)`, `@pytest.mark.xfail`, `@unittest.skip*`,
;   `@unittest.expectedFailure`, `pytest.skip()`/`pytest.xfail()`/`pytest.importorskip()` calls,
;   `self.skipTest()`, `raise SkipTest`, module-level `pytestmark`, and `__test__ = False`.
; prefilter: skip xfail expectedFailure SkipTest pytestmark __test__
; captures:
;   @finding    required  node whose range is reported (the decorator or the call)
;   @key        optional  the decorated test or class name; without it the enclosing scope
;   @condition  optional  skipif/skipUnless/xfail condition the rule evaluates
;   @_…         helpers for predicates, ignored by Rust
; properties (#set!):
;   kind       decorator | in-body | module
;   condition  skip-when-true | skip-when-false
;   severity   the strength when there is no condition to judge
;   message    what the marker does, spliced after the test name

; @pytest.mark.skip / @pytest.mark.skip(reason=...) / @unittest.skip("...")
; when: skip
((decorated_definition
   (decorator [(attribute) @_marker (call function: (_) @_marker)]) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^((pytest\\.)?mark\\.skip|(unittest\\.)?skip)$")
 (#set! kind "decorator")
 (#set! message "skipped by `{text}`"))

; @pytest.mark.skipif(condition, reason=...) / @unittest.skipIf(condition, "...")
; when: skipif skipIf
((decorated_definition
   (decorator (call function: (_) @_marker arguments: (argument_list . (_) @condition))) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^((pytest\\.)?mark\\.skipif|(unittest\\.)?skipIf)$")
 (#set! kind "decorator")
 (#set! condition "skip-when-true")
 (#set! message "skipped by `{text}`"))

; @unittest.skipUnless(condition, "...")
; when: skipUnless
((decorated_definition
   (decorator (call function: (_) @_marker arguments: (argument_list . (_) @condition))) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^(unittest\\.)?skipUnless$")
 (#set! kind "decorator")
 (#set! condition "skip-when-false")
 (#set! message "skipped by `{text}`"))

; @pytest.mark.xfail / @pytest.mark.xfail(reason=...) (a condition, when given, is judged)
; when: xfail
((decorated_definition
   (decorator [(attribute) @_marker (call function: (_) @_marker)]) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^(pytest\\.)?mark\\.xfail$")
 (#set! kind "decorator")
 (#set! message "marked as an expected failure (`xfail`), so its failure no longer fails the run"))

; when: xfail
((decorated_definition
   (decorator (call function: (_) @_marker arguments: (argument_list . (_) @condition))) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^(pytest\\.)?mark\\.xfail$")
 (#set! kind "decorator")
 (#set! condition "skip-when-true")
 (#set! message "marked as an expected failure (`xfail`), so its failure no longer fails the run"))

; @unittest.expectedFailure
; when: expectedFailure
((decorated_definition
   (decorator [(attribute) (identifier)] @_marker) @finding
   definition: (function_definition name: (identifier) @key))
 (#match? @_marker "^(unittest\\.)?expectedFailure$")
 (#set! kind "decorator")
 (#set! message "marked `@expectedFailure`, so its failure no longer fails the run"))

; pytest.skip("...") / pytest.xfail("...") inside a test
; when: skip xfail
((call
   function: (attribute object: (identifier) @_module attribute: (identifier) @_function)) @finding
 (#eq? @_module "pytest")
 (#any-of? @_function "skip" "xfail")
 (#set! kind "in-body")
 (#set! message "skipped by `{text}`"))

; pytest.importorskip("module"): skips when the import fails, which an agent can arrange
; when: importorskip
((call
   function: (attribute object: (identifier) @_module attribute: (identifier) @_function)) @finding
 (#eq? @_module "pytest")
 (#eq? @_function "importorskip")
 (#set! kind "in-body")
 (#set! severity "warning")
 (#set! message "skipped when an import fails (`pytest.importorskip`)"))

; self.skipTest("...")
; when: skipTest
((call
   function: (attribute object: (identifier) @_self attribute: (identifier) @_function)) @finding
 (#eq? @_self "self")
 (#eq? @_function "skipTest")
 (#set! kind "in-body")
 (#set! message "skipped by `self.skipTest()`"))

; raise unittest.SkipTest("...") / raise SkipTest
; when: SkipTest
((raise_statement
   [(call function: (_) @_exception) (identifier) @_exception (attribute) @_exception]) @finding
 (#match? @_exception "(^|\\.)SkipTest$")
 (#set! kind "in-body")
 (#set! message "skipped by raising `SkipTest`"))

; pytestmark = pytest.mark.skip / [pytest.mark.xfail(...)] at module or class level
; when: pytestmark
((expression_statement
   (assignment left: (identifier) @_name right: (_) @_value)) @finding
 (#eq? @_name "pytestmark")
 (#match? @_value "mark\\.(skip|xfail)($|[^i])")
 (#set! kind "module")
 (#set! message "skipped by `pytestmark`"))

; when: pytestmark
((expression_statement
   (assignment left: (identifier) @_name right: (_) @_value)) @finding
 (#eq? @_name "pytestmark")
 (#match? @_value "mark\\.skipif")
 (#set! kind "module")
 (#set! severity "warning")
 (#set! message "skipped under a condition by `pytestmark`"))

; __test__ = False takes a module or class out of collection
; when: __test__
((expression_statement
   (assignment left: (identifier) @_name right: (false))) @finding
 (#eq? @_name "__test__")
 (#set! kind "module")
 (#set! message "taken out of collection by `__test__ = False`"))

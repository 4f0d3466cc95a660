; rule: (shared) assertions inside tests, read by weakened-assertion
; language: python
; matches: `assert` statements, unittest `self.assert*`/`self.fail*` calls, `pytest.raises`/
;   `pytest.warns`, calls to assertion helpers (`assert_*`, `check_*`, `verify_*`, ...), and
;   every function definition (so assertions moved into a helper still count where it is called).
; captures:
;   @finding  required  the assertion (or the function)
;   @key      optional  the function's name (kind function only)
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  assert | raises | helper | function

((assert_statement) @finding
 (#set! kind "assert"))

; when: self
((call
   function: (attribute object: (identifier) @_self attribute: (identifier) @_method)) @finding
 (#eq? @_self "self")
 (#match? @_method "^(assert|fail)")
 (#set! kind "assert"))

; when: pytest
((call
   function: (attribute object: (identifier) @_pytest attribute: (identifier) @_name)) @finding
 (#eq? @_pytest "pytest")
 (#any-of? @_name "raises" "warns" "deprecated_call")
 (#set! kind "raises"))

; when: raises warns
((call function: (identifier) @_name) @finding
 (#any-of? @_name "raises" "warns")
 (#set! kind "raises"))

; when: assert_ check_ verify_ expect_ ensure_
((call
   function: [(identifier) @_name (attribute attribute: (identifier) @_name)]) @finding
 (#match? @_name "^(assert|check|verify|expect|ensure)_")
 (#set! kind "helper"))

((function_definition name: (identifier) @key) @finding
 (#set! kind "function"))

; rule: (shared) assertions inside tests, read by weakened-assertion
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: `expect(..)` calls (Rust extends each to its whole matcher chain),
;   `expect.assertions(n)`/`expect.hasAssertions()`, node/chai `assert(..)`/`assert.*(..)`, calls
;   to assertion helpers (`assertFoo`, `checkFoo`, `verifyFoo`, `expectFoo`), and function
;   definitions (so assertions moved into a helper still count where it is called).
; captures:
;   @finding  required  the assertion (or the function)
;   @key      optional  the function's name (kind function only)
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  expect | count | assert | helper | function

((call_expression function: (identifier) @_expect) @finding
 (#eq? @_expect "expect")
 (#set! kind "expect"))

((call_expression
   function: (member_expression
     object: (identifier) @_expect
     property: (property_identifier) @_name)) @finding
 (#eq? @_expect "expect")
 (#any-of? @_name "assertions" "hasAssertions")
 (#set! kind "count"))

((call_expression
   function: [(identifier) @_assert (member_expression object: (identifier) @_assert)]) @finding
 (#eq? @_assert "assert")
 (#set! kind "assert"))

((call_expression function: (identifier) @_name) @finding
 (#match? @_name "^(assert|check|verify|expect)[A-Z_]")
 (#set! kind "helper"))

((function_declaration name: (identifier) @key) @finding
 (#set! kind "function"))

((variable_declarator
   name: (identifier) @key
   value: [(arrow_function) (function_expression)]) @finding
 (#set! kind "function"))

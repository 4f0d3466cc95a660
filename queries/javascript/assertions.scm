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
;   kind  call (expect, assert or a helper, told apart by the callee) | count | function

; expect(..), assert(..), assert.equal(..) and helpers named assert*/check*/verify*/expect*,
; matched on the callee's text in one pattern (each pattern costs compile time on the TypeScript
; grammar); Rust tells them apart by the callee (kind "call").
((call_expression function: (_) @_callee) @finding
 (#match? @_callee "^(expect|assert|assert\\.[A-Za-z]+|(assert|check|verify|expect)[A-Z_][A-Za-z0-9_]*)$")
 (#set! kind "call"))

((call_expression
   function: (member_expression
     object: (identifier) @_expect
     property: (property_identifier) @_name)) @finding
 (#eq? @_expect "expect")
 (#any-of? @_name "assertions" "hasAssertions")
 (#set! kind "count"))


((function_declaration name: (identifier) @key) @finding
 (#set! kind "function"))

((variable_declarator
   name: (identifier) @key
   value: [(arrow_function) (function_expression)]) @finding
 (#set! kind "function"))

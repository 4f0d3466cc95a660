; rule: (shared) assertions inside tests, read by weakened-assertion
; language: tsx (a verbatim copy of javascript/)
; matches: `expect(..)` calls (Rust extends each to its whole matcher chain),
;   `expect.poll|soft|element(..)`, `expect.assert(x)` (chai's assert on vitest's expect), `expect.assertions(n)`/`expect.hasAssertions()`, node/chai `assert(..)`/`assert.*(..)`, calls
;   to assertion helpers (`assertFoo`, `checkFoo`, `verifyFoo`, `expectFoo`), the assertion
;   methods of the test context `t` (ava `t.is`/`t.deepEqual`/`t.throws`/`t.plan`, tap
;   `t.equal`/`t.same`/`t.ok`, node:test `t.assert.*`), and function definitions (so
;   assertions moved into a helper still count where it is called).
; captures:
;   @finding  required  the assertion (or the function)
;   @key      optional  the function's name (kind function only)
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  call (expect, assert, a `t.` context assertion or a helper, told apart by the callee;
;         `t.plan(n)` is read like `expect.assertions(n)`) | count | function

; expect(..), assert(..), assert.equal(..), helpers named assert*/check*/verify*/expect*, and
; `t.<assertion>(..)` of ava/tap/node:test (the context's conventional name `t`, `tt` in tap
; subtests; other names are not told from ordinary method calls), matched on the callee's text
; in one pattern (each pattern costs compile time on the TypeScript grammar); Rust tells them
; apart by the callee (kind "call").
((call_expression function: (_) @_callee) @finding
 (#match? @_callee "^(expect|expect\\s*\\.\\s*(poll|soft|element|assert)|assert|assert\\.[A-Za-z]+|(assert|check|verify|expect)[A-Z_][A-Za-z0-9_]*|(t|tt)(\\.assert)?\\.(is|not|deepEqual|notDeepEqual|like|regex|notRegex|snapshot|throws|throwsAsync|notThrows|notThrowsAsync|true|false|truthy|falsy|assert|pass|fail|plan|equal|equals|strictEqual|notEqual|notStrictEqual|same|notSame|strictSame|deepStrictEqual|notDeepStrictEqual|match|notMatch|has|hasStrict|ok|notOk|error|ifError|rejects|resolves|doesNotThrow|doesNotReject|type))$")
 (#set! kind "call"))

; when: assertions hasAssertions
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

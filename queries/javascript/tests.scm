; rule: (shared) the test inventory, read by skipped-test and focused-test
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: test and suite declarations: it/test/specify/describe/context/suite calls with a
;   title, including modifier and x/f-prefixed forms, and curried `.each`/`.skipIf`/`.runIf`
;   forms (a curried `describe` is a suite), Playwright's `test.describe(..)` suites, and
;   tap/node:test subtests `t.test(..)`.
; captures:
;   @finding  required  the declaring call
;   @key      required  the title
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  test | suite
; The callee is matched as text rather than as alternative node shapes: each pattern step costs
; milliseconds to compile on the TypeScript grammar, and this query runs on every test file.

((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#match? @_callee "^(it|test|specify|xit|xtest|fit|ftest|xspecify)(\\.[A-Za-z]+|\\[.[A-Za-z]+.\\]){0,2}$|^(it|test|xit|fit)(\\.[A-Za-z]+)?\\.(each|skipIf|runIf)[(`]")
 (#not-match? @_callee "^test\\.describe")
 (#set! kind "test"))

; tap and node:test subtests: t.test("title", t => ..) (`tt` in nested tap subtests); the last
; argument must be a function, so a RegExp named `t` (`t.test("abc")`) is not a test.
; when: t.test
((call_expression
   function: (member_expression object: (identifier) @_context property: (property_identifier) @_test)
   arguments: (arguments . [(string) (template_string)] @key [(arrow_function) (function_expression)] .))
 @finding
 (#any-of? @_context "t" "tt")
 (#eq? @_test "test")
 (#set! kind "test"))

((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#match? @_callee "^(describe|context|suite|xdescribe|fdescribe|xcontext)(\\.[A-Za-z]+|\\[.[A-Za-z]+.\\]){0,2}$|^(describe|xdescribe|fdescribe)(\\.[A-Za-z]+)?\\.(each|skipIf|runIf)[(`]|^test\\.describe(\\.[A-Za-z]+){0,2}$")
 (#set! kind "suite"))

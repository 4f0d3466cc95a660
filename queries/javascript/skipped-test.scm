; rule: skipped-test
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: tests and suites that the change stops from running: `.skip`/`.fixme` forms (also
;   chained through `.concurrent`, `.describe` and `.each`), `x`-prefixed forms, `.todo` (judged
;   by the rule against base), expected failures (`test.failing`, vitest `test.fails`), vitest
;   `skipIf`/`runIf`, node:test `{ skip }`/`{ todo }` options,
;   and in-body skips (`this.skip()`, `t.skip()`, `ctx.skip()`, playwright `test.skip()`,
;   jasmine `pending()`).
; prefilter: skip fixme xit xtest xdescribe xcontext xspecify xsuite .todo runIf pending( .failing .fails
; captures:
;   @finding    required  node whose range is reported
;   @key        optional  the test or suite title; without it the key is the enclosing test
;   @condition  optional  skip condition the rule evaluates (constant → error, runtime → warning)
;   @_…         helpers for predicates, ignored by Rust
; properties (#set!):
;   kind       declaration | in-body | todo
;   condition  skip-when-true | skip-when-false (how @condition is read)
;   message    what the marker does, when the marker text alone does not say it

; Every pattern matches the callee on its text: each structural step costs milliseconds to
; compile on the TypeScript grammar, a text predicate almost nothing.

; Declarations: describe.skip("title", fn), it.fixme(..), test.concurrent.skip(..),
; test.describe.skip(..), it["skip"](..), xit(..), xdescribe(..), and their `.each` forms
; (it.skip.each(table)("title", fn), xit.each`table`(..)); the title may be missing or computed.
; when: skip fixme xit xtest xdescribe xcontext xspecify xsuite
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string) (identifier) (member_expression) (binary_expression) (call_expression)]? @key))
 @finding
 (#match? @_callee "(?s)^((describe|it|test|context|suite|specify)(\\.(concurrent|describe|serial|parallel|sequential|failing))?(\\.(skip|fixme)|\\[.skip.\\])|x(it|test|describe|context|specify|suite))(\\.each[(`].*)?$")
 (#set! kind "declaration"))

; Expected failures: ava/jest `test.failing(..)`, vitest `test.fails(..)`: the test still runs,
; but its failure no longer fails the run (like pytest's xfail).
; when: .failing .fails
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)]? @key))
 @finding
 (#match? @_callee "(?s)^(it|test)(\\.(concurrent|serial|only))?\\.(failing|fails)(\\.each[(`].*)?$")
 (#set! kind "declaration")
 (#set! message "marked as an expected failure (`{text}`), so its failure no longer fails the run"))

; it.todo("title"): a pending placeholder; the rule reports it only where base had that test
; when: .todo
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#match? @_callee "^(it|test|describe)\\.todo$")
 (#set! kind "todo"))

; vitest: it.skipIf(condition)("title", fn)
; when: .skipIf
((call_expression
   function: (call_expression
     function: (_) @_callee
     arguments: (arguments . (_) @condition))
   arguments: (arguments . (_) @key))
 @finding
 (#match? @_callee "^(describe|it|test|suite)\\.skipIf$")
 (#set! kind "declaration")
 (#set! condition "skip-when-true"))

; vitest: it.runIf(condition)("title", fn)
; when: .runIf
((call_expression
   function: (call_expression
     function: (_) @_callee
     arguments: (arguments . (_) @condition))
   arguments: (arguments . (_) @key))
 @finding
 (#match? @_callee "^(describe|it|test|suite)\\.runIf$")
 (#set! kind "declaration")
 (#set! condition "skip-when-false"))

; node:test: it("title", { skip: true }, fn), test("title", { todo: "later" })
; when: skip todo
((call_expression
   function: (_) @_callee
   arguments: (arguments
     . (_) @key
     (object (pair key: (_) @_option value: (_) @condition))))
 @finding
 (#match? @_callee "^(describe|it|test|suite)(\\.[A-Za-z_$][A-Za-z0-9_$]*)?$")
 (#any-of? @_option "skip" "todo" "\"skip\"" "'skip'")
 (#set! kind "declaration")
 (#set! condition "skip-when-true")
 (#set! message "skipped by its `skip`/`todo` option"))

; playwright inside a test or describe: test.skip(), test.fixme(condition, "reason")
; when: test.skip test.fixme
((call_expression
   function: (_) @_callee
   arguments: (arguments) @_arguments)
 @finding
 (#match? @_callee "^test\\.(skip|fixme)$")
 (#eq? @_arguments "()")
 (#set! kind "in-body"))

; when: test.skip test.fixme
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(true) (false) (arrow_function) (function_expression) (identifier) (member_expression) (binary_expression) (unary_expression) (call_expression) (parenthesized_expression) (number)] @condition . [(string) (template_string)]? .))
 @finding
 (#match? @_callee "^test\\.(skip|fixme)$")
 (#set! kind "in-body")
 (#set! condition "skip-when-true"))

; mocha this.skip(); node:test and vitest contexts: t.skip(), ctx.skip("reason")
; when: .skip .todo
((call_expression
   function: (_) @_callee
   arguments: (arguments) @_arguments)
 @finding
 (#match? @_callee "^(this\\.skip|(t|ctx|context)\\.(skip|todo))$")
 (#match? @_arguments "^\\(\\s*(['\"`].*)?\\)$")
 (#set! kind "in-body"))

; jasmine: pending("reason") as a statement (not `expect(pending())` of some other library)
; when: pending
(expression_statement
  (call_expression
    function: (identifier) @_function
    arguments: (arguments) @_arguments) @finding
 (#eq? @_function "pending")
 (#match? @_arguments "^\\(\\s*(['\"`].*)?\\)$")
 (#set! kind "in-body"))

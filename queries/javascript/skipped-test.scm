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

; Declarations, matched on the callee's text (each pattern step costs milliseconds to compile on
; the TypeScript grammar): describe.skip("title", fn), it.fixme(..), test.concurrent.skip(..),
; test.describe.skip(..), it["skip"](..), xit(..), xdescribe(..), and their `.each` forms
; (it.skip.each(table)("title", fn), xit.each`table`(..)); the title may be missing.
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)]? @key))
 @finding
 (#match? @_callee "(?s)^((describe|it|test|context|suite|specify)(\\.(concurrent|describe|serial|parallel|sequential|failing))?(\\.(skip|fixme)|\\[.skip.\\])|x(it|test|describe|context|specify|suite))(\\.each[(`].*)?$")
 (#set! kind "declaration"))

; Expected failures: ava/jest `test.failing(..)`, vitest `test.fails(..)`: the test still runs,
; but its failure no longer fails the run (like pytest's xfail).
((call_expression
   function: (_) @_callee
   arguments: (arguments . [(string) (template_string)]? @key))
 @finding
 (#match? @_callee "(?s)^(it|test)(\\.(concurrent|serial|only))?\\.(failing|fails)(\\.each[(`].*)?$")
 (#set! kind "declaration")
 (#set! message "marked as an expected failure (`{text}`), so its failure no longer fails the run"))

; it.skip(TITLE, fn): a computed title followed by the test body
((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments . [(identifier) (member_expression) (binary_expression) (call_expression)] @key . [(arrow_function) (function_expression)]))
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#any-of? @_modifier "skip" "fixme")
 (#set! kind "declaration"))

; it.todo("title"): a pending placeholder; the rule reports it only where base had that test
((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#any-of? @_base "it" "test" "describe")
 (#eq? @_modifier "todo")
 (#set! kind "todo"))

; vitest: it.skipIf(condition)("title", fn)
((call_expression
   function: (call_expression
     function: (member_expression
       object: (identifier) @_base
       property: (property_identifier) @_modifier)
     arguments: (arguments . (_) @condition))
   arguments: (arguments . (_) @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "suite")
 (#eq? @_modifier "skipIf")
 (#set! kind "declaration")
 (#set! condition "skip-when-true"))

; vitest: it.runIf(condition)("title", fn)
((call_expression
   function: (call_expression
     function: (member_expression
       object: (identifier) @_base
       property: (property_identifier) @_modifier)
     arguments: (arguments . (_) @condition))
   arguments: (arguments . (_) @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "suite")
 (#eq? @_modifier "runIf")
 (#set! kind "declaration")
 (#set! condition "skip-when-false"))

; node:test: it("title", { skip: true }, fn), test("title", { todo: "later" })
((call_expression
   function: [
     (identifier) @_base
     (member_expression object: (identifier) @_base)
   ]
   arguments: (arguments
     . (_) @key
     (object (pair key: [(property_identifier) (string)] @_option value: (_) @condition))))
 @finding
 (#any-of? @_base "describe" "it" "test" "suite")
 (#any-of? @_option "skip" "todo" "\"skip\"" "'skip'")
 (#set! kind "declaration")
 (#set! condition "skip-when-true")
 (#set! message "skipped by its `skip`/`todo` option"))

; playwright inside a test or describe: test.skip(), test.fixme(condition, "reason")
((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments) @_arguments)
 @finding
 (#eq? @_base "test")
 (#any-of? @_modifier "skip" "fixme")
 (#eq? @_arguments "()")
 (#set! kind "in-body"))

((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments . [(true) (false) (arrow_function) (function_expression) (identifier) (member_expression) (binary_expression) (unary_expression) (call_expression) (parenthesized_expression) (number)] @condition .))
 @finding
 (#eq? @_base "test")
 (#any-of? @_modifier "skip" "fixme")
 (#set! kind "in-body")
 (#set! condition "skip-when-true"))

((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments . [(true) (false) (arrow_function) (function_expression) (identifier) (member_expression) (binary_expression) (unary_expression) (call_expression) (parenthesized_expression) (number)] @condition . [(string) (template_string)] .))
 @finding
 (#eq? @_base "test")
 (#any-of? @_modifier "skip" "fixme")
 (#set! kind "in-body")
 (#set! condition "skip-when-true"))

; mocha: this.skip()
((call_expression
   function: (member_expression
     object: (this)
     property: (property_identifier) @_modifier))
 @finding
 (#eq? @_modifier "skip")
 (#set! kind "in-body"))

; node:test and vitest contexts: t.skip(), ctx.skip("reason")
((call_expression
   function: (member_expression
     object: (identifier) @_context
     property: (property_identifier) @_modifier)
   arguments: (arguments) @_arguments)
 @finding
 (#any-of? @_context "t" "ctx" "context")
 (#any-of? @_modifier "skip" "todo")
 (#match? @_arguments "^\\(\\s*(['\"`].*)?\\)$")
 (#set! kind "in-body"))

; jasmine: pending("reason") as a statement (not `expect(pending())` of some other library)
(expression_statement
  (call_expression
    function: (identifier) @_function
    arguments: (arguments) @_arguments) @finding
 (#eq? @_function "pending")
 (#match? @_arguments "^\\(\\s*(['\"`].*)?\\)$")
 (#set! kind "in-body"))

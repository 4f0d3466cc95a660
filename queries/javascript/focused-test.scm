; rule: focused-test
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: tests and suites that make the runner skip everything else: `.only` (also through
;   `.concurrent`, `.describe` and `.each`), `fit`/`fdescribe`/`ftest`, node:test `{ only: true }`.
; prefilter: only fit( fit.each fdescribe ftest fcontext
; captures:
;   @finding    required  node whose range is reported
;   @key        required  the focused test or suite title
;   @condition  optional  the `only` option's value (node:test)
;   @_…         helpers for predicates, ignored by Rust
; properties (#set!):
;   condition  skip-when-true: here "focus when true"
;   message    what the marker does, when the marker text alone does not say it

; Focus markers, matched on the callee's text (each pattern step costs milliseconds to compile
; on the TypeScript grammar): it.only("title", fn), describe.only(..), test.concurrent.only(..),
; test.describe.only(..), it["only"](..), fit(..), fdescribe(..), and their `.each` forms
; (it.only.each(table)("title", fn), fit.each`table`(..)); the title may be missing.
((call_expression
   function: (_) @_callee
   arguments: (arguments . (_)? @key))
 @finding
 (#match? @_callee "(?s)^((describe|it|test|context|suite|specify)(\\.(concurrent|describe|serial|parallel|sequential))?(\\.only|\\[.only.\\])|f(it|describe|test|context))(\\.each[(`].*)?$"))

; node:test: test("title", { only: true }, fn)
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
 (#any-of? @_option "only" "\"only\"" "'only'")
 (#set! condition "skip-when-true")
 (#set! message "focused by its `only` option"))

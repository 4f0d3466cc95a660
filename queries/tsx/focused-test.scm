; rule: focused-test
; language: tsx (a verbatim copy of javascript/)
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

; it.only("title", fn)
((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments . (_) @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#eq? @_modifier "only"))

; test.describe.only("title", fn), test.concurrent.only("title", fn)
((call_expression
   function: (member_expression
     object: (member_expression
       object: (identifier) @_base
       property: (property_identifier) @_middle)
     property: (property_identifier) @_modifier)
   arguments: (arguments . (_) @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#any-of? @_middle "concurrent" "describe" "serial" "parallel" "sequential")
 (#eq? @_modifier "only"))

; it.only.each(table)("title", fn), test.concurrent.only.each(table)("title", fn)
((call_expression
   function: (call_expression
     function: (member_expression
       object: [
         (member_expression object: (identifier) @_base property: (property_identifier) @_modifier)
         (member_expression
           object: (member_expression object: (identifier) @_base)
           property: (property_identifier) @_modifier)
       ]
       property: (property_identifier) @_each))
   arguments: (arguments . (_)? @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#eq? @_modifier "only")
 (#eq? @_each "each"))

; fit("title", fn), fdescribe("title", fn)
((call_expression
   function: (identifier) @_base
   arguments: (arguments . (_)? @key))
 @finding
 (#any-of? @_base "fit" "fdescribe" "ftest" "fcontext"))

; fit.each(table)("title", fn)
((call_expression
   function: (call_expression
     function: (member_expression
       object: (identifier) @_base
       property: (property_identifier) @_each))
   arguments: (arguments . (_)? @key))
 @finding
 (#any-of? @_base "fit" "fdescribe")
 (#eq? @_each "each"))

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

; describe.only() without a title, and bracket access: it["only"]("title", fn)
((call_expression
   function: (member_expression
     object: (identifier) @_base
     property: (property_identifier) @_modifier)
   arguments: (arguments) @_arguments)
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#eq? @_modifier "only")
 (#eq? @_arguments "()"))

((call_expression
   function: (subscript_expression
     object: (identifier) @_base
     index: (string) @_modifier)
   arguments: (arguments . (_)? @key))
 @finding
 (#any-of? @_base "describe" "it" "test" "context" "suite" "specify")
 (#match? @_modifier "^.only.$"))

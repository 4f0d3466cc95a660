; rule: (shared) the test inventory, read by skipped-test and focused-test
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: test and suite declarations: it/test/specify/describe/context/suite calls with a
;   title, including modifier and x/f-prefixed forms, and curried `.each`/`.skipIf`/`.runIf`
;   forms (a curried `describe` is a suite).
; captures:
;   @finding  required  the declaring call
;   @key      required  the title
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  test | suite

((call_expression
   function: [
     (identifier) @_base
     (member_expression object: (identifier) @_base)
     (member_expression object: (member_expression object: (identifier) @_base))
   ]
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#any-of? @_base "it" "test" "specify" "xit" "xtest" "fit" "ftest" "xspecify")
 (#set! kind "test"))

((call_expression
   function: [
     (identifier) @_base
     (member_expression object: (identifier) @_base)
     (member_expression object: (member_expression object: (identifier) @_base))
   ]
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#any-of? @_base "describe" "context" "suite" "xdescribe" "fdescribe" "xcontext")
 (#set! kind "suite"))

((call_expression
   function: (call_expression
     function: (member_expression
       object: [
         (identifier) @_base
         (member_expression object: (identifier) @_base)
       ]
       property: (property_identifier) @_each))
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#any-of? @_base "it" "test" "xit" "fit")
 (#any-of? @_each "each" "skipIf" "runIf")
 (#set! kind "test"))

((call_expression
   function: (call_expression
     function: (member_expression
       object: [
         (identifier) @_base
         (member_expression object: (identifier) @_base)
       ]
       property: (property_identifier) @_each))
   arguments: (arguments . [(string) (template_string)] @key))
 @finding
 (#any-of? @_base "describe" "xdescribe" "fdescribe")
 (#any-of? @_each "each" "skipIf" "runIf")
 (#set! kind "suite"))

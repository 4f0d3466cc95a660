; rule: (shared) the test inventory, read by skipped-test and focused-test
; language: python
; matches: pytest/unittest test functions and methods (`test*`) and test classes (`Test*`, or
;   any class whose name ends in `Test`/`Tests`, as unittest.TestCase subclasses usually do).
; captures:
;   @finding  required  the definition
;   @key      required  its name
; properties (#set!):
;   kind  test | suite

((function_definition name: (identifier) @key) @finding
 (#match? @key "^test")
 (#set! kind "test"))

((class_definition name: (identifier) @key) @finding
 (#match? @key "^Test|Tests?$")
 (#set! kind "suite"))

; rule: (shared) the test inventory, read by skipped-test and focused-test
; language: python
; matches: pytest/unittest test functions and methods (`test*`) and test classes (`Test*`, or
;   any class whose name ends in `Test`/`Tests`, as unittest.TestCase subclasses usually do).
; captures:
;   @finding  required  the definition
;   @key      required  its name
; properties (#set!):
;   kind  test | suite | function (every function, so a test renamed out of the runner can be
;         told from a deleted one)

((function_definition name: (identifier) @key) @finding
 (#match? @key "^test")
 (#set! kind "test"))

((class_definition name: (identifier) @key) @finding
 (#match? @key "^Test|Tests?$")
 (#set! kind "suite"))

((function_definition name: (identifier) @key) @finding
 (#set! kind "function"))

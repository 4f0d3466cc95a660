; rule: test-fitted-code
; language: rust
; matches: what links tests to the code they exercise, and code that detects the test runner.
;   kind "function": every function with a body (the rule reads its statements);
;   kind "env": `cfg!(test)` (the rule sets aside the uses inside test code);
;   kind "expect": `assert_eq!` (the rule parses its arguments as expressions).
; prefilter-change: fn assert_eq cfg
; captures:
;   @finding  required  the function, the macro invocation
;   @key      optional  the function's name (kind "function" only)
((function_item name: (identifier) @key body: (block)) @finding
  (#set! kind "function"))

((macro_invocation macro: (identifier) @_cfg (token_tree) @_args) @finding
  (#eq? @_cfg "cfg")
  (#match? @_args "\\btest\\b")
  (#set! kind "env"))

((macro_invocation macro: (identifier) @_assert) @finding
  (#match? @_assert "^(assert_eq|pretty_assertions::assert_eq)$")
  (#set! kind "expect"))

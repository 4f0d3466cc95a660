; rule: (shared) assertions inside tests, read by weakened-assertion
; language: rust
; matches: assertion macros (`assert!`, `assert_eq!`, `debug_assert*!`, `assert_matches!`,
;   approx and insta macros, `prop_assert*!`; also inside another macro's token tree, as in
;   `proptest!` blocks), `panic!` and `.unwrap_err()`/`.expect_err(..)` (failure paths that
;   panic), `#[should_panic]` attributes, calls to assertion
;   helpers (`assert_*`, `check_*`, `verify_*`, `expect_*`), and every function (so assertions
;   moved into a helper still count where it is called).
; captures:
;   @finding  required  the assertion (or the function)
;   @key      optional  the function's name (kind function only)
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  assert | raises | helper | function

((macro_invocation
   macro: [(identifier) @_name (scoped_identifier name: (identifier) @_name)]) @finding
 (#match? @_name "^(debug_|prop_)?assert(_eq|_ne|_matches|_relative_eq|_abs_diff_eq|_ulps_eq|_approx_eq|_snapshot|_debug_snapshot|_display_snapshot|_json_snapshot|_yaml_snapshot)?$")
 (#set! kind "assert"))

; The same macros inside another macro's token tree (`proptest! { #[test] fn f(..) { .. } }`):
; only the name is a node; Rust grows it to the `!(..)` that follows.
((token_tree (identifier) @finding . "!" . (token_tree))
 (#match? @finding "^(debug_|prop_)?assert(_eq|_ne|_matches|_relative_eq|_abs_diff_eq|_ulps_eq|_approx_eq|_snapshot|_debug_snapshot|_display_snapshot|_json_snapshot|_yaml_snapshot)?$")
 (#set! kind "assert"))

; A failure path that panics is a check: `panic!(..)` where a test must not get to,
; `.unwrap_err()`/`.expect_err(..)` that panic unless the value is an error.
; when: panic
((macro_invocation
   macro: [(identifier) @_name (scoped_identifier name: (identifier) @_name)]) @finding
 (#eq? @_name "panic")
 (#set! kind "assert"))

; when: unwrap_err expect_err
((call_expression
   function: (field_expression field: (field_identifier) @_name)) @finding
 (#any-of? @_name "unwrap_err" "expect_err")
 (#set! kind "assert"))

; when: should_panic
((attribute_item (attribute (identifier) @_name)) @finding
 (#eq? @_name "should_panic")
 (#set! kind "raises"))

; when: assert_ check_ verify_ expect_
((call_expression
   function: [
     (identifier) @_name
     (scoped_identifier name: (identifier) @_name)
     (field_expression field: (field_identifier) @_name)
   ]) @finding
 (#match? @_name "^(assert|check|verify|expect)_")
 (#set! kind "helper"))

((function_item name: (identifier) @key) @finding
 (#set! kind "function"))

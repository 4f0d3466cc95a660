; rule: (shared) the test inventory, read by skipped-test
; language: rust
; matches: functions carrying a test attribute (`#[test]`, `#[tokio::test]`, `#[rstest]`,
;   `#[test_case(..)]`, `#[quickcheck]`, `#[bench]`, rstest_reuse's `#[apply(template)]`, ...) and
;   `proptest!` functions as kind
;   test, and every other function as kind function, so a removed `#[test]` can be told from a
;   removed function. `#[bench]` functions run once as tests under `cargo test`; criterion's
;   `c.bench_function(..)` closures are not tests (cargo test does not run them).
; captures:
;   @finding  required  the function
;   @key      required  its name
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  test | function

((attribute_item (attribute [(identifier) (scoped_identifier)] @_name))
 .
 [(attribute_item) (line_comment) (block_comment)]*
 .
 (function_item name: (identifier) @key) @finding
 (#match? @_name "^((tokio|async_std|actix_rt|actix_web|test_log|sqlx|wasm_bindgen_test|serial_test)::)?(test|rstest|test_case|quickcheck|wasm_bindgen_test|serial|bench|apply)$")
 (#set! kind "test"))

((function_item name: (identifier) @key) @finding
 (#set! kind "function"))

; Tests inside `proptest! { #[test] fn name(..) { .. } }`: the macro body is a token tree, so the
; function is the identifier after the `fn` token. The name is both key and finding.
((macro_invocation
   macro: (identifier) @_macro
   (token_tree "fn" . (identifier) @key @finding))
 (#eq? @_macro "proptest")
 (#set! kind "test"))

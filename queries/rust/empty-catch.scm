; rule: empty-catch
; language: rust
; matches: ways to discard an error (`let _ = expr;`, `expr.ok();`, `unwrap_or*`, `Err(_)` arms)
;   and, for comparison with base, the ways to propagate one (`expr?`, `.unwrap()`, `.expect()`).
;   The Rust side pairs a discard in head with a propagation of the same expression in base.
; captures:
;   @finding    required  the statement, call or match arm
;   @condition  optional  the expression whose error is discarded or propagated
;   @_…         helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  let-underscore | ok-statement | unwrap-or | err-arm | propagate | empty-if-let-err

; if let Err(_e) = expr {}: the error matched and dropped
; when: Err
((if_expression
   condition: (let_condition
     pattern: (tuple_struct_pattern type: (identifier) @_err)
     value: (_) @condition)
   consequence: (block) @_body
   !alternative)
 @finding
 (#eq? @_err "Err")
 (#match? @_body "^\\{\\s*\\}$")
 (#set! kind "empty-if-let-err"))

; let _ = expr;
((let_declaration value: (_) @condition) @finding
 (#match? @finding "^let\\s+_\\s*(:[^=]*)?=")
 (#set! kind "let-underscore"))

; expr.ok(); expr.is_ok(); expr.is_err(); (the answer thrown away with the error)
; when: ok
((expression_statement
   (call_expression
     function: (field_expression value: (_) @condition field: (field_identifier) @_method)
     arguments: (arguments) @_arguments))
 @finding
 (#any-of? @_method "ok" "is_ok" "is_err")
 (#eq? @_arguments "()")
 (#set! kind "ok-statement"))

; expr.unwrap_or_default(), expr.unwrap_or(..), expr.unwrap_or_else(..)
; when: unwrap_or
((call_expression
   function: (field_expression value: (_) @condition field: (field_identifier) @_method))
 @finding
 (#any-of? @_method "unwrap_or_default" "unwrap_or" "unwrap_or_else")
 (#set! kind "unwrap-or"))

; Err(_) => {} / () / continue   (the body is judged in Rust)
; when: Err
((match_arm
   pattern: (match_pattern (tuple_struct_pattern type: (identifier) @_variant)))
 @finding
 (#eq? @_variant "Err")
 (#set! kind "err-arm"))

; expr?
((try_expression . (_) @condition) @finding
 (#set! kind "propagate"))

; expr.unwrap(), expr.expect("..")
; when: unwrap expect
((call_expression
   function: (field_expression value: (_) @condition field: (field_identifier) @_method))
 @finding
 (#any-of? @_method "unwrap" "expect")
 (#set! kind "propagate"))

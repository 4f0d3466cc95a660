; rule: empty-catch
; language: python
; matches: every `except` clause, and `with suppress(...)` / `with contextlib.suppress(...)`;
;   the Rust side decides from the body and the exception types whether the error is swallowed.
; captures:
;   @finding  required  the except clause or the with statement
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  except | suppress

((except_clause) @finding
 (#set! kind "except"))

((with_statement
   (with_clause
     (with_item
       value: (call function: [(identifier) (attribute)] @_function))))
 @finding
 (#match? @_function "(^|\\.)suppress$")
 (#set! kind "suppress"))

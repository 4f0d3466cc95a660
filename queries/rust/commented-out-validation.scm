; rule: commented-out-validation
; language: rust
; matches: validation shapes in the UNCOMMENTED TEXT of a comment. The rule strips the comment
;   markers, wraps the text in a function body, parses it on its own with this grammar and runs
;   this query over that small tree (never over the file itself).
; warm: no (runs on the text of comments, compiled when a comment needs it)
; captures:
;   @finding  required  the validation statement or call
; properties (#set!):
;   kind  assertion | raise | guard | check-call | propagation | test

((macro_invocation macro: [(identifier) @_name (scoped_identifier name: (identifier) @_name)]) @finding
 (#match? @_name "^(debug_)?assert(_eq|_ne|_matches)?$|^prop_assert")
 (#set! kind "assertion"))

((macro_invocation macro: [(identifier) @_name (scoped_identifier name: (identifier) @_name)]) @finding
 (#match? @_name "^(panic|bail|ensure)$")
 (#set! kind "raise"))

((return_expression (call_expression function: (identifier) @_name)) @finding
 (#eq? @_name "Err")
 (#set! kind "raise"))

; `if !ok { return Err(..) }`, `if x.is_none() { return; }`: an early exit.
((if_expression
   consequence: (block . [(return_expression) (expression_statement (return_expression))])) @finding
 (#set! kind "guard"))

; `validate(&x)?;`, `load().await?`: not a lone `word?`, which is how prose asks a question.
((try_expression [(call_expression) (await_expression) (macro_invocation) (try_expression)]) @finding
 (#set! kind "propagation"))

((call_expression
   function: [(identifier) @_name
              (field_expression field: (field_identifier) @_name)
              (scoped_identifier name: (identifier) @_name)]) @finding
 (#match? @_name "^_*(?i:assert|validate|verify|check|ensure|authori[sz]e|authenticate|require|sanitize)s?([A-Z_0-9].*)?$")
 (#set! kind "check-call"))

((attribute_item (attribute (identifier) @_name)) @finding
 (#eq? @_name "test")
 (#set! kind "test"))

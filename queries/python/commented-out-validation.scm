; rule: commented-out-validation
; language: python
; matches: validation shapes in the UNCOMMENTED TEXT of a comment. The rule strips the comment
;   markers, parses that text on its own with this grammar and runs this query over that small
;   tree (never over the file itself).
; warm: no (runs on the text of comments, compiled when a comment needs it)
; captures:
;   @finding  required  the validation statement or call
; properties (#set!):
;   kind  assertion | raise | guard | check-call | test

((assert_statement) @finding
 (#set! kind "assertion"))

((raise_statement) @finding
 (#set! kind "raise"))

; `if not user: return ...`, `if x is None: abort(401)`: an early exit under a negative test.
((if_statement
   condition: (_) @_condition
   consequence: (block . [(return_statement) (raise_statement)])) @finding
 (#match? @_condition "^not |is None|is not None|== ?None|!= ?None")
 (#set! kind "guard"))

((if_statement
   condition: (_) @_condition
   consequence: (block . (expression_statement
     (call function: [(identifier) @_exit (attribute attribute: (identifier) @_exit)])))) @finding
 (#match? @_condition "^not |is None|is not None|== ?None|!= ?None")
 (#match? @_exit "^(abort|exit|fail|deny|forbid|reject|_exit)$")
 (#set! kind "guard"))

((call
   function: [(identifier) @_name (attribute attribute: (identifier) @_name)]) @finding
 (#match? @_name "^_*(?i:assert|validate|verify|check|ensure|authori[sz]e|authenticate|require|sanitize)s?([A-Z_0-9].*)?$")
 (#set! kind "check-call"))

((function_definition name: (identifier) @_name) @finding
 (#match? @_name "^test")
 (#set! kind "test"))

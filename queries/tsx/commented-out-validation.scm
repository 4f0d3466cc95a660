; rule: commented-out-validation
; language: tsx
; matches: validation shapes in the UNCOMMENTED TEXT of a comment. The rule strips the comment
;   markers, parses that text on its own with this grammar and runs this query over that small
;   tree (never over the file itself).
; warm: no (runs on the text of comments, compiled when a comment needs it)
; captures:
;   @finding  required  the validation statement or call
; properties (#set!):
;   kind  assertion | raise | guard | check-call | test

; expect(x).toBe(1): the inner call is `expect(...)`.
((call_expression function: (identifier) @_name) @finding
 (#match? @_name "^(expect|expectTypeOf|assert)$")
 (#set! kind "assertion"))

; assert.equal(...), expect.assertions(1), chai.assert.isTrue(...)
((call_expression
   function: (member_expression object: [(identifier) @_name (member_expression property: (property_identifier) @_name)])) @finding
 (#match? @_name "^(assert|expect)$")
 (#set! kind "assertion"))

((throw_statement) @finding
 (#set! kind "raise"))

; `if (!user) return res.status(401)`: an early exit under a negative test.
((if_statement
   condition: (parenthesized_expression) @_condition
   consequence: [(return_statement) (statement_block . [(return_statement) (throw_statement)])]) @finding
 (#match? @_condition "^\\(\\s*!|[!=]==? ?(null|undefined)\\b|(null|undefined) ?[!=]==?")
 (#set! kind "guard"))

((call_expression
   function: [(identifier) @_name (member_expression property: (property_identifier) @_name)]) @finding
 (#match? @_name "^_*(?i:assert|validate|verify|check|ensure|authori[sz]e|authenticate|require|sanitize)s?([A-Z_0-9].*)?$")
 (#not-match? @_name "^require$")
 (#set! kind "check-call"))

; A commented-out test or suite: it("..."), describe.skip(...), test["only"](...), xit(), it().
((call_expression
   function: [(identifier) @_name
              (member_expression object: (identifier) @_name)
              (subscript_expression object: (identifier) @_name)]) @finding
 (#match? @_name "^(describe|context|suite|it|test|specify|xit|xtest|xdescribe|xcontext|fit|ftest|fdescribe)$")
 (#set! kind "test"))

; rule: empty-catch
; language: javascript (copied verbatim to typescript/ and tsx/)
; matches: every error handler; the Rust side decides from the handler's body whether it
;   swallows the error: `catch` clauses, `.catch(handler)` and `.then(onFulfilled, onRejected)`.
; prefilter: catch then
; captures:
;   @finding  required  the catch clause or the promise call
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  catch | promise-catch | promise-then

((catch_clause) @finding
 (#set! kind "catch"))

; promise.catch(handler)
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments . (_) .))
 @finding
 (#eq? @_method "catch")
 (#set! kind "promise-catch"))

; promise.then(onFulfilled, onRejected)
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments (_) . (_) .))
 @finding
 (#eq? @_method "then")
 (#set! kind "promise-then"))

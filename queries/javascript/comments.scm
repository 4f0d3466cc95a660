; rule: (shared) comments, read by commented-out-validation and todo-stub
; language: javascript
; matches: every line and block comment (JSDoc included; the rules skip doc comments)
; prefilter: // /*
; captures:
;   @finding  required  the comment
(comment) @finding

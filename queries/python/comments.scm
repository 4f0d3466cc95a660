; rule: (shared) comments, read by commented-out-validation and todo-stub
; language: python
; matches: every comment token
; prefilter: #
; captures:
;   @finding  required  the comment
(comment) @finding

; rule: (shared) comments, read by commented-out-validation and todo-stub
; language: rust
; matches: every line and block comment (doc comments included; the rules skip them)
; prefilter: // /*
; captures:
;   @finding  required  the comment
[(line_comment) (block_comment)] @finding

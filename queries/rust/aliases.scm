; rule: (shared)
; language: rust
; matches: a simple name bound to an expression (`let rc = home.join(".bashrc");`), which the
;   security rules substitute into the calls that use it (unsafe-operation, logged-secret).
; captures:
;   @finding  required  the bound value
;   @key      required  the bound name
(let_declaration pattern: (identifier) @key value: (_) @finding)

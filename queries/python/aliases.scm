; rule: (shared)
; language: python
; matches: a simple name bound to an expression (`rc = home / ".bashrc"`), which the security
;   rules substitute into the calls that use it (unsafe-operation, logged-secret).
; captures:
;   @finding  required  the bound value
;   @key      required  the bound name
(assignment left: (identifier) @key right: (_) @finding)

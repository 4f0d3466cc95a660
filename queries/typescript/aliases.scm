; rule: (shared)
; language: typescript
; matches: a simple name bound to an expression (`const rc = path.join(os.homedir(), ".bashrc")`),
;   which the security rules substitute into the calls that use it (unsafe-operation,
;   logged-secret).
; captures:
;   @finding  required  the bound value
;   @key      required  the bound name
(variable_declarator name: (identifier) @key value: (_) @finding)

(assignment_expression left: (identifier) @key right: (_) @finding)

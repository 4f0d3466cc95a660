; rule: todo-stub
; language: python
; matches: every function or method with a body; the rule reads the body (docstring and
;   comments set aside) and decides whether it only defers the work.
; captures:
;   @finding  required  the function definition
;   @key      required  its name (qualified by the enclosing classes and functions)
((function_definition name: (identifier) @key body: (block)) @finding)

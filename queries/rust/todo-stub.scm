; rule: todo-stub
; language: rust
; matches: every function with a body (free functions, methods, trait default methods); the
;   rule reads the body. Trait method declarations without a body never match.
; captures:
;   @finding  required  the function item
;   @key      required  its name (qualified by the enclosing impl type, modules and functions)
((function_item name: (identifier) @key body: (block)) @finding)

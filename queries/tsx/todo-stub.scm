; rule: todo-stub
; language: tsx
; matches: functions and methods with a block body (declarations, methods, functions and arrow
;   functions assigned to a name, a property or a class field); the rule reads the body.
; prefilter-change: todo fixme xxx hack throw
; captures:
;   @finding  required  the function (or the declarator / pair / field holding it)
;   @key      required  its name
((function_declaration name: (identifier) @key body: (statement_block)) @finding)

((generator_function_declaration name: (identifier) @key body: (statement_block)) @finding)

((method_definition name: (_) @key body: (statement_block)) @finding)

((variable_declarator
   name: (identifier) @key
   value: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

((pair
   key: (_) @key
   value: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

((assignment_expression
   left: (member_expression property: (property_identifier) @key)
   right: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

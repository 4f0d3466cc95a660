; rule: todo-stub
; language: javascript
; matches: functions and methods with a block body (declarations, methods, functions and arrow
;   functions assigned to a name, a property or a class field); the rule reads the body.
; prefilter-change: todo fixme xxx hack throw
; captures:
;   @finding  required  the function (or the declarator / pair / field holding it)
;   @key      required  its name
; The grammar gives these three a `statement_block` body always (node-types.json: required);
; writing `body: (statement_block)` only cost compile time (9 ms for the method on TypeScript).
((function_declaration name: (identifier) @key) @finding)

((generator_function_declaration name: (identifier) @key) @finding)

((method_definition name: (_) @key) @finding)

((variable_declarator
   name: (identifier) @key
   value: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

((pair
   key: (_) @key
   value: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

((assignment_expression
   left: (member_expression property: (property_identifier) @key)
   right: [(arrow_function body: (statement_block)) (function_expression)]) @finding)

; rule: test-fitted-code
; language: javascript
; matches: what links tests to the code they exercise, and code that detects the test runner.
;   kind "function": functions and methods (declarations, methods, functions and arrow
;     functions assigned to a name);
;   kind "env": a test-runner detection (NODE_ENV compared with "test", JEST_WORKER_ID,
;     VITEST, import.meta.vitest);
;   kind "expect": an assertion comparing a call with a value (expect(f(x)).toBe(5),
;     assert.equal);
;   kind "mock": a spy that replaces a function's result (jest.spyOn(m, 'f').mockReturnValue).
; prefilter-change: function => expect assert spyOn NODE_ENV JEST_WORKER_ID VITEST vitest
; captures:
;   @finding  required  the function, detection, assertion or mock call
;   @key      optional  the function's name (kind "function" only)
((function_declaration name: (identifier) @key) @finding
  (#set! kind "function"))

((method_definition name: (_) @key) @finding
  (#set! kind "function"))

((variable_declarator
   name: (identifier) @key
   value: [(arrow_function) (function_expression)]) @finding
  (#set! kind "function"))

((binary_expression left: (_) @_env right: (string) @_test) @finding
  (#match? @_env "NODE_ENV['\"]?\\]?$")
  (#match? @_test "^['\"]test['\"]$")
  (#set! kind "env"))

((binary_expression left: (string) @_test right: (_) @_env) @finding
  (#match? @_env "NODE_ENV['\"]?\\]?$")
  (#match? @_test "^['\"]test['\"]$")
  (#set! kind "env"))

((member_expression property: (property_identifier) @_var) @finding
  (#match? @_var "^(JEST_WORKER_ID|VITEST|VITEST_WORKER_ID|VITEST_POOL_ID)$")
  (#set! kind "env"))

((string) @finding
  (#match? @finding "^['\"](JEST_WORKER_ID|VITEST|VITEST_WORKER_ID|VITEST_POOL_ID)['\"]$")
  (#set! kind "env"))

((member_expression object: (_) @_import property: (property_identifier) @_vitest) @finding
  (#eq? @_import "import.meta")
  (#eq? @_vitest "vitest")
  (#set! kind "env"))

((call_expression
   function: (member_expression
     object: (call_expression function: (identifier) @_expect)
     property: (property_identifier) @_matcher)) @finding
  (#eq? @_expect "expect")
  (#match? @_matcher "^(toBe|toEqual|toStrictEqual)$")
  (#set! kind "expect"))

((call_expression
   function: (member_expression
     object: (identifier) @_assert
     property: (property_identifier) @_method)) @finding
  (#eq? @_assert "assert")
  (#match? @_method "^(equal|strictEqual|deepEqual|deepStrictEqual)$")
  (#set! kind "expect"))

((call_expression
   function: (member_expression
     object: (call_expression
       function: (member_expression
         object: (identifier) @_jest
         property: (property_identifier) @_spy))
     property: (property_identifier) @_mock)) @finding
  (#match? @_jest "^(jest|vi)$")
  (#eq? @_spy "spyOn")
  (#match? @_mock "^mock(ReturnValue|ReturnValueOnce|ResolvedValue|ResolvedValueOnce|Implementation|ImplementationOnce)$")
  (#set! kind "mock"))

; rule: test-fitted-code
; language: python
; matches: what links tests to the code they exercise, and code that detects the test runner.
;   kind "function": every function with a body (the rule reads its statements);
;   kind "env": a test-runner detection (PYTEST_CURRENT_TEST, "pytest" in sys.modules);
;   kind "expect": an assertion comparing a call with a value (assert f(x) == 5, assertEqual);
;   kind "mock": a patch of a name (mocker.patch, patch, patch.object, monkeypatch.setattr).
; prefilter-change: def assert patch setattr pytest
; captures:
;   @finding  required  the function, detection, assertion or patch call
;   @key      optional  the function's name (kind "function" only)
((function_definition name: (identifier) @key body: (block)) @finding
  (#set! kind "function"))

((string) @finding
  (#match? @finding "^[rRuUbB]?['\"]PYTEST_CURRENT_TEST['\"]$")
  (#set! kind "env"))

((comparison_operator
   (string) @_name
   (attribute object: (identifier) @_sys attribute: (identifier) @_modules)) @finding
  (#eq? @_sys "sys")
  (#eq? @_modules "modules")
  (#match? @_name "^['\"](pytest|_pytest|unittest)['\"]$")
  (#set! kind "env"))

((call
   function: (attribute
     object: (attribute object: (identifier) @_sys attribute: (identifier) @_modules))
   arguments: (argument_list . (string) @_name)) @finding
  (#eq? @_sys "sys")
  (#eq? @_modules "modules")
  (#match? @_name "^['\"](pytest|_pytest)['\"]$")
  (#set! kind "env"))

((subscript
   value: (attribute object: (identifier) @_sys attribute: (identifier) @_modules)
   subscript: (string) @_name) @finding
  (#eq? @_sys "sys")
  (#eq? @_modules "modules")
  (#match? @_name "^['\"](pytest|_pytest)['\"]$")
  (#set! kind "env"))

((assert_statement (comparison_operator)) @finding
  (#set! kind "expect"))

((call
   function: (attribute attribute: (identifier) @_method)
   arguments: (argument_list)) @finding
  (#match? @_method "^assert(Equal|Equals|AlmostEqual|AlmostEquals)$")
  (#set! kind "expect"))

((call
   function: [(attribute attribute: (identifier) @_patch) (identifier) @_patch]
   arguments: (argument_list)) @finding
  (#match? @_patch "^(patch|object|setattr)$")
  (#set! kind "mock"))

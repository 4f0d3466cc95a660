; rule: focused-test
; language: python
; matches: focus markers of the pytest-only and pytest-focus plugins, which deselect every other
;   test when the plugin is installed: `@pytest.mark.only`, `@pytest.mark.focus`.
; prefilter: only focus
; captures:
;   @finding  required  the decorator
;   @key      required  the decorated test or class name
;   @_…       helpers for predicates, ignored by Rust

((decorated_definition
   (decorator [(attribute) @_marker (call function: (_) @_marker)]) @finding
   definition: [(function_definition name: (identifier) @key) (class_definition name: (identifier) @key)])
 (#match? @_marker "^(pytest\\.)?mark\\.(only|focus)$"))

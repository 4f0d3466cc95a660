; rule: disabled-check
; language: rust
; matches: lint-level attributes that may silence a lint: `#[allow(..)]`, `#![allow(..)]`,
;   `#[expect(..)]`, and `#[cfg_attr(.., allow(..))]`; the Rust side reads the lint list.
; prefilter: allow expect cfg_attr
; captures:
;   @finding  required  the attribute item
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  outer | inner

((attribute_item (attribute (identifier) @_name)) @finding
 (#any-of? @_name "allow" "expect" "cfg_attr")
 (#set! kind "outer"))

((inner_attribute_item (attribute (identifier) @_name)) @finding
 (#any-of? @_name "allow" "expect" "cfg_attr")
 (#set! kind "inner"))

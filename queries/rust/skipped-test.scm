; rule: skipped-test
; language: rust
; matches: `#[ignore]` on a function, `#[cfg_attr(<predicate>, ignore)]` (the rule reports it
;   only when the predicate holds on CI: `cfg_attr(ci, ignore)`), and always-false `cfg` attributes (`#[cfg(any())]`,
;   `#[cfg(FALSE)]`, `#[cfg(not(all()))]`) on a function, a module or a whole file. A removed
;   `#[test]` attribute is found by the rule from the `tests` inventory, not here.
; prefilter: ignore cfg
; captures:
;   @finding    required  the attribute
;   @key        optional  the function or module name; absent for inner attributes (whole file)
;   @condition  optional  the cfg predicate's token tree, evaluated by the rule
;   @_…         helpers for predicates, ignored by Rust
; properties (#set!):
;   kind       attribute
;   condition  skip-when-false: the item is compiled out when the predicate is false;
;              cfg-attr: `(predicate, ignore)`, ignored when the predicate is true
;   message    what the attribute does, spliced after the item name

; when: ignore
((attribute_item (attribute (identifier) @_name)) @finding
 .
 [(attribute_item) (line_comment) (block_comment)]*
 .
 (function_item name: (identifier) @key)
 (#eq? @_name "ignore")
 (#set! kind "attribute")
 (#set! message "skipped with `#[ignore]`"))

; when: ignore
((attribute_item (attribute (identifier) @_name arguments: (token_tree) @condition)) @finding
 .
 [(attribute_item) (line_comment) (block_comment)]*
 .
 (function_item name: (identifier) @key)
 (#eq? @_name "cfg_attr")
 (#match? @condition "[(,]\\s*ignore\\s*(=\\s*\"[^\"]*\"\\s*)?\\)$")
 (#set! kind "attribute")
 (#set! condition "cfg-attr")
 (#set! message "ignored by `#[cfg_attr(.., ignore)]`"))

; when: cfg
((attribute_item (attribute (identifier) @_name arguments: (token_tree) @condition)) @finding
 .
 [(attribute_item) (line_comment) (block_comment)]*
 .
 [(function_item name: (identifier) @key) (mod_item name: (identifier) @key)]
 (#eq? @_name "cfg")
 (#set! kind "attribute")
 (#set! condition "skip-when-false")
 (#set! message "compiled out by an always-false `cfg`"))

; when: cfg
((inner_attribute_item (attribute (identifier) @_name arguments: (token_tree) @condition)) @finding
 (#eq? @_name "cfg")
 (#set! kind "attribute")
 (#set! condition "skip-when-false")
 (#set! message "compiled out by an always-false `#![cfg]`"))

; rule: unsafe-operation
; language: rust
; matches: calls that run a command (a `Command` chain ending in `status`/`output`/`spawn`),
;   write, move or delete a file, or send a request; the Rust side substitutes local aliases
;   into the call's text, assembles literal pieces, decodes base64 literals and decides whether
;   the call reaches outside the repository.
; captures:
;   @finding  required  the call
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  exec | write | delete | send

((call_expression function: (field_expression field: (field_identifier) @_method)) @finding
 (#match? @_method "^(status|output|spawn)$")
 (#set! kind "exec"))

((call_expression function: [(identifier) (scoped_identifier)] @_callee) @finding
 (#match? @_callee "((^|::)fs::(write|copy|rename|create_dir_all|hard_link|set_permissions)|File::create|File::options|(^|::)symlink|symlink_file|symlink_dir)$")
 (#set! kind "write"))

((call_expression function: (field_expression field: (field_identifier) @_method)) @finding
 (#match? @_method "^open$")
 (#set! kind "write"))

((call_expression function: [(identifier) (scoped_identifier)] @_callee) @finding
 (#match? @_callee "(^|::)(remove_dir_all|remove_file|remove_dir)$")
 (#set! kind "delete"))

((call_expression function: (field_expression field: (field_identifier) @_method)) @finding
 (#match? @_method "^(send|send_json|send_string|send_form|send_bytes|call)$")
 (#set! kind "send"))

; rule: logged-secret
; language: javascript
; matches: logging and print calls; the Rust side reads their arguments (aliases substituted)
;   for secret-named environment variables, secret-named fields and whole-environment dumps.
; captures:
;   @finding  required  the call
;   @_…       helpers for predicates, ignored by Rust
((call_expression function: [(identifier) (member_expression)] @_callee) @finding
 (#match? @_callee "^((console|logger|log|this\\.logger|this\\.log|winston|pino|bunyan|signale|consola)\\.(log|info|warn|error|debug|trace|dir|table|fatal|notice|verbose)|core\\.(info|debug|notice|warning|error|setFailed)|process\\.(stdout|stderr)\\.write|debug|alert)$"))

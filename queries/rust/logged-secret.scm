; rule: logged-secret
; language: rust
; matches: printing and logging macros (`println!`, `eprintln!`, `dbg!`, `log`/`tracing`
;   `info!`/`debug!`/…); the Rust side reads their tokens (aliases substituted) for
;   secret-named environment variables, secret-named fields and whole-environment dumps.
; captures:
;   @finding  required  the macro invocation
;   @_…       helpers for predicates, ignored by Rust
((macro_invocation macro: [(identifier) (scoped_identifier)] @_macro) @finding
 (#match? @_macro "(^|::)(println|eprintln|print|eprint|dbg|info|warn|error|debug|trace|log|event)$"))

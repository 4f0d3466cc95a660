; rule: logged-secret
; language: python
; matches: logging and print calls; the Rust side reads their arguments (aliases substituted)
;   for secret-named environment variables, secret-named fields and whole-environment dumps.
; captures:
;   @finding  required  the call
;   @_…       helpers for predicates, ignored by Rust
((call function: [(identifier) (attribute)] @_callee) @finding
 (#match? @_callee "^(print|pprint|pp|pprint\\.pprint|pprint\\.pp|(logging|logger|log|_log|_logger|LOGGER|LOG|LOGGER_|self\\.log|self\\.logger|self\\._log|self\\._logger|cls\\.logger|app\\.logger|current_app\\.logger)\\.(debug|info|warning|warn|error|exception|critical|fatal|log)|sys\\.(stdout|stderr)\\.write|click\\.(echo|secho)|typer\\.echo|(rich\\.)?print|console\\.(print|log)|warnings\\.warn|logging\\.getLogger\\([^)]*\\)\\.(debug|info|warning|error|critical))$"))

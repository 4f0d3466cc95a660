; rule: unsafe-operation
; language: javascript
; matches: calls that run a command, write, move or delete a file, or send a request; the Rust
;   side substitutes local aliases into the call's text, assembles literal pieces, decodes
;   base64 literals and decides whether the call reaches outside the repository.
; captures:
;   @finding  required  the call
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  exec | write | delete | send

((call_expression function: [(identifier) (member_expression)] @_callee) @finding
 (#match? @_callee "^((child_process|cp|childProcess|proc)\\.)?(exec|execSync|execFile|execFileSync|spawn|spawnSync)$|^(execa|execaSync|execaCommand|execaCommandSync|\\$|shell\\.exec|Bun\\.spawn|Bun\\.spawnSync)$")
 (#set! kind "exec"))

((call_expression function: [(identifier) (member_expression)] @_callee) @finding
 (#match? @_callee "(^|\\.)(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFile|copyFileSync|cpSync|symlink|symlinkSync|rename|renameSync|chmod|chmodSync|outputFile|outputFileSync|ensureFile|ensureFileSync|mkdir|mkdirSync)$")
 (#set! kind "write"))

((call_expression function: [(identifier) (member_expression)] @_callee) @finding
 (#match? @_callee "(^|\\.)(rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|remove|removeSync|rimraf|rimrafSync|deleteSync|emptyDir|emptyDirSync)$")
 (#set! kind "delete"))

((call_expression function: [(identifier) (member_expression)] @_callee) @finding
 (#match? @_callee "^(fetch|axios|got|request|superagent|ky|undici\\.request|(axios|got|ky|http|https|request|superagent|client|api|needle)\\.(get|post|put|patch|request)|navigator\\.sendBeacon)$|\\.(post|put|patch)$")
 (#set! kind "send"))

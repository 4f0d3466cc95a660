; rule: unsafe-operation
; language: python
; matches: calls that run a command, write, move or delete a file, or send a request; the Rust
;   side substitutes local aliases into the call's text, assembles literal pieces, decodes
;   base64 literals and decides whether the call reaches outside the repository.
; captures:
;   @finding  required  the call
;   @_…       helpers for predicates, ignored by Rust
; properties (#set!):
;   kind  exec | write | delete | send

((call function: [(identifier) (attribute)] @_callee) @finding
 (#match? @_callee "^(subprocess\\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|sp\\.(run|call|check_call|check_output|Popen)|os\\.(system|popen|exec[lv]p?e?|spawn[lv]p?e?)|check_call|check_output|Popen|getoutput|asyncio\\.create_subprocess_(shell|exec)|pexpect\\.(spawn|run)|(c|ctx|context)\\.run|invoke\\.run|sh)$")
 (#set! kind "exec"))

((call function: [(identifier) (attribute)] @_callee) @finding
 (#match? @_callee "(^open$|^io\\.open$|^os\\.open$|^codecs\\.open$|\\.write_text$|\\.write_bytes$|\\.open$|\\.touch$|\\.symlink_to$|\\.hardlink_to$|^shutil\\.(copy|copy2|copyfile|copytree|move)$|^os\\.(symlink|link|rename|replace|chmod|chown)$|^os\\.makedirs$)")
 (#set! kind "write"))

((call function: [(identifier) (attribute)] @_callee) @finding
 (#match? @_callee "(^shutil\\.rmtree$|^os\\.(remove|unlink|rmdir|removedirs)$|\\.unlink$|\\.rmdir$|^rmtree$)")
 (#set! kind "delete"))

((call function: [(identifier) (attribute)] @_callee) @finding
 (#match? @_callee "(^(requests|httpx|session|client|http|s|sess|self\\.session|self\\.client|aiohttp)\\.(get|post|put|patch|request|delete)$|\\.(post|put|patch)$|(^|\\.)urlopen$|^(urllib\\.request\\.)?Request$|\\.request$|\\.sendall$|\\.send$|^smtplib\\.SMTP.*$|\\.sendmail$)")
 (#set! kind "send"))

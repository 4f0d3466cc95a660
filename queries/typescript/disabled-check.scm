; rule: disabled-check
; language: typescript (a verbatim copy of javascript/)
; matches: comments that may hold a lint or type-check suppression (`eslint-disable*`,
;   `eslint rule: off`, `@ts-ignore`, `@ts-nocheck`, `@ts-expect-error`, `biome-ignore*`);
;   the Rust side parses the directive, so text inside strings never counts.
; prefilter: eslint @ts- biome-ignore
; captures:
;   @finding  required  the comment

((comment) @finding
 (#match? @finding "eslint|@ts-(ignore|nocheck|expect-error)|biome-ignore"))

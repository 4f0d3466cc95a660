; rule: disabled-check
; language: python
; matches: comments that may hold a suppression (`# noqa`, `# type: ignore`, `# pyright: ignore`,
;   `# pylint: disable`, `# nosec`, `# mypy: ignore-errors`, `# pyre-ignore`); the Rust side
;   parses the directive, so text inside strings never counts.
; captures:
;   @finding  required  the comment

((comment) @finding
 (#match? @finding "(?i)noqa|type:\\s*ignore|pyright:|pylint:|nosec|mypy:|pyre-"))

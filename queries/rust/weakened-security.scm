; rule: weakened-security
; language: rust
; matches: code that switches a security control off: reqwest/native-tls certificate and host
;   name checks, rustls `dangerous()` verifiers, permissive CORS layers, cookie flags, CSP,
;   shell commands built at run time, JWT signature validation, weak password digests.
; prefilter: layer wrap danger_accept dangerous ServerCertVerifier permissive allow_any_origin allow_origin mirror_request send_wildcard allow_credentials supports_credentials secure http_only same_site unsafe- Command insecure_disable dangerous_insecure validate_exp Md5 md5 Sha1 sha1
; captures:
;   @finding        required  the node reported (and, normalized, its identity within its scope)
;   @message.value  optional  kind `via-true`: the variable or setting passed in
;   @message.arg    optional  kinds `dynamic`, `weak-hash`: the input argument
;   @_…             helpers for predicates, ignored by Rust
; properties: `kind` (flag, via-true, cors, credentials, middleware, dynamic, weak-hash), `message`,
;   `severity`.

; --- TLS ---------------------------------------------------------------------------------

; `ClientBuilder::new().danger_accept_invalid_certs(true)` (reqwest, native-tls).
((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments . (boolean_literal) @_value .)) @finding
 (#match? @_name "^danger_accept_invalid_(certs|hostnames)$")
 (#eq? @_value "true")
 (#set! kind "flag")
 (#set! message "TLS certificate or host name verification is switched off"))

((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments . [(identifier) (field_expression) (scoped_identifier)] @message.value .)) @finding
 (#match? @_name "^danger_accept_invalid_(certs|hostnames)$")
 (#set! kind "via-true")
 (#set! message "TLS certificate verification"))

; rustls: `config.dangerous().set_certificate_verifier(..)`.
((call_expression
   function: (field_expression field: (field_identifier) @_name)) @finding
 (#eq? @_name "dangerous")
 (#set! kind "flag")
 (#set! message "rustls `dangerous()` replaces certificate verification"))

; A verifier of one's own: `impl ServerCertVerifier for AcceptAll`.
((impl_item
   trait: [(type_identifier) @_name (scoped_type_identifier name: (type_identifier) @_name)]) @finding
 (#match? @_name "^(ServerCertVerifier|ClientCertVerifier)$")
 (#set! kind "flag")
 (#set! severity "warning")
 (#set! message "a custom TLS certificate verifier is implemented"))

; --- CORS --------------------------------------------------------------------------------

; tower-http `CorsLayer::permissive()`, actix-cors `Cors::permissive()`.
((call_expression
   function: (scoped_identifier name: (identifier) @_name)) @finding
 (#match? @_name "^(permissive|very_permissive|mirror_request)$")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin or echoes the request's"))

((call_expression
   function: (field_expression field: (field_identifier) @_name)) @finding
 (#match? @_name "^(allow_any_origin|send_wildcard)$")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin"))

; `.allow_origin(Any)`, `.allow_origin(AllowOrigin::any())`, `.allow_origin(cors::Any)`.
((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments . (_) @_value .)) @finding
 (#eq? @_name "allow_origin")
 (#match? @_value "(^|::)Any$|::any\\(\\)$|mirror_request|^\"\\*\"$")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin"))

((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments) @_args) @finding
 (#match? @_name "^(allow_credentials|supports_credentials)$")
 (#not-match? @_args "false")
 (#set! kind "credentials"))

; --- Authentication layers --------------------------------------------------------------

; axum/tower `.route_layer(middleware::from_fn(require_auth))`: its removal is judged by the
; Rust side.
((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments . (_) @finding))
 (#match? @_name "^(layer|route_layer|wrap)$")
 (#match? @finding "(?i)auth|login|jwt|session|guard|require_user|permission|bearer")
 (#set! kind "middleware"))

; --- Cookies, CSP --------------------------------------------------------------------------

; `Cookie::build(..).secure(false).http_only(false).same_site(SameSite::None)`.
((call_expression
   function: (field_expression field: (field_identifier) @_name)
   arguments: (arguments . (_) @_value .)) @finding
 (#match? @_name "^(secure|http_only|same_site|set_secure|set_http_only|set_same_site|cookie_secure|cookie_http_only|cookie_same_site|with_secure|with_http_only|with_same_site)$")
 (#match? @_value "^false$|::None$")
 (#set! kind "flag")
 (#set! message "a cookie loses its `Secure`/`HttpOnly`/`SameSite` protection"))

([(string_literal) (raw_string_literal)] @finding
 (#match? @finding "(default|script)-src(-elem|-attr)?[^;]*unsafe-(inline|eval)|(default|script)-src(-elem|-attr)?[^;\"]*\\s\\*(\\s|;|\"|$)")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

; --- Shell commands --------------------------------------------------------------------------

; `Command::new("sh").arg("-c").arg(format!("..{x}"))`; the Rust side checks the shell.
((call_expression
   function: (field_expression
     value: (call_expression
       function: (field_expression field: (field_identifier) @_c)
       arguments: (arguments . (string_literal) @_flag .)) @_inner
     field: (field_identifier) @_name)
   arguments: (arguments . (_) @message.arg .)) @finding
 (#eq? @_c "arg")
 (#match? @_flag "^\"(-c|/C|/c|-Command)\"$")
 (#eq? @_name "arg")
 (#match? @_inner "Command::new\\(\"(sh|bash|zsh|dash|cmd|cmd\\.exe|powershell|pwsh)\"\\)")
 (#set! kind "dynamic")
 (#set! message "a shell runs a command built at run time"))

; `Command::new("sh").args(["-c", &cmd])`.
((call_expression
   function: (field_expression
     value: (_) @_inner
     field: (field_identifier) @_name)
   arguments: (arguments . (_) @message.arg .)) @finding
 (#eq? @_name "args")
 (#match? @message.arg "^&?(vec!)?\\[\\s*\"(-c|/C)\"\\s*,")
 (#match? @_inner "Command::new\\(\"(sh|bash|zsh|dash|cmd|cmd\\.exe|powershell|pwsh)\"\\)")
 (#set! kind "dynamic")
 (#set! message "a shell runs a command built at run time"))

; --- Tokens and passwords ------------------------------------------------------------------

; jsonwebtoken: `validation.insecure_disable_signature_validation()`, `dangerous_insecure_decode`.
((call_expression
   function: [(field_expression field: (field_identifier) @_name)
              (identifier) @_name
              (scoped_identifier name: (identifier) @_name)]) @finding
 (#match? @_name "^(insecure_disable_signature_validation|dangerous_insecure_decode|dangerous_insecure_decode_with_validation|insecure_decode)$")
 (#set! kind "flag")
 (#set! message "JWT signature validation is switched off"))

((assignment_expression
   left: (field_expression field: (field_identifier) @_name)
   right: (boolean_literal) @_value) @finding
 (#eq? @_name "validate_exp")
 (#eq? @_value "false")
 (#set! kind "flag")
 (#set! severity "warning")
 (#set! message "JWT expiry is no longer checked"))

; `Md5::digest(password)`, `md5::compute(password)`, `Sha1::digest(..)`.
((call_expression
   function: (scoped_identifier path: (_) @_path name: (identifier) @_name)
   arguments: (arguments . (_) @message.arg)) @finding
 (#match? @_path "(?i)(^|::)(md5|sha1|md4)$")
 (#match? @_name "^(digest|compute|new_with_prefix|chain)$")
 (#set! kind "weak-hash")
 (#set! message "passwords are hashed with a fast, broken digest"))

; rule: weakened-security
; language: tsx
; matches: code that switches a security control off: TLS verification, CORS, CSRF, helmet and
;   CSP, route authentication middleware, cookie flags, dynamic code or shell execution, weak
;   password hashing, JWT verification. (Copied to typescript/ and tsx/; keep them equal.)
; prefilter: rejectUnauthorized strictSSL checkServerIdentity NODE_TLS insecure cors Origin origin credentials csrf csurf helmet contentSecurityPolicy unsafe- Src auth Auth login Login passport jwt token Token secure httpOnly sameSite eval Function vm exec spawn shell createHash algorithms ignoreExpiration
; captures:
;   @finding         required  the node reported (and, normalized, its identity within its scope)
;   @key             optional  kind `auth`: the route path the middleware protects
;   @message.value   optional  kind `via-false`: the variable or setting passed in
;   @message.arg     optional  kinds `dynamic`, `weak-hash`, `weak-secret`: the input argument
;   @message.object  optional  kind `cookie`: the options object the flag sits in
;   @_…              helpers for predicates, ignored by Rust
; properties: `kind` (flag, via-false, cors, credentials, auth, middleware, cookie, dynamic,
;   child-process, weak-hash, weak-secret, jwt-decode, jwt-verify) and `message`.

; --- TLS ---------------------------------------------------------------------------------

; `{ rejectUnauthorized: false }`, `strictSSL: false`.
((pair
   key: [(property_identifier) (string)] @_name
   value: (false)) @finding
 (#match? @_name "^['\"]?(rejectUnauthorized|strictSSL|strictSsl|verifySsl|verifySSL|verifyCertificate|validateCertificate)['\"]?$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off"))

((assignment_expression
   left: (member_expression property: (property_identifier) @_name)
   right: (false)) @finding
 (#match? @_name "^(rejectUnauthorized|strictSSL)$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off"))

; A verification setting set off: `const VERIFY_TLS = false`.
((variable_declarator
   name: (identifier) @_name
   value: (false)) @finding
 (#match? @_name "(?i)^(\\w*_)?(verify|verifyssl|verify_ssl|ssl_verify|verifytls|verify_tls|tls_verify|rejectunauthorized|strictssl|verifycertificate)$")
 (#set! kind "flag")
 (#set! message "a TLS verification setting is switched off"))

; `rejectUnauthorized: VERIFY`, `rejectUnauthorized: config.tls.verify`.
((pair
   key: [(property_identifier) (string)] @_name
   value: [(identifier) (member_expression) (subscript_expression)] @message.value) @finding
 (#match? @_name "^['\"]?(rejectUnauthorized|strictSSL)['\"]?$")
 (#set! kind "via-false")
 (#set! message "TLS certificate verification"))

; `checkServerIdentity: () => undefined`.
((pair
   key: (property_identifier) @_name
   value: [(arrow_function) (function_expression)]) @finding
 (#eq? @_name "checkServerIdentity")
 (#set! kind "flag")
 (#set! severity "warning")
 (#set! message "TLS host name checking is replaced by a function"))

; `process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"` and `process.env["..."] = 0`.
((assignment_expression
   left: [(member_expression property: (property_identifier) @_name)
          (subscript_expression index: (string) @_name)]
   right: [(string) (number)] @_value) @finding
 (#match? @_name "NODE_TLS_REJECT_UNAUTHORIZED")
 (#match? @_value "^['\"`]?0['\"`]?$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off for the whole process"))

; `env: { NODE_TLS_REJECT_UNAUTHORIZED: "0" }`.
((pair
   key: [(property_identifier) (string)] @_name
   value: [(string) (number)] @_value) @finding
 (#match? @_name "NODE_TLS_REJECT_UNAUTHORIZED")
 (#match? @_value "^['\"`]?0['\"`]?$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off for the whole process"))

; --- CORS --------------------------------------------------------------------------------

; `cors()` without options allows every origin.
((call_expression
   function: (identifier) @_name
   arguments: (arguments) @_args) @finding
 (#eq? @_name "cors")
 (#match? @_args "^\\(\\s*\\)$")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin (`cors()` without an origin list)"))

; `cors({ origin: "*" })`, `origin: true` (echoes the request's origin), `origin: (o, cb) => cb(null, true)`.
((pair
   key: (property_identifier) @_name
   value: [(string) (true) (arrow_function) (function_expression)] @_value) @finding
 (#eq? @_name "origin")
 (#match? @_value "^['\"`]\\*['\"`]$|^true$|null,\\s*true")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin or echoes the request's"))

; `res.setHeader("Access-Control-Allow-Origin", "*" | req.headers.origin)`.
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments . (string) @_name . (_) @_value)) @finding
 (#match? @_method "^(setHeader|header|set|append|writeHead)$")
 (#match? @_name "(?i)access-control-allow-origin")
 (#match? @_value "^['\"`]\\*['\"`]$|(?i)origin")
 (#set! kind "cors")
 (#set! message "the CORS allowed origin is `*` or echoed from the request"))

((pair
   key: (string) @_name
   value: (_) @_value) @finding
 (#match? @_name "(?i)access-control-allow-origin")
 (#match? @_value "^['\"`]\\*['\"`]$|(?i)origin")
 (#set! kind "cors")
 (#set! message "the CORS allowed origin is `*` or echoed from the request"))

((pair key: (property_identifier) @_name value: (true)) @finding
 (#eq? @_name "credentials")
 (#set! kind "credentials"))

((string) @finding
 (#match? @finding "(?i)^['\"`]access-control-allow-credentials['\"`]$")
 (#set! kind "credentials"))

; --- CSRF, helmet, CSP ---------------------------------------------------------------------

((pair key: [(property_identifier) (string)] @_name value: (false)) @finding
 (#match? @_name "^['\"]?(csrf|csrfProtection|xsrf|checkCsrf|csrfCheck)['\"]?$")
 (#set! kind "flag")
 (#set! message "CSRF protection is switched off"))

((pair key: (property_identifier) @_name value: (false)) @finding
 (#match? @_name "^(contentSecurityPolicy|hsts|frameguard|strictTransportSecurity)$")
 (#set! kind "flag")
 (#set! message "a security header is switched off"))

; Middleware whose removal from an app is judged by the Rust side (`app.use(helmet())`).
((call_expression
   function: (member_expression property: (property_identifier) @_use)
   arguments: (arguments . (_) @finding)) @_call
 (#eq? @_use "use")
 (#match? @finding "^(helmet|csurf|csrf|csrfProtection|lusca|requireAuth|requireLogin|authenticate|authMiddleware|ensureAuthenticated|ensureLoggedIn|isAuthenticated|verifyToken|checkJwt|jwtCheck|passport\\.authenticate|auth|authenticated|protect)\\b")
 (#set! kind "middleware"))

; A CSP script source list (script-src, or default-src that scripts fall back to) gaining
; `'unsafe-inline'`, `'unsafe-eval'` or a `*` source; style-src and img-src lists are not scripts.
; Only a string that holds a directive: `hasUnsafeInline = (r) => r.includes("'unsafe-inline'")`
; reads a policy, it does not write one.
([(string) (template_string)] @finding
 (#match? @finding "(default|script)-src(-elem|-attr)?[^;]*unsafe-(inline|eval)|(default|script)-src(-elem|-attr)?[^;'\"`]*\\s\\*(\\s|;|['\"`]|$)")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

((pair key: [(property_identifier) (string)] @_name value: (array) @_value) @finding
 (#match? @_name "^['\"]?(scriptSrc|defaultSrc|scriptSrcElem|scriptSrcAttr|script-src|default-src|script-src-elem|script-src-attr)['\"]?$")
 (#match? @_value "['\"`]\\*['\"`]|unsafe-inline|unsafe-eval")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

; --- Authentication on routes --------------------------------------------------------------

; `router.get("/admin", requireAuth, handler)`: the middleware before the handler.
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments . (string) @key . [(identifier) (member_expression) (call_expression)] @finding . (_)))
 (#match? @_method "^(get|post|put|patch|delete|all|use|route)$")
 (#match? @finding "(?i)auth|login|logged|jwt|token|session|permission|role|admin|protect|guard|passport")
 (#set! kind "auth"))

; --- Cookies -------------------------------------------------------------------------------

((object (pair key: (property_identifier) @_name value: (false)) @finding) @message.object
 (#match? @_name "^(secure|httpOnly)$")
 (#set! kind "cookie")
 (#set! message "a cookie loses its `Secure`/`HttpOnly` flag"))

((pair key: (property_identifier) @_name value: (string) @_value) @finding
 (#eq? @_name "sameSite")
 (#match? @_value "^['\"`](?i)none['\"`]$")
 (#set! kind "flag")
 (#set! message "a cookie is sent on cross-site requests (`sameSite: 'none'`)"))

; --- Code execution ------------------------------------------------------------------------

((call_expression
   function: (identifier) @_name
   arguments: (arguments . (_) @message.arg)) @finding
 (#eq? @_name "eval")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed"))

((new_expression
   constructor: (identifier) @_name
   arguments: (arguments (_) @message.arg .)) @finding
 (#eq? @_name "Function")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed (`new Function`)"))

((call_expression
   function: (identifier) @_name
   arguments: (arguments (_) @message.arg .)) @finding
 (#eq? @_name "Function")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed (`Function`)"))

; `vm.runInNewContext(code)`, `new vm.Script(code)`. Only on the module: a compiled script's own
; `script.runInContext(context)` runs code that `new vm.Script` already reported, and its
; argument is a context, not code.
((call_expression
   function: (member_expression
     object: (identifier) @_module
     property: (property_identifier) @_name)
   arguments: (arguments . (_) @message.arg)) @finding
 (#eq? @_module "vm")
 (#match? @_name "^(runInNewContext|runInThisContext|runInContext|compileFunction)$")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed (`vm`)"))

((new_expression
   constructor: (member_expression property: (property_identifier) @_name)
   arguments: (arguments . (_) @message.arg)) @finding
 (#eq? @_name "Script")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed (`vm.Script`)"))

; `exec(cmd)`, `execSync(cmd)`, `child_process.exec(cmd)`: through a shell. The Rust side
; requires `child_process` in the file.
((call_expression
   function: (identifier) @_name
   arguments: (arguments . (_) @message.arg)) @finding
 (#match? @_name "^(exec|execSync)$")
 (#set! kind "child-process")
 (#set! message "a shell runs a command built at run time"))

((call_expression
   function: (member_expression object: (identifier) @_object property: (property_identifier) @_name)
   arguments: (arguments . (_) @message.arg)) @finding
 (#match? @_object "^(child_process|childProcess|cp|child|proc|shell|shelljs)$")
 (#match? @_name "^(exec|execSync)$")
 (#set! kind "child-process")
 (#set! message "a shell runs a command built at run time"))

; `spawn(cmd, args, { shell: true })`.
((call_expression
   arguments: (arguments . (_) @message.arg
     (object (pair key: (property_identifier) @_shell value: (true))))) @finding
 (#eq? @_shell "shell")
 (#set! kind "dynamic")
 (#set! message "a shell runs a command built at run time"))

; --- Passwords and tokens ------------------------------------------------------------------

; `crypto.createHash("md5").update(password)`.
((call_expression
   function: (member_expression property: (property_identifier) @_name)
   arguments: (arguments . (string) @message.arg)) @finding
 (#eq? @_name "createHash")
 (#match? @message.arg "^['\"`](?i)(md5|sha1|md4)['\"`]$")
 (#set! kind "weak-hash")
 (#set! message "passwords are hashed with a fast, broken digest"))

((pair key: (property_identifier) @_name value: (array) @_value) @finding
 (#eq? @_name "algorithms")
 (#match? @_value "['\"`](?i)none['\"`]")
 (#set! kind "flag")
 (#set! message "JWT verification accepts unsigned tokens (`none` algorithm)"))

((pair key: (property_identifier) @_name value: (true)) @finding
 (#eq? @_name "ignoreExpiration")
 (#set! kind "flag")
 (#set! severity "warning")
 (#set! message "JWT expiry is no longer checked"))

; `jwt.sign(payload, "secret")`: a hard-coded signing key.
((call_expression
   function: (member_expression object: (identifier) @_object property: (property_identifier) @_name)
   arguments: (arguments . (_) . [(string) (template_string)] @message.arg)) @finding
 (#match? @_object "^(jwt|jsonwebtoken|JWT)$")
 (#eq? @_name "sign")
 (#set! kind "weak-secret")
 (#set! message "JWTs are signed with a hard-coded key"))

; `jwt.decode(token)` where base verified with `jwt.verify(token, key)` in the same function.
((call_expression
   function: (member_expression object: (identifier) @_object property: (property_identifier) @_name)) @finding
 (#match? @_object "^(jwt|jsonwebtoken|JWT)$")
 (#eq? @_name "decode")
 (#set! kind "jwt-decode"))

((call_expression
   function: (member_expression object: (identifier) @_object property: (property_identifier) @_name)) @finding
 (#match? @_object "^(jwt|jsonwebtoken|JWT)$")
 (#eq? @_name "verify")
 (#set! kind "jwt-verify"))

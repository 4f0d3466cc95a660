; rule: weakened-security
; language: python
; matches: code that switches a security control off: TLS verification, CORS, CSRF, route
;   authentication, cookie flags, CSP, Django debug settings, dynamic code or shell execution,
;   unsafe deserialization, weak password hashing, JWT verification.
; prefilter: set_missing_host_key_policy autoescape Pickle debug verify ssl SSL CERT_NONE check_hostname unverified HTTPSVERIFY NODE_TLS cors CORS Origin origins credentials csrf CSRF login_required permission Depends Security AllowAny authentication_classes required cookie COOKIE secure unsafe- src CSP DEBUG ALLOWED_HOSTS eval exec shell system popen getoutput pickle marshal dill yaml torch md5 sha1 hashlib jwt algorithms Middleware
; captures:
;   @finding        required  the node reported (and, normalized, its identity within its scope)
;   @key            optional  kind `auth`: the protected function's name
;   @message.value  optional  kinds `via-false`/`via-true`: the variable or setting passed in
;   @message.arg    optional  kinds `dynamic`, `deserialize`, `weak-hash`: the input argument
;   @_…             helpers for predicates, ignored by Rust
; properties: `kind` (how the Rust side judges the match: flag, via-false, via-true, cors,
;   credentials, auth, dynamic, deserialize, weak-hash, settings, middleware) and `message`
;   (what is switched off, spliced into the finding's message).

; --- TLS ---------------------------------------------------------------------------------

; `requests.get(url, verify=False)`, `httpx.Client(verify=False)`, any callee (aliases too).
((keyword_argument
   name: (identifier) @_name
   value: (false)) @finding
 (#match? @_name "^(verify|verify_ssl|ssl_verify|verify_certs|verify_cert|validate_certs|check_hostname|verify_tls|tls_verify)$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off"))

; aiohttp: `session.get(url, ssl=False)`, `TCPConnector(ssl=False)`.
((call
   function: [(attribute attribute: (identifier) @_callee) (identifier) @_callee]
   arguments: (argument_list
     (keyword_argument name: (identifier) @_name value: (false)) @finding))
 (#eq? @_name "ssl")
 (#match? @_callee "^(get|post|put|patch|delete|head|options|request|ws_connect|TCPConnector|Connector|ClientSession)$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off (aiohttp `ssl=False`)"))

; `**{"verify": False}` and option dictionaries spelled as literals.
((pair
   key: (string (string_content) @_name)
   value: (false)) @finding
 (#match? @_name "^(verify|verify_ssl|ssl_verify|verify_certs|check_hostname|verify_signature)$")
 (#set! kind "flag")
 (#set! message "verification is switched off in an options dictionary"))

; A verification setting set off: `VERIFY_SSL = False`, `self.verify = False`.
((assignment
   left: [(identifier) @_name (attribute attribute: (identifier) @_name)]
   right: (false)) @finding
 (#match? @_name "(?i)^(\\w*_)?(verify|verify_ssl|ssl_verify|verify_certs|verify_cert|tls_verify|verify_tls|ssl_verification|verify_https)$")
 (#set! kind "flag")
 (#set! message "a TLS verification setting is switched off"))

; `verify=VERIFY`, `verify=settings.VERIFY_SSL`: insecure only if the value is set to False.
((keyword_argument
   name: (identifier) @_name
   value: [(identifier) (attribute) (subscript)] @message.value) @finding
 (#match? @_name "^(verify|verify_ssl|ssl_verify|verify_certs|verify_cert|validate_certs|check_hostname)$")
 (#set! kind "via-false")
 (#set! message "TLS certificate verification"))

; `ssl._create_unverified_context()`, `ssl._create_default_https_context = ...`.
((attribute attribute: (identifier) @_name) @finding
 (#eq? @_name "_create_unverified_context")
 (#set! kind "flag")
 (#set! message "an unverified TLS context is used"))

((import_from_statement name: (dotted_name (identifier) @_name)) @finding
 (#eq? @_name "_create_unverified_context")
 (#set! kind "flag")
 (#set! message "an unverified TLS context is imported"))

; `ctx.verify_mode = ssl.CERT_NONE`, `cert_reqs=ssl.CERT_NONE`, `cert_reqs="CERT_NONE"`.
((attribute attribute: (identifier) @_name) @finding
 (#eq? @_name "CERT_NONE")
 (#set! kind "flag")
 (#set! message "TLS certificate checking is set to CERT_NONE"))

((keyword_argument
   name: (identifier) @_name
   value: [(identifier) (string)] @_value) @finding
 (#eq? @_name "cert_reqs")
 (#match? @_value "CERT_NONE")
 (#set! kind "flag")
 (#set! message "TLS certificate checking is set to CERT_NONE"))

; `ctx.check_hostname = False`.
((assignment
   left: (attribute attribute: (identifier) @_name)
   right: (false)) @finding
 (#eq? @_name "check_hostname")
 (#set! kind "flag")
 (#set! message "TLS host name checking is switched off"))

; `os.environ["NODE_TLS_REJECT_UNAUTHORIZED"] = "0"`, `PYTHONHTTPSVERIFY`.
((assignment
   left: (subscript subscript: (string) @_name)
   right: [(string) (integer)] @_value) @finding
 (#match? @_name "NODE_TLS_REJECT_UNAUTHORIZED|PYTHONHTTPSVERIFY")
 (#match? @_value "^['\"]?0['\"]?$")
 (#set! kind "flag")
 (#set! message "TLS certificate verification is switched off for the whole process"))

; paramiko: `client.set_missing_host_key_policy(paramiko.AutoAddPolicy())` trusts any host key.
((call
   function: (attribute attribute: (identifier) @_name)
   arguments: (argument_list . (_) @_policy)) @finding
 (#eq? @_name "set_missing_host_key_policy")
 (#match? @_policy "AutoAddPolicy|WarningPolicy")
 (#set! kind "flag")
 (#set! message "SSH host key verification is switched off"))

; --- CORS --------------------------------------------------------------------------------

; FastAPI/Starlette `allow_origins=["*"]`, flask-cors `origins="*"`, `allow_origin_regex=".*"`.
((keyword_argument
   name: (identifier) @_name
   value: [(string) (list (string)) (set (string)) (tuple (string))] @_value) @finding
 (#match? @_name "^(allow_origins|origins|allow_origin_regex|cors_allowed_origins|resources)$")
 (#match? @_value "['\"](\\*|\\.\\*)['\"]")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin"))

; django-cors-headers `CORS_ORIGIN_ALLOW_ALL = True`, `CORS_ALLOW_ALL_ORIGINS = True`.
((assignment
   left: (identifier) @_name
   right: (true)) @finding
 (#match? @_name "^CORS_(ORIGIN_ALLOW_ALL|ALLOW_ALL_ORIGINS)$")
 (#set! kind "cors")
 (#set! message "CORS accepts any origin"))

; `response.headers["Access-Control-Allow-Origin"] = "*"` or the request's own Origin.
((assignment
   left: (subscript subscript: (string) @_name)
   right: (_) @_value) @finding
 (#match? @_name "(?i)access-control-allow-origin")
 (#match? @_value "^['\"]\\*['\"]$|(?i)origin")
 (#set! kind "cors")
 (#set! message "the CORS allowed origin is `*` or echoed from the request"))

; Credentials sent cross-origin: what turns a permissive CORS policy into an error.
((keyword_argument name: (identifier) @_name value: (true)) @finding
 (#match? @_name "^(allow_credentials|supports_credentials)$")
 (#set! kind "credentials"))

((assignment left: (identifier) @_name right: (true)) @finding
 (#eq? @_name "CORS_ALLOW_CREDENTIALS")
 (#set! kind "credentials"))

((string (string_content) @_name) @finding
 (#match? @_name "(?i)^access-control-allow-credentials$")
 (#set! kind "credentials"))

; --- CSRF --------------------------------------------------------------------------------

; `@csrf_exempt`, `@csrf.exempt`.
((decorator [(identifier) (attribute)] @_name) @finding
 (#match? @_name "(^|\\.)csrf_exempt$|^csrf\\.exempt$")
 (#set! kind "flag")
 (#set! message "CSRF protection is exempted for this view"))

; `csrf.exempt(blueprint)`.
((call function: (attribute object: (identifier) @_object attribute: (identifier) @_name)) @finding
 (#match? @_object "csrf")
 (#eq? @_name "exempt")
 (#set! kind "flag")
 (#set! message "CSRF protection is exempted"))

; `WTF_CSRF_ENABLED = False`, `app.config["WTF_CSRF_ENABLED"] = False`, `{"WTF_CSRF_ENABLED": False}`.
((assignment
   left: [(identifier) @_name (subscript subscript: (string (string_content) @_name))]
   right: (false)) @finding
 (#match? @_name "^(WTF_CSRF_ENABLED|WTF_CSRF_CHECK_DEFAULT|CSRF_ENABLED)$")
 (#set! kind "flag")
 (#set! message "CSRF protection is switched off"))

((pair key: (string (string_content) @_name) value: (false)) @finding
 (#match? @_name "^(WTF_CSRF_ENABLED|WTF_CSRF_CHECK_DEFAULT|CSRF_ENABLED)$")
 (#set! kind "flag")
 (#set! message "CSRF protection is switched off"))

((keyword_argument name: (identifier) @_name value: (false)) @finding
 (#match? @_name "^(WTF_CSRF_ENABLED|csrf_enabled|csrf_protect)$")
 (#set! kind "flag")
 (#set! message "CSRF protection is switched off"))

; Security middleware listed in Django's MIDDLEWARE: its removal is judged by the Rust side.
((string (string_content) @_name) @finding
 (#match? @_name "^django\\.(middleware\\.csrf\\.CsrfViewMiddleware|middleware\\.security\\.SecurityMiddleware|contrib\\.auth\\.middleware\\.AuthenticationMiddleware|middleware\\.clickjacking\\.XFrameOptionsMiddleware)$")
 (#set! kind "middleware"))

; --- Authentication on routes --------------------------------------------------------------

; `@login_required`, `@permission_required("x")`, `@jwt_required()`, `@requires_auth`.
((decorated_definition
   (decorator [(identifier) (attribute) (call function: [(identifier) (attribute)])] @_name) @finding
   definition: (function_definition name: (identifier) @key))
 (#match? @_name "(^|\\.)(login_required|permission_required|user_passes_test|staff_member_required|superuser_required|jwt_required|auth_required|requires_auth|token_required|admin_required|authenticated|require_login|requires_login|roles_required|roles_accepted|fresh_jwt_required|verify_jwt_in_request|permission_classes|authentication_classes)($|\\()")
 (#set! kind "auth"))

; FastAPI `user = Depends(get_current_user)` / `Security(...)` in the parameters.
((function_definition
   name: (identifier) @key
   parameters: (parameters
     [(default_parameter value: (call function: (identifier) @_dep) @finding)
      (typed_default_parameter value: (call function: (identifier) @_dep) @finding)]))
 (#match? @_dep "^(Depends|Security)$")
 (#set! kind "auth"))

; FastAPI `@router.get("/x", dependencies=[Depends(verify_token)])`.
((decorated_definition
   (decorator (call arguments: (argument_list
     (keyword_argument name: (identifier) @_name value: (list) @finding))))
   definition: (function_definition name: (identifier) @key))
 (#eq? @_name "dependencies")
 (#set! kind "auth"))

; DRF `permission_classes = [AllowAny]`, `permission_classes = []`, `authentication_classes = ()`.
((assignment
   left: (identifier) @_name
   right: [(list) (tuple)] @_value) @finding
 (#match? @_name "^(permission_classes|authentication_classes)$")
 (#match? @_value "^[\\[(]\\s*[\\])]$|AllowAny")
 (#set! kind "flag")
 (#set! message "the view no longer requires authentication"))

((decorator (call function: (identifier) @_name arguments: (argument_list) @_value)) @finding
 (#eq? @_name "permission_classes")
 (#match? @_value "AllowAny|^\\(\\s*\\[\\s*\\]\\s*\\)$")
 (#set! kind "flag")
 (#set! message "the view no longer requires authentication"))

; --- Cookies -------------------------------------------------------------------------------

; `response.set_cookie(..., secure=False, httponly=False, samesite="None")`.
((call
   function: (attribute attribute: (identifier) @_callee)
   arguments: (argument_list
     (keyword_argument name: (identifier) @_name value: [(false) (string)] @_value) @finding))
 (#match? @_callee "^set_(signed_)?cookie$")
 (#match? @_name "^(secure|httponly|samesite)$")
 (#match? @_value "^(False|['\"][Nn]one['\"])$")
 (#set! kind "flag")
 (#set! message "a cookie loses its `Secure`/`HttpOnly`/`SameSite` protection"))

; Django/Flask settings: `SESSION_COOKIE_SECURE = False`, `SESSION_COOKIE_SAMESITE = "None"`.
((assignment
   left: [(identifier) @_name (subscript subscript: (string (string_content) @_name))]
   right: [(false) (string)] @_value) @finding
 (#match? @_name "^(SESSION_COOKIE_SECURE|CSRF_COOKIE_SECURE|SESSION_COOKIE_HTTPONLY|REMEMBER_COOKIE_SECURE|REMEMBER_COOKIE_HTTPONLY|SESSION_COOKIE_SAMESITE|CSRF_COOKIE_SAMESITE)$")
 (#match? @_value "^(False|['\"][Nn]one['\"])$")
 (#set! kind "flag")
 (#set! message "a cookie loses its `Secure`/`HttpOnly`/`SameSite` protection"))

; --- Security headers ----------------------------------------------------------------------

; A CSP script source list (script-src, or default-src that scripts fall back to) gaining
; `'unsafe-inline'`, `'unsafe-eval'` or a `*` source; style-src and img-src lists are not scripts.
; Only a string that holds a directive (a literal compared against is not a policy).
((string) @finding
 (#match? @finding "(default|script)-src(-elem|-attr)?[^;]*unsafe-(inline|eval)|(default|script)-src(-elem|-attr)?[^;'\"]*\\s\\*(\\s|;|['\"]|$)")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

((assignment left: (identifier) @_name right: (_) @_value) @finding
 (#match? @_name "^CSP_(SCRIPT|DEFAULT)_SRC(_ELEM|_ATTR)?$")
 (#match? @_value "['\"]\\*['\"]|unsafe-inline|unsafe-eval")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

; flask-talisman / django-csp dictionaries: `{"script-src": ["'self'", "'unsafe-inline'"]}`.
((pair key: (string) @_name value: [(list) (tuple) (string)] @_value) @finding
 (#match? @_name "^['\"](script-src|default-src|script-src-elem|script-src-attr)['\"]$")
 (#match? @_value "['\"]\\*['\"]|unsafe-inline|unsafe-eval")
 (#set! kind "flag")
 (#set! message "the Content-Security-Policy allows inline or any-origin scripts"))

; flask-talisman switched off: `Talisman(app, content_security_policy=None, force_https=False)`.
((keyword_argument name: (identifier) @_name value: [(none) (false)]) @finding
 (#match? @_name "^(content_security_policy|force_https|strict_transport_security|session_cookie_secure)$")
 (#set! kind "flag")
 (#set! message "a security header or HTTPS redirect is switched off"))

; jinja2 `Environment(autoescape=False)`: templates stop escaping HTML.
((keyword_argument name: (identifier) @_name value: (false)) @finding
 (#eq? @_name "autoescape")
 (#set! kind "flag")
 (#set! message "HTML autoescaping is switched off"))

; Flask/Werkzeug `app.run(debug=True)`: the interactive debugger runs code for any visitor.
((call
   function: (attribute attribute: (identifier) @_method)
   arguments: (argument_list (keyword_argument name: (identifier) @_name value: (true)) @finding))
 (#eq? @_method "run")
 (#eq? @_name "debug")
 (#set! kind "flag")
 (#set! severity "warning")
 (#set! message "the app runs with the interactive debugger on"))

; --- Django settings -----------------------------------------------------------------------

((assignment left: (identifier) @_name right: (true)) @finding
 (#eq? @_name "DEBUG")
 (#set! kind "settings")
 (#set! message "`DEBUG = True` shows stack traces and settings to any visitor"))

((assignment left: (identifier) @_name right: [(list) (tuple)] @_value) @finding
 (#eq? @_name "ALLOWED_HOSTS")
 (#match? @_value "['\"]\\*['\"]")
 (#set! kind "settings")
 (#set! message "`ALLOWED_HOSTS` accepts any host"))

; --- Code execution ------------------------------------------------------------------------

; `eval(x)`, `exec(x)`, `builtins.eval(x)`.
((call
   function: (identifier) @_name
   arguments: (argument_list . (_) @message.arg)) @finding
 (#match? @_name "^(eval|exec)$")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed"))

; Only the builtins module's: `session.exec(select(User))` (SQLModel) runs a query, not code.
((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg)) @finding
 (#eq? @_object "builtins")
 (#match? @_name "^(eval|exec)$")
 (#set! kind "dynamic")
 (#set! message "code built at run time is executed"))

; `subprocess.run(cmd, shell=True)` under any name (`from subprocess import run as r`).
((call
   arguments: (argument_list
     . (_) @message.arg
     (keyword_argument name: (identifier) @_shell value: (true)))) @finding
 (#eq? @_shell "shell")
 (#set! kind "dynamic")
 (#set! message "a shell runs a command built at run time"))

; `os.system(cmd)`, `os.popen(cmd)`, `subprocess.getoutput(cmd)`: always through a shell.
((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg)) @finding
 (#match? @_object "^(os|subprocess|commands)$")
 (#match? @_name "^(system|popen|getoutput|getstatusoutput)$")
 (#set! kind "dynamic")
 (#set! message "a shell runs a command built at run time"))

; `pickle.loads(data)`, `marshal.loads`, `dill.load`, `jsonpickle.decode`, `yaml.unsafe_load`.
((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg)) @finding
 (#match? @_object "^(pickle|cPickle|_pickle|marshal|dill|cloudpickle|jsonpickle)$")
 (#match? @_name "^(loads?|decode|Unpickler)$")
 (#set! kind "deserialize")
 (#set! message "untrusted data is unpickled (arbitrary code execution)"))

((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg)) @finding
 (#eq? @_object "yaml")
 (#match? @_name "^(unsafe_load|unsafe_load_all)$")
 (#set! kind "deserialize")
 (#set! message "YAML is loaded with the unsafe loader (arbitrary code execution)"))

; `yaml.load(x)` without a loader, or with `Loader=yaml.Loader/UnsafeLoader/FullLoader`.
((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg) @_args) @finding
 (#eq? @_object "yaml")
 (#match? @_name "^load(_all)?$")
 (#not-match? @_args "Safe|CLoader|BaseLoader")
 (#set! kind "deserialize")
 (#set! message "YAML is loaded without a safe loader (arbitrary code execution)"))

((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) @message.arg (keyword_argument name: (identifier) @_kw value: (false)))) @finding
 (#eq? @_object "torch")
 (#eq? @_name "load")
 (#eq? @_kw "weights_only")
 (#set! kind "deserialize")
 (#set! message "a checkpoint is unpickled with `weights_only=False`"))

; --- Passwords and tokens ------------------------------------------------------------------

; `hashlib.md5(password.encode())`, `hashlib.sha1(...)`, `hashlib.new("md5", ...)`, `md5(pw)`.
((call
   function: [(attribute attribute: (identifier) @_name) (identifier) @_name]
   arguments: (argument_list . (_) @message.arg)) @finding
 (#match? @_name "^(md5|sha1|new)$")
 (#set! kind "weak-hash")
 (#set! message "passwords are hashed with a fast, broken digest"))

; `jwt.decode(token, key, algorithms=["none"])`.
((keyword_argument
   name: (identifier) @_name
   value: (list (string (string_content) @_value))) @finding
 (#eq? @_name "algorithms")
 (#match? @_value "^(?i)none$")
 (#set! kind "flag")
 (#set! message "JWT verification accepts unsigned tokens (`none` algorithm)"))

; `jwt.decode(token, options={"verify_signature": False})` is the dictionary pattern above;
; `jwt.encode(payload, "secret")`: a hard-coded signing key.
((call
   function: (attribute object: (identifier) @_object attribute: (identifier) @_name)
   arguments: (argument_list . (_) . (string) @message.arg)) @finding
 (#match? @_object "^(jwt|jose|pyjwt)$")
 (#eq? @_name "encode")
 (#set! kind "weak-secret")
 (#set! message "JWTs are signed with a hard-coded key"))

//! `weakened-security`: the change switches a security control off or loosens it.
//!
//! Source files are read through `queries/<language>/weakened-security.scm`: each pattern says
//! with its `kind` property how its match is judged ([`hits`]). Most kinds are "added" kinds: a
//! match is reported when its identity (enclosing scope and whitespace-free text) occurs more
//! often in head than in base, so a pattern already in base stays silent however it is
//! re-indented ([`added`]). A few are "removed" kinds, judged the other way round: an
//! authentication decorator, dependency or route middleware that base had on a function or
//! route head still defines, security middleware (helmet, csurf, Django's CSRF middleware) that
//! left the app ([`removed`]). A setting passed by name (`verify=VERIFY`,
//! `danger_accept_invalid_certs(cfg.insecure)`) is insecure only when the change sets that name
//! to the insecure value somewhere, which only the whole change shows ([`indirect`], in the
//! change-level check). GitHub workflows and plain-text files (package.json scripts, shell
//! scripts, `.npmrc`) are compared in the change-level check too ([`workflows`], [`lines`]).

mod added;
mod hits;
mod indirect;
mod lines;
mod removed;
mod workflows;

use super::context::{FileContext, Output};
use super::declare_rule;
use super::{ChangeInput, ChangeOutput};
use crate::finding::Side;

/// The rule id, also the query name.
const ID: &str = "weakened-security";

declare_rule! {
    /// ## What it flags
    /// Security controls the change switches off or loosens (only what the change introduces;
    /// the same code already in base, also moved or re-indented, stays silent):
    ///
    /// - TLS verification: Python `verify=False` (requests, httpx and any other callee, also
    ///   through an alias such as `from requests import get as g`, or `**{"verify": False}`),
    ///   aiohttp `ssl=False`, `ssl._create_unverified_context`, `CERT_NONE`,
    ///   `check_hostname = False`; JavaScript/TypeScript `rejectUnauthorized: false`,
    ///   `strictSSL: false`, `NODE_TLS_REJECT_UNAUTHORIZED = "0"` (in code, workflow `env:`,
    ///   package.json scripts, shell scripts, `.env`), `strict-ssl=false` in `.npmrc`; Rust
    ///   `danger_accept_invalid_certs(true)`, `danger_accept_invalid_hostnames(true)`, rustls
    ///   `.dangerous()` (a custom `ServerCertVerifier` is a warning). Also a variable or setting
    ///   passed in (`verify=VERIFY`, `verify=settings.VERIFY_SSL`,
    ///   `danger_accept_invalid_certs(cfg.insecure)`) when the change sets that name to the
    ///   insecure value in any changed file (`VERIFY_SSL = False`, `verify_ssl: false`).
    /// - Web: CORS open to any origin (`allow_origins=["*"]`, `CORS_ALLOW_ALL_ORIGINS = True`,
    ///   `cors()`, `origin: "*"`, `origin: true`, `CorsLayer::permissive()`,
    ///   `allow_origin(Any)`) or echoing the request's `Origin`: an error when the same file
    ///   sends credentials (`allow_credentials=True`, `credentials: true`), a warning otherwise;
    ///   CSRF exempted or off (`@csrf_exempt`, `csrf.exempt`, `WTF_CSRF_ENABLED = False`,
    ///   `csrf: false`); authentication removed from a route that still exists
    ///   (`@login_required`, `@jwt_required`, `Depends(get_current_user)`,
    ///   `dependencies=[Depends(verify_token)]`, `router.get("/admin", requireAuth, ..)`
    ///   losing the middleware) and `permission_classes = [AllowAny]`; security middleware
    ///   dropped from the app (`app.use(helmet())`, `app.use(csurf())`, `app.use(requireAuth)`, axum `.route_layer(from_fn(require_auth))`,
    ///   or moved below the routes it guarded (Express runs middleware in order),
    ///   Django's `CsrfViewMiddleware`/`SecurityMiddleware`/`AuthenticationMiddleware`);
    ///   cookie flags off (`secure=False`, `httponly=False`, `samesite="None"`,
    ///   `SESSION_COOKIE_SECURE = False`, `httpOnly: false`, `sameSite: "none"`,
    ///   `.secure(false)`); `contentSecurityPolicy: false`; a CSP gaining `'unsafe-inline'`,
    ///   `'unsafe-eval'` or a `*` source; Django `DEBUG = True` or `ALLOWED_HOSTS = ["*"]` in a
    ///   settings file; Flask `app.run(debug=True)` (a warning); jinja2 `autoescape=False`;
    ///   paramiko `AutoAddPolicy`/`WarningPolicy` (SSH host keys unchecked).
    /// - Code execution on input that is not a constant: `eval`/`exec`, `new Function`,
    ///   `vm.runIn*Context`, `subprocess.*(.., shell=True)` under any name, `os.system`,
    ///   `os.popen`, `child_process.exec`/`execSync`, `spawn(.., { shell: true })`,
    ///   `Command::new("sh").arg("-c").arg(cmd)`; `pickle.loads`, `marshal.loads`,
    ///   `yaml.load` without a safe loader, `yaml.unsafe_load`, `torch.load(weights_only=False)`.
    /// - Passwords and tokens: md5/sha1 on a password (`hashlib.md5(password..)`,
    ///   `createHash("md5").update(password)`, `Md5::digest(password)`); JWT verification off
    ///   (`options={"verify_signature": False}`, `algorithms=["none"]`,
    ///   `insecure_disable_signature_validation()`, `jwt.verify` replaced by `jwt.decode` in
    ///   the same function); JWTs signed with a literal key (`jwt.sign(payload, "secret")`).
    /// - GitHub workflows, compared with base: a `pull_request_target` or `workflow_run`
    ///   workflow that checks out the pull request's head; `${{ github.event.* }}` text an
    ///   outsider controls (titles, bodies, branch names, commit messages, `github.head_ref`)
    ///   interpolated into `run:` or a github-script; `permissions` widened (`write-all`, a
    ///   scope raised to `write` over an explicit base setting); an action moved from a
    ///   40-hex commit pin to a tag or branch; `secrets: inherit` added (a warning for a
    ///   workflow of the same repository); `ACTIONS_ALLOW_UNSECURE_COMMANDS: true` and
    ///   `toJSON(secrets)` added.
    ///
    /// In test code (test directories and files) TLS, CORS, cookie, CSRF, execution and
    /// deserialization findings are warnings: a test against a local self-signed server is
    /// the usual honest reason, and such code does not ship. Hard-coded JWT keys in tests are
    /// not reported. Code execution on built input in developer scripts (`scripts/`, `tools/`,
    /// `bin/`, `.claude/`, `.github/`) is a warning too: its input is the maintainer's own.
    /// ## Why it matters
    /// Friction removal is the agent's favourite fix: "CORS is throwing errors, let me set
    /// `*`", "the certificate is self-signed, `verify=False`", "CSRF is blocking the tests".
    /// Each makes the failing request or test pass and ships a hole that no test will ever
    /// catch, because the tests now pass precisely thanks to it.
    /// ## Example
    /// Fires:
    ///
    /// ```python
    /// VERIFY = False          # added
    /// resp = requests.get(url, verify=VERIFY)
    /// ```
    ///
    /// Fires: `app.use(cors({ origin: true, credentials: true }))`; `@login_required` removed
    /// from `def delete_account(request)`; `subprocess.run(f"convert {name}", shell=True)`;
    /// `uses: actions/checkout@v4` where base pinned `actions/checkout@8e5e7e5...`.
    /// ## Not flagged
    /// - Verification configurable and on by default (`verify=settings.VERIFY_SSL` with
    ///   `VERIFY_SSL = env.bool("VERIFY_SSL", default=True)`), a CA bundle
    ///   (`verify="/etc/ssl/ca.pem"`), `rejectUnauthorized: true`.
    /// - An origin allowlist (`allow_origins=["https://app.example.com"]`), a decorator swapped
    ///   for another authentication decorator, a function deleted with its decorator.
    /// - `eval`, `exec`, shell commands and `yaml.load` on string literals, `yaml.safe_load`,
    ///   `Loader=yaml.SafeLoader`, `subprocess.run([...])` without a shell, `pickle.loads(
    ///   pickle.dumps(x))` round trips, `re.exec(..)` (a file without `child_process`).
    /// - md5/sha1 for checksums and cache keys (no password in sight), `jwt.decode` in a
    ///   function that never verified.
    /// - `DEBUG = True` outside settings files and in `settings/dev.py`, `local.py`, `test.py`.
    /// - Workflow permissions added where base had none (the token's default), a tag moved to
    ///   another tag, a SHA pin updated to another SHA, `${{ github.event.pull_request.number }}`
    ///   and other values an outsider cannot choose.
    /// ## Configuration
    /// `rules.weakened-security.severity` in `.integrity-gate.yml`; an accepted exception that
    /// already exists in base can carry `# integrity-gate: allow weakened-security -- <reason>`
    /// on the line or the line above.
    pub static WEAKENED_SECURITY = {
        id: "weakened-security",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "TLS verification, CORS, CSRF, auth, cookie flags, CSP, exec safety or CI hardening is loosened",
        maturity: Stable,
        check: Some(check),
        change_check: change_check,
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let head = hits::collect(context, Side::Head, language);
    let base = hits::collect(context, Side::Base, language);
    if context.side(Side::Head).is_some() {
        added::report(context, language, &head, &base, out);
        removed::report(context, language, &head, &base, out);
    }
    added::facts(language, &head, &base, out);
    removed::facts(language, &head, out);
    indirect::hand_off(context, &head, &base, out);
}

fn change_check(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    indirect::judge(input, out);
    for (index, pair) in input.pairs.iter().enumerate() {
        if workflows::is_workflow(pair.path()) {
            workflows::check(index, pair, out);
        }
        if crate::lang::Language::from_path(pair.path()).is_none() {
            lines::check(index, pair, out);
        }
    }
}

/// Whether a path is test code, where the rule's findings are warnings.
fn in_tests(path: &str) -> bool {
    super::is_test_path(path)
}

/// Whitespace-free text, so re-indentation and reformatting do not change identities.
fn normalize(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests;

//! Optional registry look-up for `--online`: does each new registry package exist, and how old
//! is it? A name that no registry knows was most likely made up (by a person or a model) and
//! is one `publish` away from being someone else's code; a package first published days ago
//! has had no time to be noticed if it is malicious. The look-up sits behind
//! [`RegistryClient`] so the engine and the tests decide where requests go; the HTTP client is
//! compiled only with the crate feature `online`.

use super::{Dependency, DependencyFinding, Ecosystem, Severity, Source};

/// What a registry says about one package.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PackageInfo {
    /// When the first version was published, as Unix seconds, if the registry says.
    pub first_published_unix: Option<i64>,
}

/// A registry that can be asked about package names.
pub trait RegistryClient {
    /// `Ok(None)` when the registry does not know the package, `Ok(Some(info))` when it does,
    /// `Err(message)` when the question could not be answered (network, unexpected reply).
    fn lookup(&self, ecosystem: Ecosystem, name: &str) -> Result<Option<PackageInfo>, String>;
}

/// Packages younger than this many days get a warning.
pub const YOUNG_PACKAGE_DAYS: i64 = 30;

/// The name to ask the registry for: PEP 503 for PyPI, as declared for the others.
pub fn registry_name(dep: &Dependency) -> String {
    match dep.ecosystem {
        Ecosystem::PyPI => dep.name.clone(),
        _ => dep.declared_name.clone(),
    }
}

/// Ask `client` about every default-registry dependency in `deps` (Go and non-registry sources
/// are skipped) and report unknown packages (error), packages first published less than
/// [`YOUNG_PACKAGE_DAYS`] before `now_unix` (warning), and failed look-ups (note).
pub fn online_findings(
    client: &dyn RegistryClient,
    deps: &[Dependency],
    path: &str,
    now_unix: i64,
) -> Vec<DependencyFinding> {
    let mut out = Vec::new();
    let mut asked: Vec<(Ecosystem, String)> = Vec::new();
    for dep in deps {
        if dep.source != Source::Registry || dep.ecosystem == Ecosystem::Go {
            continue;
        }
        let name = registry_name(dep);
        if asked.contains(&(dep.ecosystem, name.clone())) {
            continue;
        }
        asked.push((dep.ecosystem, name.clone()));
        let registry = dep.ecosystem.registry_label();
        let (severity, kind, message) = match client.lookup(dep.ecosystem, &name) {
            Ok(None) => (
                Severity::Error,
                "unknown-package",
                format!(
                    "new dependency `{name}` ({path}) does not exist on {registry}: a made-up name that anyone could register"
                ),
            ),
            Ok(Some(info)) => match info.first_published_unix {
                Some(t) if now_unix.saturating_sub(t) < YOUNG_PACKAGE_DAYS * 86_400 => {
                    let days = now_unix.saturating_sub(t).max(0) / 86_400;
                    (
                        Severity::Warning,
                        "new-package",
                        format!(
                            "new dependency `{name}` ({path}) was first published on {registry} {days} day{} ago",
                            if days == 1 { "" } else { "s" }
                        ),
                    )
                }
                _ => continue,
            },
            Err(e) => (
                Severity::Note,
                "online-error",
                format!("could not check `{name}` on {registry}: {e}"),
            ),
        };
        out.push(DependencyFinding {
            severity,
            line: dep.line,
            end_line: dep.line,
            message,
            kind,
            dependency: Some(dep.clone()),
        });
    }
    out
}

/// Parse an RFC 3339 / ISO 8601 UTC-or-offset timestamp (`2014-11-11T19:49:50.962283+00:00`,
/// `2010-12-29T19:38:25.450Z`, `2012-01-05T21:18:53`) into Unix seconds.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    let s = s.trim();
    let num = |a: usize, b: usize| -> Option<i64> { s.get(a..b)?.parse().ok() };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    if s.get(4..5)? != "-" || s.get(7..8)? != "-" {
        return None;
    }
    let (h, mi, sec) = if s.len() >= 19 {
        (num(11, 13)?, num(14, 16)?, num(17, 19)?)
    } else {
        (0, 0, 0)
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let rest = s.get(19..).unwrap_or("");
    let rest = rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    let offset = if rest.is_empty() || rest == "Z" || rest == "z" {
        0
    } else {
        let sign = match rest.get(..1)? {
            "+" => 1,
            "-" => -1,
            _ => return None,
        };
        let oh: i64 = rest.get(1..3)?.parse().ok()?;
        let om: i64 = rest.get(4..6).or_else(|| rest.get(3..5))?.parse().ok()?;
        sign * (oh * 3600 + om * 60)
    };
    Some(days_from_civil(year, month, day) * 86_400 + h * 3600 + mi * 60 + sec - offset)
}

/// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Read the first-publication time out of a registry's JSON reply (the shapes of crates.io
/// `/api/v1/crates/NAME`, PyPI `/pypi/NAME/json` and npm `/NAME`), for any [`RegistryClient`].
pub fn first_published(eco: Ecosystem, body: &serde_json::Value) -> Option<i64> {
    match eco {
        // crates.io `/api/v1/crates/NAME`: `{"crate": {"created_at": "..."}}`
        Ecosystem::Cargo => body
            .get("crate")?
            .get("created_at")?
            .as_str()
            .and_then(parse_timestamp),
        // registry.npmjs.org `/NAME`: `{"time": {"created": "..."}}`
        Ecosystem::Npm => body
            .get("time")?
            .get("created")?
            .as_str()
            .and_then(parse_timestamp),
        // pypi.org `/pypi/NAME/json`: earliest upload over `releases.*[]`.
        Ecosystem::PyPI => body
            .get("releases")?
            .as_object()?
            .values()
            .filter_map(serde_json::Value::as_array)
            .flatten()
            .filter_map(|f| {
                f.get("upload_time_iso_8601")
                    .or_else(|| f.get("upload_time"))
                    .and_then(serde_json::Value::as_str)
                    .and_then(parse_timestamp)
            })
            .min(),
        Ecosystem::Go => None,
    }
}

/// Path (to append to the registry's base URL) of the JSON document describing `name`:
/// `/api/v1/crates/NAME` (crates.io), `/pypi/NAME/json` (PyPI), `/NAME` (npm, with a scoped
/// name's `/` as `%2F`). `None` for Go.
pub fn registry_path(eco: Ecosystem, name: &str) -> Option<String> {
    let n = encode_segment(name);
    match eco {
        Ecosystem::Cargo => Some(format!("/api/v1/crates/{n}")),
        Ecosystem::PyPI => Some(format!("/pypi/{n}/json")),
        Ecosystem::Npm => Some(format!("/{n}")),
        Ecosystem::Go => None,
    }
}

/// Percent-encode a package name for a URL path segment (npm scopes keep their `@`,
/// the `/` becomes `%2F` as the npm registry expects).
fn encode_segment(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'@') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

mod http {
    use std::time::Duration;

    use super::{Ecosystem, PackageInfo, RegistryClient, first_published, registry_path};

    /// [`RegistryClient`] over HTTPS (ureq with rustls). The base URLs are fields so tests and
    /// mirrors can point it elsewhere.
    pub struct HttpRegistryClient {
        /// Base of the crates.io API, default `https://crates.io`.
        pub crates_base: String,
        /// Base of the PyPI JSON API, default `https://pypi.org`.
        pub pypi_base: String,
        /// Base of the npm registry, default `https://registry.npmjs.org`.
        pub npm_base: String,
        agent: ureq::Agent,
    }

    /// Largest reply read: full npm documents of big packages run to tens of megabytes.
    const MAX_BODY: u64 = 64 * 1024 * 1024;

    impl HttpRegistryClient {
        /// Client for the public registries with a per-request timeout.
        pub fn new(timeout: Duration) -> HttpRegistryClient {
            HttpRegistryClient::with_bases(
                "https://crates.io",
                "https://pypi.org",
                "https://registry.npmjs.org",
                timeout,
            )
        }

        /// Client for registries at other base URLs (tests use `http://127.0.0.1:PORT`).
        pub fn with_bases(crates: &str, pypi: &str, npm: &str, timeout: Duration) -> Self {
            let config = ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .user_agent("integrity-gate (new-dependency check)")
                .build();
            HttpRegistryClient {
                crates_base: crates.trim_end_matches('/').to_string(),
                pypi_base: pypi.trim_end_matches('/').to_string(),
                npm_base: npm.trim_end_matches('/').to_string(),
                agent: config.into(),
            }
        }

        fn url(&self, eco: Ecosystem, name: &str) -> Option<String> {
            let base = match eco {
                Ecosystem::Cargo => &self.crates_base,
                Ecosystem::PyPI => &self.pypi_base,
                Ecosystem::Npm => &self.npm_base,
                Ecosystem::Go => return None,
            };
            Some(format!("{base}{}", registry_path(eco, name)?))
        }
    }

    impl RegistryClient for HttpRegistryClient {
        fn lookup(&self, eco: Ecosystem, name: &str) -> Result<Option<PackageInfo>, String> {
            let Some(url) = self.url(eco, name) else {
                return Err("no registry look-up for this ecosystem".to_string());
            };
            let mut resp = self
                .agent
                .get(&url)
                .header("Accept", "application/json")
                .call()
                .map_err(|e| e.to_string())?;
            let status = resp.status().as_u16();
            if status == 404 || status == 410 {
                return Ok(None);
            }
            if !(200..300).contains(&status) {
                return Err(format!("HTTP {status} from {url}"));
            }
            let body = resp
                .body_mut()
                .with_config()
                .limit(MAX_BODY)
                .read_to_string()
                .map_err(|e| e.to_string())?;
            let json: serde_json::Value =
                serde_json::from_str(&body).map_err(|e| format!("unexpected reply: {e}"))?;
            Ok(Some(PackageInfo {
                first_published_unix: first_published(eco, &json),
            }))
        }
    }
}

pub use http::HttpRegistryClient;

//! Publishing the `integrity-gate` check run on the PR head commit.
//!
//! The check run is a reporting surface, not the gate: the exit code decides. GitHub accepts at
//! most 50 annotations per request and *replaces* the whole `output` object on every update, so
//! the run is created (in progress when more batches follow) and then updated batch by batch,
//! each update resending title, summary and text; the last request carries the conclusion.
//! Annotations are sorted most severe first and capped; the remainder is counted in the
//! summary. On a re-run the latest run with the same name on the same commit is updated
//! instead of adding another one.
//!
//! The network sits behind [`CheckApi`] so the batching logic is testable with a recorder and
//! the HTTP client is replaceable in one place. [`OctocrabChecks`] is the real implementation:
//! octocrab on rustls/ring with a current-thread tokio runtime built here, base URI from
//! `GITHUB_API_URL` (GitHub Enterprise Server works the same way).

use serde::Serialize;

use super::event::EventPlan;
use super::model::{Finding, Report, Severity, Side};
use super::summary;
use crate::text::{escape_controls, escape_controls_in_lines};

/// GitHub refuses a 51st annotation in one request.
pub const ANNOTATIONS_PER_REQUEST: usize = 50;
/// Annotation `message`/`raw_details` limit is 64 KB; stay clear of it.
const ANNOTATION_TEXT_LIMIT: usize = 60_000;
/// Annotation `title` limit (characters; ASCII here, so bytes).
const ANNOTATION_TITLE_LIMIT: usize = 255;

/// Final state of the run. `stale` (GitHub-only) and `action_required` (needs a details URL the
/// workflow token cannot set) are deliberately absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conclusion {
    /// No blocking findings (or none at all).
    Success,
    /// At least one blocking finding.
    Failure,
    /// Only non-blocking findings, when configured to show them as neutral.
    Neutral,
}

impl Conclusion {
    /// The API spelling, also used for the `conclusion` step output.
    pub fn as_str(self) -> &'static str {
        match self {
            Conclusion::Success => "success",
            Conclusion::Failure => "failure",
            Conclusion::Neutral => "neutral",
        }
    }
}

/// `failure` with blocking findings; otherwise `neutral` when findings exist and
/// `neutral_on_findings` is set, else `success`.
pub fn conclusion(report: &Report, neutral_on_findings: bool) -> Conclusion {
    if report.blocking > 0 {
        Conclusion::Failure
    } else if neutral_on_findings && !report.findings.is_empty() {
        Conclusion::Neutral
    } else {
        Conclusion::Success
    }
}

/// `status` values a token may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Created, more batches follow.
    InProgress,
    /// Final request (with a conclusion).
    Completed,
}

/// `annotation_level` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// From `note`.
    Notice,
    /// From `warning`.
    Warning,
    /// From `error`.
    Failure,
}

/// One annotation as the Checks API expects it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Annotation {
    /// Repo-relative path with `/`.
    pub path: String,
    /// 1-based first line.
    pub start_line: u32,
    /// 1-based last line.
    pub end_line: u32,
    /// Severity.
    pub annotation_level: Level,
    /// The finding's message.
    pub message: String,
    /// The rule id.
    pub title: String,
    /// The (redacted) snippet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_details: Option<String>,
}

/// `output` of a create/update request. Always complete: an update replaces the whole object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Output {
    /// One-line verdict.
    pub title: String,
    /// Markdown summary (≤ 65,535 bytes).
    pub summary: String,
    /// Markdown list of every finding (≤ 65,535 bytes).
    pub text: String,
    /// This request's batch (≤ 50).
    pub annotations: Vec<Annotation>,
}

/// Body of `POST …/check-runs` and `PATCH …/check-runs/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckRunBody {
    /// Run name (create only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Commit (create only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_sha: Option<String>,
    /// `in_progress` or `completed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Sent with the last request only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<Conclusion>,
    /// Always sent.
    pub output: Output,
}

/// A run found by name on the commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExistingRun {
    /// Its id.
    pub id: u64,
    /// Annotations it already carries (they cannot be removed, only added to).
    pub annotations_count: u64,
}

/// A failed API call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// GitHub answered with an error status.
    #[error("HTTP {status}: {message}")]
    Status {
        /// HTTP status code.
        status: u16,
        /// GitHub's message.
        message: String,
    },
    /// No usable answer (connection, timeout, unexpected body).
    #[error("{0}")]
    Transport(String),
}

/// The three Checks API calls the publisher needs.
pub trait CheckApi {
    /// `GET /repos/{owner}/{repo}/commits/{sha}/check-runs?check_name=…&filter=latest`.
    fn find_run(
        &self,
        owner: &str,
        repo: &str,
        sha: &str,
        name: &str,
    ) -> Result<Option<ExistingRun>, ApiError>;
    /// `POST /repos/{owner}/{repo}/check-runs`, returning the new run's id.
    fn create_run(&self, owner: &str, repo: &str, body: &CheckRunBody) -> Result<u64, ApiError>;
    /// `PATCH /repos/{owner}/{repo}/check-runs/{id}`.
    fn update_run(
        &self,
        owner: &str,
        repo: &str,
        id: u64,
        body: &CheckRunBody,
    ) -> Result<(), ApiError>;
}

/// How to publish.
#[derive(Clone, Debug)]
pub struct PublishOptions {
    /// Check run name.
    pub name: String,
    /// Total annotations sent; the rest is counted in the summary.
    pub max_annotations: usize,
    /// Conclude `neutral` instead of `success` when only non-blocking findings exist.
    pub neutral_on_findings: bool,
    /// Update the latest run with the same name on the commit instead of creating one. Note that
    /// annotations of the earlier attempt stay on it (the API can only append annotations).
    pub update_existing: bool,
}

impl Default for PublishOptions {
    fn default() -> Self {
        PublishOptions {
            name: "integrity-gate".to_string(),
            max_annotations: 500,
            neutral_on_findings: false,
            update_existing: true,
        }
    }
}

/// What was published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishOutcome {
    /// The run's id.
    pub check_run_id: u64,
    /// The conclusion sent.
    pub conclusion: Conclusion,
    /// Annotations sent.
    pub annotated: usize,
    /// Findings not annotated (base-side ones and those over the cap).
    pub not_annotated: usize,
    /// HTTP requests made.
    pub requests: usize,
    /// An existing run was updated.
    pub reused: bool,
}

/// Why publishing failed. None of these change the gate's verdict.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// 403/404: the token cannot write checks (fork PR, missing `checks: write`). Fall back.
    #[error(
        "the token cannot write check runs (HTTP {status}: {message}); grant `permissions: checks: write` (fork pull requests never get it)"
    )]
    Forbidden {
        /// 403 or 404.
        status: u16,
        /// GitHub's message.
        message: String,
    },
    /// Any other API failure (422 validation, 5xx after retries, transport).
    #[error("publishing the check run failed: {0}")]
    Api(ApiError),
    /// The HTTP client or runtime could not be set up.
    #[error("cannot set up the GitHub client: {0}")]
    Client(String),
}

impl From<ApiError> for PublishError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::Status {
                status: status @ (403 | 404),
                message,
            } => PublishError::Forbidden { status, message },
            other => PublishError::Api(other),
        }
    }
}

/// Publishes `report` as a check run on `plan.check_sha` of `plan.owner/plan.repo`.
/// `summary_markdown` is the Markdown from [`summary::markdown`]; a note about annotations
/// left out is appended and the result is kept under the API limit.
pub fn publish(
    api: &dyn CheckApi,
    plan: &EventPlan,
    report: &Report,
    summary_markdown: &str,
    options: &PublishOptions,
) -> Result<PublishOutcome, PublishError> {
    let (owner, repo) = (plan.owner.as_str(), plan.repo.as_str());
    let annotations = annotations(&report.findings, options.max_annotations);
    let not_annotated = report.findings.len() - annotations.len();
    let concl = conclusion(report, options.neutral_on_findings);
    let mut summary_text = summary_markdown.to_string();
    if not_annotated > 0 {
        let over_cap = report
            .findings
            .iter()
            .filter(|f| f.side == Side::Head)
            .count()
            - annotations.len();
        let base = not_annotated - over_cap;
        summary_text = format!(
            "> {not_annotated} finding{} not annotated on the diff ({base} on removed lines, {over_cap} over the cap of {}); they are listed below and in the details.\n\n{summary_text}",
            if not_annotated == 1 { " is" } else { "s are" },
            options.max_annotations
        );
    }
    let output_template = Output {
        title: title(report),
        summary: summary::truncate_markdown(
            &summary_text,
            summary::CHECK_OUTPUT_LIMIT,
            "summary truncated; see the job log and the JSON/SARIF outputs",
        ),
        text: details_text(report),
        annotations: Vec::new(),
    };
    let batches: Vec<&[Annotation]> = if annotations.is_empty() {
        vec![&[]]
    } else {
        annotations.chunks(ANNOTATIONS_PER_REQUEST).collect()
    };

    let mut requests = 0usize;
    let mut run_id = None;
    if options.update_existing {
        requests += 1;
        match api.find_run(owner, repo, &plan.check_sha, &options.name) {
            Ok(found) => run_id = found.map(|r| r.id),
            Err(
                e @ ApiError::Status {
                    status: 403 | 404, ..
                },
            ) => return Err(e.into()),
            // A failed lookup must not stop publishing; worst case is one more run.
            Err(_) => {}
        }
    }
    let reused = run_id.is_some();
    let last = batches.len() - 1;
    for (i, batch) in batches.iter().enumerate() {
        let done = i == last;
        let mut body = CheckRunBody {
            name: None,
            head_sha: None,
            status: Some(if done {
                Status::Completed
            } else {
                Status::InProgress
            }),
            conclusion: done.then_some(concl),
            output: Output {
                annotations: batch.to_vec(),
                ..output_template.clone()
            },
        };
        requests += 1;
        let result = match run_id {
            None => {
                body.name = Some(options.name.clone());
                body.head_sha = Some(plan.check_sha.clone());
                api.create_run(owner, repo, &body)
                    .map(|id| run_id = Some(id))
            }
            Some(id) => {
                if !done {
                    // Leave the status of a reused run alone until the final request.
                    body.status = None;
                }
                api.update_run(owner, repo, id, &body)
            }
        };
        if let Err(e) = result {
            if let Some(id) = run_id {
                // Never leave a run spinning "in progress": conclude it without the batch.
                let mut output = output_template.clone();
                output.summary = summary::truncate_markdown(
                    &format!(
                        "> Publishing annotations failed ({e}); the job log has all findings.\n\n{}",
                        output.summary
                    ),
                    summary::CHECK_OUTPUT_LIMIT,
                    "summary truncated; see the job log",
                );
                let finish = CheckRunBody {
                    name: None,
                    head_sha: None,
                    status: Some(Status::Completed),
                    conclusion: Some(concl),
                    output,
                };
                let _ = api.update_run(owner, repo, id, &finish);
            }
            return Err(e.into());
        }
    }
    Ok(PublishOutcome {
        check_run_id: run_id.unwrap_or(0),
        conclusion: concl,
        annotated: annotations.len(),
        not_annotated,
        requests,
        reused,
    })
}

/// Reports that the gate could not run (exit 2: missing base commit, bad config...) as a
/// `failure` check run carrying the error and its fix, so the PR shows why instead of nothing.
pub fn publish_error(
    api: &dyn CheckApi,
    plan: &EventPlan,
    error: &str,
    options: &PublishOptions,
) -> Result<u64, PublishError> {
    let fence = "`".repeat(
        error
            .split(|c| c != '`')
            .map(str::len)
            .max()
            .unwrap_or(0)
            .max(2)
            + 1,
    );
    let summary = summary::truncate_markdown(
        &format!("## ⚠️ integrity-gate could not run\n\n{fence}\n{error}\n{fence}\n"),
        summary::CHECK_OUTPUT_LIMIT,
        "message truncated; see the job log",
    );
    let body = |create: bool| CheckRunBody {
        name: create.then(|| options.name.clone()),
        head_sha: create.then(|| plan.check_sha.clone()),
        status: Some(Status::Completed),
        conclusion: Some(Conclusion::Failure),
        output: Output {
            title: "integrity-gate could not run".to_string(),
            summary: summary.clone(),
            text: String::new(),
            annotations: Vec::new(),
        },
    };
    let existing = if options.update_existing {
        match api.find_run(&plan.owner, &plan.repo, &plan.check_sha, &options.name) {
            Ok(found) => found,
            Err(
                e @ ApiError::Status {
                    status: 403 | 404, ..
                },
            ) => return Err(e.into()),
            Err(_) => None,
        }
    } else {
        None
    };
    match existing {
        Some(run) => {
            api.update_run(&plan.owner, &plan.repo, run.id, &body(false))?;
            Ok(run.id)
        }
        None => Ok(api.create_run(&plan.owner, &plan.repo, &body(true))?),
    }
}

fn title(report: &Report) -> String {
    let n = report.findings.len();
    if report.blocking > 0 {
        format!(
            "{} blocking finding{} ({n} total)",
            report.blocking,
            if report.blocking == 1 { "" } else { "s" }
        )
    } else if n > 0 {
        format!("No blocking findings ({n} non-blocking)")
    } else {
        "No findings".to_string()
    }
}

/// Head-side findings as annotations, most severe first, at most `max`.
pub fn annotations(findings: &[Finding], max: usize) -> Vec<Annotation> {
    let mut head: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.side == Side::Head && !f.path.is_empty())
        .collect();
    head.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.rule.cmp(b.rule))
    });
    head.into_iter()
        .take(max)
        .map(|f| {
            let start = f.line.max(1);
            let path = f.path.replace('\\', "/");
            Annotation {
                path: path.strip_prefix("./").unwrap_or(&path).to_string(),
                start_line: start,
                end_line: f.end_line.max(start),
                annotation_level: match f.severity {
                    Severity::Error => Level::Failure,
                    Severity::Warning => Level::Warning,
                    Severity::Note => Level::Notice,
                },
                // Shown to reviewers on the diff: no bidi override or control character
                // from the change may reorder or hide what they read.
                message: cut(&escape_controls(&f.shown_message()), ANNOTATION_TEXT_LIMIT),
                title: cut(f.rule, ANNOTATION_TITLE_LIMIT),
                raw_details: (!f.snippet.is_empty())
                    .then(|| cut(&escape_controls_in_lines(&f.snippet), ANNOTATION_TEXT_LIMIT)),
            }
        })
        .collect()
}

/// Every finding, one line each, for `output.text` (annotations are capped, this is not).
fn details_text(report: &Report) -> String {
    let mut all: Vec<&Finding> = report.findings.iter().collect();
    all.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
    });
    let mut md = String::from("### All findings\n\n");
    if all.is_empty() {
        md.push_str("None.\n");
    }
    for f in all {
        let side = if f.side == Side::Base {
            " (removed line)"
        } else {
            ""
        };
        md.push_str(&format!(
            "- {} `{}` {}:{}{}: {}\n",
            match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "note",
            },
            summary::inline(f.rule),
            summary::code_span(&f.path).replace('|', "\\|"),
            f.line,
            side,
            summary::inline(&f.shown_message())
        ));
    }
    summary::truncate_markdown(
        &md,
        summary::CHECK_OUTPUT_LIMIT,
        "list truncated; see the JSON/SARIF outputs",
    )
}

/// `s` within the API's byte limit `max`. Findings arrive redacted; the cut result is redacted
/// again so that a cut through anything token-shaped shows no more than a redacted form (which
/// can make it longer, hence the loop).
fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max.saturating_sub(3);
    loop {
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let out = crate::secrets::scanner().redact_text(&format!("{}…", &s[..end]));
        if out.len() <= max || end == 0 {
            return out;
        }
        end = end.saturating_sub(out.len() - max);
    }
}

/// [`CheckApi`] over octocrab with a private current-thread runtime.
pub struct OctocrabChecks {
    client: octocrab::Octocrab,
    runtime: tokio::runtime::Runtime,
}

impl OctocrabChecks {
    /// A client for `api_url` (`GITHUB_API_URL`, e.g. `https://api.github.com` or
    /// `https://ghe.example.com/api/v3`) authenticating with `token`.
    pub fn new(api_url: &str, token: &str) -> Result<Self, PublishError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| PublishError::Client(e.to_string()))?;
        let client = {
            // hyper's connector wants a runtime context while it is built.
            let _guard = runtime.enter();
            octocrab::Octocrab::builder()
                .base_uri(api_url.trim_end_matches('/'))
                .map_err(|e| PublishError::Client(format!("bad GITHUB_API_URL {api_url:?}: {e}")))?
                .personal_token(token.to_string())
                .add_retry_config(octocrab::service::middleware::retry::RetryConfig::Simple(2))
                .set_connect_timeout(Some(std::time::Duration::from_secs(10)))
                .set_read_timeout(Some(std::time::Duration::from_secs(30)))
                .set_write_timeout(Some(std::time::Duration::from_secs(30)))
                .build()
                .map_err(|e| PublishError::Client(e.to_string()))?
        };
        Ok(OctocrabChecks { client, runtime })
    }
}

#[derive(serde::Deserialize)]
struct RunId {
    id: u64,
}

#[derive(serde::Deserialize)]
struct RunList {
    #[serde(default)]
    check_runs: Vec<ListedRun>,
}

#[derive(serde::Deserialize)]
struct ListedRun {
    id: u64,
    name: Option<String>,
    output: Option<ListedOutput>,
}

#[derive(serde::Deserialize)]
struct ListedOutput {
    annotations_count: Option<u64>,
}

fn api_error(e: octocrab::Error) -> ApiError {
    match e {
        octocrab::Error::GitHub { source, .. } => ApiError::Status {
            status: source.status_code.as_u16(),
            message: source.message.clone(),
        },
        other => ApiError::Transport(first_line(&other.to_string())),
    }
}

/// octocrab's Display for some errors appends a backtrace; one line is enough for the log.
fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_string()
}

fn segment(s: &str) -> String {
    // Owner, repo and SHA were validated by `event::read`; this keeps a stray value from
    // escaping its path segment anyway.
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect()
}

impl CheckApi for OctocrabChecks {
    fn find_run(
        &self,
        owner: &str,
        repo: &str,
        sha: &str,
        name: &str,
    ) -> Result<Option<ExistingRun>, ApiError> {
        let route = format!(
            "/repos/{}/{}/commits/{}/check-runs",
            segment(owner),
            segment(repo),
            segment(sha)
        );
        let params = [
            ("check_name", name),
            ("filter", "latest"),
            ("per_page", "100"),
        ];
        let list: RunList = self
            .runtime
            .block_on(self.client.get(route, Some(&params)))
            .map_err(api_error)?;
        Ok(list
            .check_runs
            .into_iter()
            .find(|r| r.name.as_deref() == Some(name))
            .map(|r| ExistingRun {
                id: r.id,
                annotations_count: r.output.and_then(|o| o.annotations_count).unwrap_or(0),
            }))
    }

    fn create_run(&self, owner: &str, repo: &str, body: &CheckRunBody) -> Result<u64, ApiError> {
        let route = format!("/repos/{}/{}/check-runs", segment(owner), segment(repo));
        let run: RunId = self
            .runtime
            .block_on(self.client.post(route, Some(body)))
            .map_err(api_error)?;
        Ok(run.id)
    }

    fn update_run(
        &self,
        owner: &str,
        repo: &str,
        id: u64,
        body: &CheckRunBody,
    ) -> Result<(), ApiError> {
        let route = format!(
            "/repos/{}/{}/check-runs/{id}",
            segment(owner),
            segment(repo)
        );
        let _: RunId = self
            .runtime
            .block_on(self.client.patch(route, Some(body)))
            .map_err(api_error)?;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[derive(Default)]
    struct Recorder {
        existing: Option<ExistingRun>,
        fail_update_at: Option<usize>,
        calls: RefCell<Vec<(String, Option<u64>, CheckRunBody)>>,
    }

    impl CheckApi for Recorder {
        fn find_run(
            &self,
            _: &str,
            _: &str,
            _: &str,
            _: &str,
        ) -> Result<Option<ExistingRun>, ApiError> {
            Ok(self.existing.clone())
        }
        fn create_run(&self, _: &str, _: &str, body: &CheckRunBody) -> Result<u64, ApiError> {
            self.calls
                .borrow_mut()
                .push(("create".into(), None, body.clone()));
            Ok(7)
        }
        fn update_run(
            &self,
            _: &str,
            _: &str,
            id: u64,
            body: &CheckRunBody,
        ) -> Result<(), ApiError> {
            let n = self.calls.borrow().len();
            self.calls
                .borrow_mut()
                .push(("update".into(), Some(id), body.clone()));
            if self.fail_update_at == Some(n) {
                return Err(ApiError::Status {
                    status: 422,
                    message: "Invalid".into(),
                });
            }
            Ok(())
        }
    }

    fn plan() -> EventPlan {
        super::super::event::read(
            "pull_request",
            r#"{"pull_request":{"number":1,"head":{"sha":"2222222222222222222222222222222222222222","repo":{"full_name":"o/r"}},"base":{"sha":"1111111111111111111111111111111111111111","repo":{"full_name":"o/r"}}}}"#,
        )
        .unwrap()
    }

    fn report(n: usize, sev: Severity) -> Report {
        let findings: Vec<Finding> = (0..n)
            .map(|i| Finding {
                rule: "skipped-test",
                severity: if i % 3 == 0 { Severity::Note } else { sev },
                path: format!("t/{i}.py"),
                line: i as u32 + 1,
                end_line: i as u32 + 1,
                side: Side::Head,
                message: "m".into(),
                snippet: "s".into(),
                fingerprint: String::new(),
                confidence: crate::finding::Confidence::Certain,
            })
            .collect();
        let blocking = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        Report {
            base: "b".into(),
            head: "h".into(),
            findings,
            files_scanned: 1,
            notes: Vec::new(),
            blocking,
            tests: None,
            policy: None,
        }
    }

    #[test]
    fn small_reports_take_one_completed_create() {
        let rec = Recorder::default();
        let out = publish(
            &rec,
            &plan(),
            &report(3, Severity::Error),
            "# s",
            &PublishOptions::default(),
        )
        .unwrap();
        let calls = rec.calls.borrow();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].2.status, Some(Status::Completed));
        assert_eq!(calls[0].2.conclusion, Some(Conclusion::Failure));
        assert_eq!(out.annotated, 3);
        // Most severe first.
        assert_eq!(
            calls[0].2.output.annotations[0].annotation_level,
            Level::Failure
        );
    }

    #[test]
    fn batches_and_cap() {
        let rec = Recorder::default();
        let opts = PublishOptions {
            max_annotations: 120,
            ..PublishOptions::default()
        };
        let out = publish(&rec, &plan(), &report(130, Severity::Warning), "# s", &opts).unwrap();
        let calls = rec.calls.borrow();
        let sizes: Vec<usize> = calls.iter().map(|c| c.2.output.annotations.len()).collect();
        assert_eq!(sizes, vec![50, 50, 20]);
        assert_eq!(out.not_annotated, 10);
        assert!(
            calls[0]
                .2
                .output
                .summary
                .contains("10 findings are not annotated")
        );
        assert_eq!(calls[2].2.conclusion, Some(Conclusion::Success));
        assert_eq!(calls[1].2.conclusion, None);
    }

    #[test]
    fn neutral_is_opt_in() {
        let r = report(2, Severity::Warning);
        assert_eq!(conclusion(&r, false), Conclusion::Success);
        assert_eq!(conclusion(&r, true), Conclusion::Neutral);
        assert_eq!(
            conclusion(&report(0, Severity::Warning), true),
            Conclusion::Success
        );
        assert_eq!(
            conclusion(&report(2, Severity::Error), true),
            Conclusion::Failure
        );
    }

    #[test]
    fn failed_batch_still_concludes_the_run() {
        let rec = Recorder {
            fail_update_at: Some(1),
            ..Recorder::default()
        };
        let err = publish(
            &rec,
            &plan(),
            &report(120, Severity::Error),
            "# s",
            &PublishOptions::default(),
        );
        assert!(matches!(err, Err(PublishError::Api(_))));
        let calls = rec.calls.borrow();
        let last = calls.last().map(|c| &c.2);
        assert_eq!(last.and_then(|b| b.conclusion), Some(Conclusion::Failure));
        assert!(last.is_some_and(|b| b.output.annotations.is_empty()));
    }

    #[test]
    fn base_side_findings_are_not_annotated_and_limits_hold() {
        let mut r = report(1, Severity::Error);
        r.findings[0].side = Side::Base;
        r.findings.push(Finding {
            rule: "weakened-assertion",
            severity: Severity::Error,
            path: ".\\src\\x.rs".into(),
            line: 0,
            end_line: 0,
            side: Side::Head,
            message: "é".repeat(40_000),
            snippet: String::new(),
            fingerprint: String::new(),
            confidence: crate::finding::Confidence::Certain,
        });
        let anns = annotations(&r.findings, 10);
        assert_eq!(anns.len(), 1);
        assert_eq!(anns[0].path, "src/x.rs");
        assert_eq!((anns[0].start_line, anns[0].end_line), (1, 1));
        assert!(anns[0].message.len() <= ANNOTATION_TEXT_LIMIT);
        assert!(anns[0].raw_details.is_none());
    }

    #[test]
    fn errors_are_published_as_failed_runs() {
        let rec = Recorder::default();
        let id = publish_error(
            &rec,
            &plan(),
            "no merge-base\nhint: ``fetch-depth: 0``",
            &PublishOptions::default(),
        )
        .unwrap();
        assert_eq!(id, 7);
        let calls = rec.calls.borrow();
        let body = &calls[0].2;
        assert_eq!(body.conclusion, Some(Conclusion::Failure));
        assert_eq!(
            body.head_sha.as_deref(),
            Some("2222222222222222222222222222222222222222")
        );
        assert!(
            body.output.summary.contains("\n```\nno merge-base"),
            "{}",
            body.output.summary
        );
        let rerun = Recorder {
            existing: Some(ExistingRun {
                id: 9,
                annotations_count: 0,
            }),
            ..Recorder::default()
        };
        assert_eq!(
            publish_error(&rerun, &plan(), "x", &PublishOptions::default()).unwrap(),
            9
        );
        assert_eq!(rerun.calls.borrow()[0].0, "update");
    }

    #[test]
    fn forbidden_mapping() {
        let e: PublishError = ApiError::Status {
            status: 403,
            message: "Resource not accessible by integration".into(),
        }
        .into();
        assert!(matches!(e, PublishError::Forbidden { status: 403, .. }));
        let e: PublishError = ApiError::Status {
            status: 404,
            message: "Not Found".into(),
        }
        .into();
        assert!(matches!(e, PublishError::Forbidden { status: 404, .. }));
        let e: PublishError = ApiError::Status {
            status: 422,
            message: "x".into(),
        }
        .into();
        assert!(matches!(e, PublishError::Api(_)));
    }
}

//! Delivering a finished report to every GitHub surface: check run, workflow-command fallback,
//! job summary, JSON/SARIF files and step outputs.
//!
//! Reporting is best-effort by design: each surface may fail (fork PRs have a read-only token,
//! files may be unwritable) and a failure only adds a `::warning::` to the log and a line to
//! [`Delivery::problems`]. Nothing here decides or changes the verdict; the caller's exit code
//! comes from the report alone. Everything written to the log passes through a scrubber that
//! replaces the token, so even an error message that echoed it would not leak it.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::checks::{self, CheckApi, Conclusion, PublishError, PublishOptions, PublishOutcome};
use super::commands;
use super::event::EventPlan;
use super::model::Report;
use super::outputs;
use super::summary::{self, SummaryOptions};

/// The Actions environment the surfaces need.
#[derive(Clone, Debug, Default)]
pub struct GithubEnv {
    /// `GITHUB_API_URL` (default `https://api.github.com`).
    pub api_url: String,
    /// The token (from the action's `token` input); never printed.
    pub token: Option<String>,
    /// `GITHUB_STEP_SUMMARY`.
    pub step_summary: Option<PathBuf>,
    /// `GITHUB_OUTPUT`.
    pub output: Option<PathBuf>,
}

impl GithubEnv {
    /// Reads the environment through `get`. The token is taken from `INTEGRITY_GATE_TOKEN`,
    /// then `GITHUB_TOKEN`.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let non_empty = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        GithubEnv {
            api_url: non_empty("GITHUB_API_URL")
                .unwrap_or_else(|| "https://api.github.com".to_string()),
            token: non_empty("INTEGRITY_GATE_TOKEN").or_else(|| non_empty("GITHUB_TOKEN")),
            step_summary: non_empty("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            output: non_empty("GITHUB_OUTPUT").map(PathBuf::from),
        }
    }

    /// Reads the process environment.
    pub fn from_process() -> Self {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// An octocrab client when a token is available.
    pub fn client(&self) -> Result<Option<checks::OctocrabChecks>, PublishError> {
        match &self.token {
            Some(t) => checks::OctocrabChecks::new(&self.api_url, t).map(Some),
            None => Ok(None),
        }
    }
}

/// Whether to try the check run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckRunMode {
    /// Try when a token is available; fall back silently-but-logged otherwise.
    Auto,
    /// Try; a missing token is reported as a problem.
    On,
    /// Never; use workflow-command annotations.
    Off,
}

/// Which surfaces to use (the action's inputs).
#[derive(Clone, Debug)]
pub struct Surfaces {
    /// `check-run` input.
    pub check_run: CheckRunMode,
    /// `annotations` input: workflow commands when there is no check run.
    pub annotations: bool,
    /// `summary` input: write `$GITHUB_STEP_SUMMARY`.
    pub step_summary: bool,
    /// Check-run options (name, cap, neutral).
    pub publish: PublishOptions,
    /// Summary options (agent policy note...).
    pub summary: SummaryOptions,
}

impl Default for Surfaces {
    fn default() -> Self {
        Surfaces {
            check_run: CheckRunMode::Auto,
            annotations: true,
            step_summary: true,
            publish: PublishOptions::default(),
            summary: SummaryOptions::default(),
        }
    }
}

/// Report files rendered by the caller (JSON v1 and SARIF reporters live with the analysis).
#[derive(Clone, Copy, Debug, Default)]
pub struct Artifacts<'a> {
    /// Where to write the JSON report, and its bytes.
    pub json: Option<(&'a Path, &'a [u8])>,
    /// Where to write the SARIF report, and its bytes.
    pub sarif: Option<(&'a Path, &'a [u8])>,
}

/// What was delivered.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The conclusion reported everywhere (derived from the report only).
    pub conclusion: Conclusion,
    /// The check run, when it was published.
    pub check_run: Option<PublishOutcome>,
    /// Workflow-command annotations were printed instead of a check run.
    pub used_fallback: bool,
    /// Surfaces that failed, one line each (already logged as warnings).
    pub problems: Vec<String>,
}

/// Delivers `report` to every enabled surface, writing log lines (workflow commands, warnings)
/// to `log`. `api` is the Checks API client (`None` when there is no token).
pub fn deliver(
    env: &GithubEnv,
    plan: &EventPlan,
    report: &Report,
    surfaces: &Surfaces,
    artifacts: Artifacts<'_>,
    api: Option<&dyn CheckApi>,
    log: &mut dyn Write,
) -> Delivery {
    let scrub = |s: &str| match env.token.as_deref() {
        Some(t) if t.len() >= 4 => s.replace(t, "***"),
        _ => s.to_string(),
    };
    let mut problems = Vec::new();
    let say = |log: &mut dyn Write, text: &str, problems: &mut Vec<String>| {
        if log.write_all(scrub(text).as_bytes()).is_err() {
            problems.push("cannot write to the log".to_string());
        }
    };
    let concl = checks::conclusion(report, surfaces.publish.neutral_on_findings);

    let mut check_run = None;
    let try_check = match surfaces.check_run {
        CheckRunMode::Off => false,
        CheckRunMode::Auto | CheckRunMode::On => true,
    };
    if try_check {
        match api {
            Some(api) => {
                let md = summary::markdown_with(
                    report,
                    Some(plan),
                    &surfaces.summary,
                    summary::CHECK_OUTPUT_LIMIT,
                );
                match checks::publish(api, plan, report, &md, &surfaces.publish) {
                    Ok(outcome) => check_run = Some(outcome),
                    Err(e) => {
                        let msg = match &e {
                            PublishError::Forbidden { .. } if plan.fork => format!(
                                "{e}. This is expected for pull requests from forks; findings are reported as annotations and in the job summary instead."
                            ),
                            _ => format!("{e}; falling back to annotations and the job summary"),
                        };
                        let msg = scrub(&msg);
                        say(log, &commands::warning(&msg), &mut problems);
                        problems.push(msg);
                    }
                }
            }
            None if surfaces.check_run == CheckRunMode::On => {
                let msg =
                    "check-run is on but no token is available (pass `token`); using annotations"
                        .to_string();
                say(log, &commands::warning(&msg), &mut problems);
                problems.push(msg);
            }
            None => {}
        }
    }
    let used_fallback = check_run.is_none();
    if used_fallback && surfaces.annotations {
        say(
            log,
            &commands::annotations(report, commands::PER_JOB_LIMIT),
            &mut problems,
        );
    }

    if surfaces.step_summary
        && let Some(path) = &env.step_summary
    {
        let md = summary::markdown_with(
            report,
            Some(plan),
            &surfaces.summary,
            outputs::STEP_SUMMARY_LIMIT,
        );
        if let Err(e) = outputs::append_step_summary(path, &md) {
            let msg = scrub(&format!("cannot write the job summary: {e}"));
            say(log, &commands::warning(&msg), &mut problems);
            problems.push(msg);
        }
    }

    let mut written =
        |what: &str, file: Option<(&Path, &[u8])>, problems: &mut Vec<String>| -> String {
            let Some((path, bytes)) = file else {
                return String::new();
            };
            match std::fs::write(path, bytes) {
                Ok(()) => path.display().to_string(),
                Err(e) => {
                    let msg = scrub(&format!(
                        "cannot write the {what} file {}: {e}",
                        path.display()
                    ));
                    say(log, &commands::warning(&msg), problems);
                    problems.push(msg);
                    String::new()
                }
            }
        };
    let json_file = written("JSON", artifacts.json, &mut problems);
    let sarif_file = written("SARIF", artifacts.sarif, &mut problems);

    if let Some(path) = &env.output {
        let findings = report.findings.len().to_string();
        let blocking = report.blocking.to_string();
        let pairs = [
            ("conclusion", concl.as_str()),
            ("findings", findings.as_str()),
            ("blocking", blocking.as_str()),
            ("json-file", json_file.as_str()),
            ("sarif-file", sarif_file.as_str()),
        ];
        if let Err(e) = outputs::write_github_output(path, &pairs) {
            let msg = scrub(&format!("cannot write step outputs: {e}"));
            let _ = log.write_all(commands::warning(&msg).as_bytes());
            problems.push(msg);
        }
    }
    Delivery {
        conclusion: concl,
        check_run,
        used_fallback,
        problems,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::super::checks::{ApiError, CheckRunBody, ExistingRun};
    use super::super::model::{Finding, Severity, Side};
    use super::*;
    use std::cell::Cell;

    struct Counting(Cell<usize>);
    impl CheckApi for Counting {
        fn find_run(
            &self,
            _: &str,
            _: &str,
            _: &str,
            _: &str,
        ) -> Result<Option<ExistingRun>, ApiError> {
            self.0.set(self.0.get() + 1);
            Ok(None)
        }
        fn create_run(&self, _: &str, _: &str, _: &CheckRunBody) -> Result<u64, ApiError> {
            self.0.set(self.0.get() + 1);
            Ok(1)
        }
        fn update_run(&self, _: &str, _: &str, _: u64, _: &CheckRunBody) -> Result<(), ApiError> {
            self.0.set(self.0.get() + 1);
            Ok(())
        }
    }

    fn plan() -> EventPlan {
        super::super::event::read(
            "push",
            r#"{"ref":"refs/heads/main","before":"1111111111111111111111111111111111111111","after":"2222222222222222222222222222222222222222","repository":{"full_name":"o/r"}}"#,
        )
        .unwrap()
    }

    fn report() -> Report {
        Report {
            base: "1".repeat(40),
            head: "2".repeat(40),
            findings: vec![Finding {
                rule: "focused-test",
                severity: Severity::Warning,
                path: "a.test.js".into(),
                line: 3,
                end_line: 3,
                side: Side::Head,
                message: "it.only".into(),
                snippet: "it.only(".into(),
                fingerprint: String::new(),
                confidence: crate::finding::Confidence::Certain,
            }],
            files_scanned: 1,
            notes: Vec::new(),
            blocking: 0,
            tests: None,
            policy: None,
        }
    }

    #[test]
    fn check_run_off_uses_annotations_without_calling_the_api() {
        let api = Counting(Cell::new(0));
        let surfaces = Surfaces {
            check_run: CheckRunMode::Off,
            ..Surfaces::default()
        };
        let mut log = Vec::new();
        let d = deliver(
            &GithubEnv::default(),
            &plan(),
            &report(),
            &surfaces,
            Artifacts::default(),
            Some(&api),
            &mut log,
        );
        assert_eq!(api.0.get(), 0);
        assert!(d.used_fallback && d.problems.is_empty());
        assert_eq!(d.conclusion, Conclusion::Success);
        assert!(
            String::from_utf8(log)
                .unwrap()
                .starts_with("::warning file=a.test.js,line=3,")
        );
    }

    #[test]
    fn annotations_can_be_turned_off_and_missing_token_is_reported_when_required() {
        let surfaces = Surfaces {
            check_run: CheckRunMode::On,
            annotations: false,
            ..Surfaces::default()
        };
        let mut log = Vec::new();
        let d = deliver(
            &GithubEnv::default(),
            &plan(),
            &report(),
            &surfaces,
            Artifacts::default(),
            None,
            &mut log,
        );
        let log = String::from_utf8(log).unwrap();
        assert_eq!(d.problems.len(), 1);
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains("no token"));
    }

    #[test]
    fn env_lookup_prefers_the_action_token_and_defaults_the_api_url() {
        let env = GithubEnv::from_lookup(|k| match k {
            "GITHUB_TOKEN" => Some("a".into()),
            "INTEGRITY_GATE_TOKEN" => Some("b".into()),
            "GITHUB_OUTPUT" => Some(" ".into()),
            _ => None,
        });
        assert_eq!(env.token.as_deref(), Some("b"));
        assert_eq!(env.api_url, "https://api.github.com");
        assert!(env.output.is_none());
    }
}

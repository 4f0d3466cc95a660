//! The integration test binary (one binary for link-time's sake): fixture cases run
//! in-process, and command-line tests against real temporary git repositories.

mod agent_loop;
mod cli;
mod fail_closed;
mod fixtures;
mod fuzz_corpus;
mod github;
mod inventory;
mod report_formats;
mod support;

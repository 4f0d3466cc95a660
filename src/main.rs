//! The binary: runs `integrity_gate::run` and turns its result into an exit code. The only
//! place that exits or prints errors.

#![allow(clippy::print_stderr, clippy::print_stdout)]

use integrity_gate::text::{defuse_commands, escape_controls};
use integrity_gate::{Outcome, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    keep_freed_memory();
    install_panic_message();
    let mut stdout = std::io::stdout().lock();
    let outcome = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // Lets the tests reach this path; release builds have no such switch.
        if cfg!(debug_assertions)
            && let Some(quoted) = std::env::var_os("INTEGRITY_GATE_TEST_PANIC")
        {
            panic!("test panic quoting {}", quoted.to_string_lossy());
        }
        run(std::env::args_os().collect(), &mut stdout)
    })) {
        Ok(outcome) => outcome,
        // The hook has said what broke; a bug is "could not judge", never a pass or an abort.
        Err(_) => return ExitCode::from(2),
    };
    if let Some(timings) = integrity_gate::timings::report() {
        eprint!(
            "{}",
            integrity_gate::text::escape_controls_in_lines(&timings)
        );
    }
    match outcome {
        Ok(Outcome::Done(exit)) => ExitCode::from(exit.code()),
        Ok(Outcome::Help(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            // Errors quote arguments, refs and paths, and stderr reaches the Actions log too.
            match failure.rendered {
                Some(rendered) => eprint!("{}", defuse_commands(&rendered)),
                None => eprintln!("error: {}", escape_controls(&failure.message)),
            }
            if let Some(hint) = failure.hint {
                eprintln!("hint: {}", escape_controls(&hint));
            }
            ExitCode::from(2)
        }
    }
}

/// A panic is a bug in the gate: say so in one clear error (with where, for the bug report)
/// instead of Rust's default text, and leave the exit code to `main` (2: the change was not judged).
fn install_panic_message() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|at| format!(" at {}:{}", at.file(), at.line()))
            .unwrap_or_default();
        // The message can quote the change's text: keep it short and never print a secret.
        let what: String = what
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect();
        let what = integrity_gate::secrets::scanner().redact_line(&what);
        eprintln!(
            "error: integrity-gate hit a bug and could not judge this change{at}: {}",
            escape_controls(&what)
        );
        eprintln!("hint: please report it with the command and the commit range");
    }));
}

/// Compiling tree-sitter queries allocates and frees large tables again and again; glibc
/// returns each to the kernel (`munmap`, heap trimming) and faults it back in on the next use,
/// and with several threads every unmap is a TLB shootdown on the other cores. A short-lived
/// process gains nothing from giving memory back, so keep it: about a tenth of the CPU time of
/// a PR-sized run (`perf stat`, page faults 8 k → 3 k).
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called before any other thread
    // exists and its arguments are in range.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

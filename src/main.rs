//! The binary: runs `integrity_gate::run` and turns its result into an exit code. The only
//! place that exits or prints errors.

#![allow(clippy::print_stderr, clippy::print_stdout)]

use integrity_gate::text::{defuse_commands, escape_controls};
use integrity_gate::{Outcome, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    keep_freed_memory();
    let mut stdout = std::io::stdout().lock();
    let outcome = run(std::env::args_os().collect(), &mut stdout);
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

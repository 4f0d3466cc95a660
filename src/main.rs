//! The binary: runs `integrity_gate::run` and turns its result into an exit code. The only
//! place that exits or prints errors.

#![allow(clippy::print_stderr, clippy::print_stdout)]

use integrity_gate::{Outcome, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match run(std::env::args_os().collect(), &mut stdout) {
        Ok(Outcome::Done(exit)) => ExitCode::from(exit.code()),
        Ok(Outcome::Help(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            match failure.rendered {
                Some(rendered) => eprint!("{rendered}"),
                None => eprintln!("error: {}", failure.message),
            }
            if let Some(hint) = failure.hint {
                eprintln!("hint: {hint}");
            }
            ExitCode::from(2)
        }
    }
}

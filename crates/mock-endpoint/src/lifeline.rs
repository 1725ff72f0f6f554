//! The server stops by itself: after `--exit-after` seconds, and when standard input closes
//! if `--stdin-lifeline` is given, so a test or CI job that dies never leaves it running.

use std::io::{self, Read, Write};
use std::thread;
use std::time::Duration;

/// Starts the watchers; each exits the process when its time comes.
pub fn start(exit_after_secs: u64, stdin: bool) {
    if exit_after_secs > 0 {
        thread::spawn(move || {
            thread::sleep(Duration::from_secs(exit_after_secs));
            let _ = writeln!(io::stderr(), "exiting after {exit_after_secs} s (--exit-after)");
            std::process::exit(0);
        });
    }
    if stdin {
        thread::spawn(|| {
            let mut sink = [0u8; 256];
            let mut input = io::stdin().lock();
            while matches!(input.read(&mut sink), Ok(n) if n > 0) {}
            let _ = writeln!(io::stderr(), "standard input closed: exiting (--stdin-lifeline)");
            std::process::exit(0);
        });
    }
}

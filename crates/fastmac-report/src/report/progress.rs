//! A progress bar on stderr, so stdout keeps only the tables. On a terminal
//! it redraws one line; otherwise it prints a line every tenth of the run.

use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Progress over a known number of steps.
pub struct Progress {
    total: usize,
    done: usize,
    started: Instant,
    terminal: bool,
    last_tenth: usize,
}

const BAR: usize = 30;

impl Progress {
    /// A bar for `total` steps.
    pub fn new(total: usize) -> Progress {
        Progress {
            total: total.max(1),
            done: 0,
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            last_tenth: 0,
        }
    }

    /// Marks one step done; `what` names the step that follows.
    pub fn step(&mut self, what: &str) {
        self.done = (self.done + 1).min(self.total);
        let filled = BAR * self.done / self.total;
        let line = format!(
            "[{}{}] {:>3}/{} {:>5.1} s  {what}",
            "#".repeat(filled),
            " ".repeat(BAR - filled),
            self.done,
            self.total,
            self.started.elapsed().as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else {
            let tenth = 10 * self.done / self.total;
            if tenth > self.last_tenth {
                self.last_tenth = tenth;
                let _ = writeln!(err, "{line}");
            }
        }
        let _ = err.flush();
    }

    /// Ends the bar's line.
    pub fn finish(&self) {
        if self.terminal {
            let _ = writeln!(
                std::io::stderr(),
                "\r\x1b[2Kmeasured {} steps in {:.1} s",
                self.done,
                self.started.elapsed().as_secs_f64()
            );
        }
    }
}

//! A progress bar on stderr, safe to update from many threads (redrawn at most five
//! times a second).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Work done out of a known total, with a label and a free-form status.
pub struct Progress {
    label: String,
    total: u64,
    done: AtomicU64,
    /// Last redraw and the status text shown after the bar.
    shown: Mutex<(Instant, String)>,
    enabled: bool,
}

const WIDTH: usize = 30;
const EVERY: Duration = Duration::from_millis(200);

impl Progress {
    /// A bar for `total` units of work; `enabled` false draws nothing (tests).
    pub fn new(label: String, total: u64, enabled: bool) -> Progress {
        let shown = Mutex::new((Instant::now() - EVERY, String::new()));
        Progress { label, total: total.max(1), done: AtomicU64::new(0), shown, enabled }
    }

    /// Adds `n` units of work done and redraws if due.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.draw(false);
    }

    /// Sets the status text shown after the bar and redraws if due.
    pub fn status(&self, text: String) {
        if let Ok(mut s) = self.shown.lock() {
            s.1 = text;
        }
        self.draw(false);
    }

    fn draw(&self, force: bool) {
        if !self.enabled {
            return;
        }
        let Ok(mut shown) = self.shown.try_lock() else { return };
        if !force && shown.0.elapsed() < EVERY {
            return;
        }
        shown.0 = Instant::now();
        let done = self.done.load(Ordering::Relaxed).min(self.total);
        let filled = (done as u128 * WIDTH as u128 / self.total as u128) as usize;
        let pct = done as f64 * 100.0 / self.total as f64;
        eprint!(
            "\r{} [{}{}] {pct:5.1}% {}\x1b[K",
            self.label,
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            shown.1
        );
        let _ = std::io::stderr().flush();
    }

    /// Draws the final state and ends the line.
    pub fn finish(&self, text: String) {
        if let Ok(mut s) = self.shown.lock() {
            s.1 = text;
        }
        self.draw(true);
        if self.enabled {
            eprintln!();
        }
    }
}

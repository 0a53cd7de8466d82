//! Driving a real `ugine` process through its protocol, for transcript and end-to-end
//! tests. Waits use generous deadlines so a busy machine cannot make them flake.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long any expected answer may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// A running `ugine` with its stdin and a channel of its stdout lines.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line the engine printed so far.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the binary built by cargo for the tests, with extra arguments.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ugine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ugine");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to ugine");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (for input that is not valid UTF-8).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to ugine");
        stdin.flush().expect("flush");
    }

    /// Reads lines until one satisfies `done`; returns all of them (that one included).
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(DEADLINE)
                .unwrap_or_else(|_| panic!("no answer in time; got so far: {got:?}"));
            self.transcript.push(line.clone());
            got.push(line.clone());
            if done(&line) {
                return got;
            }
        }
    }

    /// Sends a line and returns the first line that starts with `prefix`.
    pub fn ask(&mut self, line: &str, prefix: &str) -> String {
        self.send(line);
        self.read_until(|l| l.starts_with(prefix)).pop().expect("a line")
    }

    /// Sends `query <what>` and returns the answer word.
    pub fn query(&mut self, what: &str) -> String {
        let line = self.ask(&format!("query {what}"), "response ");
        line["response ".len()..].to_string()
    }

    /// Closes stdin, waits for the process to exit, and returns the remaining lines.
    pub fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for ugine");
        assert!(status.success(), "ugine exited with {status}");
        // The reader thread may still hold the last lines: read until it sees the end of
        // the output (the process has exited, so that end comes).
        let mut rest: Vec<String> = self.lines.iter().collect();
        self.transcript.append(&mut rest);
        self.transcript
    }
}

//! An engine playing one side of a table: a [`ProcessPlayer`] on its own thread, so the
//! table never blocks on it. Every line the engine prints is forwarded as it comes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use crate::core::Limits;
use crate::runner::players::process::{Deadlines, EngineCommand, Monitor, ProcessPlayer};
use crate::runner::players::spec::EngineSpec;
use crate::runner::players::{MoveReply, Player, PlayerError};
use crate::runner::records::opening::Opening;
use crate::runner::schedule::GameId;

/// What a seat reports to its table; `ticket` identifies the request it answers.
#[derive(Debug)]
pub enum SeatEvent {
    /// A line the engine printed.
    Line { side: usize, line: String },
    /// The answer to [`Seat::go`].
    Moved { side: usize, ticket: u64, reply: Result<MoveReply, PlayerError> },
}

struct Job {
    ticket: u64,
    position: Opening,
    limits: Limits,
    deadline: Duration,
}

/// A running engine seat. Dropping it ends the engine process whatever it is doing: a
/// wait for the engine is abandoned at once, and the process is killed and reaped.
pub struct Seat {
    name: String,
    jobs: Option<Sender<Job>>,
    stop: Arc<AtomicBool>,
    abandon: Arc<AtomicBool>,
}

impl Seat {
    /// Starts the thread of engine `spec` playing side `side` of `game` with the rule
    /// `options`; events go to `events`, wrapped by `wrap`. The process itself starts with
    /// the first move asked.
    pub fn new<E: Send + 'static>(
        spec: &EngineSpec,
        side: usize,
        game: &str,
        options: &[(String, String)],
        events: Sender<E>,
        wrap: fn(SeatEvent) -> E,
    ) -> Seat {
        let mut all = vec![("Game".to_string(), game.to_string())];
        all.extend(options.iter().cloned());
        all.extend(spec.options.iter().cloned());
        let command = EngineCommand {
            program: spec.cmd.clone(),
            args: spec.args.clone(),
            dir: spec.dir.clone(),
            options: all,
            uci: spec.uci,
            depth: spec.depth,
            nodes: spec.nodes,
            movetime: spec.movetime,
        };
        let mut player = ProcessPlayer::new(&spec.name, command, Deadlines::default());
        let stop = Arc::new(AtomicBool::new(false));
        let abandon = Arc::new(AtomicBool::new(false));
        let lines = events.clone();
        player.set_monitor(Monitor {
            on_line: Box::new(move |l| {
                let _ = lines.send(wrap(SeatEvent::Line { side, line: l.to_string() }));
            }),
            stop: Arc::clone(&stop),
            abandon: Arc::clone(&abandon),
        });
        let (jobs, inbox) = channel();
        let flag = Arc::clone(&stop);
        let gone = Arc::clone(&abandon);
        // The thread is not joined (the table never waits for an engine): once the seat
        // is dropped, it abandons its wait, kills the process and ends.
        let spawned = std::thread::Builder::new()
            .name(format!("gui-seat-{}", spec.name))
            .spawn(move || serve(player, side, &flag, &gone, inbox, events, wrap));
        if let Err(e) = spawned {
            log::error!("cannot start a thread for engine '{}': {e}", spec.name);
        }
        Seat { name: spec.name.clone(), jobs: Some(jobs), stop, abandon }
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Asks for a move in `position`; the answer comes as [`SeatEvent::Moved`].
    pub fn go(&self, ticket: u64, position: Opening, limits: Limits, deadline: Duration) {
        if let Some(j) = &self.jobs {
            // A closed channel means the thread is gone; the table learns it from no answer.
            let _ = j.send(Job { ticket, position, limits, deadline });
        }
    }

    /// Makes the engine answer its current search now (the table then ignores the move).
    pub fn interrupt(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.abandon.store(true, Ordering::SeqCst);
        self.jobs = None;
    }
}

/// The seat's thread: one move per job, restarting the engine after a failure.
fn serve<E>(
    mut player: ProcessPlayer,
    side: usize,
    stop: &AtomicBool,
    abandon: &AtomicBool,
    inbox: Receiver<Job>,
    events: Sender<E>,
    wrap: fn(SeatEvent) -> E,
) {
    let mut started = false;
    while let Ok(job) = inbox.recv() {
        if abandon.load(Ordering::SeqCst) {
            break;
        }
        // An interrupt meant a search that is over now.
        stop.store(false, Ordering::SeqCst);
        let mut reply = Ok(());
        if !started {
            reply = player.new_game(GameId { pairing: 0, round: 0, seat: side as u8 });
            started = reply.is_ok();
        }
        let reply = reply.and_then(|_| player.go(&job.position, &job.limits, job.deadline));
        if reply.is_err() {
            // Kills and reaps the process (at once when the seat was dropped).
            player.reset();
            started = false;
        }
        if events.send(wrap(SeatEvent::Moved { side, ticket: job.ticket, reply })).is_err() {
            break;
        }
    }
}

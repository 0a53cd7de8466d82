//! The referee: plays one game between two [`Player`]s, checking every move with
//! ugine's own rules and deciding the result and termination itself.

use std::time::Duration;

use crate::core::words::format_duration;
use crate::core::{Limits, Outcome, Side};
use crate::engine::Session;
use crate::runner::players::{EndQuery, Player, PlayerError};
use crate::runner::records::opening::Opening;
use crate::runner::records::record::{Eval, GameRecord, Termination};
use crate::runner::schedule::GameId;

/// The limits of every move of a game. Clock and move time are checked with `margin` of
/// grace; without any time limit, a move must still come within `stall`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting clock and increment per move, the same for both players.
    pub clock: Option<(Duration, Duration)>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Grace over the clock or move time before a move counts as a loss on time.
    pub margin: Duration,
    /// Deadline for a move when no time limit applies (depth or node limits).
    pub stall: Duration,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            clock: None,
            movetime: None,
            depth: None,
            nodes: None,
            margin: Duration::from_millis(100),
            stall: Duration::from_secs(60),
        }
    }
}

impl TimeControl {
    /// The limits as the record header writes them, the match settings' own words:
    /// `tc=10s+100ms`, `movetime=200ms`, `depth=3`, `nodes=…` (each only when set), then
    /// `margin=100ms` and `stall=60s`.
    pub fn words(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some((t, inc)) = self.clock {
            out.push((
                "tc".to_string(),
                format!("{}+{}", format_duration(t), format_duration(inc)),
            ));
        }
        if let Some(t) = self.movetime {
            out.push(("movetime".to_string(), format_duration(t)));
        }
        if let Some(d) = self.depth {
            out.push(("depth".to_string(), d.to_string()));
        }
        if let Some(n) = self.nodes {
            out.push(("nodes".to_string(), n.to_string()));
        }
        out.push(("margin".to_string(), format_duration(self.margin)));
        out.push(("stall".to_string(), format_duration(self.stall)));
        out
    }

    /// True when moves are limited by time (clock or move time).
    fn timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// Everything a game needs besides its players and referee.
pub struct GameSetup<'a> {
    pub id: GameId,
    pub game: &'a str,
    /// Match-wide options, written to the record.
    pub options: &'a [(String, String)],
    pub opening: &'a Opening,
    pub tc: &'a TimeControl,
    /// Plies (engine moves) after which the game is adjudicated a draw.
    pub max_plies: Option<usize>,
}

/// What the game loop records per move: the move, its time, the mover's evaluation.
struct Played<'a> {
    moves: &'a mut Vec<String>,
    times_ms: &'a mut Vec<u64>,
    evals: &'a mut Vec<Option<Eval>>,
}

/// Where a game stands before each move (the game loop reports it to its watcher, for
/// the match's live file): the moves so far with their times and the movers'
/// evaluations, the clocks (with a clock) and the side to move.
pub struct Progress<'a> {
    pub moves: &'a [String],
    pub times_ms: &'a [u64],
    pub evals: &'a [Option<Eval>],
    pub clock: Option<[Duration; 2]>,
    pub to_move: Side,
}

/// How the game loop stopped, before the end-of-game queries.
struct Ending {
    result: Outcome,
    termination: Termination,
    detail: String,
}

impl Ending {
    fn loss(side: Side, termination: Termination, detail: String) -> Ending {
        Ending { result: Outcome::Win(side.opponent()), termination, detail }
    }
}

/// Plays one game: `players[0]` is p1. The referee session must already carry the
/// match's rule options. Never fails: every problem of a player is a loss for it,
/// recorded with its termination; a player that failed is reset.
pub fn play_game(
    players: [&mut dyn Player; 2],
    referee: &mut dyn Session,
    setup: &GameSetup,
) -> GameRecord {
    play_game_watched(players, referee, setup, &|_| {})
}

/// [`play_game`], telling `watch` where the game stands before every move.
pub fn play_game_watched(
    players: [&mut dyn Player; 2],
    referee: &mut dyn Session,
    setup: &GameSetup,
    watch: &dyn Fn(&Progress),
) -> GameRecord {
    let mut players = players;
    let mut moves: Vec<String> = Vec::new();
    let mut times_ms: Vec<u64> = Vec::new();
    let mut evals: Vec<Option<Eval>> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut played = Played { moves: &mut moves, times_ms: &mut times_ms, evals: &mut evals };
    let mut ending = run_game(&mut players, referee, setup, &mut played, &mut notes, watch);
    if ending.termination == Termination::Normal {
        let position = setup.opening.extended(&moves);
        for (i, p) in players.iter_mut().enumerate() {
            if let Some(d) = check_end(&mut **p, &position, ending.result) {
                ending.termination = Termination::Disagreement;
                notes.push(format!("{} ({}) {d}", side_of(i).as_str(), p.name()));
            }
        }
    }
    let mut detail = ending.detail;
    for n in notes {
        if !detail.is_empty() {
            detail.push_str("; ");
        }
        detail.push_str(&n);
    }
    GameRecord {
        id: setup.id,
        game: setup.game.to_string(),
        options: setup.options.to_vec(),
        engines: [players[0].name().to_string(), players[1].name().to_string()],
        opening: setup.opening.clone(),
        moves,
        times_ms,
        evals,
        result: ending.result,
        termination: ending.termination,
        detail,
    }
}

fn side_of(index: usize) -> Side {
    if index == 0 { Side::P1 } else { Side::P2 }
}

/// Asks a player whether the game is over and its result; describes any disagreement.
fn check_end(p: &mut dyn Player, position: &Opening, result: Outcome) -> Option<String> {
    let over = match p.query(position, EndQuery::GameOver) {
        Ok(a) => a,
        Err(e) => {
            p.reset();
            return Some(format!("did not answer 'query gameover': {e}"));
        }
    };
    if over != "true" {
        return Some(format!("says gameover '{over}'"));
    }
    match p.query(position, EndQuery::Result) {
        Ok(r) if r == result.as_str() => None,
        Ok(r) => Some(format!("says result '{r}', referee says '{}'", result.as_str())),
        Err(e) => {
            p.reset();
            Some(format!("did not answer 'query result': {e}"))
        }
    }
}

/// The game loop proper: start both players, then one move per ply until the rules,
/// a failure or the ply limit end the game.
fn run_game(
    players: &mut [&mut dyn Player; 2],
    referee: &mut dyn Session,
    setup: &GameSetup,
    played: &mut Played,
    notes: &mut Vec<String>,
    watch: &dyn Fn(&Progress),
) -> Ending {
    let Played { moves, times_ms, evals } = played;
    if let Err(e) = setup.opening.check(referee) {
        // Openings are checked when loaded; this is a safety net, not a player's fault.
        return Ending {
            result: Outcome::Draw,
            termination: Termination::Adjudication,
            detail: format!("bad opening: {e}"),
        };
    }
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(setup.id) {
            p.reset();
            let side = side_of(i);
            return Ending::loss(side, Termination::Disconnect, format!("{}: {e}", side.as_str()));
        }
    }
    let tc = setup.tc;
    let mut clock = tc.clock.map(|(t, _)| [t, t]);
    let mut flagged_extra = [false; 2];
    loop {
        if let Some(o) = referee.outcome() {
            // Why the rules ended the game, from the same source the browser shows.
            let detail = referee.end_reason().unwrap_or_default();
            return Ending { result: o, termination: Termination::Normal, detail };
        }
        if setup.max_plies.is_some_and(|m| moves.len() >= m) {
            return Ending {
                result: Outcome::Draw,
                termination: Termination::Adjudication,
                detail: format!("draw after {} plies", moves.len()),
            };
        }
        let side = referee.side_to_move();
        watch(&Progress { moves, times_ms, evals, clock, to_move: side });
        let who = side.as_str();
        let mut limits =
            Limits { movetime: tc.movetime, depth: tc.depth, nodes: tc.nodes, ..Limits::default() };
        // The player sends its own time per move, if it has one, in place of the match's.
        let movetime = players[side.index()].own_movetime().or(tc.movetime);
        let mut allowed: Option<Duration> = movetime;
        if let (Some(c), Some((_, inc))) = (clock, tc.clock) {
            limits.time = [Some(c[0]), Some(c[1])];
            limits.inc = [Some(inc), Some(inc)];
            let left = c[side.index()];
            allowed = Some(allowed.map_or(left, |a| a.min(left)));
        }
        let deadline = allowed.map_or(tc.stall, |a| a + tc.margin);
        let position = setup.opening.extended(moves);
        let player = &mut *players[side.index()];
        let reply = match player.go(&position, &limits, deadline) {
            Ok(r) => r,
            Err(e) => {
                player.reset();
                let t = match e {
                    PlayerError::Disconnected(_) => Termination::Disconnect,
                    PlayerError::Timeout(_) if tc.timed() || movetime.is_some() => {
                        Termination::Timeout
                    }
                    PlayerError::Timeout(_) => Termination::Stall,
                    PlayerError::Protocol(_) => Termination::IllegalMove,
                };
                return Ending::loss(side, t, format!("{who}: {e}"));
            }
        };
        if let Some(a) = allowed
            && reply.elapsed > a + tc.margin
        {
            return Ending::loss(
                side,
                Termination::Timeout,
                format!("{who} used {} ms of {} ms", reply.elapsed.as_millis(), a.as_millis()),
            );
        }
        let Some(mv) = reply.tokens.first() else {
            return Ending::loss(
                side,
                Termination::IllegalMove,
                format!("{who}: bestmove without a move"),
            );
        };
        if reply.tokens.len() > 1 && !flagged_extra[side.index()] {
            flagged_extra[side.index()] = true;
            notes.push(format!(
                "{who} sent extra tokens after bestmove: '{}'",
                reply.tokens[1..].join(" ")
            ));
        }
        if let Err(e) = referee.play_move(mv) {
            return Ending::loss(
                side,
                Termination::IllegalMove,
                format!("{who} played '{mv}': {e}"),
            );
        }
        moves.push(mv.clone());
        times_ms.push(reply.elapsed.as_millis() as u64);
        evals.push(reply.eval);
        if let (Some(c), Some((_, inc))) = (clock.as_mut(), tc.clock) {
            let i = side.index();
            c[i] = c[i].saturating_sub(reply.elapsed) + inc;
        }
    }
}

//! One browser tab's game: who plays, the moves, the clocks, the result. The table is the
//! referee: every move, a person's or an engine's, is checked by the game's own rules
//! before it counts, and the page is sent the legal moves of every position.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::EngineList;
use super::analysis::{self, Analyst, Request};
use super::clock::Clocks;
use super::messages::{self, ClientMsg, PlayerChoice, State, TimeChoice};
use super::names;
use super::records::{self, Finished};
use super::seat::{Seat, SeatEvent};
use super::time::TimeControl;
use crate::core::{Limits, Outcome, Side};
use crate::engine::{Session, find_game};
use crate::runner::players::PlayerError;
use crate::runner::records::opening::Opening;
use crate::runner::records::record::Termination;
use crate::ugi::{EngineLine, parse_engine_line};

/// What reaches a table: the page's messages, its engines' events, the page leaving.
#[derive(Debug)]
pub enum Input {
    Client(String),
    Seat(SeatEvent),
    Closed,
}

/// How long past its move time an engine may stay silent before it counts as hung.
const HANG_GRACE: Duration = Duration::from_secs(5);
/// The longest move text read (longer ones are refused without being repeated).
const MAX_MOVE: usize = 64;
/// How often flags are checked while nothing happens.
const TICK: Duration = Duration::from_millis(100);

fn side_word(side: usize) -> &'static str {
    if side == 0 { "p1" } else { "p2" }
}

/// The message for a text from the page that is no message of [`ClientMsg`] (its text is
/// not repeated: it may be anything).
const UNREADABLE: &str = "The page sent a message the server does not understand: reload the page.";

fn side_of(index: usize) -> Side {
    if index == 0 { Side::P1 } else { Side::P2 }
}

/// How a game ended.
struct End {
    result: Outcome,
    termination: Termination,
    detail: String,
}

/// A game in progress or over, with its players.
pub struct Table {
    engines: Arc<EngineList>,
    out: UnboundedSender<String>,
    inputs: Sender<Input>,
    game: String,
    options: Vec<(String, String)>,
    /// The current position, and the referee of every move.
    referee: Box<dyn Session>,
    /// Plays principal variations for the page.
    scratch: Box<dyn Session>,
    /// The position string given for the start (`None`: the game's start position).
    start: Option<String>,
    moves: Vec<String>,
    fens: Vec<String>,
    times_ms: Vec<u64>,
    /// The side that played each move.
    movers: Vec<usize>,
    players: [PlayerChoice; 2],
    seats: [Option<Seat>; 2],
    /// The engine of analysis mode, when on.
    analyst: Option<Analyst>,
    time: TimeControl,
    clocks: Option<Clocks>,
    /// Numbers the requests to engines, so that a late answer to an abandoned one is ignored.
    ticket: u64,
    /// The side whose engine is thinking, and its request.
    thinking: Option<(usize, u64)>,
    move_started: Instant,
    end: Option<End>,
    error: Option<String>,
}

impl Table {
    /// A table showing Morris, person against person, until the page asks for a game.
    pub fn new(
        engines: Arc<EngineList>,
        out: UnboundedSender<String>,
        inputs: Sender<Input>,
    ) -> Table {
        let make = crate::engine::registry()[0].make;
        let referee = make(1);
        let fens = vec![referee.fen()];
        Table {
            engines,
            out,
            inputs,
            game: "morris".to_string(),
            options: Vec::new(),
            referee,
            scratch: make(1),
            start: None,
            moves: Vec::new(),
            fens,
            times_ms: Vec::new(),
            movers: Vec::new(),
            players: [PlayerChoice::Human, PlayerChoice::Human],
            seats: [None, None],
            analyst: None,
            time: TimeControl::Movetime(Duration::from_secs(1)),
            clocks: None,
            ticket: 0,
            thinking: None,
            move_started: Instant::now(),
            end: None,
            error: None,
        }
    }

    /// Serves the page until it leaves; the engines stop when the table is dropped.
    pub fn run(mut self, inputs: Receiver<Input>) {
        let names: Vec<String> = self.engines.0.iter().map(|e| e.name.clone()).collect();
        self.send(messages::hello_json(&names));
        self.send_state();
        loop {
            match inputs.recv_timeout(TICK) {
                Ok(Input::Client(text)) => match serde_json::from_str::<ClientMsg>(&text) {
                    Ok(msg) => self.handle(msg),
                    Err(_) => self.refuse(UNREADABLE),
                },
                Ok(Input::Seat(ev)) => self.on_seat(ev),
                Ok(Input::Closed) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            self.check_flags();
        }
    }

    fn send(&self, v: Value) {
        // The page is gone when this fails; `run` learns it from `Input::Closed`.
        let _ = self.out.send(v.to_string());
    }

    fn send_error(&self, text: &str) {
        self.send(messages::text_json("error", "message", text));
    }

    /// Tells the page why its message changed nothing, and the state again (the page
    /// forgets the legal moves when it sends a move).
    fn refuse(&self, why: &str) {
        self.send_error(why);
        self.send_state();
    }

    fn handle(&mut self, msg: ClientMsg) {
        let done = match msg {
            ClientMsg::New { game, options, fen, players, time } => {
                self.new_game(&game, options, fen, players, time)
            }
            ClientMsg::Move { mv } => self.human_move(&mv),
            ClientMsg::Undo => self.take_back(),
            ClientMsg::Resign => self.resign(),
            ClientMsg::Restart => self.restart(),
            ClientMsg::Save => self.save(),
            ClientMsg::Analyse { engine, lines, ply } => {
                return match self.analyse(engine, lines, ply) {
                    Ok(()) => {}
                    Err(e) => self.refuse(&e),
                };
            }
        };
        match done {
            Ok(()) => self.advance(),
            Err(e) => self.refuse(&e),
        }
    }

    fn new_game(
        &mut self,
        game: &str,
        options: Vec<(String, String)>,
        fen: Option<String>,
        players: [PlayerChoice; 2],
        time: TimeChoice,
    ) -> Result<(), String> {
        let entry = find_game(game).ok_or_else(|| format!("unknown game '{game}'"))?;
        let mut referee = (entry.make)(1);
        records::apply_rule_options(referee.as_mut(), &options, true)?;
        let fen = fen.map(|f| f.trim().to_string()).filter(|f| !f.is_empty());
        referee.set_position(fen.as_deref(), &[])?;
        for p in &players {
            if let PlayerChoice::Engine(name) = p
                && self.engines.find(name).is_none()
            {
                return Err(format!("no engine called '{name}'"));
            }
        }
        let time = TimeControl::check(&time)?;
        let mut scratch = (entry.make)(1);
        records::apply_rule_options(scratch.as_mut(), &options, true)?;
        self.stop_thinking();
        self.seats = [None, None];
        self.analyst = None;
        for (i, p) in players.iter().enumerate() {
            if let PlayerChoice::Engine(name) = p
                && let Some(spec) = self.engines.find(name)
            {
                self.seats[i] = Some(Seat::new(
                    spec,
                    i,
                    entry.name,
                    &options,
                    self.inputs.clone(),
                    Input::Seat,
                ));
            }
        }
        self.game = entry.name.to_string();
        self.options = options;
        self.fens = vec![referee.fen()];
        self.referee = referee;
        self.scratch = scratch;
        self.start = fen;
        self.moves.clear();
        self.times_ms.clear();
        self.movers.clear();
        self.players = players;
        self.clocks = match time {
            TimeControl::Clock { base, inc } => Some(Clocks::new(base, inc)),
            TimeControl::Movetime(_) => None,
        };
        self.time = time;
        self.end = None;
        self.error = None;
        Ok(())
    }

    fn to_move(&self) -> usize {
        self.referee.side_to_move().index()
    }

    fn is_human(&self, side: usize) -> bool {
        self.players[side] == PlayerChoice::Human
    }

    fn human_move(&mut self, mv: &str) -> Result<(), String> {
        if self.end.is_some() {
            return Err("the game is over".to_string());
        }
        let side = self.to_move();
        if !self.is_human(side) {
            return Err("It is not a person's turn.".to_string());
        }
        if mv.len() > MAX_MOVE {
            return Err(format!("That is not a move: a move has at most {MAX_MOVE} characters."));
        }
        self.referee.play_move(mv)?;
        self.record_move(side, mv);
        Ok(())
    }

    /// Books a move already played on the referee.
    fn record_move(&mut self, side: usize, mv: &str) {
        self.moves.push(mv.to_string());
        self.fens.push(self.referee.fen());
        self.movers.push(side);
        self.times_ms.push(self.move_started.elapsed().as_millis() as u64);
        if let Some(c) = self.clocks.as_mut() {
            c.moved(side_of(side));
        }
    }

    fn stop_thinking(&mut self) {
        if let Some((side, _)) = self.thinking.take()
            && let Some(seat) = &self.seats[side]
        {
            seat.interrupt();
        }
    }

    fn take_back(&mut self) -> Result<(), String> {
        if !self.players.contains(&PlayerChoice::Human) {
            return Err("take-backs are for games with a person".to_string());
        }
        let mut n = self.moves.len();
        loop {
            if n == 0 {
                return Err("there is no move of a person to take back".to_string());
            }
            n -= 1;
            if self.is_human(self.movers[n]) {
                break;
            }
        }
        self.stop_thinking();
        let moves: Vec<&str> = self.moves[..n].iter().map(String::as_str).collect();
        self.referee.set_position(self.start.as_deref(), &moves)?;
        self.moves.truncate(n);
        self.fens.truncate(n + 1);
        self.times_ms.truncate(n);
        self.movers.truncate(n);
        if let Some(c) = self.clocks.as_mut() {
            c.pause();
        }
        self.end = None;
        self.error = None;
        Ok(())
    }

    /// The game's name for `side` (White, Red, …).
    fn side_name(&self, side: usize) -> &'static str {
        names::sides(&self.game)[side]
    }

    fn resign(&mut self) -> Result<(), String> {
        if self.end.is_some() {
            return Err("the game is over".to_string());
        }
        let humans: Vec<usize> = (0..2).filter(|&s| self.is_human(s)).collect();
        let side = match humans.as_slice() {
            [] => return Err("only a person can resign".to_string()),
            [one] => *one,
            _ => self.to_move(),
        };
        self.stop_thinking();
        self.finish(
            side_of(side).opponent(),
            Termination::Adjudication,
            format!("{} resigned", self.side_name(side)),
        );
        Ok(())
    }

    fn restart(&mut self) -> Result<(), String> {
        if self.error.take().is_none() {
            return Err("no engine has failed".to_string());
        }
        Ok(())
    }

    fn save(&self) -> Result<(), String> {
        let Some(end) = &self.end else {
            return Err("only a finished game can be saved".to_string());
        };
        let line = Finished {
            game: &self.game,
            options: &self.options,
            players: self.player_names(),
            fen: self.start.clone(),
            moves: &self.moves,
            times_ms: &self.times_ms,
            result: end.result,
            termination: end.termination,
            detail: end.detail.clone(),
        }
        .to_line();
        self.send(messages::text_json("record", "text", &format!("{line}\n")));
        Ok(())
    }

    fn player_names(&self) -> [String; 2] {
        self.players.clone().map(|p| match p {
            PlayerChoice::Human => "human".to_string(),
            PlayerChoice::Engine(name) => name,
        })
    }

    fn finish(&mut self, winner: Side, termination: Termination, detail: String) {
        self.end = Some(End { result: Outcome::Win(winner), termination, detail });
    }

    /// After every change: ends the game by the rules, starts the clock and the engine of
    /// the side to move, and tells the page.
    fn advance(&mut self) {
        if self.end.is_none()
            && let Some(o) = self.referee.outcome()
        {
            // The rules' reason, as the match runner records it.
            let detail = self.referee.end_reason().unwrap_or_default();
            self.end = Some(End { result: o, termination: Termination::Normal, detail });
        }
        if self.end.is_some() || self.error.is_some() {
            self.stop_thinking();
            if let Some(c) = self.clocks.as_mut() {
                c.pause();
            }
        } else if self.thinking.is_none() {
            let side = self.to_move();
            if let Some(c) = self.clocks.as_mut()
                && c.running() != Some(side_of(side))
            {
                c.start(side_of(side));
            }
            self.move_started = Instant::now();
            if !self.is_human(side) {
                self.ask_engine(side);
            }
        }
        self.send_state();
    }

    fn ask_engine(&mut self, side: usize) {
        let Some(seat) = &self.seats[side] else { return };
        let (limits, deadline) = match (self.time, &self.clocks) {
            (TimeControl::Clock { .. }, Some(c)) => {
                let limits = Limits {
                    time: [Some(c.left(Side::P1)), Some(c.left(Side::P2))],
                    inc: [Some(c.inc()); 2],
                    ..Limits::default()
                };
                (limits, c.left(side_of(side)) + HANG_GRACE)
            }
            (TimeControl::Movetime(t), _) | (TimeControl::Clock { base: t, .. }, None) => {
                (Limits::movetime(t), t + HANG_GRACE)
            }
        };
        self.ticket += 1;
        let position = Opening { fen: self.start.clone(), moves: self.moves.clone() };
        seat.go(self.ticket, position, limits, deadline);
        self.thinking = Some((side, self.ticket));
    }

    /// Analysis mode on (`engine`), moved to another position, or off (`None`).
    fn analyse(&mut self, engine: Option<String>, lines: u32, ply: usize) -> Result<(), String> {
        let Some(engine) = engine else {
            self.analyst = None;
            return Ok(());
        };
        let spec =
            self.engines.find(&engine).ok_or_else(|| format!("no engine called '{engine}'"))?;
        if !(1..=analysis::MAX_LINES).contains(&lines) {
            return Err(format!("Analysis shows 1 to {} lines.", analysis::MAX_LINES));
        }
        if ply > self.moves.len() {
            return Err("There is no such position in this game.".to_string());
        }
        let request = Request { engine, lines, ply };
        if !self.analyst.as_ref().is_some_and(|a| a.serves(&request)) {
            self.analyst = Some(Analyst::new(
                spec,
                request,
                &self.game,
                &self.options,
                self.inputs.clone(),
                Input::Seat,
            ));
        }
        let position = Opening { fen: self.start.clone(), moves: self.moves[..ply].to_vec() };
        if let Some(a) = self.analyst.as_mut() {
            a.go(ply, position);
        }
        Ok(())
    }

    /// The analysing engine's events: its reports go to the page; a search that ends
    /// starts again on the same position.
    fn on_analysis(&mut self, ev: SeatEvent) {
        let Some(ply) = self.analyst.as_ref().map(Analyst::ply) else { return };
        if ply > self.moves.len() {
            // Its position was taken back; the page asks again.
            self.analyst = None;
            return;
        }
        match ev {
            SeatEvent::Line { line, .. } => {
                let EngineLine::Info(info) = parse_engine_line(&line) else { return };
                if info.pv.is_empty() {
                    return;
                }
                let pv_fens = self.pv_positions(&self.fens[ply].clone(), &info.pv);
                self.send(messages::analysis_json(ply, &info, &pv_fens));
            }
            SeatEvent::Moved { ticket, reply, .. } => {
                let Some(a) = self.analyst.as_mut().filter(|a| a.is_current(ticket)) else {
                    return;
                };
                match reply {
                    Ok(_) => {
                        let moves = self.moves[..ply].to_vec();
                        a.go(ply, Opening { fen: self.start.clone(), moves });
                    }
                    Err(e) => {
                        self.analyst = None;
                        self.send_error(&format!("The analysis stopped: the engine failed ({e})."));
                    }
                }
            }
        }
    }

    fn on_seat(&mut self, ev: SeatEvent) {
        if let SeatEvent::Line { side: analysis::SIDE, .. }
        | SeatEvent::Moved { side: analysis::SIDE, .. } = ev
        {
            return self.on_analysis(ev);
        }
        match ev {
            SeatEvent::Line { side, line } => {
                if self.thinking.map(|t| t.0) == Some(side) {
                    self.forward_info(side, &line);
                }
            }
            SeatEvent::Moved { side, ticket, reply } => {
                if self.thinking != Some((side, ticket)) {
                    return;
                }
                self.thinking = None;
                let name = self.seats[side].as_ref().map_or("engine", |s| s.name()).to_string();
                match reply {
                    Ok(r) => {
                        let mv = r.tokens.first().cloned().unwrap_or_default();
                        if self.clocks.as_ref().is_some_and(|c| c.left(side_of(side)).is_zero()) {
                            self.finish(
                                side_of(side).opponent(),
                                Termination::Timeout,
                                format!("{} ({name}) lost on time", self.side_name(side)),
                            );
                        } else if let Err(e) = self.referee.play_move(&mv) {
                            self.finish(
                                side_of(side).opponent(),
                                Termination::IllegalMove,
                                format!(
                                    "{} ({name}) played an illegal move '{mv}': {e}",
                                    self.side_name(side)
                                ),
                            );
                        } else {
                            self.record_move(side, &mv);
                        }
                    }
                    Err(PlayerError::Timeout(_)) if self.clocks.is_some() => self.finish(
                        side_of(side).opponent(),
                        Termination::Timeout,
                        format!(
                            "{} ({name}) lost on time: no move before its clock ran out",
                            self.side_name(side)
                        ),
                    ),
                    Err(e) => {
                        self.error = Some(format!(
                            "The engine {name} ({}) failed: {e}",
                            self.side_name(side)
                        ))
                    }
                }
                self.advance();
            }
        }
    }

    /// Sends an engine's `info` line to the page, with the positions along its PV.
    fn forward_info(&mut self, side: usize, line: &str) {
        let EngineLine::Info(info) = parse_engine_line(line) else { return };
        let fen = self.referee.fen();
        let pv_fens = self.pv_positions(&fen, &info.pv);
        self.send(messages::info_json(side, &info, &pv_fens));
    }

    /// The positions along `pv` from `fen` (up to its first move that is not legal).
    fn pv_positions(&mut self, fen: &str, pv: &[String]) -> Vec<String> {
        let mut fens = Vec::new();
        if !pv.is_empty() && self.scratch.set_position(Some(fen), &[]).is_ok() {
            for mv in pv {
                if self.scratch.play_move(mv).is_err() {
                    break;
                }
                fens.push(self.scratch.fen());
            }
        }
        fens
    }

    /// Ends the game when the running clock has run out.
    fn check_flags(&mut self) {
        if self.end.is_some() {
            return;
        }
        let Some(side) = self.clocks.as_ref().and_then(Clocks::flagged) else { return };
        let i = side.index();
        self.stop_thinking();
        self.finish(
            side.opponent(),
            Termination::Timeout,
            format!("{} lost on time", self.side_name(i)),
        );
        self.advance();
    }

    fn send_state(&self) {
        let side = self.to_move();
        let human_turn = self.end.is_none() && self.error.is_none() && self.is_human(side);
        let state = State {
            game: self.game.clone(),
            options: self.options.clone(),
            players: self.player_names(),
            humans: [self.is_human(0), self.is_human(1)],
            fens: self.fens.clone(),
            moves: self.moves.clone(),
            movers: self.movers.clone(),
            legal: if human_turn { self.referee.legal_moves() } else { Vec::new() },
            side: side_word(side),
            result: self.end.as_ref().map(|e| e.result.as_str()),
            reason: self.end.as_ref().map(|e| e.detail.clone()).filter(|d| !d.is_empty()),
            check: self.referee.checked_kings(),
            clocks: self.clocks.as_ref().map(|c| {
                [c.left(Side::P1).as_millis() as u64, c.left(Side::P2).as_millis() as u64]
            }),
            clock_running: self.clocks.as_ref().and_then(|c| c.running()).map(|s| s.index()),
            thinking: self.thinking.map(|t| t.0),
            error: self.error.clone(),
            can_undo: !self.moves.is_empty() && self.players.contains(&PlayerChoice::Human),
        };
        let mut v = serde_json::to_value(state).unwrap_or_default();
        v["type"] = Value::from("state");
        self.send(v);
    }
}

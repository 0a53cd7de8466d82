//! The referee's game loop with in-process fake players: every failure a player can
//! have is a loss for it, with its termination, and the referee's result stands.

use std::time::Duration;

use ugine::core::{Limits, Outcome, Side};
use ugine::engine::{Session, find_game};
use ugine::runner::players::{EndQuery, MoveReply, Player, PlayerError, RandomPlayer};
use ugine::runner::records::opening::Opening;
use ugine::runner::records::record::{GameRecord, Termination};
use ugine::runner::records::replay::validate;
use ugine::runner::schedule::GameId;
use ugine::runner::tournament::game::{GameSetup, TimeControl, play_game};

fn morris() -> Box<dyn Session> {
    (find_game("morris").map(|g| g.make).expect("morris"))(1)
}

/// What a fake does wrong, and from which of its own moves on.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    Illegal,
    Unreadable,
    Crash,
    Hang,
    Slow(Duration),
    Ponder,
    WrongResult,
    NoQueryAnswer,
    StartFails,
}

/// A legal random mover that misbehaves as told from its `after`-th move on.
struct Fake {
    inner: RandomPlayer,
    fault: Fault,
    after: usize,
    moves: usize,
    resets: usize,
    /// Its own time per move (`movetime=` of an engine spec).
    own_movetime: Option<Duration>,
}

impl Fake {
    fn new(fault: Fault, after: usize) -> Fake {
        Fake {
            inner: RandomPlayer::new("fake", morris(), 7),
            fault,
            after,
            moves: 0,
            resets: 0,
            own_movetime: None,
        }
    }
}

impl Player for Fake {
    fn name(&self) -> &str {
        "fake"
    }
    fn own_movetime(&self) -> Option<Duration> {
        self.own_movetime
    }
    fn new_game(&mut self, id: GameId) -> Result<(), PlayerError> {
        match self.fault {
            Fault::StartFails => Err(PlayerError::Timeout("readyok".into())),
            _ => self.inner.new_game(id),
        }
    }
    fn go(&mut self, pos: &Opening, l: &Limits, d: Duration) -> Result<MoveReply, PlayerError> {
        let mut r = self.inner.go(pos, l, d)?;
        self.moves += 1;
        if self.moves <= self.after {
            return Ok(r);
        }
        match self.fault {
            Fault::Illegal => r.tokens = vec!["z9".into()],
            Fault::Unreadable => r.tokens.clear(),
            Fault::Crash => return Err(PlayerError::Disconnected("pipe closed".into())),
            Fault::Hang => return Err(PlayerError::Timeout("bestmove".into())),
            Fault::Slow(t) => r.elapsed = t,
            Fault::Ponder => r.tokens.extend(["ponder".to_string(), "a1".to_string()]),
            _ => {}
        }
        Ok(r)
    }
    fn query(&mut self, pos: &Opening, q: EndQuery) -> Result<String, PlayerError> {
        match (self.fault, q) {
            (Fault::WrongResult, EndQuery::Result) => Ok("draw".into()),
            (Fault::NoQueryAnswer, _) => Err(PlayerError::Timeout("response".into())),
            _ => self.inner.query(pos, q),
        }
    }
    fn reset(&mut self) {
        self.resets += 1;
    }
}

fn play(p1: &mut Fake, p2: &mut Fake, tc: &TimeControl) -> GameRecord {
    let opening = Opening::startpos();
    let options = vec![("Game".to_string(), "morris".to_string())];
    let setup = GameSetup {
        id: GameId { pairing: 0, round: 0, seat: 0 },
        game: "morris",
        options: &options,
        opening: &opening,
        tc,
        max_plies: Some(400),
    };
    let mut referee = morris();
    let rec = play_game([p1, p2], referee.as_mut(), &setup);
    assert_eq!(validate(&rec), Ok(()), "every record replays: {}", rec.to_line());
    assert_eq!(rec.moves.len(), rec.times_ms.len());
    rec
}

fn depth_tc() -> TimeControl {
    TimeControl { depth: Some(1), ..TimeControl::default() }
}

#[test]
fn clean_game_ends_by_the_rules() {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::None, 0));
    let rec = play(&mut a, &mut b, &depth_tc());
    assert_eq!(rec.termination, Termination::Normal, "{}", rec.to_line());
    // The detail is the reason the rules give for the final position.
    let mut end = morris();
    for m in &rec.moves {
        end.play_move(m).unwrap();
    }
    assert_eq!(Some(rec.detail.clone()), end.end_reason(), "{}", rec.to_line());
    assert_eq!((a.resets, b.resets), (0, 0));
}

/// p2 misbehaves from its 3rd move: it loses with `termination`; returns the record.
fn p2_fault(fault: Fault, tc: &TimeControl, termination: Termination) -> (GameRecord, usize) {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(fault, 2));
    let rec = play(&mut a, &mut b, tc);
    assert_eq!(rec.termination, termination, "{}", rec.to_line());
    assert_eq!(rec.result, Outcome::Win(Side::P1), "{}", rec.to_line());
    assert_eq!(rec.moves.len(), 5, "two moves each, then p2's faulty third: {}", rec.to_line());
    (rec, b.resets)
}

#[test]
fn illegal_move_loses() {
    let (rec, resets) = p2_fault(Fault::Illegal, &depth_tc(), Termination::IllegalMove);
    assert!(rec.detail.contains("'z9'"), "{}", rec.detail);
    assert_eq!(resets, 0, "an illegal move does not restart the engine");
}

#[test]
fn bestmove_without_move_loses() {
    p2_fault(Fault::Unreadable, &depth_tc(), Termination::IllegalMove);
}

#[test]
fn crash_loses_and_resets() {
    let (_, resets) = p2_fault(Fault::Crash, &depth_tc(), Termination::Disconnect);
    assert_eq!(resets, 1);
}

#[test]
fn hang_without_time_limit_is_a_stall() {
    let (_, resets) = p2_fault(Fault::Hang, &depth_tc(), Termination::Stall);
    assert_eq!(resets, 1, "a hung engine is killed");
}

#[test]
fn hang_under_a_clock_is_a_timeout() {
    let tc = TimeControl {
        clock: Some((Duration::from_secs(1), Duration::ZERO)),
        ..TimeControl::default()
    };
    p2_fault(Fault::Hang, &tc, Termination::Timeout);
}

#[test]
fn overrunning_the_clock_loses_but_the_margin_is_granted() {
    let tc = TimeControl {
        clock: Some((Duration::from_secs(2), Duration::from_millis(100))),
        margin: Duration::from_millis(50),
        ..TimeControl::default()
    };
    // 2 s + 0.1 s per move: after two instant moves 2.2 s are left; 2.25 s is within the
    // margin, but the clock is then empty and the next move (0 + 0.1 s left, 2.25 s used)
    // loses on time.
    let (mut a, mut b) =
        (Fake::new(Fault::None, 0), Fake::new(Fault::Slow(Duration::from_millis(2250)), 2));
    let rec = play(&mut a, &mut b, &tc);
    assert_eq!(rec.termination, Termination::Timeout, "{}", rec.to_line());
    assert_eq!(rec.result, Outcome::Win(Side::P1));
    assert_eq!(rec.moves.len(), 7, "third p2 move within the margin, fourth over");
    assert_eq!(rec.times_ms[5], 2250);
    assert!(rec.detail.contains("used 2250 ms of 100 ms"), "{}", rec.detail);
}

#[test]
fn overrunning_movetime_loses() {
    let tc = TimeControl { movetime: Some(Duration::from_millis(100)), ..TimeControl::default() };
    let (rec, _) = p2_fault(Fault::Slow(Duration::from_millis(201)), &tc, Termination::Timeout);
    assert!(rec.detail.contains("used 201 ms of 100 ms"), "{}", rec.detail);
}

#[test]
fn the_referee_checks_an_engines_own_movetime_instead_of_the_matchs() {
    let ms = Duration::from_millis;
    let tc = TimeControl { movetime: Some(ms(100)), ..TimeControl::default() };
    // Time odds: p2 has 1 s a move, so 500 ms is in time for it (not for the match's 100 ms).
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::Slow(ms(500)), 2));
    b.own_movetime = Some(ms(1000));
    let rec = play(&mut a, &mut b, &tc);
    assert_eq!(rec.termination, Termination::Normal, "{}", rec.to_line());
    // And the other way: 10 ms of its own, 201 ms is over (within the match's 1 s).
    let tc = TimeControl { movetime: Some(ms(1000)), ..TimeControl::default() };
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::Slow(ms(201)), 2));
    b.own_movetime = Some(ms(10));
    let rec = play(&mut a, &mut b, &tc);
    assert_eq!(rec.termination, Termination::Timeout, "{}", rec.to_line());
    assert_eq!(rec.result, Outcome::Win(Side::P1));
    assert!(rec.detail.contains("used 201 ms of 10 ms"), "{}", rec.detail);
}

#[test]
fn extra_bestmove_tokens_are_flagged_not_punished() {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::Ponder, 0));
    let rec = play(&mut a, &mut b, &depth_tc());
    assert!(
        rec.detail.contains("p2 sent extra tokens after bestmove: 'ponder a1'"),
        "{}",
        rec.detail
    );
    assert_eq!(rec.detail.matches("extra tokens").count(), 1, "flagged once per game");
}

#[test]
fn disagreement_is_recorded_and_the_referee_result_stands() {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::WrongResult, 0));
    let tc = TimeControl { depth: Some(1), ..TimeControl::default() };
    let mut rec = play(&mut a, &mut b, &tc);
    // Random games may end by adjudication; play until one ends by the rules.
    let mut tries = 0;
    while rec.termination == Termination::Adjudication && tries < 20 {
        a.inner = RandomPlayer::new("fake", morris(), 100 + tries);
        rec = play(&mut a, &mut b, &tc);
        tries += 1;
    }
    assert_eq!(rec.termination, Termination::Disagreement, "{}", rec.to_line());
    assert_ne!(rec.result, Outcome::Draw, "the runner's result, not the engine's 'draw'");
    assert!(rec.detail.contains("p2 (fake) says result 'draw'"), "{}", rec.detail);
}

#[test]
fn unanswered_query_is_a_disagreement_and_resets() {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::NoQueryAnswer, 0));
    // These seeded random players end their game by the rules (a Morris win).
    let rec = play(&mut a, &mut b, &depth_tc());
    assert_eq!(rec.termination, Termination::Disagreement, "{}", rec.to_line());
    assert!(rec.detail.contains("did not answer 'query gameover'"), "{}", rec.detail);
    assert_eq!(b.resets, 1);
}

#[test]
fn start_failure_loses_before_any_move() {
    let (mut a, mut b) = (Fake::new(Fault::StartFails, 0), Fake::new(Fault::None, 0));
    let rec = play(&mut a, &mut b, &depth_tc());
    assert_eq!(rec.termination, Termination::Disconnect);
    assert_eq!(rec.result, Outcome::Win(Side::P2));
    assert!(rec.moves.is_empty());
    assert_eq!(a.resets, 1);
}

#[test]
fn max_plies_adjudicates_a_draw() {
    let opening = Opening::startpos();
    let setup = GameSetup {
        id: GameId { pairing: 0, round: 0, seat: 0 },
        game: "morris",
        options: &[],
        opening: &opening,
        tc: &depth_tc(),
        max_plies: Some(6),
    };
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::None, 0));
    let mut referee = morris();
    let rec = play_game([&mut a, &mut b], referee.as_mut(), &setup);
    assert_eq!(
        (rec.termination, rec.result, rec.moves.len()),
        (Termination::Adjudication, Outcome::Draw, 6)
    );
    assert_eq!(validate(&rec), Ok(()));
}

#[test]
fn records_round_trip_and_bad_records_are_caught() {
    let (mut a, mut b) = (Fake::new(Fault::None, 0), Fake::new(Fault::Illegal, 3));
    let rec = play(&mut a, &mut b, &depth_tc());
    assert_eq!(GameRecord::parse(&rec.to_line()), Ok(rec.clone()));
    let mut wrong = rec.clone();
    wrong.result = Outcome::Win(Side::P2);
    assert!(validate(&wrong).is_err(), "the loser of an illegal move is the side to move");
    let mut wrong = rec.clone();
    wrong.moves.push("a1".into());
    wrong.times_ms.push(0);
    assert!(validate(&wrong).is_err());
    assert!(GameRecord::parse("id=0.0.0\tgame=morris").is_err());
}

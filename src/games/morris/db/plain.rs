//! A second, deliberately plain solver of the 3-against-3 class, to cross-check the
//! database on every one of its positions. It shares nothing with the database but the
//! rule options: positions are plain (White's men, Black's men, side to move) keys in a
//! sorted list, with no indexing, symmetry or unmove; successors come only from the game's
//! own `generate_moves`, `play_reversible` and `outcome`; values are found by plain
//! fixed-point iteration, ply by ply.

use super::super::board::Morris;
use super::super::options::{MorrisOptions, MorrisRules};
use super::crosscheck::CrossCheck;
use super::moves::db_options;
use super::probe::MorrisDb;
use super::value::DbValue;
use crate::core::{Game, Outcome, Reversible, Side};

/// Key of a position: White's men, Black's men (24 bits each) and the side to move.
fn key(pos: &Morris) -> u64 {
    pos.men(Side::P1) as u64
        | (pos.men(Side::P2) as u64) << 24
        | ((pos.side_to_move() == Side::P2) as u64) << 48
}

/// The position of a key.
fn position(opts: &MorrisOptions, key: u64) -> Morris {
    let men = [key as u32 & 0xff_ffff, (key >> 24) as u32 & 0xff_ffff];
    Morris::from_men(opts, men, if key >> 48 == 0 { Side::P1 } else { Side::P2 })
}

/// The keys of every 3-against-3 movement-phase position, either side to move, sorted.
pub fn positions() -> Vec<u64> {
    let triples: Vec<u32> = (0..24)
        .flat_map(|a| {
            (a + 1..24).flat_map(move |b| (b + 1..24).map(move |c| 1 << a | 1 << b | 1 << c))
        })
        .collect();
    let mut all = Vec::new();
    for &white in &triples {
        for &black in triples.iter().filter(|&&b| b & white == 0) {
            for stm in [0, 1] {
                all.push(white as u64 | (black as u64) << 24 | stm << 48);
            }
        }
    }
    all.sort_unstable();
    all
}

/// True when the game is over with the side to move beaten (the only end a database
/// position or its successors can have).
fn is_lost(pos: &Morris) -> bool {
    match pos.outcome() {
        Some(Outcome::Win(s)) => {
            assert_ne!(s, pos.side_to_move(), "{}: won by the side to move", pos.to_fen());
            true
        }
        Some(o) => panic!("{}: {o:?} is not a database outcome", pos.to_fen()),
        None => false,
    }
}

/// Successor of a move that ends the game (the side to move of the successor lost).
const GAME_OVER: u32 = u32::MAX;

/// The move graph: for each position of `keys`, the indices in `keys` of its successors
/// ([`GAME_OVER`] for a move that wins at once), from the game's own moves; and whether
/// the position itself is over (lost by its side to move).
struct Graph {
    lost: Vec<bool>,
    first: Vec<usize>,
    next: Vec<u32>,
}

impl Graph {
    fn new(opts: &MorrisOptions, keys: &[u64]) -> Graph {
        let mut g = Graph { lost: Vec::new(), first: vec![0], next: Vec::new() };
        let mut moves = Vec::new();
        for &k in keys {
            let mut pos = position(opts, k);
            g.lost.push(is_lost(&pos));
            moves.clear();
            pos.generate_moves(&mut moves);
            for &mv in &moves {
                let undo = pos.play_reversible(mv);
                g.next.push(if is_lost(&pos) {
                    GAME_OVER
                } else {
                    keys.binary_search(&key(&pos)).expect("a 3v3 position") as u32
                });
                pos.unplay(mv, undo);
            }
            g.first.push(g.next.len());
        }
        g
    }
}

/// Solves every 3-against-3 position under `rules`: the value of each position of
/// `keys`, by fixed-point iteration. At ply `n`, an undecided position is a loss in `n`
/// (`n` even) when it is over (`n` = 0) or every move reaches a win in less than `n`, and a
/// win in `n` (`n` odd) when some move reaches a loss in `n` - 1 (or ends the game, a
/// loss in 0). Stops after two plies in a row decide nothing: no later ply can then
/// decide anything either. The rest are draws.
pub fn solve_three_against_three(rules: MorrisRules, keys: &[u64]) -> Vec<DbValue> {
    let g = Graph::new(&db_options(rules), keys);
    let mut known: Vec<Option<DbValue>> = vec![None; keys.len()];
    let mut open: Vec<usize> = (0..keys.len()).collect();
    let (mut n, mut idle) = (0u16, 0);
    while idle < 2 {
        let value =
            |s: u32| if s == GAME_OVER { Some(DbValue::Loss(0)) } else { known[s as usize] };
        let mut found = Vec::new();
        open.retain(|&i| {
            let mut successors = g.next[g.first[i]..g.first[i + 1]].iter().map(|&s| value(s));
            let v = if n == 0 {
                g.lost[i].then_some(DbValue::Loss(0))
            } else if n % 2 == 1 {
                successors.any(|v| v == Some(DbValue::Loss(n - 1))).then_some(DbValue::Win(n))
            } else {
                successors
                    .all(|v| matches!(v, Some(DbValue::Win(d)) if d < n))
                    .then_some(DbValue::Loss(n))
            };
            v.map(|v| found.push((i, v))).is_none()
        });
        idle = if found.is_empty() { idle + 1 } else { 0 };
        found.into_iter().for_each(|(i, v)| known[i] = Some(v));
        n += 1;
    }
    known.into_iter().map(|v| v.unwrap_or(DbValue::Draw)).collect()
}

/// Compares the database with [`solve_three_against_three`] on every 3-against-3
/// position (win, draw or loss and the distance). `decided` counts the plain solver's
/// wins and losses.
pub fn crosscheck_three_against_three(db: &MorrisDb) -> CrossCheck {
    let keys = positions();
    let values = solve_three_against_three(db.rules(), &keys);
    let opts = db_options(db.rules());
    let mut report = CrossCheck::default();
    for (&k, &plain) in keys.iter().zip(&values) {
        let pos = position(&opts, k);
        let stored = db.probe(&pos).expect("3v3 is held");
        report.checked += 1;
        report.decided += (plain != DbValue::Draw) as u64;
        if plain != stored {
            report
                .mismatches
                .push(format!("{}: database {stored}, plain solver {plain}", pos.to_fen()));
        }
    }
    report
}

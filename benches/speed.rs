//! `cargo bench --bench speed [-- FILTER…] [--rounds N] [--min-ms MS] [--wall]`: move generation,
//! perft, playout and search speed of the games, each measured side by side with an
//! anchor in the same run, so that the load of a shared machine cancels out of the ratio.
//!
//! Anchors (written or pulled in here, never linked into the engine):
//! - `cozy-chess` orthodox chess perft, bulk-counted and with every leaf move made (a
//!   well-kept bitboard generator: Moebius Chess aims at parity per node);
//! - a Hex 11×11 playout (random fill, one flood fill at the end) written below, the rate
//!   a Mobius playout aims at;
//! - for Morris, Mabula and Morpiae, the `cozy-chess` perft with leaves made serves as a
//!   unit of machine speed (their ratio is comparable from run to run, not a target).
//!
//! Each row runs subject and anchor alternately `--rounds` times (each job repeated until
//! it lasts `--min-ms`) and keeps the best rate of each; it prints both rates, the node
//! counts (identical from run to run) and the ratio subject / anchor. A filter keeps
//! the rows whose name contains it.
//!
//! Jobs are timed by the CPU time of the process (all its threads, from `/proc/self/stat`
//! on Linux), not by the wall clock: on a shared machine other processes take the CPU
//! in bursts, so a wall-clock rate depends on when a job ran, and even the ratio of two
//! jobs run one after the other swung from 0.43 to 1.05 under a load of 10 on 2 cores.
//! CPU time counts only the time the job was running. `--wall` (or a system without
//! `/proc`) times by the wall clock instead.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use ugine::bench::{search, search_game};
use ugine::core::{Game, Limits, Reversible, Rng};
use ugine::engine::find_game;
use ugine::games::mobius::{self, Mobius, default_rule_qualifies};
use ugine::games::moebius_chess::{MoebiusChess, MoebiusOptions, MoveList};

/// Measured work: how many nodes (or playouts) one run of the job counted.
type Job = Box<dyn FnMut() -> Result<u64>>;

/// One side of a row: its name and job.
struct Side {
    name: &'static str,
    job: Job,
}

/// Best rate over the rounds and the count of one run of the job.
struct Rate {
    count: u64,
    per_sec: f64,
}

struct Settings {
    filters: Vec<String>,
    rounds: usize,
    min_time: Duration,
    clock: Clock,
}

/// What a job's duration is measured with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Clock {
    /// CPU time of the whole process ([`process_cpu_time`]).
    ProcessCpu,
    Wall,
}

/// Clock ticks per second of `/proc/self/stat` (Linux's `USER_HZ`, fixed at 100 by the
/// kernel's user interface).
const TICKS_PER_SECOND: u64 = 100;

/// CPU time (user + system) used so far by this process, ended threads included: fields
/// 14 and 15 of `/proc/self/stat`. `None` where that file does not exist. Its 10 ms
/// resolution is why `--min-ms` defaults to a second with this clock.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // After the name, field 3 (state) has index 0, so utime (14) and stime (15) are 11, 12.
    let total = ticks(11)? + ticks(12)?;
    Some(Duration::from_millis(total * 1000 / TICKS_PER_SECOND))
}

impl Clock {
    fn now(self) -> Duration {
        match self {
            Clock::ProcessCpu => process_cpu_time().expect("checked at start"),
            Clock::Wall => wall_epoch().elapsed(),
        }
    }
}

/// A fixed instant the wall clock measures from.
fn wall_epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn parse_args() -> Result<Settings> {
    let mut s = Settings {
        filters: Vec::new(),
        rounds: 3,
        min_time: Duration::ZERO,
        clock: if process_cpu_time().is_some() { Clock::ProcessCpu } else { Clock::Wall },
    };
    let mut min_ms = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "--rounds" => {
                s.rounds = args.next().context("--rounds N")?.parse().context("--rounds N")?
            }
            "--min-ms" => {
                min_ms = Some(args.next().context("--min-ms MS")?.parse().context("--min-ms")?)
            }
            "--wall" => s.clock = Clock::Wall,
            f if f.starts_with("--") => bail!("unknown option {f}"),
            f => s.filters.push(f.to_string()),
        }
    }
    if s.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let default_ms = if s.clock == Clock::ProcessCpu { 1000 } else { 300 };
    s.min_time = Duration::from_millis(min_ms.unwrap_or(default_ms));
    Ok(s)
}

/// Runs `job` until it has lasted `min_time` on `clock`; nodes per second and the count
/// of one run.
fn timed(job: &mut Job, min_time: Duration, clock: Clock) -> Result<(u64, f64)> {
    let start = clock.now();
    let mut total = 0u64;
    loop {
        let count = job()?;
        total += count;
        let t = clock.now() - start;
        if t >= min_time {
            return Ok((count, total as f64 / t.as_secs_f64()));
        }
    }
}

/// Subject and anchor alternately; the best rate of each.
fn side_by_side(s: &Settings, subject: &mut Side, anchor: &mut Side) -> Result<(Rate, Rate)> {
    let (mut a, mut b) = (Rate { count: 0, per_sec: 0.0 }, Rate { count: 0, per_sec: 0.0 });
    for _ in 0..s.rounds {
        for (side, best) in [(&mut *subject, &mut a), (&mut *anchor, &mut b)] {
            let (count, rate) = timed(&mut side.job, s.min_time, s.clock)?;
            if best.count != 0 && best.count != count {
                bail!(
                    "{}: the count changed between runs ({} then {count})",
                    side.name,
                    best.count
                );
            }
            best.count = count;
            best.per_sec = best.per_sec.max(rate);
        }
    }
    Ok((a, b))
}

fn row(s: &Settings, mut subject: Side, mut anchor: Side) -> Result<()> {
    if !s.filters.is_empty() && !s.filters.iter().any(|f| subject.name.contains(f.as_str())) {
        return Ok(());
    }
    let (a, b) = side_by_side(s, &mut subject, &mut anchor)?;
    println!(
        "{:<34} {:>11} {:>9.3} M/s | {:<26} {:>11} {:>9.3} M/s | ratio {:.4}",
        subject.name,
        a.count,
        a.per_sec / 1e6,
        anchor.name,
        b.count,
        b.per_sec / 1e6,
        a.per_sec / b.per_sec
    );
    Ok(())
}

// --- Orthodox chess: the cozy-chess anchor -------------------------------------------

/// Start position and "Kiwipete" (castling, en passant, promotions, pins), with depths.
const CHESS: [(&str, u8); 2] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u8, make_leaves: bool) -> u64 {
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if depth == 1 && !make_leaves {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += if depth == 1 { 1 } else { cozy_perft(&child, depth - 1, make_leaves) };
            }
        }
        false
    });
    nodes
}

fn cozy(make_leaves: bool) -> Result<Side> {
    let boards = CHESS
        .iter()
        .map(|&(fen, d)| Ok((fen.parse::<cozy_chess::Board>().map_err(|e| anyhow!("{e:?}"))?, d)))
        .collect::<Result<Vec<_>>>()?;
    let name = if make_leaves { "cozy-chess perft, leaves made" } else { "cozy-chess perft, bulk" };
    Ok(Side {
        name,
        job: Box::new(move || Ok(boards.iter().map(|(b, d)| cozy_perft(b, *d, make_leaves)).sum())),
    })
}

// --- Moebius Chess -------------------------------------------------------------------

/// The start position and a middle game of the perft suite, with depths.
const MOEBIUS: [(&str, u32); 2] = [
    ("startpos", 4),
    ("r1bqk2r8/pppp1ppp8/2n2n10/2b1p11/2B1P11/2N2N10/PPPP1PPP8/R1BQK2R8 w KQkq - 4 5", 3),
];

fn moebius_positions() -> Result<Vec<(MoebiusChess, u32)>> {
    let opts = MoebiusOptions::default();
    MOEBIUS
        .iter()
        .map(|&(fen, d)| {
            let pos = if fen == "startpos" {
                MoebiusChess::startpos(&opts)
            } else {
                MoebiusChess::from_fen(fen, &opts).map_err(|e| anyhow!("{e}"))?
            };
            Ok((pos, d))
        })
        .collect()
}

/// Perft playing every move, leaves included, with the search's make/unmake.
fn moebius_perft_made(pos: &mut MoebiusChess, depth: u32) -> u64 {
    let mut list = MoveList::new();
    pos.moves(&mut list);
    let mut n = 0;
    for &mv in list.as_slice() {
        let undo = pos.play_reversible(mv);
        n += if depth == 1 { 1 } else { moebius_perft_made(pos, depth - 1) };
        pos.unplay(mv, undo);
    }
    n
}

fn moebius(make_leaves: bool) -> Result<Side> {
    let mut positions = moebius_positions()?;
    let (name, job): (_, Job) = if make_leaves {
        (
            "moebius-chess perft, leaves made",
            Box::new(move || {
                Ok(positions.iter_mut().map(|(p, d)| moebius_perft_made(p, *d)).sum())
            }),
        )
    } else {
        (
            "moebius-chess perft, bulk",
            Box::new(move || Ok(positions.iter().map(|(p, d)| p.perft(*d)).sum())),
        )
    };
    Ok(Side { name, job })
}

// --- Hex 11×11: the playout anchor ---------------------------------------------------

const HEX: usize = 11;
const HEX_CELLS: usize = HEX * HEX;

/// A uniform number below `n` by multiply-shift (the playouts' cheap bounded draw).
#[inline(always)]
fn below(rng: &mut Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Hex 11×11 playouts: shuffle the cells, fill them alternately, then one flood fill
/// from the top edge decides whether the first player joined top and bottom.
fn hex() -> Side {
    let mut neighbours = [[u8::MAX; 6]; HEX_CELLS];
    for (c, nb) in neighbours.iter_mut().enumerate() {
        let (r, q) = ((c / HEX) as i32, (c % HEX) as i32);
        let steps = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];
        for (k, (dr, dq)) in steps.into_iter().enumerate() {
            let (r2, q2) = (r + dr, q + dq);
            if (0..HEX as i32).contains(&r2) && (0..HEX as i32).contains(&q2) {
                nb[k] = (r2 as usize * HEX + q2 as usize) as u8;
            }
        }
    }
    let mut rng = Rng::new(11);
    let mut order: Vec<u8> = (0..HEX_CELLS as u8).collect();
    let mut cells = [0u8; HEX_CELLS];
    let mut stack = Vec::with_capacity(HEX_CELLS);
    let mut first_wins = 0u64;
    let job = move || {
        const PLAYOUTS: u64 = 20_000;
        for _ in 0..PLAYOUTS {
            for i in (1..HEX_CELLS).rev() {
                order.swap(i, below(&mut rng, i + 1));
            }
            for (i, &c) in order.iter().enumerate() {
                cells[c as usize] = 1 + (i & 1) as u8;
            }
            stack.clear();
            for (c, cell) in cells.iter_mut().enumerate().take(HEX) {
                if *cell == 1 {
                    *cell = 3;
                    stack.push(c as u8);
                }
            }
            let mut won = false;
            while let Some(c) = stack.pop() {
                if c as usize >= HEX_CELLS - HEX {
                    won = true;
                    break;
                }
                for &n in &neighbours[c as usize] {
                    if n != u8::MAX && cells[n as usize] == 1 {
                        cells[n as usize] = 3;
                        stack.push(n);
                    }
                }
            }
            first_wins += u64::from(won);
        }
        std::hint::black_box(first_wins);
        Ok(PLAYOUTS)
    };
    Side { name: "hex 11x11 fill+flood playouts", job: Box::new(job) }
}

// --- Mobius --------------------------------------------------------------------------

/// The engine's raw Mobius playouts from the empty board, as the search plays them
/// (`playout::random_playouts`: the stones dealt into bitboards in a random order, then
/// the win test of the default rule, which a full board always decides).
fn mobius_playouts() -> Side {
    let pos = Mobius::startpos(&mobius::MobiusOptions::default());
    let mut seed = 11;
    let job = move || {
        const PLAYOUTS: u64 = 5_000;
        seed += 1;
        std::hint::black_box(mobius::playout::random_playouts(&pos, PLAYOUTS, seed));
        Ok(PLAYOUTS)
    };
    Side { name: "mobius raw playouts (engine)", job: Box::new(job) }
}

/// Raw Mobius playouts from the empty board through the board array: random fill of a
/// cell array, then the win test of the default rule from the array.
fn mobius_raw() -> Side {
    let mut rng = Rng::new(11);
    let mut order: Vec<u8> = (0..mobius::geometry::CELLS as u8).collect();
    let mut cells = [mobius::EMPTY; mobius::geometry::CELLS];
    let mut red_wins = 0u64;
    let job = move || {
        const PLAYOUTS: u64 = 5_000;
        for _ in 0..PLAYOUTS {
            for i in (1..order.len()).rev() {
                order.swap(i, below(&mut rng, i + 1));
            }
            for (i, &c) in order.iter().enumerate() {
                cells[c as usize] = if i % 2 == 0 { mobius::RED } else { mobius::BLUE };
            }
            red_wins += u64::from(default_rule_qualifies(&cells, mobius::RED, 0));
        }
        std::hint::black_box(red_wins);
        Ok(PLAYOUTS)
    };
    Side { name: "mobius raw playouts", job: Box::new(job) }
}

/// The engine's Mobius search from the empty board: playouts per second of the MCTS.
fn mobius_search() -> Result<Side> {
    let entry = find_game(Mobius::NAME).context("mobius is registered")?;
    let mut session = (entry.make)(64);
    session.set_threads(1);
    let job = move || {
        session.new_game();
        session.set_position(None, &[]).map_err(|e| anyhow!(e))?;
        Ok(search(&mut *session, Limits::nodes(50_000))?.0)
    };
    Ok(Side { name: "mobius search playouts", job: Box::new(job) })
}

// --- Morris, Mabula, Morpiae ---------------------------------------------------------

/// The `ugine bench` positions of `game`, searched as `ugine bench` does.
fn game_search(game: &'static str, name: &'static str) -> Result<Side> {
    let entry = find_game(game).with_context(|| format!("{game} is registered"))?;
    let job = move || Ok(search_game(&entry)?.iter().map(|r| r.nodes).sum());
    Ok(Side { name, job: Box::new(job) })
}

/// Perft of `game` from its start position (the game's own perft: bulk counting where
/// it has one).
fn game_perft(game: &'static str, depth: u32, name: &'static str) -> Result<Side> {
    let entry = find_game(game).with_context(|| format!("{game} is registered"))?;
    let session = (entry.make)(1);
    Ok(Side { name, job: Box::new(move || Ok(session.perft(depth))) })
}

fn main() -> Result<()> {
    let s = parse_args()?;
    println!(
        "best of {} rounds, each job repeated for at least {} ms of {}; load: {}",
        s.rounds,
        s.min_time.as_millis(),
        match s.clock {
            Clock::ProcessCpu => "process CPU time",
            Clock::Wall => "wall-clock time",
        },
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    row(&s, moebius(false)?, cozy(false)?)?;
    row(&s, moebius(true)?, cozy(true)?)?;
    row(&s, mobius_raw(), hex())?;
    row(&s, mobius_playouts(), hex())?;
    row(&s, mobius_search()?, hex())?;
    for (game, search, perft, depth) in [
        ("morris", "morris search (bench)", "morris perft 5", 5),
        ("mabula", "mabula search (bench)", "mabula perft 4", 4),
        ("morpiae", "morpiae search (bench)", "morpiae perft 5", 5),
    ] {
        row(&s, game_search(game, search)?, cozy(true)?)?;
        row(&s, game_perft(game, depth, perft)?, cozy(true)?)?;
    }
    Ok(())
}

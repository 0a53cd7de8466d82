//! A second, independent Mabula move generator (a mailbox board, pushes simulated one
//! step at a time as the rules word them) whose perft must equal the engine's on every
//! position of `tests/data/perft/mabula.perft`. Counts above 200,000 are checked only
//! with `UGINE_PERFT_FULL=1` (then up to 40,000,000).

use ugine::core::Game;
use ugine::games::mabula::{Mabula, MabulaOptions};

/// A square's content: 0 empty, 1 black, 2 white. Index `rank * 8 + file`.
type Board = [u8; 64];

fn is_border(f: i32, r: i32) -> bool {
    let edge = f == 0 || f == 7 || r == 0 || r == 7;
    let corner = (f == 0 || f == 7) && (r == 0 || r == 7);
    edge && !corner
}

/// The board after pushing the marble on (f, r) by `k` steps, if every step is legal.
fn push(board: &Board, f: i32, r: i32, k: i32) -> Option<Board> {
    let (df, dr) = if r == 0 {
        (0, 1)
    } else if r == 7 {
        (0, -1)
    } else if f == 0 {
        (1, 0)
    } else {
        (-1, 0)
    };
    let at = |f: i32, r: i32| (r * 8 + f) as usize;
    let mut b = *board;
    let (mut pf, mut pr) = (f, r);
    for _ in 0..k {
        // Find the end of the run in front of the mover.
        let (mut ef, mut er) = (pf + df, pr + dr);
        while (0..8).contains(&ef) && (0..8).contains(&er) && b[at(ef, er)] != 0 {
            ef += df;
            er += dr;
        }
        if !(0..8).contains(&ef) || !(0..8).contains(&er) || is_border(ef, er) {
            return None;
        }
        // Shift the run and the mover one square, from the far end back.
        while (ef, er) != (pf, pr) {
            b[at(ef, er)] = b[at(ef - df, er - dr)];
            ef -= df;
            er -= dr;
        }
        b[at(pf, pr)] = 0;
        pf += df;
        pr += dr;
    }
    Some(b)
}

fn pushes(board: &Board, colour: u8) -> Vec<Board> {
    let mut out = Vec::new();
    for r in 0..8 {
        for f in 0..8 {
            if is_border(f, r) && board[(r * 8 + f) as usize] == colour {
                for k in 1..=6 {
                    match push(board, f, r, k) {
                        Some(b) => out.push(b),
                        None => break,
                    }
                }
            }
        }
    }
    out
}

fn perft(board: &Board, colour: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let other = 3 - colour;
    let mine = pushes(board, colour);
    let children: Vec<(Board, u8)> = if !mine.is_empty() {
        mine.into_iter().map(|b| (b, other)).collect()
    } else if !pushes(board, other).is_empty() {
        vec![(*board, other)]
    } else {
        Vec::new()
    };
    if depth == 1 {
        return children.len() as u64;
    }
    children.iter().map(|(b, c)| perft(b, *c, depth - 1)).sum()
}

/// The mailbox board and colour to move of an engine position (read through its
/// position string, so the reference shares no board code with the engine).
fn from_engine(p: &Mabula) -> (Board, u8) {
    let fen = p.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut board = [0u8; 64];
    for (i, rank) in fields[1].split('/').enumerate() {
        let r = 7 - i;
        let mut f = 0;
        for c in rank.chars() {
            match c {
                'B' => {
                    board[r * 8 + f] = 1;
                    f += 1;
                }
                'W' => {
                    board[r * 8 + f] = 2;
                    f += 1;
                }
                d => f += d.to_digit(10).expect("digit") as usize,
            }
        }
    }
    (board, if fields[2] == "b" { 1 } else { 2 })
}

#[test]
fn reference_perft_matches_the_engine() {
    let full = std::env::var("UGINE_PERFT_FULL").is_ok_and(|v| v == "1");
    let cap = if full { 40_000_000 } else { 200_000 };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/mabula.perft");
    let text = std::fs::read_to_string(path).expect("perft file");
    let mut checked = 0;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let opts = MabulaOptions::default();
        let p = if fields[2] == "startpos" {
            Mabula::startpos(&opts)
        } else {
            Mabula::from_fen(fields[2], &opts).expect("position")
        };
        let (board, colour) = from_engine(&p);
        for dc in fields[3].split_whitespace() {
            let (d, c) = dc.split_once(':').expect("depth:count");
            let (d, c): (u32, u64) = (d.parse().unwrap(), c.parse().unwrap());
            if c > cap {
                continue;
            }
            assert_eq!(perft(&board, colour, d), c, "{} depth {d}", fields[0]);
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} counts checked");
}

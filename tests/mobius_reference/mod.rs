#![allow(dead_code)] // each test binary uses only some of these helpers
//! An independent, deliberately plain implementation of the Mobius win test, used only to
//! cross-check the engine: geometry recomputed from the spec's adjacency formulas (not the
//! engine's tables), positions read from the position string, and a breadth-first search
//! that labels each node with its seam winding instead of a union-find.

use std::collections::VecDeque;

/// Rows of the board, top first: 12 cells on rows 1, 3, …, 11 cells on rows 2, 4, ….
fn row_len(r: usize) -> usize {
    if r.is_multiple_of(2) { 12 } else { 11 }
}

/// Win-test variant: zones as network nodes (DEFAULT) or the literal rule; odd loops only
/// (DEFAULT) or any non-zero winding.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub network: bool,
    pub any: bool,
}

/// A board read from the position string: `board[r][c]` is `'r'`, `'b'` or `'.'`.
pub struct Board {
    pub cells: Vec<Vec<char>>,
}

impl Board {
    /// Reads the board field of a position string.
    pub fn from_fen(fen: &str) -> Board {
        let rows = fen.split_whitespace().next().expect("board field");
        let cells = rows
            .split('/')
            .map(|row| {
                let mut out = Vec::new();
                let mut num = String::new();
                for ch in row.chars() {
                    if ch.is_ascii_digit() {
                        num.push(ch);
                    } else {
                        if !num.is_empty() {
                            out.extend(std::iter::repeat_n('.', num.parse().unwrap()));
                            num.clear();
                        }
                        out.push(ch);
                    }
                }
                if !num.is_empty() {
                    out.extend(std::iter::repeat_n('.', num.parse().unwrap()));
                }
                out
            })
            .collect::<Vec<_>>();
        assert_eq!(cells.len(), 12);
        for (r, row) in cells.iter().enumerate() {
            assert_eq!(row.len(), row_len(r));
        }
        Board { cells }
    }

    /// Whether `player` (`'r'` or `'b'`) passes the win test `rule`.
    pub fn qualifies(&self, player: char, rule: Rule) -> bool {
        qualifies(self, player, rule)
    }
}

/// Neighbours of `(r, c)` with the winding of the step: +1 from row 12 into row 1.
pub fn neighbours(r: usize, c: usize) -> Vec<((usize, usize), i32)> {
    let (ri, ci) = (r as i32, c as i32);
    let cand: Vec<(i32, i32)> = if r.is_multiple_of(2) {
        vec![
            (ri, ci - 1),
            (ri, ci + 1),
            (ri - 1, ci - 1),
            (ri - 1, ci),
            (ri + 1, ci - 1),
            (ri + 1, ci),
        ]
    } else {
        vec![
            (ri, ci - 1),
            (ri, ci + 1),
            (ri - 1, ci),
            (ri - 1, ci + 1),
            (ri + 1, ci),
            (ri + 1, ci + 1),
        ]
    };
    let mut out: Vec<((usize, usize), i32)> = cand
        .into_iter()
        .filter(|&(rr, cc)| (0..12).contains(&rr) && cc >= 0 && cc < row_len(rr as usize) as i32)
        .map(|(rr, cc)| ((rr as usize, cc as usize), 0))
        .collect();
    if r == 0 {
        for cc in [10 - ci, 11 - ci] {
            if (0..11).contains(&cc) {
                out.push(((11, cc as usize), -1));
            }
        }
    }
    if r == 11 {
        // (0, c') touches (11, 10 - c') and (11, 11 - c').
        for cc in 0..12 {
            if 10 - cc == ci || 11 - cc == ci {
                out.push(((0, cc as usize), 1));
            }
        }
    }
    out
}

/// `(r, c)` of a cell name such as `f7`.
pub fn cell(name: &str) -> (usize, usize) {
    let c = (name.as_bytes()[0] - b'a') as usize;
    let r: usize = name[1..].parse().unwrap();
    (r - 1, c)
}

/// The three zones of a player, each a list of (cell, winding of the cell relative to the
/// zone): the spec's table; only Red's l1 in R2 and Blue's a1 in B3 lie across the seam.
fn zones(player: char) -> Vec<Vec<((usize, usize), i32)>> {
    let table: [&str; 3] = if player == 'r' {
        ["a1 a2 a3 a4 a5", "a9 a10 a11 a12 l1", "l5 k6 l7 k8 l9"]
    } else {
        ["a5 a6 a7 a8 a9", "l1 k2 l3 k4 l5", "l9 k10 l11 k12 a1"]
    };
    table
        .iter()
        .map(|z| {
            z.split_whitespace()
                .map(|n| {
                    let w = i32::from((player == 'r' && n == "l1") || (player == 'b' && n == "a1"));
                    (cell(n), w)
                })
                .collect()
        })
        .collect()
}

/// Graph nodes: cells as `r * 12 + c`, zones as `200 + z`.
fn qualifies(board: &Board, player: char, rule: Rule) -> bool {
    let zs = zones(player);
    let own = |(r, c): (usize, usize)| board.cells[r][c] == player;
    // Adjacency lists with windings, both directions.
    let mut adj: std::collections::HashMap<usize, Vec<(usize, i32)>> = Default::default();
    let id = |(r, c): (usize, usize)| r * 12 + c;
    for r in 0..12 {
        for c in 0..row_len(r) {
            if !own((r, c)) {
                continue;
            }
            adj.entry(id((r, c))).or_default();
            for (n, w) in neighbours(r, c) {
                if own(n) {
                    adj.entry(id((r, c))).or_default().push((id(n), w));
                }
            }
        }
    }
    if rule.network {
        for (z, cells) in zs.iter().enumerate() {
            adj.entry(200 + z).or_default();
            for &(cl, w) in cells {
                if own(cl) {
                    adj.entry(200 + z).or_default().push((id(cl), w));
                    adj.entry(id(cl)).or_default().push((200 + z, -w));
                }
            }
        }
    }
    let zone_of_cell = |node: usize| -> Option<usize> {
        zs.iter().position(|cells| cells.iter().any(|&(cl, _)| id(cl) == node))
    };
    let mut pot: std::collections::HashMap<usize, i32> = Default::default();
    let (mut any_three, mut any_two, mut any_loop, mut literal_win) = (false, false, false, false);
    let mut nodes: Vec<usize> = adj.keys().copied().collect();
    nodes.sort();
    for &start in &nodes {
        if pot.contains_key(&start) {
            continue;
        }
        pot.insert(start, 0);
        let mut queue = VecDeque::from([start]);
        let mut members = Vec::new();
        let mut looped = false;
        while let Some(u) = queue.pop_front() {
            members.push(u);
            for &(v, w) in &adj[&u] {
                let want = pot[&u] + w;
                match pot.get(&v) {
                    None => {
                        pot.insert(v, want);
                        queue.push_back(v);
                    }
                    Some(&have) => {
                        let wind = want - have;
                        if (rule.any && wind != 0) || wind % 2 != 0 {
                            looped = true;
                        }
                    }
                }
            }
        }
        let mut touched = [false; 3];
        for &m in &members {
            if m >= 200 {
                touched[m - 200] = true;
            } else if !rule.network
                && let Some(z) = zone_of_cell(m)
            {
                touched[z] = true;
            }
        }
        let n = touched.iter().filter(|&&t| t).count();
        any_three |= n == 3;
        any_two |= n >= 2;
        any_loop |= looped;
        literal_win |= n == 3 || (n >= 2 && looped);
    }
    if rule.network { any_three || (any_two && any_loop) } else { literal_win }
}

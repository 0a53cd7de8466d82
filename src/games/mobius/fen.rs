//! The position string: `<rows> <side>`.
//!
//! Rows from row 1 (top, the seam row) to row 12, separated by `/`; in each row, from
//! column `a`, `r` is a Red stone, `b` a Blue stone and a number counts empty cells.
//! The side to move is `r` or `b`. Start position:
//! `12/11/12/11/12/11/12/11/12/11/12/11 r`.

use super::board::{BLUE, EMPTY, RED};
use super::geometry::{CELLS, ROW_LEN, ROWS};
use super::options::MobiusOptions;
use crate::core::{PositionError, Side};

/// Reads a position string into cells and side to move. The stone counts must be those
/// of a game: Red as many stones as Blue with Red to move, one more with Blue to move;
/// with the swap option also the counts after a swap (Blue one more with Red to move,
/// as many with Blue to move).
pub fn parse(s: &str, opts: &MobiusOptions) -> Result<([u8; CELLS], Side), PositionError> {
    let err = |m: &str| PositionError(format!("{m} in '{s}'"));
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [board, side] = fields[..] else {
        return Err(err("expected 2 fields: rows and side to move"));
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ROWS {
        return Err(err("the board needs 12 rows separated by '/'"));
    }
    let mut cells = [EMPTY; CELLS];
    let mut i = 0;
    for (r, row) in rows.iter().enumerate() {
        let mut filled = 0;
        let mut run = 0usize;
        for ch in row.chars() {
            match ch {
                '0'..='9' => {
                    run = run * 10 + (ch as usize - '0' as usize);
                    if run == 0 || run > ROW_LEN[r] {
                        return Err(err(&format!("bad count of empty cells in row {}", r + 1)));
                    }
                }
                'r' | 'b' => {
                    filled += std::mem::take(&mut run);
                    if filled >= ROW_LEN[r] {
                        return Err(err(&format!("row {} has too many cells", r + 1)));
                    }
                    cells[i + filled] = if ch == 'r' { RED } else { BLUE };
                    filled += 1;
                }
                _ => return Err(err(&format!("unexpected '{ch}' in row {}", r + 1))),
            }
        }
        filled += run;
        if filled != ROW_LEN[r] {
            return Err(err(&format!("row {} has {filled} cells, not {}", r + 1, ROW_LEN[r])));
        }
        i += ROW_LEN[r];
    }
    let stm = match side {
        "r" => Side::P1,
        "b" => Side::P2,
        _ => return Err(err("the side to move must be 'r' or 'b'")),
    };
    let red = cells.iter().filter(|&&c| c == RED).count();
    let blue = cells.iter().filter(|&&c| c == BLUE).count();
    let normal = match stm {
        Side::P1 => red == blue,
        Side::P2 => red == blue + 1,
    };
    let after_swap = opts.swap
        && match stm {
            Side::P1 => blue == red + 1,
            Side::P2 => red == blue && red > 0,
        };
    if !normal && !after_swap {
        return Err(err(&format!(
            "{red} Red and {blue} Blue stones cannot have {} to move",
            if stm == Side::P1 { "Red" } else { "Blue" }
        )));
    }
    Ok((cells, stm))
}

/// Writes the position string of `cells` with `stm` to move.
pub fn write(cells: &[u8; CELLS], stm: Side) -> String {
    let mut out = String::new();
    let mut i = 0;
    for (r, &len) in ROW_LEN.iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for &c in &cells[i..i + len] {
            if c == EMPTY {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(if c == RED { 'r' } else { 'b' });
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        i += len;
    }
    out.push_str(if stm == Side::P1 { " r" } else { " b" });
    out
}

//! The position string (a FEN with 16 squares per row, rows from the top of the
//! picture, y = 0, down to y = 7) and the board drawing of the `d` command.
//!
//! `rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1`: placement, side
//! to move, castling rights, en-passant square (`-` or a square name), plies since the
//! last capture or pawn move, move number. The last two fields may be left out.

use super::board::{
    BLACK, Board, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, KING, PAWN, ROOK, WHITE, code,
    code_color, code_type,
};
use super::geometry::{NO_SQ, TABLES, col, parse_square, row, square, square_name};
use super::options::MoebiusOptions;
use crate::core::PositionError;

const PIECE_CHARS: &[u8; 6] = b"pnbrqk";

fn piece_char(c: u8) -> char {
    let ch = PIECE_CHARS[code_type(c)] as char;
    if code_color(c) == WHITE { ch.to_ascii_uppercase() } else { ch }
}

/// Reads a position string. The en-passant square is kept as given (checked for
/// plausibility); the caller drops it when no en-passant capture is legal.
pub fn parse(s: &str, opts: MoebiusOptions) -> Result<Board, PositionError> {
    let err = |m: String| PositionError(format!("{m} in '{s}'"));
    let fields: Vec<&str> = s.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(err("expected 4 to 6 fields: placement, side, castling, en passant, \
                        halfmove clock, move number"
            .into()));
    }
    let mut b = Board::empty(opts);
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 8 {
        return Err(err(format!(
            "the placement needs 8 rows separated by '/', not {}",
            rows.len()
        )));
    }
    for (y, text) in rows.iter().enumerate() {
        let mut x = 0usize;
        let mut run = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                if run > 16 {
                    return Err(err(format!("row {} has more than 16 squares", y + 1)));
                }
                continue;
            }
            x += run;
            run = 0;
            let Some(typ) = PIECE_CHARS.iter().position(|&c| c == ch.to_ascii_lowercase() as u8)
            else {
                return Err(err(format!("unexpected '{ch}' in the placement")));
            };
            if x >= 16 {
                return Err(err(format!("row {} has more than 16 squares", y + 1)));
            }
            let color = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
            b.put(square(x, y), code(color, typ));
            x += 1;
        }
        x += run;
        if x != 16 {
            return Err(err(format!("row {} has {x} squares, not 16", y + 1)));
        }
    }
    for color in [WHITE, BLACK] {
        if b.of(color, KING).count_ones() != 1 {
            return Err(err("each side needs exactly one king".into()));
        }
        if b.of(color, PAWN) & TABLES.promo[color] != 0 {
            return Err(err("a pawn stands on its promotion rank".into()));
        }
    }
    b.stm = match fields[1] {
        "w" => WHITE,
        "b" => BLACK,
        other => return Err(err(format!("side to move must be 'w' or 'b', not '{other}'"))),
    };
    let mut rights = 0u8;
    if fields[2] != "-" {
        for ch in fields[2].chars() {
            rights |= match ch {
                'K' => CASTLE_WK,
                'Q' => CASTLE_WQ,
                'k' => CASTLE_BK,
                'q' => CASTLE_BQ,
                _ => return Err(err(format!("bad castling character '{ch}'"))),
            };
        }
    }
    // Keep only the rights whose king and rook stand on their squares.
    for (color, right, rook_x) in
        [(WHITE, CASTLE_WK, 7), (WHITE, CASTLE_WQ, 0), (BLACK, CASTLE_BK, 7), (BLACK, CASTLE_BQ, 0)]
    {
        let y = if color == WHITE { 7 } else { 0 };
        let ok = b.mailbox[square(4, y)] == code(color, KING)
            && b.mailbox[square(rook_x, y)] == code(color, ROOK);
        if ok {
            b.st.castling |= rights & right;
        }
    }
    if fields[3] != "-" {
        let ep = match parse_square(fields[3].as_bytes()) {
            Some((sq, n)) if n == fields[3].len() => sq,
            _ => return Err(err(format!("bad en-passant square '{}'", fields[3]))),
        };
        // White just double-stepped when Black is to move: the skipped square is on
        // rank 3 (row 5), the pawn on rank 4, its origin on rank 2; and vice versa.
        let (ep_row, victim, origin) = if b.stm == BLACK {
            (5, ep.wrapping_sub(16), ep + 16)
        } else {
            (2, ep + 16, ep.wrapping_sub(16))
        };
        let mover = b.stm ^ 1;
        let ok = col(ep) < 8
            && row(ep) == ep_row
            && b.mailbox[ep] == 0
            && b.mailbox[origin] == 0
            && b.mailbox[victim] == code(mover, PAWN);
        if !ok {
            return Err(err(format!("no double step can have skipped '{}'", fields[3])));
        }
        b.st.ep = ep as u8;
    }
    let num = |i: usize, default: u32| -> Result<u32, PositionError> {
        fields.get(i).map_or(Ok(default), |f| {
            f.parse::<u32>().map_err(|_| err(format!("'{f}' is not a number")))
        })
    };
    b.st.halfmove = num(4, 0)?;
    b.st.fullmove = num(5, 1)?.max(1);
    let mut other = b;
    other.stm ^= 1;
    if other.in_check() {
        return Err(err("the side not to move is in check".into()));
    }
    b.st.hash = b.compute_hash();
    Ok(b)
}

/// Writes the position string of `b`.
pub fn write(b: &Board) -> String {
    let mut rows = Vec::with_capacity(8);
    for y in 0..8 {
        let mut r = String::new();
        let mut empty = 0;
        for x in 0..16 {
            let c = b.mailbox[square(x, y)];
            if c == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                r.push_str(&empty.to_string());
                empty = 0;
            }
            r.push(piece_char(c));
        }
        if empty > 0 {
            r.push_str(&empty.to_string());
        }
        rows.push(r);
    }
    let mut castling: String =
        [(CASTLE_WK, 'K'), (CASTLE_WQ, 'Q'), (CASTLE_BK, 'k'), (CASTLE_BQ, 'q')]
            .iter()
            .filter(|(bit, _)| b.st.castling & bit != 0)
            .map(|&(_, c)| c)
            .collect();
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = if b.st.ep == NO_SQ { "-".to_string() } else { square_name(b.st.ep as usize) };
    let side = if b.stm == WHITE { 'w' } else { 'b' };
    format!("{} {side} {castling} {ep} {} {}", rows.join("/"), b.st.halfmove, b.st.fullmove)
}

/// Draws the board as the two 8×8 halves side by side, each with its own file letters
/// and rank numbers (rank 8 at the top on the left, rank 1' at the top on the right;
/// row ends touch: h1' is next to a8).
pub fn render(b: &Board) -> String {
    let cell = |x: usize, y: usize| {
        let c = b.mailbox[square(x, y)];
        if c == 0 { '.' } else { piece_char(c) }
    };
    let files = "a b c d e f g h";
    let mut out = format!("    {files}         a'b'c'd'e'f'g'h'\n");
    for y in 0..8 {
        let left: Vec<String> = (0..8).map(|x| cell(x, y).to_string()).collect();
        let right: Vec<String> = (8..16).map(|x| cell(x, y).to_string()).collect();
        out.push_str(&format!(
            " {}  {}  |  {}'  {}\n",
            8 - y,
            left.join(" "),
            y + 1,
            right.join(" ")
        ));
    }
    let side = if b.stm == WHITE { "White" } else { "Black" };
    let check = if b.in_check() { " (in check)" } else { "" };
    out.push_str(&format!("{side} to move{check}. Twins: e4 <-> e4'.\n"));
    out.push_str(&format!("Fen: {}\nKey: {:016x}\n", write(b), b.st.hash));
    out
}

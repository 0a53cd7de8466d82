//! The board drawn as text for a person (the `d` command).
//!
//! Rows of the hex grid are offset by half a cell; each edge cell is labelled with the
//! zones it belongs to (junction cells show two). Below row 12 the seam row 1 is drawn
//! again in reverse order, as on the physical strip, so the seam neighbours of a row-12
//! cell are the two cells drawn under it.

use super::board::{BLUE, Mobius, RED};
use super::geometry::{GEOMETRY, ROW_LEN, ROWS, row_start};
use crate::core::{Game, Outcome, Side};

/// Width of the cell area of one line.
const AREA: usize = 46;

fn stone(v: u8) -> char {
    match v {
        RED => 'R',
        BLUE => 'B',
        _ => '.',
    }
}

/// The zones holding `cell`, Red's first, e.g. `R1 B3`.
fn zones(cell: usize) -> String {
    let g = &*GEOMETRY;
    let names: Vec<&str> = (0..2)
        .filter_map(|side| g.zone_of[side][cell].map(|(z, _)| g.zone_names[side][z as usize]))
        .collect();
    names.join(" ")
}

/// One line of cells: `indent` spaces, then the contents one cell every 4 columns.
fn line(label: &str, left: &str, indent: usize, contents: &[char], right: &str) -> String {
    let mut area = " ".repeat(indent);
    let cells: Vec<String> = contents.iter().map(char::to_string).collect();
    area.push_str(&cells.join("   "));
    format!("{label:>3} {left:<5} | {area:<AREA$}| {right}").trim_end().to_string()
}

/// Draws `pos`.
pub fn draw(pos: &Mobius) -> String {
    let cells = pos.cells();
    let mut out = String::new();
    let status = match pos.outcome() {
        Some(Outcome::Win(Side::P1)) => "Red (R) has won".to_string(),
        Some(Outcome::Win(Side::P2)) => "Blue (B) has won".to_string(),
        Some(Outcome::Draw) => "drawn".to_string(),
        None if pos.side_to_move() == Side::P1 => "Red (R) to move".to_string(),
        None => "Blue (B) to move".to_string(),
    };
    out.push_str(&format!("Mobius, ply {}: {status}\n", pos.ply()));
    out.push_str("          seam: row 1 joins row 12, reversed (drawn again at the bottom)\n");
    let letters: Vec<char> = "abcdefghijkl".chars().collect();
    out.push_str(&line("", "", 0, &letters, ""));
    out.push('\n');
    for r in 0..ROWS {
        let start = row_start(r);
        let row: Vec<char> = cells[start..start + ROW_LEN[r]].iter().map(|&v| stone(v)).collect();
        let indent = if ROW_LEN[r] == 12 { 0 } else { 2 };
        let last = start + ROW_LEN[r] - 1;
        out.push_str(&line(&(r + 1).to_string(), &zones(start), indent, &row, &zones(last)));
        out.push('\n');
    }
    let mut seam: Vec<char> = cells[..ROW_LEN[0]].iter().map(|&v| stone(v)).collect();
    seam.reverse();
    out.push_str(&line("1~", "", 0, &seam, "(row 1 reversed)"));
    out.push('\n');
    let mut back = letters.clone();
    back.reverse();
    out.push_str(&line("", "", 0, &back, ""));
    out.push('\n');
    out.push_str(&format!("position: {}\n", pos.to_fen()));
    out
}

//! Start setups: 24 letters `B`/`W` for the border squares in the cyclic order of
//! [`BORDER_ORDER`], 12 of each colour, never three of one colour in a row round the cycle.

use super::geometry::{BORDER_ORDER, square_name};
use crate::core::Rng;

/// A setup as a 24-bit mask: bit `i` is set when border square `BORDER_ORDER[i]` holds a
/// black marble (clear: white).
pub type SetupMask = u32;

const ALL: u32 = (1 << 24) - 1;

/// The standard start setup `BBWWBBWWBBWWBBWWBBWWBBWW`.
pub const STANDARD_SETUP: SetupMask = 0x33_3333;

/// Rotates a 24-bit cycle so that bit `i` moves to bit `i - 1` (bit 0 wraps to 23).
fn rot(m: u32) -> u32 {
    ((m >> 1) | (m << 23)) & ALL
}

/// The positions `i` where `i`, `i+1`, `i+2` (cyclically) hold one colour.
fn triples(mask: SetupMask) -> u32 {
    let (b, w) = (mask & ALL, !mask & ALL);
    (b & rot(b) & rot(rot(b))) | (w & rot(w) & rot(rot(w)))
}

/// True for a legal setup: 12 marbles of each colour, no three in a row round the cycle.
pub fn is_valid_setup(mask: SetupMask) -> bool {
    mask & !ALL == 0 && mask.count_ones() == 12 && triples(mask) == 0
}

/// Reads a setup string, or says what is wrong with it.
pub fn parse_setup(s: &str) -> Result<SetupMask, String> {
    if s.len() != 24 {
        return Err(format!("the setup '{s}' needs 24 letters B/W, not {}", s.chars().count()));
    }
    let mut mask: SetupMask = 0;
    for (i, c) in s.chars().enumerate() {
        match c {
            'B' => mask |= 1 << i,
            'W' => {}
            _ => return Err(format!("the setup '{s}' has '{c}': only B and W are allowed")),
        }
    }
    let black = mask.count_ones();
    if black != 12 {
        return Err(format!(
            "the setup '{s}' has {black} black and {} white marbles, not 12 of each",
            24 - black
        ));
    }
    let t = triples(mask);
    if t != 0 {
        let i = t.trailing_zeros() as usize;
        let names: Vec<String> = (0..3).map(|j| square_name(BORDER_ORDER[(i + j) % 24])).collect();
        return Err(format!(
            "the setup '{s}' has three {} marbles in a row on {} (the border is a cycle)",
            if mask & 1 << i != 0 { "black" } else { "white" },
            names.join(" ")
        ));
    }
    Ok(mask)
}

/// The setup string of `mask`.
pub fn setup_string(mask: SetupMask) -> String {
    (0..24).map(|i| if mask & 1 << i != 0 { 'B' } else { 'W' }).collect()
}

/// A setup drawn uniformly among all legal setups: a uniformly random colouring with 12
/// of each colour, redrawn until legal (rejection keeps it uniform; about 1 in 67 passes).
pub fn random_setup(rng: &mut Rng) -> SetupMask {
    let mut colours = [false; 24];
    colours[..12].iter_mut().for_each(|c| *c = true);
    loop {
        rng.shuffle(&mut colours);
        let mask = colours.iter().enumerate().fold(0, |m, (i, &b)| m | (b as u32) << i);
        if is_valid_setup(mask) {
            return mask;
        }
    }
}

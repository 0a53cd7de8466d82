//! The Morpiae position string: `<side> <circles> <lines> <red> <green>`.
//!
//! - `side`: `r` (Red, player 1) or `g` (Green, player 2) to move.
//! - `circles`: the circles drawn before any line: `cross` (the 36 circles of the Greek
//!   cross), `cross;x,y;…` (the cross and more circles), `x,y;x,y;…` or `-` (none).
//! - `lines`: the lines in the order they were drawn, each as the move that drew it
//!   (`x,y,D,k`), separated by `;`, or `-`. Each must be legal when its turn comes
//!   (its new point empty, the four others circles, no forbidden overlap).
//! - `red`, `green`: the circles coloured by each player, `x,y;…` or `-`. A circle is
//!   coloured exactly when it is crossed in all four directions.
//!
//! Example, after Red's first move: `g cross 4,3,H,4 - -`. The start: `r cross - - -`.
//! Coordinates in a position string must lie in −[`LIMIT`]…[`LIMIT`] (far beyond any
//! real game, which fits in 32×32 around the cross).

use std::collections::BTreeSet;

use super::board::{greek_cross, key_line, key_owner};
use super::notation::{coord, parse_syntax};
use super::options::MorpiaeOptions;
use super::position::Morpiae;
use crate::core::{PositionError, Side};

/// Largest absolute coordinate accepted in a position string.
pub const LIMIT: i32 = 500;

fn err(msg: String) -> PositionError {
    PositionError(msg)
}

fn point(text: &str) -> Result<(i32, i32), PositionError> {
    let (x, y) = text
        .split_once(',')
        .and_then(|(x, y)| Some((coord(x)?, coord(y)?)))
        .ok_or_else(|| err(format!("'{text}' is not a point x,y")))?;
    check_bound(x, y)?;
    Ok((x, y))
}

fn check_bound(x: i32, y: i32) -> Result<(), PositionError> {
    if x.abs() > LIMIT || y.abs() > LIMIT {
        return Err(err(format!(
            "point {x},{y} lies beyond the engine's bound: coordinates must be in -{LIMIT}..{LIMIT}"
        )));
    }
    Ok(())
}

fn points(field: &str) -> Result<Vec<(i32, i32)>, PositionError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    field.split(';').map(point).collect()
}

/// Reads a position string under the given rules.
pub fn read(s: &str, opts: &MorpiaeOptions) -> Result<Morpiae, PositionError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [side, circles, lines, red, green] = fields[..] else {
        return Err(err(format!(
            "'{s}': expected 5 fields <side> <circles> <lines> <red> <green>, e.g. 'r cross - - -'"
        )));
    };
    let stm = match side {
        "r" => Side::P1,
        "g" => Side::P2,
        _ => return Err(err(format!("side to move must be r or g, not '{side}'"))),
    };
    let mut base = Vec::new();
    let mut rest = circles;
    if let Some(tail) = circles.strip_prefix("cross") {
        base = greek_cross();
        rest = match tail.strip_prefix(';') {
            Some(t) => t,
            None if tail.is_empty() => "-",
            None => return Err(err(format!("bad circles field '{circles}'"))),
        };
    }
    base.extend(points(rest)?);
    let mut pos = Morpiae::with_circles(&base, opts);
    pos.stm = stm;
    if lines != "-" {
        for text in lines.split(';') {
            let mv = parse_syntax(text).map_err(|e| err(format!("line '{text}': {e}")))?;
            for i in 0..5 {
                let (x, y) = mv.point(i);
                check_bound(x, y)?;
            }
            let (sx, sy) = mv.start();
            if pos.drawing.line_move(sx, sy, mv.dir) != Some(mv) {
                return Err(err(format!(
                    "line {text} cannot be drawn after the circles and lines before it \
                     (its new point must be empty, the other four circles, no overlap)"
                )));
            }
            pos.drawing.add_circle(mv.x, mv.y);
            pos.drawing.stroke(sx, sy, mv.dir);
            pos.hash ^= super::board::key_circle(mv.x, mv.y) ^ key_line(sx, sy, mv.dir);
            pos.lines.push(mv);
        }
    }
    for (side, field) in [(Side::P1, red), (Side::P2, green)] {
        for (x, y) in points(field)? {
            if !pos.drawing.is_circle(x, y) {
                return Err(err(format!("coloured point {x},{y} is not a circle")));
            }
            if pos.drawing.owner(x, y).is_some() {
                return Err(err(format!("circle {x},{y} is coloured twice")));
            }
            if !pos.drawing.crossed_all(x, y) {
                return Err(err(format!(
                    "circle {x},{y} is coloured but not crossed in all four directions"
                )));
            }
            pos.drawing.set_owner(x, y, side, true);
            pos.colours[side.index()] += 1;
            pos.hash ^= key_owner(x, y, side);
        }
    }
    let uncoloured = pos.drawing.grid.drawn().find(|&(x, y, _)| {
        pos.drawing.is_circle(x, y)
            && pos.drawing.owner(x, y).is_none()
            && pos.drawing.crossed_all(x, y)
    });
    if let Some((x, y, _)) = uncoloured {
        return Err(err(format!(
            "circle {x},{y} is crossed in all four directions but has no colour"
        )));
    }
    if stm == Side::P2 {
        pos.hash ^= super::board::KEY_P2;
    }
    pos.refresh_moves();
    Ok(pos)
}

fn join(points: impl IntoIterator<Item = (i32, i32)>) -> String {
    let text: Vec<String> = points.into_iter().map(|(x, y)| format!("{x},{y}")).collect();
    if text.is_empty() { "-".to_string() } else { text.join(";") }
}

/// Writes the position string of `pos`.
pub fn write(pos: &Morpiae) -> String {
    let d = &pos.drawing;
    let new_points: BTreeSet<(i32, i32)> = pos.lines.iter().map(|m| (m.x, m.y)).collect();
    // Sorted by (y, x) through the grid's order; re-sort by (x, y) for the string.
    let mut base: Vec<(i32, i32)> = d
        .grid
        .drawn()
        .filter(|&(x, y, _)| d.is_circle(x, y) && !new_points.contains(&(x, y)))
        .map(|(x, y, _)| (x, y))
        .collect();
    base.sort_unstable();
    let cross: BTreeSet<(i32, i32)> = greek_cross().into_iter().collect();
    let circles = if cross.iter().all(|p| base.binary_search(p).is_ok()) {
        let extra: Vec<(i32, i32)> = base.into_iter().filter(|p| !cross.contains(p)).collect();
        if extra.is_empty() { "cross".to_string() } else { format!("cross;{}", join(extra)) }
    } else {
        join(base)
    };
    let lines = if pos.lines.is_empty() {
        "-".to_string()
    } else {
        pos.lines.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(";")
    };
    let owned = |side: Side| {
        let mut v: Vec<(i32, i32)> = d
            .grid
            .drawn()
            .filter(|&(x, y, _)| d.owner(x, y) == Some(side))
            .map(|(x, y, _)| (x, y))
            .collect();
        v.sort_unstable();
        join(v)
    };
    let side = if pos.stm == Side::P1 { "r" } else { "g" };
    format!("{side} {circles} {lines} {} {}", owned(Side::P1), owned(Side::P2))
}

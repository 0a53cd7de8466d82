//! The drawing as text (the `d` command): lattice points two columns and two rows
//! apart, strokes between them (`-` H, `|` V, `/` D, `\` A, `X` where D and A cross),
//! `o` an uncoloured circle, `R`/`G` a red/green one, `*` the circle drawn last,
//! `.` an empty point.

use super::notation::DIRS;
use super::position::Morpiae;
use crate::core::{Game, Side};

/// Draws `pos` for a person, with coordinates on the left and at the bottom.
pub fn render(pos: &Morpiae) -> String {
    let d = pos.drawing();
    let circles: Vec<(i32, i32)> =
        d.grid.drawn().filter(|&(x, y, _)| d.is_circle(x, y)).map(|(x, y, _)| (x, y)).collect();
    let first = circles.first().copied().unwrap_or((0, 0));
    let (mut x0, mut x1, mut y0, mut y1) = (first.0, first.0, first.1, first.1);
    for &(x, y) in &circles {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    let (x0, x1, y0, y1) = (x0 - 1, x1 + 1, y0 - 1, y1 + 1);
    let cols = (2 * (x1 - x0) + 1) as usize;
    let rows = (2 * (y1 - y0) + 1) as usize;
    let mut canvas = vec![vec![' '; cols]; rows];
    let at = |x: i32, y: i32| ((2 * (y1 - y)) as usize, (2 * (x - x0)) as usize);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (r, c) = at(x, y);
            canvas[r][c] = '.';
        }
    }
    for y in y0..=y1 {
        for x in x0..=x1 {
            for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
                if !d.segment(x, y, dir) {
                    continue;
                }
                let (r, c) = at(x, y);
                let (r, c) = ((r as i32 - dy) as usize, c + dx as usize);
                let stroke = ['-', '|', '/', '\\'][dir];
                let cell = &mut canvas[r][c];
                *cell = if *cell == ' ' || *cell == stroke { stroke } else { 'X' };
            }
        }
    }
    for &(x, y) in &circles {
        let (r, c) = at(x, y);
        canvas[r][c] = match d.owner(x, y) {
            Some(Side::P1) => 'R',
            Some(Side::P2) => 'G',
            None => 'o',
        };
    }
    if let Some(last) = pos.lines().last()
        && d.owner(last.x, last.y).is_none()
    {
        let (r, c) = at(last.x, last.y);
        canvas[r][c] = '*';
    }
    let mut out = String::new();
    for (r, row) in canvas.iter().enumerate() {
        let label = if r % 2 == 0 { format!("{:>4} ", y1 - r as i32 / 2) } else { String::new() };
        let line: String = row.iter().collect();
        let line = format!("{label:5}{line}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut axis = String::from("     ");
    for x in x0..=x1 {
        axis.push_str(&format!("{:<2}", x.rem_euclid(10)));
    }
    out.push_str(axis.trim_end());
    out.push_str(&format!("   (x = {x0}..{x1}, last digit)\n"));
    let side = if pos.side_to_move() == Side::P1 { "Red" } else { "Green" };
    out.push_str(&format!(
        "Variant {}  Red {}  Green {}  lines {}  legal {}  {} to move\n",
        pos.variant().name(),
        pos.colours(Side::P1),
        pos.colours(Side::P2),
        pos.lines().len(),
        pos.legal_moves().len(),
        side
    ));
    out.push_str(&format!("Position: {}\n", pos.to_fen()));
    out
}

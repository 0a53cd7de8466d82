//! The board of Mobius as data: row lengths, seam links and border zones, from which the
//! cell names, neighbour lists and zone memberships are derived once.
//!
//! The board is a reconstruction (see `shared/rules/mobius.md`): if Steere's original
//! diagram turns up, only the three tables [`ROW_LEN`], [`SEAM`] and [`ZONES`] change.
//!
//! Seam crossings carry a signed *winding*: stepping from row 12 across the seam into row 1
//! counts +1, the other way −1. A cycle's total winding is its homotopy class on the strip
//! (0: contractible; odd: once round; even, non-zero: round twice, parallel to the edge).

use std::sync::LazyLock;

/// Number of cells.
pub const CELLS: usize = 138;
/// Number of rows.
pub const ROWS: usize = 12;
/// Cells per row, top row (row 1, the seam row) first.
pub const ROW_LEN: [usize; ROWS] = [12, 11, 12, 11, 12, 11, 12, 11, 12, 11, 12, 11];
/// Column letters.
const LETTERS: &[u8; 12] = b"abcdefghijkl";

/// Cells joined across the seam, as `row-1 cell - row-12 cell`: (0, c) touches
/// (11, 10 − c) and (11, 11 − c).
pub const SEAM: &str = "a1-k12 b1-j12 b1-k12 c1-i12 c1-j12 d1-h12 d1-i12 e1-g12 e1-h12 f1-f12 \
    f1-g12 g1-e12 g1-f12 h1-d12 h1-e12 i1-c12 i1-d12 j1-b12 j1-c12 k1-a12 k1-b12 l1-a12";

/// Border zones in the order of their bit in zone masks: name, owner (0 Red = player 1,
/// 1 Blue = player 2) and cells in order along the edge. Consecutive cells that are a
/// seam link give the later cells a winding relative to the first.
pub const ZONES: [(&str, usize, &str); 6] = [
    ("R1", 0, "a1 a2 a3 a4 a5"),
    ("R2", 0, "a9 a10 a11 a12 l1"),
    ("R3", 0, "l5 k6 l7 k8 l9"),
    ("B1", 1, "a5 a6 a7 a8 a9"),
    ("B2", 1, "l1 k2 l3 k4 l5"),
    ("B3", 1, "l9 k10 l11 k12 a1"),
];

/// One neighbour of a cell: its index and the winding of the step to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub to: u8,
    pub wind: i8,
}

/// The geometry derived from the tables.
pub struct Geometry {
    /// Cell names in index order (row 1 left to right, then row 2, …).
    pub names: Vec<String>,
    /// Neighbours of each cell (2 to 6).
    pub links: Vec<Vec<Link>>,
    /// Per player and cell: the zone of that player holding the cell, as
    /// `(zone 0..3, winding of the cell relative to the zone's first cell)`.
    pub zone_of: [[Option<(u8, i8)>; CELLS]; 2],
    /// Per player: the names of their three zones.
    pub zone_names: [[&'static str; 3]; 2],
}

/// The first cell index of each row.
pub fn row_start(row: usize) -> usize {
    ROW_LEN[..row].iter().sum()
}

/// Row (0-based, top first) and column (0 = `a`) of a cell index.
pub fn row_col(cell: usize) -> (usize, usize) {
    let mut r = 0;
    while cell >= row_start(r) + ROW_LEN[r] {
        r += 1;
    }
    (r, cell - row_start(r))
}

/// The index of the cell at `(row, col)`, if there is one (no seam wrap).
fn at(row: isize, col: isize) -> Option<usize> {
    let r = usize::try_from(row).ok().filter(|&r| r < ROWS)?;
    let c = usize::try_from(col).ok().filter(|&c| c < ROW_LEN[r])?;
    Some(row_start(r) + c)
}

/// The index of a cell name such as `f7`, if it names a cell.
pub fn parse_cell(name: &str) -> Option<usize> {
    let bytes = name.as_bytes();
    let letter = *bytes.first()?;
    let col = LETTERS.iter().position(|&l| l == letter)?;
    let digits = name.get(1..)?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    at(row as isize - 1, col as isize)
}

fn name_of(cell: usize) -> String {
    let (r, c) = row_col(cell);
    format!("{}{}", LETTERS[c] as char, r + 1)
}

fn cell(name: &str) -> usize {
    parse_cell(name).unwrap_or_else(|| panic!("bad cell name '{name}' in the geometry tables"))
}

/// The geometry, built on first use.
pub static GEOMETRY: LazyLock<Geometry> = LazyLock::new(build);

fn build() -> Geometry {
    let names: Vec<String> = (0..CELLS).map(name_of).collect();
    let mut links: Vec<Vec<Link>> = vec![Vec::new(); CELLS];
    for (i, cell_links) in links.iter_mut().enumerate() {
        let (r, c) = row_col(i);
        let (r, c) = (r as isize, c as isize);
        // Rows of 12 cells (r even) sit half a cell left of the 11-cell rows around them.
        let d = if r % 2 == 0 { -1 } else { 0 };
        let around = [(r, c - 1), (r, c + 1), (r - 1, c + d), (r - 1, c + d + 1)];
        let below = [(r + 1, c + d), (r + 1, c + d + 1)];
        for (rr, cc) in around.into_iter().chain(below) {
            if let Some(j) = at(rr, cc) {
                cell_links.push(Link { to: j as u8, wind: 0 });
            }
        }
    }
    for pair in SEAM.split_whitespace() {
        let (top, bottom) = pair.split_once('-').expect("seam link a-b");
        let (top, bottom) = (cell(top), cell(bottom));
        assert!(row_col(top).0 == 0 && row_col(bottom).0 == ROWS - 1, "seam joins rows 1, 12");
        links[bottom].push(Link { to: top as u8, wind: 1 });
        links[top].push(Link { to: bottom as u8, wind: -1 });
    }
    let mut zone_of = [[None; CELLS]; 2];
    let mut zone_names = [[""; 3]; 2];
    let mut count = [0u8; 2];
    for (zname, owner, cells) in ZONES {
        let z = count[owner];
        zone_names[owner][z as usize] = zname;
        count[owner] += 1;
        let mut wind = 0i8;
        let mut prev: Option<usize> = None;
        for name in cells.split_whitespace() {
            let c = cell(name);
            if let Some(p) = prev {
                let step = links[p].iter().find(|l| l.to as usize == c);
                wind += step.expect("zone cells are consecutive neighbours").wind;
            }
            assert!(zone_of[owner][c].is_none(), "a cell is in one zone of each player");
            zone_of[owner][c] = Some((z, wind));
            prev = Some(c);
        }
    }
    assert_eq!(count, [3, 3], "three zones per player");
    Geometry { names, links, zone_of, zone_names }
}

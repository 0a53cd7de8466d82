//! The Morris position: men on points as bitmasks, men in hand, side to move, the
//! counters of the draw rules and the hashes of earlier positions.

use std::sync::LazyLock;

use super::notation::{MorrisMove, NAMES, NONE, POINTS, parse_syntax};
use super::options::MorrisOptions;
use crate::core::{
    EndReason, Ending, Game, MoveError, Outcome, PositionError, Reversible, Rng, Side,
    compress_rank,
};

/// Points per rank of the position string, top rank first.
const RANK_SIZES: [usize; 7] = [3, 3, 3, 6, 3, 3, 3];

const LINES: &str = "a1-d1 d1-g1 g1-g4 g4-g7 g7-d7 d7-a7 a7-a4 a4-a1 \
    b2-d2 d2-f2 f2-f4 f4-f6 f6-d6 d6-b6 b6-b4 b4-b2 \
    c3-d3 d3-e3 e3-e4 e4-e5 e5-d5 d5-c5 c5-c4 c4-c3 \
    a4-b4 b4-c4 e4-f4 f4-g4 d1-d2 d2-d3 d5-d6 d6-d7";

const MILLS: &str = "a1 d1 g1,b2 d2 f2,c3 d3 e3,a4 b4 c4,e4 f4 g4,c5 d5 e5,b6 d6 f6,\
    a7 d7 g7,a1 a4 a7,b2 b4 b6,c3 c4 c5,d1 d2 d3,d5 d6 d7,e3 e4 e5,f2 f4 f6,g1 g4 g7";

/// The points ring by ring (outer, middle, inner), each clockwise from its top left
/// corner, so that in a *ring mask* (bit `8·r + i` for the `i`-th point of ring `r`) a
/// point's neighbours on its ring are the bits beside it (cyclically within the byte) and
/// the odd bits (the middles of the sides) join the same bit of the next ring.
const RINGS: &str = "a7 d7 g7 g4 g1 d1 a1 a4 b6 d6 f6 f4 f2 d2 b2 b4 c5 d5 e5 e4 e3 d3 c3 c4";

/// The middles of the sides in a ring mask: the points joined to the next ring.
const RING_MIDDLES: u32 = 0x00aa_aaaa;

/// Board geometry derived once from the spec's lists of lines and mills.
struct Tables {
    /// Points adjacent to each point.
    adjacent: [u32; POINTS],
    /// The neighbours of every 8-point slice of the board (bits `8·k` to `8·k + 7`), by
    /// the slice's bits.
    neighbours: [[u32; 256]; 3],
    /// The ring mask ([`RINGS`]) of every 8-point slice of the board, by its bits.
    to_ring: [[u32; 256]; 3],
    /// The two mills through each point, as masks of all three points.
    mills_through: [[u32; 2]; POINTS],
    /// All 16 mills.
    mills: Vec<u32>,
    /// Zobrist keys: men per side and point, men in hand per side and count, side to move.
    z_men: [[u64; POINTS]; 2],
    z_hand: [[u64; 10]; 2],
    z_p2: u64,
}

fn idx(name: &str) -> usize {
    NAMES.iter().position(|&n| n == name).expect("point name of the tables")
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut adjacent = [0u32; POINTS];
    for line in LINES.split_whitespace() {
        let (a, b) = line.split_once('-').expect("line a-b");
        let (a, b) = (idx(a), idx(b));
        adjacent[a] |= 1 << b;
        adjacent[b] |= 1 << a;
    }
    let slices = |of_point: &dyn Fn(usize) -> u32| {
        let mut t = [[0u32; 256]; 3];
        for (slice, table) in t.iter_mut().enumerate() {
            for (byte, mask) in table.iter_mut().enumerate() {
                *mask = bits((byte as u32) << (8 * slice)).fold(0, |acc, p| acc | of_point(p));
            }
        }
        t
    };
    let neighbours = slices(&|p| adjacent[p]);
    let ring: Vec<usize> = RINGS.split_whitespace().map(idx).collect();
    assert_eq!(ring.len(), POINTS, "every point on a ring");
    let to_ring = slices(&|p| 1 << ring.iter().position(|&q| q == p).expect("point on a ring"));
    let mills: Vec<u32> = MILLS
        .split(',')
        .map(|m| m.split_whitespace().fold(0u32, |acc, p| acc | 1 << idx(p)))
        .collect();
    let mut mills_through = [[0u32; 2]; POINTS];
    for (p, slot) in mills_through.iter_mut().enumerate() {
        let through: Vec<u32> = mills.iter().copied().filter(|m| m & (1 << p) != 0).collect();
        assert_eq!(through.len(), 2, "every point lies on two mills");
        *slot = [through[0], through[1]];
    }
    // Fixed keys from the project's seeded RNG: identical on every run.
    let mut rng = crate::core::Rng::new(0x9E37_79B9_7F4A_7C15u64);
    let mut next = move || rng.next_u64();
    let mut z_men = [[0u64; POINTS]; 2];
    let mut z_hand = [[0u64; 10]; 2];
    for side in 0..2 {
        z_men[side].iter_mut().for_each(|k| *k = next());
        z_hand[side].iter_mut().for_each(|k| *k = next());
    }
    Tables { adjacent, neighbours, to_ring, mills_through, mills, z_men, z_hand, z_p2: next() }
});

/// A Morris position. Player 1 is White.
#[derive(Clone, Debug)]
pub struct Morris {
    /// Men on the board per side, bit `i` for point `i`.
    men: [u32; 2],
    /// Men in hand per side.
    hand: [u8; 2],
    stm: Side,
    /// Plies without a capture since the last placement or capture.
    quiet_plies: u32,
    hash: u64,
    /// Hashes of the earlier positions of the game, oldest first.
    history: Vec<u64>,
    /// Index in `history` of the first position after the last irreversible move.
    reversible_from: usize,
    opts: MorrisOptions,
}

/// What [`Morris::unplay`] needs to restore a position.
#[derive(Clone, Copy, Debug)]
pub struct MorrisUndo {
    quiet_plies: u32,
    hash: u64,
    reversible_from: usize,
}

impl PartialEq for Morris {
    /// Positions are equal when their rules-relevant state is (history aside).
    fn eq(&self, o: &Self) -> bool {
        self.men == o.men
            && self.hand == o.hand
            && self.stm == o.stm
            && self.quiet_plies == o.quiet_plies
            && self.opts == o.opts
    }
}

impl Morris {
    /// An empty board with the given men in hand.
    fn empty(opts: &MorrisOptions, hand: [u8; 2], stm: Side) -> Morris {
        let mut m = Morris {
            men: [0; 2],
            hand,
            stm,
            quiet_plies: 0,
            hash: 0,
            history: Vec::with_capacity(256),
            reversible_from: 0,
            opts: *opts,
        };
        m.hash = m.compute_hash();
        m
    }

    /// A movement-phase position (both hands empty) with the men `men` (White's, Black's)
    /// and no history: what the endgame databases enumerate. Does not allocate.
    pub fn from_men(opts: &MorrisOptions, men: [u32; 2], stm: Side) -> Morris {
        let mut m = Morris {
            men,
            hand: [0; 2],
            stm,
            quiet_plies: 0,
            hash: 0,
            history: Vec::new(),
            reversible_from: 0,
            opts: *opts,
        };
        m.hash = m.compute_hash();
        m
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let t = &*TABLES;
        let mut h = 0;
        for side in 0..2 {
            for p in bits(self.men[side]) {
                h ^= t.z_men[side][p];
            }
            h ^= t.z_hand[side][self.hand[side] as usize];
        }
        if self.stm == Side::P2 {
            h ^= t.z_p2;
        }
        h
    }

    /// Men on the board of `side`, as a point mask.
    pub fn men(&self, side: Side) -> u32 {
        self.men[side.index()]
    }

    /// Men in hand of `side`.
    pub fn in_hand(&self, side: Side) -> u32 {
        self.hand[side.index()] as u32
    }

    /// The rule options this position is played under.
    pub fn options(&self) -> &MorrisOptions {
        &self.opts
    }

    /// Plies without capture counted by the move-limit draw rule.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    fn empty_points(&self) -> u32 {
        !(self.men[0] | self.men[1]) & ((1 << POINTS) - 1)
    }

    /// Men on board plus in hand.
    fn material(&self, side: usize) -> u32 {
        self.men[side].count_ones() + self.hand[side] as u32
    }

    /// True when `side` (with an empty hand) may fly under the current rules.
    pub fn can_fly(&self, side: Side) -> bool {
        let s = side.index();
        self.opts.flying() && self.hand[s] == 0 && self.men[s].count_ones() == 3
    }

    /// True when the man of `side` on `p` stands in a closed mill.
    pub fn in_mill(&self, men: u32, p: usize) -> bool {
        let [a, b] = TABLES.mills_through[p];
        men & a == a || men & b == b
    }

    /// The enemy men that may be removed after the side to move closes a mill.
    fn removable(&self) -> u32 {
        let enemy = self.men[self.stm.opponent().index()];
        let free = bits(enemy).filter(|&p| !self.in_mill(enemy, p)).fold(0, |a, p| a | 1 << p);
        if free != 0 {
            free
        } else if self.opts.flying() {
            // Standard rules: when every enemy man is in a mill, any of them may go.
            enemy
        } else {
            0
        }
    }

    /// Destinations of the man on `from` (or of a placement when `from` is [`NONE`]).
    fn destinations(&self, from: u8) -> u32 {
        if from == NONE || self.can_fly(self.stm) {
            self.empty_points()
        } else {
            TABLES.adjacent[from as usize] & self.empty_points()
        }
    }

    /// Pushes the move `from`→`to`, expanded by every removal when it closes a mill.
    fn push_with_removals(&self, from: u8, to: u8, removable: u32, out: &mut Vec<MorrisMove>) {
        let own = self.men[self.stm.index()];
        let after = if from == NONE { own } else { own & !(1 << from) } | 1 << to;
        if self.in_mill(after, to as usize) && removable != 0 {
            out.extend(bits(removable).map(|c| MorrisMove { from, to, capture: c as u8 }));
        } else {
            out.push(MorrisMove { from, to, capture: NONE });
        }
    }

    /// Every placement or step, ignoring whether the game is over.
    fn generate_unchecked(&self, out: &mut Vec<MorrisMove>) {
        let s = self.stm.index();
        let removable = self.removable();
        if self.hand[s] > 0 {
            for to in bits(self.empty_points()) {
                self.push_with_removals(NONE, to as u8, removable, out);
            }
        } else {
            for from in bits(self.men[s]) {
                for to in bits(self.destinations(from as u8)) {
                    self.push_with_removals(from as u8, to as u8, removable, out);
                }
            }
        }
    }

    /// True when the side to move has a legal placement or step.
    fn has_any_move(&self) -> bool {
        let s = self.stm.index();
        if self.hand[s] > 0 || self.can_fly(self.stm) {
            return self.empty_points() != 0;
        }
        bits(self.men[s]).any(|p| TABLES.adjacent[p] & self.empty_points() != 0)
    }

    /// How many times the current position occurred, this one included. Only positions
    /// an even number of plies back can be equal (the side to move is part of it).
    pub fn occurrences(&self) -> usize {
        let earlier = &self.history[self.reversible_from..];
        1 + earlier.iter().rev().skip(1).step_by(2).filter(|&&h| h == self.hash).count()
    }

    /// Number of legal steps of `side` if it were to move (0 while it has men in hand).
    pub fn mobility(&self, side: Side) -> u32 {
        let s = side.index();
        if self.hand[s] > 0 {
            return 0;
        }
        let empty = self.empty_points();
        if self.opts.flying() && self.men[s].count_ones() == 3 {
            return 3 * empty.count_ones();
        }
        bits(self.men[s]).map(|p| (TABLES.adjacent[p] & empty).count_ones()).sum()
    }

    /// Adjacency mask of point `p`.
    pub fn adjacent(p: usize) -> u32 {
        TABLES.adjacent[p]
    }

    /// All points adjacent to some point of `mask`.
    pub fn neighbours(mask: u32) -> u32 {
        by_slices(&TABLES.neighbours, mask)
    }

    /// The steps the men `men` have to the empty points `empty`: the pairs of adjacent
    /// points, one in each mask (a man next to two empty points counts twice). Counted
    /// on ring masks (the rings as bytes of a `u32`): four shifts and four popcounts.
    #[inline]
    pub fn steps(men: u32, empty: u32) -> u32 {
        let ring = |m| by_slices(&TABLES.to_ring, m);
        let (men, empty) = (ring(men), ring(empty));
        let left = (empty << 1 & 0x00fe_fefe) | (empty >> 7 & 0x0001_0101);
        let right = (empty >> 1 & 0x007f_7f7f) | (empty << 7 & 0x0080_8080);
        let outer = empty >> 8 & RING_MIDDLES;
        let inner = empty << 8 & RING_MIDDLES;
        (men & left).count_ones()
            + (men & right).count_ones()
            + (men & outer).count_ones()
            + (men & inner).count_ones()
    }

    /// All 16 mills as point masks.
    pub fn mills() -> &'static [u32] {
        &TABLES.mills
    }
}

/// The union of a table's masks for the three 8-point slices of `mask` (a table of
/// [`Tables`] indexed by slice and the slice's bits).
fn by_slices(table: &[[u32; 256]; 3], mask: u32) -> u32 {
    table[0][(mask & 0xff) as usize]
        | table[1][(mask >> 8 & 0xff) as usize]
        | table[2][(mask >> 16 & 0xff) as usize]
}

/// The indices of the set bits of `mask`, lowest first.
pub fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

impl Game for Morris {
    type Move = MorrisMove;
    type Options = MorrisOptions;
    const NAME: &'static str = "morris";

    fn startpos(opts: &MorrisOptions) -> Morris {
        Morris::empty(opts, [9, 9], Side::P1)
    }

    /// A movement-phase position (both hands empty) with `men` (3 to 9) men per side on
    /// random points, either side to move, drawn again while the side to move is blocked
    /// or either side could remove a man with its next move (such positions are mostly
    /// decided at once).
    fn random_endgame(opts: &MorrisOptions, men: usize, rng: &mut Rng) -> Option<Morris> {
        if !(3..=9).contains(&men) {
            return None;
        }
        loop {
            let mut all = [0u32; 2];
            for side in 0..2 {
                while all[side].count_ones() < men as u32 {
                    all[side] |= 1 << rng.below(POINTS) & !all[1 - side];
                }
            }
            let stm = if rng.below(2) == 0 { Side::P1 } else { Side::P2 };
            let pos = Morris::from_men(opts, all, stm);
            let other = Morris::from_men(opts, all, stm.opponent());
            let mut moves = Vec::new();
            let quiet = |p: &Morris, moves: &mut Vec<MorrisMove>| {
                moves.clear();
                p.generate_moves(moves);
                moves.iter().all(|m| m.captured().is_none())
            };
            if pos.outcome().is_none() && quiet(&pos, &mut moves) && quiet(&other, &mut moves) {
                return Some(pos);
            }
        }
    }

    /// Reads `<ranks> <w|b> <white hand> <black hand> <quiet plies>`, ranks from 7 down to
    /// 1 separated by `/`, each point `W`, `B` or a digit counting empty points.
    fn from_fen(s: &str, opts: &MorrisOptions) -> Result<Morris, PositionError> {
        let err = |m: &str| PositionError(format!("{m} in '{s}'"));
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(err("expected 5 fields: board, side, white hand, black hand, quiet plies"));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 7 {
            return Err(err("the board needs 7 ranks separated by '/'"));
        }
        let mut men = [0u32; 2];
        let mut p = 0;
        for (rank, &size) in ranks.iter().zip(RANK_SIZES.iter()) {
            let start = p;
            for c in rank.chars() {
                match c {
                    'W' | 'B' => {
                        if p - start >= size {
                            return Err(err("a rank has too many points"));
                        }
                        men[(c == 'B') as usize] |= 1 << p;
                        p += 1;
                    }
                    '1'..='6' => p += c as usize - '0' as usize,
                    _ => return Err(err(&format!("unexpected '{c}' on the board"))),
                }
                if p - start > size {
                    return Err(err("a rank has too many points"));
                }
            }
            if p - start != size {
                return Err(err("a rank has too few points"));
            }
        }
        let stm = match fields[1] {
            "w" => Side::P1,
            "b" => Side::P2,
            _ => return Err(err("side to move must be 'w' or 'b'")),
        };
        let hand_of = |f: &str| f.parse::<u8>().ok().filter(|&h| h <= 9);
        let (Some(wh), Some(bh)) = (hand_of(fields[2]), hand_of(fields[3])) else {
            return Err(err("men in hand must be 0..9"));
        };
        let quiet: u32 = fields[4].parse().map_err(|_| err("quiet plies must be a number"))?;
        for (side, h) in [(0, wh), (1, bh)] {
            if men[side].count_ones() + h as u32 > 9 {
                return Err(err("a side has more than 9 men"));
            }
        }
        if (wh > 0 || bh > 0) && quiet > 0 {
            return Err(err("quiet plies count only once both hands are empty"));
        }
        if (0..2).all(|side| men[side].count_ones() + [wh, bh][side] as u32 <= 2) {
            return Err(err("both sides have two men or fewer: no game reaches this"));
        }
        let mut m = Morris::empty(opts, [wh, bh], stm);
        m.men = men;
        m.quiet_plies = quiet;
        m.hash = m.compute_hash();
        Ok(m)
    }

    fn to_fen(&self) -> String {
        let mut ranks = Vec::new();
        let mut p = 0;
        for size in RANK_SIZES {
            let r = compress_rank((p..p + size).map(|q| {
                if self.men[0] & 1 << q != 0 {
                    Some('W')
                } else if self.men[1] & 1 << q != 0 {
                    Some('B')
                } else {
                    None
                }
            }));
            ranks.push(r);
            p += size;
        }
        let side = if self.stm == Side::P1 { 'w' } else { 'b' };
        format!("{} {side} {} {} {}", ranks.join("/"), self.hand[0], self.hand[1], self.quiet_plies)
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, out: &mut Vec<MorrisMove>) {
        if self.outcome().is_none() {
            self.generate_unchecked(out);
        }
    }

    fn parse_move(&self, s: &str) -> Result<MorrisMove, MoveError> {
        let mv = parse_syntax(s)?;
        let illegal = |why: &str| Err(MoveError::Illegal(format!("'{s}': {why}")));
        if self.outcome().is_some() {
            return illegal("the game is over");
        }
        let own = self.men[self.stm.index()];
        let in_hand = self.hand[self.stm.index()] > 0;
        if mv.is_placement() != in_hand {
            return illegal(if in_hand {
                "men still in hand: place a man (d6)"
            } else {
                "no men left in hand: move a man (a4-a7)"
            });
        }
        if !mv.is_placement() && own & 1 << mv.from == 0 {
            return illegal("no man of the side to move stands there");
        }
        if self.destinations(mv.from) & 1 << mv.to == 0 {
            return illegal("no such placement or step here");
        }
        // The legal variants of this placement or step: with each removal, or plain.
        let mut variants = Vec::new();
        self.push_with_removals(mv.from, mv.to, self.removable(), &mut variants);
        if variants.contains(&mv) {
            Ok(mv)
        } else if mv.capture == NONE {
            illegal("this move closes a mill: name the man it removes (…xa1)")
        } else {
            illegal("that man cannot be removed (or the move closes no mill)")
        }
    }

    fn play(&mut self, mv: MorrisMove) {
        self.play_reversible(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in [Side::P1, Side::P2] {
            if self.material(side.index()) <= 2 {
                return Some(Outcome::Win(side.opponent()));
            }
        }
        if !self.has_any_move() {
            return Some(Outcome::Win(self.stm.opponent()));
        }
        let rep = self.opts.repetition as usize;
        if rep >= 2 && self.occurrences() >= rep {
            return Some(Outcome::Draw);
        }
        let limit = self.opts.move_limit;
        if limit > 0 && self.quiet_plies >= limit {
            return Some(Outcome::Draw);
        }
        None
    }

    fn ending(&self) -> Option<Ending> {
        let win = |side: Side, reason| Some(Ending { outcome: Outcome::Win(side), reason });
        let draw = |reason| Some(Ending { outcome: Outcome::Draw, reason });
        for side in [Side::P1, Side::P2] {
            if self.material(side.index()) <= 2 {
                return win(side.opponent(), EndReason::TwoMenLeft);
            }
        }
        if !self.has_any_move() {
            return win(self.stm.opponent(), EndReason::Blocked);
        }
        let rep = self.opts.repetition as usize;
        if rep >= 2 && self.occurrences() >= rep {
            return draw(EndReason::Repetition(rep as u32));
        }
        let limit = self.opts.move_limit;
        if limit > 0 && self.quiet_plies >= limit {
            return draw(EndReason::NoCapture(limit));
        }
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        const TEMPLATE: [&str; 14] = [
            "7  o-----o-----o",
            "   |     |     |",
            "6  | o---o---o |",
            "   | |   |   | |",
            "5  | | o-o-o | |",
            "   | | |   | | |",
            "4  o-o-o   o-o-o",
            "   | | |   | | |",
            "3  | | o-o-o | |",
            "   | |   |   | |",
            "2  | o---o---o |",
            "   |     |     |",
            "1  o-----o-----o",
            "   a b c d e f g",
        ];
        let mut p = 0;
        let mut out = String::new();
        for line in TEMPLATE {
            for c in line.chars() {
                if c == 'o' {
                    out.push(if self.men[0] & 1 << p != 0 {
                        'W'
                    } else if self.men[1] & 1 << p != 0 {
                        'B'
                    } else {
                        '.'
                    });
                    p += 1;
                } else {
                    out.push(c);
                }
            }
            out.push('\n');
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::core::perft_reversible(self, depth)
    }
}

impl Reversible for Morris {
    type Undo = MorrisUndo;

    fn play_reversible(&mut self, mv: MorrisMove) -> MorrisUndo {
        let undo = MorrisUndo {
            quiet_plies: self.quiet_plies,
            hash: self.hash,
            reversible_from: self.reversible_from,
        };
        let t = &*TABLES;
        let s = self.stm.index();
        let o = 1 - s;
        self.history.push(self.hash);
        if mv.from == NONE {
            self.hash ^= t.z_hand[s][self.hand[s] as usize];
            self.hand[s] -= 1;
            self.hash ^= t.z_hand[s][self.hand[s] as usize];
        } else {
            self.men[s] &= !(1 << mv.from);
            self.hash ^= t.z_men[s][mv.from as usize];
        }
        self.men[s] |= 1 << mv.to;
        self.hash ^= t.z_men[s][mv.to as usize];
        if mv.capture != NONE {
            self.men[o] &= !(1 << mv.capture);
            self.hash ^= t.z_men[o][mv.capture as usize];
        }
        if mv.from == NONE || mv.capture != NONE {
            // Hands or men only ever decrease: no earlier position can recur.
            self.quiet_plies = 0;
            self.reversible_from = self.history.len();
        } else if self.hand == [0, 0] {
            // The move limit counts from the moment both hands are empty (a step while
            // the opponent still has men in hand leaves the count at 0).
            self.quiet_plies += 1;
        }
        self.stm = self.stm.opponent();
        self.hash ^= t.z_p2;
        debug_assert_eq!(self.hash, self.compute_hash());
        undo
    }

    fn unplay(&mut self, mv: MorrisMove, undo: MorrisUndo) {
        self.stm = self.stm.opponent();
        let s = self.stm.index();
        let o = 1 - s;
        if mv.capture != NONE {
            self.men[o] |= 1 << mv.capture;
        }
        self.men[s] &= !(1 << mv.to);
        if mv.from == NONE {
            self.hand[s] += 1;
        } else {
            self.men[s] |= 1 << mv.from;
        }
        self.history.pop();
        self.quiet_plies = undo.quiet_plies;
        self.hash = undo.hash;
        self.reversible_from = undo.reversible_from;
    }
}

//! Morpiae's network inputs ([`Features`]), 9061 of them, seen by one player (the
//! *perspective*; the side to move is implicit: the network reads the side to move's
//! accumulator first). Only the colours depend on the perspective; the rest is the
//! drawing, which both players share (either may draw any legal line).
//!
//! | features | active when |
//! |---|---|
//! | 0–8711 | the circle at `(x, y)`, both in −6…15 (the cross lies in 0…9), is in state `s`: `18·(22·(y+6) + x+6) + s`; `s` 0–15 uncoloured and crossed in the directions of mask `s` (bit `d` of H, V, D, A), 16 coloured by the perspective, 17 by the opponent |
//! | 8712–8736 | the perspective has coloured `n` circles (0–24, 24 for more) |
//! | 8737–8761 | the opponent has coloured `n` |
//! | 8762–8778 | the perspective leads by `n` circles (−8…8, clamped) |
//! | 8779–8826 | `n` legal lines (0–47, 47 for more): also their parity, who draws last |
//! | 8827–8954 | `n` uncoloured circles are crossed in `k` directions: `32·k + n` (`k` 0–3, `n` 0–31) |
//! | 8955–8959 | the best capture a line makes now colours `n` circles (0–4) |
//! | 8960–8964 | the best capture of another line (0–4) |
//! | 8965–8980 | `n` legal lines capture (0–15) |
//! | 8981–8996 | `n` distinct circles can be coloured by a legal line now (0–15) |
//! | 8997–9060 | `2n` or `2n + 1` lines have been drawn (0–63): the phase |
//!
//! The counts are those of the hand evaluation (`eval.rs`) as one-hots, so the hidden
//! layer can combine them (a lead matters differently with few lines left, and a
//! capture's value depends on who draws last); the circles give it the geometry. No
//! move delta: a line changes the legal lines far from it, so the accumulator is
//! refreshed at each evaluation.

use super::position::Morpiae;
use crate::core::Side;
use crate::search::nnue::Features;

/// Lowest coordinate of the window of circles the network sees.
const LOW: i32 = -6;
/// Side of that window.
const SPAN: i32 = 22;
/// States of a circle: 16 crossing masks, coloured by the perspective, by the opponent.
const STATES: u32 = 18;

/// First feature of each group (see the module doc).
const CELL: u32 = 0;
const OWN_COLOURS: u32 = CELL + (SPAN * SPAN) as u32 * STATES;
const THEIR_COLOURS: u32 = OWN_COLOURS + 25;
const LEAD: u32 = THEIR_COLOURS + 25;
const LINES: u32 = LEAD + 17;
const OPEN: u32 = LINES + 48;
const BEST_CAPTURE: u32 = OPEN + 4 * 32;
const SECOND_CAPTURE: u32 = BEST_CAPTURE + 5;
const CAPTURING_LINES: u32 = SECOND_CAPTURE + 5;
const CAPTURABLE: u32 = CAPTURING_LINES + 16;
const DRAWN: u32 = CAPTURABLE + 16;
const COUNT: u32 = DRAWN + 64;

/// `n` as an index of a one-hot group of `size` features (the last one for more).
fn bucket(n: u32, size: u32) -> u32 {
    n.min(size - 1)
}

impl Features for Morpiae {
    const FEATURE_COUNT: usize = COUNT as usize;

    fn active_features(&self, perspective: Side, out: &mut Vec<u32>) {
        let drawing = self.drawing();
        for y in LOW..LOW + SPAN {
            for x in LOW..LOW + SPAN {
                if !drawing.is_circle(x, y) {
                    continue;
                }
                let state = match drawing.owner(x, y) {
                    Some(side) if side == perspective => 16,
                    Some(_) => 17,
                    None => u32::from(drawing.crossing_mask(x, y)),
                };
                out.push(CELL + ((y - LOW) * SPAN + x - LOW) as u32 * STATES + state);
            }
        }
        let own = self.colours(perspective);
        let theirs = self.colours(perspective.opponent());
        out.push(OWN_COLOURS + bucket(own, 25));
        out.push(THEIR_COLOURS + bucket(theirs, 25));
        out.push(LEAD + ((own as i32 - theirs as i32).clamp(-8, 8) + 8) as u32);
        out.push(LINES + bucket(self.legal_moves().len() as u32, 48));
        for k in 0..4 {
            out.push(OPEN + 32 * k as u32 + bucket(self.open_circles(k), 32));
        }
        let (mut best, mut second, mut capturing) = (0, 0, 0);
        let mut capturable: Vec<(i32, i32)> = Vec::new();
        if self.open_circles(3) > 0 {
            for &mv in self.legal_moves() {
                let mask = drawing.capture_mask(mv);
                if mask == 0 {
                    continue;
                }
                capturing += 1;
                let n = mask.count_ones();
                if n > best {
                    (best, second) = (n, best);
                } else {
                    second = second.max(n);
                }
                for i in (0..5).filter(|i| mask & 1 << i != 0) {
                    let p = mv.point(i);
                    if !capturable.contains(&p) {
                        capturable.push(p);
                    }
                }
            }
        }
        out.push(BEST_CAPTURE + bucket(best, 5));
        out.push(SECOND_CAPTURE + bucket(second, 5));
        out.push(CAPTURING_LINES + bucket(capturing, 16));
        out.push(CAPTURABLE + bucket(capturable.len() as u32, 16));
        out.push(DRAWN + bucket(self.lines().len() as u32 / 2, 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Reversible, Rng};
    use crate::games::morpiae::{MorpiaeOptions, Variant};

    fn features(p: &Morpiae, perspective: Side) -> Vec<u32> {
        let mut out = Vec::new();
        p.active_features(perspective, &mut out);
        out
    }

    #[test]
    fn the_start_shows_the_cross_and_the_counts() {
        let p = Morpiae::startpos(&MorpiaeOptions::default());
        let f = features(&p, Side::P1);
        assert_eq!(f.len(), 36 + 13);
        // (0,3): a circle crossed in no direction.
        assert!(f.contains(&(CELL + ((3 - LOW) * SPAN - LOW) as u32 * STATES)));
        assert!(f.contains(&(LINES + 28)));
        assert!(f.contains(&(OPEN + 31)), "36 circles crossed in no direction: 31 or more");
        assert!(f.contains(&(LEAD + 8)));
        assert!(f.contains(&BEST_CAPTURE));
        assert_eq!(f, features(&p, Side::P2), "no colour yet: both see the same");
    }

    #[test]
    fn features_are_in_range_unique_and_mirror_the_colours() {
        for variant in [Variant::Touching, Variant::Disjoint] {
            let opts = MorpiaeOptions { variant };
            let mut rng = Rng::new(11);
            for _ in 0..3 {
                let mut p = Morpiae::startpos(&opts);
                while !p.legal_moves().is_empty() {
                    let (red, green) = (features(&p, Side::P1), features(&p, Side::P2));
                    let mut sorted = red.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), red.len(), "each feature at most once");
                    assert!(red.iter().all(|&f| f < COUNT));
                    // Swapping the colours' states and groups turns one view into the other.
                    let swap = |f: u32| match f {
                        f if f < OWN_COLOURS && f % STATES == 16 => f + 1,
                        f if f < OWN_COLOURS && f % STATES == 17 => f - 1,
                        f if (OWN_COLOURS..THEIR_COLOURS).contains(&f) => f + 25,
                        f if (THEIR_COLOURS..LEAD).contains(&f) => f - 25,
                        f if (LEAD..LINES).contains(&f) => 2 * LEAD + 16 - f,
                        f => f,
                    };
                    let mut mirrored: Vec<u32> = green.iter().map(|&f| swap(f)).collect();
                    mirrored.sort_unstable();
                    let mut red_sorted = red;
                    red_sorted.sort_unstable();
                    assert_eq!(red_sorted, mirrored, "{}", p.to_fen());
                    let mv = *rng.choose(p.legal_moves());
                    p.play(mv);
                }
            }
        }
    }

    #[test]
    fn a_capture_shows_in_the_capture_groups_and_a_coloured_circle() {
        // Green to move can colour (3,2) and (5,2) at once with 4,2,H,2 (eval.rs).
        let fen = "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;\
            7,2,D,2;7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;\
            4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;5,3,V,3 - -";
        let opts = MorpiaeOptions::default();
        let mut p = Morpiae::from_fen(fen, &opts).unwrap();
        let f = features(&p, Side::P2);
        assert!(f.contains(&(BEST_CAPTURE + 2)));
        let capturable = f.iter().find(|&&f| (CAPTURABLE..DRAWN).contains(&f)).unwrap();
        assert!(*capturable >= CAPTURABLE + 2);
        let cell = |x: i32, y: i32, s: u32| CELL + ((y - LOW) * SPAN + x - LOW) as u32 * STATES + s;
        let mv = p.parse_move("4,2,H,2").unwrap();
        let undo = p.play_reversible(mv);
        let (green, red) = (features(&p, Side::P2), features(&p, Side::P1));
        for x in [3, 5] {
            assert!(green.contains(&cell(x, 2, 16)) && red.contains(&cell(x, 2, 17)));
        }
        assert!(green.contains(&(LEAD + 8 + 2)) && red.contains(&(LEAD + 8 - 2)));
        p.unplay(mv, undo);
        assert_eq!(features(&p, Side::P2), f);
    }
}

//! Morpiae's network inputs ([`Features`]), 349 of them, seen by one player (the
//! *perspective*; the side to move is implicit: the network reads the side to move's
//! accumulator first). Only the colours depend on the perspective; the rest is the
//! drawing, which both players share (either may draw any legal line).
//!
//! | features | active when |
//! |---|---|
//! | 0–24 | the perspective has coloured `n` circles (0–24, 24 for more) |
//! | 25–49 | the opponent has coloured `n` |
//! | 50–66 | the perspective leads by `n` circles (−8…8, clamped) |
//! | 67–114 | `n` legal lines (0–47, 47 for more): also their parity, who draws last |
//! | 115–242 | `n` uncoloured circles are crossed in `k` directions: `32·k + n` (`k` 0–3, `n` 0–31) |
//! | 243–247 | the best capture a line makes now colours `n` circles (0–4) |
//! | 248–252 | the best capture of another line (0–4) |
//! | 253–268 | `n` legal lines capture (0–15) |
//! | 269–284 | `n` distinct circles can be coloured by a legal line now (0–15) |
//! | 285–348 | `2n` or `2n + 1` lines have been drawn (0–63): the phase |
//!
//! The counts of the hand evaluation (`eval.rs`) and a few more, as one-hots, so that the
//! hidden layer can combine them (a lead matters differently with few lines left, and a
//! capture's value depends on who draws last). No move delta: a line changes the legal
//! lines far from it, so the accumulator is refreshed at each evaluation.
//!
//! No network has yet played better than the hand evaluation (`docs/strength.md`, "A
//! learned evaluation for Morpiae"). The circles themselves as inputs (each circle of a
//! 22 × 22 window by crossing directions or colour, 8712 more inputs, trained on the
//! data in its 8 symmetric images) played worse than these counts alone.

use super::position::Morpiae;
use crate::core::Side;
use crate::search::nnue::Features;

/// First feature of each group (see the module doc).
const OWN_COLOURS: u32 = 0;
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
        let own = self.colours(perspective);
        let theirs = self.colours(perspective.opponent());
        out.push(OWN_COLOURS + bucket(own, 25));
        out.push(THEIR_COLOURS + bucket(theirs, 25));
        out.push(LEAD + ((own as i32 - theirs as i32).clamp(-8, 8) + 8) as u32);
        out.push(LINES + bucket(self.legal_moves().len() as u32, 48));
        for k in 0..4 {
            out.push(OPEN + 32 * k as u32 + bucket(self.open_circles(k), 32));
        }
        let captures = self.captures();
        out.push(BEST_CAPTURE + bucket(captures.best, 5));
        out.push(SECOND_CAPTURE + bucket(captures.second, 5));
        out.push(CAPTURING_LINES + bucket(captures.lines, 16));
        out.push(CAPTURABLE + bucket(self.capturable_circles(), 16));
        out.push(DRAWN + bucket(self.lines().len() as u32 / 2, 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Reversible, Rng};
    use crate::games::morpiae::{MorpiaeOptions, Variant};

    /// The first feature of each group, in the order `active_features` lists them, and
    /// the end.
    const GROUPS: [u32; 14] = [
        OWN_COLOURS,
        THEIR_COLOURS,
        LEAD,
        LINES,
        OPEN,
        OPEN + 32,
        OPEN + 64,
        OPEN + 96,
        BEST_CAPTURE,
        SECOND_CAPTURE,
        CAPTURING_LINES,
        CAPTURABLE,
        DRAWN,
        COUNT,
    ];

    fn features(p: &Morpiae, perspective: Side) -> Vec<u32> {
        let mut out = Vec::new();
        p.active_features(perspective, &mut out);
        out
    }

    #[test]
    fn the_start_has_one_feature_per_group() {
        let p = Morpiae::startpos(&MorpiaeOptions::default());
        let f = features(&p, Side::P1);
        // No colour, 28 legal lines, 36 circles crossed in no direction (31: 31 or more).
        let mut expected = GROUPS[..13].to_vec();
        expected[2] += 8;
        expected[3] += 28;
        expected[4] += 31;
        assert_eq!(f, expected);
        assert_eq!(f, features(&p, Side::P2), "no colour yet: both see the same");
    }

    #[test]
    fn features_are_in_range_one_per_group_and_mirror_the_colours() {
        for variant in [Variant::Touching, Variant::Disjoint] {
            let opts = MorpiaeOptions { variant };
            let mut rng = Rng::new(11);
            for _ in 0..3 {
                let mut p = Morpiae::startpos(&opts);
                while !p.legal_moves().is_empty() {
                    let (red, green) = (features(&p, Side::P1), features(&p, Side::P2));
                    for (f, group) in red.iter().zip(GROUPS.windows(2)) {
                        assert!((group[0]..group[1]).contains(f), "{f} in {group:?}");
                    }
                    assert_eq!(red.len(), GROUPS.len() - 1);
                    // Swapping the colour groups turns one view into the other.
                    let swap = |f: u32| match f {
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
    fn a_capture_shows_in_the_capture_groups_and_the_colours() {
        // Green to move can colour (3,2) and (5,2) at once with 4,2,H,2 (eval.rs).
        let fen = "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;\
            7,2,D,2;7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;\
            4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;5,3,V,3 - -";
        let opts = MorpiaeOptions::default();
        let mut p = Morpiae::from_fen(fen, &opts).unwrap();
        let f = features(&p, Side::P2);
        assert!(f.contains(&(BEST_CAPTURE + 2)));
        let capturing = p.legal_moves().iter().filter(|&&m| p.captures_of(m) > 0).count();
        assert!(f.contains(&(CAPTURING_LINES + capturing as u32)));
        let capturable = f.iter().find(|&&f| (CAPTURABLE..DRAWN).contains(&f)).unwrap();
        assert!(*capturable >= CAPTURABLE + 2, "(3,2) and (5,2) at least");
        let mv = p.parse_move("4,2,H,2").unwrap();
        let undo = p.play_reversible(mv);
        let (green, red) = (features(&p, Side::P2), features(&p, Side::P1));
        assert!(green.contains(&(OWN_COLOURS + 2)) && green.contains(&(THEIR_COLOURS)));
        assert!(green.contains(&(LEAD + 8 + 2)) && red.contains(&(LEAD + 8 - 2)));
        p.unplay(mv, undo);
        assert_eq!(features(&p, Side::P2), f);
    }
}

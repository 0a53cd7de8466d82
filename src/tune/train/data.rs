//! Training positions from `ugine datagen` files: each position's active features from
//! both perspectives and its target, the side to move's expected score.
//!
//! A line is `<position> | <p1|p2> | <score> | <p1win|p2win|draw>`, optionally followed
//! by `| exact` when the result is the position's game-theoretic value (a solver's label)
//! rather than how a game went on. Targets, for the side to move:
//! - `| exact`: the result (1, ½, 0);
//! - a forced result `#N` / `#-N`: 1 / 0;
//! - otherwise `λ·σ(score/scale) + (1 − λ)·result`, NNUE's blend of search score and
//!   game result.
//!
//! A line `# option Name=value` sets a rule option for the rest of its file (on top of
//! the options the loader is given), so one run can train on data of several rule sets;
//! other lines starting with `#` are comments.

use std::path::Path;

use anyhow::{Context, bail};

use crate::core::{Outcome, RuleOptions};
use crate::search::Evaluate;
use crate::search::nnue::Features;

/// Lines per block; every [`HOLDOUT_EVERY`]th block (the positions of a few consecutive
/// games) is held out of the training to measure it.
pub const HOLDOUT_BLOCK: usize = 1000;
pub const HOLDOUT_EVERY: usize = 10;

/// Positions with their features, stored flat.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Features of position `i`: `features[starts[i]..starts[i + 1]]`, the side to
    /// move's first (`own[i]` of them), then the opponent's.
    features: Vec<u16>,
    starts: Vec<usize>,
    own: Vec<u16>,
    /// The side to move's expected score.
    pub targets: Vec<f32>,
    /// What is added to the network's output logit before the sigmoid: the hand
    /// evaluation over the scale when training on it (`--on-hand`), else empty (0).
    pub bases: Vec<f32>,
}

impl Samples {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Position `i`'s features: the side to move's, the opponent's.
    pub fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let all = &self.features[self.starts[i]..self.starts[i + 1]];
        all.split_at(usize::from(self.own[i]))
    }

    /// The logit added to the network's output for position `i`.
    pub fn base(&self, i: usize) -> f32 {
        self.bases.get(i).copied().unwrap_or(0.0)
    }

    /// Adds a position of `G` with its target.
    pub fn push<G: Features>(&mut self, pos: &G, target: f32, scratch: &mut Vec<u32>) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let stm = pos.side_to_move();
        scratch.clear();
        pos.active_features(stm, scratch);
        let own = scratch.len();
        pos.active_features(stm.opponent(), scratch);
        self.features.extend(scratch.iter().map(|&f| f as u16));
        self.starts.push(self.features.len());
        self.own.push(own as u16);
        self.targets.push(target);
    }
}

/// The training and held-out positions of the data files.
#[derive(Debug, Default)]
pub struct Data {
    pub train: Samples,
    pub held_out: Samples,
    /// Positions whose target is exact (a solver's label or a forced result).
    pub exact: usize,
    /// Positions left out as not quiet ([`Targets::quiet_only`]).
    pub skipped: usize,
}

/// How targets are made from the lines.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// Weight of the search score's prediction (the rest is the result's).
    pub lambda: f32,
    /// Score units per unit of the sigmoid's argument.
    pub scale: f32,
    /// The network learns a correction of the hand evaluation: each position's hand
    /// evaluation over the scale is added to the network's output
    /// ([`Samples::bases`]).
    pub on_hand: bool,
    /// Only positions whose static evaluation may stand for their value
    /// ([`Evaluate::is_quiet`]: no capture or threat pending), as `ugine tune` fits.
    pub quiet_only: bool,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What training reads of a game's hand evaluation (`Targets::on_hand`,
/// `Targets::quiet_only`): the alpha-beta games have one ([`Hand::of`]), the Monte Carlo
/// game Mobius has none.
pub struct Hand<G> {
    /// The static evaluation for the side to move, in the game's `cp` units.
    pub evaluate: fn(&G) -> i32,
    /// No capture or threat pending.
    pub is_quiet: fn(&G) -> bool,
}

impl<G: Evaluate> Hand<G> {
    /// The game's alpha-beta evaluation.
    pub fn of() -> Hand<G> {
        Hand { evaluate: G::evaluate, is_quiet: G::is_quiet }
    }
}

/// Reads every file's lines into positions; line numbers count across the files for the
/// held-out blocks. `hand`: the game's hand evaluation, needed by `on_hand` and
/// `quiet_only`.
pub fn load<G: Features>(
    paths: &[impl AsRef<Path>],
    opts: &G::Options,
    targets: Targets,
    hand: Option<Hand<G>>,
) -> anyhow::Result<Data> {
    if G::FEATURE_COUNT > usize::from(u16::MAX) + 1 {
        bail!("{} has too many features for the trainer's 16-bit indices", G::NAME);
    }
    let hand = match hand {
        None if targets.on_hand || targets.quiet_only => {
            bail!("{} has no hand evaluation: --on-hand and --quiet-only need one", G::NAME)
        }
        hand => hand,
    };
    let mut data = Data::default();
    let mut scratch = Vec::new();
    let mut line_no = 0;
    for path in paths {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut file_opts = opts.clone();
        for (i, line) in text.lines().enumerate() {
            let at = || format!("{}:{}", path.display(), i + 1);
            if let Some(comment) = line.strip_prefix('#') {
                if let Some(option) = comment.trim().strip_prefix("option ") {
                    let pair = crate::core::words::parse_option(option)
                        .and_then(|pair| file_opts.clone().with_pairs(&[pair], G::NAME));
                    file_opts = pair.map_err(anyhow::Error::msg).with_context(at)?;
                }
                continue;
            }
            let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
            let (fen, side, score, result, exact) = match fields[..] {
                [f, s, sc, r] => (f, s, sc, r, false),
                [f, s, sc, r, "exact"] => (f, s, sc, r, true),
                _ => bail!("{}: expected 'position | side | score | result [| exact]'", at()),
            };
            let pos = G::from_fen(fen, &file_opts).with_context(at)?;
            let stm = pos.side_to_move();
            if side != stm.as_str() {
                bail!("{}: side '{side}' but the position has {} to move", at(), stm.as_str());
            }
            let result = match Outcome::parse(result) {
                Some(outcome) => outcome.points(stm) as f32,
                None => bail!("{}: unknown result '{result}'", at()),
            };
            let target = if exact {
                result
            } else if let Some(mate) = score.strip_prefix('#') {
                let n: i32 = mate.parse().with_context(|| format!("{}: bad score", at()))?;
                if n > 0 { 1.0 } else { 0.0 }
            } else {
                let s: f32 = score.parse().with_context(|| format!("{}: bad score", at()))?;
                targets.lambda * sigmoid(s / targets.scale) + (1.0 - targets.lambda) * result
            };
            if targets.quiet_only && hand.as_ref().is_some_and(|h| !(h.is_quiet)(&pos)) {
                data.skipped += 1;
                line_no += 1;
                continue;
            }
            if exact || score.starts_with('#') {
                data.exact += 1;
            }
            let held = (line_no / HOLDOUT_BLOCK) % HOLDOUT_EVERY == HOLDOUT_EVERY - 1;
            let set = if held { &mut data.held_out } else { &mut data.train };
            set.push(&pos, target, &mut scratch);
            if let (true, Some(h)) = (targets.on_hand, hand.as_ref()) {
                set.bases.push((h.evaluate)(&pos) as f32 / targets.scale);
            }
            line_no += 1;
        }
    }
    if data.train.is_empty() {
        bail!("no positions to train on");
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Side;
    use crate::games::mabula::{Mabula, MabulaOptions};

    const POS: &str =
        "BBWWBBWBWBBWWBBWWBWBWWBW 1BWW2W1/2B2BW1/2BBBB2/3WW2B/2WW4/4B3/W3W3/1B1WWBB1 w";

    fn load_text(text: &str, lambda: f32) -> anyhow::Result<Data> {
        let dir = std::env::temp_dir().join(format!("ugine-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.data", text.len()));
        std::fs::write(&path, text).unwrap();
        let data = load::<Mabula>(
            &[&path],
            &MabulaOptions::default(),
            Targets { lambda, scale: 100.0, on_hand: false, quiet_only: false },
            None,
        );
        std::fs::remove_file(&path).unwrap();
        data
    }

    #[test]
    fn targets_are_the_side_to_moves_blend_or_exact_value() {
        let text = format!(
            "{POS} | p2 | 0 | p1win\n{POS} | p2 | 100 | p2win\n{POS} | p2 | #3 | p1win\n\
             {POS} | p2 | 0 | draw | exact\n{POS} | p2 | #-2 | p1win | exact\n"
        );
        let data = load_text(&text, 0.5).unwrap();
        let t = &data.train.targets;
        let s = 1.0 / (1.0 + (-1.0f32).exp());
        assert_eq!(t[0], 0.25, "σ(0)/2 + loss/2");
        assert!((t[1] - (0.5 * s + 0.5)).abs() < 1e-6);
        assert_eq!(&t[2..], &[1.0, 0.5, 0.0]);
        assert_eq!(data.exact, 3);
        let (own, theirs) = data.train.features(0);
        assert_eq!((own.len(), theirs.len()), (24, 24));
    }

    #[test]
    fn on_the_hand_evaluation_each_position_has_its_base_and_quiet_only_skips() {
        use crate::core::Game;
        use crate::games::moebius_chess::{MoebiusChess, MoebiusOptions};
        let dir = std::env::temp_dir().join(format!("ugine-train-hand-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let quiet = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1";
        // A black queen attacked by a pawn.
        let noisy = "4k11/16/16/3q12/4P11/16/16/4K11 w - - 0 1";
        let path = dir.join("chess.data");
        std::fs::write(&path, format!("{quiet} | p1 | 0 | draw\n{noisy} | p1 | 900 | p1win\n"))
            .unwrap();
        let opts = MoebiusOptions::default();
        let load_with = |on_hand, quiet_only| {
            let targets = Targets { lambda: 0.5, scale: 250.0, on_hand, quiet_only };
            load::<MoebiusChess>(&[&path], &opts, targets, Some(Hand::of())).unwrap()
        };
        let plain = load_with(false, false);
        assert_eq!((plain.train.len(), plain.skipped), (2, 0));
        assert!(plain.train.bases.is_empty() && plain.train.base(1) == 0.0);
        let on_hand = load_with(true, false);
        let hand = |fen| MoebiusChess::from_fen(fen, &opts).unwrap().evaluate() as f32 / 250.0;
        assert_eq!(on_hand.train.bases, [hand(quiet), hand(noisy)]);
        assert!(hand(noisy) < -1.0, "White is a queen down before taking it");
        let quiet_only = load_with(true, true);
        assert_eq!((quiet_only.train.len(), quiet_only.skipped), (1, 1));
        assert_eq!(quiet_only.train.bases, [hand(quiet)]);
        // A game without a hand evaluation refuses both.
        for (on_hand, quiet_only) in [(true, false), (false, true)] {
            let targets = Targets { lambda: 0.5, scale: 250.0, on_hand, quiet_only };
            let err = load::<MoebiusChess>(&[&path], &opts, targets, None).unwrap_err();
            assert!(err.to_string().contains("no hand evaluation"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_option_line_sets_the_rules_for_the_rest_of_its_file() {
        use crate::core::Game;
        use crate::games::morris::{Morris, MorrisOptions, MorrisRules};
        use crate::search::nnue::Features;
        let dir = std::env::temp_dir().join(format!("ugine-train-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = "3/3/3/6/3/3/3 w 9 9 0 | p1 | 0 | draw";
        let (seed, standard) = (dir.join("seed.data"), dir.join("standard.data"));
        std::fs::write(&seed, format!("# a comment\n{start}\n")).unwrap();
        std::fs::write(&standard, format!("{start}\n# option Morris Rules=standard\n{start}\n"))
            .unwrap();
        let targets = Targets { lambda: 0.5, scale: 100.0, on_hand: false, quiet_only: false };
        // The options of one file do not reach the next.
        let data =
            load::<Morris>(&[&standard, &seed], &MorrisOptions::default(), targets, None).unwrap();
        let std_opts = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
        let features = |opts: &MorrisOptions| {
            let mut f = Vec::new();
            Morris::startpos(opts).active_features(Side::P1, &mut f);
            f.into_iter().map(|x| x as u16).collect::<Vec<_>>()
        };
        let (seed_f, std_f) = (features(&MorrisOptions::default()), features(&std_opts));
        assert_ne!(seed_f, std_f);
        let own: Vec<&[u16]> = (0..3).map(|i| data.train.features(i).0).collect();
        assert_eq!(own, [&seed_f[..], &std_f[..], &seed_f[..]]);
        std::fs::write(&seed, format!("# option Morris Rules=fast\n{start}\n")).unwrap();
        let err = format!(
            "{:#}",
            load::<Morris>(&[&seed], &MorrisOptions::default(), targets, None).unwrap_err()
        );
        assert!(err.contains("seed.data:1") && err.contains("fast"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_lines_are_refused_with_their_place() {
        for (bad, why) in [
            (format!("{POS} | p2 | 0"), "expected 'position"),
            (format!("{POS} | p1 | 0 | draw"), "side 'p1'"),
            (format!("{POS} | p2 | x | draw"), "bad score"),
            (format!("{POS} | p2 | 0 | won"), "unknown result"),
            (format!("{POS} | p2 | 0 | draw | maybe"), "expected 'position"),
            ("nonsense | p1 | 0 | draw".to_string(), ":1"),
        ] {
            let err = format!("{:#}", load_text(&bad, 0.5).unwrap_err());
            assert!(err.contains(why) && err.contains(":1"), "{bad}: {err}");
        }
    }
}

//! `ugine tunables`: a game's tunable search parameters as `ugine spsa --param` reads
//! them (`Name=default,min,max,c_end,r_end`), from the table of each search
//! (`src/search/tunables.rs`), as Stockfish's tuning build prints its lines for fishtest.

use anyhow::Context;
use clap::Args;

use super::emit;
use crate::engine::find_game;

/// `ugine tunables`: the SPSA parameters of a game's search.
#[derive(Args, Debug)]
pub struct TunablesArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
}

/// Runs `ugine tunables`: one line per parameter on stdout.
pub fn run(args: &TunablesArgs) -> anyhow::Result<()> {
    let entry = find_game(&args.game).with_context(|| format!("unknown game '{}'", args.game))?;
    let session = (entry.make)(1);
    let lines: String = session.spsa_params().iter().map(|l| format!("{l}\n")).collect();
    emit(&lines)
}

#[cfg(test)]
mod tests {
    use crate::core::OptionKind;
    use crate::engine::GAME_NAMES;
    use crate::engine::find_game;
    use crate::tune::spsa::SpsaParam;

    #[test]
    fn every_line_is_an_spsa_param_of_an_announced_spin_option_at_its_default() {
        let mut games_with_steps = 0;
        for game in GAME_NAMES {
            let session = (find_game(game).expect("listed").make)(1);
            let specs = session.tuning_option_specs();
            let lines = session.spsa_params();
            games_with_steps += usize::from(!lines.is_empty());
            for line in &lines {
                let p = SpsaParam::parse(line).unwrap_or_else(|e| panic!("{game}: {e}"));
                let spec = specs.iter().find(|s| s.name == p.name).expect("an announced option");
                let OptionKind::Spin { default, min, max } = spec.kind else {
                    panic!("{game}: '{}' is not a spin option", p.name)
                };
                assert_eq!((p.theta, p.min, p.max), (default as f64, min as f64, max as f64));
                assert!(p.c_end > 0.0 && p.c_end < (max - min) as f64, "{line}");
            }
        }
        assert_eq!(games_with_steps, GAME_NAMES.len(), "every game's search has knobs");
    }
}

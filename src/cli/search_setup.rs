//! What `datagen` and `relabel` share: the game, its rules and the search options of
//! many fixed-node searches, checked before the first one, and the output file.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use clap::Args;

use crate::engine::Session;
use crate::runner::referee::Referee;

/// The game, its rules and its search (flattened into a command's arguments).
#[derive(Args, Debug)]
pub struct SearchSetup {
    /// The game.
    #[arg(long)]
    pub game: String,
    /// Rule options "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
    /// Options of the search "Name=value", as `setoption` sets them; repeatable. With a
    /// network ("Mabula EvalFile=gen1.nnue") it plays or labels: the data of the next
    /// generation (bootstrapping, `docs/tuning.md`).
    #[arg(long = "setoption", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub setoption: Vec<(String, String)>,
    /// Hash table per search thread in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

impl SearchSetup {
    /// The referee of the game under the rule options, and a session with the search
    /// options set: a bad rule option, search option, value or network file stops the
    /// command here, before any search.
    pub fn check(&self) -> anyhow::Result<(Referee, Box<dyn Session>)> {
        let mut options = vec![("Game".to_string(), self.game.clone())];
        options.extend(self.option.iter().cloned());
        let referee = Referee::new(&self.game, &options)?;
        if let Some((name, _)) = self.option.iter().find(|(name, _)| !referee.is_rule_option(name))
        {
            bail!(
                "'{name}' is not a rule option of {} (its rule options: {}; search options go \
                 to --setoption)",
                self.game,
                referee.rule_option_names().join(", ")
            );
        }
        let session = self.session(&referee)?;
        Ok((referee, session))
    }

    /// A session of `referee`'s game with the search options and the hash size set.
    ///
    /// A search's contempt (Morpiae's is 30) is set to 0 unless `--setoption` names it:
    /// contempt scores every drawish position down for the side the search plays, so the
    /// scores of self-play, where that side is always the side to move, would be biased
    /// against the side to move (Morpiae's by 13 `cp` on average at contempt 30), and a
    /// network trained on them learns that drawish positions are bad for whoever moves.
    pub fn session(&self, referee: &Referee) -> anyhow::Result<Box<dyn Session>> {
        let mut session = referee.session()?;
        let contempt = session
            .tuning_option_specs()
            .into_iter()
            .map(|spec| spec.name)
            .find(|name| name.ends_with(" Search Contempt"));
        if let Some(contempt) = contempt
            && !self.setoption.iter().any(|(name, _)| name.eq_ignore_ascii_case(contempt))
        {
            session.set_search_option_text(contempt, "0").map_err(anyhow::Error::msg)?;
        }
        for (name, value) in &self.setoption {
            session.set_search_option_text(name, value).map_err(anyhow::Error::msg)?;
        }
        session.set_hash_mb(self.hash);
        Ok(session)
    }
}

/// The output: the file, created now, or stdout.
pub fn output(path: Option<&Path>) -> anyhow::Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    })
}

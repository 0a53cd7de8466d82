//! The referee: sessions of the match's game under the match's rule options.

use anyhow::Context;

use crate::engine::{Session, find_game};

/// Makes referee sessions for a game under given options.
#[derive(Clone)]
pub struct Referee {
    make: fn(usize) -> Box<dyn Session>,
    /// Rule options (spec spelling, value) applied to every new session.
    rules: Vec<(String, String)>,
}

impl Referee {
    /// The referee of `game` whose rules are the rule options among `options`;
    /// options that are not rule options of the game (`Game`, `Hash`, …) are ignored.
    pub fn new(game: &str, options: &[(String, String)]) -> anyhow::Result<Referee> {
        let entry = find_game(game).with_context(|| format!("unknown game '{game}'"))?;
        let make = entry.make;
        let specs = make(1).rule_option_specs();
        let mut rules = Vec::new();
        for (k, v) in options {
            if let Some(spec) = specs.iter().find(|s| s.name.eq_ignore_ascii_case(k)) {
                spec.parse_value(v).map_err(anyhow::Error::msg)?;
                rules.push((spec.name.to_string(), v.clone()));
            }
        }
        let r = Referee { make, rules };
        r.session()?;
        Ok(r)
    }

    /// The names of the game's rule options.
    pub fn rule_option_names(&self) -> Vec<String> {
        (self.make)(1).rule_option_specs().iter().map(|s| s.name.to_string()).collect()
    }

    /// True when `name` is one of the game's rule options.
    pub fn is_rule_option(&self, name: &str) -> bool {
        (self.make)(1).rule_option_specs().iter().any(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// A fresh session at the start position under the match's rules.
    pub fn session(&self) -> anyhow::Result<Box<dyn Session>> {
        let mut s = (self.make)(1);
        self.apply_rules(s.as_mut())?;
        Ok(s)
    }

    /// Sets the match's rules on another session of the same game (a built-in player's).
    pub fn apply_rules(&self, s: &mut dyn Session) -> anyhow::Result<()> {
        let specs = s.rule_option_specs();
        for (k, v) in &self.rules {
            let spec = specs.iter().find(|s| s.name == k).context("rule option vanished")?;
            let value = spec.parse_value(v).map_err(anyhow::Error::msg)?;
            s.set_rule_option(k, &value).map_err(anyhow::Error::msg)?;
        }
        Ok(())
    }
}

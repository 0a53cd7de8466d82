//! Typed rule options: each game declares its `setoption` switches and applies them.

use std::fmt::Debug;

/// The type of an option, as announced in `option name … type …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check { default: bool },
    /// `type spin default D min A max B`.
    Spin { default: i64, min: i64, max: i64 },
    /// `type combo default D var A var B …`.
    Combo { default: &'static str, vars: &'static [&'static str] },
    /// `type string default D`.
    Str { default: &'static str },
}

/// One option: its name (matched case-insensitively) and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A value checked against its [`OptionSpec`]: booleans and numbers are parsed,
/// combo values are normalised to the spelling of the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl OptionSpec {
    /// Parses `value` for this option, or says why it is not valid.
    pub fn parse_value(&self, value: &str) -> Result<OptionValue, String> {
        let value = value.trim();
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(format!("option '{}' takes true or false, not '{value}'", self.name)),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(OptionValue::Int(n)),
                Ok(n) => Err(format!("option '{}' must be in {min}..{max}, not {n}", self.name)),
                Err(_) => Err(format!("option '{}' takes an integer, not '{value}'", self.name)),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .map(|v| OptionValue::Text((*v).to_string()))
                .ok_or_else(|| {
                    format!(
                        "option '{}' takes one of {}, not '{value}'",
                        self.name,
                        vars.join(", ")
                    )
                }),
            OptionKind::Str { .. } => Ok(OptionValue::Text(value.to_string())),
        }
    }

    /// The default value of this option.
    pub fn default_value(&self) -> OptionValue {
        match &self.kind {
            OptionKind::Check { default } => OptionValue::Bool(*default),
            OptionKind::Spin { default, .. } => OptionValue::Int(*default),
            OptionKind::Combo { default, .. } | OptionKind::Str { default } => {
                OptionValue::Text((*default).to_string())
            }
        }
    }
}

/// The rule options of one game. `Default` gives the spec's DEFAULT rules.
pub trait RuleOptions: Clone + Default + Debug + PartialEq + Send + Sync + 'static {
    /// The options this game offers through `setoption`, names unique over all games
    /// (prefix them with the game's name).
    fn specs() -> Vec<OptionSpec>;
    /// Applies one option; `name` is the spec's own spelling, `value` already checked
    /// against the spec by [`OptionSpec::parse_value`].
    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String>;

    /// The defaults with `Name=value` pairs applied in order (as `--option` flags give
    /// them; names in any case); `game` names the game in the error.
    fn from_pairs(pairs: &[(String, String)], game: &str) -> Result<Self, String> {
        Self::default().with_pairs(pairs, game)
    }

    /// These options with `Name=value` pairs applied in order, as [`Self::from_pairs`].
    fn with_pairs(self, pairs: &[(String, String)], game: &str) -> Result<Self, String> {
        let mut opts = self;
        let specs = Self::specs();
        for (k, v) in pairs {
            let spec = specs
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(k.trim()))
                .ok_or_else(|| format!("'{k}' is not a rule option of {game}"))?;
            let value = spec.parse_value(v)?;
            opts.set(spec.name, &value)?;
        }
        Ok(opts)
    }
}

/// For games without rule options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoOptions;

impl RuleOptions for NoOptions {
    fn specs() -> Vec<OptionSpec> {
        Vec::new()
    }
    fn set(&mut self, name: &str, _value: &OptionValue) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
}

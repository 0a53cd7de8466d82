//! The JSON messages between the page and its table, one per WebSocket text frame.
//! Every message is an object whose `type` names it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::names;
use crate::core::{OptionKind, OptionSpec};
use crate::engine::registry;
use crate::search::Score;
use crate::ugi::Info;

/// Who plays a side: a person at the page, or a configured engine by name.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerChoice {
    Human,
    Engine(String),
}

/// The time limit of the engines' moves and of the players' clocks, in milliseconds as
/// the page sends them (any number: [`super::time::TimeControl::check`] judges them).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeChoice {
    /// Engines think this long per move; nobody has a clock.
    Movetime { ms: f64 },
    /// Both players have a clock: `base_ms`, plus `inc_ms` per move.
    Clock { base_ms: f64, inc_ms: f64 },
}

/// What the page asks of its table.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// A new game: the game, its rule options (`name` → value text), a position string to
    /// start from (the start position when absent), who plays p1 and p2, the time limit.
    New {
        game: String,
        #[serde(default)]
        options: Vec<(String, String)>,
        #[serde(default)]
        fen: Option<String>,
        players: [PlayerChoice; 2],
        time: TimeChoice,
    },
    /// A person's move, clicked or typed (the table checks it).
    Move { mv: String },
    /// Takes back to the last position where a person was to move.
    Undo,
    /// The side to move (a person) gives up.
    Resign,
    /// Starts again the engines that failed, and lets them move.
    Restart,
    /// Asks for the finished game as a record line.
    Save,
    /// Analysis mode: `engine` analyses the position after `ply` moves with `lines` best
    /// lines (no engine: analysis off).
    Analyse {
        #[serde(default)]
        engine: Option<String>,
        #[serde(default = "one")]
        lines: u32,
        #[serde(default)]
        ply: usize,
    },
}

fn one() -> u32 {
    1
}

/// The state of the table, sent after every change.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub game: String,
    pub options: Vec<(String, String)>,
    /// Engine name or `human` for p1 and p2.
    pub players: [String; 2],
    pub humans: [bool; 2],
    /// The position string before every ply and after the last: `moves.len() + 1` entries.
    pub fens: Vec<String>,
    pub moves: Vec<String>,
    /// The side (0 or 1) that played each move.
    pub movers: Vec<usize>,
    /// The legal moves of the last position (empty when the game is over or no person is to
    /// move).
    pub legal: Vec<String>,
    /// `p1` or `p2`.
    pub side: &'static str,
    /// `p1win`, `p2win` or `draw` once the game is over.
    pub result: Option<&'static str>,
    /// Why the game ended, for people: the rules' reason ("reduced to two men", the same
    /// text the match runner records), or a resignation, a time loss, an illegal move.
    pub reason: Option<String>,
    /// The places of a king in check in the last position (Moebius Chess), from the
    /// game's rules.
    pub check: Vec<String>,
    /// Milliseconds left on each clock, when the game has clocks.
    pub clocks: Option<[u64; 2]>,
    /// Index of the side whose clock runs.
    pub clock_running: Option<usize>,
    /// Index of the side whose engine is thinking.
    pub thinking: Option<usize>,
    /// An engine failure waiting for a restart.
    pub error: Option<String>,
    /// True when a take-back is possible.
    pub can_undo: bool,
}

/// A report of the analysing engine on the position after `ply` moves: one line
/// (`multipv`, 1 = best) with the positions along it.
pub fn analysis_json(ply: usize, info: &Info, pv_fens: &[String]) -> Value {
    let mut v = info_json(super::analysis::SIDE, info, pv_fens);
    v["type"] = Value::from("analysis");
    v["ply"] = Value::from(ply);
    v["multipv"] = Value::from(info.multipv.unwrap_or(1));
    v
}

/// A search report of the engine to move, with the positions along its principal
/// variation (`pv_fens[i]` after `pv[i]`).
pub fn info_json(side: usize, info: &Info, pv_fens: &[String]) -> Value {
    let score = match info.score {
        Some(Score::Cp(v)) => json!({ "cp": v }),
        Some(Score::Mate(v)) => json!({ "mate": v }),
        None => Value::Null,
    };
    json!({
        "type": "info",
        "side": side,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score,
        "nodes": info.nodes,
        "nps": info.nps,
        "time": info.time,
        "pv": info.pv,
        "pv_fens": pv_fens,
        "text": info.string,
    })
}

fn option_json(spec: &OptionSpec) -> Value {
    match &spec.kind {
        OptionKind::Check { default } => {
            json!({ "name": spec.name, "kind": "check", "default": default.to_string() })
        }
        OptionKind::Spin { default, min, max } => json!({
            "name": spec.name, "kind": "spin", "default": default.to_string(), "min": min, "max": max
        }),
        OptionKind::Combo { default, vars } => {
            json!({ "name": spec.name, "kind": "combo", "default": default, "vars": vars })
        }
        OptionKind::Str { default } => {
            json!({ "name": spec.name, "kind": "string", "default": default })
        }
    }
}

/// The first message of every connection: the games with their rule options, start
/// positions and side names, and the engine names.
pub fn hello_json(engines: &[String]) -> Value {
    let games: Vec<Value> = registry()
        .iter()
        .map(|g| {
            let session = (g.make)(1);
            let options: Vec<Value> = session.rule_option_specs().iter().map(option_json).collect();
            json!({
                "name": g.name,
                "options": options,
                "startpos": session.fen(),
                "sides": names::sides(g.name),
            })
        })
        .collect();
    json!({ "type": "hello", "games": games, "engines": engines })
}

/// A message for the page alone (`error`, `record`, …) with one text field.
pub fn text_json(kind: &str, field: &str, text: &str) -> Value {
    json!({ "type": kind, field: text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_game_message_is_read() {
        let m: ClientMsg = serde_json::from_str(
            r#"{"type":"new","game":"morris","options":[["Morris Rules","standard"]],
                "players":["human",{"engine":"ugine"}],"time":{"movetime":{"ms":500}}}"#,
        )
        .unwrap();
        let ClientMsg::New { game, options, fen, players, time } = m else { panic!("{m:?}") };
        assert_eq!(game, "morris");
        assert_eq!(options, vec![("Morris Rules".to_string(), "standard".to_string())]);
        assert_eq!(fen, None);
        assert_eq!(players, [PlayerChoice::Human, PlayerChoice::Engine("ugine".into())]);
        assert_eq!(time, TimeChoice::Movetime { ms: 500.0 });
    }

    #[test]
    fn hello_lists_every_game_with_its_options() {
        let h = hello_json(&["ugine".to_string()]);
        let games = h["games"].as_array().unwrap();
        assert_eq!(games.len(), registry().len());
        assert_eq!(games[0]["name"], "morris");
        assert_eq!(games[0]["options"][0]["name"], "Morris Rules");
        assert_eq!(games[0]["startpos"], "3/3/3/6/3/3/3 w 9 9 0");
        assert_eq!(games[2]["sides"], json!(["Red", "Blue"]));
    }
}

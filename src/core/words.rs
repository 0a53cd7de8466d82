//! The words of settings, read the same way everywhere: `Name=value` assignments,
//! numbers, booleans, durations, clocks, and lines split into quoted words.

use std::time::Duration;

pub fn parse_num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| format!("{key} takes a number, not '{value}'"))
}

pub fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "" | "true" | "yes" | "on" => Ok(true),
        "false" | "no" | "off" => Ok(false),
        _ => Err(format!("expected true or false, not '{value}'")),
    }
}

/// `Name=value`, the one reader of an option assignment (command-line `--option`,
/// config files, engine tokens): the name may contain spaces, both sides are trimmed,
/// the value may be empty and may contain `=`.
pub fn parse_option(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or_else(|| format!("'{s}' is not Name=value"))?;
    if k.trim().is_empty() {
        return Err(format!("'{s}' has no name"));
    }
    Ok((k.trim().to_string(), v.trim().to_string()))
}

/// A duration: `250ms`, `2s`, `1.5` (seconds when there is no unit).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        (s, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(Duration::from_secs_f64(x * scale)),
        _ => Err(format!("bad duration '{s}' (examples: 250ms, 2s, 1.5)")),
    }
}

/// A clock `time+inc` (`10+0.1`, `5s+50ms`) or `time` alone.
pub fn parse_tc(s: &str) -> Result<(Duration, Duration), String> {
    match s.split_once('+') {
        Some((t, i)) => Ok((parse_duration(t)?, parse_duration(i)?)),
        None => Ok((parse_duration(s)?, Duration::ZERO)),
    }
}

/// Splits a line into words at blanks; single or double quotes group words with blanks
/// (`'option.Move Overhead=10'`), a backslash escapes the next character.
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                cur.push(chars.next().ok_or("a backslash ends the line")?);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{s}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

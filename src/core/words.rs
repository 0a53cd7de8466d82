//! The words of settings, read the same way everywhere: `Name=value` assignments,
//! numbers, booleans, durations, clocks, and lines split into quoted words.

use std::time::Duration;

pub fn parse_num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| format!("{key} takes a number, not '{value}'"))
}

/// A count that must be at least 1 (`rounds 0` or `depth 0` cannot be meant).
pub fn parse_positive<T: std::str::FromStr + PartialOrd + From<u8>>(
    key: &str,
    value: &str,
) -> Result<T, String> {
    let n: T = parse_num(key, value)?;
    if n < T::from(1) {
        return Err(format!("{key} must be at least 1, not '{value}'"));
    }
    Ok(n)
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

/// A duration as [`parse_duration`] reads it: whole seconds as `2s`, anything else in
/// milliseconds (`250ms`, `1500ms`).
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms > 0 && ms.is_multiple_of(1000) { format!("{}s", ms / 1000) } else { format!("{ms}ms") }
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

/// The candidates nearest to `word` by edit distance (letters compared without case),
/// nearest first, at most three, and only those close enough to be a likely misspelling
/// (a distance of at most a third of the word's length, and at least 2).
pub fn closest<'a>(word: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let word = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = candidates
        .iter()
        .map(|c| (edit_distance(&word, &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance between two texts, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn misspellings_find_their_word() {
        let names = ["Morris Rules", "Morris Repetition", "Hash", "Threads"];
        assert_eq!(closest("Morris Rulez", &names), ["Morris Rules"]);
        assert_eq!(closest("hahs", &names), ["Hash"]);
        assert!(closest("Contempt", &names).is_empty());
    }
}

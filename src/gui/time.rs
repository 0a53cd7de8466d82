//! The time settings of a game, checked by the server: the page sends milliseconds as
//! numbers, and only values in a sensible range are accepted, with an error a person can
//! act on (an engine is never asked to think for 10¹⁶ seconds).

use std::time::Duration;

use super::messages::TimeChoice;

/// The shortest time per move (10 ms) and the longest (one hour).
pub const MOVETIME_MS: (f64, f64) = (10.0, 3_600_000.0);
/// The shortest clock (1 s) and the longest (24 hours).
pub const BASE_MS: (f64, f64) = (1_000.0, 86_400_000.0);
/// The largest increment per move (one hour).
pub const INC_MAX_MS: f64 = 3_600_000.0;

/// A checked time setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Engines think this long per move; nobody has a clock.
    Movetime(Duration),
    /// Both players have a clock of `base`, plus `inc` per move.
    Clock { base: Duration, inc: Duration },
}

/// `ms` as seconds for a message, without a fraction when there is none.
fn secs(ms: f64) -> String {
    format!("{} s", ms / 1000.0)
}

fn within(what: &str, ms: f64, (lo, hi): (f64, f64)) -> Result<Duration, String> {
    if !ms.is_finite() || ms < lo || ms > hi {
        let given = if ms.is_finite() { format!(" (not {})", secs(ms)) } else { String::new() };
        return Err(format!("{what} must be between {} and {}{given}", secs(lo), secs(hi)));
    }
    Ok(Duration::from_secs_f64(ms / 1000.0))
}

impl TimeControl {
    /// Checks the page's time setting.
    pub fn check(choice: &TimeChoice) -> Result<TimeControl, String> {
        match *choice {
            TimeChoice::Movetime { ms } => {
                within("The time per move", ms, MOVETIME_MS).map(TimeControl::Movetime)
            }
            TimeChoice::Clock { base_ms, inc_ms } => Ok(TimeControl::Clock {
                base: within("The clock", base_ms, BASE_MS)?,
                inc: within("The increment", inc_ms, (0.0, INC_MAX_MS))?,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensible_times_are_accepted() {
        assert_eq!(
            TimeControl::check(&TimeChoice::Movetime { ms: 500.0 }),
            Ok(TimeControl::Movetime(Duration::from_millis(500)))
        );
        assert_eq!(
            TimeControl::check(&TimeChoice::Clock { base_ms: 3000.0, inc_ms: 0.0 }),
            Ok(TimeControl::Clock { base: Duration::from_secs(3), inc: Duration::ZERO })
        );
    }

    #[test]
    fn absurd_times_are_refused_with_the_range() {
        let e = TimeControl::check(&TimeChoice::Movetime { ms: 1e19 }).unwrap_err();
        assert_eq!(
            e,
            "The time per move must be between 0.01 s and 3600 s (not 10000000000000000 s)"
        );
        let e = TimeControl::check(&TimeChoice::Movetime { ms: 0.0 }).unwrap_err();
        assert!(e.ends_with("(not 0 s)"), "{e}");
        let e = TimeControl::check(&TimeChoice::Movetime { ms: f64::NAN }).unwrap_err();
        assert_eq!(e, "The time per move must be between 0.01 s and 3600 s");
        let e = TimeControl::check(&TimeChoice::Clock { base_ms: 60_000.0, inc_ms: -1.0 });
        assert!(e.unwrap_err().starts_with("The increment must be between 0 s and 3600 s"));
    }
}

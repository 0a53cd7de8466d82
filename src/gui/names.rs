//! What people call the two sides of each game (White and Black, Red and Blue, …): every
//! text the server writes about a side uses these words, and the page gets them in `hello`.

/// The names of player 1 and player 2 of `game`; "Player 1" and "Player 2" for a game
/// without colours of its own.
pub fn sides(game: &str) -> [&'static str; 2] {
    match game {
        "morris" | "moebius-chess" => ["White", "Black"],
        "mobius" => ["Red", "Blue"],
        "mabula" => ["Black", "White"],
        "morpiae" => ["Red", "Green"],
        _ => ["Player 1", "Player 2"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry;

    #[test]
    fn every_game_names_its_sides() {
        for g in registry() {
            assert_ne!(sides(g.name)[0], "Player 1", "{}", g.name);
        }
        assert_eq!(sides("mabula"), ["Black", "White"]);
    }
}

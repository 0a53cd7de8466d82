//! Helpers shared by the games' position strings.

/// One rank of a FEN-like board: each occupied cell as its letter, each run of empty
/// cells as its length (`[Some('W'), None, None, Some('B')]` → `W2B`).
pub fn compress_rank(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut rank = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            Some(c) => {
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                    empty = 0;
                }
                rank.push(c);
            }
            None => empty += 1,
        }
    }
    if empty > 0 {
        rank.push_str(&empty.to_string());
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::compress_rank;

    #[test]
    fn runs_of_empty_cells_become_counts() {
        assert_eq!(compress_rank([Some('W'), None, None, Some('B')]), "W2B");
        assert_eq!(compress_rank([None, None, None]), "3");
        assert_eq!(compress_rank([Some('B'), None]), "B1");
        assert_eq!(compress_rank(std::iter::empty()), "");
    }
}

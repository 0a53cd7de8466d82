//! Threads of a Monte Carlo search that split the root moves between them.
//!
//! After a first part of the search over all root moves, the root moves, ranked by their
//! visits, are dealt out in turn to the threads ([`deal`]): the best to thread 0, the
//! second to thread 1, …, so that each of the N best candidates is searched by a whole
//! thread, as deep as one thread would search its best move alone. From then on each
//! thread selects at the root only among its share. Visits are comparable only within a
//! share (each thread gives most of its simulations to its own best move), so each
//! share's most visited move is its candidate and the candidate with the best mean
//! result is played ([`choose`]). With more threads than root moves, a thread dealt none
//! searches them all.
//!
//! Measured in Mobius (`Threads 2` against `Threads 1` at 2+0.02; docs/strength.md):
//! +54.3 ± 24.0 Elo over 800 games, where root parallelism with summed root statistics
//! scored between −10.4 and +13.9.

/// Simulations of a search (over all threads) after which the threads split the root
/// moves.
pub const SPLIT_AFTER: u64 = 4096;

/// The thread of each root move (by index in `visits`): the moves ranked by `visits`
/// (most first, the first of equals first), the k-th to thread k mod `threads`.
pub fn deal(visits: &[u64], threads: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..visits.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(visits[i]), i));
    let mut owners = vec![0; visits.len()];
    for (rank, &i) in order.iter().enumerate() {
        owners[i] = rank % threads.max(1);
    }
    owners
}

/// The root move to play (an index into `visits`, `means` and `owners`; not empty):
/// each thread's most visited move of its share is a candidate, and the candidate with
/// the best mean is played; of equal means, the more visited, then the first.
pub fn choose(visits: &[u64], means: &[f64], owners: &[usize]) -> usize {
    let mut order: Vec<usize> = (0..visits.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(visits[i]), i));
    let mut seen = Vec::new();
    let mut best: Option<usize> = None;
    for i in order {
        if seen.contains(&owners[i]) || (visits[i] == 0 && best.is_some()) {
            continue;
        }
        seen.push(owners[i]);
        if best.is_none_or(|b| means[i] > means[b]) {
            best = Some(i);
        }
    }
    best.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{choose, deal};

    #[test]
    fn root_moves_are_dealt_out_by_rank() {
        let visits = [10, 40, 30, 20];
        // Ranked by visits: 1, 2, 3, 0.
        assert_eq!(deal(&visits, 2), [1, 0, 1, 0]);
        assert_eq!(deal(&visits, 3), [0, 0, 1, 2]);
        assert_eq!(deal(&visits, 1), [0, 0, 0, 0]);
        // Equal visits: the first first.
        assert_eq!(deal(&[5, 5, 5], 2), [0, 1, 0]);
    }

    #[test]
    fn each_share_proposes_its_most_visited_move_and_the_best_mean_is_played() {
        // Thread 0 owns moves 0 and 2, thread 1 moves 1 and 3.
        let owners = [0, 1, 0, 1];
        // Move 2 has the best mean of all but is not its share's most visited move.
        let visits = [900, 1000, 50, 10];
        assert_eq!(choose(&visits, &[0.6, 0.58, 0.9, 0.1], &owners), 0);
        assert_eq!(choose(&visits, &[0.5, 0.58, 0.9, 0.1], &owners), 1);
        // Equal means: the more visited candidate.
        assert_eq!(choose(&visits, &[0.5, 0.5, 0.9, 0.9], &owners), 1);
        // One thread: the most visited move.
        assert_eq!(choose(&visits, &[0.1, 0.2, 0.9, 0.9], &[0, 0, 0, 0]), 1);
    }
}

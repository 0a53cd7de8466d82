//! Openings that the seat does not decide (`ugine genfens --balanced` and
//! `--balanced-by-play`): the candidates of an opening generator, each judged by
//! searches or by self-play of ugine, kept when balanced.

use crate::engine::{Session, search_nodes, self_play};
use crate::runner::note;
use crate::runner::records::opening::{Opening, generate_openings_where};
use crate::search::Score;

/// Which candidates to judge: the generator's `n` openings of `plies` random plies (or
/// endgames of `men` men per side), from `seed`, in the generator's order.
#[derive(Clone, Copy, Debug)]
pub struct Candidates {
    pub n: usize,
    pub plies: usize,
    pub men: Option<usize>,
    pub seed: u64,
}

/// The openings of `ugine genfens --balanced CP`: the candidates, each searched
/// afresh (a new game, so a score does not depend on the candidates before it) to
/// `nodes`; kept when the score is a `cp` score within ±`cp`.
pub fn balanced_by_score(
    session: &mut dyn Session,
    wanted: &Candidates,
    nodes: u64,
    cp: i32,
) -> anyhow::Result<Vec<Opening>> {
    anyhow::ensure!(cp >= 0, "--balanced must be at least 0");
    let judged = format!("within ±{cp} at {nodes} nodes");
    openings_judged(session, wanted, &judged, |s: &mut dyn Session| {
        Ok(matches!(search_nodes(s, nodes)?, (_, Some(Score::Cp(v))) if v.abs() <= cp))
    })
}

/// The openings of `ugine genfens --balanced-by-play`: the candidates, each
/// played twice from scratch by ugine at `n` nodes against ugine at twice that
/// (seats swapped); kept unless the side to move won both games or lost both.
pub fn balanced_by_play(
    session: &mut dyn Session,
    wanted: &Candidates,
    n: u64,
) -> anyhow::Result<Vec<Opening>> {
    let judged = format!("not decided by the seat at {n} and {} nodes", 2 * n);
    openings_judged(session, wanted, &judged, |s: &mut dyn Session| {
        let mover = s.side_to_move();
        let mut mover_points = 0.0;
        for mover_nodes in [n, 2 * n] {
            mover_points += self_play(s, mover, [mover_nodes, 3 * n - mover_nodes])?.points(mover);
        }
        Ok(mover_points > 0.0 && mover_points < 2.0)
    })
}

/// The candidates of `genfens` (the same, in the same order, as without a filter) for
/// which `balanced` is true, each judged in a new game set to the candidate. Reports on
/// stderr how many candidates it took; an error when 100 candidates per opening (plus
/// 1000) were not enough or a judgement failed.
fn openings_judged(
    session: &mut dyn Session,
    wanted: &Candidates,
    judged: &str,
    mut balanced: impl FnMut(&mut dyn Session) -> anyhow::Result<bool>,
) -> anyhow::Result<Vec<Opening>> {
    let mut candidates = 0usize;
    let mut failure = None;
    let keep = |s: &mut dyn Session, o: &Opening| {
        candidates += 1;
        s.new_game();
        if failure.is_some() || o.check(s).is_err() {
            return false;
        }
        balanced(s).unwrap_or_else(|e| {
            failure = Some(e);
            false
        })
    };
    let max = 100 * wanted.n + 1000;
    let openings = generate_openings_where(
        session,
        wanted.n,
        wanted.plies,
        wanted.men,
        wanted.seed,
        max,
        keep,
    );
    if let Some(e) = failure {
        return Err(e.context("a balance judgement failed"));
    }
    note(&format!("genfens: kept {} of {candidates} candidates {judged}", openings.len()));
    anyhow::ensure!(
        openings.len() == wanted.n,
        "only {} of {} openings {judged} after {candidates} candidates",
        openings.len(),
        wanted.n
    );
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Outcome;
    use crate::engine::self_play;
    use crate::runner::records::opening::{default_plies, generate_openings};
    use crate::runner::referee::Referee;

    fn mabula() -> Box<dyn Session> {
        Referee::new("mabula", &[]).unwrap().session().unwrap()
    }

    #[test]
    fn random_setups_get_random_plies_only_when_asked() {
        let mut session = mabula();
        assert_eq!(default_plies(session.as_ref(), 4), 0);
        let morris = Referee::new("morris", &[]).unwrap().session().unwrap();
        assert_eq!(default_plies(morris.as_ref(), 4), 4);
        for o in generate_openings(session.as_mut(), 5, 3, None, 9) {
            assert!(o.fen.is_some(), "{o}");
            assert_eq!(o.moves.len(), 3, "{o}");
            o.check(session.as_mut()).unwrap();
        }
    }

    #[test]
    fn balanced_by_play_drops_the_candidates_that_one_side_wins_from_both_seats() {
        let nodes = 200;
        let mut session = mabula();
        let wanted = Candidates { n: 4, plies: 0, men: None, seed: 5 };
        let kept = balanced_by_play(session.as_mut(), &wanted, nodes).unwrap();
        let mut expected = Vec::new();
        let mut judged = 0;
        for c in generate_openings(session.as_mut(), 100, 0, None, 5) {
            if expected.len() == 4 {
                break;
            }
            judged += 1;
            session.new_game();
            c.check(session.as_mut()).unwrap();
            let fen = session.fen();
            let mover = session.side_to_move();
            let weaker = self_play(session.as_mut(), mover, [nodes, 2 * nodes]).unwrap();
            let stronger = self_play(session.as_mut(), mover, [2 * nodes, nodes]).unwrap();
            assert_eq!(session.fen(), fen, "self-play puts the position back");
            let one_side_won_both = matches!(weaker, Outcome::Win(_)) && weaker == stronger;
            if !one_side_won_both {
                expected.push(c);
            }
        }
        assert_eq!(kept, expected);
        assert!(judged > 4, "no candidate was dropped: the judge decides nothing");
    }
}

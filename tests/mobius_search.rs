//! Mobius search: immediate wins, forced blocks, determinism, tree reuse and reports.

use ugine::core::{Game, Side};
use ugine::games::mobius::{MCTS_PARAMS, Mcts, Mobius, MobiusOptions, playout};
use ugine::search::{NullReporter, Reporter, Score, SearchControl, SearchInfo, Searcher};

const THREE_ZONES: &str = "l1 c3 k2 e3 l3 g3 k4 i3 l5 c7 k6 e7 l7 g7 k8 i7 l9 d10 k10 h10 l11 \
    c12 k12 e12 a1";

/// The spec's first test line without its last `drop` moves.
fn line(drop: usize) -> Mobius {
    let mut pos = Mobius::startpos(&MobiusOptions::default());
    let moves: Vec<&str> = THREE_ZONES.split_whitespace().collect();
    for m in &moves[..moves.len() - drop] {
        pos.play(pos.parse_move(m).unwrap());
    }
    pos
}

#[derive(Default)]
struct Record(Vec<SearchInfo>);

impl Reporter for Record {
    fn info(&mut self, info: &SearchInfo) {
        self.0.push(info.clone());
    }
}

fn search(mcts: &mut Mcts, pos: &Mobius, playouts: u64) -> (String, Score, Vec<SearchInfo>) {
    let mut rec = Record::default();
    let ctl = SearchControl::fixed(None, Some(playouts));
    let (mv, score) = mcts.run(pos, &ctl, &mut rec);
    (mv.to_string(), score, rec.0)
}

#[test]
fn plays_the_immediate_win() {
    let pos = line(1);
    let (mv, score, infos) = search(&mut Mcts::new(16, MCTS_PARAMS), &pos, 2000);
    assert_eq!(mv, "a1");
    assert_eq!(score, Score::Mate(1));
    assert_eq!(infos.last().unwrap().pv, ["a1"]);
}

#[test]
fn blocks_the_only_winning_cell_of_the_opponent() {
    let pos = line(2);
    assert_eq!(pos.side_to_move(), Side::P2);
    assert!(pos.wins_with(Side::P1, ugine::games::mobius::geometry::parse_cell("a1").unwrap()));
    let (mv, _, _) = search(&mut Mcts::new(16, MCTS_PARAMS), &pos, 2000);
    assert_eq!(mv, "a1");
}

#[test]
fn fixed_playouts_are_deterministic_and_reported() {
    let pos = Mobius::startpos(&MobiusOptions::default());
    let (a, sa, infos) = search(&mut Mcts::new(16, MCTS_PARAMS), &pos, 3000);
    let (b, sb, _) = search(&mut Mcts::new(16, MCTS_PARAMS), &pos, 3000);
    assert_eq!((a.clone(), sa), (b, sb));
    let last = infos.last().expect("a final report");
    assert_eq!(last.nodes, 3000);
    assert_eq!(last.pv.first(), Some(&a));
    assert!(matches!(last.score, Score::Cp(cp) if cp.abs() <= 1200));
}

#[test]
fn the_tree_is_kept_for_a_descendant_position() {
    let mut mcts = Mcts::new(16, MCTS_PARAMS);
    let pos = Mobius::startpos(&MobiusOptions::default());
    let (_, _, infos) = search(&mut mcts, &pos, 4000);
    let pv = &infos.last().unwrap().pv;
    assert!(pv.len() >= 2, "{pv:?}");
    let mut next = pos.clone();
    for m in &pv[..2] {
        next.play(next.parse_move(m).unwrap());
    }
    // A zero budget only re-roots: the subtree of the PV's second move survives.
    mcts.run(&next, &SearchControl::fixed(None, Some(0)), &mut NullReporter);
    assert!(mcts.tree_nodes() > 140, "kept {} nodes", mcts.tree_nodes());
    // An unrelated position starts a fresh tree (root and its children only).
    let other = line(5);
    mcts.run(&other, &SearchControl::fixed(None, Some(0)), &mut NullReporter);
    let mut moves = Vec::new();
    other.generate_moves(&mut moves);
    assert!(mcts.tree_nodes() <= moves.len() + 1);
}

#[test]
fn two_threads_count_playouts_over_both_and_one_thread_stays_deterministic() {
    let pos = line(6);
    let mut mcts = Mcts::new(16, MCTS_PARAMS);
    mcts.set_threads(2);
    let (mv, _, infos) = search(&mut mcts, &pos, 3000);
    let last = infos.last().expect("a final report");
    // Each thread stops once the shared count reaches the budget: at most one extra.
    assert!((3000..=3001).contains(&last.nodes), "{} playouts", last.nodes);
    assert!(pos.parse_move(&mv).is_ok(), "{mv}");
    assert_eq!(last.pv.first(), Some(&mv));
    // Back to one thread: the same answer as a fresh one-thread search.
    mcts.set_threads(1);
    let again = search(&mut mcts, &pos, 3000);
    let fresh = search(&mut Mcts::new(16, MCTS_PARAMS), &pos, 3000);
    assert_eq!((again.0, again.1), (fresh.0, fresh.1));
}

#[test]
fn random_playouts_are_reproducible_and_both_sides_win() {
    let pos = line(10);
    let red = playout::random_playouts(&pos, 2000, 7);
    assert_eq!(red, playout::random_playouts(&pos, 2000, 7));
    assert!(red > 0 && red < 2000, "Red won {red} of 2000");
}

#[test]
fn the_tree_keeps_expanding_after_it_fills_at_a_small_hash() {
    let pos = Mobius::startpos(&MobiusOptions::default());
    let mut mcts = Mcts::new(1, MCTS_PARAMS);
    let (_, _, infos) = search(&mut mcts, &pos, 15000);
    // More nodes were created than the tree holds: it filled and was collected.
    assert!(mcts.expanded_nodes() > mcts.tree_nodes() as u64, "{}", mcts.expanded_nodes());
    assert!(infos.last().unwrap().hashfull.unwrap() <= 1000);
    // A further search of the same position (the tree is kept) still expands nodes.
    let (_, _, infos) = search(&mut mcts, &pos, 3000);
    assert!(mcts.expanded_nodes() > 0);
    assert!(infos.last().unwrap().hashfull.unwrap() <= 1000);
}

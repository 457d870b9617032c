//! Tests of the evaluation search.
use super::grow::near_last_move;
use super::ordering::ranked_moves;
use super::*;
use crate::rules::tactics::decisive_move;
use crate::rules::test_support::{play_out, random_positions};
use crate::rules::Point;
use crate::search::analysis::best_move;
use crate::search::endgame;
use crate::search::engine::{Budget, Engine};
use crate::search::policy;
use crate::search::tree::Tree;

fn tree(mcts: &Mcts) -> &Tree<McStats> {
    &mcts.core.tree
}

/// The order in which a new node of `position` tries its children, best first, before the
/// tree has any history, where the policy network is not used: by the mobility each move
/// leaves, ties to the points near `last_move` (within `params.last_move_radius`), then
/// contested points.
fn move_order(position: &Position, last_move: Option<Point>, params: &Params) -> Vec<Point> {
    let near = near_last_move(last_move, params.last_move_radius);
    let count = position.legal_moves().count() as usize;
    let order = ranked_moves(position, count, near, &FRESH_HISTORY[0], Bitboard::EMPTY, false).moves;
    order[..count].iter().map(|&i| Point::from_index(i).expect("a board point")).collect()
}

#[test]
fn move_order_lists_every_legal_move_once_best_mobility_first() {
    for position in random_positions(19, |p| p.moves_played() >= 10) {
        let order = move_order(&position, None, &Params::default());
        let legal = position.legal_moves();
        assert_eq!(order.len() as u32, legal.count());
        assert_eq!(order.iter().copied().collect::<Bitboard>(), legal);
        let to_move = position.to_move().index();
        let mobility = |p: Point| {
            let after = position.legal_both_after(p);
            eval::mobility(after[to_move], after[1 - to_move])
        };
        assert_eq!(mobility(order[0]), legal.iter().map(mobility).max().unwrap(), "{position}");
    }
}

#[test]
fn nodes_that_use_the_policy_try_children_in_its_order() {
    // With `policy_depth` 1 the root tries its children in the network's order, and a child
    // with at least `policy_visits` visits grows its block with the best of its untried
    // moves by the network; without the policy the root follows the mobility ranking. A
    // fresh tree does not know the move that reached its root.
    let network = policy::Network::embedded();
    let moves = [(4, 4), (2, 2), (6, 6), (3, 5)];
    let position = play_out(&moves);
    let params = Params { policy_depth: 1, policy_visits: 200, memory_bytes: 64 << 20, ..Params::default() };
    let mut search = Mcts::new(params, 1);
    search.think(&position, &Budget::nodes(20_000));
    let tree = tree(&search);
    let moves_of =
        |id: NodeId| -> Vec<u8> { tree.children(id).map(|c| tree.point(c).index() as u8).collect() };
    let tried = moves_of(NodeId::ROOT);
    let order = network.ranked(&position, None);
    assert_eq!(tried, order[..tried.len()], "the root's children in the network's order");
    let mut checked = 0;
    for c in tree.children(NodeId::ROOT) {
        // Its blocks of 4, 8 and 16 children came from the ranking (made at its 1st, 33rd
        // and 131st visits); the block of 32, made at its 523rd, from the network's order.
        if tree.child_count(c) <= 16 {
            continue;
        }
        let mut after = position.clone();
        after.play(tree.point(c)).unwrap();
        let tried = moves_of(c);
        let first: Bitboard = tried[..16].iter().map(|&m| Point::from_index(m).unwrap()).collect();
        let rest: Vec<u8> = network
            .ranked(&after, Some(tree.point(c)))
            .into_iter()
            .filter(|&m| !first.has(Point::from_index(m).unwrap()))
            .collect();
        assert_eq!(tried[16..], rest[..tried.len() - 16], "a busy child's later children");
        checked += 1;
    }
    assert!(checked > 0, "some child of the root was busy");
    let without = Params { policy_depth: 0, policy_visits: 0, ..params };
    let mut plain = Mcts::new(without, 1);
    plain.think(&position, &Budget::nodes(20_000));
    let first = plain.core.tree.point(plain.core.tree.child_at(NodeId::ROOT, 0));
    assert_eq!(first, move_order(&position, None, &Params::default())[0]);
}

#[test]
fn fixed_nodes_are_reproducible_and_legal() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let a = Mcts::new(Params::default(), 1).think(&position, &Budget::nodes(5000));
    let b = Mcts::new(Params::default(), 2).think(&position, &Budget::nodes(5000));
    assert_eq!(a.best, b.best, "search does not depend on the seed when it needs no randomness");
    assert_eq!(a.iterations, 5000);
    assert!(position.legal_moves().has(a.best));
    assert_eq!(a.pv.first(), Some(&a.best));
}

#[test]
fn the_solvers_proofs_reach_the_tree() {
    // Endgames the solver proves lost for the side to move: its share of the budget ends
    // with no winning move to play, and the tree search that follows finds each root
    // move's proof in the solver's table as it tries the move, so it reports the loss.
    // (A search that does not read the table fails here: its share does not prove them.)
    let params = Params { endgame_points: 81, memory_bytes: 1 << 20, ..Params::default() };
    let mut lost = 0;
    for position in random_positions(7, |p| (14..=18).contains(&p.live_points())) {
        let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
        if exact.win || decisive_move(&position).is_some() {
            continue;
        }
        let budget = Budget::nodes(2 * exact.nodes + 200);
        let report = Mcts::new(params, 0).think(&position, &budget);
        assert_eq!(report.proof, Proof::Loss, "the loss is reported\n{position}");
        lost += 1;
    }
    assert!(lost >= 5, "only {lost} lost positions");
}

#[test]
fn small_endgames_in_the_tree_are_proven_by_the_solver() {
    // With the root's own solver off, a short search proves its root only through the
    // proofs of its children: with the tree's proofs on, every position below the limit is
    // proven, with the solver's verdict; without them, fewer are.
    let off = Params { endgame_points: 0, tree_solve_points: 0, memory_bytes: 1 << 20, ..Params::default() };
    let on = Params { tree_solve_points: 16, tree_solve_nodes: 1_000_000, ..off };
    let (mut positions, mut proven_without) = (0, 0);
    for position in random_positions(9, |p| (12..=16).contains(&p.live_points())) {
        let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
        let report = Mcts::new(on, 0).think(&position, &Budget::nodes(3000));
        assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
        if Mcts::new(off, 0).think(&position, &Budget::nodes(3000)).proof.is_known() {
            proven_without += 1;
        }
        positions += 1;
    }
    assert!(positions >= 10, "only {positions} positions");
    assert!(proven_without < positions, "the search proves them all without the solver");
}

#[test]
fn endgame_wins_proven_by_the_solver_are_played() {
    let params = Params { endgame_points: 81, memory_bytes: 1 << 20, ..Params::default() };
    let mut rng = fastrand::Rng::with_seed(11);
    let mut proven = 0;
    while proven < 10 {
        let mut moves = Vec::new();
        crate::rules::random_game(&mut rng, |p| moves.push(p));
        // Twelve moves before the end: small enough to solve in the test's budget.
        let cut = moves.len().saturating_sub(12);
        let position = Position::from_moves(moves[..cut].iter().copied()).unwrap();
        let Some(solution) = endgame::solve(&position, &Budget::nodes(200_000)) else { continue };
        if !solution.win || decisive_move(&position).is_some() {
            continue;
        }
        let report = Mcts::new(params, 0).think(&position, &Budget::nodes(400_000));
        assert_eq!(report.proof, Proof::Win);
        let mut next = position.clone();
        next.play(report.best).unwrap();
        let reply = endgame::solve(&next, &Budget::nodes(200_000)).expect("solvable");
        assert!(!reply.win, "after the reported winning move the opponent is lost");
        proven += 1;
    }
}

/// The ranking computed by making every move but those in `skip`: mobility after it, then
#[test]
fn plays_a_decisive_move_at_once() {
    for position in random_positions(5, |p| decisive_move(p).is_some()) {
        let report = Mcts::new(Params::default(), 0).think(&position, &Budget::nodes(1000));
        assert_eq!(report.proof, Proof::Win);
        let mut next = position.clone();
        next.play(report.best).unwrap();
        assert!(next.is_terminal(), "the reported win ends the game");
    }
}

#[test]
fn tree_is_reused_two_moves_later_and_stays_under_the_cap() {
    let params = Params { memory_bytes: 20_000_000, ..Params::default() };
    let mut mcts = Mcts::new(params, 0);
    let cap = tree(&mcts).capacity();
    let mut position = Position::new();
    let mut rng = fastrand::Rng::with_seed(9);
    let mut reused = 0;
    for _ in 0..12 {
        let report = mcts.think(&position, &Budget::nodes(30_000));
        assert!(tree(&mcts).len() <= cap);
        assert!(position.legal_moves().has(report.best));
        position.play(report.best).unwrap();
        if position.is_terminal() {
            break;
        }
        let reply = position.legal_moves().choose(&mut rng).unwrap();
        let kept_tree = tree(&mcts);
        let kept = kept_tree.child(NodeId::ROOT, report.best).and_then(|c| kept_tree.child(c, reply));
        let visits = kept.map(|id| kept_tree.stats(id).visits);
        position.play(reply).unwrap();
        if position.is_terminal() {
            break;
        }
        // Whether this exact reply was searched depends on the tree; when it was, the next
        // search starts from its statistics.
        if let Some(visits) = visits {
            mcts.core.tree.set_root(&position);
            assert_eq!(tree(&mcts).stats(NodeId::ROOT).visits, visits, "the root keeps its statistics");
            assert_eq!(tree(&mcts).root_last_move(), Some(reply));
            reused += 1;
        }
    }
    assert!(reused >= 3, "only {reused} replies were in the tree");
}

/// Checks every child in a block, tried or not yet, is a legal, distinct move of its
/// parent's position and no node has fewer visits than its children together.
fn assert_consistent(mcts: &Mcts, id: NodeId, position: &Position) {
    let tree = tree(mcts);
    let stats = tree.stats(id);
    let mut seen = Bitboard::EMPTY;
    let widest = (mcts.core.params.widening * (stats.visits as f32).sqrt()).ceil() as usize;
    let tried = tree.child_count(id);
    assert!(tried <= widest, "node {id:?}: {tried} children after {} visits", stats.visits);
    for slot in 0..tree.slots(id) {
        let p = tree.point(tree.child_at(id, slot));
        assert!(position.legal_moves().has(p) && !seen.has(p), "child {p} of node {id:?}");
        seen |= Bitboard::from(p);
    }
    let mut child_visits = 0;
    for child in tree.children(id) {
        child_visits += tree.stats(child).visits;
        let mut next = position.clone();
        next.play_unchecked(tree.point(child));
        assert_consistent(mcts, child, &next);
    }
    assert!(stats.visits >= child_visits);
}

#[test]
fn history_counts_each_move_for_the_colour_that_played_it() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut mcts = Mcts::new(Params::default(), 0);
    mcts.think(&position, &Budget::nodes(20_000));
    let to_move = position.to_move().index();
    let tree = tree(&mcts);
    assert!(tree.child_count(NodeId::ROOT) > 1);
    for child in tree.children(NodeId::ROOT) {
        let stats = mcts.history[to_move][tree.point(child).index()];
        let visits = tree.stats(child).visits;
        // Every visit of the child played its move for the side to move; deeper nodes may
        // have played it too.
        assert!(stats.count >= visits as f32, "{}: {} < {visits}", tree.point(child), stats.count);
        assert!((0.0..=stats.count).contains(&stats.sum));
    }
    let played: f32 = mcts.history.iter().flatten().map(|s| s.count).sum();
    let below_root: u64 = tree.children(NodeId::ROOT).map(|c| subtree_visits(tree, c)).sum();
    assert_eq!(played, below_root as f32, "one record per node on each path below the root");
}

#[test]
fn rerooting_keeps_the_subtree_intact_and_growable() {
    // The evaluation search grows children blocks by moving them to the end of the arena, so
    // a block may come after its own children's blocks: the kept subtree must survive that.
    let mut mcts = Mcts::new(Params::default(), 0);
    let root = Position::new();
    mcts.think(&root, &Budget::nodes(20_000));
    let child = best_move(tree(&mcts), NodeId::ROOT).unwrap();
    let grandchild = best_move(tree(&mcts), child).unwrap();
    let mut target = root.clone();
    target.play_unchecked(tree(&mcts).point(child));
    target.play_unchecked(tree(&mcts).point(grandchild));
    let sum_before = subtree_visits(tree(&mcts), grandchild);
    let size_before = subtree_size(tree(&mcts), grandchild);
    mcts.core.tree.set_root(&target);
    assert_eq!(tree(&mcts).root_last_move(), Some(target_last(&root, &target)), "the last move is known");
    assert_eq!(subtree_visits(tree(&mcts), NodeId::ROOT), sum_before);
    assert_eq!(subtree_size(tree(&mcts), NodeId::ROOT), size_before);
    assert!(tree(&mcts).len() >= size_before);
    assert_consistent(&mcts, NodeId::ROOT, &target);
    mcts.think(&target, &Budget::nodes(20_000));
    assert_consistent(&mcts, NodeId::ROOT, &target);
}

/// The stone `now` has that `before` lacks, of the side that just moved.
fn target_last(before: &Position, now: &Position) -> Point {
    let mover = !now.to_move();
    (now.stones(mover) - before.stones(mover)).first().unwrap()
}

fn subtree_visits(tree: &Tree<McStats>, id: NodeId) -> u64 {
    tree.stats(id).visits as u64 + tree.children(id).map(|c| subtree_visits(tree, c)).sum::<u64>()
}

fn subtree_size(tree: &Tree<McStats>, id: NodeId) -> usize {
    1 + tree.children(id).map(|c| subtree_size(tree, c)).sum::<usize>()
}

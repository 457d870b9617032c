//! Tests of the playout search.
use super::*;
use crate::rules::tactics::decisive_move;
use crate::rules::test_support::{play_out, random_positions};
use crate::rules::Point;
use crate::search::endgame::{self, Solver};
use crate::search::engine::{Budget, Engine};
use crate::search::eval;
use crate::search::tree::Tree;
use std::time::{Duration, Instant};

fn tree(search: &Rave) -> &Tree<RaveStats> {
    &search.core.tree
}

fn small() -> Params {
    Params { memory_bytes: 64 << 20, ..Params::default() }
}

#[test]
fn fixed_simulations_are_reproducible_legal_and_spread_over_the_root() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut search = Rave::new(small(), 3);
    let a = search.think(&position, &Budget::nodes(4000));
    assert_eq!(a.iterations, 4000);
    assert!(position.legal_moves().has(a.best));
    assert_eq!(a.pv.first(), Some(&a.best));
    let children = search.root_children(&position);
    assert_eq!(children.len() as u32, position.legal_moves().count());
    assert_eq!(children.iter().map(|c| c.1).sum::<u32>(), 4000, "each simulation goes through one child");
    let most = children.iter().max_by_key(|c| c.1).unwrap();
    assert_eq!(most.0, a.best, "the most simulated move is played");
    let b = Rave::new(small(), 3).think(&position, &Budget::nodes(4000));
    assert_eq!((b.best, b.pv, b.win_rate), (a.best, a.pv, a.win_rate), "the same seed, the same search");
}

#[test]
fn a_leaf_is_played_out_several_times_each_counted_within_the_budget() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut search = Rave::new(Params { rave_leaf_playouts: 3, ..small() }, 2);
    driver::prepare(&mut search, &position);
    assert_eq!(search.simulate(&position, u64::MAX), 3, "three playouts from the first leaf");
    let visits = |search: &Rave| -> Vec<u32> {
        let tree = tree(search);
        tree.children(NodeId::ROOT).map(|child| tree.stats(child).visits()).collect()
    };
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 3);
    let children = visits(&search);
    assert_eq!(children.iter().filter(|&&n| n > 0).collect::<Vec<_>>(), [&3], "one leaf: {children:?}");
    assert_eq!(search.simulate(&position, 2), 2, "no more than asked");
    // A budget that is not a multiple of three runs exactly, on the same tree.
    let report = search.think(&position, &Budget::nodes(1000));
    assert_eq!(report.iterations, 1000);
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 1005);
    assert_eq!(visits(&search).iter().sum::<u32>(), 1005, "each playout through one child");
    check_tree(&search, &position);
    // On the shared tree too, each thread within its share of the budget.
    let mut search = Rave::new(Params { rave_leaf_playouts: 3, threads: 4, ..small() }, 2);
    assert_eq!(search.think(&position, &Budget::nodes(10_000)).iterations, 10_000);
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 10_000);
    check_tree(&search, &position);
}

#[test]
fn leaves_expanded_at_their_first_visit_end_each_descent_below_them() {
    // The nodes with children, and the fewest simulations of one below the root.
    fn expanded(tree: &Tree<RaveStats>) -> (u64, u32) {
        let (mut stack, mut count, mut fewest) = (vec![NodeId::ROOT], 0, u32::MAX);
        while let Some(id) = stack.pop() {
            if tree.has_children(id) {
                count += 1;
                if id != NodeId::ROOT {
                    fewest = fewest.min(tree.stats(id).visits());
                }
                stack.extend(tree.children(id));
            }
        }
        (count, fewest)
    }
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    for (expand_visits, playouts) in [(0, 1), (0, 3), (1, 1)] {
        let params = Params { rave_expand_visits: expand_visits, rave_leaf_playouts: playouts, ..small() };
        let mut search = Rave::new(params, 5);
        driver::prepare(&mut search, &position);
        for descents in 1..=300 {
            assert_eq!(search.simulate(&position, u64::MAX), u64::from(playouts));
            let (count, fewest) = expanded(tree(&search));
            if expand_visits == 0 {
                assert_eq!(count, descents, "one leaf expanded a descent ({playouts} playouts a leaf)");
            } else {
                assert!(count <= descents && fewest > 1, "a leaf below the root expands at its second visit");
            }
        }
        assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 300 * playouts);
        check_tree(&search, &position);
    }
}

#[test]
fn eyes_are_spoiled_and_leaves_solved_only_in_a_search_short_of_time() {
    let position = play_out(&[(4, 4), (2, 2)]);
    let mut search = Rave::new(small(), 1);
    let (eyes, solves) = (small().playout_eyes_ms, small().rave_solve_ms);
    assert!(solves < eyes);
    // 500 simulations end each search long before its deadline.
    let within = |ms: u32| Budget {
        nodes: Some(500),
        ..Budget::until(Instant::now() + Duration::from_millis(ms.into()))
    };
    let short = |search: &Rave| (search.short.eyes, search.short.solves);
    search.think(&position, &within(solves / 2));
    assert_eq!(short(&search), (true, true));
    search.think(&position, &within((solves + eyes) / 2));
    assert_eq!(short(&search), (true, false), "time enough to solve no leaf");
    search.think(&position, &within(100 * eyes));
    assert_eq!(short(&search), (false, false), "time enough");
    search.think(&position, &within(solves / 2));
    search.think(&position, &Budget::nodes(500));
    assert_eq!(short(&search), (false, false), "no clock");
}

#[test]
fn the_subtree_of_the_position_reached_is_kept() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut search = Rave::new(small(), 1);
    let first = search.think(&position, &Budget::nodes(20_000));
    let mut after = position.clone();
    after.play(first.best).unwrap();
    // The opponent's reply: the move the search expects, whose subtree is the biggest.
    let reply = first.pv[1];
    let child = tree(&search).child(NodeId::ROOT, first.best).unwrap();
    let kept = tree(&search).child(child, reply).unwrap();
    assert!(tree(&search).stats(kept).visits() > 100);
    // The simulations that went below the node, not those that ended at it before it had children.
    let below: u32 = tree(&search).children(kept).map(|id| tree(&search).stats(id).visits()).sum();
    after.play(reply).unwrap();
    search.think(&after, &Budget::nodes(1000));
    let visits: u32 = search.root_children(&after).iter().map(|c| c.1).sum();
    assert_eq!(visits, below + 1000, "the kept simulations and the new ones");
    // A position not reached from the root starts afresh, as does a new game.
    search.think(&position, &Budget::nodes(1000));
    assert_eq!(search.root_children(&position).iter().map(|c| c.1).sum::<u32>(), 1000);
    assert!(search.root_children(&after).is_empty(), "the children of the position searched");
    search.new_game();
    assert!(!tree(&search).holds(&position), "a new game forgets the tree");
}

#[test]
fn small_endgames_are_proven_with_the_solvers_verdict() {
    let mut proven = 0;
    for position in random_positions(9, |p| (8..=12).contains(&p.live_points())) {
        let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
        let report = Rave::new(small(), 0).think(&position, &Budget::nodes(100_000));
        if report.proof.is_known() {
            assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
            proven += 1;
        }
        if exact.win {
            // A winning move is played, proven or not.
            let mut after = position.clone();
            after.play(report.best).unwrap();
            let reply = endgame::solve(&after, &Budget::default()).expect("no limit");
            assert!(!reply.win, "{} throws the win away\n{position}", report.best);
        }
    }
    assert!(proven >= 15, "only {proven} of 20 proven");
}

/// A budget of `nodes` simulations in a search given a minute.
fn nodes_in_a_minute(nodes: u64) -> Budget {
    Budget { deadline: Some(Instant::now() + Duration::from_secs(60)), ..Budget::nodes(nodes) }
}

#[test]
fn the_solver_proves_small_endgames_at_the_leaves_of_short_searches() {
    let (mut with, mut without, mut long, mut unclocked) = (0, 0, 0, 0);
    for position in random_positions(11, |p| (14..=18).contains(&p.live_points())) {
        let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
        // A minute is short under a threshold of a day, long under one of a second.
        let day = 86_400_000;
        let runs = [
            (12, day, nodes_in_a_minute(2000), &mut with),
            (0, day, nodes_in_a_minute(2000), &mut without),
            (12, 1000, nodes_in_a_minute(2000), &mut long),
            (12, day, Budget::nodes(2000), &mut unclocked),
        ];
        for (points, ms, budget, proven) in runs {
            // The root's own solver off: only the tree's proofs count.
            let params =
                Params { rave_solve_points: points, rave_solve_ms: ms, endgame_points: 0, ..small() };
            let report = Rave::new(params, 0).think(&position, &budget);
            if report.proof.is_known() {
                assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
                *proven += 1;
            }
        }
    }
    assert!(with >= without + 5, "{with} proven with the solver at the leaves, {without} without");
    assert_eq!(
        (long, unclocked),
        (without, without),
        "a long search, or one without a clock, solves no leaf"
    );
}

#[test]
fn new_nodes_start_from_the_evaluation_of_their_position() {
    // A middle game, where moves change the mobility by different amounts.
    let position = random_positions(5, |p| p.empty().count() < 50).remove(0);
    let params = Params { rave_eval_weight: 0.5, ..small() };
    let mut search = Rave::new(params, 0);
    search.core.tree.set_root(&position);
    let moves = position.legal_moves();
    let context = Context::new(&params, &search.values, Short::default());
    assert!(expand::expand(&mut search.core.tree, context, NodeId::ROOT, &position, moves, 0));
    let mut priors = Vec::new();
    for p in moves.iter() {
        let mut after = position.clone();
        after.play(p).unwrap();
        let [black, white] = after.legal_both();
        let (mover, to_move) = if after.to_move() == Color::White { (black, white) } else { (white, black) };
        let value = eval::value(&after, mover, to_move, &params);
        let child = tree(&search).stats(tree(&search).child(NodeId::ROOT, p).unwrap());
        let prior = child.sum / child.evidence;
        assert!((prior - (0.5 + 0.5 * (value - 0.5))).abs() < 1e-6, "{p}: {prior} for {value}");
        priors.push(prior);
    }
    assert!(priors.iter().any(|&v| v != priors[0]), "the evaluation tells the moves apart");
}

#[test]
fn near_the_root_the_value_network_corrects_the_evaluations_prior() {
    let position = random_positions(6, |p| p.empty().count() < 60).remove(0);
    let plain = Params { rave_eval_weight: 0.5, ..small() };
    let params = Params { rave_value_weight: 0.5, rave_value_depth: 1, rave_value_prior: 60, ..plain };
    let priors = |params: &Params, depth: usize| {
        let mut search = Rave::new(*params, 0);
        search.core.tree.set_root(&position);
        let context = Context::new(params, &search.values, Short::default());
        let moves = position.legal_moves();
        assert!(expand::expand(&mut search.core.tree, context, NodeId::ROOT, &position, moves, depth));
        let tree = tree(&search);
        moves.iter().map(|p| *tree.stats(tree.child(NodeId::ROOT, p).unwrap())).collect::<Vec<RaveStats>>()
    };
    let means = |stats: &[RaveStats]| stats.iter().map(|s| s.sum / s.evidence).collect::<Vec<f32>>();
    let (plain_stats, corrected_stats) = (priors(&plain, 0), priors(&params, 0));
    let (evaluated, corrected) = (means(&plain_stats), means(&corrected_stats));
    let logits =
        crate::search::policy::Network::value().logits(&crate::search::policy::planes(&position, None));
    for ((p, evaluated), corrected) in position.legal_moves().iter().zip(&evaluated).zip(&corrected) {
        let logit = (evaluated / (1.0 - evaluated)).ln() + 0.5 * logits[p.cell()];
        assert!((corrected - 1.0 / (1.0 + (-logit).exp())).abs() < 1e-5, "{p}: {corrected} from {evaluated}");
    }
    assert_ne!(evaluated, corrected);
    assert!(
        plain_stats.iter().all(|s| s.evidence == plain.rave_prior as f32),
        "the evaluation's prior count"
    );
    assert!(corrected_stats.iter().all(|s| s.evidence == 60.0), "the value network's prior count");
    assert_eq!(means(&priors(&params, 1)), evaluated, "not at rave_value_depth and below");
}

#[test]
fn a_winning_move_is_played_at_once() {
    // The side to move can take the opponent's last legal point.
    for position in random_positions(4, |p| decisive_move(p).is_some()) {
        let mut search = Rave::new(small(), 0);
        search.think(&play_out(&[(4, 4)]), &Budget::nodes(100));
        let report = search.think(&position, &Budget::nodes(1000));
        assert_eq!(report.proof, Proof::Win);
        let mut after = position.clone();
        after.play(report.best).unwrap();
        assert!(after.is_terminal());
        // Found without a search: no children shown, not those of the last search.
        assert!(search.root_children(&position).is_empty() && search.busy_nodes(&position, 0).is_empty());
    }
}

#[test]
fn busy_nodes_are_the_expanded_nodes_below_the_root_simulated_enough() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut search = Rave::new(small(), 2);
    search.think(&position, &Budget::nodes(5000));
    let busy = search.busy_nodes(&position, 200);
    assert!(busy.len() > 1);
    for node in &busy {
        let mut reached = position.clone();
        for &p in &node.line {
            reached.play(p).unwrap();
        }
        let tree = tree(&search);
        let id = node.line.iter().try_fold(NodeId::ROOT, |id, &p| tree.child(id, p)).unwrap();
        assert!(tree.stats(id).visits() >= 200, "only nodes simulated 200 times");
        let moves: Vec<Point> = node.children.iter().map(|c| c.0).collect();
        assert_eq!(moves, reached.legal_moves().iter().collect::<Vec<_>>(), "every legal move");
        let simulated: u32 = node.children.iter().map(|c| c.1).sum();
        assert!(
            simulated > 0 && simulated <= tree.stats(id).visits(),
            "its children's simulations went through it"
        );
    }
    assert!(search.busy_nodes(&position, u32::MAX).is_empty());
}

/// Checks the tree of `search`, last searched from `position`, and the other tree of two:
/// every node with children has one per legal move, in board order, and at least their
/// simulations; every proof is the endgame solver's or agrees with its children's (a root
/// child's, with those of the same child in the other tree), and is marked in its statistics.
/// The number of nodes of this tree.
fn check_tree(search: &Rave, position: &Position) -> usize {
    let other = search.other.as_deref().filter(|other| !tree(other).is_empty());
    if let Some(other) = other {
        check_tree(other, position);
    }
    let other = other.map(tree);
    let tree = tree(search);
    let mut stack = vec![(NodeId::ROOT, position.clone(), 0)];
    let mut nodes = 0;
    let mut solver = None;
    while let Some((id, position, depth)) = stack.pop() {
        nodes += 1;
        let (stats, proof) = (*tree.stats(id), tree.proof(id));
        let marked = [(Proof::Win, f32::INFINITY), (Proof::Loss, f32::NEG_INFINITY)];
        if let Some(&(_, sum)) = marked.iter().find(|m| m.0 == proof) {
            assert_eq!(stats.sum, sum, "a proof is marked in the statistics");
        }
        let theirs = other.filter(|_| depth == 1).and_then(|other| other.child(NodeId::ROOT, tree.point(id)));
        let proven_by_other = theirs.is_some_and(|t| proof.is_known() && other.unwrap().proof(t) == proof);
        // A small endgame's proof is the solver's (a thread may have proven a leaf with the
        // solver as another gave it children); a larger one's agrees with its children's.
        if proof.is_known() && position.live_points() <= 12 {
            let exact = Solver::made_once(&mut solver).mover_proof(&position, u32::MAX);
            assert_eq!(Some(proof), exact, "a proof, for the mover\n{position}");
        } else if proof.is_known() && !proven_by_other {
            let mut proofs = tree.child_proofs(id);
            match proof {
                Proof::Win => assert!(proofs.all(|p| p == Proof::Loss), "won: every reply lost"),
                _ => assert!(proofs.any(|p| p == Proof::Win), "lost: a reply won"),
            }
        }
        if !tree.has_children(id) {
            continue;
        }
        let moves: Vec<Point> = tree.children(id).map(|c| tree.point(c)).collect();
        assert_eq!(moves, position.legal_moves().iter().collect::<Vec<_>>(), "a child per legal move");
        let below: u32 = tree.children(id).map(|c| tree.stats(c).visits()).sum();
        assert!(below <= stats.visits(), "{below} simulations below a node of {}", stats.visits());
        for child in tree.children(id) {
            let mut after = position.clone();
            after.play(tree.point(child)).unwrap();
            stack.push((child, after, depth + 1));
        }
    }
    nodes
}

#[test]
fn threads_grow_one_sound_tree_and_every_simulation_is_counted() {
    let positions = random_positions(21, |p| p.empty().count() <= 61).into_iter().take(4);
    for (k, position) in positions.chain([Position::new()]).enumerate() {
        for threads in [1, 2, 4] {
            let mut search = Rave::new(Params { threads, ..small() }, k as u64);
            let report = search.think(&position, &Budget::nodes(20_000));
            assert_eq!(report.iterations, 20_000, "the budget is shared exactly");
            assert!(position.legal_moves().has(report.best));
            assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 20_000, "no visit lost");
            assert!(check_tree(&search, &position) > 1000);
            // The next move's search keeps the subtree and counts on from it.
            let mut after = position.clone();
            after.play(report.best).unwrap();
            if after.legal_moves().is_empty() {
                continue;
            }
            let kept = tree(&search).stats(tree(&search).child(NodeId::ROOT, report.best).unwrap()).visits();
            search.think(&after, &Budget::nodes(5000));
            assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), kept + 5000, "{threads} threads");
            check_tree(&search, &after);
        }
    }
}

#[test]
fn two_trees_add_their_root_children_once() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let mut search = Rave::new(Params { threads: 2, ..small() }, 8);
    let report = search.think(&position, &Budget::nodes(4000));
    let children = search.root_children(&position);
    assert_eq!(children.iter().map(|c| c.1).sum::<u32>(), 4000, "both trees' simulations, each once");
    // The move played is the surest over both trees' simulations, as the focus is.
    let bound = |&(_, n, mean): &(Point, u32, f32)| mean - 1.0 / (n as f32).sqrt();
    let surest =
        children.iter().filter(|c| c.1 > 0).reduce(|best, c| if bound(c) > bound(best) { c } else { best });
    assert_eq!(surest.unwrap().0, report.best);
    assert_eq!(report.pv[0], report.best, "the line starts with the move played");
    // Searched again, the other tree's root children count only what they have now.
    search.think(&position, &Budget::nodes(4000));
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 8000);
    check_tree(&search, &position);
    // One move on, the child kept as the root counts the other tree's simulations once too.
    let mut after = position.clone();
    after.play(report.best).unwrap();
    let kept = tree(&search).stats(tree(&search).child(NodeId::ROOT, report.best).unwrap()).visits();
    search.think(&after, &Budget::nodes(2000));
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), kept + 2000);
    check_tree(&search, &after);
    // A new game forgets both trees.
    search.new_game();
    search.think(&position, &Budget::nodes(2000));
    assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 2000);
}

#[test]
fn a_root_rule_keeps_the_descents_to_its_moves() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let point = Point::from_xy(3, 5).unwrap();
    for (rule, only) in [(RootRule::Only(point), true), (RootRule::Not(point), false)] {
        let mut search = Rave::new(small(), 4);
        search.root_rule = rule;
        search.think(&position, &Budget::nodes(3000));
        let children = search.root_children(&position);
        let (focused, others): (Vec<&(Point, u32, f32)>, Vec<_>) =
            children.iter().partition(|c| c.0 == point);
        let others: u32 = others.iter().map(|c| c.1).sum();
        let (entered, left) = if only { (focused[0].1, others) } else { (others, focused[0].1) };
        assert_eq!((entered, left), (3000, 0), "{rule:?}: simulations in and out of its moves");
    }
}

#[test]
fn after_the_first_round_one_tree_deepens_the_surest_move_and_the_other_the_rest() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    let params = |rounds| Params { threads: 2, rave_focus_rounds: rounds, ..small() };
    // One round of 2000 simulations is the first round of two of 4000: the same seeds.
    let mut first = Rave::new(params(1), 8);
    first.think(&position, &Budget::nodes(2000));
    let bound = |&(_, n, mean): &(Point, u32, f32)| mean - 1.0 / (n as f32).sqrt();
    let surest = (first.root_children(&position).into_iter().filter(|c| c.1 > 0))
        .reduce(|best, c| if bound(&c) > bound(&best) { c } else { best })
        .unwrap()
        .0;
    let mut search = Rave::new(params(2), 8);
    search.think(&position, &Budget::nodes(4000));
    let own =
        |search: &Rave| search.added.as_ref().expect("the other tree's children added").children.clone();
    let own_visits = |search: &Rave| own(search).iter().find(|c| c.0 == surest).unwrap().1.visits;
    // The second round's 2000 simulations, shared as the trees draw on them.
    let own_total = |search: &Rave| own(search).iter().map(|c| c.1.visits).sum::<u32>();
    let this_second = own_total(&search) - own_total(&first);
    assert_eq!(own_visits(&search), own_visits(&first) + this_second, "this tree's second round deepens it");
    let other_visits = |search: &Rave| search.other.as_ref().unwrap().core.root_child_visits(surest);
    assert_eq!(other_visits(&search), other_visits(&first), "the other's second round leaves it");
    let other_root = search.other.as_ref().unwrap().core.tree.stats(NodeId::ROOT).visits();
    assert_eq!(other_root, 1000 + (2000 - this_second), "the other tree runs the rest of the round");
}

#[test]
fn threads_prove_small_endgames_with_the_solvers_verdict() {
    // Two threads on a tree each, three on the shared tree.
    for threads in [2, 3] {
        let mut proven = 0;
        for position in random_positions(9, |p| (10..=16).contains(&p.live_points())) {
            let exact = endgame::solve(&position, &Budget::default()).expect("no limit");
            // The solver at the leaves too, which the threads share.
            let params = Params {
                threads,
                rave_solve_points: 10,
                rave_solve_ms: 86_400_000,
                endgame_points: 0,
                ..small()
            };
            let mut search = Rave::new(params, 0);
            let report = search.think(&position, &nodes_in_a_minute(30_000));
            if report.proof.is_known() {
                assert_eq!(report.proof, Proof::proven(exact.win), "{position}");
                proven += 1;
            }
            check_tree(&search, &position);
        }
        assert!(proven >= 10, "only {proven} of 20 proven on {threads} threads");
    }
}

#[test]
fn a_tree_full_as_a_search_starts_is_pruned_first() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    for threads in [1, 4] {
        // Filled frozen, then pruned by the next search's preparation.
        let mut search = Rave::new(Params { threads, memory_bytes: 0, prune_share: 0.0, ..small() }, 5);
        search.think(&position, &Budget::nodes(60_000));
        let (len, capacity) = (tree(&search).len(), tree(&search).capacity());
        assert!(len <= capacity && len + 81 > capacity, "full: {len} of {capacity} nodes");
        search.core.params.prune_share = 0.5;
        search.think(&position, &Budget::nodes(100));
        assert_eq!(tree(&search).stats(NodeId::ROOT).visits(), 60_100);
        assert!(tree(&search).len() < capacity / 2 + 100 * 81, "pruned as the search started");
        check_tree(&search, &position);
    }
}

/// The most simulations of a leaf not proven in the tree of `search`, last searched from
/// `position`, and in the other tree of two, each with its own simulations only.
fn busiest_leaf(search: &mut Rave, position: &Position) -> u32 {
    if let Some(added) = search.added.take() {
        roots::take_back(&mut search.core.tree, added, position);
    }
    let trees = std::iter::once(&*search).chain(search.other.as_deref());
    let mut stack: Vec<(&Tree<RaveStats>, NodeId)> =
        trees.map(|search| (tree(search), NodeId::ROOT)).collect();
    let mut busiest = 0;
    while let Some((tree, id)) = stack.pop() {
        if !tree.has_children(id) && !tree.proof(id).is_known() {
            busiest = busiest.max(tree.stats(id).visits());
        }
        stack.extend(tree.children(id).map(|child| (tree, child)));
    }
    busiest
}

#[test]
fn a_full_tree_is_pruned_and_its_busy_leaves_expanded_again() {
    let position = play_out(&[(4, 4), (2, 2), (6, 6)]);
    // One thread, a tree each, one tree shared: the threads stop at a full tree and go on.
    for threads in [1, 2, 4] {
        // The least tree (6,724 nodes), full many times over: a frozen leaf piles up
        // simulations, a pruned tree expands a leaf again once it is busy enough to keep.
        let params = Params { threads, memory_bytes: 0, ..small() };
        let mut pruned = Rave::new(params, 5);
        let mut frozen = Rave::new(Params { prune_share: 0.0, ..params }, 5);
        for search in [&mut pruned, &mut frozen] {
            let report = search.think(&position, &Budget::nodes(60_000));
            assert_eq!(report.iterations, 60_000);
            if threads != 2 {
                assert_eq!(tree(search).stats(NodeId::ROOT).visits(), 60_000, "{threads} threads");
            }
            assert!(tree(search).len() <= tree(search).capacity());
            check_tree(search, &position);
        }
        let (pruned, frozen) = (busiest_leaf(&mut pruned, &position), busiest_leaf(&mut frozen, &position));
        assert!(
            frozen >= 1000 && pruned * 4 < frozen,
            "{threads} threads: busiest leaves {pruned} and {frozen}"
        );
    }
}

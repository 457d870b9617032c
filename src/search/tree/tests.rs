//! Tests of the tree: expansion, growth, rerooting and finding the position reached.

use super::*;
use crate::rules::test_support::play_out;

/// Statistics for the tests: a count, and a mark of the proofs recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Count(u32, i8);

impl Stats for Count {
    fn visits(&self) -> u32 {
        self.0
    }

    fn mean(&self) -> f32 {
        0.5
    }

    fn prove(&mut self, proof: Proof) {
        self.1 = if proof == Proof::Win { 1 } else { -1 };
    }
}

/// Every node below `id`, depth first: its depth, move, statistics, proof and children.
fn describe(tree: &Tree<Count>, id: NodeId) -> Vec<(usize, Point, Count, Proof, usize)> {
    let mut lines = Vec::new();
    let mut stack = vec![(id, 0)];
    while let Some((node, depth)) = stack.pop() {
        lines.push((depth, tree.point(node), *tree.stats(node), tree.proof(node), tree.child_count(node)));
        stack.extend(tree.children(node).map(|c| (c, depth + 1)));
    }
    lines
}

fn fresh() -> Tree<Count> {
    let mut tree = Tree::new(1 << 20);
    tree.set_root(&Position::new());
    tree
}

#[test]
fn rerooting_keeps_the_subtree_with_its_statistics_and_proofs() {
    let mut tree = fresh();
    let moves: Bitboard = Bitboard::FULL.iter().take(5).collect();
    let count = |p: Point| Count(p.index() as u32, 0);
    assert!(tree.expand(NodeId::ROOT, moves, count));
    let children: Vec<NodeId> = tree.children(NodeId::ROOT).collect();
    // Grow the second and fourth children two levels deep, with distinct counts.
    for (k, &child) in children.iter().enumerate().filter(|(k, _)| k % 2 == 1) {
        tree.expand(child, moves, |p| Count((10 * k + p.index()) as u32, 0));
        let grandchildren: Vec<NodeId> = tree.children(child).collect();
        tree.expand(grandchildren[2], moves, count);
        tree.set_proof(grandchildren[2], Proof::Loss);
    }
    let new_root = children[3];
    let before = describe(&tree, new_root);
    tree.reroot(new_root);
    assert_eq!(describe(&tree, NodeId::ROOT), before);
    assert_eq!(tree.len(), 1 + 5 + 5, "the new root, its children and one grandchild's children");
    let leaf = tree.children(NodeId::ROOT).next().unwrap();
    assert!(!tree.has_children(leaf));
    tree.reroot(leaf);
    assert_eq!(tree.len(), 1);
}

#[test]
fn grown_blocks_after_their_childrens_blocks_are_kept_too() {
    // A block grown after its children got blocks of their own moves to the end of the
    // arena, after theirs: rerooting must still find every block's owner.
    let mut tree = fresh();
    let moves: Vec<u8> = Bitboard::FULL.iter().map(|p| p.index() as u8).collect();
    assert!(tree.grow_block(NodeId::ROOT, &moves[..2]));
    let a = tree.add_child(NodeId::ROOT);
    assert!(tree.grow_block(a, &moves[10..13]));
    let a1 = tree.add_child(a);
    tree.add_child(a);
    assert!(tree.grow_block(a1, &moves[20..22]));
    tree.add_child(a1);
    // `a`'s block grows: its two children move to the end, after `a1`'s block.
    assert!(tree.grow_block(a, &moves[30..33]));
    tree.add_child(a);
    let a1 = tree.child_at(a, 0);
    tree.stats_mut(a1).0 = 7;
    assert_eq!(tree.slots(a), 5);
    let before = describe(&tree, a);
    tree.reroot(a);
    assert_eq!(describe(&tree, NodeId::ROOT), before);
    assert_eq!(tree.len(), 1 + 5 + 2, "the root, its block and its child's");
    let slots: Vec<u8> = (0..5).map(|i| tree.point(tree.child_at(NodeId::ROOT, i)).index() as u8).collect();
    let expected = [moves[10], moves[11], moves[30], moves[31], moves[32]];
    assert_eq!(slots, expected, "the children, then the room for more");
}

#[test]
fn expansion_makes_one_child_per_move_until_the_arena_is_full() {
    let mut tree: Tree<Count> = Tree::new(0);
    tree.set_root(&Position::new());
    let moves = Bitboard::FULL;
    let mut made = 1;
    let mut id = NodeId::ROOT;
    while tree.expand(id, moves, |_| Count(0, 0)) {
        let children: Vec<Point> = tree.children(id).map(|c| tree.point(c)).collect();
        assert_eq!(children, moves.iter().collect::<Vec<_>>());
        made += moves.count() as usize;
        id = tree.child_at(id, 0);
    }
    assert_eq!(made, tree.len());
    assert!(tree.len() + moves.count() as usize > tree.capacity(), "full");
    assert!(!tree.has_children(id), "refused, changing nothing");
    assert!(!tree.grow_block(id, &[0; 81]));
}

#[test]
fn the_position_reached_keeps_its_subtree_and_knows_its_last_move() {
    let start = play_out(&[(4, 4), (2, 2)]);
    let mut tree: Tree<Count> = Tree::new(1 << 20);
    tree.set_root(&start);
    assert_eq!(tree.root_last_move(), None, "a first search does not know the last move");
    let moves = start.legal_moves();
    tree.expand(NodeId::ROOT, moves, |p| Count(p.index() as u32, 0));
    let ours = Point::from_xy(6, 6).unwrap();
    let child = tree.child(NodeId::ROOT, ours).unwrap();
    let mut after = start.clone();
    after.play(ours).unwrap();
    tree.expand(child, after.legal_moves(), |p| Count(1000 + p.index() as u32, 0));
    // Our move and the opponent's reply: the grandchild becomes the root.
    let theirs = Point::from_xy(0, 8).unwrap();
    let mut reached = after.clone();
    reached.play(theirs).unwrap();
    tree.set_root(&reached);
    assert!(tree.holds(&reached) && !tree.holds(&start));
    assert_eq!((tree.stats(NodeId::ROOT).0, tree.len()), (1000 + theirs.index() as u32, 1));
    assert_eq!(tree.root_last_move(), Some(theirs));
    // The same position again keeps everything; one not reached from it starts afresh but
    // still knows its last move when it follows by a move.
    tree.expand(NodeId::ROOT, reached.legal_moves(), |_| Count(1, 0));
    tree.set_root(&reached);
    assert_eq!(
        (tree.len(), tree.root_last_move()),
        (1 + reached.legal_moves().count() as usize, Some(theirs))
    );
    let mut next = reached.clone();
    let elsewhere = Point::from_xy(8, 0).unwrap();
    next.play(elsewhere).unwrap();
    next.play(Point::from_xy(1, 1).unwrap()).unwrap();
    next.play(Point::from_xy(3, 7).unwrap()).unwrap();
    tree.set_root(&next);
    assert_eq!((tree.len(), tree.stats(NodeId::ROOT).0, tree.root_last_move()), (1, 0, None));
    tree.forget();
    tree.set_root(&next);
    assert_eq!(tree.root_last_move(), None);
}

/// Every node below the root as [`describe`] gives it, had the children of every node but the
/// root simulated fewer than `least` times been dropped: what [`Tree::prune`] must leave.
fn describe_pruned(tree: &Tree<Count>, least: u32) -> Vec<(usize, Point, Count, Proof, usize)> {
    let mut lines = Vec::new();
    let mut stack = vec![(NodeId::ROOT, 0)];
    while let Some((node, depth)) = stack.pop() {
        let kept = node == NodeId::ROOT || tree.stats(node).0 >= least;
        let children = if kept { tree.child_count(node) } else { 0 };
        lines.push((depth, tree.point(node), *tree.stats(node), tree.proof(node), children));
        if kept {
            stack.extend(tree.children(node).map(|c| (c, depth + 1)));
        }
    }
    lines
}

/// A random tree whose children have at most their parent's visits, as a search's do; some
/// nodes proven.
fn random_tree(rng: &mut fastrand::Rng) -> Tree<Count> {
    let mut tree = fresh();
    tree.stats_mut(NodeId::ROOT).0 = 5000;
    let mut open = vec![NodeId::ROOT];
    while let Some(node) = open.pop() {
        let visits = tree.stats(node).0;
        if visits < 2 || (node != NodeId::ROOT && rng.u8(..4) == 0) {
            continue;
        }
        let moves: Bitboard = Bitboard::FULL.iter().filter(|_| rng.u8(..8) == 0).collect();
        if moves.is_empty() || !tree.expand(node, moves, |_| Count(0, 0)) {
            continue;
        }
        for child in tree.children(node).collect::<Vec<_>>() {
            tree.stats_mut(child).0 = rng.u32(..visits);
            if rng.u8(..16) == 0 {
                tree.set_proof(child, Proof::Loss);
            }
            open.push(child);
        }
    }
    tree
}

#[test]
fn pruning_drops_the_children_of_the_least_visited_nodes_to_fit() {
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..40 {
        let mut tree = random_tree(&mut rng);
        let target = rng.usize(1..tree.len() + 10);
        // The least count that fits: 0 (all kept) or a power of two, the root's block kept.
        let size = |least: u32| describe_pruned(&tree, least).len();
        let least = std::iter::once(0)
            .chain((0..32).map(|k| 1u32 << k))
            .find(|&least| size(least) <= target)
            .unwrap_or(u32::MAX);
        let expected = describe_pruned(&tree, least);
        tree.prune(target);
        assert_eq!(describe(&tree, NodeId::ROOT), expected);
        assert_eq!(tree.len(), expected.len(), "nothing else in the arena");
        let root_block = 1 + tree.slots(NodeId::ROOT);
        assert!(tree.len() <= target.max(root_block), "{} nodes kept for {target}", tree.len());
    }
}

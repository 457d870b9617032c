//! A validated NoGo position and the rules: legal sets, `play`, terminal test, hashing.
//!
//! Stones never leave the board in NoGo, so groups only merge and liberties only shrink. Each
//! point keeps its group's id, from which a group's stones are found in a few instructions
//! (`src/rules/group_ids.rs`), and each group its liberty count and, with two or one, which
//! they are; each colour keeps summaries that make the legal set closed-form:
//!
//! `legal(c) = E & (N(E) | N(safe[c])) & !atari[opponent]`
//!
//! where `E` is the empty points, `N` the neighbour dilation, `safe[c]` the stones of `c` in
//! groups with two or more liberties and `atari[o]` the sole liberties of `o`'s groups with one.

use super::bitboard::{Bitboard, Counts, ADJACENT};
use super::group_ids::{GroupIds, NO_GROUP};
use super::hash::{splitmix64, GOLDEN_GAMMA};
use super::point::{Color, Point, INDEX_COUNT, SIZE};
use std::fmt;

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The point already holds a stone.
    Occupied,
    /// The move would leave an opponent group without liberties. Checked before suicide: a
    /// move that does both is reported as a capture.
    Capture,
    /// The stone's own group would have no liberty.
    Suicide,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            PlayError::Occupied => "the point is occupied",
            PlayError::Capture => "the move would capture (take an opponent group's last liberty)",
            PlayError::Suicide => "the move is suicide (its group would have no liberty)",
        })
    }
}

impl std::error::Error for PlayError {}

/// A move list that is not a legal game: the index of the first bad move and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryError {
    /// The first illegal move's index (0-based) in the list.
    pub index: usize,
    /// Why it is illegal.
    pub error: PlayError,
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "move {} is illegal: {}", self.index, self.error)
    }
}

impl std::error::Error for HistoryError {}

/// Why a set of stones is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A point holds stones of both colours (the point is given).
    Overlap(Point),
    /// A group has no liberty (one of its stones is given).
    NoLiberty(Point),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SetupError::Overlap(p) => write!(f, "{p} holds both a black and a white stone"),
            SetupError::NoLiberty(p) => write!(f, "the group at {p} has no liberty"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Zobrist keys: one per colour and point, and one for white to move.
struct Zobrist {
    stones: [[u64; INDEX_COUNT]; 2],
    white_to_move: u64,
}

const ZOBRIST: Zobrist = {
    let mut stones = [[0u64; INDEX_COUNT]; 2];
    let mut state = 0x4E6F_476F_2D39_7839; // "NoGo-9x9"
    let mut colour = 0;
    while colour < 2 {
        let mut i = 0;
        while i < INDEX_COUNT {
            stones[colour][i] = splitmix64(state);
            state = state.wrapping_add(GOLDEN_GAMMA);
            i += 1;
        }
        colour += 1;
    }
    Zobrist { stones, white_to_move: splitmix64(state) }
};

/// The closed-form legal set of a colour: empty points with an empty neighbour or a neighbour
/// in one of its groups with two liberties or more (`near_safe`, the neighbours of those
/// stones), except the sole liberties of the opponent's groups in atari (`their_atari`), which
/// would capture.
#[inline]
fn legal_set(empty: Bitboard, near_empty: Bitboard, near_safe: Bitboard, their_atari: Bitboard) -> Bitboard {
    (empty & (near_empty | near_safe)) - their_atari
}

/// A group's liberties in two bytes: how many and, for a group with one or two, the xor of
/// their point indices: the sole liberty, or the other one of two when one is known.
#[derive(Clone, Copy)]
struct Liberties {
    count: u8,
    /// Kept only while `count` is at most 2 (a group whose count falls to 2 has it computed).
    index_xor: u8,
}

/// The xor of the indices of the points of `set`.
#[inline]
fn index_xor(set: Bitboard) -> u8 {
    set.into_iter().fold(0, |xor, p| xor ^ p.index() as u8)
}

impl Liberties {
    #[inline]
    fn of(set: Bitboard) -> Liberties {
        let count = set.count() as u8;
        Liberties { count, index_xor: if count <= 2 { index_xor(set) } else { 0 } }
    }

    /// Loses the liberty `p`.
    #[inline]
    fn lose(&mut self, p: Point) {
        self.index_xor ^= p.index() as u8;
        self.count -= 1;
    }

    /// The liberty of a group with two that is not `known`.
    #[inline]
    fn other_than(self, known: Point) -> Bitboard {
        Bitboard::from(Point::from_index_unchecked(self.index_xor ^ known.index() as u8))
    }

    /// The liberty of a group with one.
    #[inline]
    fn sole(self) -> Bitboard {
        Bitboard::from(Point::from_index_unchecked(self.index_xor))
    }
}

/// A legal NoGo position: the stones, the side to move, and the group bookkeeping that makes
/// legal sets and `play` cheap, in 416 bytes: branch by copy and play (there is no undo).
#[derive(Clone)]
pub struct Position {
    stones: [Bitboard; 2],
    /// Stones of each colour whose group has at least two liberties.
    safe: [Bitboard; 2],
    /// Stones of each colour whose group has at least three liberties: one move next to them
    /// leaves them safe.
    roomy: [Bitboard; 2],
    /// Sole liberties of each colour's groups that have exactly one. May also hold points that
    /// have since been filled (a one-liberty group changes only by a stone on that liberty),
    /// which is harmless as legal sets are masked by the empty points.
    atari: [Bitboard; 2],
    to_move: Color,
    moves_played: u16,
    hash: u64,
    /// Group id (the index of one of its stones) of each point, [`NO_GROUP`] if empty.
    group_ids: GroupIds,
    /// The liberties of each group by id; only the entries of current ids are kept.
    liberties: [Liberties; INDEX_COUNT],
}

// The search copies a position at every level it walks down and every child the solver
// searches (`docs/performance-log.md`, the compact position).
const _: () = assert!(std::mem::size_of::<Position>() <= 512);

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl PartialEq for Position {
    /// Positions are equal when they have the same stones and side to move.
    fn eq(&self, other: &Position) -> bool {
        self.stones == other.stones && self.to_move == other.to_move
    }
}

impl Eq for Position {}

impl Position {
    /// The empty board, black to move.
    pub fn new() -> Position {
        Position {
            stones: [Bitboard::EMPTY; 2],
            safe: [Bitboard::EMPTY; 2],
            roomy: [Bitboard::EMPTY; 2],
            atari: [Bitboard::EMPTY; 2],
            to_move: Color::Black,
            moves_played: 0,
            hash: 0,
            group_ids: GroupIds::NONE,
            liberties: [Liberties { count: 0, index_xor: 0 }; INDEX_COUNT],
        }
    }

    /// Plays `moves` in order from the empty board, alternating colours from black, checking
    /// each; the first illegal one is reported by its index.
    pub fn from_moves<I: IntoIterator<Item = Point>>(moves: I) -> Result<Position, HistoryError> {
        let mut position = Position::new();
        for (index, p) in moves.into_iter().enumerate() {
            position.play(p).map_err(|error| HistoryError { index, error })?;
        }
        Ok(position)
    }

    /// A position from stones placed directly (for example an SGF setup), with `to_move` to
    /// play. Valid when no point holds both colours and every group has a liberty. The move
    /// count is the number of stones.
    pub fn from_stones(black: Bitboard, white: Bitboard, to_move: Color) -> Result<Position, SetupError> {
        if let Some(p) = (black & white).first() {
            return Err(SetupError::Overlap(p));
        }
        let mut position = Position::new();
        position.stones = [black & Bitboard::FULL, white & Bitboard::FULL];
        position.to_move = to_move;
        position.moves_played = (black | white).count() as u16;
        let empty = position.empty();
        for colour in [Color::Black, Color::White] {
            let mut unvisited = position.stones[colour.index()];
            while let Some(seed) = unvisited.first() {
                let own = position.stones[colour.index()];
                let mut group = Bitboard::from(seed);
                loop {
                    let grown = (group | group.neighbors()) & own;
                    if grown == group {
                        break;
                    }
                    group = grown;
                }
                unvisited -= group;
                let liberties = group.neighbors() & empty;
                if liberties.is_empty() {
                    return Err(SetupError::NoLiberty(seed));
                }
                position.liberties[seed.index()] = Liberties::of(liberties);
                position.classify(colour, group, liberties);
                for p in group {
                    position.group_ids.set(p, seed.index() as u8);
                    position.hash ^= ZOBRIST.stones[colour.index()][p.index()];
                }
            }
        }
        if to_move == Color::White {
            position.hash ^= ZOBRIST.white_to_move;
        }
        Ok(position)
    }

    /// The colour to play.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Gives the move to the other side, the stones unchanged. NoGo has no pass; this is
    /// for analyses where one side moves alone (counting the moves a side has left).
    #[inline]
    pub fn pass(&mut self) {
        self.to_move = !self.to_move;
        self.hash ^= ZOBRIST.white_to_move;
    }

    /// Stones played so far.
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.moves_played as usize
    }

    /// The stones of `colour`.
    #[inline]
    pub fn stones(&self, colour: Color) -> Bitboard {
        self.stones[colour.index()]
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !(self.stones[0] | self.stones[1])
    }

    /// The colour of the stone on `p`, if any.
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        if self.stones[0].has(p) {
            Some(Color::Black)
        } else if self.stones[1].has(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Zobrist hash of the stones and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The [`Position::hash`] of the position after the side to move plays `p`, without
    /// playing it.
    #[inline]
    pub fn hash_after(&self, p: Point) -> u64 {
        self.hash ^ ZOBRIST.stones[self.to_move.index()][p.index()] ^ ZOBRIST.white_to_move
    }

    /// The points where `colour` may legally play now (whoever is to move).
    #[inline]
    pub fn legal(&self, colour: Color) -> Bitboard {
        let empty = self.empty();
        self.legal_with_empty_neighbors(colour, empty, empty.neighbors())
    }

    /// Both colours' legal sets, `[black, white]`, sharing the work on the empty points.
    #[inline]
    pub fn legal_both(&self) -> [Bitboard; 2] {
        let empty = self.empty();
        let near_empty = empty.neighbors();
        [
            self.legal_with_empty_neighbors(Color::Black, empty, near_empty),
            self.legal_with_empty_neighbors(Color::White, empty, near_empty),
        ]
    }

    /// The live points: those either colour may play, the measure of how far a game has to
    /// run that decides when the endgame solver is tried.
    ///
    /// ```
    /// use nogo::Position;
    /// assert_eq!(Position::new().live_points(), 81);
    /// ```
    #[inline]
    pub fn live_points(&self) -> u32 {
        let [black, white] = self.legal_both();
        (black | white).count()
    }

    #[inline]
    fn legal_with_empty_neighbors(&self, colour: Color, empty: Bitboard, near_empty: Bitboard) -> Bitboard {
        let c = colour.index();
        legal_set(empty, near_empty, self.safe[c].neighbors(), self.atari[1 - c])
    }

    /// Whether `colour` may play the point `p` now (whoever is to move): the point test of
    /// [`Position::legal`], for callers that test a few points rather than the whole board.
    #[inline]
    pub fn is_legal(&self, colour: Color, p: Point) -> bool {
        let c = colour.index();
        let empty = self.empty();
        empty.has(p)
            && !self.atari[1 - c].has(p)
            && !(ADJACENT[p.index()] & (empty | self.safe[c])).is_empty()
    }

    /// The legal moves of the side to move.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        self.legal(self.to_move)
    }

    /// The side to move has no legal move: the game is over and the other side has won.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// The winner, once the position is terminal.
    pub fn winner(&self) -> Option<Color> {
        self.is_terminal().then(|| !self.to_move)
    }

    /// Why the side to move may not play `p`, or `Ok` when it may.
    pub fn check(&self, p: Point) -> Result<(), PlayError> {
        let c = self.to_move.index();
        if !self.empty().has(p) {
            return Err(PlayError::Occupied);
        }
        if self.atari[1 - c].has(p) {
            return Err(PlayError::Capture);
        }
        // Not suicide when the stone touches an empty point or joins a group that keeps a
        // liberty other than `p`.
        if (ADJACENT[p.index()] & (self.empty() | self.safe[c])).is_empty() {
            return Err(PlayError::Suicide);
        }
        Ok(())
    }

    /// Plays `p` for the side to move. An illegal move is refused with its reason and leaves
    /// the position unchanged.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.check(p)?;
        self.play_unchecked(p);
        Ok(())
    }

    /// Plays `p`, which must be in [`Position::legal_moves`]; the search's fast path. An
    /// illegal `p` leaves the bookkeeping inconsistent (checked in debug builds).
    #[inline]
    pub fn play_unchecked(&mut self, p: Point) {
        debug_assert_eq!(self.check(p), Ok(()), "play_unchecked({p}) is illegal");
        let c = self.to_move.index();
        let o = 1 - c;
        let bit = Bitboard::from(p);
        self.hash = self.hash_after(p);
        self.stones[c] |= bit;
        let empty = self.empty();
        let adjacent = ADJACENT[p.index()];

        // Take the liberty from adjacent opponent groups, once from each; a group left with
        // two is no longer roomy (and which two is worked out), one with one is in atari.
        let mut seen = [NO_GROUP; 4];
        for (q, first_seen) in (adjacent & self.stones[o]).into_iter().zip(0..) {
            let id = self.group_ids.get(q);
            if seen[..first_seen].contains(&id) {
                continue;
            }
            seen[first_seen] = id;
            let liberties = &mut self.liberties[id as usize];
            liberties.lose(p);
            if liberties.count == 2 {
                let stones = self.group_ids.members(id);
                self.roomy[o] -= stones;
                liberties.index_xor = index_xor(stones.neighbors() & empty);
            } else if liberties.count == 1 {
                let stones = self.group_ids.members(id);
                self.safe[o] -= stones;
                self.atari[o] |= liberties.sole();
            }
        }

        self.join_own_groups(p, adjacent, empty);
        self.to_move = !self.to_move;
        self.moves_played += 1;
    }

    /// Joins the new stone on `p` (whose neighbours are `adjacent`; `empty` the empty points
    /// after it) and the adjacent groups of the side to move under the id of the first, and
    /// places the group in the summaries.
    #[inline(always)]
    fn join_own_groups(&mut self, p: Point, adjacent: Bitboard, empty: Bitboard) {
        let c = self.to_move.index();
        let bit = Bitboard::from(p);
        let own = adjacent & self.stones[c];
        let Some(first) = own.first() else {
            self.group_ids.set(p, p.index() as u8);
            let liberties = adjacent & empty;
            self.liberties[p.index()] = Liberties::of(liberties);
            self.classify(self.to_move, bit, liberties);
            return;
        };
        let root = self.group_ids.get(first);
        let mut others = [root; 3];
        for (q, slot) in (own - Bitboard::from(first)).into_iter().zip(0..) {
            others[slot] = self.group_ids.get(q);
        }
        let merged = others != [root; 3];
        self.group_ids.set(p, root);
        if !merged {
            // One group joined: its liberties less `p` plus the empty neighbours of `p` not
            // already next to it. When that leaves it in the same summaries, only the new
            // stone enters them.
            let mut already = Bitboard::EMPTY;
            for s in (adjacent & empty).neighbors() & (self.stones[c] - bit) {
                if self.group_ids.get(s) == root {
                    already |= ADJACENT[s.index()];
                }
            }
            let gained = (adjacent & empty) - already;
            let liberties = &mut self.liberties[root as usize];
            let (before, after) = (liberties.count, liberties.count - 1 + gained.count() as u8);
            if after >= 2 && before >= 2 && (after >= 3) == (before >= 3) {
                liberties.count = after;
                if after == 2 {
                    liberties.index_xor ^= p.index() as u8 ^ index_xor(gained);
                }
                self.safe[c] |= bit;
                if after >= 3 {
                    self.roomy[c] |= bit;
                }
                return;
            }
        }
        let stones = if merged { self.group_ids.merge(others, root) } else { self.group_ids.members(root) };
        let liberties = stones.neighbors() & empty;
        self.liberties[root as usize] = Liberties::of(liberties);
        self.classify(self.to_move, stones, liberties);
    }

    /// Both colours' legal sets, `[black, white]`, after the side to move plays `p` (which
    /// must be legal), without making the move. To do this for many moves, use
    /// [`Position::move_effects`] once.
    pub fn legal_both_after(&self, p: Point) -> [Bitboard; 2] {
        self.move_effects().legal_both_after(p)
    }

    /// What the legal sets after each move of the side to move share, computed once.
    #[inline]
    pub fn move_effects(&self) -> MoveEffects<'_> {
        let empty = self.empty();
        let (c, o) = (self.to_move.index(), 1 - self.to_move.index());
        let near_two_empty = empty.neighbors_twice();
        let near_safe = [self.safe[0].neighbors(), self.safe[1].neighbors()];
        let near_empty = empty.neighbors();
        let legal = [
            legal_set(empty, near_empty, near_safe[0], self.atari[1]),
            legal_set(empty, near_empty, near_safe[1], self.atari[0]),
        ];
        MoveEffects {
            position: self,
            empty,
            near_empty,
            near_two_empty,
            near_safe,
            legal,
            quiet: (near_two_empty | self.roomy[c].neighbors())
                - (self.stones[o] - self.roomy[o]).neighbors()
                - (self.stones[c] - self.safe[c]).neighbors(),
            theirs_by_one_empty: legal[o] - near_safe[o] - near_two_empty,
        }
    }

    /// Places a group of `colour` with these stones and liberties in the colour's roomy, safe
    /// and atari summaries.
    #[inline]
    fn classify(&mut self, colour: Color, stones: Bitboard, liberties: Bitboard) {
        let c = colour.index();
        if liberties.count() >= 3 {
            self.roomy[c] |= stones;
        } else {
            self.roomy[c] -= stones;
        }
        if !liberties.has_at_most_one() {
            self.safe[c] |= stones;
        } else {
            self.safe[c] -= stones;
            self.atari[c] |= liberties;
        }
    }

    /// The points of `points` next to a safe stone of colour `c` that is in none of the
    /// groups `ids`.
    #[inline]
    fn next_to_safe_stones(&self, points: Bitboard, c: usize, ids: [u8; 4]) -> Bitboard {
        let mut next = Bitboard::EMPTY;
        for x in points {
            let safe = ADJACENT[x.index()] & self.safe[c];
            if safe.into_iter().any(|s| !ids.contains(&self.group_ids.get(s))) {
                next |= Bitboard::from(x);
            }
        }
        next
    }

    /// The stones of the group on `p` and its liberties, if `p` holds a stone.
    pub fn group_at(&self, p: Point) -> Option<(Bitboard, Bitboard)> {
        self.stone_at(p).map(|_| {
            let stones = self.group_ids.members(self.group_ids.get(p));
            (stones, stones.neighbors() & self.empty())
        })
    }
}

/// The legal sets after any move of the side to move, without making it: the search ranks
/// every move by them. Neighbour sets of the position are computed once, and each move updates
/// them where it changes them; a quiet move (see `quiet`) updates the legal sets directly.
pub struct MoveEffects<'a> {
    position: &'a Position,
    empty: Bitboard,
    near_empty: Bitboard,
    /// Points next to two empty points or more: next to an empty point whichever one is filled.
    near_two_empty: Bitboard,
    /// The neighbours of each colour's stones in groups with two liberties or more.
    near_safe: [Bitboard; 2],
    /// Both colours' legal sets now, `[black, white]`.
    legal: [Bitboard; 2],
    /// Moves whose stone's group is safe and that change no group's safety, so they change
    /// legality only on their point and its neighbours: moves next to no opponent group with
    /// fewer than three liberties and no own group in atari, and next to two empty points or
    /// more or to an own group with three liberties or more.
    quiet: Bitboard,
    /// The opponent's legal points that are legal for it only through one empty neighbour.
    theirs_by_one_empty: Bitboard,
}

impl MoveEffects<'_> {
    /// Both colours' legal sets now, `[black, white]` (the same as [`Position::legal_both`]).
    #[inline]
    pub fn legal_both(&self) -> [Bitboard; 2] {
        self.legal
    }

    /// The quiet moves: those [`MoveEffects::lead_gains`] scores.
    #[inline]
    pub fn quiet(&self) -> Bitboard {
        self.quiet & self.legal[self.position.to_move.index()]
    }

    /// For every quiet move at once, how it changes the mover's lead in legal points: after
    /// quiet move `p`, the side that played it has `lead - 1 + gains.get(p)` more legal points
    /// than the other, where `lead` is that difference now. A quiet move loses its own point,
    /// takes the opponent's point too if it was legal for them, gains the empty neighbours it
    /// makes legal for the mover, and removes its neighbours that were legal for the opponent
    /// through it alone (as [`MoveEffects::legal_both_after`] updates them).
    #[inline]
    pub fn lead_gains(&self) -> Counts {
        let position = self.position;
        let (c, o) = (position.to_move.index(), 1 - position.to_move.index());
        let mut gains = Counts::default();
        gains.add(self.legal[o]);
        gains.add_neighbors_in(self.empty - position.atari[o] - self.legal[c]);
        gains.add_neighbors_in(self.theirs_by_one_empty);
        gains
    }

    /// Whether the side to move's move `p` (legal) leaves the opponent no legal point. Besides
    /// `p` and its neighbours, a move takes from the opponent only the last liberties it
    /// leaves: one for each adjacent opponent group with two (counted here by its stones next
    /// to `p`, at least one a group), one for its own group. Most moves leave more legal points
    /// than that, so they are turned away without the sets after them.
    #[inline]
    pub fn leaves_opponent_no_move(&self, p: Point) -> bool {
        let position = self.position;
        let o = 1 - position.to_move.index();
        let adjacent = ADJACENT[p.index()];
        let far = self.legal[o] - adjacent - Bitboard::from(p);
        far.count() <= (adjacent & (position.safe[o] - position.roomy[o])).count() + 1
            && self.legal_both_after(p)[o].is_empty()
    }

    /// Both colours' legal sets, `[black, white]`, after the side to move plays `p` (which
    /// must be legal).
    #[inline]
    pub fn legal_both_after(&self, p: Point) -> [Bitboard; 2] {
        let position = self.position;
        let c = position.to_move.index();
        let o = 1 - c;
        let bit = Bitboard::from(p);
        let empty = self.empty - bit;
        let adjacent = ADJACENT[p.index()];
        if self.quiet.has(p) {
            // Every neighbour of the new safe stone is legal for the mover but the opponent's
            // last liberties; the opponent loses the neighbours whose only empty neighbour it
            // was and that are not next to its safe stones.
            let mut legal = self.legal;
            legal[c] = (legal[c] - bit) | ((adjacent & empty) - position.atari[o]);
            legal[o] = legal[o] - bit - (adjacent & self.theirs_by_one_empty);
            return legal;
        }
        let (mut near_safe, mut atari) = (self.near_safe, position.atari);
        // Adjacent opponent groups with two liberties are left in atari on the other one.
        // That point is the only neighbour of their stones that stays empty, so it is the
        // only point where the opponent's safe stones may stop being next.
        let mut left_in_atari = [NO_GROUP; 4];
        let mut last_liberties = Bitboard::EMPTY;
        for (q, i) in (adjacent & (position.safe[o] - position.roomy[o])).into_iter().zip(0..) {
            let id = position.group_ids.get(q);
            left_in_atari[i] = id;
            last_liberties |= position.liberties[id as usize].other_than(p);
        }
        if !last_liberties.is_empty() {
            atari[o] |= last_liberties;
            near_safe[o] = (near_safe[o] - last_liberties)
                | position.next_to_safe_stones(last_liberties, o, left_in_atari);
        }
        // The new group is safe with two empty neighbours or a joined group with three
        // liberties. Else its liberties are its empty neighbour, if any, and the other liberty
        // of each joined group with two (one in atari had only `p`).
        let own = adjacent & position.stones[c];
        let mut liberties = adjacent & empty;
        let mut joined = [NO_GROUP; 4];
        let in_atari = liberties.has_at_most_one() && (own & position.roomy[c]).is_empty() && {
            for (q, i) in own.into_iter().zip(0..) {
                let id = position.group_ids.get(q);
                joined[i] = id;
                let group = position.liberties[id as usize];
                if group.count == 2 {
                    liberties |= group.other_than(p);
                }
            }
            liberties.has_at_most_one()
        };
        if in_atari {
            // In atari: the joined groups stop being safe, and their one neighbour that stays
            // empty is the new group's liberty.
            atari[c] |= liberties;
            near_safe[c] = (near_safe[c] - liberties) | position.next_to_safe_stones(liberties, c, joined);
        } else {
            // Safe: the new stone is next to its neighbours; a joined group that was in atari
            // had no empty neighbour but `p`.
            near_safe[c] |= adjacent;
        }
        // A neighbour of `p` stays next to an empty point unless `p` was its only one.
        let near_empty = self.near_empty - (adjacent - self.near_two_empty);
        [
            legal_set(empty, near_empty, near_safe[0], atari[1]),
            legal_set(empty, near_empty, near_safe[1], atari[0]),
        ]
    }
}

impl Position {
    /// The point's symbol in diagrams: `X` a black stone, `O` a white one, `.` empty.
    pub fn symbol(&self, p: Point) -> char {
        match self.stone_at(p) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        }
    }

    /// Row `y` (0 at the top) from left to right: each point and its [`Position::symbol`].
    pub fn row(&self, y: u8) -> impl Iterator<Item = (Point, char)> + '_ {
        (0..SIZE as u8).map(move |x| {
            let p = Point::from_xy(x, y).expect("on board");
            (p, self.symbol(p))
        })
    }

    /// A diagram with GTP coordinates, and `mark` (the last move, say) between parentheses,
    /// e.g. `. (X) .`. Every line is non-empty (GTP ends a response at an empty line).
    pub fn diagram(&self, mark: Option<Point>) -> String {
        const COLUMNS: &str = "   A B C D E F G H J";
        let mut out = format!("{COLUMNS}\n");
        for y in 0..SIZE as u8 {
            let row = SIZE as u8 - y;
            out += &format!("{row} ");
            let mut marked_before = false;
            for (p, symbol) in self.row(y) {
                let marked = mark == Some(p);
                out.push(if marked {
                    '('
                } else if marked_before {
                    ')'
                } else {
                    ' '
                });
                out.push(symbol);
                marked_before = marked;
            }
            out += &format!("{}{row}\n", if marked_before { ')' } else { ' ' });
        }
        out + COLUMNS
    }
}

impl fmt::Display for Position {
    /// [`Position::diagram`], then the side to move.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}\n{} to move, {} stones played", self.diagram(None), self.to_move, self.moves_played)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard;
    use crate::rules::test_support::random_positions;

    fn pt(x: u8, y: u8) -> Point {
        Point::from_xy(x, y).unwrap()
    }

    fn game(moves: &[(u8, u8)]) -> Position {
        Position::from_moves(moves.iter().map(|&(x, y)| pt(x, y))).unwrap()
    }

    #[test]
    fn empty_board_everything_is_legal() {
        let p = Position::new();
        assert_eq!(p.legal(Color::Black), Bitboard::FULL);
        assert_eq!(p.legal(Color::White), Bitboard::FULL);
        assert_eq!(p.to_move(), Color::Black);
        assert!(!p.is_terminal());
    }

    #[test]
    fn a_pass_is_the_same_stones_set_up_with_the_other_side_to_move() {
        let mut seen = 0;
        let mut every_37th = |_: &Position| {
            seen += 1;
            seen % 37 == 0
        };
        for position in random_positions(3, &mut every_37th) {
            let mut passed = position.clone();
            passed.pass();
            let other = !position.to_move();
            let set_up =
                Position::from_stones(position.stones(Color::Black), position.stones(Color::White), other)
                    .unwrap();
            assert_eq!(passed, set_up);
            assert_eq!(passed.hash(), set_up.hash());
            assert_eq!(passed.legal_moves(), position.legal(other));
            let mut back = passed.clone();
            back.pass();
            assert_eq!((back.to_move(), back.hash()), (position.to_move(), position.hash()));
        }
    }

    #[test]
    fn occupied_is_refused_and_position_unchanged() {
        let mut p = game(&[(4, 4)]);
        let before = p.clone();
        assert_eq!(p.play(pt(4, 4)), Err(PlayError::Occupied));
        assert_eq!(p, before);
        assert_eq!(p.hash(), before.hash());
    }

    #[test]
    fn corner_capture_is_refused() {
        // Black at A9 (0,0); white at B9 (1,0); black elsewhere; white at A8 would capture.
        let mut p = game(&[(0, 0), (1, 0), (8, 8)]);
        assert_eq!(p.play(pt(0, 1)), Err(PlayError::Capture));
        assert!(!p.legal(Color::White).has(pt(0, 1)));
        assert!(p.legal(Color::Black).has(pt(0, 1)), "black may extend its own group");
    }

    #[test]
    fn suicide_into_an_eye_is_refused() {
        // Black surrounds the corner point A9 with B9 and A8; white may not play A9.
        let mut p = game(&[(1, 0), (8, 8), (0, 1)]);
        assert_eq!(p.play(pt(0, 0)), Err(PlayError::Suicide));
        assert!(p.legal(Color::Black).has(pt(0, 0)), "black may fill its own eye: B9-A8 keep liberties");
    }

    #[test]
    fn filling_own_last_liberty_is_suicide() {
        // Black A9 is hemmed in by white B9; white B8 and A7 close A8, black's last liberty.
        let mut p = game(&[(0, 0), (1, 0), (8, 8), (1, 1), (8, 7), (0, 2)]);
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.play(pt(0, 1)), Err(PlayError::Suicide));
    }

    #[test]
    fn capture_takes_priority_over_suicide() {
        // White at A9 with black at B9: A8 is white's only liberty. Surround A8 so that a black
        // stone there would also have no liberty: white A7 and B8.
        let mut p = game(&[(1, 0), (0, 0), (8, 8), (0, 2), (8, 7), (1, 1)]);
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.play(pt(0, 1)), Err(PlayError::Capture));
    }

    #[test]
    fn legal_sets_of_a_small_position() {
        let p = game(&[(1, 0), (8, 8), (0, 1)]);
        assert_eq!(
            p.legal(Color::White),
            !(p.stones(Color::Black) | p.stones(Color::White))
                - bitboard! {
                    X . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                }
        );
    }

    #[test]
    fn history_error_names_the_first_bad_move() {
        let moves = [pt(4, 4), pt(4, 5), pt(4, 4), pt(0, 0)];
        assert_eq!(
            Position::from_moves(moves).unwrap_err(),
            HistoryError { index: 2, error: PlayError::Occupied }
        );
    }

    #[test]
    fn hash_depends_on_stones_and_side_not_order() {
        let a = game(&[(0, 0), (4, 4), (2, 2)]);
        let b = game(&[(2, 2), (4, 4), (0, 0)]);
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a, b);
        let c = game(&[(0, 0), (4, 4)]);
        assert_ne!(a.hash(), c.hash());
        let rebuilt =
            Position::from_stones(a.stones(Color::Black), a.stones(Color::White), a.to_move()).unwrap();
        assert_eq!(rebuilt.hash(), a.hash());
    }

    #[test]
    fn from_stones_validates() {
        let corner = Bitboard::from(pt(0, 0));
        let walls = Bitboard::from(pt(1, 0)) | Bitboard::from(pt(0, 1));
        assert_eq!(
            Position::from_stones(corner, walls, Color::Black).unwrap_err(),
            SetupError::NoLiberty(pt(0, 0))
        );
        assert_eq!(
            Position::from_stones(corner, corner, Color::Black).unwrap_err(),
            SetupError::Overlap(pt(0, 0))
        );
        let p = Position::from_stones(walls, Bitboard::EMPTY, Color::White).unwrap();
        assert!(!p.legal(Color::White).has(pt(0, 0)));
    }

    /// A position where black (to move) has no legal move: every empty point is either an eye
    /// of white's or the last liberty of a white group.
    #[test]
    fn terminal_when_side_to_move_has_no_move() {
        let white = crate::rules::test_support::white_checkerboard();
        let p = Position::from_stones(Bitboard::EMPTY, white, Color::Black).unwrap();
        assert!(p.legal(Color::Black).is_empty());
        assert!(p.is_terminal());
        assert_eq!(p.winner(), Some(Color::White));
        // White filling an empty point joins stones that keep other liberties.
        assert_eq!(p.legal(Color::White), p.empty());
        let white_to_move = Position::from_stones(Bitboard::EMPTY, white, Color::White).unwrap();
        assert!(!white_to_move.is_terminal());
    }

    fn stones(points: &[(u8, u8)]) -> Bitboard {
        points.iter().map(|&(x, y)| pt(x, y)).collect()
    }

    #[test]
    fn refused_capture_and_suicide_leave_the_position_unchanged() {
        let mut capture = game(&[(1, 0), (0, 0), (8, 8), (0, 2), (8, 7), (1, 1)]);
        let mut suicide = game(&[(0, 0), (1, 0), (8, 8), (1, 1), (8, 7), (0, 2)]);
        for (position, error) in [(&mut capture, PlayError::Capture), (&mut suicide, PlayError::Suicide)] {
            let before = position.clone();
            assert_eq!(position.play(pt(0, 1)), Err(error));
            assert_eq!(*position, before);
            assert_eq!(position.hash(), before.hash());
            assert_eq!(position.legal_both(), before.legal_both());
            assert_eq!(position.moves_played(), before.moves_played());
        }
    }

    #[test]
    fn edge_point_suicide_and_capture() {
        // White on D9, F9 and E8 surround E9 (4,0) on the top edge.
        let white = stones(&[(3, 0), (5, 0), (4, 1)]);
        let p = Position::from_stones(Bitboard::EMPTY, white, Color::Black).unwrap();
        assert_eq!(p.check(pt(4, 0)), Err(PlayError::Suicide));
        assert!(p.legal(Color::White).has(pt(4, 0)), "white joins its own stones");
        // A black stone on E9 between white D9 and F9 has one liberty, E8: white may not take it.
        let p = Position::from_stones(stones(&[(4, 0)]), stones(&[(3, 0), (5, 0)]), Color::White).unwrap();
        assert_eq!(p.check(pt(4, 1)), Err(PlayError::Capture));
        assert!(p.legal(Color::Black).has(pt(4, 1)), "black may extend out of atari");
        assert_eq!(p.group_at(pt(4, 0)), Some((stones(&[(4, 0)]), stones(&[(4, 1)]))));
    }

    #[test]
    fn extending_a_group_in_atari_is_legal_only_with_a_new_liberty() {
        // Black A9-B9 has one liberty, A8, next to white C9 and B8.
        let black = stones(&[(0, 0), (1, 0)]);
        let white = stones(&[(2, 0), (1, 1)]);
        let mut p = Position::from_stones(black, white, Color::Black).unwrap();
        assert_eq!(p.play(pt(0, 1)), Ok(()), "A8 brings the liberty A7");
        assert_eq!(p.group_at(pt(0, 0)), Some((stones(&[(0, 0), (1, 0), (0, 1)]), stones(&[(0, 2)]))));
        // With white on A7 too, A8 is the group's last liberty and an eye: illegal for both.
        let white = white | stones(&[(0, 2)]);
        let black_to_move = Position::from_stones(black, white, Color::Black).unwrap();
        assert_eq!(black_to_move.check(pt(0, 1)), Err(PlayError::Suicide));
        let white_to_move = Position::from_stones(black, white, Color::White).unwrap();
        assert_eq!(white_to_move.check(pt(0, 1)), Err(PlayError::Capture));
    }

    #[test]
    fn merging_groups_pools_their_liberties() {
        // Black C5 and E5 joined by D5: one group whose liberties are the union, minus D5.
        let mut p = game(&[(2, 4), (8, 8), (4, 4), (8, 7)]);
        p.play(pt(3, 4)).unwrap();
        let (group, liberties) = p.group_at(pt(2, 4)).unwrap();
        assert_eq!(group, stones(&[(2, 4), (3, 4), (4, 4)]));
        assert_eq!(liberties, stones(&[(1, 4), (5, 4), (2, 3), (3, 3), (4, 3), (2, 5), (3, 5), (4, 5)]));
        assert_eq!(p.group_at(pt(4, 4)), Some((group, liberties)));
        assert_eq!(p.group_at(pt(0, 0)), None);
    }

    /// One empty point, the last liberty of a black and of a white group: neither may play.
    #[test]
    fn neither_side_has_a_move() {
        let white = Bitboard::from(pt(1, 0));
        let black = Bitboard::FULL - white - Bitboard::from(pt(0, 0));
        for to_move in [Color::Black, Color::White] {
            let p = Position::from_stones(black, white, to_move).unwrap();
            assert!(p.legal(Color::Black).is_empty() && p.legal(Color::White).is_empty());
            assert!(p.is_terminal());
            assert_eq!(p.winner(), Some(!to_move));
        }
        let mut p = Position::from_stones(black, white, Color::Black).unwrap();
        assert_eq!(p.play(pt(0, 0)), Err(PlayError::Capture));
    }

    /// The safe and roomy summaries hold exactly the stones of groups with at least two and
    /// three liberties, and each group's count (and the xor of its liberties, with two or
    /// fewer) is that of its liberties, after every move of random games and when set up from
    /// the stones.
    #[test]
    fn summaries_match_the_groups() {
        let summaries = |p: &Position| {
            let mut expected = [[Bitboard::EMPTY; 2]; 2];
            for colour in [Color::Black, Color::White] {
                for s in p.stones(colour) {
                    let (_, liberties) = p.group_at(s).unwrap();
                    let kept = p.liberties[p.group_ids.get(s) as usize];
                    assert_eq!(kept.count as u32, liberties.count(), "liberties of {s}\n{p}");
                    if kept.count <= 2 {
                        assert_eq!(kept.index_xor, index_xor(liberties), "liberties of {s}\n{p}");
                    }
                    let bit = Bitboard::from(s);
                    if liberties.count() >= 2 {
                        expected[0][colour.index()] |= bit;
                    }
                    if liberties.count() >= 3 {
                        expected[1][colour.index()] |= bit;
                    }
                }
            }
            assert_eq!([p.safe, p.roomy], expected, "{p}");
        };
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..50 {
            let mut position = Position::new();
            crate::rules::random_game(&mut rng, |mv| {
                position.play(mv).unwrap();
                summaries(&position);
                let [black, white] = [Color::Black, Color::White].map(|c| position.stones(c));
                summaries(&Position::from_stones(black, white, position.to_move()).unwrap());
            });
        }
    }
}

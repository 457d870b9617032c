//! Differential test of the rules engine against an independent reference.
//!
//! The reference is written the way a judge writes NoGo: a 9x9 array of `Option<Color>` and a
//! flood fill per question. It shares no rules code with `Position`: only the types answers
//! are compared in (`Color`, `PlayError`, and `Point`/`Bitboard` for sets of points). Positions come from seeded random games (uniform
//! among legal moves from the empty board); at every position both colours' legal sets and the
//! outcome of `play` on a sample of points (occupied and illegal ones included) must agree,
//! and after every move the stones, side to move, terminal status, winner and hash. The bare
//! [`Stones`] board's legality tests must give the same legal sets, and its eye points after
//! each move the reference's.
//!
//! `cargo test --test rules_reference` runs 100,000 positions; the long run of 10,000,000 is
//! `cargo test --test rules_reference -- --ignored` (the test profile is optimised).

use nogo::rules::stones::Stones;
use nogo::{Bitboard, Color, HistoryError, PlayError, Point, Position};

const SIZE: usize = 9;

/// A point of the reference board: Botzone `(x, y)`.
type Xy = (usize, usize);

/// The reference board: `board[y][x]`, Botzone coordinates.
#[derive(Clone, PartialEq, Eq)]
struct Reference {
    board: [[Option<Color>; SIZE]; SIZE],
    to_move: Color,
}

fn neighbours(x: usize, y: usize) -> impl Iterator<Item = Xy> {
    let (x, y) = (x as isize, y as isize);
    [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        .into_iter()
        .filter(|&(x, y)| (0..SIZE as isize).contains(&x) && (0..SIZE as isize).contains(&y))
        .map(|(x, y)| (x as usize, y as usize))
}

fn other(colour: Color) -> Color {
    match colour {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

impl Reference {
    fn new() -> Reference {
        Reference { board: [[None; SIZE]; SIZE], to_move: Color::Black }
    }

    /// The stones of the group on `(x, y)` and its liberties, by flood fill.
    fn group(&self, x: usize, y: usize) -> (Vec<Xy>, Vec<Xy>) {
        let colour = self.board[y][x].expect("a stone");
        let mut seen = [[false; SIZE]; SIZE];
        let mut liberty = [[false; SIZE]; SIZE];
        let mut stones = vec![(x, y)];
        let mut liberties = Vec::new();
        seen[y][x] = true;
        let mut next = 0;
        while next < stones.len() {
            let (sx, sy) = stones[next];
            next += 1;
            for (nx, ny) in neighbours(sx, sy) {
                match self.board[ny][nx] {
                    None if !liberty[ny][nx] => {
                        liberty[ny][nx] = true;
                        liberties.push((nx, ny));
                    }
                    Some(c) if c == colour && !seen[ny][nx] => {
                        seen[ny][nx] = true;
                        stones.push((nx, ny));
                    }
                    _ => {}
                }
            }
        }
        (stones, liberties)
    }

    /// Whether the group on `(x, y)` has a liberty: a flood fill that stops at the first one.
    fn has_liberty(&self, x: usize, y: usize) -> bool {
        let colour = self.board[y][x];
        let mut seen = [[false; SIZE]; SIZE];
        let mut stack = [(0u8, 0u8); SIZE * SIZE];
        stack[0] = (x as u8, y as u8);
        let mut top = 1;
        seen[y][x] = true;
        while top > 0 {
            top -= 1;
            let (sx, sy) = stack[top];
            for (nx, ny) in neighbours(sx as usize, sy as usize) {
                if self.board[ny][nx].is_none() {
                    return true;
                }
                if self.board[ny][nx] == colour && !seen[ny][nx] {
                    seen[ny][nx] = true;
                    stack[top] = (nx as u8, ny as u8);
                    top += 1;
                }
            }
        }
        false
    }

    /// Whether `colour` may play `(x, y)`, with the engine's precedence of reasons:
    /// occupied, then capture, then suicide.
    fn check(&self, x: usize, y: usize, colour: Color) -> Result<(), PlayError> {
        if self.board[y][x].is_some() {
            return Err(PlayError::Occupied);
        }
        let mut after = self.clone();
        after.board[y][x] = Some(colour);
        for (nx, ny) in neighbours(x, y) {
            if after.board[ny][nx] == Some(other(colour)) && !after.has_liberty(nx, ny) {
                return Err(PlayError::Capture);
            }
        }
        if !after.has_liberty(x, y) {
            return Err(PlayError::Suicide);
        }
        Ok(())
    }

    fn legal(&self, colour: Color) -> Vec<Xy> {
        let mut legal = Vec::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                if self.check(x, y, colour).is_ok() {
                    legal.push((x, y));
                }
            }
        }
        legal
    }

    fn play(&mut self, x: usize, y: usize) -> Result<(), PlayError> {
        self.check(x, y, self.to_move)?;
        self.board[y][x] = Some(self.to_move);
        self.to_move = other(self.to_move);
        Ok(())
    }

    /// The points whose play by the colour of the stone on `(x, y)` would finish an eye next
    /// to it, each with the eye: an empty neighbour with no stone of the other colour around
    /// and exactly one empty neighbour of its own, the point to play.
    fn eye_points_after(&self, x: usize, y: usize) -> Vec<(Xy, Xy)> {
        let colour = self.board[y][x].expect("a stone");
        let mut found = Vec::new();
        for (ex, ey) in neighbours(x, y).filter(|&(ex, ey)| self.board[ey][ex].is_none()) {
            let around: Vec<Option<Color>> = neighbours(ex, ey).map(|(nx, ny)| self.board[ny][nx]).collect();
            let empty: Vec<Xy> =
                neighbours(ex, ey).filter(|&(nx, ny)| self.board[ny][nx].is_none()).collect();
            if !around.contains(&Some(other(colour))) && empty.len() == 1 {
                found.push((empty[0], (ex, ey)));
            }
        }
        found
    }

    fn stones(&self, colour: Color) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for y in 0..SIZE {
            for x in 0..SIZE {
                if self.board[y][x] == Some(colour) {
                    set |= Bitboard::from(point(x, y));
                }
            }
        }
        set
    }
}

fn point(x: usize, y: usize) -> Point {
    Point::from_xy(x as u8, y as u8).expect("on the board")
}

fn set_of(points: &[Xy]) -> Bitboard {
    points.iter().map(|&(x, y)| point(x, y)).collect()
}

/// Where a failure happened, to reproduce it: the seed, the game and its moves so far.
struct Trace<'a> {
    seed: u64,
    game: u64,
    moves: &'a [Xy],
}

impl std::fmt::Display for Trace<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "seed {} game {} after moves (x, y) {:?}", self.seed, self.game, self.moves)
    }
}

/// The reference's board as a position with `to_move` to play, built by `from_stones`.
fn rebuilt(reference: &Reference, to_move: Color) -> Position {
    Position::from_stones(reference.stones(Color::Black), reference.stones(Color::White), to_move)
        .expect("positions of legal games are valid setups")
}

/// Compares everything observable about a position with the reference; `terminal` is whether
/// the reference's side to move has no legal move.
fn compare_position(engine: &Position, reference: &Reference, terminal: bool, trace: &Trace) {
    for y in 0..SIZE {
        for x in 0..SIZE {
            assert_eq!(engine.stone_at(point(x, y)), reference.board[y][x], "stone at ({x}, {y}), {trace}");
        }
    }
    assert_eq!(engine.to_move(), reference.to_move, "side to move, {trace}");
    assert_eq!(engine.moves_played(), trace.moves.len(), "{trace}");
    assert_eq!(engine.is_terminal(), terminal, "terminal status, {trace}");
    assert_eq!(engine.winner(), terminal.then(|| other(reference.to_move)), "winner, {trace}");
    assert_eq!(engine.hash(), rebuilt(reference, reference.to_move).hash(), "incremental hash, {trace}");
}

/// Compares `play` (and `check`) on `(x, y)` for the side to move of `engine`; an illegal move
/// must leave the position unchanged, a legal one must produce the reference's position.
fn compare_play(engine: &Position, reference: &Reference, x: usize, y: usize, trace: &Trace) {
    let expected = reference.check(x, y, engine.to_move());
    let mut after = engine.clone();
    let outcome = after.play(point(x, y));
    assert_eq!(outcome, expected, "play ({x}, {y}) by {}, {trace}", engine.to_move());
    assert_eq!(engine.check(point(x, y)), expected, "check ({x}, {y}), {trace}");
    match outcome {
        Err(_) => {
            assert_eq!(&after, engine, "a refused move changed the position, {trace}");
            assert_eq!(after.hash(), engine.hash(), "a refused move changed the hash, {trace}");
            assert_eq!(after.legal_both(), engine.legal_both(), "a refused move changed legal sets, {trace}");
        }
        Ok(()) => {
            let mut placed = reference.clone();
            placed.board[y][x] = Some(engine.to_move());
            let predicted = engine.legal_both_after(point(x, y));
            let effects = engine.move_effects();
            let now = effects.legal_both();
            for colour in [Color::Black, Color::White] {
                assert_eq!(
                    now[colour.index()],
                    set_of(&reference.legal(colour)),
                    "move_effects legal sets, {trace}"
                );
                assert_eq!(
                    predicted[colour.index()],
                    set_of(&placed.legal(colour)),
                    "legal_both_after ({x}, {y}) for {colour}, {trace}"
                );
                assert_eq!(after.stones(colour), placed.stones(colour), "stones after ({x}, {y}), {trace}");
                assert_eq!(
                    after.legal(colour),
                    set_of(&placed.legal(colour)),
                    "legal after ({x}, {y}), {trace}"
                );
            }
            assert_eq!(
                effects.leaves_opponent_no_move(point(x, y)),
                placed.legal(other(engine.to_move())).is_empty(),
                "leaves_opponent_no_move ({x}, {y}), {trace}"
            );
            if effects.quiet().has(point(x, y)) {
                let mover = engine.to_move();
                let lead = |mine: usize, theirs: usize| mine as i64 - theirs as i64;
                assert_eq!(
                    lead(reference.legal(mover).len(), reference.legal(other(mover)).len()) - 1
                        + effects.lead_gains().get(point(x, y)) as i64,
                    lead(placed.legal(mover).len(), placed.legal(other(mover)).len()),
                    "lead after quiet ({x}, {y}), {trace}"
                );
            }
            assert_eq!(after.to_move(), other(engine.to_move()), "side to move after ({x}, {y}), {trace}");
            let rebuilt_hash = rebuilt(&placed, after.to_move()).hash();
            assert_eq!(after.hash(), rebuilt_hash, "hash after ({x}, {y}), {trace}");
        }
    }
}

/// Random games until `positions` positions have been compared. Every position is checked for
/// both colours: the legal sets, and `play` on a sample of points for each colour to move (the
/// real position and a `from_stones` copy with the other colour to move).
fn differential(seed: u64, positions: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut compared = 0;
    let mut game = 0;
    let mut outcomes = [0u64; 4];
    let mut eye_points = 0;
    while compared < positions {
        game += 1;
        let mut engine = Position::new();
        let mut reference = Reference::new();
        let mut moves = Vec::new();
        loop {
            let trace = Trace { seed, game, moves: &moves };
            let legal = [reference.legal(Color::Black), reference.legal(Color::White)];
            compare_position(&engine, &reference, legal[reference.to_move.index()].is_empty(), &trace);
            for colour in [Color::Black, Color::White] {
                let expected = set_of(&legal[colour.index()]);
                assert_eq!(engine.legal(colour), expected, "legal set of {colour}, {trace}");
                let by_point: Bitboard =
                    Bitboard::FULL.iter().filter(|&p| engine.is_legal(colour, p)).collect();
                assert_eq!(by_point, expected, "is_legal of {colour} point by point, {trace}");
                let stones = Stones::of(&engine);
                let by_flood: Bitboard =
                    Bitboard::FULL.iter().filter(|&p| stones.is_legal(colour, p)).collect();
                assert_eq!(by_flood, expected, "Stones::is_legal of {colour}, {trace}");
            }
            assert_eq!(engine.legal_both(), [engine.legal(Color::Black), engine.legal(Color::White)]);

            let swapped = rebuilt(&reference, other(reference.to_move));
            assert_eq!(swapped.legal_both(), engine.legal_both(), "from_stones legal sets, {trace}");
            for position in [&engine, &swapped] {
                let colour = position.to_move();
                let mut reference = reference.clone();
                reference.to_move = colour;
                let legal = &legal[colour.index()];
                let occupied: Vec<Point> =
                    (position.stones(Color::Black) | position.stones(Color::White)).iter().collect();
                let illegal: Vec<Point> = (position.empty() - position.legal(colour)).iter().collect();
                let mut sample =
                    vec![(rng.usize(..SIZE), rng.usize(..SIZE)), (rng.usize(..SIZE), rng.usize(..SIZE))];
                for points in [&occupied, &illegal] {
                    if !points.is_empty() {
                        let p = points[rng.usize(..points.len())];
                        sample.push((p.x() as usize, p.y() as usize));
                    }
                }
                if !legal.is_empty() {
                    sample.push(legal[rng.usize(..legal.len())]);
                }
                for (x, y) in sample {
                    let outcome = reference.check(x, y, colour);
                    outcomes[match outcome {
                        Ok(()) => 0,
                        Err(PlayError::Occupied) => 1,
                        Err(PlayError::Capture) => 2,
                        Err(_) => 3,
                    }] += 1;
                    compare_play(position, &reference, x, y, &trace);
                }
            }

            compared += 1;
            let legal = &legal[reference.to_move.index()];
            if legal.is_empty() || compared == positions {
                break;
            }
            let (x, y) = legal[rng.usize(..legal.len())];
            assert_eq!(engine.play(point(x, y)), Ok(()), "legal move ({x}, {y}), {trace}");
            reference.play(x, y).expect("chosen among the reference's legal moves");
            // The points that would finish an eye next to the move, and that the eye is then the
            // mover's alone.
            let mover = other(reference.to_move);
            let found = reference.eye_points_after(x, y);
            let points: Vec<Xy> = found.iter().map(|&(p, _)| p).collect();
            let stones = Stones::of(&engine);
            assert_eq!(stones.eye_points_after(mover, point(x, y)), set_of(&points), "eye points, {trace}");
            for &((px, py), (ex, ey)) in &found {
                let mut finished = reference.clone();
                finished.board[py][px] = Some(mover);
                assert!(
                    finished.check(ex, ey, reference.to_move).is_err(),
                    "an eye at ({ex}, {ey}), {trace}"
                );
            }
            eye_points += found.len() as u64;
            moves.push((x, y));
        }
    }
    // Each kind of answer must have been exercised many times, or the test proves little.
    for (count, kind) in outcomes.iter().zip(["legal", "occupied", "capture", "suicide"]) {
        assert!(*count >= positions / 100, "only {count} {kind} outcomes in {positions} positions");
    }
    assert!(eye_points >= positions / 100, "only {eye_points} eye points in {positions} positions");
    eprintln!(
        "{compared} positions in {game} games; play outcomes legal/occupied/capture/suicide {outcomes:?}; {eye_points} eye points"
    );
}

#[test]
fn engine_matches_reference_on_100k_positions() {
    differential(0x5EED_0001, 100_000);
}

#[test]
#[ignore = "long: 10 million positions; cargo test --test rules_reference -- --ignored"]
fn engine_matches_reference_on_10m_positions() {
    differential(0x5EED_0002, 10_000_000);
}

/// A random game's moves, chosen by the reference.
fn random_game(rng: &mut fastrand::Rng) -> Vec<Xy> {
    let mut reference = Reference::new();
    let mut moves = Vec::new();
    loop {
        let legal = reference.legal(reference.to_move);
        if legal.is_empty() {
            return moves;
        }
        let (x, y) = legal[rng.usize(..legal.len())];
        reference.play(x, y).expect("legal");
        moves.push((x, y));
    }
}

/// The reference's verdict on a move list: the first bad move's index and why.
fn reference_history(moves: &[Xy]) -> Result<Reference, HistoryError> {
    let mut reference = Reference::new();
    for (index, &(x, y)) in moves.iter().enumerate() {
        reference.play(x, y).map_err(|error| HistoryError { index, error })?;
    }
    Ok(reference)
}

#[test]
fn from_moves_reports_the_first_bad_move_of_corrupted_histories() {
    let mut rng = fastrand::Rng::with_seed(0x5EED_0003);
    let mut errors = [0u64; 3];
    for game in 0..3000 {
        let mut moves = random_game(&mut rng);
        let n = moves.len();
        match game % 4 {
            // A move replaced by any point.
            0 => moves[rng.usize(..n)] = (rng.usize(..SIZE), rng.usize(..SIZE)),
            // An earlier move repeated later.
            1 => {
                let from = rng.usize(..n - 1);
                moves[rng.usize(from + 1..n)] = moves[from];
            }
            // Two moves swapped (this changes who played them).
            2 => {
                let (a, b) = (rng.usize(..n), rng.usize(..n));
                moves.swap(a, b);
            }
            // A point inserted anywhere, up to one move past the end of the game.
            _ => moves.insert(rng.usize(..=n), (rng.usize(..SIZE), rng.usize(..SIZE))),
        }
        let engine = Position::from_moves(moves.iter().map(|&(x, y)| point(x, y)));
        match (engine, reference_history(&moves)) {
            (Ok(position), Ok(reference)) => {
                let trace = Trace { seed: 0x5EED_0003, game, moves: &moves };
                let terminal = reference.legal(reference.to_move).is_empty();
                compare_position(&position, &reference, terminal, &trace);
            }
            (Err(engine), Err(reference)) => {
                assert_eq!(engine, reference, "game {game} moves {moves:?}");
                errors[match reference.error {
                    PlayError::Occupied => 0,
                    PlayError::Capture => 1,
                    _ => 2,
                }] += 1;
            }
            (engine, reference) => panic!(
                "game {game} moves {moves:?}: engine {:?}, reference {:?}",
                engine.map(|_| ()),
                reference.map(|_| ())
            ),
        }
    }
    assert!(errors.iter().all(|&count| count >= 20), "each kind of bad move was seen: {errors:?}");
}

/// The reference's group flood fill against `Position::group_at` on random game positions.
#[test]
fn groups_and_liberties_match_the_flood_fill() {
    let mut rng = fastrand::Rng::with_seed(0x5EED_0004);
    for _ in 0..300 {
        let moves = random_game(&mut rng);
        let cut = rng.usize(..=moves.len());
        let reference = reference_history(&moves[..cut]).expect("a legal game");
        let engine =
            Position::from_moves(moves[..cut].iter().map(|&(x, y)| point(x, y))).expect("a legal game");
        for y in 0..SIZE {
            for x in 0..SIZE {
                let expected = reference.board[y][x].map(|_| {
                    let (stones, liberties) = reference.group(x, y);
                    (set_of(&stones), set_of(&liberties))
                });
                assert_eq!(
                    engine.group_at(point(x, y)),
                    expected,
                    "group at ({x}, {y}) after {:?}",
                    &moves[..cut]
                );
            }
        }
    }
}

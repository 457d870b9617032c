//! Baseline engines that measure the project's progress.

pub mod alphabeta;
pub mod random;
pub mod seed;

#[cfg(test)]
mod tests {
    use crate::engine::{create, Budget, EngineKind};
    use crate::position::Position;
    use clap::ValueEnum;
    use std::time::{Duration, Instant};

    #[test]
    fn every_engine_plays_legal_moves_through_whole_games() {
        for &kind in EngineKind::value_variants() {
            for &opponent in EngineKind::value_variants() {
                let mut players = [create(kind, 1), create(opponent, 2)];
                let mut position = Position::new();
                let mut turn = 0;
                while !position.is_terminal() {
                    let player = &mut players[turn % 2];
                    let report = player.think(&position, &Budget::nodes(2000));
                    assert_eq!(player.name(), [kind, opponent][turn % 2].name());
                    if let Err(error) = position.clone().play(report.best) {
                        panic!("{} played {}: {error}\n{position}", player.name(), report.best);
                    }
                    position.play(report.best).unwrap();
                    turn += 1;
                }
            }
        }
    }

    #[test]
    fn every_engine_is_selected_by_its_name() {
        for &kind in EngineKind::value_variants() {
            assert_eq!(EngineKind::from_str(kind.name(), false), Ok(kind));
            assert_eq!(create(kind, 0).name(), kind.name());
        }
        assert_eq!(EngineKind::from_str("alphabeta", false), Ok(EngineKind::AlphaBeta));
        assert_eq!(EngineKind::from_str("seed", false), Ok(EngineKind::Seed));
    }

    #[test]
    fn every_engine_answers_by_a_deadline() {
        let position = Position::from_moves([crate::Point::from_xy(4, 4).unwrap()]).unwrap();
        let limit = Duration::from_millis(100);
        for &kind in EngineKind::value_variants() {
            let started = Instant::now();
            let report = create(kind, 0).think(&position, &Budget::until(started + limit));
            let elapsed = started.elapsed();
            assert!(position.legal_moves().has(report.best), "{}", kind.name());
            // Generous: the machine running the tests may be loaded.
            assert!(elapsed < limit * 10, "{} took {elapsed:?} for a {limit:?} budget", kind.name());
        }
    }
}

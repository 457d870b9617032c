//! Player specs: how `--player1`/`--player2` name a player, and making one per game.

use super::botzone::BotzonePlayer;
use super::builtin::BuiltinPlayer;
use super::gtp::GtpPlayer;
use super::player::Player;
use crate::engines::{self, EngineKind};
use crate::protocols::botzone::Format;
use crate::search::params::Params;
use clap::ValueEnum;
use std::fmt;
use std::time::Duration;

/// How to make a player, from `--player1`/`--player2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in engine searching in the arena's process.
    Builtin(EngineKind),
    /// An external command speaking Botzone's protocol in the given format.
    Botzone {
        /// The command line, run through `sh -c`.
        command: String,
        /// JSON or the simplified text protocol.
        format: Format,
    },
    /// An external command speaking GTP.
    Gtp {
        /// The command line, run through `sh -c`.
        command: String,
    },
}

impl PlayerSpec {
    /// Parses `builtin:NAME` or a bare engine name, `gtp:CMD`, `text:CMD`, `json:CMD`, or a
    /// command (Botzone JSON).
    pub fn parse(spec: &str) -> Result<PlayerSpec, String> {
        let spec = spec.trim();
        let command = |rest: &str| {
            let rest = rest.trim();
            if rest.is_empty() {
                Err(format!("'{spec}' names no command"))
            } else {
                Ok(rest.to_string())
            }
        };
        if let Some(name) = spec.strip_prefix("builtin:") {
            return EngineKind::from_str(name.trim(), true).map(PlayerSpec::Builtin).map_err(|_| {
                let known: Vec<&str> = EngineKind::value_variants().iter().map(|k| k.name()).collect();
                format!("no built-in engine '{}' (known: {})", name.trim(), known.join(", "))
            });
        }
        if let Some(rest) = spec.strip_prefix("gtp:") {
            return Ok(PlayerSpec::Gtp { command: command(rest)? });
        }
        if let Some(rest) = spec.strip_prefix("text:") {
            return Ok(PlayerSpec::Botzone { command: command(rest)?, format: Format::Text });
        }
        if let Some(rest) = spec.strip_prefix("json:") {
            return Ok(PlayerSpec::Botzone { command: command(rest)?, format: Format::Json });
        }
        if let Ok(kind) = EngineKind::from_str(spec, true) {
            return Ok(PlayerSpec::Builtin(kind));
        }
        Ok(PlayerSpec::Botzone { command: command(spec)?, format: Format::Json })
    }

    /// A short default name: the engine's, or the command's program file name.
    pub fn default_name(&self) -> String {
        match self {
            PlayerSpec::Builtin(kind) => kind.name().to_string(),
            PlayerSpec::Botzone { command, .. } | PlayerSpec::Gtp { command } => {
                let words: Vec<&str> = command.split_whitespace().collect();
                // `python3 bot.py` is better named by the script than by the interpreter.
                let program = words
                    .iter()
                    .find(|w| !w.contains('=') && !w.starts_with("python") && !w.starts_with('-'))
                    .or(words.first())
                    .copied()
                    .unwrap_or("bot");
                let file = program.rsplit('/').next().unwrap_or(program);
                // An extension has a letter (`bot.py`); `nogo-0.3.0`'s dots are its version's.
                match file.rsplit_once('.') {
                    Some((stem, ext)) if ext.bytes().any(|b| b.is_ascii_alphabetic()) => stem,
                    _ => file,
                }
                .to_string()
            }
        }
    }

    /// The same player with its command's program (the first word) left out, to compare
    /// players whose program lies at different paths.
    pub fn without_program(&self) -> PlayerSpec {
        let mut spec = self.clone();
        if let PlayerSpec::Botzone { command, .. } | PlayerSpec::Gtp { command } = &mut spec {
            *command = command.split_whitespace().skip(1).collect::<Vec<_>>().join(" ");
        }
        spec
    }

    /// Whether the player may use the CPU while its opponent thinks. Botzone players are
    /// stopped or not running between turns, built-in engines only search when asked; a GTP
    /// engine may ponder.
    pub fn may_ponder(&self) -> bool {
        matches!(self, PlayerSpec::Gtp { .. })
    }

    /// A fresh player for one game; `seed` feeds a built-in engine's random choices, which
    /// searches on `threads` threads, and `turn_limit` is the match's per-turn limit (GTP
    /// engines are told it).
    pub fn create(&self, seed: u64, turn_limit: Duration, threads: usize) -> Box<dyn Player> {
        match self {
            PlayerSpec::Builtin(kind) => {
                let params = Params { threads, ..Params::default() };
                Box::new(BuiltinPlayer::new(engines::create_with_params(*kind, seed, params)))
            }
            PlayerSpec::Botzone { command, format } => Box::new(BotzonePlayer::new(command, *format)),
            PlayerSpec::Gtp { command } => Box::new(GtpPlayer::new(command, turn_limit)),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(kind) => write!(f, "builtin:{}", kind.name()),
            PlayerSpec::Botzone { command, format: Format::Json } => write!(f, "json:{command}"),
            PlayerSpec::Botzone { command, format: Format::Text } => write!(f, "text:{command}"),
            PlayerSpec::Gtp { command } => write!(f, "gtp:{command}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Point, Position};

    #[test]
    fn specs_parse_by_prefix() {
        assert_eq!(PlayerSpec::parse("builtin:mcts"), Ok(PlayerSpec::Builtin(EngineKind::Mcts)));
        assert_eq!(PlayerSpec::parse("Random"), Ok(PlayerSpec::Builtin(EngineKind::Random)));
        assert_eq!(
            PlayerSpec::parse("gtp: gnugo --mode gtp"),
            Ok(PlayerSpec::Gtp { command: "gnugo --mode gtp".into() })
        );
        assert_eq!(
            PlayerSpec::parse("text:python3 bot.py"),
            Ok(PlayerSpec::Botzone { command: "python3 bot.py".into(), format: Format::Text })
        );
        assert_eq!(
            PlayerSpec::parse("./nogo --time 0.1"),
            Ok(PlayerSpec::Botzone { command: "./nogo --time 0.1".into(), format: Format::Json })
        );
        assert!(PlayerSpec::parse("builtin:stockfish").unwrap_err().contains("mcts"));
        assert!(PlayerSpec::parse("gtp:  ").is_err());
        assert!(PlayerSpec::parse("").is_err());
    }

    #[test]
    fn default_names_come_from_the_program() {
        let name = |s: &str| PlayerSpec::parse(s).unwrap().default_name();
        assert_eq!(name("mcts"), "mcts");
        assert_eq!(name("target/release/nogo --time 0.1"), "nogo");
        assert_eq!(name("python3 fixtures/broken-bots/crash.py"), "crash");
        assert_eq!(name("gtp:RUST_LOG=1 /opt/gnugo --mode gtp"), "gnugo");
        assert_eq!(name("target/opponents/nogo-0.3.0 --time 1"), "nogo-0.3.0");
        assert_eq!(name("bots/v2.1/bot.exe"), "bot");
    }

    #[test]
    fn builtin_players_answer_legal_moves_in_time() {
        let position = Position::from_moves([Point::from_xy(4, 4).unwrap()]).unwrap();
        let mut player = PlayerSpec::Builtin(EngineKind::Random).create(3, Duration::from_secs(1), 1);
        let turn = player.turn(&position, &[], Duration::from_secs(5));
        let answer = turn.outcome.unwrap();
        let point = Point::from_botzone(answer.x, answer.y).unwrap();
        assert!(position.legal_moves().has(point));
    }
}

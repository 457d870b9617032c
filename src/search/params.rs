//! Every tunable parameter of the search, declared once, with its default and range.
//!
//! One line of `tunables!` per parameter generates its field of [`Params`], its default, its
//! entry in [`Params::TUNABLES`] (for listing and tuners) and its name for [`Params::set`]. The
//! ranges bound tuning (SPSA, grids) and the settings tools accept. The evidence for each value
//! is its section of `docs/strength-log.md` (`#` and the parameter's name).

/// A tunable value with the range tuning may explore.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The parameter's name: its field of [`Params`] and its name for [`Params::set`].
    pub name: &'static str,
    /// Its default value.
    pub default: f64,
    /// The least value tuning and settings may give it.
    pub min: f64,
    /// The greatest value tuning and settings may give it.
    pub max: f64,
    /// Whether it takes whole numbers only ([`Params::set`] rounds others down).
    pub whole: bool,
    /// What the parameter does, in one line.
    pub doc: &'static str,
}

/// Default memory of a search: 200 MB, leaving room under Botzone's 256 MB for the rest.
pub const DEFAULT_MEMORY_BYTES: usize = 200 * 1000 * 1000;

/// The types tunables have.
trait Number {
    /// Whether the type holds whole numbers only.
    const WHOLE: bool;
}

impl Number for u32 {
    const WHOLE: bool = true;
}

impl Number for f32 {
    const WHOLE: bool = false;
}

/// Declares the tunables: `name: type = default, min..=max, "doc";` each.
macro_rules! tunables {
    ($($name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal, $doc:literal;)*) => {
        /// The values the search runs with.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Params {
            $(
                #[doc = $doc]
                #[doc = concat!("\n\nEvidence: `docs/strength-log.md#", stringify!($name), "`.")]
                pub $name: $ty,
            )*
            /// Bytes a search tree may use, with its endgame solver's table. The playout search
            /// on two threads grows two trees, so takes twice this.
            pub memory_bytes: usize,
            /// Threads the playout search runs its simulations on: two on a tree each, more
            /// together on one tree.
            pub threads: usize,
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* memory_bytes: DEFAULT_MEMORY_BYTES, threads: 1 }
            }
        }

        impl Params {
            /// Every tunable, in declaration order.
            pub const TUNABLES: &[Tunable] = &[$(Tunable {
                name: stringify!($name),
                default: $default as f64,
                min: $min as f64,
                max: $max as f64,
                whole: <$ty as Number>::WHOLE,
                doc: $doc,
            },)*];

            /// Sets the tunable `name` to `value` (rounded down for whole-number parameters),
            /// so tools that take `name=value` settings follow the declarations here; an error
            /// for another name or a value outside the tunable's range.
            pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
                let tunable = Params::tunable(name).ok_or_else(|| format!("unknown parameter {name}"))?;
                if !(tunable.min..=tunable.max).contains(&value) {
                    return Err(format!("{name} = {value} is outside its range, {} to {}", tunable.min, tunable.max));
                }
                match name {
                    $(stringify!($name) => self.$name = value as $ty,)*
                    _ => unreachable!("every tunable has a field"),
                }
                Ok(())
            }

            /// The value of the tunable `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $(stringify!($name) => Some(self.$name as f64),)*
                    _ => None,
                }
            }
        }
    };
}

tunables! {
    exploration: f32 = 0.1, 0.02..=1.5,
        "The evaluation search's UCB exploration constant `c` in `mean + c * sqrt(ln N / n)` (values are in [0, 1]).";
    eval_slope: f32 = 0.4, 0.05..=2.0,
        "Slope of the logistic that squashes the evaluation's score into a win probability.";
    endgame_points: u32 = 22, 0..=40,
        "The exact endgame solver runs first once at most this many points are live (0: never).";
    endgame_share: f32 = 0.5, 0.1..=0.9,
        "Share of the turn's budget the endgame solver may use before the tree search takes over.";
    widening: f32 = 0.7, 0.25..=8.0,
        "The evaluation search's progressive widening: a node visited n times may have ceil(widening * sqrt(n)) children.";
    last_move_radius: u32 = 2, 0..=4,
        "In the evaluation search, children within this many steps of the last move are tried first among equal mobilities.";
    eye_weight: f32 = 0.4, 0.0..=2.0,
        "Points of mobility an eye of difference is worth in the evaluation, late in the game.";
    eye_points: u32 = 40, 0..=81,
        "The evaluation counts eyes once at most this many points are empty.";
    eval_tempo: f32 = 1.0, -2.0..=3.0,
        "Points of mobility the next move is worth to the side to move, in the evaluation.";
    tree_solve_points: u32 = 10, 0..=22,
        "New nodes of the evaluation search with at most this many live points are proven by the solver (0: never).";
    tree_solve_nodes: u32 = 500, 10..=100_000,
        "The solver's node budget for each of the tree's proofs.";
    prune_share: f32 = 0.5, 0.0..=0.9,
        "The playout search's tree without room for another node's children is pruned to this share of its memory, of its least visited nodes' children (0: it stops growing instead).";
    policy_depth: u32 = 2, 0..=8,
        "Nodes fewer than this many moves below the root order their children by the policy network.";
    policy_visits: u32 = 30, 0..=1_000_000,
        "Nodes of the evaluation search visited at least this many times order their new children by the policy network (0: never).";
    rave_exploration: f32 = 0.25, 0.0..=1.0,
        "The playout search's exploration constant `c` in `c * sqrt(ln N * n) / (n + n')`.";
    rave_bias: f32 = 0.0, 0.0..=1.0,
        "RAVE's bias `b` in `beta = n' / (n + n' + 4 b^2 n n')` (0: weigh the two means by their counts).";
    rave_prior: u32 = 20, 1..=1000,
        "Virtual all-moves-as-first simulations, at half a win each, of a new node of the playout search.";
    rave_expand_visits: u32 = 0, 0..=1000,
        "A leaf of the playout search gets its children once simulated this many times (0: as a descent first reaches it).";
    rave_leaf_playouts: u32 = 3, 1..=8,
        "Playouts from each leaf a descent of the playout search reaches, each backed up.";
    rave_amaf_reserves: u32 = 0, 0..=1,
        "Whether the moves a playout makes once nothing is contested count as all moves as first (1) or not (0).";
    playout_take_own: u32 = 1, 0..=1,
        "Whether a playout plays a drawn once-contested point that only its side to move may still play (1) or keeps it as a reserve (0).";
    playout_eyes_ms: u32 = 300, 0..=86_400_000,
        "A search given less than this many milliseconds plays out spoiling first, while points are contested, an eye the last move threatens to finish next to the side to move (0: never; a search without a clock never does).";
    rave_eval_weight: f32 = 0.5, 0.0..=1.0,
        "The playout search's prior mean of a new node: 0.5 plus this times the evaluation of its position less 0.5.";
    rave_solve_points: u32 = 10, 0..=22,
        "In a search given less than `rave_solve_ms`, the playout search proves a leaf with at most this many live points by the endgame solver, within `tree_solve_nodes` nodes, instead of playing it out (0: never).";
    rave_solve_ms: u32 = 100, 0..=86_400_000,
        "A search given less than this many milliseconds proves small endgames at its leaves (`rave_solve_points`; 0: never; a search without a clock never does).";
    rave_policy_weight: f32 = 0.0, 0.0..=0.5,
        "Near the root (`policy_depth`), the playout search's prior means spread by the policy network's ranking, 0.5 +- this.";
    rave_value_weight: f32 = 0.0, 0.0..=2.0,
        "Near the root (`rave_value_depth`), how much of the value network's correction a new node's prior mean (the evaluation's) takes in the playout search (1: all of it).";
    rave_value_prior: u32 = 20, 1..=10_000,
        "Virtual all-moves-as-first simulations of a new node whose prior mean the value network corrected (`rave_value_weight`).";
    rave_value_depth: u32 = 2, 0..=81,
        "Nodes fewer than this many moves below the root give their children the value network's prior (`rave_value_weight`).";
    rave_focus_rounds: u32 = 8, 1..=256,
        "Rounds of a two-thread playout search: after the first, one tree deepens the root's surest move and the other searches the rest (1: a tree each, no focus).";
}

impl Params {
    /// The tunable named `name`, if there is one.
    pub fn tunable(name: &str) -> Option<&'static Tunable> {
        Params::TUNABLES.iter().find(|t| t.name == name)
    }

    /// These values with `settings` (from [`parse_setting`]) applied in order.
    pub fn with_settings(mut self, settings: &[(String, f64)]) -> Params {
        for (name, value) in settings {
            self.set(name, *value).expect("settings are checked when parsed");
        }
        self
    }
}

/// A `NAME=VALUE` setting of a tunable (the command lines' `--set`), checked against its name
/// and range; the errors point to `--set help`, which lists the names.
pub fn parse_setting(setting: &str) -> Result<(String, f64), String> {
    let (name, value) = setting.split_once('=').ok_or("expected NAME=VALUE (--set help lists the names)")?;
    if Params::tunable(name).is_none() {
        return Err(format!("unknown parameter {name} (--set help lists the names)"));
    }
    let value: f64 = value.parse().map_err(|_| format!("{value} is not a number"))?;
    Params::default().set(name, value)?;
    Ok((name.to_string(), value))
}

/// The table `--set help` prints: every tunable with its default, range and meaning, one a line.
pub fn tunables_table() -> String {
    let mut table = String::from(
        "Tunables of the search, set with --set NAME=VALUE (repeatable; whole-number ones round down):\n",
    );
    let row = |name: &str, default: &str, range: &str, doc: &str| {
        format!("{name:<18}  {default:>7}  {range:<12}  {doc}\n")
    };
    table += &row("NAME", "DEFAULT", "RANGE", "MEANING");
    for t in Params::TUNABLES {
        table += &row(t.name, &t.default.to_string(), &format!("{} to {}", t.min, t.max), t.doc);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_can_be_set_by_name_and_only_those() {
        let defaults = Params::default();
        for tunable in Params::TUNABLES {
            let mut params = defaults;
            let value = params.get(tunable.name).unwrap();
            assert!((value - tunable.default).abs() < 1e-6, "{} defaults as declared", tunable.name);
            params.set(tunable.name, tunable.default).unwrap();
            assert_eq!(params, defaults, "{} defaults as declared", tunable.name);
            // An end of the range that is not the default (a switch defaults to one end).
            let other = if tunable.max != tunable.default { tunable.max } else { tunable.min };
            params.set(tunable.name, other).unwrap();
            assert_ne!(params, defaults, "{} sets a field", tunable.name);
            assert!((params.get(tunable.name).unwrap() - other).abs() < 1e-3, "{}", tunable.name);
            // Each name sets its own field: setting it back restores every other field too.
            params.set(tunable.name, tunable.default).unwrap();
            assert_eq!(params, defaults, "{}", tunable.name);
            assert!(tunable.min <= tunable.default && tunable.default <= tunable.max, "{}", tunable.name);
        }
        assert!(Params::default().set("memory_bytes", 1.0).is_err());
        assert!(Params::default().set("explore", 0.2).is_err());
        assert_eq!(Params::default().get("explore"), None);
    }

    #[test]
    fn whole_number_tunables_are_marked_so() {
        for tunable in Params::TUNABLES {
            let mut params = Params::default();
            let between = tunable.min + 0.5;
            params.set(tunable.name, between).unwrap();
            let kept = params.get(tunable.name).unwrap();
            assert_eq!(
                tunable.whole,
                (kept - between).abs() > 1e-3,
                "{}: {between} kept as {kept}",
                tunable.name
            );
        }
        assert!(Params::tunable("rave_prior").unwrap().whole);
        assert!(!Params::tunable("rave_exploration").unwrap().whole);
    }

    #[test]
    fn values_outside_a_range_are_refused() {
        let mut params = Params::default();
        assert!(params.set("exploration", 1.6).unwrap_err().contains("outside its range"));
        assert!(params.set("endgame_points", -1.0).is_err());
        assert!(params.set("endgame_points", f64::NAN).is_err());
        assert_eq!(params, Params::default());
    }

    #[test]
    fn settings_name_their_fault_and_the_table_lists_every_tunable() {
        assert_eq!(parse_setting("widening=2"), Ok(("widening".to_string(), 2.0)));
        assert!(parse_setting("foo=1").unwrap_err().contains("unknown parameter foo (--set help lists"));
        assert!(parse_setting("foo").unwrap_err().contains("--set help lists"));
        assert!(parse_setting("widening=100").unwrap_err().contains("outside its range, 0.25 to 8"));
        let table = tunables_table();
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(rows.len(), Params::TUNABLES.len(), "{table}");
        for (row, tunable) in rows.iter().zip(Params::TUNABLES) {
            let words: Vec<&str> = row.split_whitespace().collect();
            let range = format!("{} to {}", tunable.min, tunable.max);
            assert_eq!(words[..2], [tunable.name, &tunable.default.to_string()], "{row}");
            assert_eq!(words[2..5].join(" "), range, "{row}");
            assert!(row.ends_with(tunable.doc), "{row}");
        }
    }
}

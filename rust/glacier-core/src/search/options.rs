//! The options of an MCTS searcher, in one list: [`MCTS_OPTIONS`] names each option, its
//! default and the values it accepts; [`MctsOptions`] holds one value of each (its
//! `Default` is the list's defaults) and [`MctsOptions::settings`] checks them into the
//! [`SearchSettings`] a [`super::searcher::Searcher`] is made with.
//!
//! The Python binding's keyword arguments, `glacier.search` and the stub name the same
//! options with the same defaults; `tests/test_search_options.py` fails when they disagree
//! with this list (the binding hands it to Python as `mcts_options()`).

use super::evaluate::LeafEvaluation;
use super::mcts::{MctsConfig, Selection};
use crate::threads::{thread_count, MAX_THREADS};
use crate::Error;

/// The most trees a root-parallel searcher keeps.
pub const MAX_TREES: i64 = 1024;

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionKind {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A number `>= min` (`> min` when `above`), at most `max` if given.
    Number {
        min: f64,
        above: bool,
        max: Option<f64>,
    },
    /// A whole number in `min..=max` (no upper bound but the type's when `max` is `None`).
    Integer { min: i64, max: Option<i64> },
    /// `True` or `False`.
    Flag,
}

/// An option's default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionValue {
    /// No value: the option is chosen from others (said in the option's `help`).
    None,
    Flag(bool),
    Integer(i64),
    Number(f64),
    Word(&'static str),
}

/// One option of an MCTS searcher.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionSpec {
    /// Its keyword, in Python and here.
    pub name: &'static str,
    /// The value taken when it is not given.
    pub default: OptionValue,
    pub kind: OptionKind,
    /// Whether `None` is accepted (and what it means is in `help`).
    pub optional: bool,
    /// The default of `glacier.search` when it differs from `default`: `None` there means
    /// "chosen from the other options", as `help` says.
    pub api_default: Option<OptionValue>,
    pub help: &'static str,
}

/// The exploration constant `glacier.search` uses for each selection rule when `c_puct` is
/// not given.
pub const DEFAULT_EXPLORATION: [(&str, f64); 2] = [("uct", 1.0), ("puct", 1.5)];

/// The kind of an option that is a share of a whole: a number from 0 to 1.
const FRACTION: OptionKind = OptionKind::Number {
    min: 0.0,
    above: false,
    max: Some(1.0),
};

/// Every option of an MCTS searcher, in the order of the binding's keyword arguments.
pub const MCTS_OPTIONS: [OptionSpec; 18] = [
    OptionSpec {
        name: "evaluator",
        default: OptionValue::Word("rollout"),
        kind: OptionKind::Choice(&["rollout", "heuristic"]),
        optional: false,
        api_default: None,
        help: "the engine's leaf evaluation (glacier.search also takes a batched evaluator)",
    },
    OptionSpec {
        name: "rollout_plies",
        default: OptionValue::None,
        kind: OptionKind::Integer {
            min: 0,
            max: Some(u32::MAX as i64),
        },
        optional: true,
        api_default: None,
        help: "plies after which a rollout stops and the heuristic scores it (None: to the end)",
    },
    OptionSpec {
        name: "selection",
        default: OptionValue::Word("uct"),
        kind: OptionKind::Choice(&["uct", "puct"]),
        optional: false,
        api_default: Some(OptionValue::None),
        help: "the selection rule (glacier.search: PUCT for a batched evaluator or heuristic \
               priors, else UCT)",
    },
    OptionSpec {
        name: "c_puct",
        default: OptionValue::Number(1.4),
        kind: OptionKind::Number {
            min: 0.0,
            above: false,
            max: None,
        },
        optional: false,
        api_default: Some(OptionValue::None),
        help: "the exploration constant (glacier.search: DEFAULT_EXPLORATION of the selection)",
    },
    OptionSpec {
        name: "dirichlet_alpha",
        default: OptionValue::Number(0.3),
        kind: OptionKind::Number {
            min: 0.0,
            above: false,
            max: None,
        },
        optional: false,
        api_default: None,
        help: "the concentration of the root's Dirichlet noise (> 0 when it is mixed in)",
    },
    OptionSpec {
        name: "dirichlet_fraction",
        default: OptionValue::Number(0.0),
        kind: FRACTION,
        optional: false,
        api_default: None,
        help: "how much noise is mixed into the root's priors",
    },
    OptionSpec {
        name: "virtual_loss",
        default: OptionValue::Number(1.0),
        kind: OptionKind::Number {
            min: 0.0,
            above: false,
            max: None,
        },
        optional: false,
        api_default: None,
        help: "the loss a simulation in flight counts for on its path",
    },
    OptionSpec {
        name: "threads",
        default: OptionValue::Integer(1),
        kind: OptionKind::Integer {
            min: 0,
            max: Some(MAX_THREADS as i64),
        },
        optional: false,
        api_default: None,
        help: "threads searching (0: every core)",
    },
    OptionSpec {
        name: "parallel",
        default: OptionValue::Word("tree"),
        kind: OptionKind::Choice(&["tree", "root"]),
        optional: false,
        api_default: None,
        help: "one tree shared by the threads, or trees merged at the root",
    },
    OptionSpec {
        name: "trees",
        default: OptionValue::None,
        kind: OptionKind::Integer {
            min: 1,
            max: Some(MAX_TREES),
        },
        optional: true,
        api_default: None,
        help: "the trees of a root-parallel search (None: one per thread)",
    },
    OptionSpec {
        name: "seed",
        default: OptionValue::Integer(0),
        kind: OptionKind::Integer { min: 0, max: None },
        optional: false,
        api_default: None,
        help: "the seed of the trees' random streams (64 bits)",
    },
    OptionSpec {
        name: "reuse",
        default: OptionValue::Flag(true),
        kind: OptionKind::Flag,
        optional: false,
        api_default: None,
        help: "keep the trees between searches and go on from the subtree of the next root",
    },
    OptionSpec {
        name: "priors",
        default: OptionValue::Word("uniform"),
        kind: OptionKind::Choice(&["uniform", "heuristic"]),
        optional: false,
        api_default: None,
        help: "the priors the engine's evaluations give a leaf's moves",
    },
    OptionSpec {
        name: "prior_temperature",
        default: OptionValue::Number(1.0),
        kind: OptionKind::Number {
            min: 0.0,
            above: true,
            max: None,
        },
        optional: false,
        api_default: None,
        help: "the temperature of the heuristic priors' softmax",
    },
    OptionSpec {
        name: "rollout_policy",
        default: OptionValue::Word("uniform"),
        kind: OptionKind::Choice(&["uniform", "move_priority"]),
        optional: false,
        api_default: None,
        help: "how rollouts draw their moves",
    },
    OptionSpec {
        name: "rollout_temperature",
        default: OptionValue::Number(1.0),
        kind: OptionKind::Number {
            min: 0.0,
            above: true,
            max: None,
        },
        optional: false,
        api_default: None,
        help: "the temperature of the move_priority rollouts' softmax",
    },
    OptionSpec {
        name: "heuristic_mix",
        default: OptionValue::Number(0.0),
        kind: FRACTION,
        optional: false,
        api_default: None,
        help: "the weight of the game's heuristic in a leaf's value, mixed with the evaluator's",
    },
    OptionSpec {
        name: "rollout_mix",
        default: OptionValue::Number(0.0),
        kind: FRACTION,
        optional: false,
        api_default: None,
        help: "the weight of a rollout (as the rollout options say) in a leaf's value, mixed with the evaluator's",
    },
];

/// How several threads share a search of one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallel {
    /// One tree, every thread descending it (virtual loss).
    Tree,
    /// One tree per thread (or per `trees`), merged at the root.
    Root,
}

/// One value of each option of [`MCTS_OPTIONS`], as a caller gives them (unchecked).
#[derive(Debug, Clone, PartialEq)]
pub struct MctsOptions<'a> {
    pub evaluator: &'a str,
    pub rollout_plies: Option<i64>,
    pub selection: &'a str,
    pub c_puct: f64,
    pub dirichlet_alpha: f64,
    pub dirichlet_fraction: f64,
    pub virtual_loss: f64,
    pub threads: i64,
    pub parallel: &'a str,
    pub trees: Option<i64>,
    pub seed: u64,
    pub reuse: bool,
    pub priors: &'a str,
    pub prior_temperature: f64,
    pub rollout_policy: &'a str,
    pub rollout_temperature: f64,
    pub heuristic_mix: f64,
    pub rollout_mix: f64,
}

impl Default for MctsOptions<'_> {
    fn default() -> Self {
        MctsOptions {
            evaluator: "rollout",
            rollout_plies: None,
            selection: "uct",
            c_puct: 1.4,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.0,
            virtual_loss: 1.0,
            threads: 1,
            parallel: "tree",
            trees: None,
            seed: 0,
            reuse: true,
            priors: "uniform",
            prior_temperature: 1.0,
            rollout_policy: "uniform",
            rollout_temperature: 1.0,
            heuristic_mix: 0.0,
            rollout_mix: 0.0,
        }
    }
}

/// What a searcher is made with: the options checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchSettings {
    pub config: MctsConfig,
    /// The engine's own evaluation (a batched search takes its evaluator per call).
    pub evaluation: LeafEvaluation,
    /// Threads searching (0 resolved to every core).
    pub threads: usize,
    pub parallel: Parallel,
    /// Trees of a root-parallel search.
    pub trees: usize,
    pub seed: u64,
    pub reuse: bool,
}

fn invalid(message: String) -> Error {
    Error::InvalidParameter(message)
}

/// `value` as an `f32` if it is finite and `>= 0`.
fn at_least_zero(name: &str, value: f64) -> Result<f32, Error> {
    if value.is_finite() && value >= 0.0 {
        Ok(value as f32)
    } else {
        Err(invalid(format!(
            "{name} must be a finite number >= 0, got {value}"
        )))
    }
}

/// `value` as an `f32` if it is finite and `> 0` (also as an `f32`).
fn above_zero(name: &str, value: f64) -> Result<f32, Error> {
    if value.is_finite() && value > 0.0 && (value as f32).is_finite() {
        Ok(value as f32)
    } else {
        Err(invalid(format!(
            "{name} must be a finite number > 0, got {value}"
        )))
    }
}

impl MctsOptions<'_> {
    /// Checks every option (the first bad one is the error) into the settings of a
    /// searcher.
    pub fn settings(&self) -> Result<SearchSettings, Error> {
        let plies = match self.rollout_plies {
            None => None,
            Some(p) => Some(
                u32::try_from(p)
                    .map_err(|_| invalid(format!("rollout_plies must be >= 0, got {p}")))?,
            ),
        };
        let rollout_temperature = above_zero("rollout_temperature", self.rollout_temperature)?;
        let guided = match self.rollout_policy {
            "uniform" => false,
            "move_priority" => true,
            other => {
                return Err(invalid(format!(
                    "unknown rollout_policy '{other}': 'uniform' or 'move_priority'"
                )))
            }
        };
        let rollout = if guided {
            LeafEvaluation::GuidedRollout {
                plies,
                temperature: rollout_temperature,
            }
        } else {
            LeafEvaluation::Rollout { plies }
        };
        let evaluation = match self.evaluator {
            "rollout" => rollout,
            "heuristic" => LeafEvaluation::Heuristic,
            other => {
                return Err(invalid(format!(
                    "unknown evaluator '{other}': 'rollout', 'heuristic' or a callable"
                )))
            }
        };
        let selection = match self.selection {
            "uct" => Selection::Uct,
            "puct" => Selection::Puct,
            other => {
                return Err(invalid(format!(
                    "unknown selection '{other}': 'uct' or 'puct'"
                )))
            }
        };
        let prior_temperature = above_zero("prior_temperature", self.prior_temperature)?;
        let move_priors = match self.priors {
            "uniform" => None,
            "heuristic" => Some(prior_temperature),
            other => {
                return Err(invalid(format!(
                    "unknown priors '{other}': 'uniform' or 'heuristic'"
                )))
            }
        };
        let config = MctsConfig {
            selection,
            exploration: at_least_zero("c_puct", self.c_puct)?,
            dirichlet_alpha: at_least_zero("dirichlet_alpha", self.dirichlet_alpha)?,
            dirichlet_fraction: at_least_zero("dirichlet_fraction", self.dirichlet_fraction)?,
            virtual_loss: at_least_zero("virtual_loss", self.virtual_loss)?,
            move_priors,
            heuristic_mix: at_least_zero("heuristic_mix", self.heuristic_mix)?,
            rollout_mix: at_least_zero("rollout_mix", self.rollout_mix)?,
            mixed_rollout: rollout,
        };
        config.check()?;
        let threads = usize::try_from(self.threads)
            .ok()
            .filter(|&t| t <= MAX_THREADS)
            .ok_or_else(|| {
                invalid(format!(
                    "threads must be between 0 and {MAX_THREADS}, got {}",
                    self.threads
                ))
            })?;
        let threads = thread_count(threads);
        let parallel = match self.parallel {
            "tree" => Parallel::Tree,
            "root" => Parallel::Root,
            other => {
                return Err(invalid(format!(
                    "unknown parallel mode '{other}': 'tree' or 'root'"
                )))
            }
        };
        let trees = match self.trees {
            None => threads,
            Some(n) if (1..=MAX_TREES).contains(&n) => n as usize,
            Some(n) => {
                return Err(invalid(format!(
                    "trees must be between 1 and {MAX_TREES}, got {n}"
                )))
            }
        };
        Ok(SearchSettings {
            config,
            evaluation,
            threads,
            parallel,
            trees,
            seed: self.seed,
            reuse: self.reuse,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults of [`MctsOptions`] are those of the list, and each is a valid value of
    /// its option.
    #[test]
    fn the_defaults_are_the_lists() {
        let d = MctsOptions::default();
        let words = [
            ("evaluator", d.evaluator),
            ("selection", d.selection),
            ("parallel", d.parallel),
            ("priors", d.priors),
            ("rollout_policy", d.rollout_policy),
        ];
        let numbers = [
            ("c_puct", d.c_puct),
            ("dirichlet_alpha", d.dirichlet_alpha),
            ("dirichlet_fraction", d.dirichlet_fraction),
            ("virtual_loss", d.virtual_loss),
            ("prior_temperature", d.prior_temperature),
            ("rollout_temperature", d.rollout_temperature),
            ("heuristic_mix", d.heuristic_mix),
            ("rollout_mix", d.rollout_mix),
        ];
        let optional = [("rollout_plies", d.rollout_plies), ("trees", d.trees)];
        let integers = [("threads", d.threads), ("seed", d.seed as i64)];
        let spec = |name: &str| {
            MCTS_OPTIONS
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("{name} is not in the list"))
        };
        for (name, value) in words {
            let s = spec(name);
            assert_eq!(s.default, OptionValue::Word(value), "{name}");
            assert!(matches!(s.kind, OptionKind::Choice(c) if c.contains(&value)));
        }
        for (name, value) in numbers {
            assert_eq!(spec(name).default, OptionValue::Number(value), "{name}");
        }
        for (name, value) in optional {
            assert_eq!(value, None);
            assert_eq!(spec(name).default, OptionValue::None, "{name}");
            assert!(spec(name).optional);
        }
        for (name, value) in integers {
            assert_eq!(spec(name).default, OptionValue::Integer(value), "{name}");
        }
        assert_eq!(spec("reuse").default, OptionValue::Flag(d.reuse));
        assert_eq!(
            words.len() + numbers.len() + optional.len() + integers.len() + 1,
            MCTS_OPTIONS.len()
        );
        let settings = d.settings().expect("the defaults are valid");
        assert_eq!(settings.config, MctsConfig::default());
    }

    /// A value beyond each option's bounds, or not among its choices, is refused with the
    /// option's name.
    #[test]
    fn values_outside_the_list_are_refused() {
        for spec in &MCTS_OPTIONS {
            let mut o = MctsOptions::default();
            match (spec.name, spec.kind) {
                (name, OptionKind::Choice(_)) => {
                    let bad = "nonsense";
                    match name {
                        "evaluator" => o.evaluator = bad,
                        "selection" => o.selection = bad,
                        "parallel" => o.parallel = bad,
                        "priors" => o.priors = bad,
                        "rollout_policy" => o.rollout_policy = bad,
                        _ => panic!("{name} is not a choice of MctsOptions"),
                    }
                }
                (name, OptionKind::Number { min, max, .. }) => {
                    let bad = max.map_or(min - 1.0, |m| m + 1.0);
                    match name {
                        "c_puct" => o.c_puct = bad,
                        "dirichlet_alpha" => o.dirichlet_alpha = bad,
                        "dirichlet_fraction" => o.dirichlet_fraction = bad,
                        "virtual_loss" => o.virtual_loss = bad,
                        "prior_temperature" => o.prior_temperature = min,
                        "rollout_temperature" => o.rollout_temperature = min,
                        "heuristic_mix" => o.heuristic_mix = bad,
                        "rollout_mix" => o.rollout_mix = bad,
                        _ => panic!("{name} is not a number of MctsOptions"),
                    }
                }
                (name, OptionKind::Integer { min, max }) => match name {
                    "rollout_plies" => o.rollout_plies = Some(min - 1),
                    "threads" => o.threads = max.map_or(-1, |m| m + 1),
                    "trees" => o.trees = Some(min - 1),
                    // Any 64-bit seed is valid: the type is its bound.
                    "seed" => continue,
                    _ => panic!("{name} is not an integer of MctsOptions"),
                },
                (_, OptionKind::Flag) => continue,
            }
            let err = o.settings().expect_err(spec.name).to_string();
            assert!(err.contains(spec.name), "{}: {err}", spec.name);
        }
    }
}

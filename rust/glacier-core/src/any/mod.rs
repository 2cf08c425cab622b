//! Any game by its name: the layer a program uses when the game is a value, not a type (the
//! bindings; a Rust program that reads the game from its arguments).
//!
//! [`AnyGame`] is one game of the registry ([`crate::for_each_game!`]), found by its name,
//! with its facts (title, parameters, action count, observation shape) and the makers of
//! the things below; [`AnyState`] is a state of one of them. A checked session
//! ([`AnySession`]), a batched environment ([`AnyEnv`]) and an MCTS searcher
//! ([`AnySearcher`]) are made for it; perft, playouts, alpha-beta and self-play run from its
//! states. Each of them holds the generic engine object of its game's type (a
//! [`crate::Session`], a [`crate::env::VecEnv`], a [`crate::search::searcher::Searcher`]) in
//! one variant per game, and every method is one dispatch to it: the registry macro writes
//! the variants and the dispatch, so a game added to the registry is served here with no
//! line of its own.

mod env;
mod search;
mod session;
mod state;

pub use env::AnyEnv;
pub use search::{mid_move, wrong_game, AnySearcher};
pub use session::AnySession;

use crate::game::{params_for_text, params_from, Facts, GameFacts};
use crate::net::NetShape;
use crate::search::options::SearchSettings;
use crate::search::searcher::Searcher;
use crate::search::Heuristic;
use crate::{ActionEncoding, Error, FullGame, Game, GameParams, Notation, Observation};
use crate::{ParamSpec, ParamValue, Session};

/// Runs `$body` with `$x` bound to the content of `$value` (an enum of this layer with one
/// variant per game) and `$G` to its game's type.
macro_rules! each {
    ($value:expr, $Enum:ident, $x:pat, $G:ident => $body:expr) => {
        $crate::for_each_game!([$crate::any::each_arms], $value, $Enum, $x, $G, $body)
    };
}

#[doc(hidden)]
macro_rules! each_arms {
    ([$value:expr, $Enum:ident, $x:pat, $G:ident, $body:expr] $($module:ident::$Type:ident,)*) => {
        match $value {
            $(
                $Enum::$Type($x) => {
                    #[allow(dead_code)]
                    type $G = $crate::games::$module::$Type;
                    $body
                }
            )*
        }
    };
}

/// Runs `$body` with `$G` bound to the type of the game `$game` (an [`AnyGame`]).
macro_rules! each_game {
    ($game:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!([$crate::any::each_game_arms], $game, $G, $body)
    };
}

#[doc(hidden)]
macro_rules! each_game_arms {
    ([$game:expr, $G:ident, $body:expr] $($module:ident::$Type:ident,)*) => {
        match $game {
            $(
                AnyGame::$Type => {
                    type $G = $crate::games::$module::$Type;
                    $body
                }
            )*
        }
    };
}

/// The enums of this layer: one variant per game of the registry.
macro_rules! declare_any {
    ([] $($module:ident::$Type:ident,)*) => {
        /// A game of the registry.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum AnyGame {
            $($Type,)*
        }

        impl AnyGame {
            /// Every game, in registry order.
            pub const ALL: &'static [AnyGame] = &[$(AnyGame::$Type,)*];
        }

        /// A state of any game.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)] // E's state is the largest; few are made
        pub enum AnyState {
            $($Type($crate::games::$module::$Type),)*
        }

        $(
            impl From<$crate::games::$module::$Type> for AnyState {
                fn from(state: $crate::games::$module::$Type) -> Self {
                    AnyState::$Type(state)
                }
            }
        )*

        /// Boxed: a Python state holds one, of the size of its own game's.
        #[derive(Debug, Clone)]
        enum Sessions {
            $($Type(Box<session::Kept<$crate::games::$module::$Type>>),)*
        }

        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)] // made once, for many games
        enum Envs {
            $($Type($crate::env::VecEnv<$crate::games::$module::$Type>),)*
        }

        #[derive(Debug)]
        enum Searchers {
            $($Type($crate::search::searcher::Searcher<$crate::games::$module::$Type>),)*
        }

        /// The variant of game `G` of each enum.
        trait Variants: Sized {
            fn game() -> AnyGame;
            fn into_any(self) -> AnyState;
            fn session(session: Box<session::Kept<Self>>) -> Sessions
            where
                Self: crate::FullGame;
            fn env(env: $crate::env::VecEnv<Self>) -> Envs
            where
                Self: crate::FullGame;
            fn searcher(searcher: $crate::search::searcher::Searcher<Self>) -> Searchers
            where
                Self: crate::FullGame + $crate::search::Heuristic;
        }

        $(
            impl Variants for $crate::games::$module::$Type {
                fn game() -> AnyGame {
                    AnyGame::$Type
                }
                fn into_any(self) -> AnyState {
                    AnyState::$Type(self)
                }
                fn session(session: Box<session::Kept<Self>>) -> Sessions {
                    Sessions::$Type(session)
                }
                fn env(env: $crate::env::VecEnv<Self>) -> Envs {
                    Envs::$Type(env)
                }
                fn searcher(searcher: $crate::search::searcher::Searcher<Self>) -> Searchers {
                    Searchers::$Type(searcher)
                }
            }
        )*
    };
}

crate::for_each_game!([declare_any]);

pub(crate) use {each, each_arms, each_game_arms};

/// A game of the registry: every layer, the search's evaluation, and its variant in each
/// enum of this layer.
trait Registered: FullGame + Heuristic + Variants {}

impl<G: FullGame + Heuristic + Variants> Registered for G {}

impl AnyGame {
    /// The game called `name`.
    pub fn named(name: &str) -> Result<AnyGame, UnknownGame> {
        name.parse()
    }

    /// The game that plays chess ([`crate::games::Chess`]): records write its moves in SAN.
    #[must_use]
    pub fn chess() -> AnyGame {
        <crate::games::Chess as Variants>::game()
    }

    /// Its place in the registry (in [`AnyGame::ALL`] and [`crate::games::GAME_NAMES`]).
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name the API and the fixtures call it by, e.g. `"kuba"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        each_game!(self, G => G::NAME)
    }

    /// The name people know it by.
    #[must_use]
    pub fn title(self) -> &'static str {
        each_game!(self, G => G::TITLE)
    }

    /// The parameters it takes, in order.
    #[must_use]
    pub fn param_specs(self) -> &'static [ParamSpec] {
        each_game!(self, G => <<G as Game>::Params as GameParams>::SPECS)
    }

    /// What the tools around the engine know of it.
    #[must_use]
    pub fn facts(self) -> GameFacts {
        each_game!(self, G => <G as Facts>::FACTS)
    }

    /// Every action number is below this.
    #[must_use]
    pub fn num_distinct_actions(self) -> usize {
        each_game!(self, G => <G as ActionEncoding>::NUM_DISTINCT_ACTIONS)
    }

    /// The shape of its observation tensor.
    #[must_use]
    pub fn observation_shape(self) -> &'static [usize] {
        each_game!(self, G => <G as Observation>::OBSERVATION_SHAPE)
    }

    /// The name of action `action` ([`ActionEncoding::action_text`]).
    #[must_use]
    pub fn action_text(self, action: usize) -> Option<String> {
        each_game!(self, G => G::action_text(action))
    }

    /// Whether every move is one action named by the move's text
    /// ([`ActionEncoding::ONE_ACTION_MOVES`]): the texts of its moves are then few and
    /// common, worth interning.
    #[must_use]
    pub fn one_action_moves(self) -> bool {
        each_game!(self, G => <G as ActionEncoding>::ONE_ACTION_MOVES)
    }

    /// How many text keys its listed moves have ([`crate::session::MoveTexts::text_key`]):
    /// its actions in a game of one action per move, else its
    /// [`Notation::MOVE_TEXT_KEYS`].
    #[must_use]
    pub fn text_keys(self) -> usize {
        each_game!(self, G => if <G as ActionEncoding>::ONE_ACTION_MOVES {
            <G as ActionEncoding>::NUM_DISTINCT_ACTIONS
        } else {
            <G as Notation>::MOVE_TEXT_KEYS
        })
    }

    /// Its start with these parameters, or the position `text` (with the parameters the text
    /// states itself where they are not given).
    pub fn state(
        self,
        text: Option<&str>,
        params: &[(&str, ParamValue)],
    ) -> Result<AnyState, Error> {
        each_game!(self, G => Ok(match text {
            Some(text) => G::from_text(text, &params_for_text::<G>(text, params)?)?,
            None => G::start(&params_from::<G>(params)?),
        }.into_any()))
    }

    /// A session at its start, or at the position `text`, as [`AnyGame::state`] reads them.
    pub fn session(
        self,
        text: Option<&str>,
        params: &[(&str, ParamValue)],
    ) -> Result<AnySession, Error> {
        each_game!(self, G => Ok(AnySession::of(match text {
            Some(text) => Session::<G>::from_text(text, params)?,
            None => Session::<G>::new(params)?,
        })))
    }

    /// An MCTS searcher of it, with no trees yet.
    #[must_use]
    pub fn searcher(self, settings: SearchSettings) -> AnySearcher {
        each_game!(self, G => AnySearcher::of(Searcher::<G>::new(settings)))
    }

    /// The shape of a net for it ([`NetShape::for_game`]).
    pub fn net_shape(
        self,
        observation_shape: &[usize],
        hidden: Vec<usize>,
        actions: usize,
        players: usize,
    ) -> Result<NetShape, Error> {
        each_game!(self, G => NetShape::for_game::<G>(observation_shape, hidden, actions, players))
    }
}

/// A name no game of the registry has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = AnyGame::ALL.iter().map(|g| g.name()).collect();
        write!(
            f,
            "unknown game '{}'; glacier has: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl std::str::FromStr for AnyGame {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<Self, UnknownGame> {
        AnyGame::ALL
            .iter()
            .copied()
            .find(|game| game.name() == name)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }
}

impl std::fmt::Display for AnyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

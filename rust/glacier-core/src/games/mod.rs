//! One module per game, and the one list of games.
//!
//! [`for_each_game!`] is the registry: every game's module and type, written once. It
//! declares the modules below, [`GAME_NAMES`] and [`with_game!`] (the name-to-type
//! dispatch of the generic tests), and [`crate::any`] writes from it the one dispatch the
//! bindings use. Adding a game: its module here (implementing the layers of
//! [`crate::game`]), and one line in the list.

/// Calls the macro named by the tokens in brackets with every game as `module::Type`, after
/// the tokens `$args` (if given) in brackets: the registry of games.
#[macro_export]
macro_rules! for_each_game {
    ([$($callback:tt)+] $(, $($args:tt)*)?) => {
        $($callback)+! {
            [$($($args)*)?]
            ice_age_chess::IceAgeChess,
            ice_cube_checkers::IceCubeCheckers,
            kings_court::KingsCourt,
            kuba::Kuba,
            martian_chinese_checkers::MartianChineseCheckers,
        }
    };
}

macro_rules! declare_games {
    ([] $($module:ident::$Type:ident,)*) => {
        $(pub mod $module;)*

        /// The names of every game, in the order the Python API lists them.
        pub const GAME_NAMES: &[&str] = &[$(<$module::$Type as $crate::Game>::NAME),*];
    };
}

for_each_game!([declare_games]);

/// Runs `$body` with `$G` bound to the game type named `$name` (a `&str`), or evaluates
/// `$otherwise` when no game has that name.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr, _ => $otherwise:expr) => {
        $crate::for_each_game!([$crate::__with_game_arms], $name, $G, $body, $otherwise)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    ([$name:expr, $G:ident, $body:expr, $otherwise:expr] $($module:ident::$Type:ident,)*) => {{
        let name: &str = $name;
        $(
            if name == <$crate::games::$module::$Type as $crate::Game>::NAME {
                type $G = $crate::games::$module::$Type;
                $body
            } else
        )*
        {
            $otherwise
        }
    }};
}

/// The game that plays chess (the one whose facts name the kin `"chess"`): SAN, and the
/// comparisons with chess programs, reach it by this name.
pub type Chess = ice_age_chess::IceAgeChess;

#[cfg(test)]
mod tests {
    use crate::game::{Facts, Game};

    #[test]
    fn chess_is_the_one_game_that_plays_chess() {
        macro_rules! kin_of_chess {
            ([] $($module:ident::$Type:ident,)*) => {
                [$((<super::$module::$Type as Game>::NAME, <super::$module::$Type as Facts>::FACTS.kin)),*]
                    .into_iter()
                    .filter(|(_, kin)| kin.iter().any(|k| k.game == "chess"))
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>()
            };
        }
        assert_eq!(
            for_each_game!([kin_of_chess]),
            [<super::Chess as Game>::NAME]
        );
    }
}

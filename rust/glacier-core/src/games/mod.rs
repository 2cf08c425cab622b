//! One module per game.

pub mod ice_age_chess;
pub mod ice_cube_checkers;
pub mod kings_court;
pub mod kuba;
pub mod martian_chinese_checkers;

/// The names of every game, in the order the Python API lists them.
pub const GAME_NAMES: [&str; 5] = [
    "ice_age_chess",
    "ice_cube_checkers",
    "kings_court",
    "kuba",
    "martian_chinese_checkers",
];

/// Runs `$body` with `$G` bound to the game type named `$name` (a `&str`), or evaluates
/// `$otherwise` when no game of that name is built. Every place that turns a game name
/// into a type (fixture tests, the CLI, the bindings) goes through this one table.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr, _ => $otherwise:expr) => {
        match $name {
            "ice_age_chess" => {
                type $G = $crate::games::ice_age_chess::IceAgeChess;
                $body
            }
            "ice_cube_checkers" => {
                type $G = $crate::games::ice_cube_checkers::IceCubeCheckers;
                $body
            }
            "kings_court" => {
                type $G = $crate::games::kings_court::KingsCourt;
                $body
            }
            "kuba" => {
                type $G = $crate::games::kuba::Kuba;
                $body
            }
            "martian_chinese_checkers" => {
                type $G = $crate::games::martian_chinese_checkers::MartianChineseCheckers;
                $body
            }
            _ => $otherwise,
        }
    };
}

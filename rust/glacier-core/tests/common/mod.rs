//! What the integration tests of the searches share: a stand-in for a network and the
//! games to run a check in.

#![allow(dead_code)]

use glacier_core::search::batch::{LeafBatch, ValueLayout};
use glacier_core::{Error, FullGame, GameParams, ParamValue};

/// A deterministic stand-in for a network: each leaf's logits and value from its own row
/// only (a hash of its observation), so that results cannot depend on how leaves are
/// batched. `mover_only` gives the mover's value; otherwise every player's, written out as
/// the search would from the mover's.
pub fn net(
    mover_only: bool,
) -> impl FnMut(&mut LeafBatch<'_>, &mut [f32], &mut [f32]) -> Result<ValueLayout, Error> + Clone + Send
{
    move |leaves, logits, values| {
        let size = leaves.observations.len() / leaves.len;
        let (actions, players) = (leaves.num_actions, leaves.num_players);
        for i in 0..leaves.len {
            let row = &leaves.observations[i * size..(i + 1) * size];
            let mut h = 0u64;
            for (j, &x) in row.iter().enumerate() {
                if x != 0.0 {
                    h = h.rotate_left(7) ^ (j as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                }
            }
            let legal = &leaves.legal[i * actions..(i + 1) * actions];
            assert!(legal.contains(&true), "a leaf with no legal action");
            assert!(leaves.to_play[i] < players);
            for (a, logit) in logits[i * actions..(i + 1) * actions]
                .iter_mut()
                .enumerate()
            {
                *logit = ((h >> (a % 61)) & 7) as f32 * 0.25;
            }
            let v = ((h % 201) as f32 - 100.0) / 100.0;
            if mover_only {
                values[i] = v;
            } else {
                let other = if players == 2 {
                    -v
                } else {
                    -v / (players - 1) as f32
                };
                for p in 0..players {
                    values[i * players + p] = if p == leaves.to_play[i] { v } else { other };
                }
            }
        }
        Ok(if mover_only {
            ValueLayout::Mover
        } else {
            ValueLayout::PerPlayer
        })
    }
}

/// Runs `check::<G>` for every game.
macro_rules! every_game {
    ($check:ident) => {
        for &name in GAME_NAMES {
            with_game!(name, G => $check::<G>(), _ => unreachable!());
        }
    };
}

/// The numbers of players `G` allows besides its default (none for a game of two).
pub fn more_players<G: FullGame>() -> Vec<i64> {
    let specs = <G::Params as GameParams>::SPECS;
    let Some(players) = specs.iter().find(|p| p.name == "players") else {
        return Vec::new();
    };
    (players.min..=players.max)
        .filter(|&n| ParamValue::Int(n) != players.default)
        .collect()
}

//! A net for a game: its shape from the game's observation and action count (a plane is
//! the observation's shape past its first axis), and its values turned from the mover's
//! point of view into player order.

use super::{Net, NetShape, Scratch};
use crate::game::plane_size;
use crate::search::MAX_PLAYERS;
use crate::{Error, Observation};

impl NetShape {
    /// The shape of a net for `G` with `hidden` layers and `players` value outputs, the
    /// observation's shape and action count stated as the caller (a saved net) gives them:
    /// refused unless they are `G`'s.
    pub fn for_game<G: Observation>(
        observation_shape: &[usize],
        hidden: Vec<usize>,
        actions: usize,
        players: usize,
    ) -> Result<NetShape, Error> {
        let shape = G::OBSERVATION_SHAPE;
        if observation_shape != shape || actions != G::NUM_DISTINCT_ACTIONS {
            return Err(Error::InvalidParameter(format!(
                "a net for {} takes observations of shape {shape:?} and gives {} logits, not \
                 {observation_shape:?} and {actions}",
                G::NAME,
                G::NUM_DISTINCT_ACTIONS
            )));
        }
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(Error::InvalidParameter(format!(
                "a net has 1 to {MAX_PLAYERS} players, got {players}"
            )));
        }
        Ok(NetShape {
            inputs: shape.iter().product(),
            plane: plane_size(shape),
            hidden,
            actions,
            players,
        })
    }
}

impl Net {
    /// [`Net::forward_all`] with the values in player order: row `i` of `values` holds every
    /// player's value, player 0 first (not the mover's first, as the net gives them).
    pub fn forward_by_player(
        &self,
        n: usize,
        observations: &[f32],
        to_play: &[usize],
        logits: &mut [f32],
        values: &mut [f32],
        scratch: &mut Scratch,
    ) -> Result<(), Error> {
        let players = self.shape.players;
        let mut relative = vec![0.0f32; values.len()];
        self.forward_all(n, observations, to_play, logits, &mut relative, scratch)?;
        for ((row, relative), &mover) in values
            .chunks_mut(players)
            .zip(relative.chunks(players))
            .zip(to_play)
        {
            for (k, &v) in relative.iter().enumerate() {
                row[(mover + k) % players] = v;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GAME_NAMES;
    use crate::{with_game, FullGame};

    fn shapes_are_checked<G: FullGame>() {
        let shape =
            NetShape::for_game::<G>(G::OBSERVATION_SHAPE, vec![8], G::NUM_DISTINCT_ACTIONS, 2)
                .expect("the game's own shape");
        assert_eq!(shape.inputs, G::OBSERVATION_SHAPE.iter().product::<usize>());
        assert_eq!(
            shape.plane,
            G::OBSERVATION_SHAPE[1..].iter().product::<usize>()
        );
        assert!(NetShape::for_game::<G>(&[1, 2], vec![8], G::NUM_DISTINCT_ACTIONS, 2).is_err());
        assert!(NetShape::for_game::<G>(G::OBSERVATION_SHAPE, vec![8], 3, 2).is_err());
        for players in [0, MAX_PLAYERS + 1] {
            let shape = NetShape::for_game::<G>(
                G::OBSERVATION_SHAPE,
                vec![8],
                G::NUM_DISTINCT_ACTIONS,
                players,
            );
            assert!(shape.is_err(), "{}: {players} players", G::NAME);
        }
    }

    #[test]
    fn a_shape_is_the_games_or_refused() {
        for &name in GAME_NAMES {
            with_game!(name, G => shapes_are_checked::<G>(), _ => unreachable!());
        }
    }

    /// The values of `forward_by_player` are those the search's evaluation gives, in player
    /// order, for every player to move.
    fn values_in_player_order<G: FullGame>() {
        let start = G::start(&crate::game::params_from::<G>(&[]).expect("defaults"));
        let players = start.num_players();
        let actions = G::NUM_DISTINCT_ACTIONS;
        let shape = NetShape::for_game::<G>(G::OBSERVATION_SHAPE, vec![4], actions, players)
            .expect("the game's shape");
        let weights: Vec<f32> = (0..shape.num_weights())
            .map(|i| ((i * 7919) % 13) as f32 / 13.0 - 0.5)
            .collect();
        let net = Net::new(shape, weights).expect("a net");
        let size: usize = G::OBSERVATION_SHAPE.iter().product();
        let mut observations = vec![0.0; players * size];
        for (p, row) in observations.chunks_mut(size).enumerate() {
            start.observation(&[], p, row);
        }
        let to_play: Vec<usize> = (0..players).collect();
        let mut scratch = Scratch::new();
        let (mut logits, mut values) = (vec![0.0; players * actions], vec![0.0; players * players]);
        net.forward_by_player(
            players,
            &observations,
            &to_play,
            &mut logits,
            &mut values,
            &mut scratch,
        )
        .expect("a batch");
        let legal = vec![true; players * actions];
        let leaves = super::super::Leaves {
            len: players,
            observations: super::super::LeafObservations::Dense(&observations),
            legal: &legal,
            to_play: &to_play,
            listed: None,
        };
        let (mut searched_logits, mut searched) =
            (vec![0.0; players * actions], vec![0.0; players * players]);
        net.evaluate(&leaves, &mut searched_logits, &mut searched, &mut scratch)
            .expect("a batch");
        assert_eq!(values, searched, "{}", G::NAME);
        assert_eq!(logits, searched_logits, "{}", G::NAME);
        assert!(
            values.chunks(players).any(|row| row[0] != row[1]),
            "{}: values that tell players apart",
            G::NAME
        );
    }

    #[test]
    fn values_come_in_player_order() {
        for &name in GAME_NAMES {
            with_game!(name, G => values_in_player_order::<G>(), _ => unreachable!());
        }
    }
}

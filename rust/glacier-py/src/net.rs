//! Nets evaluated in the engine, for Python (`glacier.learn`): `NativeNet` holds a core
//! [`Net`] for one game. The searches take it as an evaluator and run it in Rust with the
//! GIL released (search.rs); calling it from Python evaluates a batch the same way.

use crate::errors::{game_named, to_py_err, InvalidParameterError};
use glacier_core::any::AnyGame;
use glacier_core::net::{Net, NetEvaluator, Scratch};
use numpy::{
    IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArrayDyn,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;

/// A policy-value net for one game, evaluated by the engine (the base class of
/// `glacier.learn.Net`, which checks a net file against its game before making one).
#[pyclass(module = "glacier._native", frozen, subclass)]
pub struct NativeNet {
    pub(crate) net: Arc<Net>,
    pub(crate) game: AnyGame,
}

impl std::fmt::Debug for NativeNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NativeNet({}, {:?})", self.game, self.net.shape())
    }
}

/// A batch's logits and values, as numpy arrays.
type LogitsAndValues<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>);

#[pymethods]
impl NativeNet {
    /// A net for `game` of these layer sizes, with `weights` laid out as the net file's
    /// tensors are listed (docs/learning.md). Ignores further arguments, which a subclass's
    /// `__init__` takes.
    #[new]
    #[pyo3(signature = (game, observation_shape, hidden, num_actions, num_players, weights, *_args, **_kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        observation_shape: Vec<usize>,
        hidden: Vec<usize>,
        num_actions: usize,
        num_players: usize,
        weights: PyReadonlyArray1<'_, f32>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let game = game_named(game)?;
        let net_shape = game
            .net_shape(&observation_shape, hidden, num_actions, num_players)
            .map_err(to_py_err)?;
        let weights = weights.as_slice()?.to_vec();
        let net = py
            .detach(|| Net::new(net_shape, weights))
            .map_err(to_py_err)?;
        Ok(NativeNet {
            net: Arc::new(net),
            game,
        })
    }

    /// The game the net is for.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }

    /// Evaluates a batch: `observations` `[B, *observation_shape]` float32, `legal`
    /// `[B, num_actions]` bool (unused: every logit is computed), `to_play` `[B]` the
    /// players to move. Returns `(logits [B, num_actions], values [B, num_players])`, the
    /// values in player order.
    #[pyo3(signature = (observations, legal, to_play))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArrayDyn<'py, f32>,
        legal: &Bound<'py, PyAny>,
        to_play: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<LogitsAndValues<'py>> {
        let _ = legal;
        let shape = self.net.shape();
        let dims = observations.shape();
        let n = dims.first().copied().unwrap_or(0);
        let inputs: usize = dims.iter().skip(1).product();
        if dims.len() < 2 || inputs != shape.inputs {
            return Err(InvalidParameterError::new_err(format!(
                "the net takes observations of {} floats each, got shape {:?}",
                shape.inputs,
                observations.shape()
            )));
        }
        let movers = to_play.as_slice()?;
        if movers.len() != n {
            return Err(InvalidParameterError::new_err(format!(
                "to_play has {} entries for {n} observations",
                movers.len()
            )));
        }
        let players = shape.players;
        if let Some(&p) = movers.iter().find(|&&p| p < 0 || p as usize >= players) {
            return Err(InvalidParameterError::new_err(format!(
                "player {p} to move in a net for {players} players"
            )));
        }
        let observations = observations.as_slice()?;
        let movers: Vec<usize> = movers.iter().map(|&p| p as usize).collect();
        let (logits, values) = py
            .detach(|| {
                let mut logits = vec![0.0f32; n * shape.actions];
                let mut values = vec![0.0f32; n * players];
                let mut scratch = Scratch::new();
                self.net
                    .forward_by_player(
                        n,
                        observations,
                        &movers,
                        &mut logits,
                        &mut values,
                        &mut scratch,
                    )
                    .map(|()| (logits, values))
            })
            .map_err(to_py_err)?;
        Ok((
            logits.into_pyarray(py).reshape([n, shape.actions])?,
            values.into_pyarray(py).reshape([n, players])?,
        ))
    }
}

/// The engine's evaluator of `evaluator` when it is a net (None for anything else), which
/// must be for `game`; `what` names the work in the error ("search", "self-play").
pub(crate) fn net_evaluator(
    evaluator: &Bound<'_, PyAny>,
    game: AnyGame,
    what: &str,
) -> PyResult<Option<NetEvaluator>> {
    let Ok(net) = evaluator.cast::<NativeNet>() else {
        return Ok(None);
    };
    let net = net.get();
    if net.game != game {
        return Err(InvalidParameterError::new_err(format!(
            "the net is for {}, and this {what} for {game}",
            net.game
        )));
    }
    Ok(Some(NetEvaluator::new(net.net.clone())))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeNet>()
}

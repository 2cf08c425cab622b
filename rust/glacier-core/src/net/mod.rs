//! Small policy-value nets evaluated inside the engine, batched over the leaves of a search.
//!
//! A [`Net`] is a multi-layer perceptron: the observation (flat) followed by a one-hot of the
//! player to move goes through dense layers with ReLU, then two heads: a policy head of one logit per action of the game's fixed
//! action space, and a value head of one value per player, squashed by `tanh`. Values are
//! relative to the player to move (the observation is from its point of view): output `k`
//! is the value of player `(to_play + k) % players`; [`Net::evaluate`] turns them into
//! player order. The one-hot is there because the games turn the board to the mover's
//! side but number their actions the same for every player: without it a net could not
//! tell which of its actions is which.
//!
//! It is written for the shape of the games' observations: large (thousands of floats in
//! chess and E) and mostly zeros. The first layer adds up the weight rows of the non-zero
//! inputs instead of multiplying the whole matrix (a search hands it only those,
//! [`crate::game::Observation::observation_cells`]), and every later layer skips the units
//! that ReLU left at zero. The policy head computes only the logits of legal actions (one
//! dot product each), which is what a search needs; [`Net::forward_all`] computes them all.
//!
//! All weights live in one flat buffer, in the order [`NetShape::tensors`] lists them (the
//! order and the shapes a saved net's tensors have). Nothing allocates per leaf: the
//! activations go to a [`Scratch`] made once and reused.
//!
//! The forward pass is written once, for any CPU ([`evaluate_rows_portable`],
//! [`forward_rows_portable`]). On x86-64 (with the default feature `avx2`) it is compiled
//! twice: for the build's target (x86-64-v2, whose vectors hold four floats) and for AVX2
//! (eight), the second chosen at run time on a CPU that has it. Both do the same operations
//! in the same order, with no fused multiply-add, so a net gives the same results to the bit
//! on every CPU; other architectures compile the portable pass alone.

pub mod evaluation;
mod game;
#[cfg(test)]
mod tests;

use crate::game::{observation_cells_of, Cell, ObservationCells};
use crate::search::batch::{LeafBatch, LeafEvaluator, LeafInput, ValueLayout};
use crate::Error;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
use multiversion::multiversion;
use std::sync::Arc;

/// The sizes of a net's layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetShape {
    /// The length of a flat observation (the product of the game's observation shape).
    pub inputs: usize,
    /// The length of one plane of the observation (the product of its shape past the first
    /// axis; `inputs` for a flat one). A plane whose cells all hold one value (a "player
    /// to move" plane, a move counter) is added as one precomputed row.
    pub plane: usize,
    /// The widths of the hidden layers, first to last (at least one).
    pub hidden: Vec<usize>,
    /// The policy head's outputs: the game's number of distinct actions.
    pub actions: usize,
    /// The value head's outputs: the number of players.
    pub players: usize,
}

/// The most hidden layers a net may have, and the widest a layer may be: bounds that keep a
/// corrupt description from asking for absurd buffers.
pub const MAX_LAYERS: usize = 16;
pub const MAX_WIDTH: usize = 4096;

/// One tensor of a net: its name and its shape, in the order the flat buffer holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorSpec {
    pub name: String,
    pub shape: Vec<usize>,
}

impl TensorSpec {
    #[must_use]
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl NetShape {
    /// Checks the sizes: at least one hidden layer, none empty or wider than [`MAX_WIDTH`],
    /// at most [`MAX_LAYERS`], at least one input, action and player.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        if self.inputs == 0 || self.actions == 0 || self.players == 0 {
            return bad(format!(
                "a net needs inputs, actions and players, got {} inputs, {} actions, {} players",
                self.inputs, self.actions, self.players
            ));
        }
        if self.plane == 0 || self.inputs % self.plane != 0 {
            return bad(format!(
                "a plane of {} cells does not divide {} inputs",
                self.plane, self.inputs
            ));
        }
        if self.hidden.is_empty() || self.hidden.len() > MAX_LAYERS {
            return bad(format!(
                "a net has 1 to {MAX_LAYERS} hidden layers, got {}",
                self.hidden.len()
            ));
        }
        if let Some(&w) = self.hidden.iter().find(|&&w| w == 0 || w > MAX_WIDTH) {
            return bad(format!(
                "a hidden layer is 1 to {MAX_WIDTH} units wide, got {w}"
            ));
        }
        Ok(())
    }

    /// The tensors of the flat buffer, in order: for each hidden layer `i`, `dense{i}.weight`
    /// `[in, out]` (a row per input; the first layer's inputs are the observation's and then
    /// one per player, the one-hot of the player to move) and `dense{i}.bias` `[out]`; then `policy.weight`
    /// `[actions, last]` (a row per action) and `policy.bias` `[actions]`; then
    /// `value.weight` `[last, players]` and `value.bias` `[players]`.
    #[must_use]
    pub fn tensors(&self) -> Vec<TensorSpec> {
        let spec = |name: String, shape: Vec<usize>| TensorSpec { name, shape };
        let mut out = Vec::with_capacity(2 * self.hidden.len() + 4);
        let mut width = self.inputs + self.players;
        for (i, &h) in self.hidden.iter().enumerate() {
            out.push(spec(format!("dense{i}.weight"), vec![width, h]));
            out.push(spec(format!("dense{i}.bias"), vec![h]));
            width = h;
        }
        out.push(spec("policy.weight".into(), vec![self.actions, width]));
        out.push(spec("policy.bias".into(), vec![self.actions]));
        out.push(spec("value.weight".into(), vec![width, self.players]));
        out.push(spec("value.bias".into(), vec![self.players]));
        out
    }

    /// The number of weights (the flat buffer's length).
    #[must_use]
    pub fn num_weights(&self) -> usize {
        self.tensors().iter().map(TensorSpec::len).sum()
    }

    fn widest(&self) -> usize {
        self.hidden.iter().copied().max().unwrap_or(0)
    }
}

/// Where one dense layer's weights and biases start in the flat buffer.
#[derive(Debug, Clone, Copy)]
struct Layer {
    weight: usize,
    bias: usize,
    inputs: usize,
    outputs: usize,
}

/// Refuses `weights` unless it has `expected` entries, every one finite; `net` names the
/// kind of net in the errors ("net", "evaluation net").
fn check_weights(weights: &[f32], expected: usize, net: &str) -> Result<(), Error> {
    if weights.len() != expected {
        let article = if net.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        return Err(Error::InvalidParameter(format!(
            "{article} {net} of this shape has {expected} weights, got {}",
            weights.len()
        )));
    }
    if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
        return Err(Error::InvalidParameter(format!(
            "the {net}'s weight {i} is {}",
            weights[i]
        )));
    }
    Ok(())
}

/// The layers of a net's weight buffer, laid out one after another (each its weights, then
/// its biases), in the order they are taken.
#[derive(Debug, Default)]
struct Layout {
    at: usize,
}

impl Layout {
    /// The next layer, of `inputs` by `outputs`.
    fn take(&mut self, inputs: usize, outputs: usize) -> Layer {
        let layer = Layer {
            weight: self.at,
            bias: self.at + inputs * outputs,
            inputs,
            outputs,
        };
        self.at += inputs * outputs + outputs;
        layer
    }
}

/// The sum of each plane's rows of a first layer's weights (`rows`, a row of `width` per
/// input, `plane` inputs a plane), plane after plane: what a constant plane adds at once.
/// Summed in f64, so that a plane's row is as exact as its cells' sum.
fn plane_sums(rows: &[f32], plane: usize, width: usize) -> Vec<f32> {
    let mut sums = Vec::with_capacity(rows.len() / plane.max(1));
    let mut sum = vec![0.0f64; width];
    for plane in rows.chunks_exact(plane * width) {
        sum.fill(0.0);
        for row in plane.chunks_exact(width) {
            for (s, &w) in sum.iter_mut().zip(row) {
                *s += f64::from(w);
            }
        }
        sums.extend(sum.iter().map(|&s| s as f32));
    }
    sums
}

/// A batch of leaves to evaluate, every array row after row.
#[derive(Debug, Clone, Copy)]
pub struct Leaves<'a> {
    /// The number of leaves.
    pub len: usize,
    /// Each leaf's observation, from the point of view of its player to move.
    pub observations: LeafObservations<'a>,
    /// Which actions are legal at each leaf (`len` rows of `actions`); may be empty when
    /// the actions are `listed`.
    pub legal: &'a [bool],
    /// The player to move at each leaf.
    pub to_play: &'a [usize],
    /// The legal actions listed, if the caller has them: `(counts, actions)`, leaf `i`'s
    /// being the next `counts[i]` entries of `actions` (an action may appear twice). The
    /// mask is then not scanned.
    pub listed: Option<(&'a [usize], &'a [usize])>,
}

/// The observations of a batch of leaves.
#[derive(Debug, Clone, Copy)]
pub enum LeafObservations<'a> {
    /// Whole, flat, row after row.
    Dense(&'a [f32]),
    /// As their non-zero cells.
    Cells(&'a ObservationCells),
}

/// A policy-value MLP with its weights (see the module docs).
#[derive(Debug, Clone)]
pub struct Net {
    shape: NetShape,
    weights: Vec<f32>,
    /// For each plane, the sum of the first layer's rows of its cells (`[planes, width]`).
    plane_rows: Vec<f32>,
    layers: Vec<Layer>,
    policy: Layer,
    value: Layer,
    /// The value head's weights a row per player (`[players, width]`, the transpose of
    /// `value.weight`), so that each value is one dot product.
    value_rows: Vec<f32>,
}

/// The activations of one row, reused from row to row and batch to batch.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    front: Vec<f32>,
    back: Vec<f32>,
    relative: Vec<f32>,
    /// A hidden layer's non-zero inputs as `(row, value)`.
    terms: Vec<Cell>,
    /// A whole observation's non-zero cells and uniform planes.
    cells: Vec<Cell>,
    plane_terms: Vec<Cell>,
}

impl Scratch {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn fit(&mut self, net: &Net) {
        let width = net.shape.widest();
        if self.front.len() < width {
            self.front.resize(width, 0.0);
            self.back.resize(width, 0.0);
        }
        if self.terms.len() < width {
            self.terms.resize(width, (0, 0.0));
        }
        if self.relative.len() < net.shape.players {
            self.relative.resize(net.shape.players, 0.0);
        }
    }
}

impl Net {
    /// A net of `shape` with `weights` laid out as [`NetShape::tensors`] lists them. Refuses
    /// a bad shape, a buffer of the wrong length and any weight that is not finite.
    pub fn new(shape: NetShape, weights: Vec<f32>) -> Result<Self, Error> {
        shape.check()?;
        check_weights(&weights, shape.num_weights(), "net")?;
        let mut layout = Layout::default();
        let mut layers = Vec::with_capacity(shape.hidden.len());
        let mut width = shape.inputs + shape.players;
        for &h in &shape.hidden {
            layers.push(layout.take(width, h));
            width = h;
        }
        // The policy head is stored a row per action (`[actions, width]`), the transpose of
        // the other layers, so that one action's logit reads one contiguous row.
        let policy = layout.take(width, shape.actions);
        let value = layout.take(width, shape.players);
        let first = layers[0];
        let observation_rows = first.weight..first.weight + shape.inputs * first.outputs;
        let plane_rows = plane_sums(&weights[observation_rows], shape.plane, first.outputs);
        let value_weights = &weights[value.weight..value.bias];
        let value_rows = (0..value.outputs)
            .flat_map(|p| (0..value.inputs).map(move |i| value_weights[i * value.outputs + p]))
            .collect();
        Ok(Net {
            shape,
            weights,
            plane_rows,
            layers,
            policy,
            value,
            value_rows,
        })
    }

    #[must_use]
    pub fn shape(&self) -> &NetShape {
        &self.shape
    }

    /// The flat weight buffer.
    #[must_use]
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Runs the hidden layers on one observation of `mover`, given whole; the last layer's
    /// activations are left in `scratch.front[..last width]`.
    #[inline(always)]
    fn trunk_dense(&self, observation: &[f32], mover: usize, scratch: &mut Scratch) {
        let (mut cells, mut planes) = (
            std::mem::take(&mut scratch.cells),
            std::mem::take(&mut scratch.plane_terms),
        );
        cells.clear();
        planes.clear();
        observation_cells_of(observation, self.shape.plane, &mut cells, &mut planes);
        self.trunk(&cells, &planes, mover, scratch);
        (scratch.cells, scratch.plane_terms) = (cells, planes);
    }

    /// Runs the hidden layers on one observation of `mover` given as its non-zero cells
    /// and uniform planes ([`crate::game::Observation::observation_cells`]); the last
    /// layer's activations are left in `scratch.front[..last width]`.
    #[inline(always)]
    fn trunk(&self, cells: &[Cell], planes: &[Cell], mover: usize, scratch: &mut Scratch) {
        let first = self.layers[0];
        let out = &mut scratch.front[..first.outputs];
        out.copy_from_slice(&self.weights[first.bias..first.bias + first.outputs]);
        let width = first.outputs;
        let rows = &self.weights[first.weight..first.bias];
        // Mostly zeros: the rows of the inputs that are not (the one-hot of the mover
        // first), and a plane that holds one value everywhere as its precomputed row.
        accumulate(
            out,
            rows,
            width,
            &[((self.shape.inputs + mover) as u32, 1.0)],
        );
        accumulate(out, rows, width, cells);
        accumulate(out, &self.plane_rows, width, planes);
        relu(out);
        for layer in &self.layers[1..] {
            let (input, out) = (&scratch.front[..layer.inputs], &mut scratch.back);
            let (out, terms) = (&mut out[..layer.outputs], &mut scratch.terms);
            out.copy_from_slice(&self.weights[layer.bias..layer.bias + layer.outputs]);
            let rows = &self.weights[layer.weight..layer.bias];
            // ReLU leaves about half the units at zero: their rows are left out, listed
            // without a branch per unit (which would be mispredicted).
            let mut count = 0;
            for (i, &x) in input.iter().enumerate() {
                terms[count] = (i as u32, x);
                count += usize::from(x != 0.0);
            }
            accumulate(out, rows, layer.outputs, &terms[..count]);
            relu(out);
            std::mem::swap(&mut scratch.front, &mut scratch.back);
        }
    }

    /// The value head on the trunk's output: `relative[k]` for player `to_play + k`.
    #[inline(always)]
    fn values(&self, hidden: &[f32], relative: &mut [f32]) {
        let value = self.value;
        let width = value.inputs;
        for (p, v) in relative.iter_mut().enumerate() {
            let row = &self.value_rows[p * width..(p + 1) * width];
            *v = (self.weights[value.bias + p] + dot(hidden, row)).tanh();
        }
    }

    /// The logit of `action` from the trunk's output.
    #[inline(always)]
    fn logit(&self, hidden: &[f32], action: usize) -> f32 {
        let policy = self.policy;
        let width = policy.inputs;
        let row =
            &self.weights[policy.weight + action * width..policy.weight + (action + 1) * width];
        self.weights[policy.bias + action] + dot(hidden, row)
    }

    fn check_players(&self, n: usize, to_play: &[usize]) -> Result<(), Error> {
        let players = self.shape.players;
        if to_play.len() != n {
            return Err(Error::InvalidParameter(format!(
                "the net was given {} players to move for {n} rows",
                to_play.len()
            )));
        }
        if let Some(&p) = to_play.iter().find(|&&p| p >= players) {
            return Err(Error::InvalidParameter(format!(
                "player {p} to move in a net for {players} players"
            )));
        }
        Ok(())
    }

    fn check_batch(
        &self,
        n: usize,
        observations: LeafObservations<'_>,
        logits: &[f32],
        values: &[f32],
    ) -> Result<(), Error> {
        let shape = &self.shape;
        let observed = match observations {
            LeafObservations::Dense(rows) => (rows.len(), n * shape.inputs),
            LeafObservations::Cells(rows) => {
                let inputs = shape.inputs as u32;
                let planes = (shape.inputs / shape.plane) as u32;
                let fits = (0..rows.len()).all(|i| {
                    let (cells, uniform) = rows.row(i);
                    cells.iter().all(|&(c, _)| c < inputs)
                        && uniform.iter().all(|&(p, _)| p < planes)
                });
                if !fits {
                    return Err(Error::InvalidParameter(
                        "the net was given observation cells past its inputs".to_string(),
                    ));
                }
                (rows.len() * shape.inputs, n * shape.inputs)
            }
        };
        let wants = [
            ("observations", observed.0, observed.1),
            ("logits", logits.len(), n * shape.actions),
            ("values", values.len(), n * shape.players),
        ];
        for (name, got, want) in wants {
            if got != want {
                return Err(Error::InvalidParameter(format!(
                    "the net's {name} buffer for {n} rows holds {got} floats, not {want}"
                )));
            }
        }
        Ok(())
    }

    /// Evaluates a batch of leaves for a search: writes the logit of every legal action
    /// into `logits` (`leaves.len` rows of `actions`; the entries of illegal actions are
    /// left as they were) and every player's value, in player order, into `values`
    /// (`leaves.len` rows of `players`).
    pub fn evaluate(
        &self,
        leaves: &Leaves<'_>,
        logits: &mut [f32],
        values: &mut [f32],
        scratch: &mut Scratch,
    ) -> Result<(), Error> {
        let Leaves {
            len: n,
            observations,
            legal,
            to_play,
            listed,
        } = *leaves;
        self.check_batch(n, observations, logits, values)?;
        let actions = self.shape.actions;
        if legal.len() != n * actions && !(legal.is_empty() && listed.is_some()) {
            return Err(Error::InvalidParameter(format!(
                "the net's legal mask is for {} rows, not {n}",
                legal.len() / actions.max(1),
            )));
        }
        self.check_players(n, to_play)?;
        if let Some((counts, listed)) = listed {
            let total: usize = counts.iter().sum();
            if counts.len() != n || total != listed.len() {
                return Err(Error::InvalidParameter(format!(
                    "the net's listed actions are for {} rows and {total} actions, not {n} and {}",
                    counts.len(),
                    listed.len()
                )));
            }
            if let Some(&a) = listed.iter().find(|&&a| a >= actions) {
                return Err(Error::InvalidParameter(format!(
                    "action {a} listed for a net of {actions} actions"
                )));
            }
        }
        scratch.fit(self);
        evaluate_rows(self, leaves, logits, values, scratch);
        Ok(())
    }

    /// The whole forward pass of `n` observations of the players `to_play`: every action's
    /// logit into `logits` (`n` rows of `actions`) and the values relative to the mover into
    /// `values` (`n` rows of `players`, value `k` for player `to_play + k`), as the net was
    /// trained to give them.
    pub fn forward_all(
        &self,
        n: usize,
        observations: &[f32],
        to_play: &[usize],
        logits: &mut [f32],
        values: &mut [f32],
        scratch: &mut Scratch,
    ) -> Result<(), Error> {
        self.check_batch(n, LeafObservations::Dense(observations), logits, values)?;
        self.check_players(n, to_play)?;
        scratch.fit(self);
        forward_rows(self, n, observations, to_play, logits, values, scratch);
        Ok(())
    }
}

/// The rows of [`Net::evaluate`], checked: the AVX2 build of [`evaluate_rows_portable`] on
/// an x86-64 CPU that has AVX2, else the portable one.
fn evaluate_rows(
    net: &Net,
    leaves: &Leaves<'_>,
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    evaluate_rows_x86_64(net, leaves, logits, values, scratch);
    #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
    evaluate_rows_portable(net, leaves, logits, values, scratch);
}

/// [`evaluate_rows_portable`] compiled twice, for the build's target and for x86-64 with
/// AVX2, which is chosen at run time on a CPU that has it: the same operations in the same
/// order (no fused multiply-add), so that both give results equal to the bit.
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
#[multiversion(targets("x86_64+avx2"))]
fn evaluate_rows_x86_64<'a>(
    net: &Net,
    leaves: &Leaves<'a>,
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    evaluate_rows_portable(net, leaves, logits, values, scratch);
}

/// The rows of [`Net::evaluate`] for any CPU. It and what it calls are `#[inline(always)]`,
/// so that the AVX2 build of [`evaluate_rows_x86_64`] covers all of it.
#[inline(always)]
fn evaluate_rows_portable(
    net: &Net,
    leaves: &Leaves<'_>,
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    let Leaves {
        len: n,
        observations,
        legal,
        to_play,
        listed,
    } = *leaves;
    let shape = &net.shape;
    let (inputs, actions, players) = (shape.inputs, shape.actions, shape.players);
    let last = net.layers[net.layers.len() - 1].outputs;
    let mut at = 0;
    for row in 0..n {
        match observations {
            LeafObservations::Dense(rows) => net.trunk_dense(
                &rows[row * inputs..(row + 1) * inputs],
                to_play[row],
                scratch,
            ),
            LeafObservations::Cells(rows) => {
                let (cells, planes) = rows.row(row);
                net.trunk(cells, planes, to_play[row], scratch);
            }
        }
        let hidden = &scratch.front[..last];
        let out = &mut logits[row * actions..(row + 1) * actions];
        if let Some((counts, listed)) = listed {
            for &action in &listed[at..at + counts[row]] {
                out[action] = net.logit(hidden, action);
            }
            at += counts[row];
        } else {
            // The mask is mostly false (a few dozen of thousands of actions): skip it
            // a block at a time.
            const BLOCK: usize = 32;
            for (b, block) in legal[row * actions..(row + 1) * actions]
                .chunks(BLOCK)
                .enumerate()
            {
                if block.iter().any(|&is| is) {
                    for (i, _) in block.iter().enumerate().filter(|(_, &is)| is) {
                        let action = b * BLOCK + i;
                        out[action] = net.logit(hidden, action);
                    }
                }
            }
        }
        let relative = &mut scratch.relative[..players];
        net.values(hidden, relative);
        let out = &mut values[row * players..(row + 1) * players];
        for (k, &v) in relative.iter().enumerate() {
            out[(to_play[row] + k) % players] = v;
        }
    }
}

/// The rows of [`Net::forward_all`], checked; chosen as [`evaluate_rows`] chooses.
fn forward_rows(
    net: &Net,
    n: usize,
    observations: &[f32],
    to_play: &[usize],
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    forward_rows_x86_64(net, n, observations, to_play, logits, values, scratch);
    #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
    forward_rows_portable(net, n, observations, to_play, logits, values, scratch);
}

/// [`forward_rows_portable`] compiled twice, as [`evaluate_rows_x86_64`] is.
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
#[multiversion(targets("x86_64+avx2"))]
fn forward_rows_x86_64(
    net: &Net,
    n: usize,
    observations: &[f32],
    to_play: &[usize],
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    forward_rows_portable(net, n, observations, to_play, logits, values, scratch);
}

/// The rows of [`Net::forward_all`] for any CPU, inlined as [`evaluate_rows_portable`] is.
#[inline(always)]
fn forward_rows_portable(
    net: &Net,
    n: usize,
    observations: &[f32],
    to_play: &[usize],
    logits: &mut [f32],
    values: &mut [f32],
    scratch: &mut Scratch,
) {
    let shape = &net.shape;
    let (inputs, actions, players) = (shape.inputs, shape.actions, shape.players);
    let last = net.layers[net.layers.len() - 1].outputs;
    for row in 0..n {
        net.trunk_dense(
            &observations[row * inputs..(row + 1) * inputs],
            to_play[row],
            scratch,
        );
        let hidden = &scratch.front[..last];
        for (action, out) in logits[row * actions..(row + 1) * actions]
            .iter_mut()
            .enumerate()
        {
            *out = net.logit(hidden, action);
        }
        net.values(hidden, &mut values[row * players..(row + 1) * players]);
    }
}

/// `out += x * row`.
#[inline(always)]
fn axpy(out: &mut [f32], x: f32, row: &[f32]) {
    for (o, &w) in out.iter_mut().zip(row) {
        *o += x * w;
    }
}

/// `out += x * row i` for every `(i, x)` of `terms`, row `i` being `rows[i * width..][..width]`:
/// a block of `out` at a time, kept in registers while every term's row is added to it (an
/// `axpy` per term would load and store the whole of `out` each time). Each entry adds the
/// terms in order, as a loop of `axpy`s would. A block is 32 floats, eight vectors of four
/// or four of eight with AVX2: several sums under way at once, each add not waiting on one.
#[inline(always)]
fn accumulate(out: &mut [f32], rows: &[f32], width: usize, terms: &[Cell]) {
    const BLOCK: usize = 32;
    let blocks = out.len() / BLOCK * BLOCK;
    for start in (0..blocks).step_by(BLOCK) {
        let mut sum = [0.0f32; BLOCK];
        sum.copy_from_slice(&out[start..start + BLOCK]);
        for &(i, x) in terms {
            let at = i as usize * width + start;
            let row = &rows[at..at + BLOCK];
            for (s, &w) in sum.iter_mut().zip(row) {
                *s += x * w;
            }
        }
        out[start..start + BLOCK].copy_from_slice(&sum);
    }
    if blocks < out.len() {
        for &(i, x) in terms {
            let at = i as usize * width;
            axpy(&mut out[blocks..], x, &rows[at + blocks..at + width]);
        }
    }
}

#[inline(always)]
fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// The dot product of two slices of equal length, summed in eight lanes so that the
/// compiler can keep them in vector registers (a single running sum cannot be reordered).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [0.0f32; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (a_rest, b_rest) = (a_chunks.remainder(), b_chunks.remainder());
    for (x, y) in a_chunks.zip(b_chunks) {
        for k in 0..LANES {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut sum: f32 = lanes.iter().sum();
    for (x, y) in a_rest.iter().zip(b_rest) {
        sum += x * y;
    }
    sum
}

/// A [`Net`] as the evaluator of the engine's batched searches: the net shared, the scratch
/// space its own, so that each thread of a search split over threads evaluates with a clone.
#[derive(Debug, Clone)]
pub struct NetEvaluator {
    net: Arc<Net>,
    scratch: Scratch,
}

impl NetEvaluator {
    #[must_use]
    pub fn new(net: Arc<Net>) -> Self {
        NetEvaluator {
            net,
            scratch: Scratch::new(),
        }
    }

    #[must_use]
    pub fn net(&self) -> &Net {
        &self.net
    }
}

impl LeafEvaluator for NetEvaluator {
    /// The net reads the non-zero cells of the observations and the listed actions.
    fn input(&self) -> LeafInput {
        LeafInput::Cells
    }

    fn evaluate(
        &mut self,
        leaves: &mut LeafBatch<'_>,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<ValueLayout, Error> {
        let shape = self.net.shape();
        let inputs: usize = leaves.observation_shape.iter().product();
        if (inputs, leaves.num_actions, leaves.num_players)
            != (shape.inputs, shape.actions, shape.players)
        {
            return Err(Error::Evaluator(format!(
                "the net is for {} inputs, {} actions and {} players, and the search has {inputs}, \
                 {} and {}",
                shape.inputs, shape.actions, shape.players, leaves.num_actions, leaves.num_players
            )));
        }
        let batch = Leaves {
            len: leaves.len,
            observations: match leaves.cells {
                Some(cells) => LeafObservations::Cells(cells),
                None => LeafObservations::Dense(&leaves.observations),
            },
            legal: &leaves.legal,
            to_play: leaves.to_play,
            listed: Some((leaves.move_counts, leaves.first_actions)),
        };
        self.net
            .evaluate(&batch, logits, values, &mut self.scratch)?;
        Ok(ValueLayout::PerPlayer)
    }
}

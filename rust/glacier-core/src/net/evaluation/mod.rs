//! Evaluation nets: a small net that scores a position of a two-player game for alpha-beta,
//! its first layer updated incrementally as the search makes and unmakes moves (the design
//! of Stockfish's NNUE, on features every game already has).
//!
//! The features are the non-zero cells of the game's observation seen from each seat
//! ([`crate::game::Observation::observation_cells`] of seat 0 and of seat 1, always both,
//! whoever is to move). The first layer, the *feature transformer*, is shared by the two
//! views: `acc[s] = feature.bias + sum over the cells of seat s's view of value * row`, a
//! row of `feature.weight` per input (a plane holding one value everywhere counts as that
//! value in each of its cells, added as one precomputed row). Then
//!
//! ```text
//! h = [relu(acc[mover]), relu(acc[other])]            (2 * features)
//! h = relu(dense{i}.weight^T h + dense{i}.bias)       for each hidden layer
//! score = tanh(value.weight^T h + value.bias)          for the player to move, in (-1, 1)
//! ```
//!
//! A net may instead correct the game's heuristic ([`Base::Heuristic`]): with `z` the value
//! layer's output before its `tanh` and `b` the heuristic's value for the mover,
//! `score = tanh(z + atanh(clamp(b, -BASE_CLAMP, BASE_CLAMP)))`, so that a net of zero
//! value weights scores as the heuristic does, and learns what the heuristic misses.
//!
//! A child differs from its parent in a few cells of each view (a piece moved, a clock
//! ticked), so the search keeps an accumulator per ply ([`incremental::NetScore`]) and
//! makes a child's from its parent's by adding the rows of the cells that changed: the
//! cells of both lists are in index order, and one merge finds the changes. Unmaking a
//! move is returning to the parent's ply, whose accumulator is still there.
//!
//! The weights live in one flat buffer, in the order [`EvalShape::tensors`] lists them
//! (the order and shapes of a saved net's tensors). Nothing allocates per node.

pub mod games;
pub mod incremental;
#[cfg(test)]
mod tests;

use super::{
    accumulate, axpy, check_weights, dot, plane_sums, relu, Layer, Layout, MAX_LAYERS, MAX_WIDTH,
};
use crate::game::{plane_size, Cell, Observation};
use crate::search::{heuristic_of_mover, Heuristic};
use crate::Error;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
use multiversion::multiversion;

pub use super::TensorSpec;

/// What an evaluation net's output is added to, before its `tanh` (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Base {
    /// Nothing: the net's score is its own.
    #[default]
    None,
    /// The game's heuristic: the net learns a correction of it.
    Heuristic,
}

impl Base {
    /// The name a net file gives it: `none` or `heuristic`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Base::None => "none",
            Base::Heuristic => "heuristic",
        }
    }

    /// The base named `name` (as [`Base::name`] writes it).
    pub fn named(name: &str) -> Result<Self, Error> {
        match name {
            "none" => Ok(Base::None),
            "heuristic" => Ok(Base::Heuristic),
            other => Err(Error::InvalidParameter(format!(
                "an evaluation net's base is 'none' or 'heuristic', not {other:?}"
            ))),
        }
    }
}

/// How close to +-1 a heuristic value is taken before its `atanh` (which is infinite at
/// +-1): a sure result of the heuristic still leaves the net a finite correction.
pub const BASE_CLAMP: f32 = 0.999;

/// The value `b` of the base (for the player to move) as the logit it adds.
#[inline]
#[must_use]
pub fn base_logit(b: f32) -> f32 {
    b.clamp(-BASE_CLAMP, BASE_CLAMP).atanh()
}

/// The sizes of an evaluation net's layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalShape {
    /// The length of a flat observation of the game.
    pub inputs: usize,
    /// The length of one plane of the observation (`inputs` for a flat one).
    pub plane: usize,
    /// The width of the feature transformer (each view's accumulator).
    pub features: usize,
    /// The widths of the hidden layers after it, first to last (may be none).
    pub hidden: Vec<usize>,
}

impl EvalShape {
    /// Checks the sizes: inputs in whole planes, a feature transformer and hidden layers
    /// neither empty nor wider than [`MAX_WIDTH`], at most [`MAX_LAYERS`] hidden layers.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        if self.inputs == 0 || self.plane == 0 || self.inputs % self.plane != 0 {
            return bad(format!(
                "an evaluation net needs inputs in whole planes, got {} inputs in planes of {}",
                self.inputs, self.plane
            ));
        }
        if self.hidden.len() > MAX_LAYERS {
            return bad(format!(
                "an evaluation net has at most {MAX_LAYERS} hidden layers, got {}",
                self.hidden.len()
            ));
        }
        let widths = std::iter::once(&self.features).chain(&self.hidden);
        if let Some(&w) = widths.clone().find(|&&w| w == 0 || w > MAX_WIDTH) {
            return bad(format!(
                "a layer of an evaluation net is 1 to {MAX_WIDTH} units wide, got {w}"
            ));
        }
        Ok(())
    }

    /// The tensors of the flat buffer, in order: `feature.weight` `[inputs, features]` (a
    /// row per input) and `feature.bias` `[features]`; for each hidden layer `i`,
    /// `dense{i}.weight` `[in, out]` (`dense0`'s `in` is `2 * features`: the mover's view
    /// first) and `dense{i}.bias` `[out]`; then `value.weight` `[last, 1]` and `value.bias`
    /// `[1]`.
    #[must_use]
    pub fn tensors(&self) -> Vec<TensorSpec> {
        let spec = |name: String, shape: Vec<usize>| TensorSpec { name, shape };
        let mut out = vec![
            spec("feature.weight".into(), vec![self.inputs, self.features]),
            spec("feature.bias".into(), vec![self.features]),
        ];
        let mut width = 2 * self.features;
        for (i, &h) in self.hidden.iter().enumerate() {
            out.push(spec(format!("dense{i}.weight"), vec![width, h]));
            out.push(spec(format!("dense{i}.bias"), vec![h]));
            width = h;
        }
        out.push(spec("value.weight".into(), vec![width, 1]));
        out.push(spec("value.bias".into(), vec![1]));
        out
    }

    /// The number of weights (the flat buffer's length).
    #[must_use]
    pub fn num_weights(&self) -> usize {
        self.tensors().iter().map(TensorSpec::len).sum()
    }

    /// The number of planes of the observation.
    #[must_use]
    pub fn planes(&self) -> usize {
        self.inputs / self.plane
    }
}

/// An evaluation net with its weights (see the module docs).
#[derive(Debug, Clone)]
pub struct EvalNet {
    shape: EvalShape,
    weights: Vec<f32>,
    feature: Layer,
    /// For each plane, the sum of the feature rows of its cells (`[planes, features]`).
    plane_rows: Vec<f32>,
    layers: Vec<Layer>,
    value: Layer,
    base: Base,
}

/// One view's input: the non-zero cells of an observation and its uniform planes, as
/// [`crate::game::Observation::observation_cells`] lists them.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    pub cells: &'a [Cell],
    pub planes: &'a [Cell],
}

/// The activations of the layers after the feature transformer, reused from call to call.
#[derive(Debug, Clone, Default)]
pub struct HeadScratch {
    front: Vec<f32>,
    back: Vec<f32>,
    /// A bit per non-zero input of a layer.
    masks: Vec<u32>,
}

impl HeadScratch {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn fit(&mut self, net: &EvalNet) {
        let width = net
            .shape
            .hidden
            .iter()
            .copied()
            .chain([2 * net.shape.features])
            .max()
            .unwrap_or(0);
        if self.front.len() < width {
            self.front.resize(width, 0.0);
            self.back.resize(width, 0.0);
            self.masks.reserve(width.div_ceil(32));
        }
    }
}

impl EvalNet {
    /// An evaluation net of `shape` with `weights` laid out as [`EvalShape::tensors`] lists
    /// them. Refuses a bad shape, a buffer of the wrong length and any weight that is not
    /// finite.
    pub fn new(shape: EvalShape, weights: Vec<f32>) -> Result<Self, Error> {
        shape.check()?;
        check_weights(&weights, shape.num_weights(), "evaluation net")?;
        let mut layout = Layout::default();
        let feature = layout.take(shape.inputs, shape.features);
        let mut layers = Vec::with_capacity(shape.hidden.len());
        let mut width = 2 * shape.features;
        for &h in &shape.hidden {
            layers.push(layout.take(width, h));
            width = h;
        }
        let value = layout.take(width, 1);
        let plane_rows = plane_sums(
            &weights[feature.weight..feature.bias],
            shape.plane,
            shape.features,
        );
        Ok(EvalNet {
            shape,
            weights,
            feature,
            plane_rows,
            layers,
            value,
            base: Base::None,
        })
    }

    /// The same net, its output added to `base` (see the module docs).
    #[must_use]
    pub fn with_base(mut self, base: Base) -> Self {
        self.base = base;
        self
    }

    /// What the net's output is added to.
    #[must_use]
    pub fn base(&self) -> Base {
        self.base
    }

    /// The base's value of `state` (not over) for its player to move: what [`EvalNet::score`]
    /// takes as `base`.
    #[inline]
    pub fn base_value<G: Heuristic>(&self, state: &G) -> f32 {
        match self.base {
            Base::None => 0.0,
            Base::Heuristic => heuristic_of_mover(state),
        }
    }

    #[must_use]
    pub fn shape(&self) -> &EvalShape {
        &self.shape
    }

    /// The flat weight buffer.
    #[must_use]
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Whether every cell and plane of `view` lies within the net's inputs.
    #[must_use]
    pub fn fits(&self, view: View<'_>) -> bool {
        let (inputs, planes) = (self.shape.inputs as u32, self.shape.planes() as u32);
        view.cells.iter().all(|&(c, _)| c < inputs) && view.planes.iter().all(|&(p, _)| p < planes)
    }

    /// Writes one view's accumulator afresh into `acc` (`features` long).
    pub fn refresh(&self, view: View<'_>, acc: &mut [f32]) {
        refresh_view(self, view, acc);
    }

    /// Adds `cells` (as `(input, change)`) and `planes` (as `(plane, change)`) to one view's
    /// accumulator `acc`.
    pub fn update(&self, cells: &[Cell], planes: &[Cell], acc: &mut [f32]) {
        update_view(self, cells, planes, acc);
    }

    /// The score for the player to move from the accumulators of its view and of the
    /// other's, in (-1, 1); `base` is the base's value for the mover (ignored by a net of
    /// no base).
    pub fn score(&self, mover: &[f32], other: &[f32], base: f32, scratch: &mut HeadScratch) -> f32 {
        scratch.fit(self);
        let logit = head(self, mover, other, scratch);
        match self.base {
            Base::None => tanh(logit),
            Base::Heuristic => tanh(logit + base_logit(base)),
        }
    }

    /// The whole forward pass of one position: the two views (the mover's first) afresh.
    pub fn evaluate(
        &self,
        mover: View<'_>,
        other: View<'_>,
        base: f32,
        scratch: &mut HeadScratch,
    ) -> Result<f32, Error> {
        if !(self.fits(mover) && self.fits(other)) {
            return Err(Error::InvalidParameter(
                "the evaluation net was given observation cells past its inputs".into(),
            ));
        }
        let width = self.shape.features;
        let mut accs = vec![0.0; 2 * width];
        let (a, b) = accs.split_at_mut(width);
        self.refresh(mover, a);
        self.refresh(other, b);
        Ok(self.score(a, b, base, scratch))
    }

    /// The score of `state` (a position of a two-player game, not over) for its player to
    /// move, both views listed and computed afresh (what [`incremental::NetScore`] must
    /// equal). Refuses a net for other observations, a game of other than two players and a
    /// position that is over.
    pub fn score_position<G: Observation + Heuristic>(&self, state: &G) -> Result<f32, Error> {
        if (self.shape.inputs, self.shape.plane)
            != (
                G::OBSERVATION_SHAPE.iter().product(),
                plane_size(G::OBSERVATION_SHAPE),
            )
        {
            return Err(Error::InvalidParameter(format!(
                "the evaluation net was not made for {} observations",
                G::NAME
            )));
        }
        if state.num_players() != 2 || state.is_terminal() {
            return Err(Error::InvalidParameter(
                "an evaluation net scores positions of two-player games that are not over".into(),
            ));
        }
        let mut views: [(Vec<Cell>, Vec<Cell>); 2] = Default::default();
        let mut dense = Vec::new();
        for (seat, (cells, planes)) in views.iter_mut().enumerate() {
            state.observation_cells(&[], seat, &mut dense, cells, planes);
        }
        let mover = state.current_player();
        let view = |side: usize| View {
            cells: &views[side].0,
            planes: &views[side].1,
        };
        let base = self.base_value(state);
        self.evaluate(view(mover), view(1 - mover), base, &mut HeadScratch::new())
    }

    #[inline(always)]
    fn feature_rows(&self) -> &[f32] {
        &self.weights[self.feature.weight..self.feature.bias]
    }
}

/// [`EvalNet::refresh`]; compiled twice as the policy-value net's passes are (for the
/// build's target and for AVX2, the same operations in the same order).
#[cfg_attr(
    all(target_arch = "x86_64", feature = "avx2"),
    multiversion(targets("x86_64+avx2"))
)]
fn refresh_view<'a>(net: &EvalNet, view: View<'a>, acc: &mut [f32]) {
    let feature = net.feature;
    acc.copy_from_slice(&net.weights[feature.bias..feature.bias + feature.outputs]);
    accumulate(acc, net.feature_rows(), feature.outputs, view.cells);
    accumulate(acc, &net.plane_rows, feature.outputs, view.planes);
}

#[cfg_attr(
    all(target_arch = "x86_64", feature = "avx2"),
    multiversion(targets("x86_64+avx2"))
)]
fn update_view(net: &EvalNet, cells: &[Cell], planes: &[Cell], acc: &mut [f32]) {
    let width = net.feature.outputs;
    accumulate(acc, net.feature_rows(), width, cells);
    accumulate(acc, &net.plane_rows, width, planes);
}

/// The layers after the feature transformer, each adding the rows of its non-zero inputs
/// (ReLU leaves about half of them at zero), to the value layer's output before its `tanh`.
#[cfg_attr(
    all(target_arch = "x86_64", feature = "avx2"),
    multiversion(targets("x86_64+avx2"))
)]
fn head(net: &EvalNet, mover: &[f32], other: &[f32], scratch: &mut HeadScratch) -> f32 {
    let width = net.shape.features;
    let HeadScratch { front, back, masks } = scratch;
    let input = &mut front[..2 * width];
    input[..width].copy_from_slice(mover);
    input[width..].copy_from_slice(other);
    relu(input);
    let mut len = 2 * width;
    for layer in &net.layers {
        let out = &mut back[..layer.outputs];
        out.copy_from_slice(&net.weights[layer.bias..layer.bias + layer.outputs]);
        let rows = &net.weights[layer.weight..layer.bias];
        accumulate_nonzero(out, rows, &front[..len], masks);
        relu(out);
        std::mem::swap(front, back);
        len = layer.outputs;
    }
    let value = net.value;
    let row = &net.weights[value.weight..value.bias];
    net.weights[value.bias] + dot(&front[..len], row)
}

/// `tanh` through one `exp`: `f32::tanh` (by `expm1`) took a tenth of a search's time. Off
/// by at most a few units of the last place near zero, where the subtraction cancels.
#[inline(always)]
fn tanh(x: f32) -> f32 {
    let x = x.clamp(-20.0, 20.0);
    1.0 - 2.0 / ((2.0 * x).exp() + 1.0)
}

/// `out += x * row i` for every non-zero `x = input[i]`, row `i` being `rows[i * width..]
/// [..width]` (`width = out.len()`), the rows added in input order: as [`accumulate`] on
/// the list of non-zero inputs, found here a bit per input, 32 inputs to a word (a branch
/// per input would be mispredicted, and a list written entry by entry costs more than the
/// sums), a block of `out` kept in registers while the rows are added to it.
#[inline(always)]
fn accumulate_nonzero(out: &mut [f32], rows: &[f32], input: &[f32], masks: &mut Vec<u32>) {
    const BLOCK: usize = 32;
    let width = out.len();
    masks.clear();
    masks.extend(input.chunks(32).map(|chunk| {
        chunk
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, &x)| bits | (u32::from(x != 0.0) << i))
    }));
    let blocks = width / BLOCK * BLOCK;
    for start in (0..blocks).step_by(BLOCK) {
        let mut sum = [0.0f32; BLOCK];
        sum.copy_from_slice(&out[start..start + BLOCK]);
        for (k, &mask) in masks.iter().enumerate() {
            let mut bits = mask;
            while bits != 0 {
                let i = k * 32 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (x, at) = (input[i], i * width + start);
                for (s, &w) in sum.iter_mut().zip(&rows[at..at + BLOCK]) {
                    *s += x * w;
                }
            }
        }
        out[start..start + BLOCK].copy_from_slice(&sum);
    }
    if blocks < width {
        for (k, &mask) in masks.iter().enumerate() {
            let mut bits = mask;
            while bits != 0 {
                let i = k * 32 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let at = i * width;
                axpy(&mut out[blocks..], input[i], &rows[at + blocks..at + width]);
            }
        }
    }
}

/// The changes from `old` to `new` (two lists of `(index, value)` in index order) as
/// `(index, new - old)` for each index whose value differs, appended to `changes`. A child's
/// list is mostly its parent's: runs of equal entries are skipped a block at a time (a few
/// vector compares), and the entries between them merged one by one.
#[inline]
pub fn diff_cells(old: &[Cell], new: &[Cell], changes: &mut Vec<Cell>) {
    const RUN: usize = 8;
    let same = |a: &[Cell], b: &[Cell]| {
        a.iter().zip(b).fold(true, |same, (&(i, x), &(j, y))| {
            same & (i == j) & (x.to_bits() == y.to_bits())
        })
    };
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        while i + RUN <= old.len()
            && j + RUN <= new.len()
            && same(&old[i..i + RUN], &new[j..j + RUN])
        {
            i += RUN;
            j += RUN;
        }
        let (Some(&(a, x)), Some(&(b, y))) = (old.get(i), new.get(j)) else {
            break;
        };
        if a == b {
            if x != y {
                changes.push((a, y - x));
            }
            i += 1;
            j += 1;
        } else if a < b {
            changes.push((a, -x));
            i += 1;
        } else {
            changes.push((b, y));
            j += 1;
        }
    }
    changes.extend(old[i..].iter().map(|&(a, x)| (a, -x)));
    changes.extend_from_slice(&new[j..]);
}

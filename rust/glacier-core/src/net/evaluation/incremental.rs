//! An evaluation net as alpha-beta's static score, its accumulators kept per ply.
//!
//! Each ply of the search has a frame: both views' cells and accumulators of the node at
//! that ply. A frame is made only when its node is scored or expanded (a node answered by
//! the transposition table, or cut off before, makes none), from its parent's frame, which
//! is ready by then: its parent was expanded. Unmaking a move is going back to the parent's
//! ply, whose frame is untouched. The root's frame is made afresh.

use super::{diff_cells, EvalNet, HeadScratch, View};
use crate::game::{Cell, Observation};
use crate::search::alphabeta::Evaluation;
use crate::search::Heuristic;
use crate::Error;
use std::marker::PhantomData;
use std::sync::Arc;

/// One view of one node: its accumulator, and its cells and uniform planes when they were
/// listed (at the root, and in a game that cannot tell what a move changed).
#[derive(Debug, Clone, Default)]
struct Side {
    acc: Vec<f32>,
    cells: Vec<Cell>,
    planes: Vec<Cell>,
}

/// Both views of one node (seat 0's first), and the node itself, which its children's
/// changes are found against.
#[derive(Debug, Clone)]
struct Frame<G> {
    sides: [Side; 2],
    state: Option<G>,
    listed: bool,
    ready: bool,
}

/// An [`EvalNet`] scoring the positions of one alpha-beta search of game `G`, incrementally.
#[derive(Debug, Clone)]
pub struct NetScore<G> {
    net: Arc<EvalNet>,
    frames: Vec<Frame<G>>,
    /// Scratch space: a whole observation (for games that list their cells from it) and
    /// the changes between a parent's view and its child's.
    dense: Vec<f32>,
    cell_changes: Vec<Cell>,
    plane_changes: Vec<Cell>,
    head: HeadScratch,
    game: PhantomData<fn() -> G>,
}

impl<G: Observation + Heuristic> NetScore<G> {
    /// The net as the score of `G`'s positions; refuses a net made for other observations.
    pub fn new(net: Arc<EvalNet>) -> Result<Self, Error> {
        let shape = G::OBSERVATION_SHAPE;
        let inputs: usize = shape.iter().product();
        let plane = crate::game::plane_size(shape);
        let own = net.shape();
        if (own.inputs, own.plane) != (inputs, plane) {
            return Err(Error::InvalidParameter(format!(
                "the evaluation net takes {} inputs in planes of {}; {} observations have {inputs} \
                 in planes of {plane}",
                own.inputs,
                own.plane,
                G::NAME
            )));
        }
        Ok(NetScore {
            net,
            frames: Vec::new(),
            dense: Vec::new(),
            cell_changes: Vec::new(),
            plane_changes: Vec::new(),
            head: HeadScratch::new(),
            game: PhantomData,
        })
    }

    #[must_use]
    pub fn net(&self) -> &Arc<EvalNet> {
        &self.net
    }

    fn frame(&mut self, ply: usize) -> &mut Frame<G> {
        if self.frames.len() <= ply {
            let width = self.net.shape().features;
            self.frames.resize_with(ply + 1, || Frame {
                sides: std::array::from_fn(|_| Side {
                    acc: vec![0.0; width],
                    ..Side::default()
                }),
                state: None,
                listed: false,
                ready: false,
            });
        }
        &mut self.frames[ply]
    }

    /// Makes the frame of `ply` for `state`: from its parent's, by the changes the game
    /// tells or else by listing both views and comparing; afresh at the root.
    fn ensure(&mut self, ply: usize, state: &G) {
        if self.frame(ply).ready {
            return;
        }
        let (before, rest) = self.frames.split_at_mut(ply);
        let frame = &mut rest[0];
        let parent = before.last().filter(|p| p.ready);
        let (changes, plane_changes) = (&mut self.cell_changes, &mut self.plane_changes);
        let mut listed = false;
        for (seat, side) in frame.sides.iter_mut().enumerate() {
            let old = parent.map(|p| (&p.sides[seat], p));
            changes.clear();
            plane_changes.clear();
            let told = old.is_some_and(|(_, p)| {
                p.state
                    .as_ref()
                    .is_some_and(|was| state.observation_changes(was, seat, changes, plane_changes))
            });
            if let (true, Some((old, _))) = (told, old) {
                side.acc.copy_from_slice(&old.acc);
                self.net.update(changes, plane_changes, &mut side.acc);
                continue;
            }
            side.cells.clear();
            side.planes.clear();
            state.observation_cells(
                &[],
                seat,
                &mut self.dense,
                &mut side.cells,
                &mut side.planes,
            );
            listed = true;
            match old.filter(|(_, p)| p.listed) {
                Some((old, _)) => {
                    diff_cells(&old.cells, &side.cells, changes);
                    diff_cells(&old.planes, &side.planes, plane_changes);
                    side.acc.copy_from_slice(&old.acc);
                    self.net.update(changes, plane_changes, &mut side.acc);
                }
                None => {
                    let view = View {
                        cells: &side.cells,
                        planes: &side.planes,
                    };
                    self.net.refresh(view, &mut side.acc);
                }
            }
        }
        match &mut frame.state {
            Some(kept) => kept.clone_from(state),
            None => frame.state = Some(state.clone()),
        }
        frame.listed = listed;
        frame.ready = true;
    }

    /// The score of `state` computed afresh (no frame used): what the incremental score
    /// must equal, for the tests.
    pub fn score_afresh(&mut self, state: &G) -> f32 {
        self.net
            .score_position(state)
            .expect("a game's cells fit a net made for its observations")
    }
}

impl<G: Observation + Heuristic> Evaluation<G> for NetScore<G> {
    fn start(&mut self, _root: &G) {
        self.frame(0).ready = false;
    }

    #[inline]
    fn enter(&mut self, ply: usize) {
        self.frame(ply).ready = false;
    }

    #[inline]
    fn expand(&mut self, ply: usize, state: &G) {
        self.ensure(ply, state);
    }

    #[inline]
    fn score(&mut self, ply: usize, state: &G) -> f32 {
        self.ensure(ply, state);
        let mover = state.current_player().min(1);
        let [a, b] = &self.frames[ply].sides;
        let (mine, other) = if mover == 0 { (a, b) } else { (b, a) };
        let base = self.net.base_value(state);
        self.net.score(&mine.acc, &other.acc, base, &mut self.head)
    }
}

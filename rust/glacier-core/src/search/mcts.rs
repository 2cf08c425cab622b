//! Monte Carlo tree search for 2 to 6 players.
//!
//! The tree is two arenas: nodes (a state, its visit count, the sum of every player's
//! value over the simulations through it) and edges (a move, its prior, its child). A node
//! is made when its edge is first followed, and expanded (its edges made, one per legal
//! move) when it is evaluated. Each node backs up the whole value vector, and a node's
//! mover picks the child best for *itself*, so any number of players works the same way.
//!
//! Selection is PUCT (`Q + c P sqrt(N) / (1 + n)`, an unvisited child valued as its
//! parent) when the evaluator gives priors, or UCT (`Q + c sqrt(ln N / n)`, every child
//! tried once first, in a shuffled order) when every move has the same prior. A
//! simulation in flight counts as a loss on every node of its path (virtual loss), so
//! other descents, threads or batch entries spread out; it is taken back at the backup.
//!
//! The searches:
//! - [`search`]: one tree on one thread, with an evaluation of the engine's own.
//! - [`search_shared`]: one tree shared by several threads under a lock (tree-parallel);
//!   the evaluation, the costly part, runs outside the lock.
//! - [`search_forest`]: several trees searched apart and merged at the root
//!   (root-parallel).
//! - [`BatchSearch`]: many trees whose leaves are gathered together and handed to an
//!   outside evaluator (a neural network, say) in one batch.

use super::evaluate::LeafEvaluation;
use super::{terminal_values, Budget, Heuristic, Values, MAX_PLAYERS};
use crate::rng::SplitMix64;
use crate::{Error, Game};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// No child yet.
const NONE: u32 = u32::MAX;

/// How a node picks the child to descend into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// `Q + c * P * sqrt(N) / (1 + n)`, for evaluators that give priors.
    Puct,
    /// `Q + c * sqrt(ln N / n)`, every child tried once first, for uniform priors.
    Uct,
}

/// The settings of a search (the budget aside).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    pub selection: Selection,
    /// The exploration constant `c` of the selection rule.
    pub exploration: f32,
    /// The concentration of the Dirichlet noise mixed into the root's priors.
    pub dirichlet_alpha: f32,
    /// How much noise is mixed in: the root's priors become `(1 - f) P + f * noise`; 0 for
    /// none.
    pub dirichlet_fraction: f32,
    /// The loss each simulation in flight counts for on its path (for its mover at each
    /// node): 1 counts it as one lost game.
    pub virtual_loss: f32,
    /// The priors the engine's own evaluations give a leaf's moves: `None`, every move
    /// alike; `Some(t)`, a softmax over the game's [`Heuristic::prior_scores`] of each
    /// move divided by `t` (in E, the movements of work a move saves its player), so
    /// that PUCT looks first at the moves the game rates promising. An outside evaluator
    /// gives its own priors and this is not used.
    pub move_priors: Option<f32>,
    /// The weight `w` of the game's heuristic in a leaf's value: every player's value of a
    /// leaf is `(1 - w) * evaluation + w * heuristic`, as AlphaGo mixed its value net with
    /// rollouts; 0 for the evaluation alone. Where the evaluation rates many positions
    /// alike, the heuristic (material, the race) tells them apart.
    pub heuristic_mix: f32,
    /// The weight `r` of a rollout in a leaf's value: with the heuristic's weight `w`, every
    /// player's value is `(1 - w - r) * evaluation + w * heuristic + r * rollout`, the
    /// rollout played as `mixed_rollout` says. AlphaGo's mix of its value net with rollouts;
    /// at 1 an outside evaluator gives the priors alone.
    pub rollout_mix: f32,
    /// The rollout `rollout_mix` weighs in (one of the rollout evaluations).
    pub mixed_rollout: LeafEvaluation,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            selection: Selection::Uct,
            exploration: 1.4,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.0,
            virtual_loss: 1.0,
            move_priors: None,
            heuristic_mix: 0.0,
            rollout_mix: 0.0,
            mixed_rollout: LeafEvaluation::Rollout { plies: None },
        }
    }
}

impl MctsConfig {
    /// Whether a leaf's value mixes in the heuristic or a rollout (`heuristic_mix`, `rollout_mix`).
    pub fn mixes_leaves(&self) -> bool {
        self.heuristic_mix > 0.0 || self.rollout_mix > 0.0
    }

    /// Checks the settings; the error says which is wrong.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |what: &str| Err(Error::InvalidParameter(what.to_string()));
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return bad("the exploration constant c_puct must be a finite number >= 0");
        }
        if !(self.dirichlet_fraction.is_finite() && (0.0..=1.0).contains(&self.dirichlet_fraction))
        {
            return bad("dirichlet_fraction must be between 0 and 1");
        }
        if self.dirichlet_fraction > 0.0
            && !(self.dirichlet_alpha.is_finite() && self.dirichlet_alpha > 0.0)
        {
            return bad("dirichlet_alpha must be a finite number > 0");
        }
        if !(self.virtual_loss.is_finite() && self.virtual_loss >= 0.0) {
            return bad("virtual_loss must be a finite number >= 0");
        }
        if self
            .move_priors
            .is_some_and(|t| !(t.is_finite() && t > 0.0))
        {
            return bad("prior_temperature must be a finite number > 0");
        }
        if !(0.0..=1.0).contains(&self.heuristic_mix) {
            return bad("heuristic_mix must be between 0 and 1");
        }
        if !(0.0..=1.0).contains(&self.rollout_mix) {
            return bad("rollout_mix must be between 0 and 1");
        }
        if self.heuristic_mix + self.rollout_mix > 1.0 {
            return bad("heuristic_mix and rollout_mix must add up to at most 1");
        }
        if matches!(self.mixed_rollout, LeafEvaluation::Heuristic) {
            return bad("the rollout mixed in must be a rollout, not the heuristic");
        }
        Ok(())
    }
}

/// A move of a node, with what a descent weighs of its child: the child's visits,
/// simulations in flight and value sum for the node's mover, kept here as well as in the
/// child, so that a descent reads one node's edges one after another instead of every
/// child wherever it lies.
#[derive(Debug, Clone, Copy)]
struct Edge<M> {
    mv: M,
    prior: f32,
    child: u32,
    visits: u32,
    in_flight: u32,
    /// The child's value sum for the mover of the node the edge leaves.
    value_sum: f64,
    /// The child is a finished game won by that mover.
    won: bool,
}

impl<M> Edge<M> {
    fn new(mv: M, prior: f32) -> Self {
        Edge {
            mv,
            prior,
            child: NONE,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            won: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    /// Made, not evaluated yet.
    New,
    /// Handed out for evaluation (by another thread or in a batch).
    Pending,
    Expanded,
    /// The game is over here: these are its returns.
    Terminal(Values),
}

/// A node's statistics, apart from its state (kept in [`Tree::states`] at the same index):
/// a descent reads those of every child it weighs, and they sit closer together alone.
#[derive(Debug, Clone)]
struct Node {
    /// The edge into the node ([`NONE`] at the root).
    in_edge: u32,
    first_edge: u32,
    num_edges: u32,
    visits: u32,
    in_flight: u32,
    value_sum: [f64; MAX_PLAYERS],
    mover: u8,
    status: Status,
}

impl Node {
    fn new(mover: usize, in_edge: u32) -> Self {
        Node {
            in_edge,
            first_edge: 0,
            num_edges: 0,
            visits: 0,
            in_flight: 0,
            value_sum: [0.0; MAX_PLAYERS],
            mover: mover as u8,
            status: Status::New,
        }
    }

    /// The mean value for `player` (0 before the first visit).
    fn mean(&self, player: usize) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum[player] / f64::from(self.visits)
        }
    }
}

/// Where a descent ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leaf {
    /// A node to evaluate (now pending): its index, for [`Tree::state`] and [`Tree::expand`].
    Evaluate(u32),
    /// A finished game: back these values up with [`Tree::backup`].
    Terminal(Values),
    /// A node already being evaluated elsewhere; the descent was taken back.
    Collision,
}

/// What a search found at the root, per move.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    pub prior: f32,
    /// The mean value of the move for every player (0 if never visited).
    pub values: Values,
}

/// What a search found at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct RootStats<M> {
    pub moves: Vec<MoveStats<M>>,
    /// The mean value of the root for every player.
    pub values: Values,
    /// The visits of the root (one per simulation, those of earlier searches kept by tree
    /// reuse included).
    pub visits: u64,
}

/// A search tree of one game.
#[derive(Debug, Clone)]
pub struct Tree<G: Game> {
    nodes: Vec<Node>,
    /// The state of each node.
    states: Vec<G>,
    edges: Vec<Edge<G::Move>>,
    num_players: usize,
    /// The root's priors with noise mixed in (used at the root instead of the priors).
    root_priors: Vec<f32>,
    /// Noise is still to be mixed into the root's priors (once it is expanded).
    noise_due: bool,
    /// The tree's own random stream: shuffles, noise, rollouts of a search on one thread.
    rng: SplitMix64,
}

impl<G: Game> Tree<G> {
    /// A tree holding only `root`, with its random stream seeded by `seed`.
    pub fn new(root: G, seed: u64) -> Result<Self, Error> {
        let num_players = root.num_players();
        if !(1..=MAX_PLAYERS).contains(&num_players) {
            return Err(Error::InvalidParameter(format!(
                "search supports at most {MAX_PLAYERS} players, not {num_players}"
            )));
        }
        Ok(Tree {
            nodes: vec![Node::new(root.current_player(), NONE)],
            states: vec![root],
            edges: Vec::new(),
            num_players,
            root_priors: Vec::new(),
            noise_due: true,
            rng: SplitMix64::new(seed),
        })
    }

    /// The root state.
    pub fn root(&self) -> &G {
        &self.states[0]
    }

    /// The state of node `index`.
    pub fn state(&self, index: u32) -> &G {
        &self.states[index as usize]
    }

    pub fn num_players(&self) -> usize {
        self.num_players
    }

    /// The number of nodes (a measure of the memory the tree holds).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Asks for fresh noise at the root before the next descent (each search does).
    pub fn renew_noise(&mut self) {
        self.noise_due = true;
        self.root_priors.clear();
    }

    fn edge_range(&self, node: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[node];
        n.first_edge as usize..(n.first_edge + n.num_edges) as usize
    }

    /// Mixes Dirichlet noise into the root's priors once it is expanded, if configured.
    fn mix_root_noise(&mut self, config: &MctsConfig) {
        if !self.noise_due || self.nodes[0].status != Status::Expanded {
            return;
        }
        self.noise_due = false;
        self.root_priors.clear();
        if config.dirichlet_fraction <= 0.0 {
            return;
        }
        let range = self.edge_range(0);
        let noise = dirichlet(&mut self.rng, config.dirichlet_alpha, range.len());
        let f = config.dirichlet_fraction;
        self.root_priors.extend(
            self.edges[range]
                .iter()
                .zip(noise)
                .map(|(e, n)| (1.0 - f) * e.prior + f * n),
        );
    }

    /// The index, among the edges of `node`, of the child to descend into. A child already
    /// found to be a finished game won by the node's mover is taken at once: no other move
    /// can be better, and without this a heuristic that already rates the node as nearly
    /// won (every child close to 1) would spread its visits evenly and miss the win.
    fn pick(&self, config: &MctsConfig, node: usize) -> usize {
        let parent = &self.nodes[node];
        let mover = parent.mover as usize;
        let range = self.edge_range(node);
        let vl = f64::from(config.virtual_loss);
        let parent_n = f64::from(parent.visits + parent.in_flight);
        let fpu = parent.mean(mover);
        let c = f64::from(config.exploration);
        let root_priors = (node == 0 && !self.root_priors.is_empty()).then_some(&self.root_priors);
        let (mut best, mut best_score) = (0, f64::NEG_INFINITY);
        match config.selection {
            Selection::Puct => {
                let scale = c * parent_n.max(1.0).sqrt();
                for (i, edge) in self.edges[range].iter().enumerate() {
                    let prior = f64::from(root_priors.map_or(edge.prior, |p| p[i]));
                    let (q, n) = child_q(edge, vl, fpu);
                    if edge.won {
                        return i;
                    }
                    let score = q + scale * prior / (1.0 + n);
                    if score > best_score {
                        (best, best_score) = (i, score);
                    }
                }
            }
            Selection::Uct => {
                let log_n = parent_n.max(1.0).ln();
                for (i, edge) in self.edges[range].iter().enumerate() {
                    let (q, n) = child_q(edge, vl, fpu);
                    if n == 0.0 || edge.won {
                        return i;
                    }
                    let score = q + c * (log_n / n).sqrt();
                    if score > best_score {
                        (best, best_score) = (i, score);
                    }
                }
            }
        }
        best
    }

    /// Descends from the root to a leaf, appending the nodes passed (root first) to `path`
    /// (cleared first), each with one more simulation in flight.
    pub fn select(&mut self, config: &MctsConfig, path: &mut Vec<u32>) -> Leaf {
        self.mix_root_noise(config);
        path.clear();
        let mut node = 0usize;
        loop {
            path.push(node as u32);
            self.nodes[node].in_flight += 1;
            if let Some(edge) = self.edges.get_mut(self.nodes[node].in_edge as usize) {
                edge.in_flight += 1;
            }
            match self.nodes[node].status {
                Status::New => {
                    self.nodes[node].status = Status::Pending;
                    return Leaf::Evaluate(node as u32);
                }
                Status::Pending => {
                    self.revert(path);
                    return Leaf::Collision;
                }
                Status::Terminal(values) => return Leaf::Terminal(values),
                Status::Expanded => {}
            }
            let edge = self.nodes[node].first_edge as usize + self.pick(config, node);
            let child = self.edges[edge].child;
            if child != NONE {
                node = child as usize;
                continue;
            }
            let mut state = self.states[node].clone();
            state.play_unchecked(self.edges[edge].mv);
            let index = self.nodes.len();
            self.nodes
                .push(Node::new(state.current_player(), edge as u32));
            self.states.push(state);
            self.edges[edge].child = index as u32;
            node = index;
        }
    }

    /// Takes back the simulation in flight on `path`.
    pub fn revert(&mut self, path: &[u32]) {
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.in_flight -= 1;
            if let Some(edge) = self.edges.get_mut(node.in_edge as usize) {
                edge.in_flight -= 1;
            }
        }
    }

    /// Adds `values` to every node of `path` and takes its simulation in flight back.
    pub fn backup(&mut self, path: &[u32], values: &Values) {
        let mut parent_mover = 0;
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.in_flight -= 1;
            for (sum, &v) in node.value_sum.iter_mut().zip(values).take(self.num_players) {
                *sum += f64::from(v);
            }
            if let Some(edge) = self.edges.get_mut(node.in_edge as usize) {
                edge.visits += 1;
                edge.in_flight -= 1;
                edge.value_sum += f64::from(values[parent_mover]);
            }
            parent_mover = node.mover as usize;
        }
    }

    /// Expands the pending leaf at the end of `path` with its legal moves and their priors
    /// (`None`: every move alike), then backs `values` up. A leaf without legal moves
    /// becomes a finished game and backs up its returns instead of `values`.
    pub fn expand(
        &mut self,
        path: &[u32],
        moves: &[G::Move],
        priors: Option<&[f32]>,
        values: &Values,
    ) {
        let Some(&leaf) = path.last() else {
            return;
        };
        let leaf = leaf as usize;
        if moves.is_empty() {
            let values = terminal_values(&self.states[leaf]);
            self.nodes[leaf].status = Status::Terminal(values);
            if let Some(&parent) = path.len().checked_sub(2).and_then(|i| path.get(i)) {
                let mover = self.nodes[parent as usize].mover as usize;
                if let Some(edge) = self.edges.get_mut(self.nodes[leaf].in_edge as usize) {
                    edge.won = values[mover] >= 1.0;
                }
            }
            self.backup(path, &values);
            return;
        }
        let first = self.edges.len();
        let uniform = 1.0 / moves.len() as f32;
        self.edges.extend(
            moves
                .iter()
                .enumerate()
                .map(|(i, &mv)| Edge::new(mv, priors.map_or(uniform, |p| p[i]))),
        );
        let node = &mut self.nodes[leaf];
        node.first_edge = first as u32;
        node.num_edges = moves.len() as u32;
        node.status = Status::Expanded;
        self.backup(path, values);
    }

    /// The tree's own random stream.
    pub fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }

    /// What the search found at the root.
    pub fn root_stats(&self) -> RootStats<G::Move> {
        let root = &self.nodes[0];
        let mut values = [0.0; MAX_PLAYERS];
        for (p, v) in values.iter_mut().enumerate().take(self.num_players) {
            *v = root.mean(p) as f32;
        }
        let moves = if root.status == Status::Expanded {
            self.edges[self.edge_range(0)]
                .iter()
                .map(|e| {
                    let mut values = [0.0; MAX_PLAYERS];
                    let mut visits = 0;
                    if e.child != NONE {
                        let child = &self.nodes[e.child as usize];
                        visits = u64::from(child.visits);
                        for (p, v) in values.iter_mut().enumerate().take(self.num_players) {
                            *v = child.mean(p) as f32;
                        }
                    }
                    MoveStats {
                        mv: e.mv,
                        visits,
                        prior: e.prior,
                        values,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        RootStats {
            moves,
            values,
            visits: u64::from(root.visits),
        }
    }

    /// Keeps only the subtree of the first node within `max_depth` plies of the root (the
    /// root itself included, breadth first) whose state `same` accepts, which becomes the
    /// new root. Returns whether one was found; the tree is unchanged if not.
    pub fn advance(&mut self, max_depth: usize, same: impl Fn(&G) -> bool) -> bool {
        let mut frontier = vec![0u32];
        let mut found = None;
        'search: for depth in 0..=max_depth {
            let mut next = Vec::new();
            for &n in &frontier {
                if same(&self.states[n as usize]) {
                    found = Some(n);
                    break 'search;
                }
                if depth < max_depth && self.nodes[n as usize].status == Status::Expanded {
                    next.extend(
                        self.edges[self.edge_range(n as usize)]
                            .iter()
                            .filter(|e| e.child != NONE)
                            .map(|e| e.child),
                    );
                }
            }
            frontier = next;
        }
        let Some(new_root) = found else {
            return false;
        };
        if new_root != 0 {
            self.keep_subtree(new_root);
        }
        self.renew_noise();
        true
    }

    /// Keeps only the subtree of the root's move `mv`, whose state (the root with `mv`
    /// played) becomes the new root: [`Tree::advance`] for a caller that knows the move
    /// played. Returns whether that move had a node; the tree is unchanged if not.
    pub fn descend(&mut self, mv: G::Move) -> bool {
        if self.nodes[0].status != Status::Expanded {
            return false;
        }
        let child = self.edges[self.edge_range(0)]
            .iter()
            .find(|e| e.mv == mv)
            .map_or(NONE, |e| e.child);
        if child == NONE {
            return false;
        }
        self.keep_subtree(child);
        self.renew_noise();
        true
    }

    /// Rebuilds the arenas with only the subtree below `root` (breadth first).
    fn keep_subtree(&mut self, root: u32) {
        let mut nodes = Vec::new();
        let mut states = Vec::new();
        let mut edges = Vec::new();
        let old = std::mem::take(&mut self.nodes);
        let mut queue = std::collections::VecDeque::from([(root, NONE)]);
        while let Some((index, in_edge)) = queue.pop_front() {
            let mut node = old[index as usize].clone();
            node.in_edge = in_edge;
            if node.status == Status::Expanded {
                let range = node.first_edge as usize..(node.first_edge + node.num_edges) as usize;
                node.first_edge = edges.len() as u32;
                for edge in &self.edges[range] {
                    let mut edge = *edge;
                    if edge.child != NONE {
                        queue.push_back((edge.child, edges.len() as u32));
                        // Nodes are numbered in the order they are queued: this one will
                        // be `nodes.len()`, the queue holds the next ones.
                        edge.child = (nodes.len() + queue.len()) as u32;
                    }
                    edges.push(edge);
                }
            }
            nodes.push(node);
            states.push(self.states[index as usize].clone());
        }
        self.nodes = nodes;
        self.states = states;
        self.edges = edges;
    }
}

/// The mean value of an edge's child for the mover of the node it leaves, with its
/// simulations in flight counted as losses, and its visits (real and in flight); `fpu` for
/// a child never visited.
#[inline]
fn child_q<M>(edge: &Edge<M>, vl: f64, fpu: f64) -> (f64, f64) {
    let n = f64::from(edge.visits + edge.in_flight);
    if n == 0.0 {
        return (fpu, 0.0);
    }
    ((edge.value_sum - vl * f64::from(edge.in_flight)) / n, n)
}

/// The move a search chooses from its root statistics: the most visited (ties: the best
/// mean value for the mover, then the first), or with `temperature` > 0 one drawn with
/// probability proportional to `visits^(1/temperature)`. `None` when the root has no move.
pub fn choose<M: Clone>(
    stats: &RootStats<M>,
    mover: usize,
    temperature: f32,
    rng: &mut SplitMix64,
) -> Option<M> {
    let moves = &stats.moves;
    let most = moves.iter().map(|m| m.visits).max()?;
    if temperature > 0.0 && most > 0 {
        let inverse = 1.0 / f64::from(temperature);
        // Relative to the most visited move, so that a low temperature cannot overflow.
        let weights: Vec<f64> = moves
            .iter()
            .map(|m| (m.visits as f64 / most as f64).powf(inverse))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut draw = unit(rng) * total;
        for (m, w) in moves.iter().zip(&weights) {
            if draw < *w {
                return Some(m.mv.clone());
            }
            draw -= w;
        }
    }
    let key = |m: &MoveStats<M>| (m.visits, m.values[mover], m.prior);
    let mut best = &moves[0];
    for m in &moves[1..] {
        let (a, b) = (key(m), key(best));
        if a.0 > b.0 || (a.0 == b.0 && (a.1 > b.1 || (a.1 == b.1 && a.2 > b.2))) {
            best = m;
        }
    }
    Some(best.mv.clone())
}

/// Merges the root statistics of trees searched from the same root (root-parallel):
/// visits added up, values averaged by visits, priors averaged. Moves are matched by
/// equality: trees whose roots number their pieces differently (E's moves name piece ids)
/// must be merged by move text.
pub fn merge_stats<M: Clone + Eq>(all: &[RootStats<M>], num_players: usize) -> RootStats<M> {
    /// Adds `values` weighted by `weight` to `sum`.
    fn add(sum: &mut [f64; MAX_PLAYERS], values: &Values, weight: u64, players: usize) {
        for (s, &v) in sum.iter_mut().zip(values).take(players) {
            *s += f64::from(v) * weight as f64;
        }
    }
    /// The mean of `sum` over `weight` (zeros for no weight).
    fn mean(sum: &[f64; MAX_PLAYERS], weight: u64) -> Values {
        let mut out = [0.0; MAX_PLAYERS];
        if weight > 0 {
            for (o, s) in out.iter_mut().zip(sum) {
                *o = (s / weight as f64) as f32;
            }
        }
        out
    }
    let mut moves: Vec<MoveStats<M>> = Vec::new();
    let mut sums: Vec<[f64; MAX_PLAYERS]> = Vec::new();
    let (mut root_sum, mut visits) = ([0.0f64; MAX_PLAYERS], 0);
    for stats in all {
        visits += stats.visits;
        add(&mut root_sum, &stats.values, stats.visits, num_players);
        for m in &stats.moves {
            let at = moves.iter().position(|x| x.mv == m.mv).unwrap_or_else(|| {
                moves.push(MoveStats {
                    mv: m.mv.clone(),
                    visits: 0,
                    prior: 0.0,
                    values: [0.0; MAX_PLAYERS],
                });
                sums.push([0.0; MAX_PLAYERS]);
                moves.len() - 1
            });
            moves[at].visits += m.visits;
            moves[at].prior += m.prior / all.len() as f32;
            add(&mut sums[at], &m.values, m.visits, num_players);
        }
    }
    for (m, sum) in moves.iter_mut().zip(&sums) {
        m.values = mean(sum, m.visits);
    }
    RootStats {
        moves,
        values: mean(&root_sum, visits),
        visits,
    }
}

/// A uniform number in `[0, 1)`.
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal number (Box-Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let u = 1.0 - unit(rng);
    let v = unit(rng);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`alpha`, 1) number (Marsaglia and Tsang; boosted for `alpha` < 1).
fn gamma(rng: &mut SplitMix64, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u = 1.0 - unit(rng);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = 1.0 - unit(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// `n` numbers drawn from a symmetric Dirichlet distribution of concentration `alpha`.
fn dirichlet(rng: &mut SplitMix64, alpha: f32, n: usize) -> Vec<f32> {
    let draws: Vec<f64> = (0..n).map(|_| gamma(rng, f64::from(alpha))).collect();
    let total: f64 = draws.iter().sum();
    if total > 0.0 {
        draws.iter().map(|&g| (g / total) as f32).collect()
    } else {
        vec![1.0 / n as f32; n]
    }
}

/// Shuffles `moves` (Fisher-Yates): with uniform priors the first unvisited child UCT
/// tries is then a random one.
fn shuffle<M>(moves: &mut [M], rng: &mut SplitMix64) {
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// The legal moves of `state` into `moves` (cleared first).
fn legal_moves<G: Game>(state: &G, moves: &mut Vec<G::Move>) {
    moves.clear();
    state.generate_moves(&mut |mv| moves.push(mv));
}

/// The priors of `moves` (legal moves of `state`) into `priors` (cleared first) as
/// `config.move_priors` asks: a softmax over each move's [`Heuristic::prior_scores`]
/// divided by the temperature; left empty for uniform priors.
fn engine_priors<G: Heuristic>(
    state: &G,
    moves: &[G::Move],
    config: &MctsConfig,
    priors: &mut Vec<f32>,
) {
    priors.clear();
    let Some(temperature) = config.move_priors else {
        return;
    };
    state.prior_scores(moves, priors);
    for p in priors.iter_mut() {
        *p /= temperature;
    }
    // Relative to the largest, so that the exponentials cannot overflow.
    let most = priors.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for p in priors.iter_mut() {
        *p = (*p - most).exp();
        total += *p;
    }
    for p in priors.iter_mut() {
        *p /= total;
    }
}

/// Mixes the game's heuristic of `state` and a rollout from it into `values` (its players'
/// values, as many as it has players) at `config.heuristic_mix` and `config.rollout_mix`;
/// the rollout draws from `rng`, with `moves` as its scratch space.
pub(crate) fn mix_leaf<G: Heuristic>(
    state: &G,
    config: &MctsConfig,
    rng: &mut SplitMix64,
    moves: &mut Vec<G::Move>,
    values: &mut [f32],
) {
    if !config.mixes_leaves() {
        return;
    }
    let (w, r) = (config.heuristic_mix, config.rollout_mix);
    let mut heuristic = [0.0; MAX_PLAYERS];
    if w > 0.0 {
        state.heuristic(&mut heuristic);
    }
    let rollout = if r > 0.0 {
        config.mixed_rollout.evaluate(state, rng, moves)
    } else {
        [0.0; MAX_PLAYERS]
    };
    for ((v, h), o) in values.iter_mut().zip(heuristic).zip(rollout) {
        *v = (1.0 - w - r) * *v + w * h + r * o;
    }
}

/// Whether a search that has run `done` simulations should stop: the limit reached, the
/// deadline passed or the stop flag raised (every search runs at least one simulation).
fn spent(budget: &Budget<'_>, done: u64) -> bool {
    done > 0 && (budget.limit.is_some_and(|l| done >= l) || budget.out_of_time())
}

/// Searches `tree` on this thread, evaluating leaves with `evaluation`, until `budget` is
/// spent. Returns the number of simulations run.
pub fn search<G: Heuristic>(
    tree: &mut Tree<G>,
    config: &MctsConfig,
    evaluation: LeafEvaluation,
    budget: &Budget<'_>,
) -> u64 {
    let (mut path, mut moves, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
    let mut priors = Vec::new();
    let mut done = 0;
    while !spent(budget, done) {
        match tree.select(config, &mut path) {
            Leaf::Evaluate(index) => {
                let state = &tree.states[index as usize];
                legal_moves(state, &mut moves);
                let values = if moves.is_empty() {
                    [0.0; MAX_PLAYERS]
                } else {
                    let (state, rng) = (&tree.states[index as usize], &mut tree.rng);
                    let mut values = evaluation.evaluate(state, rng, &mut scratch);
                    mix_leaf(
                        state,
                        config,
                        rng,
                        &mut scratch,
                        &mut values[..tree.num_players],
                    );
                    values
                };
                shuffle(&mut moves, &mut tree.rng);
                engine_priors(&tree.states[index as usize], &moves, config, &mut priors);
                let priors = (!priors.is_empty()).then_some(priors.as_slice());
                tree.expand(&path, &moves, priors, &values);
            }
            Leaf::Terminal(values) => tree.backup(&path, &values),
            // One thread: no leaf is ever pending at a descent.
            Leaf::Collision => break,
        }
        done += 1;
    }
    done
}

/// Searches `tree` on `threads` threads at once (tree-parallel): descents and backups
/// under a lock, evaluations outside it, simulations in flight spread by virtual loss.
/// Thread `t` draws its rollouts from stream `t` of `seed`. Returns the number of
/// simulations run. The result depends on how the threads interleave.
pub fn search_shared<G: Heuristic>(
    tree: &mut Tree<G>,
    config: &MctsConfig,
    evaluation: LeafEvaluation,
    budget: &Budget<'_>,
    threads: usize,
    seed: u64,
) -> u64 {
    if threads <= 1 {
        return search(tree, config, evaluation, budget);
    }
    let shared = Mutex::new(tree);
    let started = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let (lock, started, done) = (&lock, &started, &done);
    let simulate = move |t: usize| {
        let mut rng = SplitMix64::stream(seed, t as u64);
        let (mut path, mut moves, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
        let mut priors = Vec::new();
        loop {
            let claimed = started.fetch_add(1, Ordering::Relaxed);
            let finished = done.load(Ordering::Relaxed);
            if budget.limit.is_some_and(|l| claimed >= l) || (finished > 0 && budget.out_of_time())
            {
                break;
            }
            let mut tree = lock();
            match tree.select(config, &mut path) {
                Leaf::Evaluate(index) => {
                    let state = tree.state(index).clone();
                    drop(tree);
                    legal_moves(&state, &mut moves);
                    let values = if moves.is_empty() {
                        [0.0; MAX_PLAYERS]
                    } else {
                        let mut values = evaluation.evaluate(&state, &mut rng, &mut scratch);
                        let players = state.num_players();
                        mix_leaf(
                            &state,
                            config,
                            &mut rng,
                            &mut scratch,
                            &mut values[..players],
                        );
                        values
                    };
                    shuffle(&mut moves, &mut rng);
                    engine_priors(&state, &moves, config, &mut priors);
                    let priors = (!priors.is_empty()).then_some(priors.as_slice());
                    lock().expand(&path, &moves, priors, &values);
                }
                Leaf::Terminal(values) => tree.backup(&path, &values),
                Leaf::Collision => {
                    drop(tree);
                    started.fetch_sub(1, Ordering::Relaxed);
                    std::thread::yield_now();
                    continue;
                }
            }
            done.fetch_add(1, Ordering::Relaxed);
        }
    };
    // Thread `t` searches stream `t`; a thread that cannot be spawned leaves its
    // simulations to the others.
    crate::threads::spread(threads, &crate::interrupt::Interrupt::never(), |t, _| {
        simulate(t);
    });
    done.load(Ordering::Relaxed)
}

/// Searches every tree of `forest` apart, on up to `threads` threads (root-parallel), the
/// simulations of `budget` shared out among them (tree `i` takes `limit / n`, plus one if
/// `i < limit % n`). Each tree is searched alone on one thread from its own random stream,
/// so the result does not depend on the thread count. Returns the simulations run.
pub fn search_forest<G: Heuristic>(
    forest: &mut [Tree<G>],
    config: &MctsConfig,
    evaluation: LeafEvaluation,
    budget: &Budget<'_>,
    threads: usize,
) -> u64 {
    let n = forest.len() as u64;
    if n == 0 {
        return 0;
    }
    let share = |i: u64| budget.limit.map(|l| (l / n + u64::from(i < l % n)).max(1));
    let cells: Vec<Mutex<&mut Tree<G>>> = forest.iter_mut().map(Mutex::new).collect();
    let done = crate::threads::run_tasks(cells.len(), threads, |i| {
        let mut tree = cells[i].lock().unwrap_or_else(PoisonError::into_inner);
        let budget = Budget {
            limit: share(i as u64),
            ..*budget
        };
        search(&mut tree, config, evaluation, &budget)
    });
    done.into_iter().sum()
}

/// A leaf gathered for the outside evaluator.
#[derive(Debug, Clone)]
struct PendingLeaf {
    tree: usize,
    node: u32,
    /// Its path, in [`BatchSearch::paths`].
    path: std::ops::Range<usize>,
    /// Its legal moves, in [`BatchSearch::moves`].
    moves: std::ops::Range<usize>,
}

/// Many trees searched together, their leaves evaluated in batches by an outside
/// evaluator: [`BatchSearch::gather`] selects leaves in every tree that has simulations
/// left (several per tree, kept apart by virtual loss), the caller evaluates them (the
/// states and their legal moves are at [`BatchSearch::leaf`]) and hands priors and values
/// to [`BatchSearch::apply`]; until [`BatchSearch::finished`].
#[derive(Debug)]
pub struct BatchSearch<'t, G: Game> {
    trees: &'t mut [Tree<G>],
    config: MctsConfig,
    /// Per tree: the simulations to run, and those run.
    target: Vec<u64>,
    done: Vec<u64>,
    pending: Vec<PendingLeaf>,
    paths: Vec<u32>,
    moves: Vec<G::Move>,
    scratch: Vec<u32>,
    /// The moves of a rollout mixed into a leaf's values.
    rollout_moves: Vec<G::Move>,
}

impl<'t, G: Game> BatchSearch<'t, G> {
    /// A batched search of `trees`, each for `simulations`.
    pub fn new(trees: &'t mut [Tree<G>], config: MctsConfig, simulations: u64) -> Self {
        let n = trees.len();
        for tree in trees.iter_mut() {
            tree.renew_noise();
        }
        BatchSearch {
            trees,
            config,
            target: vec![simulations; n],
            done: vec![0; n],
            pending: Vec::new(),
            paths: Vec::new(),
            moves: Vec::new(),
            scratch: Vec::new(),
            rollout_moves: Vec::new(),
        }
    }

    /// Whether every tree has run its simulations.
    pub fn finished(&self) -> bool {
        self.done.iter().zip(&self.target).all(|(d, t)| d >= t)
    }

    /// The simulations run in each tree.
    pub fn simulations(&self) -> &[u64] {
        &self.done
    }

    /// Selects up to `per_tree` leaves in every tree with simulations left. Finished games
    /// met on the way are backed up at once (they count as simulations); a descent that
    /// meets a leaf already gathered ends that tree's gathering for this batch. Returns
    /// the number of leaves to evaluate.
    pub fn gather(&mut self, per_tree: usize) -> usize {
        self.pending.clear();
        self.paths.clear();
        self.moves.clear();
        for (t, tree) in self.trees.iter_mut().enumerate() {
            let mut taken = 0;
            while taken < per_tree.max(1) && self.done[t] < self.target[t] {
                match tree.select(&self.config, &mut self.scratch) {
                    Leaf::Evaluate(node) => {
                        let first_move = self.moves.len();
                        let state = &tree.states[node as usize];
                        state.generate_moves(&mut |mv| self.moves.push(mv));
                        if self.moves.len() == first_move {
                            // The game is over here: no evaluation needed.
                            tree.expand(&self.scratch, &[], None, &[0.0; MAX_PLAYERS]);
                            self.done[t] += 1;
                        } else {
                            let first_node = self.paths.len();
                            self.paths.extend_from_slice(&self.scratch);
                            self.pending.push(PendingLeaf {
                                tree: t,
                                node,
                                path: first_node..self.paths.len(),
                                moves: first_move..self.moves.len(),
                            });
                            self.done[t] += 1;
                        }
                        taken += 1;
                    }
                    Leaf::Terminal(values) => {
                        tree.backup(&self.scratch, &values);
                        self.done[t] += 1;
                        taken += 1;
                    }
                    Leaf::Collision => break,
                }
            }
        }
        self.pending.len()
    }

    /// The number of leaves gathered.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Leaf `i` of the batch: its tree, its state and its legal moves (in generation
    /// order, the order of its priors).
    pub fn leaf(&self, i: usize) -> (usize, &G, &[G::Move]) {
        let leaf = &self.pending[i];
        let tree = &self.trees[leaf.tree];
        (
            leaf.tree,
            &tree.states[leaf.node as usize],
            &self.moves[leaf.moves.clone()],
        )
    }

    /// Expands every gathered leaf and backs it up: `priors` holds, leaf after leaf, the
    /// prior of each legal move (as many as [`BatchSearch::leaf`] lists), `values` each
    /// leaf's value for every player (`num_players` per leaf).
    pub fn apply(&mut self, priors: &[f32], values: &[f32]) {
        let mut at = 0;
        for (index, leaf) in self.pending.iter().enumerate() {
            let tree = &mut self.trees[leaf.tree];
            let players = tree.num_players;
            let count = leaf.moves.len();
            let mut v = [0.0; MAX_PLAYERS];
            v[..players].copy_from_slice(&values[index * players..(index + 1) * players]);
            tree.expand(
                &self.paths[leaf.path.clone()],
                &self.moves[leaf.moves.clone()],
                Some(&priors[at..at + count]),
                &v,
            );
            at += count;
        }
        self.pending.clear();
    }
}

impl<G: Heuristic> BatchSearch<'_, G> {
    /// Mixes the heuristic and a rollout into the values of gathered leaf `i` (`values`,
    /// one per player) as the settings say; the rollout draws from its tree's random
    /// stream, so a tree's search does not depend on the trees searched beside it.
    pub fn mix_leaf(&mut self, i: usize, values: &mut [f32]) {
        let leaf = &self.pending[i];
        let tree = &mut self.trees[leaf.tree];
        let state = &tree.states[leaf.node as usize];
        mix_leaf(
            state,
            &self.config,
            &mut tree.rng,
            &mut self.rollout_moves,
            values,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn dirichlet_noise_sums_to_one() {
        let mut rng = SplitMix64::new(3);
        for alpha in [0.03, 0.3, 1.0, 2.5] {
            let d = dirichlet(&mut rng, alpha, 20);
            let total: f32 = d.iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{alpha}: {total}");
            assert!(d.iter().all(|&x| x >= 0.0));
        }
    }

    #[test]
    fn budget_stops_on_the_flag() {
        let stop = AtomicBool::new(true);
        let budget = Budget {
            limit: None,
            deadline: None,
            stop: &stop,
        };
        assert!(spent(&budget, 1));
        assert!(!spent(&budget, 0));
    }
}

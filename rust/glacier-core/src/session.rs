//! A game with its history: the checked, text-based API the bindings expose.

use crate::game::{params_for_text, params_from};
use crate::{ActionEncoding, Error, GameParams, Notation, ParamValue};

/// A state plus the states before it, so `undo` is a pop (copy-make keeps it cheap).
#[derive(Debug, Clone)]
pub struct Session<G: Notation> {
    state: G,
    /// Every earlier state with the move played from it, oldest first.
    history: Vec<(G, G::Move)>,
    /// The text the session started from (with `history` it rebuilds the session, e.g. when pickled).
    initial_text: String,
}

impl<G: Notation> Session<G> {
    pub fn new(params: &[(&str, ParamValue)]) -> Result<Self, Error> {
        Ok(Self::from_state(G::start(&params_from::<G>(params)?)))
    }

    /// The position `text`, with the parameters given and those the text states itself.
    pub fn from_text(text: &str, params: &[(&str, ParamValue)]) -> Result<Self, Error> {
        let params = params_for_text::<G>(text, params)?;
        Ok(Self::from_state(G::from_text(text, &params)?))
    }

    pub fn from_state(state: G) -> Self {
        let initial_text = state.text();
        Session {
            state,
            history: Vec::new(),
            initial_text,
        }
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    pub fn initial_text(&self) -> &str {
        &self.initial_text
    }

    /// The parameters as `(name, value)` pairs.
    pub fn param_pairs(&self) -> Vec<(&'static str, ParamValue)> {
        <G::Params as GameParams>::SPECS
            .iter()
            .map(|s| s.name)
            .zip(self.state.params().values())
            .collect()
    }

    /// Legal moves as text, in ascending code-point order.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut texts = String::new();
        let mut spans = Vec::new();
        self.legal_move_texts(&mut texts, &mut spans);
        spans
            .iter()
            .map(|&(a, b)| texts[a..b].to_string())
            .collect()
    }

    /// The legal moves' texts written one after another into `texts`, with `spans` (byte
    /// ranges into `texts`) in ascending code-point order of the texts: one allocation for
    /// all of them, which the bindings turn straight into Python strings.
    pub fn legal_move_texts(&self, texts: &mut String, spans: &mut Vec<(usize, usize)>) {
        texts.clear();
        spans.clear();
        self.state.generate_moves(&mut |mv| {
            let start = texts.len();
            self.state.write_move_text(mv, texts);
            spans.push((start, texts.len()));
        });
        spans.sort_unstable_by(|&(a, b), &(c, d)| texts[a..b].cmp(&texts[c..d]));
    }

    /// Plays a move given as text; on error the session is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), Error> {
        if self.state.is_terminal() {
            return Err(Error::IllegalMove(format!(
                "cannot play '{text}': the game is over"
            )));
        }
        let mv = self.state.parse_move(text)?;
        self.play_move(mv);
        Ok(())
    }

    /// Plays a move produced by the state's own move generator.
    pub fn play_move(&mut self, mv: G::Move) {
        let before = self.state.clone();
        self.state.play_unchecked(mv);
        self.history.push((before, mv));
    }

    /// Takes back the last move and returns its text.
    pub fn undo(&mut self) -> Result<String, Error> {
        let (before, mv) = self.history.pop().ok_or(Error::NothingToUndo)?;
        let text = before.move_text(mv);
        self.state = before;
        Ok(text)
    }

    /// The moves played since the session started, as text.
    pub fn moves_played(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|(state, mv)| state.move_text(*mv))
            .collect()
    }

    pub fn ply_count(&self) -> usize {
        self.history.len()
    }
}

impl<G: Notation + ActionEncoding> Session<G> {
    /// The action numbers of the legal moves, ascending (see [`ActionEncoding`]).
    pub fn legal_actions(&self) -> Vec<usize> {
        let state = &self.state;
        let mut out = Vec::new();
        state.generate_moves(&mut |mv| out.push(state.action_of(mv, out.len())));
        out.sort_unstable();
        out
    }

    /// The legal move an action number stands for in this state.
    pub fn action_move(&self, action: usize) -> Result<G::Move, Error> {
        self.state.move_of_action(action).ok_or_else(|| {
            Error::IllegalMove(format!("action {action} is not legal in this position"))
        })
    }
}

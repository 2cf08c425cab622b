//! What an alpha-beta search reports, in the words of the game: its budget checked, the
//! search run on a thread while the caller's watches for an interrupt, and the result
//! written as text (the best move, the score from the mover's side or the plies to a forced
//! end, the principal variation).

use super::alphabeta::{
    alphabeta, alphabeta_with, plies_to_end, AlphaBetaResult, MAX_DEPTH, SCALE,
};
use super::searcher::{game_over, SearchError};
use super::{Budget, Heuristic};
use crate::interrupt::Interrupt;
use crate::net::evaluation::incremental::NetScore;
use crate::net::evaluation::EvalNet;
use crate::{Error, Notation, Observation};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How far an alpha-beta search goes: to `depth` (1 to [`MAX_DEPTH`]) or for `seconds`,
/// whichever ends first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlphaBetaLimits {
    pub depth: Option<u64>,
    pub seconds: Option<f64>,
}

impl AlphaBetaLimits {
    /// The limits asked for, checked; with neither a depth nor a time, one second.
    pub fn new(depth: Option<i64>, seconds: Option<f64>) -> Result<Self, Error> {
        let depth = match depth {
            None => None,
            Some(d) if (1..=i64::from(MAX_DEPTH)).contains(&d) => Some(d as u64),
            Some(d) => {
                return Err(Error::InvalidParameter(format!(
                    "depth must be between 1 and {MAX_DEPTH}, got {d}"
                )))
            }
        };
        let seconds = match (depth, seconds) {
            (_, Some(s)) if !(s.is_finite() && s > 0.0) => {
                return Err(Error::InvalidParameter(format!(
                    "seconds must be a finite number > 0, got {s}"
                )))
            }
            (None, None) => Some(1.0),
            (_, s) => s,
        };
        Ok(AlphaBetaLimits { depth, seconds })
    }
}

/// What an alpha-beta search found, as text.
#[derive(Debug, Clone, PartialEq)]
pub struct AlphaBetaReport {
    /// The best move's text.
    pub best: String,
    /// From the mover's side: the heuristic in [-1, 1], or +-1 for a forced result.
    pub score: f64,
    /// Plies to a forced end, positive when the mover wins; `None` for a heuristic score.
    pub mate: Option<i32>,
    /// The depth of the deepest iteration completed.
    pub depth: u32,
    /// The principal variation's moves, the best first.
    pub pv: Vec<String>,
    pub nodes: u64,
    /// Wall-clock time.
    pub seconds: f64,
}

impl AlphaBetaReport {
    /// The report of `result`, a search of `root` that took `seconds`.
    #[must_use]
    pub fn of<G: Notation>(root: &G, result: &AlphaBetaResult<G::Move>, seconds: f64) -> Self {
        let mate = plies_to_end(result.score);
        let score = match mate {
            Some(m) => f64::from(m.signum()),
            None => f64::from(result.score) / f64::from(SCALE),
        };
        let mut pv = Vec::with_capacity(result.pv.len());
        let mut at = root.clone();
        for &mv in &result.pv {
            pv.push(at.move_text(mv));
            at.play_unchecked(mv);
        }
        AlphaBetaReport {
            best: root.move_text(result.best),
            score,
            mate,
            depth: result.depth,
            pv,
            nodes: result.nodes,
            seconds,
        }
    }
}

/// Alpha-beta from `root` within `limits`, on a thread of its own while the calling thread
/// watches `interrupt` (which stops it).
pub fn alphabeta_report<G: Heuristic + Notation>(
    root: &G,
    limits: AlphaBetaLimits,
    interrupt: &Interrupt<'_>,
) -> Result<AlphaBetaReport, SearchError> {
    report_of(root, limits, interrupt, |budget| alphabeta(root, budget))
}

/// [`alphabeta_report`] with positions scored by the evaluation net `net` instead of the
/// game's heuristic (its first layer updated per move: [`NetScore`]).
pub fn alphabeta_report_scored<G: Heuristic + Notation + Observation>(
    root: &G,
    limits: AlphaBetaLimits,
    net: &Arc<EvalNet>,
    interrupt: &Interrupt<'_>,
) -> Result<AlphaBetaReport, SearchError> {
    let mut score = NetScore::<G>::new(Arc::clone(net))?;
    report_of(root, limits, interrupt, |budget| {
        alphabeta_with(root, budget, None, &mut score)
    })
}

fn report_of<G: Heuristic + Notation>(
    root: &G,
    limits: AlphaBetaLimits,
    interrupt: &Interrupt<'_>,
    search: impl FnOnce(&Budget<'_>) -> Result<AlphaBetaResult<G::Move>, Error> + Send,
) -> Result<AlphaBetaReport, SearchError> {
    if root.is_terminal() {
        return Err(game_over(G::NAME, None).into());
    }
    let start = Instant::now();
    let budget = Budget {
        limit: limits.depth,
        deadline: limits.seconds.map(|s| start + Duration::from_secs_f64(s)),
        stop: interrupt.flag(),
    };
    let result = crate::threads::run_watched(interrupt, || search(&budget));
    interrupt.result(()).map_err(SearchError::Stopped)?;
    Ok(AlphaBetaReport::of(
        root,
        &result?,
        start.elapsed().as_secs_f64(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::alphabeta::WIN;
    use super::*;
    use crate::games::GAME_NAMES;
    use crate::{with_game, FullGame, Game};

    #[test]
    fn limits_are_checked_and_default_to_a_second() {
        assert_eq!(
            AlphaBetaLimits::new(None, None),
            Ok(AlphaBetaLimits {
                depth: None,
                seconds: Some(1.0)
            })
        );
        assert_eq!(
            AlphaBetaLimits::new(Some(3), None).map(|l| l.seconds),
            Ok(None)
        );
        for bad in [Some(0), Some(i64::from(MAX_DEPTH) + 1), Some(-1)] {
            assert!(AlphaBetaLimits::new(bad, None).is_err(), "{bad:?}");
        }
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(AlphaBetaLimits::new(Some(2), Some(bad)).is_err(), "{bad}");
        }
    }

    fn report_of_result<G: FullGame + Heuristic>() {
        let root = G::start(&crate::game::params_from::<G>(&[]).expect("defaults"));
        let limits = AlphaBetaLimits::new(Some(2), None).expect("limits");
        let report = alphabeta_report(&root, limits, &Interrupt::never()).expect("a search");
        let budget = Budget {
            limit: Some(2),
            deadline: None,
            stop: &std::sync::atomic::AtomicBool::new(false),
        };
        let result = alphabeta(&root, &budget).expect("a search");
        assert_eq!(report.best, root.move_text(result.best), "{}", G::NAME);
        assert_eq!(report.pv.first(), Some(&report.best));
        assert_eq!(report.pv.len(), result.pv.len());
        assert_eq!((report.depth, report.nodes), (2, result.nodes));
        assert_eq!(report.mate, plies_to_end(result.score));
        assert!((-1.0..=1.0).contains(&report.score));
        // The line is legal: each move read back from its text in turn.
        let mut at = root.clone();
        for text in &report.pv {
            let mv = at.parse_move(text).expect("a legal move of the line");
            at.play_unchecked(mv);
        }
    }

    #[test]
    fn the_report_names_the_moves_of_the_result() {
        for &name in GAME_NAMES {
            with_game!(name, G => report_of_result::<G>(), _ => unreachable!());
        }
    }

    #[test]
    fn scores_are_the_movers_and_forced_ends_whole() {
        type G = crate::games::Chess;
        let root = G::start(&crate::game::params_from::<G>(&[]).expect("defaults"));
        let best = root.find_move(|_| true).expect("a legal move");
        let report_of = |score| {
            let result = AlphaBetaResult {
                best,
                score,
                depth: 1,
                pv: vec![best],
                nodes: 1,
            };
            let report = AlphaBetaReport::of(&root, &result, 0.0);
            (report.score, report.mate)
        };
        assert_eq!(report_of(WIN - 3), (1.0, Some(3)));
        assert_eq!(report_of(-(WIN - 2)), (-1.0, Some(-2)));
        assert_eq!(report_of((SCALE / 2.0) as i32), (0.5, None));
        assert_eq!(report_of(0), (0.0, None));
    }
}

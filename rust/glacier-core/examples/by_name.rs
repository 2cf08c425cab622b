//! A game chosen by its name at run time, through `glacier_core::any`: perft of its start,
//! then one game of MCTS against alpha-beta, every move printed.
//!
//!     cargo run --release -p glacier-core --example by_name -- kuba
//!     cargo run --release -p glacier-core --example by_name -- ice_age_chess 3 200
//!
//! The arguments are the game's name (none, or an unknown one, lists the games), the perft
//! depth (default 3) and MCTS's simulations per move (default 400). The game is cut at 80
//! plies (its `max_plies`), so that it ends in seconds. Every game of the registry runs the
//! same code: nothing here names one.

use glacier_core::any::AnyGame;
use glacier_core::interrupt::Interrupt;
use glacier_core::search::options::MctsOptions;
use glacier_core::search::report::AlphaBetaLimits;
use glacier_core::search::searcher::SearchError;
use glacier_core::ParamValue;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("by_name: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The number argument `i`, or `default` when it is not given.
fn number(args: &[String], i: usize, default: u64) -> Result<u64, String> {
    args.get(i).map_or(Ok(default), |arg| {
        arg.parse()
            .map_err(|_| format!("expected a number, got '{arg}'"))
    })
}

fn search_failed(err: SearchError) -> String {
    match err {
        SearchError::Error(err) => err.to_string(),
        SearchError::Stopped(stopped) => format!("stopped: {stopped:?}"),
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        let names: Vec<&str> = AnyGame::ALL.iter().map(|game| game.name()).collect();
        return Err(format!(
            "usage: by_name GAME [DEPTH [SIMULATIONS]], GAME one of: {}",
            names.join(", ")
        ));
    };
    let game = AnyGame::named(name).map_err(|unknown| unknown.to_string())?;
    let depth = u32::try_from(number(&args, 1, 3)?).map_err(|_| "depth too large")?;
    let simulations = number(&args, 2, 400)?;
    let never = Interrupt::never();

    let params = [("max_plies", ParamValue::Int(80))];
    let mut session = game.session(None, &params).map_err(|e| e.to_string())?;
    println!(
        "{} ({}), {} players",
        game.title(),
        game,
        session.num_players()
    );
    println!("{}", session.board_string());
    for d in 1..=depth {
        let nodes = session
            .perft(d, true, 1, 0, &never)
            .map_err(|stopped| format!("{stopped:?}"))?
            .map_err(|e| e.to_string())?;
        println!("perft({d}) = {nodes}");
    }

    // MCTS with the game's heuristic as its evaluation plays seat 0, alpha-beta the others.
    let options = MctsOptions {
        evaluator: "heuristic",
        seed: 1,
        ..MctsOptions::default()
    };
    let mut mcts = game.searcher(options.settings().map_err(|e| e.to_string())?);
    let limits = AlphaBetaLimits::new(Some(2), None).map_err(|e| e.to_string())?;
    while !session.is_terminal() {
        let root = session.search_root().map_err(|e| e.to_string())?;
        let player = session.current_player();
        let chosen = if player == 0 {
            let report = mcts
                .search(&root, Some(simulations), None, 0.0, &never)
                .map_err(search_failed)?;
            report.chosen
        } else {
            root.alphabeta(limits, &never).map_err(search_failed)?.best
        };
        println!(
            "{:>3}. player {player}: {chosen}",
            session.moves_played().len() + 1
        );
        session.play(&chosen).map_err(|e| e.to_string())?;
    }
    println!("{}", session.board_string());
    let cut = if session.ended_by_ply_limit() {
        " (cut at the ply limit)"
    } else {
        ""
    };
    println!("returns {:?}{cut}", session.returns());
    Ok(())
}

//! Runs every record of `tests/data/perft.txt` (shared with pytest) through the engine.
//!
//! Records whose leaf count exceeds `GLACIER_PERFT_MAX_NODES` (default 200 million) are
//! skipped, so CI time stays bounded.

use glacier_core::fixtures::{parse_fixtures, PerftFixture};
use glacier_core::session::Session;
use glacier_core::{with_game, Game};

fn fixture_source() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/perft.txt");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn max_nodes() -> u64 {
    std::env::var("GLACIER_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000_000)
}

fn check<G: Game>(fixture: &PerftFixture, limit: u64) -> usize {
    let params: Vec<(&str, _)> = fixture
        .params
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    let session = match &fixture.text {
        Some(text) => Session::<G>::from_text(text, &params),
        None => Session::<G>::new(&params),
    }
    .unwrap_or_else(|e| panic!("{}: {e}", fixture.id));
    let state = session.state();
    let mut checked = 0;
    for &(depth, expected) in &fixture.perft {
        if expected > limit {
            continue;
        }
        assert_eq!(
            state.perft(depth),
            expected,
            "{} perft({depth})",
            fixture.id
        );
        checked += 1;
    }
    checked
}

#[test]
fn perft_fixtures() {
    let fixtures = parse_fixtures(&fixture_source()).expect("fixture file parses");
    let limit = max_nodes();
    let mut checked = 0;
    for fixture in &fixtures {
        checked += with_game!(fixture.game.as_str(), G => check::<G>(fixture, limit), _ => {
            panic!("{}: unknown game '{}'", fixture.id, fixture.game)
        });
    }
    assert!(checked > 0, "no perft fixture was checked");
    eprintln!(
        "checked {checked} perft counts from {} fixtures",
        fixtures.len()
    );
}

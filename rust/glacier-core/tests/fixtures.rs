//! Runs every record of `tests/data/perft.txt` (the language-neutral fixture format shared
//! with pytest, described at the top of that file) through the engine.
//!
//! Records whose leaf count exceeds `GLACIER_PERFT_MAX_NODES` (default 200 million) are
//! skipped, so CI time stays bounded. Every count is also checked with perft's
//! transposition table: a small one (so slots are overwritten often), on one thread and on
//! two sharing it.

use glacier_core::perft::{perft, perft_hashed, PerftTable};
use glacier_core::session::Session;
use glacier_core::{with_game, FullGame, ParamValue};

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

fn check<G: FullGame>(fixture: &PerftFixture, limit: u64) -> usize {
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
            perft(state, depth),
            expected,
            "{} perft({depth})",
            fixture.id
        );
        let table = PerftTable::new(1).expect("a 1 MiB table");
        assert_eq!(
            perft_hashed(state, depth, &table),
            expected,
            "{} perft({depth}) with a transposition table",
            fixture.id
        );
        // Again with the table already filled, and with two threads sharing it.
        assert_eq!(
            glacier_core::parallel::perft_hashed(state, depth, 2, &table),
            expected,
            "{} perft({depth}) on 2 threads with a shared transposition table",
            fixture.id
        );
        checked += 1;
    }
    checked
}

/// One fixture record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct PerftFixture {
    id: String,
    game: String,
    params: Vec<(String, ParamValue)>,
    text: Option<String>,
    /// `(depth, leaves)` pairs.
    perft: Vec<(u32, u64)>,
}

/// Parses the fixture file; `Err` names the offending line.
fn parse_fixtures(source: &str) -> Result<Vec<PerftFixture>, String> {
    let mut out = Vec::new();
    let mut current: Option<PerftFixture> = None;
    for (number, line) in source.lines().enumerate() {
        let line = line.trim_end();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            out.extend(current.take());
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: {line}", number + 1);
        let (key, value) = line
            .split_once(' ')
            .ok_or_else(|| bad("expected '<key> <value>'"))?;
        let record = current.get_or_insert_with(PerftFixture::default);
        match key {
            "id" => record.id = value.to_string(),
            "game" => record.game = value.to_string(),
            "text" => record.text = Some(value.to_string()),
            "param" => {
                let (name, v) = value
                    .split_once('=')
                    .ok_or_else(|| bad("expected param NAME=VALUE"))?;
                let v = if v == "none" {
                    ParamValue::None
                } else {
                    ParamValue::Int(v.parse().map_err(|_| bad("bad parameter value"))?)
                };
                record.params.push((name.to_string(), v));
            }
            "perft" => {
                let (d, n) = value
                    .split_once(' ')
                    .ok_or_else(|| bad("expected perft DEPTH LEAVES"))?;
                record.perft.push((
                    d.parse().map_err(|_| bad("bad depth"))?,
                    n.parse().map_err(|_| bad("bad count"))?,
                ));
            }
            _ => return Err(bad("unknown key")),
        }
    }
    out.extend(current);
    for record in &out {
        if record.id.is_empty() || record.game.is_empty() || record.perft.is_empty() {
            return Err(format!(
                "fixture '{}' needs an id, a game and perft lines",
                record.id
            ));
        }
    }
    Ok(out)
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

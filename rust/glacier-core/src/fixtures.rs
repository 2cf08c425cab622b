//! The language-neutral perft fixture format of `tests/data/perft.txt`, shared with pytest.

use crate::ParamValue;

/// One fixture record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PerftFixture {
    pub id: String,
    pub game: String,
    pub params: Vec<(String, ParamValue)>,
    pub text: Option<String>,
    /// `(depth, leaves)` pairs.
    pub perft: Vec<(u32, u64)>,
}

/// Parses the fixture file; `Err` names the offending line.
pub fn parse_fixtures(source: &str) -> Result<Vec<PerftFixture>, String> {
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

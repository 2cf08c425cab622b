//! Game parameters: a small declarative spec per game, checked in one place.

use crate::game::GameParams;
use crate::Error;

/// A parameter value as it arrives from a caller: an integer, or explicitly nothing
/// (Python's `None`), which only parameters with `optional: true` accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamValue {
    Int(i64),
    None,
}

impl std::fmt::Display for ParamValue {
    /// As Python writes it: the integer, or `None`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::None => f.write_str("None"),
        }
    }
}

impl ParamValue {
    /// The integer, for parameters that cannot be `None` (checked by [`resolve`]).
    #[must_use]
    pub fn int(self) -> i64 {
        match self {
            ParamValue::Int(v) => v,
            ParamValue::None => 0,
        }
    }

    /// The integer, or `None`.
    #[must_use]
    pub fn opt(self) -> Option<i64> {
        match self {
            ParamValue::Int(v) => Some(v),
            ParamValue::None => None,
        }
    }
}

/// One parameter a game accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: ParamValue,
    /// Inclusive bounds for an integer value.
    pub min: i64,
    pub max: i64,
    /// Whether `None` is accepted (meaning "no limit").
    pub optional: bool,
}

/// The name of the ply limit every game has ([`ParamSpec::max_plies`]).
pub const MAX_PLIES: &str = "max_plies";

impl ParamSpec {
    /// The ply limit every game has.
    #[must_use]
    pub const fn max_plies(default: i64) -> ParamSpec {
        ParamSpec {
            name: MAX_PLIES,
            default: ParamValue::Int(default),
            min: 0,
            max: u32::MAX as i64,
            optional: false,
        }
    }
}

/// The ply limit of `params` ([`MAX_PLIES`]; 0 for parameters without one).
#[must_use]
pub fn max_plies<P: GameParams>(params: &P) -> u64 {
    P::SPECS
        .iter()
        .zip(params.values())
        .find(|(spec, _)| spec.name == MAX_PLIES)
        .and_then(|(_, value)| u64::try_from(value.int()).ok())
        .unwrap_or(0)
}

/// Checks caller-given `(name, value)` pairs against `specs` and returns one value per spec,
/// in spec order, defaults filled in.
pub fn resolve(
    game: &str,
    specs: &[ParamSpec],
    given: &[(&str, ParamValue)],
) -> Result<Vec<ParamValue>, Error> {
    let mut values: Vec<ParamValue> = specs.iter().map(|s| s.default).collect();
    let mut seen = vec![false; specs.len()];
    for &(name, value) in given {
        let Some(i) = specs.iter().position(|s| s.name == name) else {
            let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
            return Err(Error::InvalidParameter(format!(
                "unknown parameter {name} for {game} (it takes: {})",
                known.join(", "),
                name = crate::notation::Quoted(name)
            )));
        };
        if seen[i] {
            return Err(Error::InvalidParameter(format!(
                "parameter {name} given twice",
                name = crate::notation::Quoted(name)
            )));
        }
        seen[i] = true;
        let spec = &specs[i];
        match value {
            ParamValue::None if !spec.optional => {
                return Err(Error::InvalidParameter(format!(
                    "parameter {name} of {game} must be an integer, not None",
                    name = crate::notation::Quoted(name)
                )));
            }
            ParamValue::Int(v) if v < spec.min || v > spec.max => {
                return Err(Error::InvalidParameter(format!(
                    "parameter {name} of {game} must be between {} and {}, got {v}",
                    spec.min,
                    spec.max,
                    name = crate::notation::Quoted(name)
                )));
            }
            _ => values[i] = value,
        }
    }
    Ok(values)
}

/// [`resolve`], then the parameters a position text states for itself (`stated`, see
/// `Notation::text_params`): each fills in a parameter the caller left out, and one the caller
/// gave must agree with the text.
pub fn resolve_for_text(
    game: &str,
    specs: &[ParamSpec],
    given: &[(&str, ParamValue)],
    stated: &[(&str, ParamValue)],
) -> Result<Vec<ParamValue>, Error> {
    let mut values = resolve(game, specs, given)?;
    for &(name, value) in stated {
        let Some(i) = specs.iter().position(|s| s.name == name) else {
            continue;
        };
        match given.iter().find(|&&(n, _)| n == name) {
            Some(&(_, v)) if v != value => return Err(text_disagrees(name, value, v)),
            Some(_) => {}
            None => values[i] = value,
        }
    }
    Ok(values)
}

/// The error for a parameter `name` that is `value` in the parameters but `stated` in the
/// position text being read.
#[must_use]
pub fn text_disagrees(name: &str, stated: ParamValue, value: ParamValue) -> Error {
    Error::InvalidParameter(format!(
        "the position text has {name}={stated}, but {name}={value} was given \
         (leave {name} out to take it from the text)"
    ))
}

/// The parameters of a game whose only parameter is its ply limit, `DEFAULT` unless given:
/// one implementation for every such game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyLimit<const DEFAULT: u32> {
    pub max_plies: u32,
}

impl<const DEFAULT: u32> Default for PlyLimit<DEFAULT> {
    fn default() -> Self {
        PlyLimit { max_plies: DEFAULT }
    }
}

impl<const DEFAULT: u32> GameParams for PlyLimit<DEFAULT> {
    const SPECS: &'static [ParamSpec] = &[ParamSpec::max_plies(DEFAULT as i64)];

    fn from_values(values: &[ParamValue]) -> Result<Self, Error> {
        let max_plies = values
            .first()
            .map(|v| v.int())
            .and_then(|v| u32::try_from(v).ok());
        max_plies
            .map(|max_plies| PlyLimit { max_plies })
            .ok_or_else(|| Error::InvalidParameter("missing or bad parameter value".into()))
    }

    fn values(&self) -> Vec<ParamValue> {
        vec![ParamValue::Int(self.max_plies.into())]
    }
}

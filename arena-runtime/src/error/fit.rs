//! The fit's error.

use std::fmt;

use super::SizeError;

/// Why no fit was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FitError {
    /// The arena declares no parameter of that name.
    UnknownParam {
        /// The derived struct.
        arena: &'static str,
        /// The name given.
        param: String,
        /// The parameters it declares.
        params: &'static [&'static str],
    },
    /// The range holds no value.
    EmptyRange {
        /// The parameter.
        param: String,
    },
    /// Not even the range's first value fits.
    NothingFits {
        /// The derived struct.
        arena: &'static str,
        /// The parameter.
        param: String,
        /// The range's first value.
        start: usize,
        /// The slab's bytes there (`None`: past `usize::MAX`).
        bytes: Option<usize>,
        /// The budget.
        budget: usize,
    },
    /// Sizing the arena at `value` failed for another reason than size.
    Sizing {
        /// The parameter.
        param: String,
        /// The value being sized.
        value: usize,
        /// Why.
        error: SizeError,
    },
    /// A scan passed [`Options::max_scan`](crate::fit::Options::max_scan) sizings: the formula named is not
    /// known to grow with the parameter, so every value must be tried.
    NotMonotone {
        /// The derived struct.
        arena: &'static str,
        /// The parameter.
        param: String,
        /// The buffer, `let` or value whose formula is not known to grow.
        item: &'static str,
        /// That formula.
        formula: &'static str,
        /// The sizings allowed.
        max_scan: usize,
    },
    /// Between the bounds of a planned arena, more values than
    /// [`Options::max_scan`](crate::fit::Options::max_scan) would have to be planned one by one.
    ScanTooLong {
        /// The derived struct.
        arena: &'static str,
        /// The parameter.
        param: String,
        /// The values left to plan, `from..=to`.
        from: usize,
        /// The top of them.
        to: usize,
        /// The sizings allowed.
        max_scan: usize,
    },
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::UnknownParam {
                arena,
                param,
                params,
            } => {
                write!(f, "`{arena}` has no parameter `{param}`")?;
                if params.is_empty() {
                    write!(f, "; it declares none")
                } else {
                    let list: Vec<String> = params.iter().map(|p| format!("`{p}`")).collect();
                    write!(f, "; its parameters: {}", list.join(", "))
                }
            }
            FitError::EmptyRange { param } => write!(f, "the range of `{param}` is empty"),
            FitError::NothingFits {
                arena,
                param,
                start,
                bytes,
                budget,
            } => {
                write!(
                    f,
                    "no value of `{param}` fits `{arena}` in {budget} bytes: "
                )?;
                match bytes {
                    Some(b) => write!(f, "at {param} = {start}, the smallest, it takes {b} bytes"),
                    None => write!(
                        f,
                        "at {param} = {start}, the smallest, its size overflows usize"
                    ),
                }
            }
            FitError::Sizing {
                param,
                value,
                error,
            } => write!(f, "at {param} = {value}: {error}"),
            FitError::NotMonotone {
                arena,
                param,
                item,
                formula,
                max_scan,
            } => write!(
                f,
                "`{arena}.{item}`: formula `{formula}` is not known to grow with `{param}`, so every value must be sized; the scan passed {max_scan} sizings (narrow the range or raise max_scan)"
            ),
            FitError::ScanTooLong {
                arena,
                param,
                from,
                to,
                max_scan,
            } => write!(
                f,
                "`{arena}` with phases: the values {param} = {from}..={to} lie between the lower bound and the unplanned slab and must each be planned; more than {max_scan} sizings (narrow the range or raise max_scan)"
            ),
        }
    }
}

impl std::error::Error for FitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FitError::Sizing { error, .. } => Some(error),
            _ => None,
        }
    }
}

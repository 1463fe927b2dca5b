//! The inverse of sizing: the largest value of one serve limit whose arena
//! fits a byte budget, exact, from the sizing alone.
//!
//! [`largest`] answers "how many tokens fit this GPU" for any arena: given
//! the parameter that varies, a range of its values, a budget and a closure
//! that sizes the arena at a value (the other parameters fixed), it returns
//! the largest value `v` of the range whose slab takes at most `budget`
//! bytes: the same value a scan of the whole range would give.
//!
//! How it gets there depends on what the derive read from the formulas
//! ([`Arena::growth`]):
//!
//! - Every buffer can only grow with the parameter ([`Growth::Grows`]), and
//!   the slab is laid out buffer after buffer (no phases, or a one-of
//!   arena): the slab's bytes cannot decrease either, so a bisection finds
//!   the answer in O(log range) sizings (a range of 2^20 values in at most
//!   22, and one more for the next value's bytes).
//! - The same with declared phases: a planned slab is not monotone (a plan
//!   can be smaller at a larger value), but two bounds are. No plan is
//!   below the lower bound ([`Arena::lower_bound_bytes`]), so no value above
//!   the largest whose bound fits can fit; no plan is above the unplanned
//!   slab, so every value whose unplanned slab fits does. Both are found by
//!   bisection; the values between them are planned one by one from the top,
//!   with the arena's own planner (the plan the slab would get), and the
//!   first that fits is the answer.
//! - A formula not known to grow with the parameter ([`Growth::NotKnown`]):
//!   the range is scanned from the top, and the first value that fits is
//!   the answer. A scan takes at most [`Options::max_scan`] sizings; past
//!   that it is [`FitError::NotMonotone`], naming the formula.
//!
//! A value whose sizing overflows `usize` (a formula, or the slab's offsets)
//! does not fit any budget. Any other sizing error is returned, naming the
//! value ([`FitError::Sizing`]).
//!
//! In an arena (the `arena` crate's documentation has this as a doctest):
//!
//! ```text
//! let fit = arena::fit::largest("max_batch_tokens", 1..=1 << 20, 64 << 20, |m| {
//!     Scratch::try_from_config_with(&levers, 4096, m)
//! })?;
//! // fit.value: the largest M whose slab fits 64 MiB; fit.bytes, fit.next_bytes
//! ```

use std::collections::HashMap;
use std::ops::{Bound, RangeBounds};

use crate::arena::{Arena, Carving};
pub use crate::error::FitError;
use crate::error::{Fault, SizeError};
pub use crate::meta::Growth;

/// How a fit was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// Bisection on the slab's bytes, which cannot decrease.
    Bisection,
    /// Bisection on the lower bound and the unplanned slab of an arena with
    /// phases, and the arena's planner on the values between them.
    Bounds,
    /// A scan from the top of the range: the formulas are not known to grow.
    Scan,
}

/// The largest value that fits, and what it and the next value take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fit {
    /// The largest value of the range whose slab fits the budget.
    pub value: usize,
    /// The slab's bytes at `value`.
    pub bytes: usize,
    /// The slab's bytes at `value + 1`: above the budget. `None` where
    /// `value` is the range's end, or where the next value's bytes overflow
    /// `usize`.
    pub next_bytes: Option<usize>,
    /// How many values were sized to find it.
    pub sizings: usize,
    /// How it was found.
    pub method: Method,
}

/// One point of a [`frontier`]: a value of the outer parameter and the
/// largest value of the inner one that fits with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Point {
    /// The outer parameter's value.
    pub value: usize,
    /// The inner parameter's fit; `None` where no value of its range fits.
    pub fit: Option<Fit>,
}

/// How a fit is searched: the carving whose slab must fit, and how many
/// sizings a scan may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The slab that must fit: its guard bytes and plan budget, planned or
    /// not ([`Arena::layout_for`]). Default: the arena's own slab.
    pub carving: Carving,
    /// The most sizings a scan may take (where the formulas are not known to
    /// grow, or between the bounds of a planned arena). Default 65,536.
    pub max_scan: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            carving: Carving::default(),
            max_scan: 1 << 16,
        }
    }
}

impl Options {
    /// The default options: the arena's own slab, scans of up to 65,536 sizings.
    pub fn new() -> Self {
        Self::default()
    }

    /// The slab of `carving` must fit (its guards, its plan budget).
    pub fn carving(mut self, carving: Carving) -> Self {
        self.carving = carving;
        self
    }

    /// A scan may take up to `max_scan` sizings.
    pub fn max_scan(mut self, max_scan: usize) -> Self {
        self.max_scan = max_scan;
        self
    }
}

/// The largest value of `param` in `range` whose arena's slab takes at most
/// `budget` bytes, `size` giving the arena at a value; see the
/// [module](self) for how, and [`largest_with`] for a slab with guards or
/// its own plan budget.
pub fn largest<A, F>(
    param: &str,
    range: impl RangeBounds<usize>,
    budget: usize,
    size: F,
) -> Result<Fit, FitError>
where
    A: Arena,
    F: FnMut(usize) -> Result<A, SizeError>,
{
    largest_with(param, range, budget, &Options::default(), size)
}

/// [`largest`] with [`Options`]: the carving whose slab must fit, the
/// sizings a scan may take.
pub fn largest_with<A, F>(
    param: &str,
    range: impl RangeBounds<usize>,
    budget: usize,
    options: &Options,
    size: F,
) -> Result<Fit, FitError>
where
    A: Arena,
    F: FnMut(usize) -> Result<A, SizeError>,
{
    let (start, end) = bounds(param, &range)?;
    let growth = match A::growth(param) {
        Growth::NotAParam => {
            return Err(FitError::UnknownParam {
                arena: A::NAME,
                param: param.to_owned(),
                params: A::PARAMS,
            });
        }
        g => g,
    };
    let mut s = Sizer {
        param,
        size,
        carving: options.carving,
        arenas: HashMap::new(),
        bytes: HashMap::new(),
        sizings: 0,
    };
    let planned = !A::PHASES.is_empty() && !A::ONE_OF && !options.carving.unplanned;
    let (value, method) = match growth {
        Growth::Grows if !planned => {
            let v = last_true(start, end, |v| Ok(fits(s.get(v, Bytes::Slab)?, budget)))?;
            (v, Method::Bisection)
        }
        Growth::Grows => {
            // No value above `hi` can fit; every value up to `lo` does.
            let hi = last_true(start, end, |v| Ok(fits(s.get(v, Bytes::Bound)?, budget)))?;
            let lo = match hi {
                Some(hi) => {
                    last_true(start, hi, |v| Ok(fits(s.get(v, Bytes::Unplanned)?, budget)))?
                }
                None => None,
            };
            let from = lo.map_or(start, |lo| lo + 1);
            let value = match hi {
                Some(hi) if hi >= from => {
                    if hi - from >= options.max_scan {
                        return Err(FitError::ScanTooLong {
                            arena: A::NAME,
                            param: param.to_owned(),
                            from,
                            to: hi,
                            max_scan: options.max_scan,
                        });
                    }
                    scan_down(from, hi, |v| Ok(fits(s.get(v, Bytes::Slab)?, budget)))?.or(lo)
                }
                _ => lo,
            };
            (value, Method::Bounds)
        }
        Growth::NotKnown { item, formula } => {
            let mut tried = 0usize;
            let v = scan_down(start, end, |v| {
                tried += 1;
                if tried > options.max_scan {
                    return Err(FitError::NotMonotone {
                        arena: A::NAME,
                        param: param.to_owned(),
                        item,
                        formula,
                        max_scan: options.max_scan,
                    });
                }
                Ok(fits(s.get(v, Bytes::Slab)?, budget))
            })?;
            (v, Method::Scan)
        }
        Growth::NotAParam => unreachable!("answered above"),
    };
    let Some(value) = value else {
        return Err(FitError::NothingFits {
            arena: A::NAME,
            param: param.to_owned(),
            start,
            bytes: s.get(start, Bytes::Slab)?,
            budget,
        });
    };
    let bytes = s
        .get(value, Bytes::Slab)?
        .expect("the value found fits, so its bytes are known");
    let next_bytes = match value.checked_add(1) {
        Some(next) if next <= end => s.get(next, Bytes::Slab)?,
        _ => None,
    };
    Ok(Fit {
        value,
        bytes,
        next_bytes,
        sizings: s.sizings,
        method,
    })
}

/// For each value of `outer` in `outer_values`, the largest value of
/// `inner` in `range` whose arena fits `budget` with it (`size` gives the
/// arena at an outer and an inner value): the frontier of two serve limits.
/// A point where nothing fits has no fit; any other error ends the walk.
pub fn frontier<A, F>(
    outer: &str,
    outer_values: impl IntoIterator<Item = usize>,
    inner: &str,
    range: impl RangeBounds<usize> + Clone,
    budget: usize,
    options: &Options,
    mut size: F,
) -> Result<Vec<Point>, FitError>
where
    A: Arena,
    F: FnMut(usize, usize) -> Result<A, SizeError>,
{
    if A::growth(outer) == Growth::NotAParam {
        return Err(FitError::UnknownParam {
            arena: A::NAME,
            param: outer.to_owned(),
            params: A::PARAMS,
        });
    }
    let mut points = Vec::new();
    for value in outer_values {
        let fit = match largest_with(inner, range.clone(), budget, options, |v| size(value, v)) {
            Ok(fit) => Some(fit),
            Err(FitError::NothingFits { .. }) => None,
            Err(e) => return Err(e),
        };
        points.push(Point { value, fit });
    }
    Ok(points)
}

/// `range` as `start..=end`, or [`FitError::EmptyRange`].
fn bounds(param: &str, range: &impl RangeBounds<usize>) -> Result<(usize, usize), FitError> {
    let empty = || FitError::EmptyRange {
        param: param.to_owned(),
    };
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1).ok_or_else(empty)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e,
        Bound::Excluded(&e) => e.checked_sub(1).ok_or_else(empty)?,
        Bound::Unbounded => usize::MAX,
    };
    if start > end {
        return Err(empty());
    }
    Ok((start, end))
}

/// Whether `bytes` (`None`: past `usize::MAX`) fit `budget`.
fn fits(bytes: Option<usize>, budget: usize) -> bool {
    bytes.is_some_and(|b| b <= budget)
}

/// The largest `v` in `start..=end` with `ok(v)`, where `ok` holds up to
/// some value and not above it; `None` where it fails at `start`.
fn last_true(
    start: usize,
    end: usize,
    mut ok: impl FnMut(usize) -> Result<bool, FitError>,
) -> Result<Option<usize>, FitError> {
    if !ok(start)? {
        return Ok(None);
    }
    let (mut lo, mut hi) = (start, end);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(Some(lo))
}

/// The largest `v` in `start..=end` with `ok(v)`, trying each from the top.
fn scan_down(
    start: usize,
    end: usize,
    mut ok: impl FnMut(usize) -> Result<bool, FitError>,
) -> Result<Option<usize>, FitError> {
    let mut v = end;
    loop {
        if ok(v)? {
            return Ok(Some(v));
        }
        if v == start {
            return Ok(None);
        }
        v -= 1;
    }
}

/// Whether `e` says the arena is too large for `usize`, as opposed to a
/// sizing that failed for another reason.
fn too_large(e: &SizeError) -> bool {
    matches!(
        e,
        SizeError::SlabOverflow { .. }
            | SizeError::Formula {
                fault: Fault::Overflow | Fault::DoesNotFit,
                ..
            }
    )
}

/// What a fit reads of an arena at one value.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Bytes {
    /// The slab of the options' carving.
    Slab,
    /// The same slab laid out without sharing.
    Unplanned,
    /// The lower bound of any plan.
    Bound,
}

/// The most sized arenas a fit keeps at once.
const KEEP_ARENAS: usize = 64;

/// Sizes the arena at a value once, and reads each of its [`Bytes`] once.
struct Sizer<'p, A, F> {
    param: &'p str,
    size: F,
    carving: Carving,
    /// The arena at each value sized (`None`: too large for `usize`).
    arenas: HashMap<usize, Option<A>>,
    bytes: HashMap<(usize, Bytes), Option<usize>>,
    sizings: usize,
}

impl<A: Arena, F: FnMut(usize) -> Result<A, SizeError>> Sizer<'_, A, F> {
    /// `what` of the arena at `v`: `None` past `usize::MAX`.
    fn get(&mut self, v: usize, what: Bytes) -> Result<Option<usize>, FitError> {
        if let Some(&b) = self.bytes.get(&(v, what)) {
            return Ok(b);
        }
        let sizing = |error: SizeError| FitError::Sizing {
            param: self.param.to_owned(),
            value: v,
            error,
        };
        if !self.arenas.contains_key(&v) {
            // A scan visits each value once: the arenas kept are few, and
            // their bytes (small) all.
            if self.arenas.len() >= KEEP_ARENAS {
                self.arenas.clear();
            }
            self.sizings += 1;
            let arena = match (self.size)(v) {
                Ok(a) => Some(a),
                Err(e) if too_large(&e) => None,
                Err(e) => return Err(sizing(e)),
            };
            self.arenas.insert(v, arena);
        }
        let c = self.carving;
        let r = match &self.arenas[&v] {
            None => Ok(None),
            Some(a) => match what {
                Bytes::Slab if c == Carving::default() => a.slab_bytes(),
                Bytes::Slab => a.layout_for(c).map(|l| l.slab_bytes),
                Bytes::Unplanned => a
                    .layout_for(Carving {
                        unplanned: true,
                        ..c
                    })
                    .map(|l| l.slab_bytes),
                Bytes::Bound => a.lower_bound_bytes(),
            }
            .map(Some),
        };
        let b = match r {
            Ok(b) => b,
            Err(e) if too_large(&e) => None,
            Err(e) => return Err(sizing(e)),
        };
        self.bytes.insert((v, what), b);
        Ok(b)
    }
}

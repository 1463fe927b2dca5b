//! Sizing's errors: the [`Fault`] a formula's arithmetic hits, and the
//! [`SizeError`] naming the arena, the item and the formula or lever.

use std::fmt;

use super::PlanError;

/// What went wrong inside one formula evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// `+` or `*` (or a rounding built-in) went past `usize::MAX`.
    Overflow,
    /// `-` went below zero.
    Underflow,
    /// Division, remainder, `div_ceil` or `round_up` by zero.
    DivisionByZero,
    /// `clamp(x, lo, hi)` with `lo > hi`.
    EmptyClamp,
    /// A value produced by plain Rust code does not fit in `usize`.
    DoesNotFit,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Overflow => "overflows usize",
            Fault::Underflow => "goes below zero",
            Fault::DivisionByZero => "divides by zero",
            Fault::EmptyClamp => "calls clamp with a lower bound above the upper bound",
            Fault::DoesNotFit => "produces a value that does not fit in usize",
        })
    }
}

/// Why an arena could not be sized.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeError {
    /// A formula (of a buffer, a `let`, a condition or an argument) failed.
    Formula {
        /// The derived struct.
        arena: &'static str,
        /// The buffer, `let` or value the formula belongs to.
        item: &'static str,
        /// The formula as written in the attribute.
        formula: &'static str,
        /// What failed.
        fault: Fault,
    },
    /// A lever had a value it does not accept: an on/off lever other than `1`
    /// or `0` (a `flag` lever: other than its spellings), or a value its parser refuses.
    Lever {
        /// The environment variable.
        lever: &'static str,
        /// The value found, lossily converted when it is not UTF-8.
        value: String,
        /// What the lever accepts.
        expected: String,
    },
    /// A nested region's size formula gave fewer bytes than the layout it holds.
    RegionTooSmall {
        /// The derived struct.
        arena: &'static str,
        /// The nested field.
        field: &'static str,
        /// The region's size.
        region_bytes: usize,
        /// The bytes the nested layout needs.
        inner_bytes: usize,
    },
    /// A buffer's size is not a whole number of its elements.
    NotWholeElements {
        /// The derived struct.
        arena: &'static str,
        /// The buffer.
        field: &'static str,
        /// Its size in bytes.
        bytes: usize,
        /// The size of one element of its `dtype`.
        elem_bytes: usize,
    },
    /// A buffer's alignment is not a power of two (a planner input).
    BadAlign {
        /// The derived struct (or the problem's name).
        arena: &'static str,
        /// The buffer.
        field: &'static str,
        /// The alignment given.
        align: usize,
    },
    /// The offsets of the slab do not fit in `usize`.
    SlabOverflow {
        /// The derived struct.
        arena: &'static str,
        /// The first buffer that does not fit.
        field: &'static str,
    },
}

impl SizeError {
    /// Builds the error for a failed formula; generated code calls this.
    pub fn formula(
        arena: &'static str,
        item: &'static str,
        formula: &'static str,
        fault: Fault,
    ) -> Self {
        SizeError::Formula {
            arena,
            item,
            formula,
            fault,
        }
    }

    /// The planner's error for the arena `arena`, whose item `k` is the
    /// field `name(k)`.
    pub(crate) fn from_plan(
        error: PlanError,
        arena: &'static str,
        name: impl Fn(usize) -> &'static str,
    ) -> Self {
        match error {
            PlanError::Overflow { item } => SizeError::SlabOverflow {
                arena,
                field: name(item),
            },
            PlanError::BadAlign { item, align } => SizeError::BadAlign {
                arena,
                field: name(item),
                align,
            },
        }
    }
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Formula {
                arena,
                item,
                formula,
                fault,
            } => write!(f, "`{arena}.{item}`: formula `{formula}` {fault}"),
            SizeError::Lever {
                lever,
                value,
                expected,
            } => write!(
                f,
                "lever `{lever}` has value {value:?}; expected {expected}"
            ),
            SizeError::RegionTooSmall {
                arena,
                field,
                region_bytes,
                inner_bytes,
            } => write!(
                f,
                "`{arena}.{field}`: region of {region_bytes} bytes cannot hold its layout of {inner_bytes} bytes"
            ),
            SizeError::NotWholeElements {
                arena,
                field,
                bytes,
                elem_bytes,
            } => write!(
                f,
                "`{arena}.{field}`: {bytes} bytes is not a whole number of {elem_bytes}-byte elements"
            ),
            SizeError::BadAlign {
                arena,
                field,
                align,
            } => write!(
                f,
                "`{arena}.{field}`: alignment {align} is not a power of two"
            ),
            SizeError::SlabOverflow { arena, field } => write!(
                f,
                "`{arena}.{field}`: the slab offset of this buffer overflows usize"
            ),
        }
    }
}

impl std::error::Error for SizeError {}

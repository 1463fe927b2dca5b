//! Errors of sizing, levers, layout and carving. Each names the culprit.

use std::fmt;

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

/// Why the planner ([`crate::plan`]) refused a problem, naming the item by
/// its index in the slice it was given. An arena's layout reports the
/// same as a [`SizeError`] naming the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// The plan passes `usize::MAX` bytes at this item: the first one
    /// found that does not fit.
    Overflow {
        /// Its index.
        item: usize,
    },
    /// This item's alignment is not a power of two.
    BadAlign {
        /// Its index.
        item: usize,
        /// The alignment given.
        align: usize,
    },
}

impl PlanError {
    /// The index of the item the error names.
    pub fn item(&self) -> usize {
        match *self {
            PlanError::Overflow { item } | PlanError::BadAlign { item, .. } => item,
        }
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Overflow { item } => {
                write!(
                    f,
                    "item {item}: the plan's offset of this item overflows usize"
                )
            }
            PlanError::BadAlign { item, align } => {
                write!(f, "item {item}: alignment {align} is not a power of two")
            }
        }
    }
}

impl std::error::Error for PlanError {}

/// Why a region of memory could not be carved into an arena's views.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CarveError {
    /// The region is shorter than the slab.
    TooShort {
        /// The derived struct.
        arena: &'static str,
        /// The buffer that did not fit.
        field: &'static str,
        /// Bytes needed up to the end of that buffer.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// A buffer's start is not aligned for its element type.
    Misaligned {
        /// The derived struct.
        arena: &'static str,
        /// The buffer.
        field: &'static str,
        /// The alignment its element type needs.
        align: usize,
    },
    /// The layout itself could not be computed, or a size (edited by hand)
    /// is not a whole number of its buffer's elements
    /// ([`SizeError::NotWholeElements`]).
    Size(SizeError),
    /// The slab's memory could not be allocated.
    Alloc {
        /// The derived struct.
        arena: &'static str,
        /// Bytes of the slab.
        bytes: usize,
        /// Alignment of its start.
        align: usize,
    },
    /// Guard bytes were asked of an arena whose buffers all share one start
    /// (a top-level `one_of` arena): no byte after one alternative is free
    /// of the others.
    GuardOnOneOf {
        /// The derived struct.
        arena: &'static str,
        /// The guard asked for.
        guard: usize,
    },
    /// The device failed to fill a buffer (a phase's zeroing or poison).
    Device {
        /// The derived struct.
        arena: &'static str,
        /// The buffer.
        field: &'static str,
        /// The driver's error.
        message: String,
    },
    /// A step's buffer is larger than its reservation: [`StepError::TooLarge`]
    /// where a carve's error is asked for (the same message, and back to
    /// it through `From`).
    StepTooLarge {
        /// The derived struct the buffer belongs to.
        arena: &'static str,
        /// The buffer.
        buffer: &'static str,
        /// The bytes the step needs.
        step_bytes: usize,
        /// The bytes the slab reserves for it.
        reserved_bytes: usize,
    },
}

impl fmt::Display for CarveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CarveError::TooShort {
                arena,
                field,
                needed,
                available,
            } => write!(
                f,
                "`{arena}.{field}`: region of {available} bytes is too short, {needed} needed"
            ),
            CarveError::Misaligned {
                arena,
                field,
                align,
            } => write!(f, "`{arena}.{field}`: start is not {align}-byte aligned"),
            CarveError::Size(e) => e.fmt(f),
            CarveError::Alloc {
                arena,
                bytes,
                align,
            } => write!(
                f,
                "`{arena}`: a slab of {bytes} bytes aligned to {align} cannot be allocated"
            ),
            CarveError::GuardOnOneOf { arena, guard } => write!(
                f,
                "`{arena}`: a `one_of` arena cannot have guard bytes ({guard} asked): its alternatives share every byte; nest it in a parent arena, whose guard follows the whole region"
            ),
            CarveError::Device {
                arena,
                field,
                message,
            } => write!(
                f,
                "`{arena}.{field}`: the device could not fill it: {message}"
            ),
            CarveError::StepTooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            } => step_too_large(f, arena, buffer, *step_bytes, *reserved_bytes),
        }
    }
}

/// The message of a step's buffer larger than its reservation.
fn step_too_large(
    f: &mut fmt::Formatter<'_>,
    arena: &str,
    buffer: &str,
    step_bytes: usize,
    reserved_bytes: usize,
) -> fmt::Result {
    write!(
        f,
        "`{arena}.{buffer}`: the step needs {step_bytes} bytes, the slab reserves {reserved_bytes}"
    )
}

/// Its message is the wrapped error's; `source()` is that error itself.
impl std::error::Error for CarveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CarveError::Size(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SizeError> for CarveError {
    fn from(e: SizeError) -> Self {
        CarveError::Size(e)
    }
}

/// Why a step's views could not be carved from a reserved slab.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepError {
    /// A buffer of the step is larger than its reservation.
    TooLarge {
        /// The derived struct the buffer belongs to (a nested arena's own name).
        arena: &'static str,
        /// The buffer.
        buffer: &'static str,
        /// The bytes the step needs.
        step_bytes: usize,
        /// The bytes the slab reserves for it.
        reserved_bytes: usize,
    },
    /// The reserved slab itself could not be carved.
    Carve(CarveError),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::TooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            } => step_too_large(f, arena, buffer, *step_bytes, *reserved_bytes),
            StepError::Carve(e) => e.fmt(f),
        }
    }
}

/// A wrapped carve error's message is its own; `source()` is that error.
impl std::error::Error for StepError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StepError::Carve(e) => Some(e),
            StepError::TooLarge { .. } => None,
        }
    }
}

impl From<CarveError> for StepError {
    /// [`CarveError::StepTooLarge`] is [`StepError::TooLarge`] again.
    fn from(e: CarveError) -> Self {
        match e {
            CarveError::StepTooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            } => StepError::TooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            },
            e => StepError::Carve(e),
        }
    }
}

impl From<SizeError> for StepError {
    fn from(e: SizeError) -> Self {
        StepError::Carve(CarveError::Size(e))
    }
}

impl From<StepError> for CarveError {
    /// A step no larger than its reservation fails only as a carve does; a
    /// larger one is [`CarveError::StepTooLarge`], nothing lost.
    fn from(e: StepError) -> Self {
        match e {
            StepError::Carve(c) => c,
            StepError::TooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            } => CarveError::StepTooLarge {
                arena,
                buffer,
                step_bytes,
                reserved_bytes,
            },
        }
    }
}

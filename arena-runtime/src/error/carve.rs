//! Carving's errors: [`CarveError`] for a slab, [`StepError`] for a step's
//! views.

use std::fmt;

use super::SizeError;

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

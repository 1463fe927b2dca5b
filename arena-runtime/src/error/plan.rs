//! The planner's errors: [`PlanError`] naming an item by its index, and
//! [`ProblemError`] naming a line of a problem file.

use std::fmt;

/// Why the planner ([`crate::plan`]) refused a problem, naming the item by
/// its index in the slice it was given. An arena's layout reports the
/// same as a [`SizeError`](super::SizeError) naming the field.
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

/// Why a problem file could not be read: the line (1-based), the column
/// where there is one, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProblemError {
    /// 1-based line.
    pub line: usize,
    /// The column's name, where the fault is in one.
    pub column: Option<&'static str>,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column `{c}`: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ProblemError {}

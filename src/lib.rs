//! Declare a GPU scratch arena once. See the README for the attribute reference.
#![doc = include_str!("../README.md")]

pub use arena_macros::Arena;
pub use arena_runtime::{
    Arena, BufferInfo, CarveError, Carving, Cursor, Fault, FieldKind, FlatBuffer, GUARD_BYTE,
    GuardError, Host, HostSlab, Layout, LeverInfo, Levers, Memory, Placement, Region, SizeError,
    StepError, bf16, f16,
};

/// Device arenas on CUDA (feature `cuda`): `DeviceSlab`, the `Device` memory
/// whose views are `cudarc` views, and `open` that checks for a driver first.
#[cfg(feature = "cuda")]
pub use arena_runtime::device as cuda;

/// The checked number formulas compute with: `n(2) * M * h` in the expansion.
pub use arena_runtime::checked;

/// The offset planner of arenas with declared phases.
pub use arena_runtime::plan;

#[doc(hidden)]
pub use arena_runtime::__private;

#![doc = include_str!("lib.md")]
//!
//! # What is public
//!
//! Every item this crate exports, a promise of the release (the runtime's
//! items are `arena-runtime`'s list; `cuda` is its `device`). A test in
//! `arena-runtime/src/surface_tests.rs` reads this crate's `pub` lines and
//! fails when an item is added or removed without this list changing.
//!
//! ```text
//! Arena BufferInfo CarveError Carving DType DTypeError DynBytes DynView Elem Fault FieldKind
//! FlatBuffer GUARD_BYTE GuardError Host HostSlab Layout LeverInfo Levers Memory Placement
//! Region SizeError StepError UnknownDType bf16 f16 E8M0 F4E2M1x2 F8E4M3 F8E5M2 bytemuck
//! cuda checked fit plan report
//! report::gpu report::Gpu report::TABLE_WIDTH report::Row report::Report report::Footer
//! report::Sweep report::SweepError report::MemoryMap report::MapBox report::SVG_WIDTH report::SVG_HEIGHT
//! report::phase_table
//! report::gpu::Gpu report::gpu::GPUS report::gpu::find report::gpu::names report::gpu::list
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use arena_macros::Arena;
pub use arena_runtime::{
    Arena, BufferInfo, CarveError, Carving, DType, DTypeError, DynBytes, DynView, Elem, Fault,
    FieldKind, FlatBuffer, GUARD_BYTE, GuardError, Host, HostSlab, Layout, LeverInfo, Levers,
    Memory, Placement, Region, SizeError, StepError, UnknownDType, bf16, f16,
};

/// Low-precision element types: FP8 (`dtype = f8e4m3`, `f8e5m2`), packed FP4
/// (`f4e2m1x2`) and the MX block scale (`e8m0`).
pub use arena_runtime::{E8M0, F4E2M1x2, F8E4M3, F8E5M2};

/// `bytemuck`, for a user element type: `dtype = crate::MyPod` with
/// `#[derive(arena::bytemuck::Pod, arena::bytemuck::Zeroable)]` and
/// `#[bytemuck(crate = "arena::bytemuck")]` needs no other dependency.
pub use arena_runtime::bytemuck;

/// Device arenas on CUDA (feature `cuda`): `DeviceSlab`, the `Device` memory
/// whose views are `cudarc` views, and `open` that checks for a driver first.
#[cfg(feature = "cuda")]
#[cfg_attr(docsrs, doc(cfg(feature = "cuda")))]
pub use arena_runtime::device as cuda;

/// The checked number formulas compute with: `n(2) * M * h` in the expansion.
pub use arena_runtime::checked;

/// The largest serve limits whose arena fits a memory budget.
pub use arena_runtime::fit;

/// The offset planner of arenas with declared phases.
pub use arena_runtime::plan;

#[cfg(feature = "report")]
#[cfg_attr(docsrs, doc(cfg(feature = "report")))]
pub mod report;

#[doc(hidden)]
pub use arena_runtime::__private;

/// The README's examples, compiled and run as doctests (the README is the
/// repository's front page, not this crate's documentation).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

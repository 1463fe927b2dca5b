//! The runtime behind `#[derive(Arena)]`: checked arithmetic, layout, levers,
//! errors and host carving. Generated code calls into this crate; users reach
//! it through the `arena` facade.
//!
//! # What is public
//!
//! What a user names, and all of it: every item below is a promise of the
//! release. What only generated code names lives under `__private` (not
//! public API); the rest is `pub(crate)`. A test (`surface_tests.rs`) reads
//! the `pub` lines of this crate's root and public modules and fails when
//! an item is added or removed without this list changing.
//!
//! ```text
//! Arena Region Carving HostSlab Layout Placement FlatBuffer BufferInfo FieldKind
//! DType Elem UnknownDType DynBytes DynView DTypeError
//! SizeError CarveError StepError Fault GuardError GUARD_BYTE
//! Levers LeverInfo
//! Memory Host
//! bf16 f16 E8M0 F4E2M1x2 F8E4M3 F8E5M2 bytemuck
//! plan plan::Item plan::Plan plan::PlanError plan::plan_offsets plan::plan_with_budget
//! plan::plan_within plan::lower_bound plan::Problem plan::Buffer plan::ProblemError
//! plan::ClockProblem plan::ClockBuffer
//! fit fit::largest fit::largest_with fit::frontier fit::Fit fit::FitError fit::Growth
//! fit::Method fit::Options fit::Point
//! checked checked::Checked checked::n checked::int checked::ceil16 checked::next_pow2
//! checked::div_ceil checked::round_up checked::max checked::min checked::clamp
//! device device::DeviceSlab device::DeviceBytes device::Device device::DeviceError
//! device::open device::driver_present device::cudarc
//! ```

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod arena;
mod arith;
mod carve;
pub mod checked;
#[cfg(feature = "cuda")]
#[cfg_attr(docsrs, doc(cfg(feature = "cuda")))]
pub mod device;
mod dtype;
mod dyn_view;
mod elem;
mod error;
pub mod fit;
mod guard;
mod host;
mod layout;
mod levers;
mod memory;
mod meta;
mod phased;
pub mod plan;
mod sizing;
mod slab;
mod table;

pub use arena::{Arena, Carving, Region};
pub use dtype::{DType, Elem};
pub use dyn_view::{DynBytes, DynView};
pub use error::{CarveError, DTypeError, Fault, GuardError, SizeError, StepError, UnknownDType};
pub use guard::GUARD_BYTE;
pub use host::HostSlab;
pub use layout::{FlatBuffer, Layout, Placement};
pub use levers::{LeverInfo, Levers};
pub use memory::{Host, Memory};
pub use meta::{BufferInfo, FieldKind};

/// Half-precision element types for `dtype = bf16` / `dtype = f16`.
pub use half::{bf16, f16};

/// Low-precision element types for `dtype = f8e4m3`, `f8e5m2`, `f4e2m1x2`
/// and `e8m0`.
pub use elem::{E8M0, F4E2M1x2, F8E4M3, F8E5M2};

/// The plain-data traits a user element type derives
/// (`#[derive(Clone, Copy, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]`
/// with `#[repr(C)]`), so `dtype = crate::MyPod` needs no other dependency.
pub use bytemuck;

/// Items generated code names by path. Not a public API: may change in any release.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[cfg(test)]
mod surface_tests;

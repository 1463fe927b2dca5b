//! The runtime behind `#[derive(Arena)]`: checked arithmetic, layout, levers,
//! errors and host carving. Generated code calls into this crate; users reach
//! it through the `arena` facade.

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
mod table;

#[doc(hidden)]
pub use arena::Fill;
pub use arena::{Arena, Carving, Region, region_align};
pub use carve::Carver;
pub use dtype::{DType, Elem, UnknownDType};
pub use dyn_view::{DTypeError, DynBytes, DynView};
pub use error::{CarveError, Fault, SizeError, StepError};
pub use guard::{GUARD_BYTE, GuardError};
#[doc(hidden)]
pub use guard::{GuardLog, SlabRef};
pub use host::HostSlab;
pub use layout::{Cursor, FlatBuffer, Layout, Placement};
pub use levers::{LeverInfo, Levers, bool_lever, parsed_lever};
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

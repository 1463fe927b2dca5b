//! Every error of the runtime, one file a family, each naming its culprit:
//!
//! - [`Fault`] and [`SizeError`] (`size.rs`): sizing, levers, layout;
//! - [`CarveError`] and [`StepError`] (`carve.rs`): a slab's carving, a
//!   step's views;
//! - [`PlanError`] and [`ProblemError`] (`plan.rs`): the planner, a problem
//!   file;
//! - [`FitError`] (`fit.rs`): the largest value that fits;
//! - [`UnknownDType`] (`unknown_dtype.rs`) and [`DTypeError`] (`dtype.rs`):
//!   element types;
//! - [`GuardError`] (`guard.rs`): guard bands overwritten;
//! - `DeviceError` (`device.rs`, feature `cuda`): a device slab.
//!
//! Each is exported where a user meets it: at the crate's root, in
//! `plan`, `fit` and `device`.

mod carve;
#[cfg(feature = "cuda")]
mod device;
mod dtype;
mod fit;
mod guard;
mod plan;
mod size;
mod unknown_dtype;

pub use carve::{CarveError, StepError};
#[cfg(feature = "cuda")]
pub use device::DeviceError;
pub use dtype::DTypeError;
pub use fit::FitError;
pub use guard::GuardError;
pub use plan::{PlanError, ProblemError};
pub use size::{Fault, SizeError};
pub use unknown_dtype::UnknownDType;

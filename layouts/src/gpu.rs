//! GPU presets for `arena-report --gpu NAME`: the generic table of
//! `arena::report::gpu`, where it lives beside the generic report.

pub use arena::report::gpu::{GPUS, Gpu, find, list, names};

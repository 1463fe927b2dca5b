//! layouts' integration tests in one binary (one link, the tests run in
//! parallel), a module a concern. Two stay binaries of their own: the GPU
//! checks (`tests/gpu.rs`, which `scripts/gpu-check.sh` builds alone) and
//! the allocation count (`tests/no_alloc_carving.rs`, which installs a
//! global allocator). `cargo test -p layouts --test all plan_digest` runs one
//! module.

mod chart;
mod config_rules;
mod device_path;
mod fixtures;
mod handwritten_equivalence;
mod phase_report;
mod plan_digest;
mod properties;
mod real_configs;
mod report_cli;
mod report_golden;
mod step_views;

/// A fresh directory for a test's files (its name starts with `tag`),
/// removed when it is dropped.
fn tempdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("arena-{tag}-"))
        .tempdir()
        .unwrap()
}

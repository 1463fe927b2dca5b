//! The facade's integration tests in one binary (one link, the tests run in
//! parallel), a module a concern. The trybuild UI suite (`tests/ui.rs`) and
//! the user crates built from the README (`tests/user_doctest.rs`) stay
//! binaries of their own. `cargo test --test integration phases` runs one
//! module; the report's need the `report` feature.

mod csv;
mod heads;
// The example's small transformer (`examples/planned.rs`, the phase-views
// bench): one file, since a published package's examples, benches and
// tests can share no crate of their own.
#[path = "../../examples/tiny/mod.rs"]
mod tiny;

mod card;
mod derive;
#[cfg(feature = "report")]
mod dyn_dtype;
mod elements;
mod fit;
mod layout_paths;
mod phases;
mod planned_forward;
#[cfg(feature = "report")]
mod report;
mod safety;
mod step;

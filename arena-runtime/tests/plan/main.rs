//! The planner's integration tests in one binary, a module a concern: its
//! properties against the sequential layout, the search's soundness, tilings
//! of known optimum, traces, and problems timed by vector clocks. `cargo test -p arena-runtime --test plan
//! tilings` runs one module.

mod rng;

mod clocks;
mod properties;
mod search;
mod tilings;
mod traces;

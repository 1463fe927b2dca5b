//! The sweep chart: the generic one of `arena::report` ([`Sweep::chart`]).

use std::path::Path;

use arena::report::Sweep;

/// Draws `sweep` as a stacked chart at `path` ([`Sweep::chart`]).
pub fn stacked(sweep: &Sweep, path: &Path, title: &str) -> Result<(), String> {
    sweep.chart(path, title)
}

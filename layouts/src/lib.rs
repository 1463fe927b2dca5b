//! Real arenas written with `#[derive(Arena)]`: the metrale arena
//! ([`BufferSizes`]), the [`ModelConfig`] it is sized from, and `arena-report`.

pub mod config;
mod families;
mod read;
mod rules;

pub use config::{ConfigError, ModelConfig};
pub use rules::Reader;
pub mod sizes;
pub mod splitk;
pub mod sublayouts;

pub use sizes::BufferSizes;
pub use splitk::{SplitKPolicy, Target};
pub mod fit;
pub mod report;

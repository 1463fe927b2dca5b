//! What the workspace's tests, benches and tools share, in place of files
//! included by path: the metrale sizing written by hand (the port's twin),
//! the Qwen3-Next fixture, the property tests' strategies, the planner's
//! benchmark arenas and a small seeded generator.
//!
//! Not published: the published packages (`arena`, `arena-macros`,
//! `arena-runtime`) build their own tests from their own files, since a
//! registry drops a dependency on a crate it does not hold.

#![allow(missing_docs)]

pub mod fixtures;
pub mod handwritten;
pub mod items;
pub mod rng;
pub mod strategies;

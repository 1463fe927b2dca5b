//! The small nested arena the phase and report tests share.

use arena::Arena;

/// A nested arena inside an arena with phases.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), align = 64)]
pub struct Heads {
    #[arena(shape = [m, 4], dtype = f32)]
    pub q: usize,
    #[arena(shape = [m], dtype = u32)]
    pub idx: usize,
}

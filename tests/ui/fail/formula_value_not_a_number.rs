use arena::Arena;

pub struct Cfg {
    pub ratio: f32,
}

pub fn uses_moe(_: &Cfg) -> bool {
    true
}

#[derive(Arena)]
#[arena(params(config: &Cfg, max_batch_tokens: usize as M))]
struct S {
    /// A plain Rust function returning `bool`, plus one.
    #[arena(size = uses_moe(config) + 1)]
    a: usize,
    /// A float config field times a size.
    #[arena(size = M * config.ratio)]
    b: usize,
}

fn main() {}

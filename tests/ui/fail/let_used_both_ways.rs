use arena::Arena;

pub struct Config {
    pub fp8: bool,
}

#[derive(Arena)]
#[arena(params(config: &Config, n: usize), let fp8 = config.fp8)]
struct S {
    #[arena(size = n, when = fp8)]
    a: usize,
    #[arena(size = n * fp8)]
    b: usize,
}

fn main() {}

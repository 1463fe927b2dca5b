use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), lever(METRALE_FP8_ROWWISE))]
struct S {
    #[arena(size = n, lever = METRALE_FP8_ROWISE)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M))]
struct S {
    #[arena(size = 4 * (M > 3))]
    a: usize,
}

fn main() {}

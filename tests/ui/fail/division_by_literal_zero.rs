use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M))]
struct S {
    #[arena(size = M / 0)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M))]
struct S {
    #[arena(size = 4, when = M)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M), let M = 3)]
struct S {
    #[arena(size = M)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M))]
struct S {
    #[arena(size = M * hiden)]
    a: usize,
    #[arena(sise = 4)]
    b: usize,
    #[arena(size = M / 0)]
    c: usize,
}

fn main() {}

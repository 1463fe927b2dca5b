use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M), let hidden = 2048)]
struct S {
    #[arena(size = M * hiden)]
    a: usize,
}

fn main() {}

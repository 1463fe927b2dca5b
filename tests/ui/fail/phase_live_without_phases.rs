use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, live = attn)]
    a: usize,
}

fn main() {}

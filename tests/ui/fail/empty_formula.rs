use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = , dtype = u8)]
    a: usize,
}

fn main() {}

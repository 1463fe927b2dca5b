use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(sise = n)]
    a: usize,
}

fn main() {}

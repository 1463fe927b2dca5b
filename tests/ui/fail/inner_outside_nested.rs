use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = max(inner, n))]
    a: usize,
}

fn main() {}

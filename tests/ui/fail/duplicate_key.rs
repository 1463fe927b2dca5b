use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, size = 2 * n)]
    a: usize,
}

fn main() {}

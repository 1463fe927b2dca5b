use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), let inner = 2 * n)]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = -n)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n.hidden)]
    a: usize,
}

fn main() {}

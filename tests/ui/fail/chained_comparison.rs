use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = 4, when = 1 < n < 3)]
    a: usize,
}

fn main() {}

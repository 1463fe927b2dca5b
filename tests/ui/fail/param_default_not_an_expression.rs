use arena::Arena;

#[derive(Arena)]
#[arena(params(a: usize, b: usize = 1 2))]
struct S {
    #[arena(size = a + b)]
    x: usize,
}

fn main() {}

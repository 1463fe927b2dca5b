use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = ceil16(n, 2))]
    a: usize,
}

fn main() {}

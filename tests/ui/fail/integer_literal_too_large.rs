use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n * 99999999999999999999999)]
    a: usize,
}

fn main() {}

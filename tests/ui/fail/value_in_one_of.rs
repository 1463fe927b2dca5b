use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), one_of)]
struct S {
    #[arena(size = n)]
    a: usize,
    #[arena(value = n)]
    b: usize,
}

fn main() {}

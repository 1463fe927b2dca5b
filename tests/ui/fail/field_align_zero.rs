use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, align = 0)]
    a: usize,
}

fn main() {}

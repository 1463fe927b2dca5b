use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), align = 100)]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

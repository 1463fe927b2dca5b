use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), align = "256")]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

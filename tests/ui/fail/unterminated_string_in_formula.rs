use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = "n * \"abc")]
    a: usize,
}

fn main() {}

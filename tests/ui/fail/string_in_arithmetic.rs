use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = "n" + 1)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(shape = [n, 4])]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), let a = b + 1, let b = 2 * a)]
struct S {
    #[arena(size = a)]
    x: usize,
}

fn main() {}

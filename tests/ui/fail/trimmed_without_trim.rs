use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), let big = n > 100)]
struct S {
    #[arena(size = n)]
    a: usize,
    #[arena(value = trimmed(big))]
    removed: usize,
}

fn main() {}

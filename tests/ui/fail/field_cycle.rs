use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = b + n)]
    a: usize,
    #[arena(size = max(a, 256))]
    b: usize,
}

fn main() {}

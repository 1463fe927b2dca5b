use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), lever(L, default = 1))]
struct S {
    #[arena(size = n, lever = L)]
    a: usize,
}

fn main() {}

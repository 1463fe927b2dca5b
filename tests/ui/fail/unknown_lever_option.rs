use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), lever(L, dflt = true))]
struct S {
    #[arena(size = n, lever = L)]
    a: usize,
}

fn main() {}

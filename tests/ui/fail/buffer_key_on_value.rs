use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), lever(L))]
struct S {
    #[arena(size = n)]
    a: usize,
    #[arena(value = a + 1, lever = L)]
    b: usize,
}

fn main() {}

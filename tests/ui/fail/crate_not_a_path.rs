use arena::Arena;

#[derive(Arena)]
#[arena(crate = "my arena", params(n: usize))]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

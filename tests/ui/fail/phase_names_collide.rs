use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), phases(mlp_1, mlp1, decode, try_decode))]
struct S {
    #[arena(size = n, live = mlp_1)]
    a: usize,
    #[arena(size = n, live = mlp1..=try_decode)]
    b: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[size = "n"]
    #[arena(size = 2 * n)]
    a: usize,
    #[lever = "DEMO_A"]
    #[arena(size = n, lever = DEMO_A)]
    b: usize,
}

fn main() {}

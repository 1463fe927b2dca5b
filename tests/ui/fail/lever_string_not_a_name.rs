use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, lever = "DEMO-FP8")]
    a: usize,
    #[size = "n"]
    #[lever = "2FAST"]
    b: usize,
}

fn main() {}

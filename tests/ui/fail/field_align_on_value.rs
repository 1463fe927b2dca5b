use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n)]
    a: usize,
    #[arena(value = n / 2, align = 1024)]
    half: usize,
}

fn main() {}

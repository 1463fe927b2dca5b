use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, align = 768)]
    tiles: usize,
}

fn main() {}

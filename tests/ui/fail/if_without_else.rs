use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = if n > 1 { 2 * n })]
    a: usize,
}

fn main() {}

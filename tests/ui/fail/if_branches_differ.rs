use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = if n > 1 { 2 } else { n > 3 })]
    a: usize,
}

fn main() {}

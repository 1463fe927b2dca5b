use arena::Arena;

#[derive(Arena)]
#[arena(params(a: usize, b: usize =))]
struct S {
    #[arena(size = a + b)]
    x: usize,
}

fn main() {}

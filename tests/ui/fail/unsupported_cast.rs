use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n as u32)]
    a: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(parms(n: usize))]
struct S {
    #[arena(size = 4)]
    a: usize,
}

fn main() {}

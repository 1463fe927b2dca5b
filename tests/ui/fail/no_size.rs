use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(dtype = f32)]
    a: usize,
}

fn main() {}

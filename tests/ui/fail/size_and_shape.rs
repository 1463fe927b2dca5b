use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = n, shape = [n], dtype = f32)]
    a: usize,
}

fn main() {}

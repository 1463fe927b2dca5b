use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(shape = [n], dtype = bf61)]
    a: usize,
}

fn main() {}

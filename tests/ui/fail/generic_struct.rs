use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S<T> {
    #[arena(size = n)]
    a: usize,
    b: std::marker::PhantomData<T>,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(size = 4, when = n == "glm")]
    a: usize,
}

fn main() {}

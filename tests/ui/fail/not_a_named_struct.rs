use arena::Arena;

#[derive(Arena)]
enum S {
    A,
}

fn main() {}

use arena::Arena;

/// Not plain data: it holds a reference.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
}

#[derive(Arena)]
#[arena(params(p: usize))]
struct Table {
    #[arena(shape = [p], dtype = Entry)]
    entries: usize,
}

fn main() {}

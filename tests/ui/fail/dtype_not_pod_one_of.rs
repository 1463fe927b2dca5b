use arena::Arena;

/// Not plain data: it holds a reference.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
}

// In a one-of arena: each alternative's view is checked when carved and
// cut when taken; rustc reports the two bounds apart, both at the `dtype`.
#[derive(Arena)]
#[arena(params(p: usize), one_of)]
struct Either {
    #[arena(shape = [p], dtype = Entry)]
    entries: usize,
    #[arena(shape = [p], dtype = u32)]
    ids: usize,
}

fn main() {}

use arena::Arena;

/// Not plain data: it holds a reference.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
}

// With phases: the buffer is in the views of two phases; rustc reports the
// view type's bound and the phase's view call apart, both at the `dtype`.
#[derive(Arena)]
#[arena(params(p: usize), phases(plan, run))]
struct Phased {
    #[arena(shape = [p], dtype = Entry, live = plan..=run)]
    entries: usize,
    #[arena(shape = [p], dtype = u32, live = run)]
    ids: usize,
}

fn main() {}

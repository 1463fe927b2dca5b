use arena::Arena;

#[derive(Arena)]
#[arena(params(p: usize))]
struct Plan {
    #[arena(shape = [p], dtype = bool)]
    block_valid_mask: usize,
}

fn main() {}

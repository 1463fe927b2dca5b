use arena::{Arena, Region};

#[derive(Arena)]
#[arena(params(n: usize), phases(attn, mlp))]
pub struct Inner {
    #[arena(size = n, live = attn)]
    a: usize,
}

#[derive(Arena)]
#[arena(params(n: usize))]
struct Outer {
    #[arena(nested(n))]
    inner: Region<Inner>,
}

fn main() {}

use arena::{Arena, Region};

#[derive(Arena)]
#[arena(params(n: usize), align = 1)]
struct Inner {
    #[arena(size = n)]
    a: usize,
}

#[derive(Arena)]
#[arena(params(n: usize))]
struct S {
    #[arena(nested(n), dtype = f32)]
    inner: Region<Inner>,
}

fn main() {}

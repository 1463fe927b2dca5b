use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), phases(embed, attn, attn))]
struct S {
    #[arena(size = n, live = attn)]
    a: usize,
}

#[derive(Arena)]
#[arena(params(n: usize), one_of, phases(attn, mlp))]
struct Alternatives {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

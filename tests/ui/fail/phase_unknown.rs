use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), phases(embed, attn, mlp, head))]
struct S {
    #[arena(size = n, live = atn)]
    a: usize,
    #[arena(size = n, live = attn..=logits)]
    b: usize,
    #[arena(size = n, live = haed)]
    c: usize,
}

fn main() {}

use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), phases(embed, attn, mlp, head))]
struct S {
    #[arena(size = n, live = mlp..=attn)]
    a: usize,
    #[arena(size = n, live = attn..mlp)]
    b: usize,
}

fn main() {}

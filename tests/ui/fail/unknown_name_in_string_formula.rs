use arena::Arena;

#[derive(Arena)]
#[arena(params(max_batch_tokens: usize as M), let K = 4096)]
struct S {
    #[arena(size = "ceil16(M) * Kk / 128 * 4")]
    a: usize,
}

fn main() {}

use arena::Arena;

fn parse(s: &str) -> Result<u32, String> { s.parse().map_err(|_| "a number".to_string()) }

#[derive(Arena)]
#[arena(params(n: usize), lever(SPLITS, parse = parse))]
struct S {
    #[arena(size = n, lever = SPLITS)]
    a: usize,
}

fn main() {}

use arena::Arena;

fn parse(s: &str) -> Result<u32, String> { s.parse().map_err(|_| "a number".to_string()) }

#[derive(Arena)]
#[arena(params(n: usize), lever(L, parse = parse, default = true))]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

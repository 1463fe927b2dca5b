use arena::Arena;

fn parse(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| "a number".to_string())
}

#[derive(Arena)]
#[arena(params(n: usize), lever(DEMO_A, flag, parse = parse), lever(DEMO_B, flag, flag), lever(DEMO_C, flg))]
struct S {
    #[arena(size = n)]
    a: usize,
}

fn main() {}

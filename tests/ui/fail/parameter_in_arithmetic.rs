use arena::Arena;

pub struct Cfg { pub hidden_size: usize }

#[derive(Arena)]
#[arena(params(config: &Cfg))]
struct S {
    #[arena(size = config * 2)]
    a: usize,
}

fn main() {}

use arena::{Arena, DType, DynBytes};

pub struct Cfg {
    pub hidden: usize,
    pub dtype: DType,
    pub name: &'static str,
}

#[derive(Arena)]
#[arena(params(cfg: &Cfg, m: usize))]
struct S {
    /// A config field that is a number, not a dtype: rustc, at the expression.
    #[arena(shape = [m], dtype = cfg.hidden)]
    a: DynBytes,
    /// A method returning a string.
    #[arena(shape = [m], dtype = cfg.name.trim())]
    b: DynBytes,
    /// Fine: the config's dtype.
    #[arena(shape = [m], dtype = cfg.dtype)]
    f: DynBytes,
}

fn main() {}

use arena::{Arena, DType, DynBytes};

pub struct Cfg {
    pub hidden: usize,
    pub dtype: DType,
}

#[derive(Arena)]
#[arena(params(cfg: &Cfg, m: usize, fp8: bool), let h = cfg.hidden)]
struct S {
    /// A number the macro sees: a parameter, a let, a literal.
    #[arena(shape = [m], dtype = m)]
    c: DynBytes,
    #[arena(shape = [m], dtype = h * 2)]
    d: DynBytes,
    /// A condition.
    #[arena(shape = [m], dtype = fp8)]
    e: DynBytes,
    /// Fine: the config's dtype.
    #[arena(shape = [m], dtype = cfg.dtype)]
    f: DynBytes,
}

fn main() {}

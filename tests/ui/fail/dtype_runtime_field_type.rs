use arena::{Arena, DType, DynBytes};

#[derive(Arena)]
#[arena(params(m: usize, act: DType))]
struct S {
    /// A dtype chosen at run time needs a field that can hold it.
    #[arena(shape = [m], dtype = act)]
    a: usize,
    /// A `DynBytes` field with a static dtype.
    #[arena(shape = [m], dtype = bf16)]
    b: DynBytes,
    /// A `DynBytes` field without a dtype.
    #[arena(size = m)]
    c: DynBytes,
    /// Fine: a constant dtype.
    #[arena(shape = [m], dtype = DType::F32)]
    d: DynBytes,
}

/// A let used both as a dtype and as a number.
#[derive(Arena)]
#[arena(params(m: usize, cfg: &Cfg), let x = cfg.pick())]
struct T {
    #[arena(shape = [m], dtype = x)]
    a: DynBytes,
    #[arena(shape = [m * x], dtype = u8)]
    b: usize,
}

pub struct Cfg;
impl Cfg {
    pub fn pick(&self) -> DType {
        DType::BF16
    }
}

fn main() {}

/// A misspelt parameter reads as an unknown type: named as the near miss.
#[derive(Arena)]
#[arena(params(m: usize, act_dtype: DType))]
struct U {
    #[arena(shape = [m], dtype = act_dtpye)]
    a: DynBytes,
}

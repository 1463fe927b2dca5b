use arena::{Arena, DType, DynBytes};

/// A malformed `dtype` is one error, at the value; the field's other
/// checks (a shape needs a dtype, `DynBytes` needs a runtime one) wait.
#[derive(Arena)]
#[arena(params(m: usize, act: DType))]
struct A {
    #[arena(shape = [m], dtype = )]
    a: DynBytes,
    #[arena(shape = [m], dtype = [u8])]
    b: DynBytes,
    #[arena(shape = [m], dtype = act +)]
    c: DynBytes,
}

fn main() {}

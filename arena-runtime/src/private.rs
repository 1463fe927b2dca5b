//! Items generated code names by path. Not a public API: may change in any
//! release.

pub use crate::sizing::{Sizing, Wide, or_panic, sized, with_shapes};

/// The names a formula's generated code uses: the checked number and
/// the built-ins of the formula language.
pub mod formula {
    pub use crate::arith::str_eq;
    pub use crate::checked::{
        Checked, ceil16, clamp, div_ceil, int, max, min, n, next_pow2, round_up,
    };
    pub use crate::sizing::wide;
}
pub use crate::arena::Fill;
pub use crate::arena::{Plumbing, static_dtype};
pub use crate::carve::{Alternatives, Carver, FieldCarver};
pub use crate::guard::SlabRef;
pub use crate::layout::Cursor;
pub use crate::levers::{bool_lever, flag_lever, parsed_lever};
pub use crate::memory::{alternative, cast, step_piece};
pub use crate::phased::{PhasePieces, Phased};
/// The derive's no-heap planner and its scratch, for the benches that
/// measure it.
pub use crate::plan::greedy::{Placed, plan};
pub use crate::table::slab;
pub use std::result::Result;
pub use std::vec::Vec;

/// What [`crate::Arena::nested_layout`] returns.
pub type NestedLayout = Option<Result<crate::Layout, crate::SizeError>>;

/// The layout of a nested field's arena.
pub fn nested_layout<A: crate::Arena>(region: &crate::Region<A>) -> NestedLayout {
    Some(region.inner.layout())
}

/// Refuses, at compile time with `message`, a nested arena `A` that
/// declares phases: a nested region is one block.
pub const fn no_phases<A: crate::Arena>(message: &str) {
    if !A::PHASES.is_empty() {
        panic!("{}", message);
    }
}

/// Maps a nested field's type `Region<T>` to `T`.
#[diagnostic::on_unimplemented(
    message = "a `nested(...)` field must have type `arena::Region<T>`, found `{Self}`",
    label = "expected `Region<T>` where `T` derives `Arena`"
)]
pub trait RegionOf {
    /// The nested arena.
    type Inner;
}
impl<T> RegionOf for crate::Region<T> {
    type Inner = T;
}

/// The growth of a nested arena `A` with the parameter its argument `k`
/// fills, where that argument grows with the outer parameter: `NotKnown`
/// naming the nested field and the argument where `A` does not grow with it.
pub fn nested_growth<A: crate::Arena>(
    k: usize,
    item: &'static str,
    formula: &'static str,
) -> crate::meta::Growth {
    use crate::meta::Growth;
    match A::PARAMS.get(k).map(|p| A::growth(p)) {
        Some(Growth::Grows) => Growth::Grows,
        Some(g @ Growth::NotKnown { .. }) => g,
        _ => Growth::NotKnown { item, formula },
    }
}

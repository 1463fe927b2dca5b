//! What a derived arena's generated code and carving read at compile time:
//! the tables of its carved fields, and the slab of their bytes (in order,
//! or planned for an arena with phases).

use crate::error::SizeError;
use crate::layout::Cursor;

/// The compile-time tables of the carved fields of `A`, in order: their
/// metadata (one scan of [`crate::Arena::BUFFERS`]), names and alignments in
/// the arena, and phase ranges. Constants, so that a reference to one is a
/// `'static` table, never a copy on the stack.
pub(crate) struct Table<A, const N: usize>(core::marker::PhantomData<A>);

impl<A: crate::Arena, const N: usize> Table<A, N> {
    /// Each carved field's index in [`crate::Arena::BUFFERS`].
    pub(crate) const INDEX: [usize; N] = {
        let mut out = [0; N];
        let (mut i, mut k) = (0, 0);
        while i < A::BUFFERS.len() && k < N {
            if A::BUFFERS[i].is_carved() {
                out[k] = i;
                k += 1;
            }
            i += 1;
        }
        out
    };
    /// Each carved field's metadata.
    pub(crate) const INFOS: [&'static crate::BufferInfo; N] = {
        const NONE: crate::BufferInfo = crate::BufferInfo::buffer::<u8>("", "", "", "");
        let mut out = [&NONE; N];
        let mut k = 0;
        while k < N {
            out[k] = &A::BUFFERS[Self::INDEX[k]];
            k += 1;
        }
        out
    };
    pub(crate) const FIELDS: [(&'static str, usize); N] = {
        let mut out = [("", 1); N];
        let mut k = 0;
        while k < N {
            out[k] = (Self::INFOS[k].name, Self::INFOS[k].align_in(A::ALIGN));
            k += 1;
        }
        out
    };
    pub(crate) const RANGES: [(usize, usize); N] = {
        let mut out = [(0, 0); N];
        let mut k = 0;
        while k < N {
            out[k] = Self::INFOS[k].phases(A::PHASES.len());
            k += 1;
        }
        out
    };
}

/// The names of the `N` fields of `A` counted in `total_bytes()`, in order.
pub const fn total_names<A: crate::Arena, const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    let mut k = 0;
    while i < A::BUFFERS.len() && k < N {
        let b = &A::BUFFERS[i];
        if b.is_carved() && b.in_total {
            out[k] = b.name;
            k += 1;
        }
        i += 1;
    }
    out
}

/// The planned offsets and slab of the carved fields of `A` with `reserved`
/// bytes and `guard` bytes after each: no heap, the scratch on the stack.
pub(crate) fn planned<A: crate::Arena, const N: usize>(
    reserved: &[usize; N],
    guard: usize,
) -> Result<([usize; N], usize), SizeError> {
    let (fields, ranges) = (&Table::<A, N>::FIELDS, &Table::<A, N>::RANGES);
    let items: [crate::plan::Item; N] = core::array::from_fn(|k| crate::plan::Item {
        bytes: reserved[k],
        align: fields[k].1,
        first: ranges[k].0,
        last: ranges[k].1,
    });
    if A::PLAN_BUDGET > 0 {
        // An arena that asked for the search: the heap path.
        let plan = crate::plan::plan_with_budget(&items, guard, A::PLAN_BUDGET)
            .map_err(|e| plan_error::<A, N>(e))?;
        return Ok((core::array::from_fn(|k| plan.offsets[k]), plan.height));
    }
    let (mut offsets, mut order, mut conflicts) = ([0; N], [0; N], [crate::plan::Placed::EMPTY; N]);
    let slab = crate::plan::plan(&items, guard, &mut offsets, &mut order, &mut conflicts)
        .map_err(|e| plan_error::<A, N>(e))?;
    Ok((offsets, slab))
}

/// The planner's error on the carved fields of `A`, naming the field. Out
/// of line: an error is rare, and [`planned`] stays small.
#[cold]
#[inline(never)]
fn plan_error<A: crate::Arena, const N: usize>(error: crate::plan::PlanError) -> SizeError {
    let fields = &Table::<A, N>::FIELDS;
    SizeError::from_plan(error, A::NAME, |k| fields.get(k).map_or("", |f| f.0))
}

/// The planned slab of an arena with phases. Kept out of line so that
/// [`slab`] stays small enough to inline.
#[inline(never)]
fn planned_slab<A: crate::Arena, const N: usize>(bytes: &[usize; N]) -> Result<usize, SizeError> {
    planned::<A, N>(bytes, 0).map(|(_, slab)| slab)
}

/// The slab's bytes of the arena `A` whose carved fields, in order, have
/// `bytes`: each at its alignment, a zero-size field taking no space; the
/// widest alternative for a one-of arena. A slab past `usize::MAX` is a
/// [`SizeError::SlabOverflow`] naming the first field that does not fit.
#[inline]
pub fn slab<A: crate::Arena, const N: usize>(bytes: [usize; N]) -> Result<usize, SizeError> {
    if A::ONE_OF {
        return Ok(bytes.into_iter().max().unwrap_or(0));
    }
    if !A::PHASES.is_empty() {
        return planned_slab::<A, N>(&bytes);
    }
    in_order::<A, N>(&bytes, 0, |_, _| {})
}

/// The carved fields of `A`, whose bytes are `bytes`, one after the other
/// in declaration order, each at its alignment with `guard` bytes after it:
/// `at(k, offset)` for each, and the end of the last.
#[inline]
pub(crate) fn in_order<A: crate::Arena, const N: usize>(
    bytes: &[usize; N],
    guard: usize,
    mut at: impl FnMut(usize, usize),
) -> Result<usize, SizeError> {
    let mut cursor = Cursor::new(guard);
    for (k, (&(name, align), &b)) in Table::<A, N>::FIELDS.iter().zip(bytes).enumerate() {
        at(k, cursor.fit(A::NAME, name, b, align)?);
    }
    Ok(cursor.end())
}

//! Where every buffer sits in the one allocation of an arena.

use crate::error::SizeError;

/// Places buffers one after another at aligned offsets. A zero-size buffer
/// takes no space; `guard` bytes are left after every non-empty buffer.
#[derive(Debug, Clone, Copy)]
pub struct Cursor {
    pos: usize,
    guard: usize,
}

impl Cursor {
    /// A cursor at offset 0.
    pub const fn new(guard: usize) -> Self {
        Cursor { pos: 0, guard }
    }

    /// The offset of a buffer of `bytes` aligned to `align` (a power of two),
    /// or `None` when the slab would pass `usize::MAX`.
    pub const fn place(&mut self, bytes: usize, align: usize) -> Option<usize> {
        if bytes == 0 {
            return Some(self.pos);
        }
        let Some(padded) = self.pos.checked_add(align - 1) else {
            return None;
        };
        let offset = padded & !(align - 1);
        let Some(end) = offset.checked_add(bytes) else {
            return None;
        };
        let Some(next) = end.checked_add(self.guard) else {
            return None;
        };
        self.pos = next;
        Some(offset)
    }

    /// [`Cursor::place`] for buffer `field` of `arena`: a slab past
    /// `usize::MAX` is a [`SizeError::SlabOverflow`] naming it.
    #[inline]
    pub fn fit(
        &mut self,
        arena: &'static str,
        field: &'static str,
        bytes: usize,
        align: usize,
    ) -> Result<usize, SizeError> {
        match self.place(bytes, align) {
            Some(offset) => Ok(offset),
            None => Err(SizeError::SlabOverflow { arena, field }),
        }
    }

    /// Bytes used so far: the end of the last buffer (and its guard).
    ///
    /// See also [`slab`], the slab of a whole arena.
    pub const fn end(&self) -> usize {
        self.pos
    }
}

/// One field's place in the slab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The field name.
    pub name: &'static str,
    /// Offset from the start of the arena's region.
    pub offset: usize,
    /// Bytes of the region.
    pub bytes: usize,
    /// Alignment of the offset.
    pub align: usize,
    /// The buffer's built-in element type, static or chosen at run time
    /// (`dtype = EXPR`: the one it was sized with); `None` for a nested
    /// region or a user element type.
    pub dtype: Option<crate::DType>,
    /// The nested arena's own layout, relative to `offset`.
    pub nested: Option<Box<Layout>>,
}

impl Placement {
    /// One past the last byte.
    pub fn end(&self) -> usize {
        self.offset + self.bytes
    }
}

/// The layout of a derived arena: every carved field in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The derived struct.
    pub arena: &'static str,
    /// Whether the fields are alternatives sharing offset 0.
    pub one_of: bool,
    /// Bytes of the whole slab: the end of the last non-empty buffer.
    pub slab_bytes: usize,
    /// The carved fields (value fields are not listed).
    pub placements: Vec<Placement>,
}

/// One buffer of a layout at its absolute offset: what [`Layout::flatten`]
/// lists, nested regions walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatBuffer {
    /// The field names from the top-level arena down, joined by `.`
    /// (`indptr.o_indptr`).
    pub path: String,
    /// Offset from the start of the top-level arena's region.
    pub offset: usize,
    /// Bytes.
    pub bytes: usize,
    /// Levels of nesting above it: 0 for a field of the top-level arena.
    pub depth: usize,
    /// Whether it is a nested region (its own buffers follow it).
    pub region: bool,
}

impl Layout {
    /// The placement of a field of this arena by name (its offset relative
    /// to this arena's region; see [`Layout::locate`] for nested paths).
    pub fn get(&self, name: &str) -> Option<&Placement> {
        self.placements.iter().find(|p| p.name == name)
    }

    /// The offset of a field from the start of this arena's region: a
    /// name, or a path through nested regions (`"indptr.o_indptr"`), whose
    /// offset is absolute (the regions' offsets added).
    ///
    /// ```
    /// # use arena_runtime::{Layout, Placement};
    /// let inner = Layout { arena: "I", one_of: false, slab_bytes: 64, placements: vec![
    ///     Placement { name: "o_indptr", offset: 32, bytes: 32, align: 16, dtype: None, nested: None }] };
    /// let outer = Layout { arena: "O", one_of: false, slab_bytes: 320, placements: vec![
    ///     Placement { name: "indptr", offset: 256, bytes: 64, align: 256, dtype: None, nested: Some(Box::new(inner)) }] };
    /// assert_eq!(outer.offset_of("indptr"), Some(256));
    /// assert_eq!(outer.offset_of("indptr.o_indptr"), Some(288));
    /// assert_eq!(outer.offset_of("o_indptr"), None);
    /// ```
    pub fn offset_of(&self, path: &str) -> Option<usize> {
        self.locate(path).map(|(offset, _)| offset)
    }

    /// The placement at `path` (a name, or names through nested regions
    /// joined by `.`) and its absolute offset in this arena's region.
    pub fn locate(&self, path: &str) -> Option<(usize, &Placement)> {
        let mut parts = path.split('.');
        let mut p = self.get(parts.next()?)?;
        let mut offset = p.offset;
        for name in parts {
            p = p.nested.as_deref()?.get(name)?;
            offset = offset.checked_add(p.offset)?;
        }
        Some((offset, p))
    }

    /// Every buffer and nested region at every depth, in declaration order
    /// (a region before its own buffers), with its absolute offset: for
    /// checking a layout against another engine's offsets, or a report.
    pub fn flatten(&self) -> Vec<FlatBuffer> {
        let mut out = Vec::new();
        self.flatten_into("", 0, 0, &mut out);
        out
    }

    fn flatten_into(&self, prefix: &str, base: usize, depth: usize, out: &mut Vec<FlatBuffer>) {
        for p in &self.placements {
            let path = if prefix.is_empty() {
                p.name.to_owned()
            } else {
                format!("{prefix}.{}", p.name)
            };
            let offset = base.saturating_add(p.offset);
            out.push(FlatBuffer {
                path: path.clone(),
                offset,
                bytes: p.bytes,
                depth,
                region: p.nested.is_some(),
            });
            if let Some(inner) = &p.nested {
                inner.flatten_into(&path, offset, depth + 1, out);
            }
        }
    }
}

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
        name: fields[k].0,
        bytes: reserved[k],
        align: fields[k].1,
        first: ranges[k].0,
        last: ranges[k].1,
    });
    if A::PLAN_BUDGET > 0 {
        // An arena that asked for the search: the heap path.
        let (off, slab) = crate::plan::plan_with_budget(A::NAME, &items, guard, A::PLAN_BUDGET)?;
        return Ok((core::array::from_fn(|k| off[k]), slab));
    }
    let (mut offsets, mut order, mut conflicts) = ([0; N], [0; N], [crate::plan::Placed::EMPTY; N]);
    let slab = crate::plan::plan(
        A::NAME,
        &items,
        guard,
        &mut offsets,
        &mut order,
        &mut conflicts,
    )?;
    Ok((offsets, slab))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_aligns_and_skips_empty() {
        let mut c = Cursor::new(0);
        assert_eq!(c.place(10, 256), Some(0));
        assert_eq!(c.place(0, 256), Some(10));
        assert_eq!(c.place(4, 256), Some(256));
        assert_eq!(c.end(), 260);
        assert_eq!(c.place(8, 8), Some(264));
    }

    #[test]
    fn cursor_guard_and_overflow() {
        let mut c = Cursor::new(16);
        assert_eq!(c.place(1, 1), Some(0));
        assert_eq!(c.place(1, 1), Some(17));
        assert_eq!(c.end(), 34);
        let mut c = Cursor::new(0);
        assert_eq!(c.place(usize::MAX - 3, 1), Some(0));
        assert_eq!(c.place(8, 1), None);
    }
}

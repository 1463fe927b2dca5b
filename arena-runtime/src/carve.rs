//! How the bytes of a slab are cut into typed views: the memory they live in
//! ([`Memory`], [`Host`](crate::memory::Host)), the carvers that hand out disjoint pieces in
//! layout order, and the cast of a piece to its element type.

use crate::error::{CarveError, SizeError, StepError};
use crate::layout::Cursor;
use crate::memory::{Memory, alternative, cast, step_piece};

/// Hands out consecutive pieces of one region at the offsets a [`Cursor`] gives.
/// Carving allocates nothing and uses no unsafe code.
pub struct Carver<'a, M: Memory> {
    arena: &'static str,
    rest: Option<M::Bytes<'a>>,
    consumed: usize,
    available: usize,
    cursor: Cursor,
    /// For [`Carver::of`]: the arena's alignment and fields.
    align: usize,
    fields: &'static [crate::BufferInfo],
}

impl<'a, M: Memory> Carver<'a, M> {
    /// A carver over `region` for the arena named `arena`.
    pub fn new(arena: &'static str, region: M::Bytes<'a>, guard: usize) -> Self {
        let available = M::len(&region);
        Carver {
            arena,
            rest: Some(region),
            consumed: 0,
            available,
            cursor: Cursor::new(guard),
            align: 1,
            fields: &[],
        }
    }

    /// A carver over `region` for the fields of the arena `A`
    /// ([`Carver::step`], [`Carver::region`]), each at its alignment in `A`.
    pub fn of<A: crate::Arena>(region: M::Bytes<'a>, guard: usize) -> Self {
        Carver {
            align: A::ALIGN,
            fields: A::BUFFERS,
            ..Self::new(A::NAME, region, guard)
        }
    }

    /// The name and alignment of field `index` of the arena.
    #[inline]
    fn field(&self, index: usize) -> (&'static str, usize) {
        field_of(self.fields, self.align, index)
    }

    /// The `bytes` bytes of field `index`, a nested region, at its alignment.
    #[inline]
    pub fn region(&mut self, index: usize, bytes: usize) -> Result<M::Bytes<'a>, CarveError> {
        let (name, align) = self.field(index);
        self.take_bytes(name, bytes, align)
    }

    /// The view of field `index` for a step: placed where `reserved` bytes
    /// are reserved for it, `step` bytes long; a step larger than its
    /// reservation is an error naming the field.
    #[inline]
    pub fn step<T: bytemuck::Pod>(
        &mut self,
        index: usize,
        reserved: usize,
        step: usize,
    ) -> Result<M::Slice<'a, T>, StepError> {
        let (field, align) = self.field(index);
        self.step_named(field, align, reserved, step)
    }

    /// [`Carver::step`] for a field known by name and alignment.
    #[inline]
    fn step_named<T: bytemuck::Pod>(
        &mut self,
        field: &'static str,
        align: usize,
        reserved: usize,
        step: usize,
    ) -> Result<M::Slice<'a, T>, StepError> {
        let piece = self.take_bytes(field, reserved, align)?;
        let piece = step_piece::<M>(self.arena, field, piece, reserved, step)?;
        Ok(cast::<M, T>(self.arena, field, piece)?)
    }

    /// The next `bytes` bytes at an offset aligned to `align`.
    #[inline]
    pub fn take_bytes(
        &mut self,
        field: &'static str,
        bytes: usize,
        align: usize,
    ) -> Result<M::Bytes<'a>, CarveError> {
        let arena = self.arena;
        let Some(offset) = self.cursor.place(bytes, align) else {
            return Err(CarveError::Size(SizeError::SlabOverflow { arena, field }));
        };
        self.take_placed(field, offset, bytes)
    }

    /// The `bytes` bytes at `offset`, which is at or past the end of the
    /// last piece taken (offsets placed elsewhere, such as a plan's, taken in
    /// increasing order); a zero-size piece is empty wherever it is.
    #[inline]
    pub fn take_at(
        &mut self,
        field: &'static str,
        offset: usize,
        bytes: usize,
    ) -> Result<M::Bytes<'a>, CarveError> {
        match self.rest.take() {
            Some(rest) if bytes == 0 => {
                let (piece, rest) = M::split_at(rest, 0);
                self.rest = Some(rest);
                Ok(piece)
            }
            rest if offset >= self.consumed => {
                self.rest = rest;
                self.take_placed(field, offset, bytes)
            }
            _ => Err(self.too_short(field, offset, bytes)),
        }
    }

    /// The `bytes` bytes at `offset`, at or past the end of the last piece.
    #[inline]
    fn take_placed(
        &mut self,
        field: &'static str,
        offset: usize,
        bytes: usize,
    ) -> Result<M::Bytes<'a>, CarveError> {
        let skip = offset - self.consumed;
        match self.rest.take() {
            Some(rest) if M::len(&rest) >= skip && M::len(&rest) - skip >= bytes => {
                let (_, rest) = M::split_at(rest, skip);
                let (piece, rest) = M::split_at(rest, bytes);
                self.rest = Some(rest);
                self.consumed = offset + bytes;
                Ok(piece)
            }
            _ => Err(self.too_short(field, offset, bytes)),
        }
    }

    #[cold]
    fn too_short(&self, field: &'static str, offset: usize, bytes: usize) -> CarveError {
        CarveError::TooShort {
            arena: self.arena,
            field,
            needed: offset.saturating_add(bytes),
            available: self.available,
        }
    }
}

/// Carves the views of an arena laid out for the sizes `reserved`, each view
/// as long as in `step`: the body of a generated `carve_step`, one call a field.
pub struct FieldCarver<'a, M: Memory, A> {
    carver: Carver<'a, M>,
    reserved: &'a A,
    step: &'a A,
}

/// Names the arena and where carving stands, not the bytes.
impl<M: Memory> core::fmt::Debug for Carver<'_, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Carver")
            .field("arena", &self.arena)
            .field("consumed", &self.consumed)
            .field("available", &self.available)
            .finish_non_exhaustive()
    }
}

/// Its carver.
impl<M: Memory, A> core::fmt::Debug for FieldCarver<'_, M, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FieldCarver")
            .field("carver", &self.carver)
            .finish_non_exhaustive()
    }
}

impl<'a, M: Memory, A: crate::Arena> FieldCarver<'a, M, A> {
    /// A carver over `region` with the guard of `carving`.
    #[inline]
    pub fn new(
        reserved: &'a A,
        step: &'a A,
        region: M::Bytes<'a>,
        carving: crate::Carving,
    ) -> Self {
        FieldCarver {
            carver: Carver::of::<A>(region, carving.guard),
            reserved,
            step,
        }
    }

    /// The view of field `index`: see [`Carver::step`].
    #[inline(always)]
    pub fn view<T: bytemuck::Pod>(&mut self, index: usize) -> Result<M::Slice<'a, T>, StepError> {
        let reserved = self.reserved.field_bytes(index);
        let step = self.step.field_bytes(index);
        let (field, align) = Self::field(index);
        self.carver.step_named::<T>(field, align, reserved, step)
    }

    /// The view of field `index`, a buffer whose element type `dtype` (the
    /// step's) was chosen at run time: as [`FieldCarver::view`], its length
    /// and alignment checked for `dtype`.
    #[inline(always)]
    pub fn dyn_view(
        &mut self,
        index: usize,
        dtype: crate::DType,
    ) -> Result<crate::DynView<'a, M>, StepError> {
        let reserved = self.reserved.field_bytes(index);
        let step = self.step.field_bytes(index);
        let (field, align) = Self::field(index);
        let piece = self.carver.take_bytes(field, reserved, align)?;
        let piece = step_piece::<M>(self.carver.arena, field, piece, reserved, step)?;
        Ok(crate::DynView::new(self.carver.arena, field, dtype, piece)?)
    }

    /// The name and alignment of field `index`, as [`Carver::of`] has them
    /// for `A`, read from `A`'s constants: with the index a literal of the
    /// generated code, both are constants too.
    #[inline(always)]
    fn field(index: usize) -> (&'static str, usize) {
        field_of(A::BUFFERS, A::ALIGN, index)
    }

    /// The views of field `index`, the nested arena whose reserved and step
    /// sizes are `reserved` and `step`, carved from its region.
    #[inline]
    pub fn nested<B: crate::Arena>(
        &mut self,
        index: usize,
        reserved: &'a crate::Region<B>,
        step: &'a crate::Region<B>,
    ) -> Result<B::Views<'a, M>, StepError> {
        let (field, align) = Self::field(index);
        let region = self.carver.take_bytes(field, reserved.bytes, align)?;
        reserved.step_views::<M>((self.carver.arena, field), step, region)
    }
}

/// The region of a one-of arena `A`, laid out for the sizes `reserved`: each
/// alternative's views are cut from its start, as long as in `step`, when
/// taken (the views of a generated one-of arena).
pub struct Alternatives<'a, M: Memory, A> {
    region: M::Bytes<'a>,
    reserved: &'a A,
    step: &'a A,
}

/// Names the arena whose alternatives these are.
impl<M: Memory, A: crate::Arena> core::fmt::Debug for Alternatives<'_, M, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Alternatives")
            .field("arena", &A::NAME)
            .finish_non_exhaustive()
    }
}

impl<'a, M: Memory, A: crate::Arena> Alternatives<'a, M, A> {
    /// The alternatives of `region`.
    #[inline]
    pub fn new(reserved: &'a A, step: &'a A, region: M::Bytes<'a>) -> Self {
        Alternatives {
            region,
            reserved,
            step,
        }
    }

    /// The reserved and the step sizes.
    #[inline]
    pub fn arenas(&self) -> (&'a A, &'a A) {
        (self.reserved, self.step)
    }

    /// The name of alternative `index`, for errors.
    #[inline]
    fn name(index: usize) -> &'static str {
        A::BUFFERS.get(index).map_or("", |b| b.name)
    }

    /// The view of alternative `index`, a buffer.
    #[inline]
    pub fn view<T: bytemuck::Pod>(&mut self, index: usize) -> Result<M::Slice<'_, T>, StepError> {
        let (field, piece) = self.step_bytes(index)?;
        Ok(cast::<M, T>(A::NAME, field, piece)?)
    }

    /// The name of alternative `index` and the bytes of its step's view:
    /// the region's start, as long as the step's buffer.
    #[inline]
    fn step_bytes(&mut self, index: usize) -> Result<(&'static str, M::Bytes<'_>), StepError> {
        let field = Self::name(index);
        let reserved = self.reserved.field_bytes(index);
        let piece = alternative::<M>(A::NAME, field, &mut self.region, reserved)?;
        let step = self.step.field_bytes(index);
        Ok((
            field,
            step_piece::<M>(A::NAME, field, piece, reserved, step)?,
        ))
    }

    /// The view of alternative `index`, a buffer whose element type `dtype`
    /// (the step's) was chosen at run time.
    #[inline]
    pub fn dyn_view(
        &mut self,
        index: usize,
        dtype: crate::DType,
    ) -> Result<crate::DynView<'_, M>, StepError> {
        let (field, piece) = self.step_bytes(index)?;
        Ok(crate::DynView::new(A::NAME, field, dtype, piece)?)
    }

    /// The views of alternative `index`, the nested arena whose reserved and
    /// step sizes are `reserved` and `step`.
    #[inline]
    pub fn nested<'b, B: crate::Arena>(
        &'b mut self,
        index: usize,
        reserved: &'b crate::Region<B>,
        step: &'b crate::Region<B>,
    ) -> Result<B::Views<'b, M>, StepError> {
        let field = Self::name(index);
        let piece = alternative::<M>(A::NAME, field, &mut self.region, reserved.bytes)?;
        reserved.step_views::<M>((A::NAME, field), step, piece)
    }
}

/// The name of field `index` of `fields` and its alignment in an arena
/// aligned to `align` (a field past the table: no name, the arena's).
#[inline(always)]
const fn field_of(
    fields: &[crate::BufferInfo],
    align: usize,
    index: usize,
) -> (&'static str, usize) {
    if index < fields.len() {
        (fields[index].name, fields[index].align_in(align))
    } else {
        ("", align)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Host;

    #[test]
    fn carver_hands_out_disjoint_pieces() {
        let mut buf = vec![0u8; 64];
        let mut carver = Carver::<Host>::new("T", &mut buf, 0);
        let a = carver.take_bytes("a", 3, 1).unwrap();
        let b = carver.take_bytes("b", 4, 8).unwrap();
        a.fill(1);
        b.fill(2);
        let e = carver.take_bytes("c", 100, 1).unwrap_err();
        assert!(e.to_string().contains("`T.c`"), "{e}");
        assert_eq!(&buf[..12], &[1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2, 2]);
    }
}

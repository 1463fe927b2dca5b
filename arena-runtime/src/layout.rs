//! Where every buffer sits in the one allocation of an arena.

use crate::error::{CarveError, SizeError, StepError};

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
    ///     Placement { name: "o_indptr", offset: 32, bytes: 32, align: 16, nested: None }] };
    /// let outer = Layout { arena: "O", one_of: false, slab_bytes: 320, placements: vec![
    ///     Placement { name: "indptr", offset: 256, bytes: 64, align: 256, nested: Some(Box::new(inner)) }] };
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

/// Where views of an arena live: host memory ([`Host`]) or, with the `cuda`
/// feature, device memory. Carving is written once against this trait.
pub trait Memory {
    /// An untyped, exclusively borrowed run of bytes.
    type Bytes<'a>;
    /// A typed, exclusively borrowed view.
    type Slice<'a, T: bytemuck::Pod>;

    /// Bytes in `bytes`.
    fn len(bytes: &Self::Bytes<'_>) -> usize;
    /// Splits at `mid` (`mid <= len`).
    fn split_at(bytes: Self::Bytes<'_>, mid: usize) -> (Self::Bytes<'_>, Self::Bytes<'_>);
    /// A shorter-lived borrow of the same bytes.
    fn reborrow<'b>(bytes: &'b mut Self::Bytes<'_>) -> Self::Bytes<'b>;
    /// Views `bytes`, a non-empty run, as elements of `T`: `Err(align)`
    /// where its length is not a whole number of `T` or its start is not
    /// aligned for `T` (by address on the host, by offset from the slab's
    /// aligned start on a device). [`cast`] calls it: an empty run never
    /// reaches it (an empty view is taken wherever it sits), and its error
    /// is named there.
    fn cast<T: bytemuck::Pod>(bytes: Self::Bytes<'_>) -> Result<Self::Slice<'_, T>, usize>;
    /// An empty view of `T`.
    fn empty<'a, T: bytemuck::Pod>(bytes: Self::Bytes<'a>) -> Self::Slice<'a, T>;
    /// Fills `bytes` with `pattern` repeated (for a phase's poison and
    /// zeroing); a device error as text.
    fn fill(bytes: &mut Self::Bytes<'_>, pattern: &[u8]) -> Result<(), String>;
    /// Whether every byte of `bytes` is `byte` (a guard band's check when a
    /// phase ends); a device error as text.
    fn holds(bytes: &Self::Bytes<'_>, byte: u8) -> Result<bool, String>;
}

/// Host memory: views are `&mut [T]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Host;

impl Memory for Host {
    type Bytes<'a> = &'a mut [u8];
    type Slice<'a, T: bytemuck::Pod> = &'a mut [T];

    #[inline]
    fn len(bytes: &Self::Bytes<'_>) -> usize {
        bytes.len()
    }
    #[inline]
    fn split_at(bytes: Self::Bytes<'_>, mid: usize) -> (Self::Bytes<'_>, Self::Bytes<'_>) {
        bytes.split_at_mut(mid)
    }
    #[inline]
    fn reborrow<'b>(bytes: &'b mut Self::Bytes<'_>) -> Self::Bytes<'b> {
        bytes
    }
    #[inline]
    fn cast<T: bytemuck::Pod>(bytes: Self::Bytes<'_>) -> Result<Self::Slice<'_, T>, usize> {
        bytemuck::try_cast_slice_mut(bytes).map_err(|_| std::mem::align_of::<T>())
    }
    #[inline]
    fn empty<'a, T: bytemuck::Pod>(_: Self::Bytes<'a>) -> Self::Slice<'a, T> {
        &mut []
    }

    fn fill(bytes: &mut Self::Bytes<'_>, pattern: &[u8]) -> Result<(), String> {
        match pattern {
            [] => {}
            [b] => bytes.fill(*b),
            _ => {
                for (d, s) in bytes.iter_mut().zip(pattern.iter().cycle()) {
                    *d = *s;
                }
            }
        }
        Ok(())
    }

    fn holds(bytes: &Self::Bytes<'_>, byte: u8) -> Result<bool, String> {
        Ok(bytes.iter().all(|&b| b == byte))
    }
}

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
        step_fits(self.carver.arena, field, reserved.bytes, step.bytes)?;
        reserved.step_views::<M>(step, region)
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
        let field = Self::name(index);
        let reserved = self.reserved.field_bytes(index);
        let piece = alternative::<M>(A::NAME, field, &mut self.region, reserved)?;
        let step = self.step.field_bytes(index);
        let piece = step_piece::<M>(A::NAME, field, piece, reserved, step)?;
        Ok(cast::<M, T>(A::NAME, field, piece)?)
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
        step_fits(A::NAME, field, reserved.bytes, step.bytes)?;
        reserved.step_views::<M>(step, piece)
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

/// The first `step` bytes of `piece`, the `reserved` bytes of `field`.
#[inline]
pub fn step_piece<'a, M: Memory>(
    arena: &'static str,
    field: &'static str,
    piece: M::Bytes<'a>,
    reserved: usize,
    step: usize,
) -> Result<M::Bytes<'a>, StepError> {
    step_fits(arena, field, reserved, step)?;
    Ok(M::split_at(piece, step).0)
}

/// A step buffer of `step` bytes fits the `reserved` bytes of `field`.
#[inline]
pub(crate) fn step_fits(
    arena: &'static str,
    field: &'static str,
    reserved: usize,
    step: usize,
) -> Result<(), StepError> {
    if step > reserved {
        return Err(StepError::TooLarge {
            arena,
            buffer: field,
            step_bytes: step,
            reserved_bytes: reserved,
        });
    }
    Ok(())
}

/// Views `bytes` as elements of `T`, naming the field on failure: the one
/// rule of every [`Memory`] (host and device alike). An empty run is an
/// empty view wherever it starts (a zero-size buffer sits at the bare
/// cursor, which a guard can leave at any offset); otherwise the memory's
/// cast, whose refusal is [`SizeError::NotWholeElements`] for a length that
/// is not a whole number of `T` and [`CarveError::Misaligned`] else.
#[inline]
pub fn cast<'a, M: Memory, T: bytemuck::Pod>(
    arena: &'static str,
    field: &'static str,
    bytes: M::Bytes<'a>,
) -> Result<M::Slice<'a, T>, CarveError> {
    let len = M::len(&bytes);
    if len == 0 {
        return Ok(M::empty::<T>(bytes));
    }
    match M::cast::<T>(bytes) {
        Ok(view) => Ok(view),
        Err(align) => Err(cast_error(
            arena,
            field,
            len,
            core::mem::size_of::<T>(),
            align,
        )),
    }
}

/// The error of [`cast`], out of its hot path: the length first, then the
/// alignment.
#[cold]
#[inline(never)]
fn cast_error(
    arena: &'static str,
    field: &'static str,
    bytes: usize,
    elem_bytes: usize,
    align: usize,
) -> CarveError {
    if elem_bytes > 1 && bytes % elem_bytes != 0 {
        CarveError::Size(SizeError::NotWholeElements {
            arena,
            field,
            bytes,
            elem_bytes,
        })
    } else {
        CarveError::Misaligned {
            arena,
            field,
            align,
        }
    }
}

/// The first `bytes` bytes of a one-of region, for one alternative.
pub fn alternative<'b, M: Memory>(
    arena: &'static str,
    field: &'static str,
    region: &'b mut M::Bytes<'_>,
    bytes: usize,
) -> Result<M::Bytes<'b>, CarveError> {
    let available = M::len(region);
    if available < bytes {
        return Err(CarveError::TooShort {
            arena,
            field,
            needed: bytes,
            available,
        });
    }
    Ok(M::split_at(M::reborrow(region), bytes).0)
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

/// The bytes a buffer is filled with when its first phase begins in poison
/// mode: NaN for a float dtype (FP8 and the E8M0 scale included), `0xA5`
/// otherwise (FP4 has no NaN).
pub const fn poison_pattern(dtype: &str) -> &'static [u8] {
    match dtype.as_bytes() {
        b"f32" => &[0x00, 0x00, 0xC0, 0x7F],
        b"f64" => &[0, 0, 0, 0, 0, 0, 0xF8, 0x7F],
        b"bf16" => &[0xC0, 0x7F],
        b"f16" => &[0x00, 0x7E],
        b"f8e4m3" => &[0x7F],
        b"f8e5m2" => &[0x7E],
        b"e8m0" => &[0xFF],
        _ => &[0xA5],
    }
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

//! The memory a slab's bytes live in ([`Memory`], [`Host`]), and the cuts
//! every carving makes of it: a step's piece, a one-of alternative, the
//! cast of a piece to its element type.

use crate::error::{CarveError, SizeError, StepError};

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
    if elem_bytes > 1 && !bytes.is_multiple_of(elem_bytes) {
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

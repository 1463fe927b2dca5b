//! Buffers whose element type is chosen at run time (`dtype = EXPR`): the
//! sized field, [`DynBytes`] (its bytes and its [`DType`]), and its view,
//! [`DynView`], taken as a typed view once the type asked for is the
//! buffer's, with no unsafe code and no alignment failure.

use core::fmt;

use crate::dtype::{DType, Elem};
use crate::error::{CarveError, DTypeError};
use crate::memory::{Host, Memory, cast};

/// The size of a buffer whose element type is chosen at run time: the type
/// of a field declared with `dtype = EXPR` (an expression of type
/// [`DType`]), where a field of a static dtype is a `usize`.
///
/// The derive fills both when it sizes the arena; the views of such a
/// field are [`DynView`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DynBytes {
    /// Bytes of the buffer: a whole number of `dtype` elements.
    pub bytes: usize,
    /// The element type the buffer was sized with.
    pub dtype: DType,
}

impl DynBytes {
    /// `bytes` bytes of `dtype` elements.
    #[inline]
    pub const fn new(bytes: usize, dtype: DType) -> Self {
        DynBytes { bytes, dtype }
    }

    /// Elements in the buffer (`bytes / dtype.bytes()`).
    #[inline]
    pub const fn len(&self) -> usize {
        self.bytes / self.dtype.bytes()
    }

    /// Whether the buffer holds no element.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.bytes == 0
    }
}

/// A buffer of a [`DType`] chosen at run time, on the host (`M = Host`) or a
/// device: [`DynView::typed`] gives its typed view (`&mut [bf16]`,
/// `CudaViewMut<bf16>`, ...) where the type asked for is the buffer's.
pub struct DynView<'a, M: Memory = Host> {
    arena: &'static str,
    buffer: &'static str,
    dtype: DType,
    bytes: M::Bytes<'a>,
}

/// Whether `bytes` can be viewed as elements of `dtype`: a whole number of
/// them, aligned (by address on the host, by offset on a device). Every
/// dtype's alignment is its size, so the unsigned integer of that size
/// stands for it: the one place the runtime dtype meets a static type.
#[inline(always)]
fn check<M: Memory>(
    arena: &'static str,
    buffer: &'static str,
    dtype: DType,
    bytes: M::Bytes<'_>,
) -> Result<(), CarveError> {
    match dtype.bytes() {
        1 => Ok(()),
        2 => cast::<M, u16>(arena, buffer, bytes).map(drop),
        4 => cast::<M, u32>(arena, buffer, bytes).map(drop),
        _ => cast::<M, u64>(arena, buffer, bytes).map(drop),
    }
}

impl<'a, M: Memory> DynView<'a, M> {
    /// The view of `bytes`, buffer `buffer` of `arena`, holding `dtype`
    /// elements: refused where the bytes are not whole elements or not
    /// aligned for `dtype` (generated carving hands it bytes that are both).
    #[doc(hidden)]
    #[inline(always)]
    pub fn new(
        arena: &'static str,
        buffer: &'static str,
        dtype: DType,
        mut bytes: M::Bytes<'a>,
    ) -> Result<Self, CarveError> {
        check::<M>(arena, buffer, dtype, M::reborrow(&mut bytes))?;
        Ok(DynView {
            arena,
            buffer,
            dtype,
            bytes,
        })
    }

    /// The buffer's element type, as the arena was sized.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Elements in the buffer.
    pub fn len(&self) -> usize {
        M::len(&self.bytes) / self.dtype.bytes()
    }

    /// Whether the buffer holds no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The typed view, where `T` is the buffer's element type: one
    /// comparison, then the view (its length and alignment were checked
    /// when the view was made). A [`DTypeError`] otherwise.
    #[inline]
    pub fn typed<T: Elem>(self) -> Result<M::Slice<'a, T>, DTypeError> {
        // A user `impl Elem` whose size is not its dtype's is refused here,
        // never reinterpreted: the check is on constants, folded away for
        // every type that names its dtype truly.
        if T::DTYPE != self.dtype || size_of::<T>() != T::DTYPE.bytes() {
            return Err(self.mismatch(T::DTYPE, size_of::<T>()));
        }
        // The bytes were checked for the dtype when the view was made, and
        // `T` has its size (and so at most its alignment): the cast holds.
        let (arena, buffer, dtype) = (self.arena, self.buffer, self.dtype);
        cast::<M, T>(arena, buffer, self.bytes).map_err(|_| DTypeError {
            arena,
            buffer,
            dtype,
            asked: T::DTYPE,
            size: size_of::<T>(),
        })
    }

    #[cold]
    #[inline(never)]
    fn mismatch(&self, asked: DType, size: usize) -> DTypeError {
        DTypeError {
            size,
            arena: self.arena,
            buffer: self.buffer,
            dtype: self.dtype,
            asked,
        }
    }

    /// The untyped bytes.
    pub fn into_bytes(self) -> M::Bytes<'a> {
        self.bytes
    }
}

impl<M: Memory> fmt::Debug for DynView<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynView")
            .field("arena", &self.arena)
            .field("buffer", &self.buffer)
            .field("dtype", &self.dtype)
            .field("len", &self.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;

    #[test]
    fn typed_where_the_dtype_matches_an_error_naming_both_where_not() {
        let mut buf = vec![0u64; 8];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut buf);
        let view = DynView::<Host>::new("A", "act", DType::BF16, &mut bytes[..32]).unwrap();
        assert_eq!((view.dtype(), view.len()), (DType::BF16, 16));
        let e = view.typed::<f32>().unwrap_err();
        assert_eq!(
            e,
            DTypeError {
                arena: "A",
                buffer: "act",
                dtype: DType::BF16,
                asked: DType::F32,
                size: 4
            }
        );
        assert_eq!(
            e.to_string(),
            "`A.act` holds bf16 elements, not f32: take it as `typed::<bf16>()`"
        );
        // The bytes are still there, and usable as the right type.
        let view = DynView::<Host>::new("A", "act", DType::BF16, &mut bytes[..32]).unwrap();
        let typed = view.typed::<bf16>().unwrap();
        typed.fill(bf16::ONE);
        assert_eq!(typed.len(), 16);
        let view = DynView::<Host>::new("A", "act", DType::F32, &mut bytes[..32]).unwrap();
        assert_eq!(view.typed::<f32>().unwrap()[0].to_bits(), 0x3F80_3F80);
        let view = DynView::<Host>::new("A", "act", DType::U8, &mut bytes[..3]).unwrap();
        assert_eq!(view.into_bytes().len(), 3);
    }

    #[test]
    fn bytes_that_are_not_whole_or_aligned_elements_are_refused() {
        let mut buf = vec![0u64; 4];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut buf);
        let e = DynView::<Host>::new("A", "act", DType::F32, &mut bytes[..6]).unwrap_err();
        assert!(e.to_string().contains("`A.act`"), "{e}");
        assert!(DynView::<Host>::new("A", "act", DType::F64, &mut bytes[4..12]).is_err());
        // An empty buffer is an empty view wherever it sits.
        let view = DynView::<Host>::new("A", "act", DType::F64, &mut bytes[3..3]).unwrap();
        assert!(view.is_empty());
        assert!(view.typed::<f64>().unwrap().is_empty());
    }
}

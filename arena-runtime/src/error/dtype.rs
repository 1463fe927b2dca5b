//! Element types' errors: a text that names none, a view in the wrong type.

use std::fmt;

use crate::dtype::DType;

/// A text that names no [`DType`]: the text, as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDType(pub String);

impl fmt::Display for UnknownDType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not an element type: expected one of u8, i8, u16, i16, u32, i32, u64, i64, \
             f16, bf16, f32, f64, f8e4m3, f8e5m2, f4e2m1x2, e8m0, or a Hugging Face / PyTorch \
             name (bfloat16, float16, half, float32, float, float64, double, int8, uint8, int16, \
             int32, int64, float8_e4m3fn, float8_e5m2, with or without `torch.`)",
            self.0
        )
    }
}

impl std::error::Error for UnknownDType {}

/// A typed view asked of a [`DynView`](crate::DynView) in another element type than its
/// buffer's (or in a type whose size is not its [`Elem::DTYPE`](crate::Elem::DTYPE)'s: a wrong
/// user `impl Elem`): names the arena, the buffer, its dtype and the type
/// asked for. Nothing changes: the slab and its other views stay usable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DTypeError {
    /// The derived struct.
    pub arena: &'static str,
    /// The buffer.
    pub buffer: &'static str,
    /// Its element type, as sized.
    pub dtype: DType,
    /// The type asked for.
    pub asked: DType,
    /// The size in bytes of the Rust type asked for (`asked.bytes()` for
    /// every type that names its dtype truly).
    pub size: usize,
}

impl fmt::Display for DTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.size != self.asked.bytes() {
            return write!(
                f,
                "`{}.{}`: the type asked for says it is {} (`Elem::DTYPE`) but takes {} bytes where {} takes {}: its `impl Elem` is wrong",
                self.arena,
                self.buffer,
                self.asked,
                self.size,
                self.asked,
                self.asked.bytes()
            );
        }
        write!(
            f,
            "`{}.{}` holds {} elements, not {}: take it as `typed::<{}>()`",
            self.arena, self.buffer, self.dtype, self.asked, self.dtype
        )
    }
}

impl std::error::Error for DTypeError {}

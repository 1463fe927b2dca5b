//! A text that names no element type: `DType`'s parse error (its own
//! file, so that `dtype.rs` and the errors read one way).

use std::fmt;

/// A text that names no [`DType`](crate::DType): the text, as given.
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

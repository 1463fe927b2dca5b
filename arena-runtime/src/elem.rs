//! The low-precision element types of today's kernels: FP8 (E4M3, E5M2),
//! packed FP4 (E2M1, two a byte) and the MX block scale (E8M0).
//!
//! The FP8 types are the `float8` crate's, which are plain data (`Pod`).
//! The `float4` crate's types are not `Pod` (it has no `bytemuck` support),
//! so a view of them over slab bytes cannot be taken safely; [`F4E2M1x2`]
//! and [`E8M0`] here are one-byte plain-data types with the same layout,
//! converting to and from `float4`'s for arithmetic.

pub use float8::{F8E4M3, F8E5M2};

/// Two FP4 (E2M1) values packed in a byte, the low nibble first: the layout
/// of CUDA's `__nv_fp4x2_e2m1`. A buffer's shape counts bytes (pairs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct F4E2M1x2(pub u8);

/// The MX block scale: an 8-bit exponent, the value `2^(bits - 127)`
/// (`0xFF` is NaN): the layout of CUDA's `__nv_fp8_e8m0`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct E8M0(pub u8);

impl F4E2M1x2 {
    /// The pair of `lo` and `hi` as `float4` packs them.
    pub fn from_f32_pair(lo: f32, hi: f32) -> Self {
        float4::F4E2M1x2::from_f32_pair(lo, hi).into()
    }

    /// The two values, low nibble first.
    pub fn to_f32_pair(self) -> (f32, f32) {
        float4::F4E2M1x2::from(self).to_f32_pair()
    }
}

impl E8M0 {
    /// The scale for `value`, as `float4` rounds it (up to a power of two).
    pub fn from_f64(value: f64) -> Self {
        float4::E8M0::from_f64(value).into()
    }

    /// The scale's value.
    pub fn to_f64(self) -> f64 {
        float4::E8M0::from(self).to_f64()
    }
}

impl From<float4::F4E2M1x2> for F4E2M1x2 {
    fn from(v: float4::F4E2M1x2) -> Self {
        F4E2M1x2(v.to_bits())
    }
}

impl From<F4E2M1x2> for float4::F4E2M1x2 {
    fn from(v: F4E2M1x2) -> Self {
        float4::F4E2M1x2::from_bits(v.0)
    }
}

impl From<float4::E8M0> for E8M0 {
    fn from(v: float4::E8M0) -> Self {
        E8M0(v.to_bits())
    }
}

impl From<E8M0> for float4::E8M0 {
    fn from(v: E8M0) -> Self {
        float4::E8M0::from_bits(v.0)
    }
}

#[cfg(feature = "cuda")]
mod device {
    use super::{E8M0, F4E2M1x2};
    use cudarc::driver::{DeviceRepr, ValidAsZeroBits};

    // SAFETY: one byte, `repr(transparent)` over `u8`, any bits valid: the
    // layout of CUDA's `__nv_fp4x2_e2m1` and `__nv_fp8_e8m0`.
    unsafe impl DeviceRepr for F4E2M1x2 {}
    // SAFETY: as above.
    unsafe impl DeviceRepr for E8M0 {}
    // SAFETY: zero bits are the value pair (0, 0) and the scale 2^-127.
    unsafe impl ValidAsZeroBits for F4E2M1x2 {}
    // SAFETY: as above.
    unsafe impl ValidAsZeroBits for E8M0 {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip_through_float4() {
        let p = F4E2M1x2::from_f32_pair(1.5, -2.0);
        assert_eq!(p.to_f32_pair(), (1.5, -2.0));
        assert_eq!(F4E2M1x2::from(float4::F4E2M1x2::from(p)), p);
        let s = E8M0::from_f64(8.0);
        assert_eq!(s.0, 127 + 3);
        assert_eq!(s.to_f64(), 8.0);
        assert!(E8M0(0xFF).to_f64().is_nan());
    }
}

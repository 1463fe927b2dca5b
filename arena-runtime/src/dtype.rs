//! Element types as values: [`DType`], the element type a buffer holds when
//! the engine picks it at run time (from a config's `torch_dtype`, say), and
//! [`Elem`], the static element types that name one.

use core::fmt;
use core::str::FromStr;

use half::{bf16, f16};

use crate::elem::{E8M0, F4E2M1x2, F8E4M3, F8E5M2};
use crate::error::UnknownDType;

/// An element type chosen at run time: every element type the derive knows
/// by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DType {
    /// `u8`
    U8,
    /// `i8`
    I8,
    /// `u16`
    U16,
    /// `i16`
    I16,
    /// `u32`
    U32,
    /// `i32`
    I32,
    /// `u64`
    U64,
    /// `i64`
    I64,
    /// IEEE half precision, `f16`.
    F16,
    /// bfloat16, `bf16`.
    BF16,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// FP8 E4M3 (`float8_e4m3fn`), `f8e4m3`.
    F8E4M3,
    /// FP8 E5M2, `f8e5m2`.
    F8E5M2,
    /// Two FP4 E2M1 values a byte, `f4e2m1x2`.
    F4E2M1x2,
    /// The MX block scale, `e8m0`.
    E8M0,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 16] = [
        DType::U8,
        DType::I8,
        DType::U16,
        DType::I16,
        DType::U32,
        DType::I32,
        DType::U64,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::F8E4M3,
        DType::F8E5M2,
        DType::F4E2M1x2,
        DType::E8M0,
    ];

    /// Bytes of one element (a packed FP4 pair is one byte).
    pub const fn bytes(self) -> usize {
        match self {
            DType::U8 | DType::I8 | DType::F8E4M3 | DType::F8E5M2 | DType::F4E2M1x2 => 1,
            DType::E8M0 => 1,
            DType::U16 | DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::U32 | DType::I32 | DType::F32 => 4,
            DType::U64 | DType::I64 | DType::F64 => 8,
        }
    }

    /// The derive's own spelling: `"bf16"`, `"f8e4m3"`, ...
    pub const fn name(self) -> &'static str {
        match self {
            DType::U8 => "u8",
            DType::I8 => "i8",
            DType::U16 => "u16",
            DType::I16 => "i16",
            DType::U32 => "u32",
            DType::I32 => "i32",
            DType::U64 => "u64",
            DType::I64 => "i64",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::F8E4M3 => "f8e4m3",
            DType::F8E5M2 => "f8e5m2",
            DType::F4E2M1x2 => "f4e2m1x2",
            DType::E8M0 => "e8m0",
        }
    }

    /// The largest alignment of any dtype's element (`u64`, `i64`, `f64`):
    /// where a buffer whose dtype is chosen at run time starts, so that its
    /// view in whichever dtype is aligned.
    pub const MAX_ALIGN: usize = 8;

    /// The dtype the derive's own spelling names (`"bf16"`, `"f8e4m3"`,
    /// ...), as [`DType::name`] gives it; `None` for any other text. For
    /// the Hugging Face and PyTorch spellings, parse with [`FromStr`].
    pub const fn from_name(name: &str) -> Option<DType> {
        let mut i = 0;
        while i < DType::ALL.len() {
            let d = DType::ALL[i];
            if eq(d.name().as_bytes(), name.as_bytes()) {
                return Some(d);
            }
            i += 1;
        }
        None
    }

    /// The bytes a buffer of this dtype is filled with in poison mode,
    /// repeated: a quiet NaN for the float formats that have one (bf16, f16,
    /// f32, f64, both FP8 formats, the E8M0 scale), `0xA5` for integers and
    /// FP4 (which has no NaN). Little-endian, as the GPU reads them.
    pub const fn poison(self) -> &'static [u8] {
        match self {
            DType::F32 => &[0x00, 0x00, 0xC0, 0x7F],
            DType::F64 => &[0, 0, 0, 0, 0, 0, 0xF8, 0x7F],
            DType::BF16 => &[0xC0, 0x7F],
            DType::F16 => &[0x00, 0x7E],
            DType::F8E4M3 => &[0x7F],
            DType::F8E5M2 => &[0x7E],
            DType::E8M0 => &[0xFF],
            _ => &[0xA5],
        }
    }

    /// A floating-point format (FP8, FP4 and the E8M0 scale included), not
    /// an integer.
    pub const fn is_float(self) -> bool {
        !matches!(
            self,
            DType::U8
                | DType::I8
                | DType::U16
                | DType::I16
                | DType::U32
                | DType::I32
                | DType::U64
                | DType::I64
        )
    }
}

/// Byte-wise equality, usable in a `const fn`.
const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = UnknownDType;

    /// The derive's names and the Hugging Face / PyTorch spellings
    /// (`torch_dtype` in a config.json), with or without `torch.`, in any
    /// ASCII case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let lower = text.trim().to_ascii_lowercase();
        let name = lower.strip_prefix("torch.").unwrap_or(&lower);
        if let Some(d) = DType::ALL.into_iter().find(|d| d.name() == name) {
            return Ok(d);
        }
        Ok(match name {
            "bfloat16" => DType::BF16,
            "float16" | "half" => DType::F16,
            "float32" | "float" => DType::F32,
            "float64" | "double" => DType::F64,
            "int8" => DType::I8,
            "uint8" => DType::U8,
            "int16" => DType::I16,
            "uint16" => DType::U16,
            "int32" => DType::I32,
            "uint32" => DType::U32,
            "int64" => DType::I64,
            "uint64" => DType::U64,
            "float8_e4m3fn" => DType::F8E4M3,
            "float8_e5m2" => DType::F8E5M2,
            _ => return Err(UnknownDType(text.to_owned())),
        })
    }
}

/// A built-in element type and the [`DType`] that names it.
///
/// An implementation for a type of your own must name a dtype of its size
/// (`size_of::<T>() == T::DTYPE.bytes()`): [`DynView::typed`](crate::DynView::typed)
/// refuses another with a [`DTypeError`](crate::DTypeError), never a panic.
pub trait Elem: bytemuck::Pod {
    /// The dtype of this type.
    const DTYPE: DType;
}

macro_rules! elems {
    ($($t:ty => $d:ident,)*) => {$(
        impl Elem for $t {
            const DTYPE: DType = DType::$d;
        }
    )*};
}

elems! {
    u8 => U8,
    i8 => I8,
    u16 => U16,
    i16 => I16,
    u32 => U32,
    i32 => I32,
    u64 => U64,
    i64 => I64,
    f16 => F16,
    bf16 => BF16,
    f32 => F32,
    f64 => F64,
    F8E4M3 => F8E4M3,
    F8E5M2 => F8E5M2,
    F4E2M1x2 => F4E2M1x2,
    E8M0 => E8M0,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poison_is_a_nan_of_each_float_with_one_and_0xa5_else() {
        use half::{bf16, f16};
        let nan32 = f32::from_le_bytes(DType::F32.poison().try_into().unwrap());
        let nan64 = f64::from_le_bytes(DType::F64.poison().try_into().unwrap());
        let b16 = bf16::from_le_bytes(DType::BF16.poison().try_into().unwrap());
        let h16 = f16::from_le_bytes(DType::F16.poison().try_into().unwrap());
        assert!(nan32.is_nan() && nan64.is_nan() && b16.is_nan() && h16.is_nan());
        // FP8 E4M3: S.1111.111; E5M2: S.11111.10; E8M0: 0xFF.
        assert_eq!(DType::F8E4M3.poison(), [0x7F]);
        assert_eq!(DType::F8E5M2.poison(), [0x7E]);
        assert_eq!(DType::E8M0.poison(), [0xFF]);
        for d in DType::ALL {
            assert_eq!(DType::from_name(d.name()), Some(d));
            if !d.is_float() || d == DType::F4E2M1x2 {
                assert_eq!(d.poison(), [0xA5], "{d}");
            } else {
                assert_eq!(d.poison().len(), d.bytes(), "{d}");
            }
        }
        assert_eq!(
            DType::from_name("bfloat16"),
            None,
            "the derive's names only"
        );
    }

    #[test]
    fn names_sizes_and_spellings() {
        for d in DType::ALL {
            assert_eq!(d.name().parse::<DType>(), Ok(d));
            assert_eq!(d.to_string(), d.name());
            assert_eq!(format!("torch.{}", d.name()).parse::<DType>(), Ok(d));
        }
        let sizes: Vec<usize> = DType::ALL.iter().map(|d| d.bytes()).collect();
        assert_eq!(sizes, [1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 1, 1, 1, 1]);
        for (text, d) in [
            ("bfloat16", DType::BF16),
            ("torch.bfloat16", DType::BF16),
            ("float16", DType::F16),
            ("half", DType::F16),
            ("float32", DType::F32),
            ("float", DType::F32),
            ("torch.float", DType::F32),
            ("float64", DType::F64),
            ("double", DType::F64),
            ("int8", DType::I8),
            ("uint8", DType::U8),
            ("int16", DType::I16),
            ("int32", DType::I32),
            ("int64", DType::I64),
            ("float8_e4m3fn", DType::F8E4M3),
            ("torch.float8_e5m2", DType::F8E5M2),
            ("BF16", DType::BF16),
        ] {
            assert_eq!(text.parse::<DType>(), Ok(d), "{text}");
        }
        let e = "complex64".parse::<DType>().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("`complex64` is not an element type"),
            "{e}"
        );
        assert!("".parse::<DType>().is_err());
        assert!(DType::BF16.is_float() && DType::E8M0.is_float() && !DType::I32.is_float());
    }

    #[test]
    fn every_element_type_names_its_dtype() {
        fn check<T: Elem>(name: &str) {
            assert_eq!(T::DTYPE.name(), name);
            assert_eq!(T::DTYPE.bytes(), core::mem::size_of::<T>());
        }
        check::<u8>("u8");
        check::<i8>("i8");
        check::<u16>("u16");
        check::<i16>("i16");
        check::<u32>("u32");
        check::<i32>("i32");
        check::<u64>("u64");
        check::<i64>("i64");
        check::<f16>("f16");
        check::<bf16>("bf16");
        check::<f32>("f32");
        check::<f64>("f64");
        check::<F8E4M3>("f8e4m3");
        check::<F8E5M2>("f8e5m2");
        check::<F4E2M1x2>("f4e2m1x2");
        check::<E8M0>("e8m0");
    }
}

//! [`Checked`]: a size whose arithmetic is checked, so the code generated for
//! a formula reads as the formula: `2 * M * h` becomes `n(2) * M * h`, and
//! an overflow anywhere in it is carried to the end as a [`Fault`], where
//! [`Sizing`] turns it into a [`SizeError`] naming the arena, the item and
//! the formula.

use core::ops::{Add, Div, Mul, Rem, Sub};

use crate::arith::{self, Step, ToSize};
use crate::error::{Fault, SizeError};

/// A size, or the first fault met while computing it.
///
/// Every operator is checked: `+` and `*` past `usize::MAX`, `-` below zero
/// and `/` or `%` by zero give a fault instead of wrapping or panicking. The
/// right operand may be any integer (`ToSize`); a `usize` on the left works
/// too (`2 * n(M)`).
///
/// ```
/// use arena_runtime::checked::{Checked, n};
///
/// let (m, h) = (100usize, 2048usize);
/// assert_eq!((n(2) * m * h).get(), Ok(409_600));
/// assert!((n(usize::MAX) * 2).get().is_err());
/// assert_eq!(n(7) - 8, Checked::from(arena_runtime::Fault::Underflow));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked(Step);

impl Checked {
    /// A size.
    #[inline]
    pub const fn new(v: usize) -> Self {
        Checked(Ok(v))
    }

    /// The size, or the fault that stopped it.
    #[inline]
    pub const fn get(self) -> Result<usize, Fault> {
        self.0
    }
}

impl From<usize> for Checked {
    #[inline]
    fn from(v: usize) -> Self {
        Checked(Ok(v))
    }
}

impl From<Fault> for Checked {
    #[inline]
    fn from(f: Fault) -> Self {
        Checked(Err(f))
    }
}

impl From<Step> for Checked {
    #[inline]
    fn from(s: Step) -> Self {
        Checked(s)
    }
}

impl ToSize for Checked {
    #[inline]
    fn to_size(self) -> Step {
        self.0
    }
}

/// Lifts a value (a `usize`, any integer a config holds, or a [`Checked`])
/// into checked arithmetic; an integer that does not fit in `usize` is a
/// [`Fault::DoesNotFit`].
#[inline]
pub fn n<T: ToSize>(v: T) -> Checked {
    Checked(v.to_size())
}

/// A value as a plain `usize`, for a comparison or a call of plain Rust code:
/// `int(config.num_experts)? > 0`.
#[inline]
pub fn int<T: ToSize>(v: T) -> Result<usize, Fault> {
    v.to_size()
}

/// Applies `op` to two steps, the left fault first.
#[inline(always)]
fn both(a: Step, b: Step, op: fn(usize, usize) -> Step) -> Checked {
    Checked(match (a, b) {
        (Ok(a), Ok(b)) => op(a, b),
        (Err(e), _) | (_, Err(e)) => Err(e),
    })
}

macro_rules! checked_op {
    ($($trait:ident $method:ident $f:path;)*) => {$(
        impl<T: ToSize> $trait<T> for Checked {
            type Output = Checked;
            #[inline(always)]
            fn $method(self, rhs: T) -> Checked {
                both(self.0, rhs.to_size(), $f)
            }
        }
        impl $trait<Checked> for usize {
            type Output = Checked;
            #[inline(always)]
            fn $method(self, rhs: Checked) -> Checked {
                both(Ok(self), rhs.0, $f)
            }
        }
    )*};
}

checked_op! {
    Add add arith::add;
    Sub sub arith::sub;
    Mul mul arith::mul;
    Div div arith::div;
    Rem rem arith::rem;
}

/// `x` rounded up to a multiple of 16 (the cuBLASLt row pad).
#[inline]
pub fn ceil16(x: impl ToSize) -> Checked {
    Checked(x.to_size().and_then(arith::ceil16))
}

/// The smallest power of two at or above `x` (1 for 0): CUDA-graph batch
/// buckets. Past `usize::MAX` is a fault.
#[inline]
pub fn next_pow2(x: impl ToSize) -> Checked {
    Checked(x.to_size().and_then(arith::next_pow2))
}

/// `⌈a / b⌉`; `b = 0` is a fault.
#[inline]
pub fn div_ceil(a: impl ToSize, b: impl ToSize) -> Checked {
    both(a.to_size(), b.to_size(), arith::div_ceil)
}

/// The smallest multiple of `q` at or above `x`; `q = 0` is a fault.
#[inline]
pub fn round_up(x: impl ToSize, q: impl ToSize) -> Checked {
    both(x.to_size(), q.to_size(), arith::round_up)
}

/// The larger of two sizes (`max(a, b, c)` is `max(max(a, b), c)`).
#[inline]
pub fn max(a: impl ToSize, b: impl ToSize) -> Checked {
    both(a.to_size(), b.to_size(), |a, b| Ok(arith::max(a, b)))
}

/// The smaller of two sizes.
#[inline]
pub fn min(a: impl ToSize, b: impl ToSize) -> Checked {
    both(a.to_size(), b.to_size(), |a, b| Ok(arith::min(a, b)))
}

/// `x` limited to `[lo, hi]`; `lo > hi` is a fault.
#[inline]
pub fn clamp(x: impl ToSize, lo: impl ToSize, hi: impl ToSize) -> Checked {
    Checked(match (x.to_size(), lo.to_size(), hi.to_size()) {
        (Ok(x), Ok(lo), Ok(hi)) => arith::clamp(x, lo, hi),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e),
    })
}

/// The sizing of one arena: turns a formula's fault into a [`SizeError`]
/// naming the arena, the item and the formula, stated once per formula in
/// the generated code.
#[derive(Debug, Clone, Copy)]
pub struct Sizing {
    arena: &'static str,
}

impl Sizing {
    /// The sizing of the arena `arena`.
    #[inline]
    pub const fn new(arena: &'static str) -> Self {
        Sizing { arena }
    }

    #[cold]
    #[inline(never)]
    fn fail(self, item: &'static str, formula: &'static str, fault: Fault) -> SizeError {
        SizeError::formula(self.arena, item, formula, fault)
    }

    /// The size `item` gets from `formula`, whose value is `v`.
    #[inline]
    pub fn size(
        self,
        item: &'static str,
        formula: &'static str,
        v: Checked,
    ) -> Result<usize, SizeError> {
        match v.0 {
            Ok(v) => Ok(v),
            Err(f) => Err(self.fail(item, formula, f)),
        }
    }

    /// [`Sizing::size`] for a formula that compares or calls plain Rust code
    /// on the way (its code uses `?`).
    #[inline]
    pub fn size_with<T: Into<Checked>>(
        self,
        item: &'static str,
        formula: &'static str,
        f: impl FnOnce() -> Result<T, Fault>,
    ) -> Result<usize, SizeError> {
        self.size(item, formula, f().map_or_else(Checked::from, Into::into))
    }

    /// A condition or a plain Rust value of `item` from `formula`.
    #[inline]
    pub fn value<T>(
        self,
        item: &'static str,
        formula: &'static str,
        f: impl FnOnce() -> Result<T, Fault>,
    ) -> Result<T, SizeError> {
        f().map_err(|fault| self.fail(item, formula, fault))
    }

    /// Checks that buffer `field` holds a whole number of `elem_bytes` elements.
    #[inline]
    pub fn whole_elements(
        self,
        field: &'static str,
        bytes: usize,
        elem_bytes: usize,
    ) -> Result<(), SizeError> {
        if elem_bytes > 1 && !bytes.is_multiple_of(elem_bytes) {
            return Err(SizeError::NotWholeElements {
                arena: self.arena,
                field,
                bytes,
                elem_bytes,
            });
        }
        Ok(())
    }

    /// Checks that the nested region `field` holds its layout.
    #[inline]
    pub fn region_holds(
        self,
        field: &'static str,
        region_bytes: usize,
        inner_bytes: usize,
    ) -> Result<(), SizeError> {
        if region_bytes < inner_bytes {
            return Err(SizeError::RegionTooSmall {
                arena: self.arena,
                field,
                region_bytes,
                inner_bytes,
            });
        }
        Ok(())
    }

    /// Checks that `sum`, the fields of `A` counted in `total_bytes()` added
    /// in 128 bits, fits in a `usize`, so `total_bytes()` never saturates. On
    /// overflow, `parts` (those fields' bytes, in declaration order) names the
    /// first field at which the sum passes `usize::MAX`.
    #[inline]
    pub fn total<A: crate::Arena, const N: usize>(
        self,
        sum: Wide,
        parts: impl FnOnce() -> [usize; N],
    ) -> Result<(), SizeError> {
        if sum.0 <= usize::MAX as u128 {
            return Ok(());
        }
        Err(self.total_overflow(&crate::table::total_names::<A, N>(), &parts()))
    }

    #[cold]
    #[inline(never)]
    fn total_overflow(self, names: &[&'static str], parts: &[usize]) -> SizeError {
        let mut total = 0usize;
        let mut field = "";
        for (&name, &bytes) in names.iter().zip(parts) {
            match total.checked_add(bytes) {
                Some(t) => total = t,
                None => {
                    field = name;
                    break;
                }
            }
        }
        SizeError::SlabOverflow {
            arena: self.arena,
            field,
        }
    }
}

/// Sizes an arena for one step with `build`, handing it the dimensions to
/// fill: the body of a generated `try_step_with`.
#[inline]
pub fn with_shapes<A, S: Default>(
    build: impl FnOnce(&mut S) -> Result<(A, usize), SizeError>,
) -> Result<(A, S), SizeError> {
    let mut shapes = S::default();
    let (sized, _) = build(&mut shapes)?;
    Ok((sized, shapes))
}

/// Sizes an arena with `build`, without its step dimensions: the body of a
/// generated `try_from_config_with`.
#[inline(always)]
pub fn sized<A, S: Default>(
    build: impl FnOnce(&mut S) -> Result<(A, usize), SizeError>,
) -> Result<A, SizeError> {
    build(&mut S::default()).map(|(sized, _)| sized)
}

/// The value of a sizing, or a panic with its error at the caller of the
/// generated `from_config`.
#[track_caller]
#[inline]
pub fn or_panic<A, E: core::fmt::Display>(sized: Result<A, E>) -> A {
    match sized {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

/// A sum of sizes in 128 bits, which no sum of fewer than 2^64 sizes
/// overflows: `wide(a) + b + c`, checked once by [`Sizing::total`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wide(u128);

/// Starts a [`Wide`] sum.
#[inline]
pub const fn wide(v: usize) -> Wide {
    Wide(v as u128)
}

impl Add<usize> for Wide {
    type Output = Wide;
    #[inline]
    fn add(self, rhs: usize) -> Wide {
        Wide(self.0 + rhs as u128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_are_checked() {
        let m = 100usize;
        assert_eq!((n(2) * m * 2048usize).get(), Ok(409_600));
        assert_eq!((2 * n(m)).get(), Ok(200));
        assert_eq!((n(usize::MAX) + 1).get(), Err(Fault::Overflow));
        assert_eq!((n(1) - 2).get(), Err(Fault::Underflow));
        assert_eq!((n(1) / 0).get(), Err(Fault::DivisionByZero));
        assert_eq!((n(7) % 4).get(), Ok(3));
        assert_eq!((n(-1i32) + 1).get(), Err(Fault::DoesNotFit));
        // The first fault wins, as in left-to-right evaluation.
        assert_eq!(
            ((n(1) - 2) * (n(usize::MAX) + 1)).get(),
            Err(Fault::Underflow)
        );
    }

    #[test]
    fn builtins() {
        assert_eq!(ceil16(17usize).get(), Ok(32));
        assert_eq!(div_ceil(7usize, 2usize).get(), Ok(4));
        assert_eq!(round_up(5usize, 0usize).get(), Err(Fault::DivisionByZero));
        assert_eq!(max(max(1usize, n(5)), 3u32).get(), Ok(5));
        assert_eq!(min(4usize, 9usize).get(), Ok(4));
        assert_eq!(clamp(20usize, 1usize, 16usize).get(), Ok(16));
        assert_eq!(clamp(0usize, 2usize, 1usize).get(), Err(Fault::EmptyClamp));
        assert_eq!(ceil16(n(usize::MAX)).get(), Err(Fault::Overflow));
    }

    #[test]
    fn sizing_names_the_culprit() {
        let s = Sizing::new("A");
        assert_eq!(s.size("x", "2 * M", n(2) * 3), Ok(6));
        let e = s.size("x", "M - 1", n(0) - 1).unwrap_err();
        assert_eq!(e.to_string(), "`A.x`: formula `M - 1` goes below zero");
        let c = s.value("y", "f(M) > 0", || Ok(int(n(3) * 2)? > 5));
        assert_eq!(c, Ok(true));
        assert_eq!(
            s.size_with("z", "f", || Ok(int(n(1) - 2)? + 1)),
            Err(SizeError::formula("A", "z", "f", Fault::Underflow))
        );
    }
}

//! [`Checked`]: a size whose arithmetic is checked, so the code generated for
//! a formula reads as the formula: `2 * M * h` becomes `n(2) * M * h`, and
//! an overflow anywhere in it is carried to the end as a [`Fault`], where
//! the generated code turns it into a [`SizeError`](crate::SizeError)
//! naming the arena, the item and the formula.

use core::ops::{Add, Div, Mul, Rem, Sub};

use crate::arith::{self, Step, ToSize};
use crate::error::Fault;

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
}

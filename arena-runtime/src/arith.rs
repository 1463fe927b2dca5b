//! Checked arithmetic of the formula language. Every operation a formula can
//! perform on sizes is here, so the generated code holds no arithmetic of its own.

use crate::error::Fault;

/// Result of one formula step.
pub type Step = Result<usize, Fault>;

/// `a + b`, checked.
#[inline]
pub const fn add(a: usize, b: usize) -> Step {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(Fault::Overflow),
    }
}

/// `a - b`, checked: a size never goes below zero.
#[inline]
pub const fn sub(a: usize, b: usize) -> Step {
    match a.checked_sub(b) {
        Some(v) => Ok(v),
        None => Err(Fault::Underflow),
    }
}

/// `a * b`, checked.
#[inline]
pub const fn mul(a: usize, b: usize) -> Step {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(Fault::Overflow),
    }
}

/// `a / b`, truncating; `b = 0` is an error.
#[inline]
pub const fn div(a: usize, b: usize) -> Step {
    match a.checked_div(b) {
        Some(v) => Ok(v),
        None => Err(Fault::DivisionByZero),
    }
}

/// `a % b`; `b = 0` is an error.
#[inline]
pub const fn rem(a: usize, b: usize) -> Step {
    match a.checked_rem(b) {
        Some(v) => Ok(v),
        None => Err(Fault::DivisionByZero),
    }
}

/// `⌈a / b⌉`; `b = 0` is an error.
#[inline]
pub const fn div_ceil(a: usize, b: usize) -> Step {
    if b == 0 {
        return Err(Fault::DivisionByZero);
    }
    // Cannot overflow: the quotient is at most `a`.
    Ok(a / b + !a.is_multiple_of(b) as usize)
}

/// `q · ⌈x / q⌉`, the smallest multiple of `q` at or above `x`.
#[inline]
pub const fn round_up(x: usize, q: usize) -> Step {
    match div_ceil(x, q) {
        Ok(n) => mul(n, q),
        Err(e) => Err(e),
    }
}

/// `x` rounded up to a multiple of 16 (the cuBLASLt row pad).
#[inline]
pub const fn ceil16(x: usize) -> Step {
    round_up(x, 16)
}

/// The smallest power of two at or above `x` (1 for 0, as Rust's
/// `next_power_of_two`); past `usize::MAX` is an overflow.
#[inline]
pub const fn next_pow2(x: usize) -> Step {
    match x.checked_next_power_of_two() {
        Some(p) => Ok(p),
        None => Err(Fault::Overflow),
    }
}

/// The larger of two sizes.
#[inline]
pub const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The smaller of two sizes.
#[inline]
pub const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

/// `x` limited to `[lo, hi]`; `lo > hi` is an error rather than a panic.
#[inline]
pub const fn clamp(x: usize, lo: usize, hi: usize) -> Step {
    if lo > hi {
        return Err(Fault::EmptyClamp);
    }
    Ok(min(max(x, lo), hi))
}

/// A value produced by plain Rust code (a config field, a method, a function)
/// that a formula uses as a size.
#[diagnostic::on_unimplemented(
    message = "a formula uses a value of type `{Self}` as a number, which it is not",
    label = "this is a `{Self}`, where the formula needs an integer (`usize`, `u32`, `i64`, ...)",
    note = "a `bool` is a condition: write `if c {{ a }} else {{ b }}`, or put it in `when = ...`",
    note = "another type needs converting in Rust first: a method or function that returns an integer"
)]
pub trait ToSize {
    /// The value as `usize`, or [`Fault::DoesNotFit`].
    fn to_size(self) -> Step;
}

macro_rules! to_size_lossless {
    ($($t:ty),*) => {$(
        impl ToSize for $t {
            #[inline]
            fn to_size(self) -> Step {
                usize::try_from(self).map_err(|_| Fault::DoesNotFit)
            }
        }
        impl ToSize for &$t {
            #[inline]
            fn to_size(self) -> Step {
                (*self).to_size()
            }
        }
    )*};
}
to_size_lossless!(
    usize, u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, isize
);

/// `a == "literal"` for any string-like config field.
#[inline]
pub fn str_eq<S: AsRef<str> + ?Sized>(a: &S, b: &str) -> bool {
    a.as_ref() == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(ceil16(0), Ok(0));
        assert_eq!(ceil16(1), Ok(16));
        assert_eq!(ceil16(16), Ok(16));
        assert_eq!(ceil16(17), Ok(32));
        assert_eq!(round_up(5, 4), Ok(8));
        assert_eq!(round_up(5, 0), Err(Fault::DivisionByZero));
        assert_eq!(div_ceil(7, 2), Ok(4));
        assert_eq!(div_ceil(usize::MAX, 1), Ok(usize::MAX));
        assert_eq!(div_ceil(usize::MAX, 2), Ok(usize::MAX / 2 + 1));
        assert_eq!(ceil16(usize::MAX), Err(Fault::Overflow));
    }

    #[test]
    fn checked_ops() {
        assert_eq!(add(usize::MAX, 1), Err(Fault::Overflow));
        assert_eq!(mul(usize::MAX, 2), Err(Fault::Overflow));
        assert_eq!(sub(1, 2), Err(Fault::Underflow));
        assert_eq!(div(1, 0), Err(Fault::DivisionByZero));
        assert_eq!(rem(7, 0), Err(Fault::DivisionByZero));
        assert_eq!(rem(7, 4), Ok(3));
        assert_eq!(clamp(20, 1, 16), Ok(16));
        assert_eq!(clamp(0, 1, 16), Ok(1));
        assert_eq!(clamp(0, 2, 1), Err(Fault::EmptyClamp));
    }

    #[test]
    fn conversions() {
        assert_eq!(3u32.to_size(), Ok(3));
        assert_eq!((-1i32).to_size(), Err(Fault::DoesNotFit));
        let seven: &usize = &7;
        assert_eq!(seven.to_size(), Ok(7));
        assert!(str_eq(&String::from("glm"), "glm"));
        assert!(!str_eq("glm", "glm5"));
    }
}

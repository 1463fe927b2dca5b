//! The sizing plumbing of generated code: [`Sizing`] names the culprit of a
//! formula's fault, [`Wide`] sums sizes in 128 bits, and the wrappers the
//! constructors call. Reached by generated code through `__private` only.

use core::ops::Add;

use crate::checked::Checked;
use crate::error::{Fault, SizeError};

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
        match v.get() {
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
    use crate::checked::{int, n};

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

//! A view taken in the wrong element type.

use std::fmt;

use crate::dtype::DType;

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

//! What the planner places: [`Item`], and the alignment arithmetic every
//! placement shares.

/// One buffer to place: its bytes, alignment and inclusive phase range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// The field, for errors.
    pub name: &'static str,
    /// Bytes; 0 takes no space.
    pub bytes: usize,
    /// Alignment of its start (a power of two).
    pub align: usize,
    /// First phase it is live in.
    pub first: usize,
    /// Last phase it is live in (inclusive).
    pub last: usize,
}

impl Item {
    /// Whether the two are live in a common phase (an empty range,
    /// `first > last`, is live in none).
    pub const fn overlaps(&self, other: &Item) -> bool {
        self.first <= other.last
            && other.first <= self.last
            && self.first <= self.last
            && other.first <= other.last
    }
}

/// `x` rounded up to `align` (a power of two), or `None` past `usize::MAX`.
pub(super) const fn align_up(x: usize, align: usize) -> Option<usize> {
    match x.checked_add(align - 1) {
        Some(v) => Some(v & !(align - 1)),
        None => None,
    }
}

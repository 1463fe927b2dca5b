//! What every part of the planner shares: [`Item`], the alignment
//! arithmetic every placement shares, and the hash of the shuffled orders.

/// One buffer to place: its bytes, alignment and inclusive phase range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
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

/// A plan: each item's offset, in the order the items were given, and the
/// height of the slab that holds them (the end of the highest item and its
/// guard).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Plan {
    /// Each item's offset.
    pub offsets: Vec<usize>,
    /// Its height: the bytes of the slab that holds it.
    pub height: usize,
}

impl Plan {
    /// A plan of `offsets` whose height is `height`.
    pub(crate) fn new(offsets: Vec<usize>, height: usize) -> Self {
        Plan { offsets, height }
    }
}

/// `x` rounded up to `align` (a power of two), or `None` past `usize::MAX`.
pub(super) const fn align_up(x: usize, align: usize) -> Option<usize> {
    match x.checked_add(align - 1) {
        Some(v) => Some(v & !(align - 1)),
        None => None,
    }
}

/// SplitMix64's finalizer over a seed and an index: a fixed, well-spread hash.
pub(super) const fn mix(seed: u64, k: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The greatest common divisor of `a` and `b`.
pub(super) const fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The steps a sort of `n` items counts for each: `n`'s bit length (a
/// log factor the budget charges, so that it bounds the time).
pub(super) fn log_steps(n: usize) -> u64 {
    u64::from(usize::BITS - n.leading_zeros())
}

/// Greedy's step, the same in every placement of it: from `at` up, the
/// lowest offset that, aligned to `align` (a power of two), holds `foot`
/// bytes below the next of the buffers `taken` (each `(start, end)`, by
/// start, those live with the new one): each buffer it does not fit below
/// raises it to that buffer's end. Unaligned; the caller aligns it with a
/// check. Saturating: a value past `usize::MAX` never fits, and the
/// caller's checked alignment reports it.
#[inline(always)]
pub(super) fn first_fit(
    mut at: usize,
    align: usize,
    foot: usize,
    taken: impl IntoIterator<Item = (usize, usize)>,
) -> usize {
    for (start, end) in taken {
        if fits(at, align, foot, start) {
            break;
        }
        at = at.max(end);
    }
    at
}

/// Whether `foot` bytes at `at` aligned to `align` end at or below `start`.
#[inline(always)]
pub(super) fn fits(at: usize, align: usize, foot: usize, start: usize) -> bool {
    (at.saturating_add(align - 1) & !(align - 1)).saturating_add(foot) <= start
}

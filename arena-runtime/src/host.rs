//! One aligned host allocation carved into an arena's typed views.

use std::alloc::{self, Layout as AllocLayout};
use std::ptr::NonNull;

use crate::error::{CarveError, StepError};
use crate::layout::{Host, Layout};
use crate::{Arena, Carving};

/// The byte every guard gap and padding byte holds while untouched.
pub const GUARD_BYTE: u8 = 0xA5;

/// Zeroed bytes aligned to a power of two, freed on drop.
///
/// Allocated with the allocator's natural alignment and over-sized by `align`,
/// so the system's `calloc` can hand out lazily zeroed pages: a large slab
/// costs nothing until it is touched.
struct AlignedBytes {
    /// Start of the allocation (for `dealloc`).
    base: NonNull<u8>,
    /// Bytes from `base` to the aligned start.
    skip: usize,
    len: usize,
    layout: Option<AllocLayout>,
}

const NATURAL_ALIGN: usize = 16;

impl AlignedBytes {
    fn zeroed(len: usize, align: usize) -> Self {
        if len == 0 {
            return AlignedBytes {
                base: NonNull::dangling(),
                skip: 0,
                len,
                layout: None,
            };
        }
        let total = len.checked_add(align).unwrap_or_else(|| {
            panic!("a slab of {len} bytes aligned to {align} cannot be allocated")
        });
        let layout = AllocLayout::from_size_align(total, NATURAL_ALIGN).unwrap_or_else(|_| {
            panic!("a slab of {len} bytes aligned to {align} cannot be allocated")
        });
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let base = NonNull::new(raw).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        let skip = base.as_ptr().align_offset(align.max(1));
        AlignedBytes {
            base,
            skip,
            len,
            layout: Some(layout),
        }
    }

    fn as_slice(&self) -> &[u8] {
        if self.layout.is_none() {
            return &[];
        }
        // SAFETY: `base + skip .. + len` lies inside the zeroed allocation
        // (`skip < align`, the allocation is `len + align` bytes), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(self.skip), self.len) }
    }

    fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.layout.is_none() {
            return &mut [];
        }
        // SAFETY: as above, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr().add(self.skip), self.len) }
    }
}

impl Drop for AlignedBytes {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: allocated in `zeroed` with this exact layout.
            unsafe { alloc::dealloc(self.base.as_ptr(), layout) }
        }
    }
}

// SAFETY: `AlignedBytes` owns its memory exclusively, like a `Vec<u8>`.
unsafe impl Send for AlignedBytes {}
// SAFETY: shared access only reads.
unsafe impl Sync for AlignedBytes {}

/// A host slab: one zero-filled allocation holding every buffer of an arena.
///
/// See the `arena` crate's documentation for an example.
pub struct HostSlab<A: Arena> {
    arena: A,
    layout: Layout,
    carving: Carving,
    bytes: AlignedBytes,
}

/// Buffers whose guard gap was overwritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardError {
    /// The derived struct.
    pub arena: &'static str,
    /// Every buffer after which a guard byte changed, in slab order.
    pub overrun: Vec<&'static str>,
}

impl std::fmt::Display for GuardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: guard overwritten after ", self.arena)?;
        for (i, name) in self.overrun.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        Ok(())
    }
}

impl std::error::Error for GuardError {}

impl<A: Arena> HostSlab<A> {
    /// Allocates the slab of `arena`, zero-filled, aligned to the arena's alignment.
    pub fn new(arena: A) -> Result<Self, CarveError> {
        Self::with_guard(arena, 0)
    }

    /// Like [`HostSlab::new`], with `guard` bytes after every top-level buffer.
    /// Every byte outside a buffer holds [`GUARD_BYTE`]; [`HostSlab::check_guards`]
    /// names each buffer whose following bytes changed.
    pub fn with_guard(arena: A, guard: usize) -> Result<Self, CarveError> {
        Self::with_carving(arena, Carving::guard(guard))
    }

    /// The slab of an arena with phases laid out without sharing, every
    /// buffer after the other (the same views, for comparison).
    pub fn unplanned(arena: A) -> Result<Self, CarveError> {
        Self::with_carving(
            arena,
            Carving {
                unplanned: true,
                ..Carving::default()
            },
        )
    }

    /// The slab carved as `carving` says: guards, planned or not, poison.
    pub fn with_carving(arena: A, carving: Carving) -> Result<Self, CarveError> {
        let guard = carving.guard;
        let layout = arena.layout_for(carving)?;
        let mut bytes = AlignedBytes::zeroed(layout.slab_bytes, A::REGION_ALIGN.max(1));
        // Carve once: every later `views()` carves the same immutable arena.
        arena
            .carve_planned::<Host>(&arena, bytes.as_mut_slice(), carving, Some(&layout))
            .map_err(CarveError::from)?;
        let mut slab = HostSlab {
            arena,
            layout,
            carving,
            bytes,
        };
        if guard > 0 {
            let gaps = gaps(&slab.layout);
            let mem = slab.bytes.as_mut_slice();
            for (_, start, end) in gaps {
                mem[start..end].fill(GUARD_BYTE);
            }
        }
        Ok(slab)
    }

    /// Every buffer of the arena as a typed view, all alive at once.
    pub fn views(&mut self) -> A::Views<'_, Host> {
        self.arena
            .carve_planned::<Host>(
                &self.arena,
                self.bytes.as_mut_slice(),
                self.carving,
                Some(&self.layout),
            )
            .expect("the slab was carved once when it was allocated")
    }

    /// The views of `step`, the same arena sized for one forward step (for
    /// example `X::try_from_config_with(&levers, &config, 37)`), carved from
    /// this slab's reservation: every view starts at its reserved offset and
    /// has the step's length; guards stay after the reservations. A step
    /// buffer larger than its reservation is a [`StepError::TooLarge`] naming
    /// the arena, the buffer and both sizes; the slab stays usable.
    ///
    /// The views borrow `step` as well as the slab (a one-of region's views
    /// read its alternatives' step sizes when they are taken).
    pub fn views_for<'s>(&'s mut self, step: &'s A) -> Result<A::Views<'s, Host>, StepError> {
        self.arena.carve_planned::<Host>(
            step,
            self.bytes.as_mut_slice(),
            self.carving,
            Some(&self.layout),
        )
    }

    /// Turns poison mode on or off: when a phase's views are taken, every
    /// buffer whose live range begins at that phase is filled with NaN (float
    /// dtypes) or `0xA5` bytes, so a buffer read before it is written (a
    /// `live` range cut short) shows. Arenas without phases are unaffected.
    pub fn set_poison(&mut self, on: bool) {
        self.carving.poison = on;
    }

    /// The arena this slab was allocated for.
    pub fn arena(&self) -> &A {
        &self.arena
    }

    /// The layout the slab was carved with.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The whole slab, read-only.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    /// The whole slab as raw bytes: for copies to and from other memory.
    /// Writing outside a buffer here is what [`HostSlab::check_guards`] catches.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        self.bytes.as_mut_slice()
    }

    /// Checks every guard gap; names each buffer that wrote past its end.
    /// Without guards (`HostSlab::new`) there is nothing to check.
    pub fn check_guards(&self) -> Result<(), GuardError> {
        if self.carving.guard == 0 {
            return Ok(());
        }
        check_gaps(A::NAME, &self.layout, self.bytes.as_slice())
    }
}

/// The bytes after each non-empty top-level buffer up to the next one (or the
/// slab's end) that no buffer covers: where guards and padding live. With
/// planned offsets buffers of different phases overlap; a gap belongs to the
/// buffer that ends last before it.
pub(crate) fn gaps(layout: &Layout) -> Vec<(&'static str, usize, usize)> {
    let mut placed: Vec<_> = layout.placements.iter().filter(|p| p.bytes > 0).collect();
    placed.sort_by_key(|p| (p.offset, p.end()));
    let mut gaps = Vec::with_capacity(placed.len());
    let mut last: Option<(&'static str, usize)> = None;
    for p in &placed {
        if let Some((name, end)) = last {
            if p.offset > end {
                gaps.push((name, end, p.offset));
            }
        }
        if last.is_none_or(|(_, end)| p.end() >= end) {
            last = Some((p.name, p.end()));
        }
    }
    if let Some((name, end)) = last {
        gaps.push((name, end, layout.slab_bytes.max(end)));
    }
    gaps
}

/// Names every buffer whose following gap no longer holds [`GUARD_BYTE`].
pub(crate) fn check_gaps(
    arena: &'static str,
    layout: &Layout,
    mem: &[u8],
) -> Result<(), GuardError> {
    let overrun: Vec<_> = gaps(layout)
        .into_iter()
        .filter(|&(_, s, e)| {
            mem.get(s..e)
                .is_none_or(|g| g.iter().any(|&b| b != GUARD_BYTE))
        })
        .map(|(name, _, _)| name)
        .collect();
    if overrun.is_empty() {
        Ok(())
    } else {
        Err(GuardError { arena, overrun })
    }
}

//! One aligned host allocation carved into an arena's typed views.

use std::alloc::{self, Layout as AllocLayout};
use std::ptr::NonNull;

use crate::error::GuardError;
use crate::error::{CarveError, StepError};
use crate::guard::{GUARD_BYTE, GuardLog, gaps};
use crate::layout::Layout;
use crate::memory::Host;
use crate::slab::Core;
use crate::{Arena, Carving};

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
    /// `len` zeroed bytes aligned to `align`, or `None` where the allocator
    /// cannot give them (a size past `isize::MAX`, or memory exhausted): the
    /// caller reports it, nothing aborts.
    fn zeroed(len: usize, align: usize) -> Option<Self> {
        if len == 0 {
            return Some(AlignedBytes {
                base: NonNull::dangling(),
                skip: 0,
                len,
                layout: None,
            });
        }
        let total = len.checked_add(align)?;
        let layout = AllocLayout::from_size_align(total, NATURAL_ALIGN).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let base = NonNull::new(raw)?;
        let skip = base.as_ptr().align_offset(align.max(1));
        Some(AlignedBytes {
            base,
            skip,
            len,
            layout: Some(layout),
        })
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
    core: Core<A>,
    bytes: AlignedBytes,
}

/// The arena's name and the slab's layout, not its bytes.
impl<A: Arena> std::fmt::Debug for HostSlab<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostSlab")
            .field("arena", &A::NAME)
            .field("slab_bytes", &self.core.layout.slab_bytes)
            .field("carving", &self.core.carving)
            .finish_non_exhaustive()
    }
}

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
        let core = Core::new(arena, carving)?;
        let slab_bytes = core.layout.slab_bytes;
        let align = A::REGION_ALIGN.max(1);
        let mut bytes = AlignedBytes::zeroed(slab_bytes, align).ok_or(CarveError::Alloc {
            arena: A::NAME,
            bytes: slab_bytes,
            align,
        })?;
        // Carve once: every later `views()` carves the same immutable arena.
        core.first_carve::<Host>(bytes.as_mut_slice(), &GuardLog::default())?;
        if carving.guard > 0 {
            let mem = bytes.as_mut_slice();
            for (_, start, end) in gaps(&core.layout) {
                mem[start..end].fill(GUARD_BYTE);
            }
        }
        Ok(HostSlab { core, bytes })
    }

    /// Every buffer of the arena as a typed view, all alive at once.
    #[inline]
    pub fn views(&mut self) -> A::Views<'_, Host> {
        let core = &self.core;
        core.carve::<Host>(&core.arena, self.bytes.as_mut_slice())
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
    #[inline]
    pub fn views_for<'s>(&'s mut self, step: &'s A) -> Result<A::Views<'s, Host>, StepError> {
        self.core.carve::<Host>(step, self.bytes.as_mut_slice())
    }

    /// Turns poison mode on or off: when a phase's views are taken, every
    /// buffer whose live range begins at that phase is filled with NaN (float
    /// dtypes) or `0xA5` bytes, so a buffer read before it is written (a
    /// `live` range cut short) shows. Arenas without phases are unaffected.
    pub fn set_poison(&mut self, on: bool) {
        self.core.carving.poison = on;
    }

    /// The arena this slab was allocated for.
    pub fn arena(&self) -> &A {
        &self.core.arena
    }

    /// The layout the slab was carved with.
    pub fn layout(&self) -> &Layout {
        &self.core.layout
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
    ///
    /// With phases, buffers of disjoint phases share bytes, so a buffer's
    /// guard band is its own only while its phase is current: the bands of a
    /// phase's buffers are armed when its views are taken and checked when
    /// the next phase's views are taken; this names every buffer found then,
    /// and every buffer of the current phase whose band changed since.
    pub fn check_guards(&self) -> Result<(), GuardError> {
        self.core.check_guards(self.bytes.as_slice())
    }
}

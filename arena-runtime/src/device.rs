//! Device arenas (feature `cuda`): one allocation on a CUDA stream, every
//! buffer a typed `cudarc` view, all alive at once. The `arena` crate's
//! documentation, "On the GPU", has a complete example.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaSlice, CudaStream, CudaViewMut, DeviceSlice, DriverError};

pub use crate::error::DeviceError;
use crate::error::GuardError;
use crate::error::{CarveError, StepError};
use crate::guard::{GUARD_BYTE, GuardLog, gaps};
use crate::layout::Layout;
use crate::memory::Memory;
use crate::slab::Core;
use crate::{Arena, Carving};

pub use cudarc;

/// Whether the CUDA driver library can be loaded here. Checked before any
/// driver call: `cudarc` panics when the library is missing.
pub fn driver_present() -> bool {
    // SAFETY: loads the library by name and unloads it; no symbol is called.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Opens GPU `ordinal` and its default stream, or says why there is none.
pub fn open(ordinal: usize) -> Result<(Arc<CudaContext>, Arc<CudaStream>), DeviceError> {
    if !driver_present() {
        return Err(DeviceError::NoDriver);
    }
    let ctx = CudaContext::new(ordinal)?;
    let stream = ctx.default_stream();
    Ok((ctx, stream))
}

/// Device memory: views are `cudarc` `CudaViewMut<T>`, usable with the launch
/// builder, `memcpy_*` and `memset_zeros`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Device;

/// Untyped device bytes and their offset from the 256-aligned slab start.
#[derive(Debug)]
pub struct DeviceBytes<'a> {
    view: CudaViewMut<'a, u8>,
    offset: usize,
}

/// Extends the lifetime of a view split off `'a` memory back to `'a`.
///
/// SAFETY (for callers): the view must cover memory borrowed for `'a` that no
/// other live view covers; the parent it was split from must not be used again.
unsafe fn extend<'a, T>(v: CudaViewMut<'_, T>) -> CudaViewMut<'a, T> {
    // SAFETY: only the lifetime parameter changes; see the function's contract.
    unsafe { std::mem::transmute::<CudaViewMut<'_, T>, CudaViewMut<'a, T>>(v) }
}

impl Memory for Device {
    type Bytes<'a> = DeviceBytes<'a>;
    type Slice<'a, T: bytemuck::Pod> = CudaViewMut<'a, T>;

    fn len(bytes: &Self::Bytes<'_>) -> usize {
        bytes.view.len()
    }

    fn split_at(bytes: Self::Bytes<'_>, mid: usize) -> (Self::Bytes<'_>, Self::Bytes<'_>) {
        let DeviceBytes { mut view, offset } = bytes;
        let (a, b) = view.split_at_mut(mid);
        // SAFETY: `a` and `b` are disjoint and together cover `view`, which is
        // consumed here and never used again.
        let (a, b) = unsafe { (extend(a), extend(b)) };
        (
            DeviceBytes { view: a, offset },
            DeviceBytes {
                view: b,
                offset: offset + mid,
            },
        )
    }

    fn reborrow<'b>(bytes: &'b mut Self::Bytes<'_>) -> Self::Bytes<'b> {
        DeviceBytes {
            view: bytes.view.slice_mut(..),
            offset: bytes.offset,
        }
    }

    fn cast<T: bytemuck::Pod>(bytes: Self::Bytes<'_>) -> Result<Self::Slice<'_, T>, usize> {
        let (align, size) = (std::mem::align_of::<T>(), std::mem::size_of::<T>());
        let DeviceBytes { mut view, offset } = bytes;
        // Offsets count from the slab's start, aligned for the arena.
        if offset % align != 0 || size == 0 || view.len() % size != 0 {
            return Err(align);
        }
        let len = view.len() / size;
        // SAFETY: `T` is plain old data, so any bytes are a valid `T`; the
        // start is aligned (checked above, slab start aligned) and `len`
        // elements fit exactly.
        let typed = unsafe { view.transmute_mut::<T>(len) }.ok_or(align)?;
        // SAFETY: `typed` covers exactly `view`'s memory, consumed here.
        Ok(unsafe { extend(typed) })
    }

    fn empty<'a, T: bytemuck::Pod>(bytes: Self::Bytes<'a>) -> Self::Slice<'a, T> {
        let DeviceBytes { mut view, .. } = bytes;
        // SAFETY: no element: nothing is read or written through it, so its
        // start's alignment does not matter.
        let typed = unsafe { view.transmute_mut::<T>(0) }.expect("zero elements fit any view");
        // SAFETY: `typed` covers no memory of `view`, consumed here.
        unsafe { extend(typed) }
    }

    fn fill(bytes: &mut Self::Bytes<'_>, pattern: &[u8]) -> Result<(), String> {
        device_fill(&mut bytes.view, pattern).map_err(|e| e.to_string())
    }

    fn holds(bytes: &Self::Bytes<'_>, byte: u8) -> Result<bool, String> {
        if bytes.view.is_empty() {
            return Ok(true);
        }
        let host = bytes
            .view
            .stream()
            .clone_dtoh(&bytes.view)
            .map_err(|e| e.to_string())?;
        Ok(host.iter().all(|&b| b == byte))
    }
}

/// Fills `view` with `pattern` repeated, on the device: the driver's 8-, 16-
/// and 32-bit memsets (an 8-byte pattern as two strided 32-bit ones), no
/// host image; a length that the pattern does not divide takes a host copy.
fn device_fill(view: &mut CudaViewMut<'_, u8>, pattern: &[u8]) -> Result<(), DriverError> {
    use cudarc::driver::{DevicePtrMut, sys};
    let n = view.len();
    if n == 0 || pattern.is_empty() {
        return Ok(());
    }
    let stream = view.stream().clone();
    stream.context().bind_to_thread()?;
    let cu = stream.cu_stream();
    let (dptr, record) = view.device_ptr_mut(&stream);
    let word = |b: &[u8]| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
    // SAFETY: `dptr` points at `n` bytes of `view`, borrowed mutably here;
    // every call writes inside them, on the view's stream; `record` orders
    // later uses after it.
    let result = unsafe {
        match pattern.len() {
            1 => sys::cuMemsetD8Async(dptr, pattern[0], n, cu).result(),
            2 if n % 2 == 0 && dptr % 2 == 0 => sys::cuMemsetD16Async(
                dptr,
                u16::from_ne_bytes([pattern[0], pattern[1]]),
                n / 2,
                cu,
            )
            .result(),
            4 if n % 4 == 0 && dptr % 4 == 0 => {
                sys::cuMemsetD32Async(dptr, word(pattern), n / 4, cu).result()
            }
            8 if n % 8 == 0 && dptr % 4 == 0 => {
                sys::cuMemsetD2D32Async(dptr, 8, word(&pattern[..4]), 1, n / 8, cu)
                    .result()
                    .and_then(|()| {
                        sys::cuMemsetD2D32Async(dptr + 4, 8, word(&pattern[4..]), 1, n / 8, cu)
                            .result()
                    })
            }
            _ => {
                drop(record);
                let host: Vec<u8> = pattern.iter().cycle().take(n).copied().collect();
                return stream.memcpy_htod(&host, view);
            }
        }
    };
    drop(record);
    result
}

/// The device address of `slab`'s first byte.
fn base(slab: &CudaSlice<u8>, stream: &Arc<CudaStream>) -> u64 {
    use cudarc::driver::DevicePtr;
    let (ptr, record) = slab.device_ptr(stream);
    drop(record);
    ptr
}

/// Where, in an allocation of `len` bytes starting at device address
/// `base`, a region of `slab` bytes aligned to `align` (a power of two)
/// starts: the bytes to skip, or `None` where it does not fit.
fn region_start(base: u64, len: usize, slab: usize, align: usize) -> Option<usize> {
    let align = u64::try_from(align).ok()?;
    let skip = usize::try_from(base.wrapping_neg() % align).ok()?;
    (skip.checked_add(slab)? <= len).then_some(skip)
}

/// One device allocation holding every buffer of an arena.
///
/// # Streams and events
///
/// The slab is one `cudarc` allocation and every view is a slice of it, so
/// the slab follows its context's event tracking, chosen by the caller
/// before the slab is made:
///
/// - **Tracking on** (cudarc's default): once the context has a second
///   stream, each use of a view records the allocation's one read/write
///   event pair and waits on it, so kernels on two streams that use two
///   disjoint views of one slab run one after the other. Correct without
///   any ordering by the caller, at the cost of the overlap.
/// - **Tracking off** (`unsafe { ctx.disable_event_tracking() }` before
///   [`DeviceSlab::new`]): views on different streams do not wait on each
///   other, and ordering is the caller's, as with any raw device memory:
///   work on another stream starts after the slab's zero fill and guard
///   writes on [`DeviceSlab::stream`] (`other.join(slab.stream())`), the
///   same bytes are not used on two streams at once (a phase's views are
///   reused by the next phase only after its kernels), and the slab is
///   dropped only after the work on its views.
///
/// Views used while a stream is captured into a CUDA graph must come from
/// a slab made with tracking off: tracked allocations record events during
/// capture, which can leave the context in an error state (cudarc issue
/// 590). `scripts/gpu-check.sh` runs two disjoint views on two streams in
/// both settings and checks both results.
pub struct DeviceSlab<A: Arena> {
    core: Core<A>,
    slab: CudaSlice<u8>,
    /// Bytes from the allocation's start to the region's aligned start.
    skip: usize,
    stream: Arc<CudaStream>,
}

/// The arena's name and the slab's layout, not its bytes.
impl<A: Arena> std::fmt::Debug for DeviceSlab<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceSlab")
            .field("arena", &A::NAME)
            .field("slab_bytes", &self.core.layout.slab_bytes)
            .field("region_offset", &self.skip)
            .field("carving", &self.core.carving)
            .finish_non_exhaustive()
    }
}

impl<A: Arena> DeviceSlab<A> {
    /// Allocates the slab on `stream`, zero-filled (so `zeroed` buffers are zeros).
    pub fn new(arena: A, stream: &Arc<CudaStream>) -> Result<Self, DeviceError> {
        Self::with_guard(arena, stream, 0)
    }

    /// Like [`DeviceSlab::new`], with `guard` bytes after every top-level
    /// buffer, filled with [`GUARD_BYTE`] and checked by [`DeviceSlab::check_guards`].
    pub fn with_guard(
        arena: A,
        stream: &Arc<CudaStream>,
        guard: usize,
    ) -> Result<Self, DeviceError> {
        Self::with_carving(arena, stream, Carving::guard(guard))
    }

    /// The slab of an arena with phases laid out without sharing, as
    /// [`crate::HostSlab::unplanned`].
    pub fn unplanned(arena: A, stream: &Arc<CudaStream>) -> Result<Self, DeviceError> {
        Self::with_carving(
            arena,
            stream,
            Carving {
                unplanned: true,
                ..Carving::default()
            },
        )
    }

    /// The slab carved as `carving` says: guards, planned or not, poison
    /// (see [`crate::HostSlab::with_carving`]).
    pub fn with_carving(
        arena: A,
        stream: &Arc<CudaStream>,
        carving: Carving,
    ) -> Result<Self, DeviceError> {
        let core = Core::new(arena, carving)?;
        let layout = &core.layout;
        let align = A::REGION_ALIGN.max(1);
        let bytes = layout.slab_bytes.max(1);
        // The driver's start is 256-aligned in practice, but with memory
        // pools that is not promised: the start is read, and where it is not
        // aligned the allocation is made `align - 1` bytes longer and the
        // region starts at the first aligned byte.
        let mut slab = stream.alloc_zeros::<u8>(bytes)?;
        let mut skip = region_start(base(&slab, stream), slab.len(), layout.slab_bytes, align);
        if skip.is_none() {
            drop(slab);
            let padded = bytes.checked_add(align - 1).ok_or(CarveError::Alloc {
                arena: A::NAME,
                bytes: layout.slab_bytes,
                align,
            })?;
            slab = stream.alloc_zeros::<u8>(padded)?;
            skip = region_start(base(&slab, stream), slab.len(), layout.slab_bytes, align);
        }
        let skip = skip.ok_or(DeviceError::Alignment { needed: align })?;
        if carving.guard > 0 {
            // Guards and padding on the device, gap by gap: no host image.
            for (name, s, e) in gaps(layout) {
                let mut gap = slab.slice_mut(skip + s..skip + e);
                device_fill(&mut gap, &[GUARD_BYTE]).map_err(|e| CarveError::Device {
                    arena: A::NAME,
                    field: name,
                    message: e.to_string(),
                })?;
            }
        }
        let region = Self::region(&mut slab, skip, layout.slab_bytes);
        core.first_carve::<Device>(region, &GuardLog::default())?;
        Ok(DeviceSlab {
            core,
            slab,
            skip,
            stream: stream.clone(),
        })
    }

    /// The region's bytes, for a carve.
    fn region(slab: &mut CudaSlice<u8>, skip: usize, len: usize) -> DeviceBytes<'_> {
        DeviceBytes {
            view: slab.slice_mut(skip..skip + len),
            offset: 0,
        }
    }

    /// The device views of `step`, the same arena sized for one step, carved
    /// from this slab's reservation: as [`crate::HostSlab::views_for`].
    pub fn views_for<'s>(&'s mut self, step: &'s A) -> Result<A::Views<'s, Device>, StepError> {
        let region = Self::region(&mut self.slab, self.skip, self.core.layout.slab_bytes);
        self.core.carve::<Device>(step, region)
    }

    /// Poison mode on or off, as [`crate::HostSlab::set_poison`].
    pub fn set_poison(&mut self, on: bool) {
        self.core.carving.poison = on;
    }

    /// Every buffer as a typed device view, all alive at once.
    pub fn views(&mut self) -> A::Views<'_, Device> {
        let region = Self::region(&mut self.slab, self.skip, self.core.layout.slab_bytes);
        let core = &self.core;
        core.carve::<Device>(&core.arena, region)
            .expect("the slab was carved once when it was allocated")
    }

    /// The arena this slab holds.
    pub fn arena(&self) -> &A {
        &self.core.arena
    }

    /// The layout the slab was carved with.
    pub fn layout(&self) -> &Layout {
        &self.core.layout
    }

    /// The whole allocation, for copies of the slab. The arena's region
    /// starts [`DeviceSlab::region_offset`] bytes in (0 unless the driver's
    /// start was not aligned for the arena).
    pub fn slab(&self) -> &CudaSlice<u8> {
        &self.slab
    }

    /// Bytes from the start of [`DeviceSlab::slab`] to the arena's region,
    /// whose start is aligned to the arena's region alignment.
    pub fn region_offset(&self) -> usize {
        self.skip
    }

    /// The stream the slab was allocated, zero-filled and guarded on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Copies the slab back on [`DeviceSlab::stream`] (after the work
    /// queued there; work on other streams must be ordered before it by the
    /// caller) and names every buffer whose guard changed, as
    /// [`crate::HostSlab::check_guards`] does (with phases: the bands found
    /// overwritten when a phase ended, and the current phase's).
    pub fn check_guards(&self) -> Result<Result<(), GuardError>, DeviceError> {
        if self.core.carving.guard == 0 {
            return Ok(Ok(()));
        }
        let end = self.skip + self.core.layout.slab_bytes;
        let bytes = self.stream.clone_dtoh(&self.slab.slice(self.skip..end))?;
        Ok(self.core.check_guards(&bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the device a runtime-dtype view is taken as cudarc's typed view,
    /// with no unsafe code (a compile-time check; `scripts/gpu-check.sh`
    /// runs the GPU cases).
    #[allow(dead_code)]
    fn typed_device_views<'a>(
        a: crate::DynView<'a, Device>,
        b: crate::DynView<'a, Device>,
    ) -> Result<(CudaViewMut<'a, half::bf16>, CudaViewMut<'a, f32>), crate::DTypeError> {
        Ok((a.typed::<half::bf16>()?, b.typed::<f32>()?))
    }

    #[test]
    fn a_region_starts_at_the_first_aligned_byte() {
        // An aligned start (what the driver gives in practice): no skip.
        assert_eq!(region_start(0x7f00_0000_0000, 4096, 4096, 1024), Some(0));
        // A 256-aligned start and an arena aligned to 1024, over-allocated by
        // 1023 bytes: the region starts 768 bytes in.
        assert_eq!(
            region_start(0x7f00_0000_0100, 4096 + 1023, 4096, 1024),
            Some(768)
        );
        // Not over-allocated: it does not fit, so the slab allocates again.
        assert_eq!(region_start(0x7f00_0000_0100, 4096, 4096, 1024), None);
        // Any start, any power of two: the skip is below the alignment and
        // lands on a multiple of it.
        for base in [1u64, 3, 255, 256, 4097, 0x7f00_0000_0abc] {
            for align in [1usize, 2, 256, 1024, 4096] {
                let skip = region_start(base, 100 + align, 100, align).unwrap();
                assert!(skip < align);
                assert_eq!((base + skip as u64) % align as u64, 0);
            }
        }
    }

    #[test]
    fn no_driver_is_an_error_not_a_panic() {
        if driver_present() {
            eprintln!(
                "not applicable here: a CUDA driver is present (the GPU tests cover this machine)"
            );
            return;
        }
        let err = open(0).unwrap_err();
        assert!(matches!(err, DeviceError::NoDriver));
        assert!(err.to_string().starts_with("no CUDA driver"), "{err}");
    }
}

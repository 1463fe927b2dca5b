//! Device arenas (feature `cuda`): one allocation on a CUDA stream, every
//! buffer a typed `cudarc` view, all alive at once. The README's "On the GPU"
//! section has a complete example.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaSlice, CudaStream, CudaViewMut, DeviceSlice, DriverError};

use crate::error::{CarveError, SizeError, StepError};
use crate::host::{GUARD_BYTE, GuardError, GuardLog, SlabRef, gaps};
use crate::layout::{Layout, Memory};
use crate::{Arena, Carving};

pub use cudarc;

/// Why a device arena could not be made or checked.
#[derive(Debug)]
pub enum DeviceError {
    /// No CUDA driver library (`libcuda`) on this machine.
    NoDriver,
    /// The driver answered with an error (no device, out of memory, ...).
    Driver(DriverError),
    /// The arena could not be laid out.
    Size(SizeError),
    /// The slab could not be carved.
    Carve(CarveError),
    /// The arena needs a start alignment the driver does not guarantee.
    Alignment {
        /// The arena's region alignment.
        needed: usize,
    },
}

impl std::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceError::NoDriver => f.write_str(
                "no CUDA driver: libcuda could not be loaded, so there is no GPU to allocate an arena on",
            ),
            DeviceError::Driver(e) => write!(f, "CUDA driver error: {e:?}"),
            DeviceError::Size(e) => e.fmt(f),
            DeviceError::Carve(e) => e.fmt(f),
            DeviceError::Alignment { needed } => write!(
                f,
                "the arena needs {needed}-byte alignment; device allocations guarantee 256"
            ),
        }
    }
}

impl std::error::Error for DeviceError {}

impl From<DriverError> for DeviceError {
    fn from(e: DriverError) -> Self {
        DeviceError::Driver(e)
    }
}
impl From<SizeError> for DeviceError {
    fn from(e: SizeError) -> Self {
        DeviceError::Size(e)
    }
}
impl From<CarveError> for DeviceError {
    fn from(e: CarveError) -> Self {
        DeviceError::Carve(e)
    }
}

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
        let align = std::mem::align_of::<T>();
        let size = std::mem::size_of::<T>();
        let DeviceBytes { mut view, offset } = bytes;
        if offset % align != 0 || size == 0 || view.len() % size != 0 {
            return Err(align);
        }
        let len = view.len() / size;
        // SAFETY: `T` is plain old data, so any bytes are a valid `T`; the
        // start is aligned (checked above, slab start 256-aligned) and `len`
        // elements fit exactly.
        let typed = unsafe { view.transmute_mut::<T>(len) }.ok_or(align)?;
        // SAFETY: `typed` covers exactly `view`'s memory, consumed here.
        Ok(unsafe { extend(typed) })
    }

    fn fill(bytes: &mut Self::Bytes<'_>, pattern: &[u8]) -> Result<(), String> {
        if bytes.view.is_empty() || pattern.is_empty() {
            return Ok(());
        }
        let stream = bytes.view.stream().clone();
        if pattern == [0] {
            return stream
                .memset_zeros(&mut bytes.view)
                .map_err(|e| e.to_string());
        }
        let host: Vec<u8> = pattern
            .iter()
            .cycle()
            .take(bytes.view.len())
            .copied()
            .collect();
        stream
            .memcpy_htod(&host, &mut bytes.view)
            .map_err(|e| e.to_string())
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

/// One device allocation holding every buffer of an arena.
pub struct DeviceSlab<A: Arena> {
    arena: A,
    layout: Layout,
    carving: Carving,
    guards: GuardLog,
    slab: CudaSlice<u8>,
    stream: Arc<CudaStream>,
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

    /// The slab carved as `carving` says: guards, planned or not, poison
    /// (see [`crate::HostSlab::with_carving`]).
    pub fn with_carving(
        arena: A,
        stream: &Arc<CudaStream>,
        carving: Carving,
    ) -> Result<Self, DeviceError> {
        let guard = carving.guard;
        if A::ONE_OF && guard > 0 {
            return Err(CarveError::GuardOnOneOf {
                arena: A::NAME,
                guard,
            }
            .into());
        }
        if A::REGION_ALIGN > 256 {
            return Err(DeviceError::Alignment {
                needed: A::REGION_ALIGN,
            });
        }
        let layout = arena.layout_for(carving)?;
        let mut slab = stream.alloc_zeros::<u8>(layout.slab_bytes.max(1))?;
        if guard > 0 {
            let mut image = vec![0u8; slab.len()];
            for (_, s, e) in gaps(&layout) {
                image[s..e].fill(GUARD_BYTE);
            }
            stream.memcpy_htod(&image, &mut slab)?;
        }
        {
            let region = DeviceBytes {
                view: slab.slice_mut(..),
                offset: 0,
            };
            let planned = SlabRef {
                layout: &layout,
                guards: &GuardLog::default(),
            };
            arena
                .carve_planned::<Device>(&arena, region, carving, Some(planned))
                .map_err(CarveError::from)?;
        }
        Ok(DeviceSlab {
            arena,
            layout,
            carving,
            guards: GuardLog::default(),
            slab,
            stream: stream.clone(),
        })
    }

    /// The device views of `step`, the same arena sized for one step, carved
    /// from this slab's reservation: as [`crate::HostSlab::views_for`].
    pub fn views_for<'s>(&'s mut self, step: &'s A) -> Result<A::Views<'s, Device>, StepError> {
        let region = DeviceBytes {
            view: self.slab.slice_mut(..),
            offset: 0,
        };
        let planned = SlabRef {
            layout: &self.layout,
            guards: &self.guards,
        };
        self.arena
            .carve_planned::<Device>(step, region, self.carving, Some(planned))
    }

    /// Poison mode on or off, as [`crate::HostSlab::set_poison`].
    pub fn set_poison(&mut self, on: bool) {
        self.carving.poison = on;
    }

    /// Every buffer as a typed device view, all alive at once.
    pub fn views(&mut self) -> A::Views<'_, Device> {
        let region = DeviceBytes {
            view: self.slab.slice_mut(..),
            offset: 0,
        };
        let planned = SlabRef {
            layout: &self.layout,
            guards: &self.guards,
        };
        self.arena
            .carve_planned::<Device>(&self.arena, region, self.carving, Some(planned))
            .expect("the slab was carved once when it was allocated")
    }

    /// The arena this slab holds.
    pub fn arena(&self) -> &A {
        &self.arena
    }

    /// The layout the slab was carved with.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The whole allocation, for copies of the slab.
    pub fn slab(&self) -> &CudaSlice<u8> {
        &self.slab
    }

    /// The stream the slab was allocated on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Copies the slab back and names every buffer whose guard changed, as
    /// [`crate::HostSlab::check_guards`] does (with phases: the bands found
    /// overwritten when a phase ended, and the current phase's).
    pub fn check_guards(&self) -> Result<Result<(), GuardError>, DeviceError> {
        if self.carving.guard == 0 {
            return Ok(Ok(()));
        }
        let bytes = self.stream.clone_dtoh(&self.slab)?;
        Ok(crate::host::check_slab::<A>(
            &self.layout,
            self.carving.guard,
            &self.guards,
            &bytes,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

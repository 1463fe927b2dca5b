//! The carving of an arena with phases: the offsets (kept from the slab, or
//! planned), every phase checked once when the views are taken, then one
//! phase's pieces at a time.

use crate::arena::Fill;
use crate::arena::{elem_bytes, fill_field};
use crate::carve::Carver;
use crate::error::{CarveError, SizeError, StepError};
use crate::guard::SlabRef;
use crate::guard::{GUARD_BYTE, GuardLog};
use crate::memory::{Memory, cast, step_fits};
use crate::table::{Table, in_order};
use crate::{Arena, Carving, FieldKind, Layout, Region};

/// The region of an arena `A` with phases and `N` carved fields, laid out
/// for the sizes `reserved` and cut, one phase at a time, to the sizes
/// `step` (the views of a generated phased arena: `XPhases`).
pub struct Phased<'a, M: Memory, A, const N: usize> {
    region: M::Bytes<'a>,
    reserved: &'a A,
    step: &'a A,
    offsets: [usize; N],
    /// The carved fields by offset, so a phase's pieces are cut in order
    /// without sorting them at every phase.
    by_offset: [usize; N],
    poison: bool,
    /// Bytes of the guard band after every non-empty buffer.
    guard: usize,
    /// The slab's guard log, where there is a slab.
    log: Option<&'a GuardLog>,
}

impl<'a, M: Memory, A: Arena, const N: usize> Phased<'a, M, A, N> {
    /// Lays `region` out for `reserved` (at the offsets of the layout of
    /// `slab`, planned for this reservation, where given) and
    /// checks, once, what taking a phase's views needs: every buffer inside
    /// the region, a whole number of its elements, every step buffer within
    /// its reservation, every nested arena's step inside its region. Buffers
    /// live in a common phase never overlap, guard bands included: the
    /// offsets are planned (or placed one after the other) so.
    #[inline]
    pub fn new(
        reserved: &'a A,
        step: &'a A,
        region: M::Bytes<'a>,
        carving: Carving,
        slab: Option<SlabRef<'a>>,
    ) -> Result<Self, StepError> {
        let index = &Table::<A, N>::INDEX;
        let reserved_bytes = index.map(|i| reserved.field_bytes(i));
        let offsets = phase_offsets::<A, N>(&reserved_bytes, carving, slab.map(|s| s.layout))?;
        let available = M::len(&region);
        for k in 0..N {
            let info = Table::<A, N>::INFOS[k];
            let (name, bytes) = (info.name, reserved_bytes[k]);
            let step_bytes = step.field_bytes(index[k]);
            // The reservation in its dtype, the step in its own (a dtype
            // chosen at run time may differ between them).
            let elems = [
                (bytes, elem_bytes(reserved, index[k])),
                (step_bytes, elem_bytes(step, index[k])),
            ];
            if info.kind == FieldKind::Buffer
                && let Some(&(odd, elem)) = elems.iter().find(|&&(b, e)| e > 1 && b % e != 0)
            {
                return Err(StepError::Carve(CarveError::Size(
                    SizeError::NotWholeElements {
                        arena: A::NAME,
                        field: name,
                        bytes: odd,
                        elem_bytes: elem,
                    },
                )));
            }
            let end = offsets[k]
                .checked_add(bytes)
                .filter(|&end| end <= available);
            if bytes > 0 && end.is_none() {
                return Err(StepError::Carve(CarveError::TooShort {
                    arena: A::NAME,
                    field: name,
                    needed: offsets[k].saturating_add(bytes),
                    available,
                }));
            }
            // Every field before any view is cut, nested ones included: a
            // phase's views borrow the whole slab, so a step past one
            // reservation fails the step, not a later view.
            step_fits(A::NAME, name, bytes, step_bytes)?;
        }
        let mut by_offset = core::array::from_fn::<_, N, _>(|k| (offsets[k], k));
        by_offset.sort_unstable();
        Ok(Phased {
            region,
            reserved,
            step,
            offsets,
            by_offset: by_offset.map(|(_, k)| k),
            poison: carving.poison,
            guard: carving.guard,
            log: slab.map(|s| s.guards),
        })
    }

    /// The reserved and the step sizes.
    #[inline]
    pub fn arenas(&self) -> (&'a A, &'a A) {
        (self.reserved, self.step)
    }

    /// The pieces of the buffers live in `phase`: carved field `k` at its
    /// offset, as long as in the step (a nested arena's the whole
    /// reservation: it cuts its own step views); `None` for a field not live
    /// in the phase. With `fill`, a buffer whose first phase is `phase` is
    /// filled with its poison pattern when `fill` is `Some(true)` (poison
    /// mode), then zero-filled if `zeroed` (a nested region's buffers alike),
    /// and with guards the bands of the phase last entered are checked and
    /// those of `phase` armed; `None` only checks. No heap allocation.
    fn pieces(
        &mut self,
        phase: usize,
        fill: Option<bool>,
    ) -> Result<PhasePieces<'_, M, A, N>, StepError> {
        let (infos, ranges, index) = (
            &Table::<A, N>::INFOS,
            &Table::<A, N>::RANGES,
            &Table::<A, N>::INDEX,
        );
        let guard = if fill.is_some() { self.guard } else { 0 };
        if guard > 0 {
            self.check_bands()?;
        }
        let mut pieces: [Option<M::Bytes<'_>>; N] = core::array::from_fn(|_| None);
        let mut carver = Carver::<M>::new(A::NAME, M::reborrow(&mut self.region), 0);
        for k in live_in::<A, N>(&self.by_offset, phase) {
            let first = ranges[k].0;
            let info = infos[k];
            let reserved = self.reserved.field_bytes(index[k]);
            let piece = carver.take_at(info.name, self.offsets[k], reserved)?;
            // `new` checked the step fits. A nested arena is laid out for its
            // reservation and cuts its own step views from all of it.
            let len = match info.kind {
                FieldKind::Nested => reserved,
                _ => self.step.field_bytes(index[k]),
            };
            let mut piece = M::split_at(piece, len).0;
            if let (Some(poison), true) = (fill, first == phase) {
                // A buffer is filled in its step's dtype (chosen at run
                // time, it may differ from the reservation's); a nested
                // region as its reservation is laid out, its buffers in
                // their step's dtypes.
                let (laid, step) = (self.reserved, self.step);
                if poison {
                    fill_field::<A, M>(laid, step, index[k], &mut piece, Fill::Poison)?;
                }
                fill_field::<A, M>(laid, step, index[k], &mut piece, Fill::Zero)?;
            }
            if guard > 0 && reserved > 0 {
                // The band after the reservation: no buffer live in this
                // phase covers it (the plan keeps each buffer's guard clear).
                let mut band = carver.take_at(info.name, self.offsets[k] + reserved, guard)?;
                M::fill(&mut band, &[GUARD_BYTE]).map_err(|message| CarveError::Device {
                    arena: A::NAME,
                    field: info.name,
                    message,
                })?;
            }
            pieces[k] = Some(piece);
        }
        if let (Some(log), true) = (self.log, guard > 0) {
            log.arm(phase);
        }
        Ok(PhasePieces {
            pieces,
            arena: core::marker::PhantomData,
        })
    }

    /// Checks the guard bands of the phase whose bands are armed (as the
    /// slab's log says) and records each buffer whose band changed: the
    /// next phase may write those bytes.
    fn check_bands(&mut self) -> Result<(), StepError> {
        let Some((log, current)) = self.log.and_then(|l| Some((l, l.current()?))) else {
            return Ok(());
        };
        let (infos, index) = (&Table::<A, N>::INFOS, &Table::<A, N>::INDEX);
        let mut carver = Carver::<M>::new(A::NAME, M::reborrow(&mut self.region), 0);
        for k in live_in::<A, N>(&self.by_offset, current) {
            let reserved = self.reserved.field_bytes(index[k]);
            if reserved == 0 {
                continue;
            }
            let name = infos[k].name;
            let band = carver.take_at(name, self.offsets[k] + reserved, self.guard)?;
            let intact = M::holds(&band, GUARD_BYTE).map_err(|message| CarveError::Device {
                arena: A::NAME,
                field: name,
                message,
            })?;
            if !intact {
                log.record(k);
            }
        }
        Ok(())
    }

    /// Checks the nested arena of carved field `k` (`reserved` and `step`
    /// its sizes) inside its piece of the field's first phase.
    #[inline]
    pub fn check_nested<B: Arena>(
        &mut self,
        k: usize,
        reserved: &Region<B>,
        step: &Region<B>,
    ) -> Result<(), StepError> {
        let first = Table::<A, N>::RANGES[k].0;
        let mut pieces = self.pieces(first, None)?;
        let piece = pieces.take(k);
        let name = Table::<A, N>::INFOS[k].name;
        reserved
            .step_views::<M>((A::NAME, name), step, piece)
            .map(drop)
    }

    /// The pieces of phase `phase`: a buffer whose range begins there is
    /// poisoned in poison mode, then zeroed if `zeroed`; with guards, the
    /// last phase's bands are checked and this phase's armed. Fails only
    /// where the memory does: a device error while filling or reading
    /// (sticky: a kernel that faulted in the previous phase shows here).
    #[inline]
    pub fn try_phase(&mut self, phase: usize) -> Result<PhasePieces<'_, M, A, N>, StepError> {
        let poison = self.poison;
        self.pieces(phase, Some(poison))
    }
}

/// Names the arena and its offsets, not the bytes.
impl<M: Memory, A: Arena, const N: usize> core::fmt::Debug for Phased<'_, M, A, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Phased")
            .field("arena", &A::NAME)
            .field("offsets", &self.offsets)
            .field("poison", &self.poison)
            .field("guard", &self.guard)
            .finish_non_exhaustive()
    }
}

/// One phase's pieces of a [`Phased`] region, each taken once as a view.
pub struct PhasePieces<'b, M: Memory, A, const N: usize> {
    pieces: [Option<M::Bytes<'b>>; N],
    arena: core::marker::PhantomData<A>,
}

/// Names the arena and which pieces are left to take.
impl<M: Memory, A: Arena, const N: usize> core::fmt::Debug for PhasePieces<'_, M, A, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let left: Vec<usize> = (0..N).filter(|&k| self.pieces[k].is_some()).collect();
        f.debug_struct("PhasePieces")
            .field("arena", &A::NAME)
            .field("left", &left)
            .finish()
    }
}

impl<'b, M: Memory, A: Arena, const N: usize> PhasePieces<'b, M, A, N> {
    #[inline]
    #[track_caller]
    fn take(&mut self, k: usize) -> M::Bytes<'b> {
        self.pieces[k]
            .take()
            .expect("a field is live in the phase whose views take it")
    }

    /// The view of carved field `k`, a buffer live in this phase.
    #[inline]
    #[track_caller]
    pub fn view<T: bytemuck::Pod>(&mut self, k: usize) -> M::Slice<'b, T> {
        let piece = self.take(k);
        cast::<M, T>(A::NAME, Table::<A, N>::INFOS[k].name, piece)
            .expect("checked when the slab was carved")
    }

    /// The view of carved field `k`, a buffer whose element type `dtype`
    /// (the step's) was chosen at run time.
    #[inline]
    #[track_caller]
    pub fn dyn_view(&mut self, k: usize, dtype: crate::DType) -> crate::DynView<'b, M> {
        let piece = self.take(k);
        crate::DynView::new(A::NAME, Table::<A, N>::INFOS[k].name, dtype, piece)
            .expect("checked when the slab was carved")
    }

    /// The views of carved field `k`, a nested arena whose reserved and step
    /// sizes are `reserved` and `step`.
    #[inline]
    #[track_caller]
    pub fn nested<B: Arena>(
        &mut self,
        k: usize,
        reserved: &'b Region<B>,
        step: &'b Region<B>,
    ) -> B::Views<'b, M> {
        let piece = self.take(k);
        let name = Table::<A, N>::INFOS[k].name;
        reserved
            .step_views::<M>((A::NAME, name), step, piece)
            .expect("checked when the slab was carved")
    }
}

/// The offsets of the carved fields of `A`, whose reserved bytes are
/// `reserved`: those of `planned` where the caller has it (a slab's layout,
/// worked out once when it was allocated), else planned for an arena with phases
/// (unless `carving.unplanned`), else one after the other; `carving.guard`
/// bytes after each.
fn phase_offsets<A: crate::Arena, const N: usize>(
    reserved: &[usize; N],
    carving: crate::Carving,
    planned: Option<&Layout>,
) -> Result<[usize; N], SizeError> {
    if let Some(layout) = planned.filter(|l| l.placements.len() == N) {
        return Ok(core::array::from_fn(|k| layout.placements[k].offset));
    }
    if carving.unplanned || A::PHASES.is_empty() {
        let mut offsets = [0; N];
        in_order::<A, N>(reserved, carving.guard, |k, offset| offsets[k] = offset)?;
        return Ok(offsets);
    }
    crate::table::planned::<A, N>(reserved, carving.guard).map(|(offsets, _)| offsets)
}

/// The carved fields live in `phase`, in offset order (`by_offset`): what a
/// phase's pieces and its guard bands both walk.
fn live_in<A: Arena, const N: usize>(
    by_offset: &[usize; N],
    phase: usize,
) -> impl Iterator<Item = usize> + '_ {
    by_offset.iter().copied().filter(move |&k| {
        let (first, last) = Table::<A, N>::RANGES[k];
        first <= phase && phase <= last
    })
}

//! What a slab is over any memory, written once: the arena, its layout
//! (planned once), the carving and the guard log, and the carving, the
//! guard check and the accessors that host and device slabs share. A slab
//! holds a [`Core`] beside its own bytes and calls it.

use crate::error::GuardError;
use crate::error::{CarveError, StepError};
use crate::guard::{GUARD_BYTE, GuardLog, SlabRef, check_gaps};
use crate::layout::Layout;
use crate::memory::Memory;
use crate::{Arena, Carving};

/// A slab's state but its bytes.
pub(crate) struct Core<A: Arena> {
    pub(crate) arena: A,
    pub(crate) layout: Layout,
    pub(crate) carving: Carving,
    guards: GuardLog,
}

impl<A: Arena> Core<A> {
    /// The core of a slab of `arena` carved as `carving` says: its layout,
    /// refused with guards for a top-level one-of arena (its alternatives
    /// share every byte, so no byte after one is free of the others).
    pub(crate) fn new(arena: A, carving: Carving) -> Result<Self, CarveError> {
        if A::ONE_OF && carving.guard > 0 {
            return Err(CarveError::GuardOnOneOf {
                arena: A::NAME,
                guard: carving.guard,
            });
        }
        let layout = arena.layout_for(carving)?;
        Ok(Core {
            arena,
            layout,
            carving,
            guards: GuardLog::default(),
        })
    }

    /// The views of `step` carved from `region`, the slab's bytes, at the
    /// slab's planned offsets.
    pub(crate) fn carve<'s, M: Memory>(
        &'s self,
        step: &'s A,
        region: M::Bytes<'s>,
    ) -> Result<A::Views<'s, M>, StepError> {
        self.carve_logged(step, region, &self.guards)
    }

    /// The carving a new slab makes once, so that every later carve of the
    /// same immutable arena succeeds: with `log`, a guard log of its own
    /// (the slab's does not see this carve).
    pub(crate) fn first_carve<'s, M: Memory>(
        &'s self,
        region: M::Bytes<'s>,
        log: &'s GuardLog,
    ) -> Result<(), CarveError> {
        self.carve_logged::<M>(&self.arena, region, log)
            .map(drop)
            .map_err(CarveError::from)
    }

    /// [`Core::carve`] recording in `log`.
    fn carve_logged<'s, M: Memory>(
        &'s self,
        step: &'s A,
        region: M::Bytes<'s>,
        log: &'s GuardLog,
    ) -> Result<A::Views<'s, M>, StepError> {
        let slab = SlabRef {
            layout: &self.layout,
            guards: log,
        };
        self.arena
            .carve_planned::<M>(step, region, self.carving, Some(slab))
    }

    /// The guard check of this slab whose bytes are `mem`.
    pub(crate) fn check_guards(&self, mem: &[u8]) -> Result<(), GuardError> {
        check_slab::<A>(&self.layout, self.carving.guard, &self.guards, mem)
    }
}

/// The guard check of a slab of `A` whose bytes are `mem`: the gaps of an
/// arena without phases (or of one whose phases were never entered); the
/// bands found overwritten when a phase ended, and those of the current
/// phase, for an arena with phases.
fn check_slab<A: Arena>(
    layout: &Layout,
    guard: usize,
    log: &GuardLog,
    mem: &[u8],
) -> Result<(), GuardError> {
    if guard == 0 {
        return Ok(());
    }
    let Some(current) = log.current().filter(|_| !A::PHASES.is_empty()) else {
        return check_gaps(A::NAME, layout, mem);
    };
    let phases = A::PHASES.len();
    let infos = A::BUFFERS.iter().filter(|b| b.is_carved());
    let mut overrun = log.recorded();
    for (k, (p, info)) in layout.placements.iter().zip(infos).enumerate() {
        let (first, last) = info.phases(phases);
        let band = p.end()..p.end().saturating_add(guard);
        let live = first <= current && current <= last;
        if live
            && p.bytes > 0
            && mem
                .get(band)
                .is_none_or(|g| g.iter().any(|&b| b != GUARD_BYTE))
        {
            overrun.push(k);
        }
    }
    overrun.sort_unstable_by_key(|&k| (layout.placements[k].offset, k));
    overrun.dedup();
    if overrun.is_empty() {
        return Ok(());
    }
    Err(GuardError {
        arena: A::NAME,
        overrun: overrun.iter().map(|&k| layout.placements[k].name).collect(),
    })
}

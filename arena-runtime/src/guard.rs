//! Guard bands: the byte they hold, where they lie in a layout, the log a
//! phased slab keeps of them, and the error naming the buffers that overran.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::GuardError;
use crate::layout::Layout;

/// The byte every guard gap and padding byte holds while untouched.
pub const GUARD_BYTE: u8 = 0xA5;

/// What a slab hands its arena's carving: the layout planned once when the
/// slab was allocated, and the slab's guard log. Built as a literal where a
/// slab carves (three times in each slab): a method of the slab would borrow
/// all of it while its bytes are borrowed mutably.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct SlabRef<'a> {
    /// The slab's layout (offsets planned once).
    pub layout: &'a Layout,
    /// Where a phased arena's carving records the phase whose guard bands
    /// are armed and the overruns found when a phase ends.
    pub guards: &'a GuardLog,
}

/// The guard state of a slab of an arena with phases. Buffers of disjoint
/// phases share bytes, so a buffer's guard band can lie in another phase's
/// buffer: the bands of a phase's buffers are armed when its views are taken,
/// and checked when the next phase's are (or by `check_guards`).
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct GuardLog {
    /// One more than the phase whose bands are armed; 0 before any.
    current: AtomicUsize,
    /// Carved fields whose band was found overwritten when a phase ended.
    overrun: Mutex<Vec<usize>>,
}

impl GuardLog {
    /// The phase whose bands are armed, if any.
    pub(crate) fn current(&self) -> Option<usize> {
        self.current.load(Ordering::Relaxed).checked_sub(1)
    }

    /// Phase `phase`'s bands are armed.
    pub(crate) fn arm(&self, phase: usize) {
        self.current.store(phase + 1, Ordering::Relaxed);
    }

    /// Records that carved field `k` overran its band.
    pub(crate) fn record(&self, k: usize) {
        let mut v = self.overrun.lock().unwrap_or_else(|e| e.into_inner());
        if !v.contains(&k) {
            v.push(k);
        }
    }

    pub(crate) fn recorded(&self) -> Vec<usize> {
        self.overrun
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
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
        if let Some((name, end)) = last
            && p.offset > end
        {
            gaps.push((name, end, p.offset));
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

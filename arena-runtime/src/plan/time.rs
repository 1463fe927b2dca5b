//! Time: the phase boundaries of a problem compressed into sections, the
//! load of a set of jobs over those sections, and the lower bound of a
//! problem's height.
//!
//! The load is the planner's one sweep of the bytes live in each span of
//! time. Its arithmetic wraps, and is exact wherever it is used: it runs on
//! jobs a plan already holds side by side (greedy's, or a part of it), so
//! no section's sum passes `usize::MAX`. The sweeps that run before any
//! plan exists keep their own checked or scratch-only arithmetic, each with
//! its reason: [`lower_bound`] here, and greedy's `busiest`.

use super::base::{Item, align_up};
use crate::error::PlanError;

/// Time compressed into sections: the distinct boundaries of some spans,
/// ascending; between two of them the same spans are live. The planner's
/// one compression: of phases into sections for a whole problem (wide, so
/// that the phase after `usize::MAX` is a boundary too), and of sections
/// into a part's or a neighbourhood's own.
pub(super) struct Time<T> {
    at: Vec<T>,
}

impl<T: Ord + Copy> Time<T> {
    /// The boundaries of spans given by their ends (each span's start and
    /// the time after it).
    pub(super) fn of(ends: impl IntoIterator<Item = T>) -> Time<T> {
        let mut at: Vec<T> = ends.into_iter().collect();
        at.sort_unstable();
        at.dedup();
        Time { at }
    }

    /// How many sections lie between the boundaries.
    pub(super) fn sections(&self) -> usize {
        self.at.len().saturating_sub(1)
    }

    /// The index of boundary `t`, one of the ends it was made of.
    pub(super) fn index(&self, t: T) -> usize {
        self.at.binary_search(&t).unwrap_or(0)
    }

    /// The sections that meet the span `start..end` (any two times, not
    /// only boundaries).
    pub(super) fn meeting(&self, start: T, end: T) -> core::ops::Range<usize> {
        let first = self.at.partition_point(|&x| x <= start).saturating_sub(1);
        let last = self.at.partition_point(|&x| x < end).min(self.sections());
        first..last
    }

    /// The first and the last boundary (`None` where there is none).
    pub(super) fn ends(&self) -> Option<(T, T)> {
        Some((*self.at.first()?, *self.at.last()?))
    }
}

/// The phases of `items` compressed ([`Time`]): each one's first phase and
/// the phase after its last.
pub(super) fn phases<'i>(items: impl IntoIterator<Item = &'i Item>) -> Time<u128> {
    Time::of(
        items
            .into_iter()
            .flat_map(|it| [it.first as u128, it.last as u128 + 1]),
    )
}

/// The bytes live in each of `sections` sections, of jobs given as
/// `(start, end, bytes)`, each live in sections `start..end`: one pass of
/// differences, wrapping (exact: see the module's documentation).
pub(super) fn load(
    sections: usize,
    jobs: impl IntoIterator<Item = (usize, usize, usize)>,
) -> Vec<usize> {
    let mut delta = vec![0usize; sections + 1];
    for (start, end, bytes) in jobs {
        delta[start] = delta[start].wrapping_add(bytes);
        delta[end] = delta[end].wrapping_sub(bytes);
    }
    let mut live = 0usize;
    delta.truncate(sections);
    for d in &mut delta {
        live = live.wrapping_add(*d);
        *d = live;
    }
    delta
}

/// A height no placement goes below: the largest, over phases, of the sum
/// of the live buffers' bytes, each rounded up to `align` but for the one
/// that ends the phase's stack (the bound takes the one whose rounding is
/// largest). Every buffer's start is a multiple of `align` (capped at the
/// smallest alignment of the buffers live in the phase), so a buffer below
/// another takes at least its bytes rounded up; the topmost only its bytes.
/// So the bound is at most every plan's height: two 10-byte buffers aligned
/// to 256 give 266, as the plan.
// Its own sweep, checked: it runs on an arena's sizes before any plan
// exists, where a sum past `usize::MAX` is an error naming the item.
pub fn lower_bound(items: &[Item], phases: usize, align: usize) -> Result<usize, PlanError> {
    let unit = align.max(1);
    if phases > 64 && items.iter().all(|it| it.align >= unit) {
        return lower_bound_sweep(items, phases, unit);
    }
    // Between two boundaries (a first phase, the phase after a last) the
    // same buffers are live: each is one phase to look at, however many
    // phases there are.
    let mut at: Vec<usize> = items
        .iter()
        .filter(|it| it.first <= it.last)
        .flat_map(|it| [it.first, it.last.saturating_add(1)])
        .filter(|&p| p < phases)
        .collect();
    at.sort_unstable();
    at.dedup();
    let mut best = 0usize;
    for p in at {
        let live = || {
            items
                .iter()
                .enumerate()
                .filter(|(_, it)| it.first <= p && p <= it.last)
        };
        let unit = live()
            .map(|(_, it)| it.align)
            .fold(align, usize::min)
            .max(1);
        let (mut sum, mut slack) = (0usize, 0usize);
        for (item, it) in live() {
            let overflow = PlanError::Overflow { item };
            let b = align_up(it.bytes, unit).ok_or(overflow)?;
            sum = sum.checked_add(b).ok_or(overflow)?;
            slack = slack.max(b - it.bytes);
        }
        best = best.max(sum - slack);
    }
    Ok(best)
}
/// [`lower_bound`] in `O(n log n)` for many phases where every buffer's
/// alignment is at least `unit`: a sweep over the buffers by first phase,
/// taking away those whose last phase is before it. The bound only falls
/// when a buffer ends (its rounded bytes leave the sum, its padding at most
/// the largest), so it is largest at some buffer's first phase.
// Checked, for the same reason as `lower_bound`.
fn lower_bound_sweep(items: &[Item], phases: usize, unit: usize) -> Result<usize, PlanError> {
    let live = || {
        items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.first <= it.last && it.first < phases)
    };
    let mut starts: Vec<(usize, usize)> = live().map(|(k, it)| (it.first, k)).collect();
    let mut ends: Vec<(usize, usize)> = live().map(|(k, it)| (it.last, k)).collect();
    starts.sort_unstable();
    ends.sort_unstable();
    // The padding of each live buffer, counted: the largest is the top's.
    let mut slacks = std::collections::BTreeMap::<usize, usize>::new();
    let (mut sum, mut best, mut gone) = (0usize, 0usize, 0);
    let rounded = |k: usize| align_up(items[k].bytes, unit).ok_or(PlanError::Overflow { item: k });
    for &(first, k) in &starts {
        while gone < ends.len() && ends[gone].0 < first {
            let j = ends[gone].1;
            let b = rounded(j)?;
            sum -= b;
            let slack = b - items[j].bytes;
            if let Some(c) = slacks.get_mut(&slack) {
                *c -= 1;
                if *c == 0 {
                    slacks.remove(&slack);
                }
            }
            gone += 1;
        }
        let b = rounded(k)?;
        sum = sum.checked_add(b).ok_or(PlanError::Overflow { item: k })?;
        *slacks.entry(b - items[k].bytes).or_default() += 1;
        let top = slacks.keys().next_back().copied().unwrap_or(0);
        best = best.max(sum - top);
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_is_the_bytes_live_in_each_section() {
        // Against a count section by section, on jobs of a fixed hash.
        let mut seed = 7u64;
        for case in 0..200 {
            let sections = 1 + case % 17;
            let jobs: Vec<(usize, usize, usize)> = (0..case % 23)
                .map(|k| {
                    seed = super::super::base::mix(seed, k as u64);
                    let a = seed as usize % sections;
                    let b = (seed >> 20) as usize % sections;
                    (a.min(b), a.max(b) + 1, (seed >> 40) as usize % 1000)
                })
                .collect();
            let want: Vec<usize> = (0..sections)
                .map(|s| {
                    jobs.iter()
                        .filter(|&&(a, b, _)| a <= s && s < b)
                        .map(|j| j.2)
                        .sum()
                })
                .collect();
            assert_eq!(load(sections, jobs.iter().copied()), want, "case {case}");
        }
        assert_eq!(load(0, []), Vec::<usize>::new());
    }

    #[test]
    fn time_compresses_to_its_boundaries() {
        // Spans 10..20, 15..40, 40..41: boundaries 10, 15, 20, 40, 41.
        let time = Time::of([10usize, 20, 15, 40, 40, 41]);
        assert_eq!(time.sections(), 4);
        assert_eq!(time.ends(), Some((10, 41)));
        assert_eq!([10, 15, 20, 40, 41].map(|t| time.index(t)), [0, 1, 2, 3, 4]);
        // Any span: the sections it meets.
        assert_eq!(time.meeting(10, 20), 0..2);
        assert_eq!(time.meeting(16, 17), 1..2);
        assert_eq!(time.meeting(0, 11), 0..1);
        assert_eq!(time.meeting(40, 100), 3..4);
        assert_eq!(time.meeting(50, 60), 4..4);
        let none = Time::<usize>::of([]);
        assert_eq!((none.sections(), none.ends()), (0, None));
        assert_eq!(none.meeting(0, 5), 0..0);
    }
}

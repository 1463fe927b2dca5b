//! Independent parts of a problem (where no buffer crosses a boundary of
//! time), each searched apart, the budget shared among them.

use super::rounds::{Rounded, at_bound, rounds};
use super::split::local;
use super::{dissect, lns, peel, search};

/// The independent parts of a problem, for their search.
pub(super) struct Parts<'a> {
    pub(super) jobs: &'a [search::Job],
    pub(super) parts: &'a [Vec<usize>],
    /// Each part's busiest section's bytes.
    pub(super) bounds: &'a [usize],
    /// Whether each part is a perfect packing at its bound.
    pub(super) perfect: &'a [bool],
    /// The highest part's bound, the whole's: no plan is lower.
    pub(super) bound: usize,
    /// The height to reach: the bound, or a capacity above it.
    pub(super) aim: usize,
}

impl Parts<'_> {
    /// Searches the parts above the aim (`now`: each job's offset in the
    /// plan so far; `heights`: each part's), with `budget` nodes in all:
    /// the offsets of the plan found, by job, and the nodes used.
    pub(super) fn run(
        &self,
        mut now: Vec<usize>,
        mut heights: Vec<usize>,
        budget: u64,
    ) -> (Vec<usize>, u64) {
        let (jobs, parts) = (self.jobs, self.parts);
        // Each part's next round: a later pass goes on where the last stopped.
        let mut next = vec![0usize; parts.len()];
        let mut left = budget;
        // The parts whose neighbourhoods all failed: another pass would
        // repeat them.
        let mut stalled = vec![false; parts.len()];
        // The tiles each part's rebuild was left with, where it got stuck.
        let mut stuck_tiles: Vec<Option<dissect::Reduced>> =
            (0..parts.len()).map(|_| None).collect();
        // A perfect packing first rebuilt as a dissection: where it
        // rebuilds, its plan is at the bound. With half of its share:
        // where the rebuild gets stuck, the search of the tiles it was
        // left with, a smaller problem, is more likely to reach the bound
        // than the search of the whole, and the tiles of a large part's
        // stuck rebuild, the small ones cut back, are rebuilt as a part
        // of their own. What the rebuild leaves goes back to the others.
        let packed: usize = (0..parts.len())
            .filter(|&p| heights[p] > self.aim && self.perfect[p])
            .map(|p| parts[p].len())
            .sum();
        for (p, part) in parts.iter().enumerate() {
            if heights[p] <= self.aim || !self.perfect[p] {
                continue;
            }
            let part_share = (left as u128 * part.len() as u128 / packed.max(1) as u128) as u64;
            let share = part_share / 2;
            let (local, sections) = local(jobs, part);
            // Where it gets stuck, the tiles it was left with are
            // searched as jobs of their own.
            let bound = self.bounds[p].max(self.bound);
            let search = |reduced: &[search::Job], budget: u64| {
                at_bound(reduced, sections, bound, self.aim, budget)
            };
            let rebuilt = dissect::rebuild(&local, sections, share, search);
            left = left.saturating_sub(rebuilt.nodes);
            if let Some(off) = rebuilt.offsets {
                set_offsets(&mut now, part, &off);
                heights[p] = part_height(jobs, part, &now);
            }
            stuck_tiles[p] = rebuilt.stuck;
            // Where it got stuck and jobs span the part: those stacked
            // apart and the rest rebuilt ([`peel`]), with an eighth as
            // much (where that rebuilds, it mostly takes a few nodes a
            // job; where it does not, all it is given).
            if heights[p] > self.aim
                && let Some((found, used)) =
                    peel::rebuild(&local, sections, self.bounds[p], share / 8)
            {
                left = left.saturating_sub(used);
                if let Some(offsets) = found {
                    set_offsets(&mut now, part, &offsets);
                    heights[p] = part_height(jobs, part, &now);
                }
            }
        }
        for pass in 0..PASSES {
            // The smaller parts first: what they leave of their share goes
            // to the larger ones, and what a pass leaves to the parts still
            // above the aim in the next.
            let mut pending: Vec<usize> = (0..parts.len())
                .filter(|&p| heights[p] > self.aim)
                .collect();
            if pending.is_empty() || left == 0 {
                break;
            }
            pending.sort_by_key(|&p| (parts[p].len(), p));
            let mut waiting: usize = pending.iter().map(|&p| parts[p].len()).sum();
            for p in pending {
                let part = &parts[p];
                let share = ((left as u128 * part.len() as u128) / waiting.max(1) as u128) as u64;
                waiting -= part.len();
                match way(part.len(), self.perfect[p], pass) {
                    Way::Neighbourhoods if stalled[p] => {}
                    Way::Neighbourhoods => {
                        let mut off: Vec<usize> = part.iter().map(|&j| now[j]).collect();
                        let (used, stuck) = lns::refine(jobs, part, &mut off, self.aim, share);
                        left = left.saturating_sub(used);
                        stalled[p] = stuck;
                        set_offsets(&mut now, part, &off);
                        heights[p] = part_height(jobs, part, &now);
                    }
                    Way::Search { spare } => {
                        let share = share - share.checked_div(spare).unwrap_or(0);
                        let (local, sections) = local(jobs, part);
                        // Where the rebuild got stuck, the tiles it was
                        // left with are searched first with half of the
                        // share (a plan of theirs, at any height, is one
                        // of the part's), then the part's jobs.
                        let mut share = share;
                        if let Some(tiles) = stuck_tiles[p].take() {
                            let half = share / 2;
                            share -= half;
                            let rounded =
                                self.rounds_of(p, &tiles.jobs, sections, heights[p], (half, 0));
                            left = left.saturating_sub(rounded.nodes);
                            let found = rounded.best.and_then(|found| {
                                Some((tiles.expand(&found.offsets, &local)?, found.height))
                            });
                            if let Some((offsets, height)) = found {
                                heights[p] = height;
                                set_offsets(&mut now, part, &offsets);
                            }
                        }
                        if heights[p] > self.aim {
                            let rounded =
                                self.rounds_of(p, &local, sections, heights[p], (share, next[p]));
                            next[p] = rounded.next_round;
                            left = left.saturating_sub(rounded.nodes);
                            if let Some(found) = rounded.best {
                                heights[p] = found.height;
                                set_offsets(&mut now, part, &found.offsets);
                            }
                        }
                    }
                }
            }
        }
        (now, budget - left)
    }

    /// The search's rounds over `jobs` (part `p`'s, or the tiles its
    /// rebuild was left with) over `sections`, from a plan of `height`:
    /// below the highest part's bound is no use, so they start there, and
    /// they stop at the aim.
    fn rounds_of(
        &self,
        p: usize,
        jobs: &[search::Job],
        sections: usize,
        height: usize,
        budget: (u64, usize),
    ) -> Rounded {
        let bound = self.bounds[p].max(self.bound);
        rounds(
            jobs,
            sections,
            Vec::new(),
            bound,
            height,
            budget,
            Some(self.aim),
        )
    }
}

/// The jobs `part` at `offsets` (by position in the part) in `now` (by
/// job).
fn set_offsets(now: &mut [usize], part: &[usize], offsets: &[usize]) {
    for (&j, &o) in part.iter().zip(offsets) {
        now[j] = o;
    }
}

/// The height of the jobs `part` of `jobs` at the offsets `at` (by job).
pub(super) fn part_height(jobs: &[search::Job], part: &[usize], at: &[usize]) -> usize {
    part.iter()
        .map(|&j| at[j] + jobs[j].foot)
        .max()
        .unwrap_or(0)
}

/// The most buffers of a part the search runs on: more for a perfect
/// packing (16,384; above 8,192 for one pass only), where the corner
/// searches find their plans in short runs of a node or two a buffer, than
/// for any other part (2,048), where a node's work grows with the part and
/// the budget runs out before a plan of that depth is done.
pub(super) const fn max_jobs(perfect: bool) -> usize {
    if perfect {
        2 * search::MAX_JOBS
    } else {
        search::MAX_JOBS / 4
    }
}

/// How a part is planned in a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// By the search as a whole, with its share but `1 / spare` of it
    /// (none where `spare` is 0), which the neighbourhoods of the later
    /// passes have where the plan is still above the aim.
    Search { spare: u64 },
    /// A neighbourhood at a time ([`lns::refine`]).
    Neighbourhoods,
}

/// How a part of `len` buffers is planned in pass `pass`. A perfect
/// packing of up to [`SHARED`] buffers, and one above 8,192 (larger than
/// any other part the search takes), gets one pass of the search, with
/// three quarters of its share (half above 8,192), and where it leaves the
/// plan above the aim the neighbourhoods go on from its best in the later
/// passes. Any other part up to [`max_jobs`] buffers is searched in every
/// pass with its whole share; above that, a neighbourhood at a time, with
/// the whole share.
fn way(len: usize, perfect: bool, pass: usize) -> Way {
    let spare = if len > search::MAX_JOBS {
        2
    } else if perfect && len <= SHARED {
        4
    } else {
        0
    };
    if len > max_jobs(perfect) || (spare > 0 && pass > 0) {
        Way::Neighbourhoods
    } else {
        Way::Search { spare }
    }
}

/// The largest perfect packing whose search leaves a quarter of its share
/// to the neighbourhoods: one of [`lns::MOST`] buffers is half of it or
/// more, re-planned whole above the rest, which lowers a plan the search
/// left above the bound (where many buffers share each start and end, as
/// in OmniMalloc's makespan of 1,024) further than the search's bisection
/// does with that quarter; the other three keep the search's runs at the
/// bound (half of the share lost more plans at the bound than a quarter,
/// BENCHMARKS.md). On larger ones the neighbourhoods reach too little of
/// the plan: there the bisection has the whole share.
const SHARED: usize = 2 * lns::MOST;

/// How many times the parts still above the aim share what budget is left.
const PASSES: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_takes_what_it_can_and_the_neighbourhoods_the_rest() {
        let search = Way::Search { spare: 0 };
        let quarter = Way::Search { spare: 4 };
        let halved = Way::Search { spare: 2 };
        let hoods = Way::Neighbourhoods;
        for (len, perfect, first, later) in [
            (100, false, search, search),
            (2_048, false, search, search),
            (2_049, false, hoods, hoods),
            // A quarter of the share left to the neighbourhoods up to
            // 4,096, half above 8,192 (one pass of the search each).
            (1, true, quarter, hoods),
            (4_096, true, quarter, hoods),
            (4_097, true, search, search),
            (8_192, true, search, search),
            (8_193, true, halved, hoods),
            (16_384, true, halved, hoods),
            // Straight to the neighbourhoods, with its whole share (its
            // first pass had half before, though no search ran).
            (16_385, true, hoods, hoods),
            (60_000, false, hoods, hoods),
        ] {
            assert_eq!(way(len, perfect, 0), first, "{len} {perfect}");
            for pass in 1..PASSES {
                assert_eq!(way(len, perfect, pass), later, "{len} {perfect} {pass}");
            }
        }
    }
}

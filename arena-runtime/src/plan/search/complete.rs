//! A whole plan from the deepest placements a failed search made: what a
//! run at the bound, or an attempt of the bisection, that got far leaves
//! for the rounds.

use super::Model;
use crate::plan::base::{align_up, first_fit, log_steps};

impl Model<'_> {
    /// A whole plan from `partial` (job, offset: placements that do not
    /// overlap, each at or above the job's lowest offset): the jobs left
    /// placed by first fit around them, the largest first (then the
    /// earliest, then by index). The offsets by job, the height, and the
    /// steps of work done (for the budget), the sorts' log factors
    /// counted.
    ///
    /// The placements of a corner run that failed are a perfect packing
    /// of the bytes below its frontier; placed whole, with the rest above
    /// and in its gaps, they give a plan near the bound where the run got
    /// near the end (a pinwheel of 501 buffers over 1,024 phases: 1.04 of
    /// the optimum, where the bisection left 1.21).
    pub(crate) fn complete(&self, partial: &[(usize, usize)]) -> (Vec<usize>, usize, usize) {
        let n = self.jobs.len();
        let mut off = vec![usize::MAX; n];
        for &(j, o) in partial {
            off[j] = o;
        }
        let mut left: Vec<usize> = (0..n).filter(|&j| off[j] == usize::MAX).collect();
        left.sort_unstable_by_key(|&j| {
            (core::cmp::Reverse(self.jobs[j].foot), self.jobs[j].start, j)
        });
        let mut steps = n + left.len() * log_steps(left.len()) as usize;
        let mut taken: Vec<(usize, usize)> = Vec::new();
        for &j in &left {
            let job = &self.jobs[j];
            taken.clear();
            taken.extend(
                self.overlaps[j]
                    .iter()
                    .filter(|&&o| off[o] != usize::MAX)
                    .map(|&o| (off[o], off[o].saturating_add(self.jobs[o].foot))),
            );
            taken.sort_unstable();
            steps += self.overlaps[j].len() + taken.len() * log_steps(taken.len()) as usize;
            // Every job fits somewhere above the others (the greedy plan
            // placed it); a sum past `usize::MAX` gives a height no plan
            // beats.
            let at = first_fit(
                self.start_off[j],
                job.align,
                job.foot,
                taken.iter().copied(),
            );
            off[j] = align_up(at, job.align).unwrap_or(usize::MAX);
        }
        let height = (0..n)
            .map(|j| off[j].saturating_add(self.jobs[j].foot))
            .max()
            .unwrap_or(0);
        (off, height, steps)
    }
}

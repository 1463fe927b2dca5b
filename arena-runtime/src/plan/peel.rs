//! A perfect packing's certain cuts, taken top down where its rebuild
//! bottom up got stuck: a job spanning its whole part lies at the bottom of
//! some plan at the bound (the bytes below it, in any plan at the bound,
//! are a rectangle of its span: moved above it, they still fit), and once
//! such jobs are stacked apart the rest may fall into parts that no job
//! crosses, each a perfect packing of its own, peeled in turn. What is
//! left, parts with no job spanning them, is rebuilt
//! ([`dissect::rebuild`]).
//!
//! Within a larger problem, a part's jobs spanning it are not live
//! throughout the whole, so the run's own stacking apart
//! ([`solve`](super::solve)) leaves them to the rebuild, whose joins do
//! not take such a job first: where pieces of one span or height meet by
//! chance, it may never join them.

use super::dissect;
use super::rounds::at_bound;
use super::search::Job;
use super::split::{components, local};

/// Where a job of `jobs` (a perfect packing over `sections`, every section
/// holding `bound` bytes) spans them all: the plan of its peeled rebuild
/// (offsets by position in `jobs`, at the bound; `None` where a part left
/// did not rebuild, or the budget ran out) and the nodes used, a step for
/// each job of each group split counted with the rebuilds' nodes. Else
/// `None`: nothing to peel.
pub(super) fn rebuild(
    jobs: &[Job],
    sections: usize,
    bound: usize,
    budget: u64,
) -> Option<(Option<Vec<usize>>, u64)> {
    let spanning = |j: &Job| spans(j, sections);
    if !jobs.iter().any(spanning) || jobs.iter().all(spanning) {
        return None;
    }
    // Offsets stay multiples of every alignment where every footprint is.
    let align = jobs.iter().map(|j| j.align.max(1)).max().unwrap_or(1);
    if jobs.iter().any(|j| j.foot % align != 0) {
        return None;
    }
    let mut offsets = vec![0usize; jobs.len()];
    let mut used = 0u64;
    // Each group: its jobs (positions in `jobs`) and the offset its
    // rectangle starts at.
    let mut todo: Vec<(Vec<usize>, usize)> = vec![((0..jobs.len()).collect(), 0)];
    while let Some((group, base)) = todo.pop() {
        // A step a job of each group split: a part peeled one job at a
        // time stops within the budget.
        used = used.saturating_add(group.len() as u64);
        if used > budget {
            return Some((None, used));
        }
        let group_jobs: Vec<Job> = group.iter().map(|&k| jobs[k]).collect();
        for part in components(&group_jobs) {
            let (part_jobs, part_sections) = local(&group_jobs, &part);
            let mut top = base;
            let mut rest = Vec::with_capacity(part.len());
            // The largest first: the order is free, every footprint a
            // multiple of every alignment.
            let mut stacked: Vec<usize> = Vec::new();
            for (i, j) in part_jobs.iter().enumerate() {
                if spans(j, part_sections) {
                    stacked.push(i);
                } else {
                    rest.push(group[part[i]]);
                }
            }
            stacked.sort_by_key(|&i| (core::cmp::Reverse(part_jobs[i].foot), i));
            for &i in &stacked {
                offsets[group[part[i]]] = top;
                top += part_jobs[i].foot;
            }
            if rest.is_empty() {
                continue;
            }
            if !stacked.is_empty() {
                todo.push((rest, top));
                continue;
            }
            // Nothing spans this part: rebuilt bottom up, with a share of
            // the budget in proportion to its jobs.
            let share = (budget as u128 * part.len() as u128 / jobs.len() as u128) as u64;
            let share = share.min(budget.saturating_sub(used));
            let height = bound.saturating_sub(base);
            let solve =
                |tiles: &[Job], budget: u64| at_bound(tiles, part_sections, height, height, budget);
            let rebuilt = dissect::rebuild(&part_jobs, part_sections, share, solve);
            used = used.saturating_add(rebuilt.nodes);
            let Some(found) = rebuilt.offsets else {
                return Some((None, used));
            };
            for (i, o) in found.into_iter().enumerate() {
                offsets[group[part[i]]] = base + o;
            }
        }
    }
    Some((Some(offsets), used))
}

/// Whether `job` spans all of `sections`.
fn spans(job: &Job, sections: usize) -> bool {
    job.start == 0 && job.end == sections
}

#[cfg(test)]
mod tests {
    use super::{Job, rebuild};
    use crate::plan::dissect::tests::{jobs, tiles};

    #[test]
    fn jobs_spanning_the_part_are_stacked_apart_and_the_rest_rebuilt() {
        // Over 4 sections, 10 high: [0, 4) of 1 and of 3 span them all;
        // above them, 6 high, [0, 2) and [2, 4) of 2 under [0, 3) and
        // [3, 4) of 4: no job spans the rest, rebuilt bottom up.
        let spans = [
            (2, 4, 2),
            (0, 4, 1),
            (3, 4, 4),
            (0, 2, 2),
            (0, 4, 3),
            (0, 3, 4),
        ];
        let all = jobs(&spans, 1);
        let (found, _) = rebuild(&all, 4, 10, 1_000).expect("two jobs span the part");
        let off = found.expect("the rest rebuilds");
        tiles(&all, &off, 4, 10);
        // The larger spanning job at the bottom, the other on it.
        assert_eq!((off[4], off[1]), (0, 3));
        assert!(
            off.iter()
                .enumerate()
                .all(|(k, &o)| [1, 4].contains(&k) || o >= 4)
        );
    }

    #[test]
    fn nothing_to_peel_where_no_job_or_every_job_spans_the_part_or_alignments_differ() {
        let none = jobs(&[(0, 2, 4), (2, 4, 4)], 1);
        let spanning = jobs(&[(0, 4, 3), (0, 4, 1)], 1);
        let twisted = jobs(&[(0, 4, 3), (0, 1, 1), (1, 4, 1)], 1);
        assert!(rebuild(&none, 4, 4, 1_000).is_none());
        assert!(rebuild(&spanning, 4, 4, 1_000).is_none());
        // A footprint not a multiple of every alignment: offsets could not
        // stay aligned.
        let mut aligned = twisted.clone();
        aligned[0].align = 2;
        assert!(rebuild(&aligned, 4, 4, 1_000).is_none());
        // Aligned to 1: the job spanning the part stacked, the rest two
        // parts of one job each.
        let (found, _) = rebuild(&twisted, 4, 4, 1_000).expect("one job spans the part");
        tiles(&twisted, &found.expect("rebuilds"), 4, 4);
    }

    /// Jobs nested `n` deep, each spanning the rest once the ones around
    /// it are peeled (`[i, 2n + 1 - i)` of 1 byte), the sections filled up
    /// to `n` by a job of one section each: `n` levels to split.
    fn nested(n: usize) -> Vec<Job> {
        let mut spans: Vec<_> = (0..n).map(|i| (i, 2 * n + 1 - i, 1)).collect();
        for x in 0..=2 * n {
            let live = x.min(2 * n - x) + 1;
            if live < n {
                spans.push((x, x + 1, n - live));
            }
        }
        jobs(&spans, 1)
    }

    #[test]
    fn a_part_peeled_a_job_at_a_time_stops_within_its_budget() {
        let small = nested(200);
        let (found, _) = rebuild(&small, 401, 200, 1_000_000).expect("a job spans the part");
        tiles(&small, &found.expect("peels to the end"), 401, 200);
        // 3,000 levels of thousands of jobs, unbounded: a step a job.
        let deep = nested(3_000);
        let (found, used) = rebuild(&deep, 6_001, 3_000, 100_000).expect("a job spans the part");
        assert!(found.is_none());
        assert!(used <= 100_000 + deep.len() as u64, "{used}");
    }
}

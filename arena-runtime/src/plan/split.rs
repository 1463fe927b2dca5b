//! A problem's jobs split where no job crosses a boundary of time: the
//! independent parts, each in its own sections, and each one's bound.

use super::search;
use super::time::Time;

/// The jobs of each independent part of `jobs`: runs of time no job
/// crosses the ends of, in order of time.
pub(super) fn components(jobs: &[search::Job]) -> Vec<Vec<usize>> {
    let mut by_start: Vec<usize> = (0..jobs.len()).collect();
    by_start.sort_by_key(|&j| (jobs[j].start, j));
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut end = 0;
    for j in by_start {
        match out.last_mut() {
            Some(part) if jobs[j].start < end => part.push(j),
            _ => out.push(vec![j]),
        }
        end = end.max(jobs[j].end);
    }
    // Each part's jobs in their own order: the search breaks its last ties
    // by it.
    for part in &mut out {
        part.sort_unstable();
    }
    out
}

/// The busiest section of a part (the bytes live in it), and whether every
/// section of the part holds that much (a perfect packing at its bound).
pub(super) fn part_bound(jobs: &[search::Job], part: &[usize]) -> (usize, bool) {
    let (local, sections) = local(jobs, part);
    let load = super::time::load(sections, local.iter().map(|j| (j.start, j.end, j.foot)));
    match (load.iter().max(), load.iter().min()) {
        (Some(&most), Some(&least)) => (most, least == most),
        _ => (0, false),
    }
}

/// The jobs `part` of `jobs` in the part's own sections ([`Time`]), and
/// how many sections it has. (A part is a run of sections, each with a job
/// live in it: the same as its sections re-based at its first.)
pub(super) fn local(jobs: &[search::Job], part: &[usize]) -> (Vec<search::Job>, usize) {
    let times = Time::of(part.iter().flat_map(|&j| [jobs[j].start, jobs[j].end]));
    let local = part
        .iter()
        .map(|&j| search::Job {
            start: times.index(jobs[j].start),
            end: times.index(jobs[j].end),
            ..jobs[j]
        })
        .collect();
    (local, times.sections())
}

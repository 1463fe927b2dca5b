//! Large-neighbourhood search: a part too large for the search of
//! [`super::rounds`] gets its plan improved a neighbourhood at a time.
//!
//! The method (which buffers a neighbourhood takes, why its base is all a
//! re-plan must respect, the sizes tried) is described in the planner's
//! documentation ([`super`]).

use super::base::{align_up, first_fit, log_steps};
use super::order::{Facts, Order};
use super::search::{Job, MOST_PAIRS};
use super::time::Time;

/// The most buffers the search re-plans at once.
pub(super) const MOST: usize = 2_048;
/// The fewest.
const FEWEST: usize = 64;
/// The sizes the search tries, doubling from `FEWEST` to `MOST`.
const EXACT: usize = 6;
/// The sizes greedy tries, doubling from twice `MOST`.
const LARGER: usize = 3;
/// The steps of work outside the search (scans of the part, greedy's
/// placements) that count as one node of the budget: about the time of one
/// node of the search.
const STEPS: u64 = 8_192;
/// The rounds of greedy's sizes, each in orders of other seeds.
const SHAKES: usize = 16;

/// Re-plans neighbourhoods of the plan `off` (offsets by position in
/// `part`, whose jobs are `jobs[part[k]]`) while its height is above `aim`
/// and `budget` nodes remain: the nodes used, and whether it stopped with
/// nodes left (every neighbourhood failed: another call would repeat them).
pub(super) fn refine(
    jobs: &[Job],
    part: &[usize],
    off: &mut [usize],
    aim: usize,
    budget: u64,
) -> (u64, bool) {
    let n = part.len();
    if n == 0 {
        return (0, true);
    }
    let job = |k: usize| &jobs[part[k]];
    let mut left = budget;
    // Failures since the last success: each doubles the neighbourhood.
    let mut tries = 0usize;
    let mut stalled = false;
    let mut tops: Vec<usize> = Vec::with_capacity(n);
    let mut by_start: Vec<usize> = Vec::with_capacity(n);
    while left > 0 {
        let top = |k: usize| off[k] + job(k).foot;
        let height = (0..n).map(top).max().unwrap_or(0);
        if height <= aim {
            break;
        }
        // The search on neighbourhoods of 64 to `MOST` jobs, then greedy in
        // its three orders and a shuffled one on 2 to 8 times as many, then
        // greedy in shuffled orders only, each try its own.
        let (size, exact) = if tries < EXACT {
            (FEWEST << tries, true)
        } else if tries < EXACT + SHAKES * LARGER {
            (MOST << (1 + (tries - EXACT) % LARGER), false)
        } else {
            stalled = true;
            break;
        };
        // The peak: the first job whose top is the height.
        let Some(peak) = (0..n).find(|&k| top(k) == height) else {
            break;
        };
        // The jobs whose top is above `level` live in the window around
        // the peak that they span themselves: upward closed (a job above
        // one of them is live with it, so its top is above `level` and it
        // is live in the window), so each stays where it is possible. They
        // are the run of such jobs, merged in order of start, that holds
        // the peak: one pass over the part for each level.
        by_start.clear();
        by_start.extend(0..n);
        by_start.sort_unstable_by_key(|&k| (job(k).start, k));
        let scans = core::cell::Cell::new(0u64);
        let above = |level: usize| -> Option<Vec<usize>> {
            scans.set(scans.get() + n as u64);
            let mut run: Vec<usize> = Vec::new();
            let (mut end, mut has_peak) = (0usize, false);
            for &k in &by_start {
                if top(k) <= level {
                    continue;
                }
                if !run.is_empty() && job(k).start >= end {
                    if has_peak {
                        break;
                    }
                    run.clear();
                }
                run.push(k);
                end = end.max(job(k).end);
                has_peak |= k == peak;
                if has_peak && run.len() > size {
                    return None;
                }
            }
            // (The peak's top is the height, above any level tried.) In
            // the part's order, as the search breaks its last ties by it.
            run.sort_unstable();
            Some(run)
        };
        // The lowest level whose neighbourhood holds at most `size` jobs.
        tops.clear();
        tops.extend((0..n).map(top));
        tops.sort_unstable_by(|x, y| y.cmp(x));
        tops.dedup();
        // `tops[0]` is the height: nothing is above it.
        let (mut lo, mut hi) = (0usize, tops.len() - 1);
        let mut near = Vec::new();
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            match above(tops[mid]) {
                Some(f) => {
                    lo = mid;
                    near = f;
                }
                None => hi = mid - 1,
            }
        }
        if near.is_empty() {
            near = above(tops[lo]).unwrap_or_default();
        }
        // Sorting the jobs by start and the tops, and the passes for the
        // level.
        let sort = 2 * n as u64 * log_steps(n);
        left = left.saturating_sub((sort + scans.get()) / STEPS);
        if left == 0 {
            break;
        }
        let used = if exact {
            replan(jobs, part, off, &near, height, aim, left)
        } else {
            let (steps, ok) = regreedy(jobs, part, off, &near, height, tries - EXACT);
            (steps / STEPS, ok)
        };
        left = left.saturating_sub(used.0.max(1));
        if used.1 {
            tries = 0;
        } else {
            tries += 1;
        }
    }
    (budget - left, stalled)
}

/// A neighbourhood taken out of a plan: its jobs over their own sections,
/// each section's base, and the lowest height it can reach.
struct Hood {
    sub: Vec<Job>,
    sections: usize,
    base: Vec<usize>,
    bound: usize,
    /// The steps of work its making took.
    steps: u64,
}

impl Hood {
    /// The jobs of positions `free` of `part`, above the others of the plan
    /// `off`.
    fn new(jobs: &[Job], part: &[usize], off: &[usize], free: &[usize]) -> Hood {
        let job = |k: usize| &jobs[part[k]];
        let times = Time::of(free.iter().flat_map(|&k| [job(k).start, job(k).end]));
        let sections = times.sections();
        let mut freed = vec![false; part.len()];
        for &k in free {
            freed[k] = true;
        }
        // Each local section's base: the highest top of the jobs that stay,
        // filled from the highest down, each section once (`next` skips
        // the filled ones).
        let (lo, hi) = times.ends().unwrap_or((0, 0));
        let mut stay: Vec<usize> = (0..part.len())
            .filter(|&k| !freed[k] && job(k).start < hi && lo < job(k).end)
            .collect();
        stay.sort_unstable_by_key(|&k| core::cmp::Reverse(off[k] + job(k).foot));
        let mut base = vec![0usize; sections];
        let mut next: Vec<usize> = (0..=sections).collect();
        fn find(next: &mut [usize], mut s: usize) -> usize {
            while next[s] != s {
                next[s] = next[next[s]];
                s = next[s];
            }
            s
        }
        for &k in &stay {
            let j = job(k);
            let local = times.meeting(j.start, j.end);
            let mut s = find(&mut next, local.start);
            while s < local.end {
                base[s] = off[k] + j.foot;
                next[s] = s + 1;
                s = find(&mut next, s + 1);
            }
        }
        let sub: Vec<Job> = free
            .iter()
            .map(|&k| Job {
                start: times.index(job(k).start),
                end: times.index(job(k).end),
                item: k,
                ..*job(k)
            })
            .collect();
        // The bytes to place in each section.
        let load = super::time::load(sections, sub.iter().map(|j| (j.start, j.end, j.foot)));
        let mut bound = 0;
        for (&run, &under) in load.iter().zip(&base) {
            // (A section with nothing to place has no say.)
            if run > 0 {
                bound = bound.max(run.saturating_add(under));
            }
        }
        let steps = part.len() as u64
            + stay.len() as u64 * log_steps(stay.len())
            + free.len() as u64 * log_steps(free.len())
            + 2 * sections as u64;
        Hood {
            sub,
            sections,
            base,
            bound,
            steps,
        }
    }

    /// [`Hood::new`] where it has jobs and its bound is below `height`;
    /// else the steps its making took.
    fn below(
        jobs: &[Job],
        part: &[usize],
        off: &[usize],
        free: &[usize],
        height: usize,
    ) -> Result<Hood, u64> {
        if free.is_empty() {
            return Err(0);
        }
        let hood = Hood::new(jobs, part, off, free);
        if hood.bound >= height {
            return Err(hood.steps);
        }
        Ok(hood)
    }

    /// Writes the plan `placed` (offsets by job of `sub`) into `off`.
    fn apply(&self, off: &mut [usize], placed: &[usize]) {
        for (j, &o) in self.sub.iter().zip(placed) {
            off[j.item] = o;
        }
    }
}

/// Re-plans the jobs of positions `free` above the others by the search:
/// the nodes used, and whether the plan's height fell below `height` (then
/// `off` holds the new plan).
fn replan(
    jobs: &[Job],
    part: &[usize],
    off: &mut [usize],
    free: &[usize],
    height: usize,
    aim: usize,
    left: u64,
) -> (u64, bool) {
    let hood = match Hood::below(jobs, part, off, free, height) {
        Ok(hood) => hood,
        Err(steps) => return (steps / STEPS, false),
    };
    let made = hood.steps / STEPS;
    let budget = (64 * free.len() as u64).min(left);
    let rounded = super::rounds::rounds(
        &hood.sub,
        hood.sections,
        hood.base.clone(),
        hood.bound,
        height,
        (budget, 0),
        Some(aim),
    );
    let used = rounded.nodes;
    match rounded.best {
        Some(found) if found.height < height => {
            hood.apply(off, &found.offsets);
            (made + used, true)
        }
        _ => (made + used, false),
    }
}

/// Re-plans the jobs of positions `free` above the others by greedy in a
/// few orders: the steps of work done, and whether the plan's height fell
/// below `height` (then `off` holds the new plan).
fn regreedy(
    jobs: &[Job],
    part: &[usize],
    off: &mut [usize],
    free: &[usize],
    height: usize,
    turn: usize,
) -> (u64, bool) {
    let hood = match Hood::below(jobs, part, off, free, height) {
        Ok(hood) => hood,
        Err(steps) => return (steps, false),
    };
    let sub = &hood.sub;
    // The jobs each meets; counted first, so that a dense neighbourhood
    // (every job meeting every other) is given up before its pairs take the
    // memory.
    let (count, swept) = super::search::pairs(sub, |_, _| {});
    let mut steps = hood.steps + swept as u64;
    if count > MOST_PAIRS {
        return (steps, false);
    }
    let mut meets: Vec<Vec<usize>> = vec![Vec::new(); sub.len()];
    let (_, swept) = super::search::pairs(sub, |a, j| {
        meets[a].push(j);
        meets[j].push(a);
    });
    steps += (swept + 2 * count) as u64;
    let lowest: Vec<usize> = sub
        .iter()
        .map(|j| hood.base[j.start..j.end].iter().copied().max().unwrap_or(0))
        .collect();
    // The first round of sizes: by size, by bytes times sections, by
    // sections, and shuffled; later rounds two shuffled orders each.
    let seed = turn as u64;
    let orders: &[Order] = if turn < LARGER {
        &[
            Order::BYTES_LIFE,
            Order::AREA_BYTES,
            Order::LIFE_BYTES,
            Order::grouped(seed),
        ]
    } else {
        &[Order::grouped(2 * seed), Order::grouped(2 * seed + 1)]
    };
    let mut best: Option<(Vec<usize>, usize)> = None;
    for order in orders {
        let by = order.sort(sub.iter().enumerate().map(|(index, j)| Facts {
            bytes: j.foot,
            life: j.end - j.start,
            busy: 0,
            index,
        }));
        let (placed, h) = recreate(sub, &meets, &lowest, &by);
        // Each job sorts the jobs it meets; the order is sorted.
        steps += (meets.iter().map(|m| m.len() as u64).sum::<u64>() + sub.len() as u64)
            * log_steps(sub.len());
        if h < best.as_ref().map_or(height, |b| b.1) {
            best = Some((placed, h));
        }
    }
    match best {
        Some((placed, _)) => {
            hood.apply(off, &placed);
            (steps, true)
        }
        None => (steps, false),
    }
}

/// Greedy over `sub` (local sections, each job's lowest offset `lowest`)
/// in the order `by`: each job at the lowest aligned offset clear of the
/// jobs placed before it that it meets. The offsets and the height.
fn recreate(
    sub: &[Job],
    meets: &[Vec<usize>],
    lowest: &[usize],
    by: &[usize],
) -> (Vec<usize>, usize) {
    // A job not yet placed reads as `usize::MAX`; a plan that would pass
    // `usize::MAX` is given up (its height reads as `usize::MAX`, above any).
    let mut off = vec![usize::MAX; sub.len()];
    let mut height = 0;
    let mut near: Vec<(usize, usize)> = Vec::new();
    for &j in by {
        near.clear();
        near.extend(
            meets[j]
                .iter()
                .filter(|&&o| off[o] != usize::MAX)
                .map(|&o| (off[o], off[o] + sub[o].foot)),
        );
        near.sort_unstable();
        let job = &sub[j];
        let at = first_fit(lowest[j], job.align, job.foot, near.iter().copied());
        let Some((at, top)) =
            align_up(at, job.align).and_then(|a| a.checked_add(job.foot).map(|top| (a, top)))
        else {
            return (off, usize::MAX);
        };
        off[j] = at;
        height = height.max(top);
    }
    (off, height)
}

//! Offsets for an arena with declared lifetimes (`#[arena(phases(...))]`):
//! two buffers share bytes only if their phase ranges are disjoint.
//!
//! Greedy by size (Pisarchyk & Lee 2020, TensorFlow Lite's offset planner):
//! the largest buffer first (ties in declaration order), each at the lowest
//! aligned offset clear of every placed buffer whose range intersects its own;
//! where that is measurably above the busiest phase's bytes, greedy again
//! with the longest-lived buffers first, then in shuffled orders of fixed
//! seeds, keeping the smallest; the buffers one after the other where that is
//! no larger (so the plan never loses to no plan). Deterministic, and no
//! heap allocation: the caller hands in the scratch ([`plan`]).
//!
//! For larger problems, [`plan_with_budget`] and [`plan_within`] search
//! after greedy while the plan is above the busiest phase's bytes: a
//! depth-first search over canonical plans in the manner of MiniMalloc
//! (Moffitt, ASPLOS 2023): each buffer at its lowest offset, taken in order
//! of offset, with section inference, dominance and decomposition (the
//! search module's documentation has each rule), in rounds of doubling node
//! limits over three tie-break orders. The independent parts of a problem
//! (runs of time no buffer crosses) are searched apart. A perfect packing
//! (every phase as full as the bound) is searched by corners instead, in
//! many short runs of shuffled orders. A part too large for one search is
//! improved a neighbourhood at a time (the `lns` module). Buffers live
//! throughout are stacked apart first, so that the rest can fall apart. [`Problem`] reads and writes
//! MiniMalloc's CSV form, what the `arena-plan` binary plans.

use crate::error::SizeError;

mod blocks;
mod greedy;
mod lns;
mod problem;
mod search;

use greedy::busiest;
pub use greedy::{Placed, plan, plan_offsets};
pub use problem::{Buffer, Problem, ProblemError};

/// One buffer to place: its bytes, alignment and inclusive phase range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// The field, for errors.
    pub name: &'static str,
    /// Bytes; 0 takes no space.
    pub bytes: usize,
    /// Alignment of its start (a power of two).
    pub align: usize,
    /// First phase it is live in.
    pub first: usize,
    /// Last phase it is live in (inclusive).
    pub last: usize,
}

impl Item {
    /// Whether the two are live in a common phase (an empty range,
    /// `first > last`, is live in none).
    pub const fn overlaps(&self, other: &Item) -> bool {
        self.first <= other.last
            && other.first <= self.last
            && self.first <= self.last
            && other.first <= other.last
    }
}

/// `x` rounded up to `align` (a power of two), or `None` past `usize::MAX`.
const fn align_up(x: usize, align: usize) -> Option<usize> {
    match x.checked_add(align - 1) {
        Some(v) => Some(v & !(align - 1)),
        None => None,
    }
}

/// [`plan_offsets`], then, while the plan is above the busiest phase's
/// bytes and `budget` nodes remain, a search for a lower one. The search
/// answers "is there a plan at or below this height?" by a depth-first
/// search over canonical plans (MiniMalloc's rules: each buffer at 0 or on
/// a buffer live with it, placed in order of offset; the bytes still to
/// place in each span of time must fit above its floor; no buffer placed
/// above the top of another; independent spans of time solved apart). It
/// asks first at the bound, then by bisection between the lowest height not
/// ruled out and the best plan so far, in rounds whose node limit doubles,
/// with three tie-break orders (by lifetime, bytes x lifetime and the
/// busiest time a buffer is live in) in turn. Where no buffer crosses a
/// phase boundary the two sides are independent parts, each searched on
/// its own (the smaller first; the budget shared in proportion to their
/// buffers, what one leaves going to the others) down to the highest
/// part's bound. A part whose every phase is exactly as full as the bound
/// (a perfect packing, where no byte may be wasted) is asked at the bound
/// by the corner search: the lowest free offset and the earliest phase
/// there, one of the buffers that can start there or none; in 32 short runs
/// a round, of shuffled orders and Luby's lengths, since such a plan is
/// found by a short run or hardly at all.
///
/// Deterministic: the budget counts the search's work, never time, so the
/// same items give the same offsets on every machine. A node is one
/// candidate examined, and every 16,384 elementary steps done for it (jobs
/// scanned, sections updated, floors raised, parts ranked) count as one
/// node more: the budget bounds the time on any problem (BENCHMARKS.md:
/// at least 35,000 nodes a second on 2,048 buffers that all meet, where
/// uncounted work made a node cost up to 6 ms). Never above
/// [`plan_offsets`]'s plan; a plan at the bound ends the search at once. A
/// budget of 0 is [`plan_offsets`].
///
/// Buffers live over the whole time of the problem meet every other, so
/// their bytes are free at every phase of any plan: they are stacked apart
/// at the bottom first and the rest planned above them, where the rest may
/// fall apart into independent parts (a small buffer live throughout no
/// longer ties every phase together). That plan is kept where it is below
/// greedy's; else the search runs on the whole with the budget left.
///
/// A part of more than 2,048 non-empty buffers (8,192 for a perfect
/// packing) is too large for one search (its depth is the number of
/// buffers, and a node scans the part's buffers): its plan is improved a
/// neighbourhood at a time instead. The buffers with the highest tops in a
/// window of time around the plan's peak (upward closed: every buffer above
/// one of them is one of them) are re-planned above the rest, by the search
/// for 64 to 2,048 buffers and by greedy in several orders for up to 16,384;
/// a re-plan is kept only where the peak falls, and each failure doubles the
/// neighbourhood. The scans of the part count against the budget too, so
/// the time stays in proportion to it at any size.
///
/// ```
/// use arena_runtime::plan::{Item, plan_offsets, plan_with_budget};
/// let item = |bytes, first, last| Item { name: "x", bytes, align: 1, first, last };
/// // Greedy by size leaves a hole these five cannot share.
/// let items = [item(50, 0, 2), item(40, 0, 1), item(60, 3, 3), item(70, 1, 1), item(80, 2, 3)];
/// let (_, greedy) = plan_offsets("A", &items, 0).unwrap();
/// let (offsets, slab) = plan_with_budget("A", &items, 0, 10_000).unwrap();
/// assert!(slab <= greedy);
/// assert_eq!(slab, 160); // the busiest phase: no plan is lower
/// # let _ = offsets;
/// ```
pub fn plan_with_budget(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    budget: u64,
) -> Result<(Vec<usize>, usize), SizeError> {
    search_plan(arena, items, guard, budget, None, true).map(|(o, h, _)| (o, h))
}

/// [`plan_with_budget`] for a plan that must fit in `capacity` bytes: after
/// the bound, the search looks for a plan at or below `capacity` directly,
/// and stops once it has one (or one at the bound). The plan may still be
/// above `capacity` where none was found within the budget: the caller
/// compares.
///
/// ```
/// use arena_runtime::plan::{Item, plan_within};
/// let item = |bytes, first, last| Item { name: "x", bytes, align: 1, first, last };
/// let items = [item(50, 0, 2), item(40, 0, 1), item(60, 3, 3), item(70, 1, 1), item(80, 2, 3)];
/// let (_, slab) = plan_within("A", &items, 0, 10_000, 200).unwrap();
/// assert!(slab <= 200);
/// ```
pub fn plan_within(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    budget: u64,
    capacity: usize,
) -> Result<(Vec<usize>, usize), SizeError> {
    search_plan(arena, items, guard, budget, Some(capacity), true).map(|(o, h, _)| (o, h))
}

/// Greedy, then the search, aiming at `target` where one is given (first
/// with the buffers live throughout stacked apart, where `peel` allows and
/// there are some): the plan, its height and the nodes used.
fn search_plan(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    mut budget: u64,
    target: Option<usize>,
    peel: bool,
) -> Result<(Vec<usize>, usize, u64), SizeError> {
    // (The rest of a problem whose buffers live throughout are stacked
    // apart: its whole was planned in every order of greedy already.)
    let (mut offsets, mut slab) = if peel {
        plan_offsets(arena, items, guard)?
    } else {
        greedy::plan_by_size(arena, items, guard)?
    };
    if budget == 0 {
        return Ok((offsets, slab, 0));
    }
    let n = items.len();
    let Some(bound) = busiest(items, guard, &mut vec![0; n], &mut vec![Placed::EMPTY; n]) else {
        return Ok((offsets, slab, 0));
    };
    if slab <= bound {
        return Ok((offsets, slab, 0));
    }
    // First with the buffers live throughout stacked apart; where that is
    // not below greedy's plan, the search as a whole with the budget left.
    let mut peeled = 0;
    if peel
        && let Some((off, height, used)) = stack_throughout(arena, items, guard, budget, target)?
    {
        if height < slab {
            return Ok((off, height, used));
        }
        peeled = used;
        budget = budget.saturating_sub(used);
    }
    // Time: the phase boundaries, compressed to the ones some buffer has.
    let times = boundaries(items.iter().filter(|it| it.bytes > 0));
    let at = |t: u128| boundary(&times, t);
    let jobs: Vec<search::Job> = items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.bytes > 0)
        .map(|(k, it)| search::Job {
            start: at(it.first as u128),
            end: at(it.last as u128 + 1),
            // Fits: the greedy plan placed it.
            foot: it.bytes + guard,
            align: it.align,
            width: (it.last - it.first).saturating_add(1),
            item: k,
        })
        .collect();
    // Independent parts: where no buffer crosses a boundary, the two sides
    // share no byte; each is searched on its own, and the plan's height is
    // the highest part's.
    let parts = components(&jobs);
    let start: Vec<usize> = jobs.iter().map(|j| offsets[j.item]).collect();
    let heights: Vec<usize> = parts.iter().map(|p| height(&jobs, p, &start)).collect();
    let (bounds, perfect): (Vec<usize>, Vec<bool>) =
        parts.iter().map(|p| part_bound(&jobs, p)).unzip();
    // No plan is below the highest part's bound: a part at or below it
    // needs no search.
    let floor = bounds.iter().copied().max().unwrap_or(0);
    let aim = target.map_or(floor, |t| t.max(floor));
    // The search recurses once per buffer placed: it runs on a thread of
    // its own with room for that (one for every part); where no thread can
    // be made, greedy's plan stands.
    let largest = (0..parts.len())
        .filter(|&p| heights[p] > aim)
        .map(|p| parts[p].len().min(max_jobs(perfect[p]).max(lns::MOST)))
        .max();
    let Some(largest) = largest else {
        return Ok((offsets, slab, peeled));
    };
    let search = Parts {
        jobs: &jobs,
        parts: &parts,
        bounds: &bounds,
        perfect: &perfect,
        floor,
        aim,
    };
    let (now, used) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("arena-plan-search".into())
            .stack_size(SEARCH_STACK + largest * SEARCH_STACK_PER_JOB)
            .spawn_scoped(scope, || search.run(start.clone(), heights, budget))
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    });
    if !now.is_empty() && now != start {
        for (j, o) in jobs.iter().zip(now) {
            offsets[j.item] = o;
        }
        // Each part's plan is below its greedy height, so the whole is too.
        slab = jobs
            .iter()
            .map(|j| offsets[j.item] + j.foot)
            .max()
            .unwrap_or(0);
    }
    Ok((offsets, slab, peeled + used))
}

/// The buffers live over the whole time of the problem, stacked from 0,
/// and the others planned above them: the plan, its height and the nodes
/// used, or `None` where no buffer, or every one, is live throughout. Each buffer live
/// throughout meets every other, so in any plan its bytes are free at every
/// phase: taking them out and stacking them at the bottom loses nothing
/// (but alignment), and the rest may then fall apart into independent
/// parts.
fn stack_throughout(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    budget: u64,
    target: Option<usize>,
) -> Result<Option<(Vec<usize>, usize, u64)>, SizeError> {
    let live = |it: &&Item| it.bytes > 0 && it.first <= it.last;
    let (Some(first), Some(last)) = (
        items.iter().filter(live).map(|it| it.first).min(),
        items.iter().filter(live).map(|it| it.last).max(),
    ) else {
        return Ok(None);
    };
    let throughout = |it: &Item| live(&it) && it.first == first && it.last == last;
    let mut stacked: Vec<usize> = (0..items.len())
        .filter(|&k| throughout(&items[k]))
        .collect();
    if stacked.is_empty() || stacked.len() == items.iter().filter(live).count() {
        return Ok(None);
    }
    // The most aligned first, then the largest: the least padding.
    stacked.sort_by_key(|&k| (core::cmp::Reverse((items[k].align, items[k].bytes)), k));
    let mut offsets = vec![0usize; items.len()];
    let mut end = 0usize;
    for &k in &stacked {
        let overflow = SizeError::SlabOverflow {
            arena,
            field: items[k].name,
        };
        let at = align_up(end, items[k].align).ok_or(overflow.clone())?;
        offsets[k] = at;
        end = at
            .checked_add(items[k].bytes)
            .and_then(|e| e.checked_add(guard))
            .ok_or(overflow)?;
    }
    let rest: Vec<Item> = items
        .iter()
        .map(|it| {
            if throughout(it) {
                Item { bytes: 0, ..*it }
            } else {
                *it
            }
        })
        .collect();
    let most = rest
        .iter()
        .filter(live)
        .map(|it| it.align)
        .max()
        .unwrap_or(1);
    let Some(base) = align_up(end, most) else {
        return Ok(None);
    };
    let aim = target.map(|t| t.saturating_sub(base));
    let (above, height, used) = search_plan(arena, &rest, guard, budget, aim, false)?;
    let Some(height) = height.checked_add(base) else {
        return Ok(None);
    };
    for (k, it) in rest.iter().enumerate() {
        if it.bytes > 0 {
            offsets[k] = above[k] + base;
        }
    }
    Ok(Some((offsets, height.max(end), used)))
}

/// The independent parts of a problem, for their search.
struct Parts<'a> {
    jobs: &'a [search::Job],
    parts: &'a [Vec<usize>],
    /// Each part's busiest section's bytes.
    bounds: &'a [usize],
    /// Whether each part is a perfect packing at its bound.
    perfect: &'a [bool],
    /// The highest part's bound: no plan is lower.
    floor: usize,
    /// The height to reach: the floor, or a capacity above it.
    aim: usize,
}

impl Parts<'_> {
    /// Searches the parts above the aim (`now`: each job's offset in the
    /// plan so far; `heights`: each part's), with `budget` nodes in all:
    /// the offsets of the plan found, by job, and the nodes used.
    fn run(&self, mut now: Vec<usize>, mut heights: Vec<usize>, budget: u64) -> (Vec<usize>, u64) {
        let (jobs, parts) = (self.jobs, self.parts);
        // Each part's next round: a later pass goes on where the last stopped.
        let mut next = vec![0usize; parts.len()];
        let mut left = budget;
        // The parts whose neighbourhoods all failed: another pass would
        // repeat them.
        let mut stalled = vec![false; parts.len()];
        for _pass in 0..PASSES {
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
                if part.len() > max_jobs(self.perfect[p]) {
                    // Too large for the search as a whole: its plan is
                    // improved a neighbourhood at a time.
                    if stalled[p] {
                        continue;
                    }
                    let mut off: Vec<usize> = part.iter().map(|&j| now[j]).collect();
                    let (used, stuck) = lns::refine(jobs, part, &mut off, self.aim, share);
                    left = left.saturating_sub(used);
                    stalled[p] = stuck;
                    for (&j, &o) in part.iter().zip(&off) {
                        now[j] = o;
                    }
                    heights[p] = height(jobs, part, &now);
                    continue;
                }
                let first = part.iter().map(|&j| jobs[j].start).min().unwrap_or(0);
                let last = part.iter().map(|&j| jobs[j].end).max().unwrap_or(0);
                let local: Vec<search::Job> = part
                    .iter()
                    .map(|&j| search::Job {
                        start: jobs[j].start - first,
                        end: jobs[j].end - first,
                        ..jobs[j]
                    })
                    .collect();
                // Below the highest part's bound is no use: the search
                // starts there.
                let (found, used, round) = rounds(
                    &local,
                    last - first,
                    Vec::new(),
                    self.bounds[p].max(self.floor),
                    heights[p],
                    (share, next[p]),
                    Some(self.aim),
                );
                next[p] = round;
                left = left.saturating_sub(used);
                if let Some((off, height)) = found {
                    heights[p] = height;
                    for (&j, &o) in part.iter().zip(&off) {
                        now[j] = o;
                    }
                }
            }
        }
        (now, budget - left)
    }
}

/// The height of the jobs `part` of `jobs` at the offsets `at` (by job).
fn height(jobs: &[search::Job], part: &[usize], at: &[usize]) -> usize {
    part.iter()
        .map(|&j| at[j] + jobs[j].foot)
        .max()
        .unwrap_or(0)
}

/// The jobs of each independent part of `jobs`: runs of time no job
/// crosses the ends of, in order of time.
fn components(jobs: &[search::Job]) -> Vec<Vec<usize>> {
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
fn part_bound(jobs: &[search::Job], part: &[usize]) -> (usize, bool) {
    let mut events: Vec<(usize, bool, usize)> = part
        .iter()
        .flat_map(|&j| {
            [
                (jobs[j].start, true, jobs[j].foot),
                (jobs[j].end, false, jobs[j].foot),
            ]
        })
        .collect();
    // Ends before starts at one boundary: `[start, end)`.
    events.sort_unstable_by_key(|&(t, start, _)| (t, start));
    let (mut live, mut most, mut least) = (0usize, 0usize, usize::MAX);
    for (k, &(t, start, foot)) in events.iter().enumerate() {
        if start {
            live = live.saturating_add(foot);
        } else {
            live -= foot;
        }
        // The load from `t` to the next event, where time goes on.
        if let Some(&(next, _, _)) = events.get(k + 1)
            && next > t
        {
            most = most.max(live);
            least = least.min(live);
        }
    }
    (most, least == most)
}

/// The most buffers of a part the search runs on: more for a perfect
/// packing, where the corner search finds its plans in short runs, than
/// for any other part, where a node's work grows with the part and the
/// budget runs out before a plan of that depth is done.
const fn max_jobs(perfect: bool) -> usize {
    if perfect {
        search::MAX_JOBS
    } else {
        search::MAX_JOBS / 4
    }
}

/// The short runs of the corner search a round makes on a perfect packing.
const RESTARTS: usize = 32;

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, ...), `i` from 1: the lengths
/// of restarts that lose at most a log factor against the best fixed length
/// (Luby, Sinclair and Zuckerman 1993).
fn luby(i: usize) -> u64 {
    let mut i = i as u64;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// How many times the parts still above the aim share what budget is left.
const PASSES: usize = 4;

/// The distinct phase boundaries of `items` (each one's first phase and the
/// phase after its last), ascending: between two of them, the same buffers
/// are live. Wide, so that the phase after `usize::MAX` is one too.
fn boundaries<'i>(items: impl IntoIterator<Item = &'i Item>) -> Vec<u128> {
    let mut times: Vec<u128> = items
        .into_iter()
        .flat_map(|it| [it.first as u128, it.last as u128 + 1])
        .collect();
    times.sort_unstable();
    times.dedup();
    times
}

/// The index of boundary `t` among `times` ([`boundaries`]).
fn boundary(times: &[u128], t: u128) -> usize {
    times.binary_search(&t).unwrap_or(0)
}

/// The search thread's stack: a base, and room for the frames of each
/// buffer of the part (the search recurses once per buffer placed, and
/// once per corner left empty), unoptimised builds included. Reserved, and
/// only touched as deep as the search goes.
const SEARCH_STACK: usize = 16 << 20;
const SEARCH_STACK_PER_JOB: usize = 32 << 10;

/// The search's rounds over `jobs` (`sections` spans of time) from a plan
/// of height `slab`: the best plan found below it (offsets by job, height),
/// if any. Rounds of searches with a node limit that doubles each round;
/// each round tries the bound (with each order in the first round, then
/// with one order a round in turn, so that where the bound is out of reach
/// most of the work goes to lower plans), then the target if one is given
/// and not yet met, then a bisection between the lowest height not ruled
/// out and the best plan. A search that ends without a
/// plan rules its height out for good; one cut short rules it out for the
/// round only.
fn rounds(
    jobs: &[search::Job],
    sections: usize,
    base: Vec<usize>,
    bound: usize,
    slab: usize,
    (budget, first_round): (u64, usize),
    target: Option<usize>,
) -> (Option<(Vec<usize>, usize)>, u64, usize) {
    // Every height is a multiple of the sizes' and alignments' common
    // divisor: heights are counted in that unit.
    let unit = jobs
        .iter()
        .flat_map(|j| [j.foot, if j.align > 1 { j.align } else { 0 }])
        .chain(base.iter().copied())
        .fold(0, gcd)
        .max(1);
    let bound = bound.div_ceil(unit);
    // The model keeps every pair of jobs that meet: where they are many
    // (buffers that nearly all meet) it is not built, its memory bounded as
    // the neighbourhoods' is, and greedy's plan stands.
    if search::count_pairs(jobs) > lns::MOST_PAIRS {
        return (None, 0, first_round);
    }
    let mut r = Rounds {
        model: search::Model::new(jobs, sections, base),
        jobs,
        unit,
        target: target.map(|t| t / unit),
        left: budget,
        slab,
        ruled_out: bound,
        best: None,
    };
    let mut limit = (2 * jobs.len() as u64).saturating_mul(1u64 << first_round.min(40));
    let mut round = first_round;
    let tight = r.model.tight(bound * unit);
    'rounds: loop {
        let before = r.left;
        if tight {
            // A perfect packing (every span of time exactly as full as the
            // bound) has no byte to waste: the corner search, where a gap
            // ends a branch at once. Its plans are found by short runs or
            // not at all, so many short runs in shuffled orders (run `i`
            // of the round `luby(i)` times 2n nodes long), and the three
            // orders at the round's limit.
            let unit_limit = 2 * jobs.len() as u64;
            for i in 0..RESTARTS {
                let seed = (round * RESTARTS + i) as u64;
                let order = search::Order::Shuffled(seed);
                let run = unit_limit.saturating_mul(luby(i + 1));
                if r.ruled_out == bound && r.attempt(bound, order, search::Branch::Corner, run).done
                {
                    break 'rounds;
                }
            }
            for order in search::ORDERS {
                if r.ruled_out == bound
                    && r.attempt(bound, order, search::Branch::Corner, limit).done
                {
                    break 'rounds;
                }
            }
        } else {
            // Every order in the first round, then one a round in turn:
            // where the bound is out of reach, the bisection gets the more.
            for (k, order) in search::ORDERS.into_iter().enumerate() {
                if round > first_round && k != (round + 1) % search::ORDERS.len() {
                    continue;
                }
                if r.ruled_out == bound
                    && r.attempt(bound, order, search::Branch::Offset, limit).done
                {
                    break 'rounds;
                }
            }
        }
        if let Some(t) = r
            .target
            .filter(|&t| t > bound && t >= r.ruled_out && t < r.height())
        {
            for order in search::ORDERS {
                if r.attempt(t, order, search::Branch::Offset, limit).done {
                    break 'rounds;
                }
            }
        }
        // The bisection: one order a round, in turn, a quarter of the
        // limit an attempt, the limit in all (or, where that is more, as
        // much as the round spent at the bound, so that a perfect packing
        // whose bound stays out of reach still gets a plan close to it).
        let order = search::ORDERS[round % search::ORDERS.len()];
        let mut lo = r.ruled_out;
        let mut spent = 0;
        let share = if tight {
            limit.max(before - r.left)
        } else {
            limit
        };
        while lo < r.height() && spent < share {
            let cap = lo + (r.height() - 1 - lo) / 2;
            let tried = r.attempt(cap, order, search::Branch::Offset, share / 4);
            if tried.done {
                break 'rounds;
            }
            spent += tried.nodes;
            if !tried.found {
                lo = cap + 1;
            }
        }
        if r.height() <= r.ruled_out {
            break;
        }
        limit = limit.saturating_mul(2);
        round += 1;
    }
    (r.best, budget - r.left, round + 1)
}

/// The state of [`rounds`]: heights in its unit, but for the plans' own.
struct Rounds<'j> {
    model: search::Model<'j>,
    jobs: &'j [search::Job],
    unit: usize,
    target: Option<usize>,
    /// Nodes left.
    left: u64,
    /// The best plan's height, in bytes.
    slab: usize,
    /// The lowest height not ruled out.
    ruled_out: usize,
    /// The best plan found: offsets by job, height in bytes.
    best: Option<(Vec<usize>, usize)>,
}

/// What one search of [`Rounds::attempt`] did.
struct Tried {
    found: bool,
    /// The rounds are over: the budget is spent, or the best plan is at
    /// the lowest height not ruled out or at the target.
    done: bool,
    nodes: u64,
}

impl Rounds<'_> {
    /// The best plan's height in units.
    fn height(&self) -> usize {
        self.slab / self.unit
    }

    /// One search for a plan at or below `cap`, with `order`, within
    /// `limit` nodes.
    fn attempt(
        &mut self,
        cap: usize,
        order: search::Order,
        branch: search::Branch,
        limit: u64,
    ) -> Tried {
        let found = self
            .model
            .solve_by(cap * self.unit, order, branch, limit.min(self.left));
        let nodes = found.nodes.max(1);
        self.left = self.left.saturating_sub(nodes);
        let some = found.offsets.is_some();
        match found.offsets {
            Some(off) => {
                let height = self.jobs.iter().zip(&off).map(|(j, &o)| o + j.foot).max();
                if let Some(height) = height.filter(|&h| h < self.slab) {
                    self.slab = height;
                    self.best = Some((off, height));
                }
            }
            None if found.proven => self.ruled_out = self.ruled_out.max(cap + 1),
            None => {}
        }
        Tried {
            found: some,
            done: self.left == 0
                || self.height() <= self.ruled_out
                || self.target.is_some_and(|t| self.height() <= t),
            nodes,
        }
    }
}

/// The greatest common divisor.
const fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A height no placement goes below: the largest, over phases, of the sum
/// of the live buffers' bytes, each rounded up to `align` but for the one
/// that ends the phase's stack (the bound takes the one whose rounding is
/// largest). Every buffer's start is a multiple of `align` (capped at the
/// smallest alignment of the buffers live in the phase), so a buffer below
/// another takes at least its bytes rounded up; the topmost only its bytes.
/// So the bound is at most every plan's slab: two 10-byte buffers aligned
/// to 256 give 266, as the plan.
pub fn lower_bound(
    arena: &'static str,
    items: &[Item],
    phases: usize,
    align: usize,
) -> Result<usize, SizeError> {
    let unit = align.max(1);
    if phases > 64 && items.iter().all(|it| it.align >= unit) {
        return lower_bound_sweep(arena, items, phases, unit);
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
        let live = || items.iter().filter(|it| it.first <= p && p <= it.last);
        let unit = live().map(|it| it.align).fold(align, usize::min).max(1);
        let (mut sum, mut slack) = (0usize, 0usize);
        for it in live() {
            let overflow = SizeError::SlabOverflow {
                arena,
                field: it.name,
            };
            let b = align_up(it.bytes, unit).ok_or(overflow.clone())?;
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
fn lower_bound_sweep(
    arena: &'static str,
    items: &[Item],
    phases: usize,
    unit: usize,
) -> Result<usize, SizeError> {
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
    let rounded = |k: usize| {
        align_up(items[k].bytes, unit).ok_or(SizeError::SlabOverflow {
            arena,
            field: items[k].name,
        })
    };
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
        sum = sum.checked_add(b).ok_or(SizeError::SlabOverflow {
            arena,
            field: items[k].name,
        })?;
        *slacks.entry(b - items[k].bytes).or_default() += 1;
        let top = slacks.keys().next_back().copied().unwrap_or(0);
        best = best.max(sum - top);
    }
    Ok(best)
}

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
mod item;
mod lns;
mod parts;
mod problem;
mod rounds;
mod search;

use greedy::busiest;
pub use greedy::{Placed, plan, plan_offsets};
pub use item::Item;
use item::align_up;
use parts::{Parts, components, height, max_jobs, part_bound};
pub use problem::{Buffer, Problem, ProblemError};

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

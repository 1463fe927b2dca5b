//! The whole run: greedy, the buffers live throughout stacked apart, then
//! the search over the problem's independent parts on a thread of its own.

use super::base::{Item, Plan, align_up};
use super::greedy::{self, Placed, busiest, plan_offsets};
use super::lns;
use super::parts::{Parts, max_jobs, part_height};
use super::search;
use super::split::{components, part_bound};
use super::time::phases;
use crate::error::PlanError;

/// A plan, and the nodes of the budget its search used.
pub(super) struct Searched {
    pub(super) plan: Plan,
    pub(super) nodes: u64,
}

impl Searched {
    fn new(offsets: Vec<usize>, height: usize, nodes: u64) -> Self {
        Searched {
            plan: Plan::new(offsets, height),
            nodes,
        }
    }
}

/// Greedy, then the search, aiming at `capacity` where one is given (first
/// with the buffers live throughout stacked apart, where `peel` allows and
/// there are some).
pub(super) fn search_plan(
    items: &[Item],
    guard: usize,
    mut budget: u64,
    capacity: Option<usize>,
    peel: bool,
) -> Result<Searched, PlanError> {
    // (The rest of a problem whose buffers live throughout are stacked
    // apart: its whole was planned in every order of greedy already.)
    let Plan {
        mut offsets,
        mut height,
    } = if peel {
        plan_offsets(items, guard)?
    } else {
        greedy::plan_by_size(items, guard)?
    };
    if budget == 0 {
        return Ok(Searched::new(offsets, height, 0));
    }
    let n = items.len();
    let Some(bound) = busiest(items, guard, &mut vec![0; n], &mut vec![Placed::EMPTY; n]) else {
        return Ok(Searched::new(offsets, height, 0));
    };
    if height <= bound {
        return Ok(Searched::new(offsets, height, 0));
    }
    // First with the buffers live throughout stacked apart; where that is
    // not below greedy's plan, the search as a whole with the budget left.
    let mut peeled = 0;
    if peel && let Some(stacked) = stack_throughout(items, guard, budget, capacity)? {
        if stacked.plan.height < height {
            return Ok(stacked);
        }
        peeled = stacked.nodes;
        budget = budget.saturating_sub(peeled);
    }
    // Time: the phase boundaries, compressed to the ones some buffer has.
    let times = phases(items.iter().filter(|it| it.bytes > 0));
    let at = |t: u128| times.index(t);
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
    let heights: Vec<usize> = parts
        .iter()
        .map(|p| part_height(&jobs, p, &start))
        .collect();
    let (bounds, perfect): (Vec<usize>, Vec<bool>) =
        parts.iter().map(|p| part_bound(&jobs, p)).unzip();
    // No plan is below the highest part's bound: a part at or below it
    // needs no search.
    // (It is the whole's bound: the parts split time.)
    debug_assert_eq!(bounds.iter().copied().max().unwrap_or(0), bound);
    let aim = capacity.map_or(bound, |t| t.max(bound));
    // The search recurses once per buffer placed: it runs on a thread of
    // its own with room for that (one for every part); where no thread can
    // be made, greedy's plan stands.
    let largest = (0..parts.len())
        .filter(|&p| heights[p] > aim)
        .map(|p| parts[p].len().min(max_jobs(perfect[p]).max(lns::MOST)))
        .max();
    let Some(largest) = largest else {
        return Ok(Searched::new(offsets, height, peeled));
    };
    let search = Parts {
        jobs: &jobs,
        parts: &parts,
        bounds: &bounds,
        perfect: &perfect,
        bound,
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
        height = jobs
            .iter()
            .map(|j| offsets[j.item] + j.foot)
            .max()
            .unwrap_or(0);
    }
    Ok(Searched::new(offsets, height, peeled + used))
}

/// The buffers live over the whole time of the problem, stacked from 0,
/// and the others planned above them, or `None` where no buffer, or every
/// one, is live throughout. Each buffer live
/// throughout meets every other, so in any plan its bytes are free at every
/// phase: taking them out and stacking them at the bottom loses nothing
/// (but alignment), and the rest may then fall apart into independent
/// parts.
fn stack_throughout(
    items: &[Item],
    guard: usize,
    budget: u64,
    capacity: Option<usize>,
) -> Result<Option<Searched>, PlanError> {
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
        let overflow = PlanError::Overflow { item: k };
        let at = align_up(end, items[k].align).ok_or(overflow)?;
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
    let capacity = capacity.map(|t| t.saturating_sub(base));
    let above = search_plan(&rest, guard, budget, capacity, false)?;
    let Some(height) = above.plan.height.checked_add(base) else {
        return Ok(None);
    };
    for (k, it) in rest.iter().enumerate() {
        if it.bytes > 0 {
            offsets[k] = above.plan.offsets[k] + base;
        }
    }
    Ok(Some(Searched::new(offsets, height.max(end), above.nodes)))
}

/// The search thread's stack: a base, and room for the frames of each
/// buffer of the part (the search recurses once per buffer placed, and
/// once per corner left empty), unoptimised builds included. Reserved, and
/// only touched as deep as the search goes.
const SEARCH_STACK: usize = 16 << 20;
const SEARCH_STACK_PER_JOB: usize = 32 << 10;

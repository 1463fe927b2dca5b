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
//! limits over three tie-break orders. [`Problem`] reads and writes
//! MiniMalloc's CSV form, what the `arena-plan` binary plans.

use crate::error::SizeError;

mod problem;
mod search;

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

/// A placed buffer as the planner scans them: its bytes with the guard after
/// them, and its phases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Placed {
    start: usize,
    end: usize,
    first: usize,
    last: usize,
}

impl Placed {
    /// An unused slot of the scratch.
    pub const EMPTY: Placed = Placed {
        start: 0,
        end: 0,
        first: 0,
        last: 0,
    };
}

/// Places `items`, writing each one's offset to `offsets`, with `guard`
/// bytes after every non-empty buffer; returns the slab's bytes (the end of
/// the last buffer and its guard). `order` and `placed` are scratch, each at
/// least `items.len()` long. A slab past `usize::MAX` is a
/// [`SizeError::SlabOverflow`] naming the buffer that did not fit; an
/// alignment that is not a power of two is a [`SizeError::BadAlign`] naming
/// its buffer.
///
/// Greedy by size first. Where that plan is more than 1/64 above the
/// busiest phase's bytes, greedy again with the longest-lived buffers first
/// (then by size); while the best plan is still more than 1/32 above, up to
/// 32 shuffled orders (fixed seeds); the smallest plan is kept, and the
/// buffers one after the other where that is no larger. The same items give
/// the same offsets every time.
pub fn plan(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &mut [u128],
    placed: &mut [Placed],
) -> Result<usize, SizeError> {
    if let Some(bad) = items.iter().find(|it| !it.align.is_power_of_two()) {
        return Err(SizeError::BadAlign {
            arena,
            field: bad.name,
            align: bad.align,
        });
    }
    let mut slab = greedy(arena, items, guard, offsets, order, placed, Order::Size)?;
    let Some(bound) = busiest(items, guard) else {
        return Ok(keep_sequential(items, guard, offsets, slab));
    };
    // The second order while the best plan is more than 1/64 above the
    // bound, then the shuffled ones while it is more than 1/32 above.
    let (mut best, mut last) = (Order::Size, Order::Size);
    let candidates = core::iter::once(Order::Lifetime).chain((0..SHUFFLES).map(Order::Shuffled));
    for by in candidates {
        let margin = if by == Order::Lifetime { 64 } else { 32 };
        if slab - slab / margin <= bound {
            break;
        }
        last = by;
        if let Ok(other) = greedy(arena, items, guard, offsets, order, placed, by) {
            if other < slab {
                (slab, best) = (other, by);
            }
        }
    }
    if last != best {
        // Deterministic: the best plan's offsets again.
        slab = greedy(arena, items, guard, offsets, order, placed, best)?;
    }
    Ok(keep_sequential(items, guard, offsets, slab))
}

/// [`plan`] with its scratch on the heap: each item's offset and the slab's
/// bytes.
pub fn plan_offsets(
    arena: &'static str,
    items: &[Item],
    guard: usize,
) -> Result<(Vec<usize>, usize), SizeError> {
    let n = items.len();
    let (mut offsets, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
    let slab = plan(arena, items, guard, &mut offsets, &mut order, &mut placed)?;
    Ok((offsets, slab))
}

/// How many shuffled orders a plan far from its bound tries.
const SHUFFLES: u64 = 32;

/// `slab`, or the one-after-the-other layout (its offsets written) where
/// that is no larger: greedy can lose to declaration order where alignment
/// padding dominates (a large unaligned buffer before a small aligned one).
fn keep_sequential(items: &[Item], guard: usize, offsets: &mut [usize], slab: usize) -> usize {
    match sequential(items, guard, None) {
        Some(end) if end <= slab => sequential(items, guard, Some(offsets)).unwrap_or(end),
        _ => slab,
    }
}

/// The order greedy places the buffers in; ties in declaration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// The largest first.
    Size,
    /// The longest-lived first (most phases), then the largest.
    Lifetime,
    /// Each buffer in one of four groups drawn from a hash of the seed and
    /// its index, the largest first within a group: size order, shaken.
    Shuffled(u64),
}

/// The bytes (with the guard) of the busiest phase: what no plan can go
/// below. Called once a plan fits, so every phase's bytes fit in a `usize`
/// (the plan holds them side by side) and the wrapping sums are exact. Any
/// number of phases: a difference array up to 64, else the sum at each
/// buffer's first phase (the busiest phase is one of them). `None` only for
/// an item whose range is empty.
fn busiest(items: &[Item], guard: usize) -> Option<usize> {
    // A difference array: each buffer's bytes added at its first phase and
    // taken away after its last.
    let live = || items.iter().filter(|it| it.bytes > 0);
    if live().any(|it| it.first > it.last) {
        return None;
    }
    if live().any(|it| it.last >= 64) {
        return Some(busiest_of_many(items, guard));
    }
    let mut delta = [0usize; 66];
    let mut phases = 0;
    for it in live() {
        let b = it.bytes.wrapping_add(guard);
        delta[it.first] = delta[it.first].wrapping_add(b);
        delta[it.last + 1] = delta[it.last + 1].wrapping_sub(b);
        phases = phases.max(it.last + 1);
    }
    let (mut live, mut most) = (0usize, 0usize);
    for &d in &delta[..phases] {
        live = live.wrapping_add(d);
        most = most.max(live);
    }
    Some(most)
}

/// [`busiest`] past 64 phases, with no scratch: the sum at each buffer's
/// first phase (the busiest phase is one of them).
fn busiest_of_many(items: &[Item], guard: usize) -> usize {
    let live = || items.iter().filter(|it| it.bytes > 0);
    live()
        .map(|it| {
            live()
                .filter(|o| o.first <= it.first && it.first <= o.last)
                .fold(0usize, |sum, o| {
                    sum.wrapping_add(o.bytes.wrapping_add(guard))
                })
        })
        .max()
        .unwrap_or(0)
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
/// busiest time a buffer is live in) in turn.
///
/// Deterministic: the budget counts the search's work, never time, so the
/// same items give the same offsets on every machine. A node is one
/// candidate examined, and every 16,384 elementary steps done for it (jobs
/// scanned, sections updated, floors raised, parts ranked) count as one
/// node more: the budget bounds the time on any problem (BENCHMARKS.md:
/// at least 35,000 nodes a second on 2,048 buffers that all meet, where
/// uncounted work made a node cost up to 6 ms). Never above
/// [`plan_offsets`]'s plan; a plan at the bound ends the search at once. A
/// budget of 0 is [`plan_offsets`]; above 2,048 non-empty buffers the
/// search is not run (its depth is the number of buffers).
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
    search_plan(arena, items, guard, budget, None)
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
    search_plan(arena, items, guard, budget, Some(capacity))
}

/// Greedy, then the search, aiming at `target` where one is given.
fn search_plan(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    budget: u64,
    target: Option<usize>,
) -> Result<(Vec<usize>, usize), SizeError> {
    let (mut offsets, mut slab) = plan_offsets(arena, items, guard)?;
    if budget == 0 {
        return Ok((offsets, slab));
    }
    let Some(bound) = busiest(items, guard) else {
        return Ok((offsets, slab));
    };
    if slab <= bound {
        return Ok((offsets, slab));
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
    let spans = times.len().saturating_sub(1);
    if jobs.len() > search::MAX_JOBS {
        return Ok((offsets, slab));
    }
    // The search recurses once per buffer placed: it runs on a thread of
    // its own with room for that; where no thread can be made, greedy's
    // plan stands.
    let found = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("arena-plan-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || rounds(&jobs, spans, bound, slab, budget, target))
            .ok()
            .and_then(|h| h.join().ok())
            .flatten()
    });
    if let Some((off, height)) = found {
        slab = height;
        offsets.iter_mut().for_each(|o| *o = 0);
        for (j, o) in jobs.iter().zip(off) {
            offsets[j.item] = o;
        }
    }
    Ok((offsets, slab))
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

/// The search thread's stack: room for two frames a buffer at
/// [`search::MAX_JOBS`] buffers, unoptimised builds included.
const SEARCH_STACK: usize = 64 << 20;

/// The search's rounds over `jobs` (`sections` spans of time) from a plan
/// of height `slab`: the best plan found below it (offsets by job, height),
/// if any. Rounds of searches with a node limit that doubles each round;
/// each round tries, with each order in turn, the bound, then the target
/// if one is given and not yet met, then a bisection between the lowest
/// height not ruled out and the best plan. A search that ends without a
/// plan rules its height out for good; one cut short rules it out for the
/// round only.
fn rounds(
    jobs: &[search::Job],
    sections: usize,
    bound: usize,
    slab: usize,
    budget: u64,
    target: Option<usize>,
) -> Option<(Vec<usize>, usize)> {
    // Every height is a multiple of the sizes' and alignments' common
    // divisor: heights are counted in that unit.
    let unit = jobs
        .iter()
        .flat_map(|j| [j.foot, if j.align > 1 { j.align } else { 0 }])
        .fold(0, gcd)
        .max(1);
    let bound = bound.div_ceil(unit);
    let mut r = Rounds {
        model: search::Model::new(jobs, sections),
        jobs,
        unit,
        target: target.map(|t| t / unit),
        left: budget,
        slab,
        ruled_out: bound,
        best: None,
    };
    let mut limit = 2 * jobs.len() as u64;
    'rounds: for round in 0usize.. {
        for order in search::ORDERS {
            if r.ruled_out == bound && r.attempt(bound, order, limit).done {
                break 'rounds;
            }
        }
        if let Some(t) = r
            .target
            .filter(|&t| t > bound && t >= r.ruled_out && t < r.height())
        {
            for order in search::ORDERS {
                if r.attempt(t, order, limit).done {
                    break 'rounds;
                }
            }
        }
        // The bisection: one order a round, in turn, a quarter of the
        // limit an attempt, the limit in all.
        let order = search::ORDERS[round % search::ORDERS.len()];
        let mut lo = r.ruled_out;
        let mut spent = 0;
        while lo < r.height() && spent < limit {
            let cap = lo + (r.height() - 1 - lo) / 2;
            let tried = r.attempt(cap, order, limit / 4);
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
    }
    r.best
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
    fn attempt(&mut self, cap: usize, order: search::Order, limit: u64) -> Tried {
        let found = self
            .model
            .solve(cap * self.unit, order, limit.min(self.left));
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

/// SplitMix64's finalizer over a seed and an index: a fixed, well-spread hash.
const fn mix(seed: u64, k: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Greedy: the non-empty buffers in `by` order, each at the lowest aligned
/// offset clear of the placed buffers whose range intersects its own.
#[inline(always)]
fn greedy(
    arena: &'static str,
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &mut [u128],
    placed: &mut [Placed],
    by: Order,
) -> Result<usize, SizeError> {
    // One integer per buffer, sorted ascending: the rank of its lifetime
    // (for `Order::Lifetime`), the size's complement, its index.
    let mut n = 0;
    for (k, item) in items.iter().enumerate() {
        offsets[k] = 0;
        if item.bytes > 0 {
            let rank = match by {
                Order::Size => 0,
                Order::Lifetime => 255 - (item.last - item.first).min(255),
                Order::Shuffled(seed) => (mix(seed, k as u64) % 4) as usize,
            };
            order[n] = ((rank as u128) << 120) | (((!item.bytes) as u128) << 56) | k as u128;
            n += 1;
        }
    }
    let order = &mut order[..n];
    order.sort_unstable();
    let mut slab = 0usize;
    // The placed buffers, by offset: each new buffer scans them once, up to
    // the first gap that holds it among those live with it.
    let mut count = 0usize;
    for &key in order.iter() {
        let i = (key & ((1 << 56) - 1)) as usize;
        let item = &items[i];
        let overflow = || SizeError::SlabOverflow {
            arena,
            field: item.name,
        };
        let foot = item.bytes.checked_add(guard).ok_or_else(overflow)?;
        let (first, last) = (item.first, item.last);
        let mut at = 0usize;
        let mask = !(item.align - 1);
        for p in &placed[..count] {
            // Not live together; an empty range (`first > last`) is live
            // in no phase.
            if p.first > last || first > p.last || first > last || p.first > p.last {
                continue;
            }
            // Saturating: a value past `usize::MAX` never fits, and the
            // checked placement below reports it.
            let start = at.saturating_add(item.align - 1) & mask;
            if start.saturating_add(foot) <= p.start {
                break;
            }
            at = at.max(p.end);
        }
        let start = align_up(at, item.align).ok_or_else(overflow)?;
        let end = start.checked_add(foot).ok_or_else(overflow)?;
        offsets[i] = start;
        slab = slab.max(end);
        // Keep `placed[..count]` sorted by offset, shifting from the end (for
        // tens of buffers cheaper than a binary search and a memmove).
        let mut pos = count;
        while pos > 0 && placed[pos - 1].start > start {
            placed[pos] = placed[pos - 1];
            pos -= 1;
        }
        placed[pos] = Placed {
            start,
            end,
            first,
            last,
        };
        count += 1;
    }
    Ok(slab)
}

/// Every buffer after the other: the slab's end, writing the offsets when
/// asked; `None` past `usize::MAX`.
fn sequential(items: &[Item], guard: usize, mut offsets: Option<&mut [usize]>) -> Option<usize> {
    let mut cursor = crate::Cursor::new(guard);
    for (k, it) in items.iter().enumerate() {
        let at = cursor.place(it.bytes, it.align)?;
        if let Some(off) = offsets.as_deref_mut() {
            off[k] = at;
        }
    }
    Some(cursor.end())
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
    let mut best = 0usize;
    for p in 0..phases {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn item(bytes: usize, first: usize, last: usize) -> Item {
        Item {
            name: "x",
            bytes,
            align: 256,
            first,
            last,
        }
    }

    /// Greedy by size alone: the offsets and the slab.
    fn by_size(items: &[Item]) -> (Vec<usize>, Result<usize, SizeError>) {
        let n = items.len();
        let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
        let slab = greedy(
            "A",
            items,
            0,
            &mut off,
            &mut order,
            &mut placed,
            Order::Size,
        );
        (off, slab)
    }

    /// Buffers of `(bytes, first, last)`, alignment 1.
    fn unaligned(specs: &[(usize, usize, usize)]) -> Vec<Item> {
        specs
            .iter()
            .map(|&(bytes, first, last)| Item {
                name: "x",
                bytes,
                align: 1,
                first,
                last,
            })
            .collect()
    }

    /// Buffers live in a common phase never share bytes.
    fn assert_no_overlap(items: &[Item], off: &[usize]) {
        for i in 0..items.len() {
            for j in 0..i {
                if items[i].overlaps(&items[j]) {
                    let (a, b) = (
                        (off[i], off[i] + items[i].bytes),
                        (off[j], off[j] + items[j].bytes),
                    );
                    assert!(a.1 <= b.0 || b.1 <= a.0, "{i} and {j} overlap");
                }
            }
        }
    }

    fn run(items: &[Item], guard: usize) -> (Vec<usize>, usize) {
        plan_offsets("A", items, guard).unwrap()
    }

    #[test]
    fn disjoint_ranges_share_bytes() {
        // embed, attn, mlp, head: qkv (attn) and up (mlp) share.
        let items = [
            item(1000, 0, 3),
            item(3000, 1, 1),
            item(4000, 2, 2),
            item(500, 3, 3),
        ];
        // Largest first: the 4000 at 0, the 3000 and the 500 sharing its
        // bytes, the buffer live everywhere after it at 4096: 5096 bytes.
        assert_eq!(by_size(&items), (vec![4096, 0, 0, 0], Ok(4096 + 1000)));
        // That is more than 1/64 above the busiest phase (5000 bytes): the
        // longest-lived first puts the buffer live everywhere at 0 and the
        // others, which share bytes, after it at 1024: 5024 bytes.
        let (off, slab) = run(&items, 0);
        assert_eq!(off, [0, 1024, 1024, 1024], "attn, mlp and head share");
        assert_eq!(slab, 1024 + 4000);
        // The bound rounds every buffer up to the alignment but the one on
        // top: 4000 + 1000 rounded.
        assert_eq!(lower_bound("A", &items, 4, 256).unwrap(), 4000 + 1024);
        // Two 10-byte buffers aligned to 256 in one phase: 266, the plan.
        let two = [item(10, 0, 0), item(10, 0, 0)];
        assert_eq!(lower_bound("A", &two, 1, 256).unwrap(), 266);
        assert_eq!(run(&two, 0).1, 266);
    }

    #[test]
    fn fills_a_gap_between_conflicts() {
        let items = [
            item(1024, 0, 0),
            item(512, 0, 1),
            item(256, 1, 1),
            item(256, 0, 0),
        ];
        let (off, slab) = run(&items, 0);
        // 1024 at 0; 512 after it at 1024; 256 (phase 1) in the gap at 0;
        // the last 256 (phase 0) past both.
        assert_eq!(off, [0, 1024, 0, 1536]);
        assert_eq!(slab, 1792);
    }

    #[test]
    fn a_second_order_where_size_first_fragments() {
        // Largest first leaves the two 70s and the 40 fragmented around the
        // 100s (280 bytes); the longest-lived first reaches the busiest
        // phase's 210.
        let items = unaligned(&[(100, 3, 3), (40, 0, 2), (70, 2, 3), (100, 0, 1), (70, 0, 2)]);
        assert_eq!(by_size(&items).1, Ok(280));
        let (off, slab) = run(&items, 0);
        assert_eq!(slab, 210);
        assert_eq!(lower_bound("A", &items, 4, 1), Ok(210));
        assert_no_overlap(&items, &off);
    }

    #[test]
    fn shuffled_orders_where_both_orders_fragment() {
        // Largest first ends at 170 and longest-lived first at 190, both
        // more than 1/32 above the busiest phase's 160: a shuffled order
        // reaches 160.
        let items = unaligned(&[(50, 0, 2), (40, 0, 1), (60, 3, 3), (70, 1, 1), (80, 2, 3)]);
        assert_eq!(by_size(&items).1, Ok(170));
        assert_eq!(busiest(&items, 0), Some(160));
        let (off, slab) = run(&items, 0);
        assert_eq!(slab, 160);
        assert_no_overlap(&items, &off);
        // The same offsets every time: the plan is a function of its input.
        assert_eq!(run(&items, 0), (off, slab));
    }

    #[test]
    fn guards_follow_every_buffer_and_overflow_is_an_error() {
        let (off, slab) = run(&[item(100, 0, 0), item(100, 0, 0)], 64);
        assert_eq!(off, [0, 256]);
        assert_eq!(slab, 256 + 164);
        let huge = [item(usize::MAX - 10, 0, 0), item(100, 0, 0)];
        let e = plan_offsets("A", &huge, 0).unwrap_err();
        assert!(matches!(e, SizeError::SlabOverflow { .. }), "{e}");
    }

    #[test]
    fn a_range_to_the_last_phase_plans_as_any_finite_range() {
        // Three co-live buffers, one of them live to `usize::MAX`; the
        // same problem with a finite last phase gives the same plan.
        for last in [usize::MAX, usize::MAX - 1] {
            // Greedy ends at 350, above the busiest phase's 340: the search
            // runs.
            let shape = |l| {
                [
                    (90, 3, l),
                    (80, 0, 2),
                    (60, 0, 1),
                    (70, 1, 1),
                    (50, 1, 3),
                    (80, 1, 3),
                    (70, 3, 4),
                ]
            };
            let (open, finite) = (unaligned(&shape(last)), unaligned(&shape(5)));
            for budget in [0, 10, 10_000] {
                let a = plan_with_budget("A", &open, 0, budget).unwrap();
                assert_eq!(a, plan_with_budget("A", &finite, 0, budget).unwrap());
                assert_no_overlap(&open, &a.0);
                let b = plan_within("A", &open, 0, budget, 340).unwrap();
                assert_eq!(b, plan_within("A", &finite, 0, budget, 340).unwrap());
            }
            assert_eq!(plan_with_budget("A", &open, 0, 10_000).unwrap().1, 340);
        }
        // All three at offset 0 was the wrap of `last + 1`.
        let all = unaligned(&[
            (10, 0, usize::MAX),
            (20, 5, usize::MAX),
            (30, 7, usize::MAX),
        ]);
        let (off, slab) = plan_with_budget("A", &all, 0, 1000).unwrap();
        assert_no_overlap(&all, &off);
        assert_eq!(slab, 60);
    }

    #[test]
    fn an_empty_range_beside_many_phases_is_planned_as_with_few() {
        // `first > last` takes no phase; with a buffer past phase 63 it
        // gets what it gets beside one in phase 3, never an overflow.
        for budget in [0, 1000] {
            let shape = [
                (90, 3, 5),
                (80, 0, 2),
                (60, 0, 1),
                (70, 1, 1),
                (50, 1, 3),
                (80, 1, 3),
                (70, 3, 4),
            ];
            let few: Vec<Item> = unaligned(&[(10, 5, 4)])
                .into_iter()
                .chain(unaligned(&shape))
                .collect();
            let late = shape.map(|(b, f, l)| (b, f + 100, l + 100));
            let many: Vec<Item> = unaligned(&[(10, 5, 4)])
                .into_iter()
                .chain(unaligned(&late))
                .collect();
            let (a, b) = (
                plan_with_budget("A", &many, 0, budget).unwrap(),
                plan_with_budget("A", &few, 0, budget).unwrap(),
            );
            assert_eq!(a, b);
            assert_eq!(
                plan_offsets("A", &many, 0).unwrap(),
                plan_offsets("A", &few, 0).unwrap()
            );
            assert_eq!(a.0[0], 0, "live in no phase: beside nothing");
        }
    }

    #[test]
    fn an_alignment_not_a_power_of_two_is_an_error_naming_the_buffer() {
        for align in [0, 3, 6, 100] {
            let items = [
                item(100, 0, 0),
                Item {
                    name: "odd",
                    bytes: 30,
                    align,
                    first: 0,
                    last: 1,
                },
            ];
            let e = plan_offsets("A", &items, 0).unwrap_err();
            assert_eq!(
                e,
                SizeError::BadAlign {
                    arena: "A",
                    field: "odd",
                    align
                }
            );
            assert_eq!(
                e.to_string(),
                format!("`A.odd`: alignment {align} is not a power of two")
            );
        }
    }
}

//! Greedy placement: each buffer at the lowest aligned offset clear of the
//! placed buffers live with it, in a few orders, keeping the smallest plan
//! ([`plan`]); and the busiest phase's bytes, what no plan goes below.

use super::base::{Item, Plan, align_up, first_fit};
use super::order::{Facts, Key, Measure, Order};
use crate::error::PlanError;

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
/// bytes after every non-empty buffer; returns the plan's height (the end of
/// the last buffer and its guard). `order` and `placed` are scratch, each at
/// least `items.len()` long. A height past `usize::MAX` is a
/// [`PlanError::Overflow`] naming the buffer that did not fit; an
/// alignment that is not a power of two is a [`PlanError::BadAlign`] naming
/// its buffer.
///
/// Greedy by size first. Where that plan is more than 1/64 above the
/// busiest phase's bytes, greedy again with the longest-lived buffers first
/// (then by size); while the best plan is still more than 1/32 above, up to
/// 32 shuffled orders (fixed seeds), for more than 2,048 buffers up to 8 and
/// only while the orders after the first have taken at most 2^30 steps (an
/// order's: the pairs of buffers that meet, each walked at least once, or
/// the first order's walk, where longer); the
/// smallest plan is kept, and the buffers one after the other where that
/// is no larger.
/// The same items give the same offsets every time.
pub fn plan(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &mut [u128],
    placed: &mut [Placed],
) -> Result<usize, PlanError> {
    plan_walking(items, guard, (offsets, order, placed), ORDERS_WORK)
}

/// [`plan`], the orders after the first walking at most `work` pairs that
/// meet in all (many buffers only).
fn plan_walking(
    items: &[Item],
    guard: usize,
    (offsets, order, placed): (&mut [usize], &mut [u128], &mut [Placed]),
    work: u128,
) -> Result<usize, PlanError> {
    if let Some(item) = items.iter().position(|it| !it.align.is_power_of_two()) {
        return Err(PlanError::BadAlign {
            item,
            align: items[item].align,
        });
    }
    let mut blocked_steps = 0u64;
    let mut height = greedy_from(
        items,
        guard,
        (offsets, order, placed),
        Order::SIZE,
        (BUCKETED, BLOCKED),
        &mut blocked_steps,
    )?;
    let Some(bound) = busiest(items, guard, order, placed) else {
        return Ok(keep_sequential(items, guard, offsets, height));
    };
    // The second order while the best plan is more than 1/64 above the
    // bound, then the shuffled ones while it is more than 1/32 above, and
    // while the orders after the first have taken at most `work` steps
    // (many buffers only): an order's steps are the pairs of buffers that
    // meet, which each order walks at least once, or where the first
    // order's walk through blocks took more (buffers scattered in time
    // that it walks past), those.
    let (mut best, mut last) = (Order::SIZE, Order::SIZE);
    let pairs = if items.len() > BUCKETED {
        meeting(items).max(blocked_steps as u128)
    } else {
        0
    };
    let mut walked = 0u128;
    let shuffles = if items.len() > BUCKETED {
        SHUFFLES_MANY
    } else {
        SHUFFLES
    };
    let candidates = core::iter::once(Order::LIFETIME).chain((0..shuffles).map(Order::shuffled));
    for by in candidates {
        let margin = if by == Order::LIFETIME { 64 } else { 32 };
        walked += pairs;
        if height - height / margin <= bound || walked > work {
            break;
        }
        last = by;
        if let Ok(other) = greedy(items, guard, offsets, order, placed, by)
            && other < height
        {
            (height, best) = (other, by);
        }
    }
    if last != best {
        // Deterministic: the best plan's offsets again.
        height = greedy(items, guard, offsets, order, placed, best)?;
    }
    Ok(keep_sequential(items, guard, offsets, height))
}

/// Greedy in a few orders, the smallest plan kept (the derive's default path,
/// there with its scratch on the stack): each item's offset and the plan's
/// height, never above the items one after the other.
pub fn plan_offsets(items: &[Item], guard: usize) -> Result<Plan, PlanError> {
    on_heap(items.len(), |offsets, order, placed| {
        plan(items, guard, offsets, order, placed)
    })
}

/// Greedy by size alone (no other orders): each item's offset and the
/// plan's height. For a part of a problem whose whole was already planned in
/// every order.
pub(super) fn plan_by_size(items: &[Item], guard: usize) -> Result<Plan, PlanError> {
    on_heap(items.len(), |offsets, order, placed| {
        greedy(items, guard, offsets, order, placed, Order::SIZE)
    })
}

/// `place` with the scratch of `n` items on the heap: the offsets it wrote
/// and the height it returned.
fn on_heap(
    n: usize,
    place: impl FnOnce(&mut [usize], &mut [u128], &mut [Placed]) -> Result<usize, PlanError>,
) -> Result<Plan, PlanError> {
    let (mut offsets, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
    let height = place(&mut offsets, &mut order, &mut placed)?;
    Ok(Plan::new(offsets, height))
}

/// How many shuffled orders a plan far from its bound tries.
const SHUFFLES: u64 = 32;

/// How many a plan of more than 2,048 buffers tries: past the first few
/// they lower it by thousandths of a percent, and the search or the
/// neighbourhoods that follow lower it further (on 60,000 buffers that
/// start in 1,000 phases, the last 24 orders took two thirds of greedy's
/// time for 0.004 %; on traces, tilings and clock problems of 2,300 to
/// 60,450 buffers, the same plans at the default budget: BENCHMARKS.md).
const SHUFFLES_MANY: u64 = 8;

/// The steps the orders after greedy's first may take in all, an order's
/// steps the pairs of buffers that meet (each counted from both sides; an
/// order walks each at least once) or, where more, those of the first
/// order's walk through blocks: past it no more orders are tried. Above
/// some 1,000 pairs a buffer on 60,000 buffers, each order takes a second
/// or more; on 50,000 buffers scattered over 100,000 phases, each meeting
/// some 1,000, a walk through blocks passes 25 times as many.
const ORDERS_WORK: u128 = 1 << 30;

/// How many buffers each non-empty buffer meets, summed over them (every
/// pair counted from both sides): the least work of one order of greedy.
fn meeting(items: &[Item]) -> u128 {
    let live: Vec<&Item> = items
        .iter()
        .filter(|it| it.bytes > 0 && it.first <= it.last)
        .collect();
    let mut firsts: Vec<usize> = live.iter().map(|it| it.first).collect();
    let mut lasts: Vec<usize> = live.iter().map(|it| it.last).collect();
    firsts.sort_unstable();
    lasts.sort_unstable();
    live.iter()
        .map(|it| {
            // Those that start by its last phase, less those that ended
            // before its first, less itself.
            let started = firsts.partition_point(|&f| f <= it.last);
            let ended = lasts.partition_point(|&l| l < it.first);
            (started - ended - 1) as u128
        })
        .sum()
}

/// `height`, or the one-after-the-other layout (its offsets written) where
/// that is no larger: greedy can lose to declaration order where alignment
/// padding dominates (a large unaligned buffer before a small aligned one).
fn keep_sequential(items: &[Item], guard: usize, offsets: &mut [usize], height: usize) -> usize {
    match sequential(items, guard, None) {
        Some(end) if end <= height => sequential(items, guard, Some(offsets)).unwrap_or(end),
        _ => height,
    }
}

/// Greedy sorts one `u128` a buffer: its order's first key packed in the
/// top 8 bits (none for [`Order::SIZE`]), the bytes' complement, its index.
/// Greedy's orders end with the bytes, largest first ([`Order::SIZE`],
/// [`Order::LIFETIME`], [`Order::shuffled`]); a first key past 255 reads
/// as 255.
#[inline(always)]
fn packed(by: &Order, item: &Item, k: usize) -> u128 {
    let rank = match by.keys()[0] {
        Key::Most(Measure::Bytes) => 0,
        key => {
            let f = Facts {
                bytes: item.bytes,
                life: item.last.saturating_sub(item.first),
                busy: 0,
                index: k,
            };
            match key {
                Key::Most(m) => 255 - m.of(&f).min(255),
                Key::Least(m) => m.of(&f).min(255),
            }
        }
    };
    (rank << 120) | (((!item.bytes) as u128) << 56) | k as u128
}

/// The bytes (with the guard) of the busiest phase: what no plan can go
/// below. Called once a plan fits, so every phase's bytes fit in a `usize`
/// (the plan holds them side by side) and the wrapping sums are exact. Any
/// number of phases: a difference array up to 64, else the sum at each
/// buffer's first phase (the busiest phase is one of them). `None` only for
/// an item whose range is empty.
// Its own sweep, not `time::load`: the derive's default path, with no heap
// (a fixed difference array, or the caller's scratch past 64 phases).
pub(super) fn busiest(
    items: &[Item],
    guard: usize,
    order: &mut [u128],
    placed: &mut [Placed],
) -> Option<usize> {
    // One pass: an empty range anywhere is `None`, a phase past 63 anywhere
    // the sweep, whatever order they come in; else a difference array, each
    // buffer's bytes added at its first phase and taken away after its last.
    let (mut empty, mut many) = (false, false);
    let mut delta = [0usize; 66];
    let mut phases = 0;
    for it in items.iter().filter(|it| it.bytes > 0) {
        empty |= it.first > it.last;
        many |= it.last >= 64;
        if empty || many {
            continue;
        }
        let b = it.bytes.wrapping_add(guard);
        delta[it.first] = delta[it.first].wrapping_add(b);
        delta[it.last + 1] = delta[it.last + 1].wrapping_sub(b);
        phases = phases.max(it.last + 1);
    }
    if empty {
        return None;
    }
    if many {
        return Some(busiest_of_many(items, guard, order, placed));
    }
    let (mut live, mut most) = (0usize, 0usize);
    for &d in &delta[..phases] {
        live = live.wrapping_add(d);
        most = most.max(live);
    }
    Some(most)
}

/// [`busiest`] past 64 phases, in `O(n log n)` with the caller's scratch: the
/// buffers by first phase in `order`, by last phase in `placed`; a sweep adds
/// each at its first phase and takes away those whose last phase is before
/// it (the busiest phase is some buffer's first).
// In the caller's scratch, for the same reason as `busiest`.
fn busiest_of_many(
    items: &[Item],
    guard: usize,
    order: &mut [u128],
    placed: &mut [Placed],
) -> usize {
    let mut n = 0;
    for (k, it) in items.iter().enumerate().filter(|(_, it)| it.bytes > 0) {
        order[n] = ((it.first as u128) << 64) | k as u128;
        placed[n] = Placed {
            start: it.last,
            end: k,
            first: 0,
            last: 0,
        };
        n += 1;
    }
    order[..n].sort_unstable();
    placed[..n].sort_unstable_by_key(|p| p.start);
    let foot = |k: usize| items[k].bytes.wrapping_add(guard);
    let (mut live, mut most, mut gone) = (0usize, 0usize, 0);
    for &key in &order[..n] {
        let (first, k) = ((key >> 64) as usize, key as u64 as usize);
        while gone < n && placed[gone].start < first {
            live = live.wrapping_sub(foot(placed[gone].end));
            gone += 1;
        }
        live = live.wrapping_add(foot(k));
        most = most.max(live);
    }
    most
}

/// Greedy: the non-empty buffers in `by` order, each at the lowest aligned
/// offset clear of the placed buffers whose range intersects its own.
#[inline(always)]
fn greedy(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &mut [u128],
    placed: &mut [Placed],
    by: Order,
) -> Result<usize, PlanError> {
    greedy_from(
        items,
        guard,
        (offsets, order, placed),
        by,
        (BUCKETED, BLOCKED),
        &mut 0,
    )
}

/// [`greedy`], through buckets of time above `bucketed` buffers and
/// through blocks of placed buffers above `blocked`; the steps of a walk
/// through blocks added to `steps` ([`super::blocks::place_blocked`]).
#[inline(always)]
fn greedy_from(
    items: &[Item],
    guard: usize,
    (offsets, order, placed): (&mut [usize], &mut [u128], &mut [Placed]),
    by: Order,
    (bucketed, blocked): (usize, usize),
    steps: &mut u64,
) -> Result<usize, PlanError> {
    // One integer per buffer, sorted ascending ([`packed`]).
    debug_assert_eq!(by.keys().last(), Some(&Key::Most(Measure::Bytes)));
    let mut n = 0;
    for (k, item) in items.iter().enumerate() {
        offsets[k] = 0;
        if item.bytes > 0 {
            order[n] = packed(&by, item, k);
            n += 1;
        }
    }
    let order = &mut order[..n];
    order.sort_unstable();
    if n > bucketed
        && let Some(height) = place_bucketed(items, guard, offsets, order)?
    {
        return Ok(height);
    }
    if n > blocked {
        return super::blocks::place_blocked(items, guard, offsets, order, steps);
    }
    let mut height = 0usize;
    // The placed buffers, by offset: each new buffer scans them once, up to
    // the first gap that holds it among those live with it.
    let mut count = 0usize;
    for &key in order.iter() {
        let i = (key & ((1 << 56) - 1)) as usize;
        let item = &items[i];
        let overflow = || overflow(i);
        let foot = item.bytes.checked_add(guard).ok_or_else(overflow)?;
        let (first, last) = (item.first, item.last);
        // An empty range (`first > last`) is live in no phase: it meets no
        // buffer (it stays at 0), and none meets it (it is not kept below).
        let empty = first > last;
        let live = placed[..count]
            .iter()
            .filter(|p| !empty && p.first <= last && first <= p.last)
            .map(|p| (p.start, p.end));
        let at = first_fit(0, item.align, foot, live);
        let start = align_up(at, item.align).ok_or_else(overflow)?;
        let end = start.checked_add(foot).ok_or_else(overflow)?;
        offsets[i] = start;
        height = height.max(end);
        if empty {
            continue;
        }
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
    Ok(height)
}

/// The error of item `item` whose plan passes `usize::MAX`: out of the
/// placement's loop.
#[cold]
#[inline(never)]
fn overflow(item: usize) -> PlanError {
    PlanError::Overflow { item }
}

/// Above this many buffers the walk over the placed buffers goes through
/// blocks that it can pass whole ([`super::blocks`]): the same offsets, and
/// no longer quadratic where every buffer meets every other.
pub(super) const BLOCKED: usize = 1_024;

/// Above this many buffers greedy finds the placed buffers live with a new
/// one through buckets of time ([`place_bucketed`]) instead of scanning them
/// all: the same offsets, in time that grows with the buffers that meet.
const BUCKETED: usize = 2_048;

/// Compressed phase boundaries a bucket holds: the widest first, then
/// each half as wide ([`bucket_width`] takes the one that gathers least).
const BUCKET_WIDTHS: [usize; 7] = [64, 32, 16, 8, 4, 2, 1];

/// A placed buffer spanning more buckets than this is kept in one list that
/// every buffer scans, not in each of its buckets.
const LONG: usize = 64;

/// Buckets a buffer spans on average above which a width is not used.
const CROWDED: usize = 8;

/// Buffers a buffer gathers from its buckets on average, at the width that
/// gathers fewest ([`gathered`], a buffer over), above which the buckets
/// are not used.
const GATHERED: u128 = 4_096;

/// Where the buffers scatter in time, a walk through blocks passes about
/// half of the placed buffers for each new one (`n^2 / 2` in all): buckets
/// that gather at most `n^2` over this in all are used even past
/// [`GATHERED`] a buffer (from some 262,000 buffers; on a million, each
/// live in up to 1,000 of a million phases, greedy's three orders took 67
/// s, where the walk through blocks had not ended after 600 s).
const SCATTERED: u128 = 64;

/// Greedy's placement of the buffers of `order` (sorted), as the scan of
/// [`greedy`] places them, for many buffers (`None` where the buckets would
/// not serve: [`bucket_width`]). Each placed buffer is kept in the buckets
/// of time it spans (or, long-lived, in one list); a new buffer
/// gathers those live with it from its buckets, sorts them by offset and
/// takes the lowest gap that holds it, as the scan would (among buffers at
/// the same offset the order does not change the gap).
fn place_bucketed(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &[u128],
) -> Result<Option<usize>, PlanError> {
    let index = |key: u128| (key & ((1 << 56) - 1)) as usize;
    let live = order
        .iter()
        .map(|&k| &items[index(k)])
        .filter(|it| it.first <= it.last);
    let times = super::time::phases(live);
    let at = |t: u128| times.index(t);
    // Each buffer's compressed span, by its place in `order` (an empty
    // range has none).
    let spans: Vec<Option<(usize, usize)>> = order
        .iter()
        .map(|&k| &items[index(k)])
        .map(|it| {
            (it.first <= it.last).then(|| (at(it.first as u128), at(it.last as u128 + 1) - 1))
        })
        .collect();
    let Some(width) = bucket_width(&spans, times.sections() + 1) else {
        return Ok(None);
    };
    let buckets = (times.sections() + 1).div_ceil(width).max(1);
    let mut bucket: Vec<Vec<u32>> = vec![Vec::new(); buckets];
    let mut long: Vec<u32> = Vec::new();
    // Each placed buffer: its offsets, its compressed span.
    let mut spots: Vec<(usize, usize, usize, usize)> = Vec::with_capacity(order.len());
    let mut seen = vec![u32::MAX; order.len()];
    let mut near: Vec<(usize, usize)> = Vec::new();
    let mut height = 0usize;
    for (q, &key) in order.iter().enumerate() {
        let i = index(key);
        let item = &items[i];
        let overflow = || PlanError::Overflow { item: i };
        let foot = item.bytes.checked_add(guard).ok_or_else(overflow)?;
        let Some((a, b)) = spans[q] else {
            // Live in no phase: at 0, and in no bucket.
            offsets[i] = 0;
            height = height.max(foot);
            continue;
        };
        // The short-lived ones live with it, from its buckets, by offset.
        near.clear();
        let q = q as u32;
        for &p in (a / width..=b / width).flat_map(|k| bucket[k].iter()) {
            let (start, end, pa, pb) = spots[p as usize];
            if seen[p as usize] == q || pa > b || a > pb {
                continue;
            }
            seen[p as usize] = q;
            near.push((start, end));
        }
        near.sort_unstable_by_key(|&(start, _)| start);
        // Merged by offset with the long-lived ones (kept by offset), those
        // live with it only: the scan of [`greedy`], up to the first gap.
        let next_long = |from: usize| {
            long[from..]
                .iter()
                .position(|&p| {
                    let (_, _, pa, pb) = spots[p as usize];
                    pa <= b && a <= pb
                })
                .map(|k| from + k)
        };
        let (mut s, mut nl) = (0, next_long(0));
        let merged = core::iter::from_fn(|| {
            let from_long = nl.map(|k| spots[long[k] as usize]);
            match (near.get(s), from_long, nl) {
                (Some(&(ns, _)), Some((ls, le, ..)), Some(k)) if ls < ns => {
                    nl = next_long(k + 1);
                    Some((ls, le))
                }
                (Some(&(ns, ne)), ..) => {
                    s += 1;
                    Some((ns, ne))
                }
                (None, Some((ls, le, ..)), Some(k)) => {
                    nl = next_long(k + 1);
                    Some((ls, le))
                }
                _ => None,
            }
        });
        let low = first_fit(0, item.align, foot, merged);
        let start = align_up(low, item.align).ok_or_else(overflow)?;
        let end = start.checked_add(foot).ok_or_else(overflow)?;
        offsets[i] = start;
        height = height.max(end);
        let p = spots.len() as u32;
        spots.push((start, end, a, b));
        let (ka, kb) = (a / width, b / width);
        if kb - ka >= LONG {
            let pos = long.partition_point(|&o| spots[o as usize].0 <= start);
            long.insert(pos, p);
        } else {
            (ka..=kb).for_each(|k| bucket[k].push(p));
        }
    }
    Ok(Some(height))
}

/// The width of greedy's buckets of time ([`BUCKET_WIDTHS`]) for buffers of
/// these compressed spans (by their place in greedy's order; `None` for an
/// empty range) over `sections` sections: the one at which a new buffer
/// gathers the fewest placed ones ([`gathered`]); `None` where that passes
/// [`GATHERED`] a buffer (the buffers crowd a few phases, and the walk
/// through blocks is faster), unless it is at most `n^2 /` [`SCATTERED`]
/// in all. The widest first, kept on ties: where some 180 buffers are live
/// in each of 1,000 phases, 64 phases a bucket gathered 3,800 a buffer, 2
/// some 500.
fn bucket_width(spans: &[Option<(usize, usize)>], sections: usize) -> Option<usize> {
    let n = spans.len() as u128;
    BUCKET_WIDTHS
        .into_iter()
        .filter_map(|width| Some((gathered(spans, sections, width)?, width)))
        .filter(|&(g, _)| g <= GATHERED * n || g <= n * n / SCATTERED)
        .min_by_key(|&(g, _)| g)
        .map(|(_, width)| width)
}

/// The placed buffers all the buffers of `spans` gather from buckets of
/// `width` sections, summed: each bucket's count squared, and every
/// long-lived one ([`LONG`]) for every buffer. `None` where a buffer spans
/// more than [`CROWDED`] buckets on average.
fn gathered(spans: &[Option<(usize, usize)>], sections: usize, width: usize) -> Option<u128> {
    let n = spans.len() as u128;
    let buckets = sections.div_ceil(width).max(1);
    let mut delta = vec![0i64; buckets + 1];
    let (mut spanned, mut long_lived) = (0u128, 0u128);
    for &(a, b) in spans.iter().flatten() {
        let (ka, kb) = (a / width, b / width);
        spanned += (kb - ka + 1).min(LONG) as u128;
        if kb - ka >= LONG {
            long_lived += 1;
        } else {
            delta[ka] += 1;
            delta[kb + 1] -= 1;
        }
    }
    if spanned > CROWDED as u128 * n {
        return None;
    }
    let mut count = 0i64;
    let mut sum = long_lived * n;
    for &d in &delta[..buckets] {
        count += d;
        sum += (count as u128) * (count as u128);
    }
    Some(sum)
}

/// Every buffer after the other: the end of the last, writing the offsets when
/// asked (a buffer of no bytes at 0, as greedy places it); `None` past
/// `usize::MAX`.
fn sequential(items: &[Item], guard: usize, mut offsets: Option<&mut [usize]>) -> Option<usize> {
    let mut cursor = crate::layout::Cursor::new(guard);
    for (k, it) in items.iter().enumerate() {
        let at = cursor.place(it.bytes, it.align)?;
        if let Some(off) = offsets.as_deref_mut() {
            off[k] = if it.bytes == 0 { 0 } else { at };
        }
    }
    Some(cursor.end())
}

#[cfg(test)]
#[path = "greedy_tests.rs"]
mod tests;

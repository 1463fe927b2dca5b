//! Greedy placement: each buffer at the lowest aligned offset clear of the
//! placed buffers live with it, in a few orders, keeping the smallest plan
//! ([`plan`]); and the busiest phase's bytes, what no plan goes below.

use super::{Item, align_up};
use crate::error::SizeError;

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
    let Some(bound) = busiest(items, guard, order, placed) else {
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
        if let Ok(other) = greedy(arena, items, guard, offsets, order, placed, by)
            && other < slab
        {
            (slab, best) = (other, by);
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
pub(super) fn busiest(
    items: &[Item],
    guard: usize,
    order: &mut [u128],
    placed: &mut [Placed],
) -> Option<usize> {
    // A difference array: each buffer's bytes added at its first phase and
    // taken away after its last.
    // One pass: an empty range anywhere is `None`, a phase past 63 anywhere
    // the sweep, whatever order they come in.
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

/// SplitMix64's finalizer over a seed and an index: a fixed, well-spread hash.
pub(super) const fn mix(seed: u64, k: u64) -> u64 {
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
        // An empty range (`first > last`) is live in no phase: it meets no
        // buffer (it stays at 0), and none meets it (it is not kept below).
        let empty = first > last;
        for p in placed[..count].iter().filter(|_| !empty) {
            if p.first > last || first > p.last {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{lower_bound, plan_with_budget, plan_within};

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
        assert_eq!(
            busiest(&items, 0, &mut [0; 5], &mut [Placed::EMPTY; 5]),
            Some(160)
        );
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

#[cfg(test)]
mod sweeps {
    use super::*;
    use crate::plan::lower_bound;

    /// Random items over up to 300 phases, from a fixed seed.
    fn random(seed: u64, n: usize, phases: usize) -> Vec<Item> {
        let mut s = seed;
        let mut next = |m: u64| {
            s = mix(s, 1);
            (s % m) as usize
        };
        (0..n)
            .map(|_| {
                let first = next(phases as u64);
                let last = if next(10) == 0 {
                    first.wrapping_sub(1)
                } else {
                    first + next(40)
                };
                Item {
                    name: "x",
                    bytes: if next(8) == 0 { 0 } else { 1 + next(5_000) },
                    align: 256 << next(3),
                    first,
                    last,
                }
            })
            .collect()
    }

    /// The busiest phase by definition: every phase, every buffer.
    fn busiest_naive(items: &[Item], guard: usize) -> usize {
        let end = items
            .iter()
            .map(|it| it.last.saturating_add(1))
            .max()
            .unwrap_or(0);
        (0..end.min(400))
            .map(|p| {
                items
                    .iter()
                    .filter(|it| it.bytes > 0 && it.first <= p && p <= it.last)
                    .map(|it| it.bytes + guard)
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0)
    }

    /// The lower bound by definition, phase by phase.
    fn lower_naive(items: &[Item], phases: usize, unit: usize) -> usize {
        (0..phases)
            .map(|p| {
                let live: Vec<&Item> = items
                    .iter()
                    .filter(|it| it.first <= p && p <= it.last)
                    .collect();
                let sum: usize = live.iter().map(|it| it.bytes.next_multiple_of(unit)).sum();
                let slack = live
                    .iter()
                    .map(|it| it.bytes.next_multiple_of(unit) - it.bytes)
                    .max();
                sum - slack.unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn the_sweeps_agree_with_the_definitions() {
        for seed in 0..300 {
            let n = 1 + (seed as usize * 7) % 120;
            let mut items = random(seed, n, 300);
            // `busiest` refuses empty ranges; the sweep sees none.
            items.retain(|it| it.first <= it.last);
            let guard = (seed as usize % 3) * 16;
            let (mut order, mut placed) = (vec![0; items.len()], vec![Placed::EMPTY; items.len()]);
            let want = busiest_naive(&items, guard);
            assert_eq!(
                busiest_of_many(&items, guard, &mut order, &mut placed),
                want,
                "seed {seed}"
            );
            let with_empty = random(seed, n, 300);
            for phases in [65, 200, 400] {
                assert_eq!(
                    lower_bound("A", &with_empty, phases, 256).unwrap(),
                    lower_naive(&with_empty, phases, 256),
                    "seed {seed}, {phases} phases"
                );
            }
        }
    }
}

#[cfg(test)]
mod bound_phases {
    use crate::plan::{Item, lower_bound};

    #[test]
    fn the_lower_bound_looks_at_boundaries_not_every_phase() {
        // Alignments below the one asked for keep the phase-by-phase rule;
        // with `usize::MAX` phases it still ends at once.
        let item = |bytes, align, first, last| Item {
            name: "x",
            bytes,
            align,
            first,
            last,
        };
        let items = [
            item(10, 1, 0, usize::MAX - 1),
            item(300, 512, 1 << 40, 1 << 41),
        ];
        assert_eq!(lower_bound("A", &items, usize::MAX, 256).unwrap(), 10 + 300);
        assert_eq!(lower_bound("A", &items, 1 << 40, 256).unwrap(), 10);
    }
}

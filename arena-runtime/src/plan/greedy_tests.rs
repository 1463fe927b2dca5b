//! Greedy's tests: orders, gaps, guards, the busiest phase and the lower
//! bound against their definitions, the buckets against the scan.

use super::*;
use crate::plan::base::mix;
use crate::plan::{Plan, PlanError, lower_bound, plan_with_budget, plan_within};

fn item(bytes: usize, first: usize, last: usize) -> Item {
    Item {
        bytes,
        align: 256,
        first,
        last,
    }
}

/// Greedy by size alone: the offsets and the height.
fn by_size(items: &[Item]) -> (Vec<usize>, Result<usize, PlanError>) {
    let n = items.len();
    let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
    let height = greedy(items, 0, &mut off, &mut order, &mut placed, Order::SIZE);
    (off, height)
}

/// Buffers of `(bytes, first, last)`, alignment 1.
fn unaligned(specs: &[(usize, usize, usize)]) -> Vec<Item> {
    specs
        .iter()
        .map(|&(bytes, first, last)| Item {
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
    let plan = plan_offsets(items, guard).unwrap();
    (plan.offsets, plan.height)
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
    let (off, height) = run(&items, 0);
    assert_eq!(off, [0, 1024, 1024, 1024], "attn, mlp and head share");
    assert_eq!(height, 1024 + 4000);
    // The bound rounds every buffer up to the alignment but the one on
    // top: 4000 + 1000 rounded.
    assert_eq!(lower_bound(&items, 4, 256).unwrap(), 4000 + 1024);
    // Two 10-byte buffers aligned to 256 in one phase: 266, the plan.
    let two = [item(10, 0, 0), item(10, 0, 0)];
    assert_eq!(lower_bound(&two, 1, 256).unwrap(), 266);
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
    let (off, height) = run(&items, 0);
    // 1024 at 0; 512 after it at 1024; 256 (phase 1) in the gap at 0;
    // the last 256 (phase 0) past both.
    assert_eq!(off, [0, 1024, 0, 1536]);
    assert_eq!(height, 1792);
}

#[test]
fn a_second_order_where_size_first_fragments() {
    // Largest first leaves the two 70s and the 40 fragmented around the
    // 100s (280 bytes); the longest-lived first reaches the busiest
    // phase's 210.
    let items = unaligned(&[(100, 3, 3), (40, 0, 2), (70, 2, 3), (100, 0, 1), (70, 0, 2)]);
    assert_eq!(by_size(&items).1, Ok(280));
    let (off, height) = run(&items, 0);
    assert_eq!(height, 210);
    assert_eq!(lower_bound(&items, 4, 1), Ok(210));
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
    let (off, height) = run(&items, 0);
    assert_eq!(height, 160);
    assert_no_overlap(&items, &off);
    // The same offsets every time: the plan is a function of its input.
    assert_eq!(run(&items, 0), (off, height));
}

#[test]
fn guards_follow_every_buffer_and_overflow_is_an_error() {
    let (off, height) = run(&[item(100, 0, 0), item(100, 0, 0)], 64);
    assert_eq!(off, [0, 256]);
    assert_eq!(height, 256 + 164);
    let huge = [item(usize::MAX - 10, 0, 0), item(100, 0, 0)];
    let e = plan_offsets(&huge, 0).unwrap_err();
    assert!(matches!(e, PlanError::Overflow { .. }), "{e}");
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
            let a = plan_with_budget(&open, 0, budget).unwrap();
            assert_eq!(a, plan_with_budget(&finite, 0, budget).unwrap());
            assert_no_overlap(&open, &a.offsets);
            let b = plan_within(&open, 0, budget, 340).unwrap();
            assert_eq!(b, plan_within(&finite, 0, budget, 340).unwrap());
        }
        assert_eq!(plan_with_budget(&open, 0, 10_000).unwrap().height, 340);
    }
    // All three at offset 0 was the wrap of `last + 1`.
    let all = unaligned(&[
        (10, 0, usize::MAX),
        (20, 5, usize::MAX),
        (30, 7, usize::MAX),
    ]);
    let Plan {
        offsets: off,
        height,
        ..
    } = plan_with_budget(&all, 0, 1000).unwrap();
    assert_no_overlap(&all, &off);
    assert_eq!(height, 60);
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
            plan_with_budget(&many, 0, budget).unwrap(),
            plan_with_budget(&few, 0, budget).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!(
            plan_offsets(&many, 0).unwrap(),
            plan_offsets(&few, 0).unwrap()
        );
        assert_eq!(a.offsets[0], 0, "live in no phase: beside nothing");
    }
}

#[test]
fn an_alignment_not_a_power_of_two_is_an_error_naming_the_buffer() {
    for align in [0, 3, 6, 100] {
        let items = [
            item(100, 0, 0),
            Item {
                bytes: 30,
                align,
                first: 0,
                last: 1,
            },
        ];
        let e = plan_offsets(&items, 0).unwrap_err();
        assert_eq!(e, PlanError::BadAlign { item: 1, align });
        assert_eq!(e.item(), 1);
        assert_eq!(
            e.to_string(),
            format!("item 1: alignment {align} is not a power of two")
        );
    }
}

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
                    lower_bound(&with_empty, phases, 256).unwrap(),
                    lower_naive(&with_empty, phases, 256),
                    "seed {seed}, {phases} phases"
                );
            }
        }
    }
}

mod bound_phases {
    use crate::plan::{Item, lower_bound};

    #[test]
    fn the_lower_bound_looks_at_boundaries_not_every_phase() {
        // Alignments below the one asked for keep the phase-by-phase rule;
        // with `usize::MAX` phases it still ends at once.
        let item = |bytes, align, first, last| Item {
            bytes,
            align,
            first,
            last,
        };
        let items = [
            item(10, 1, 0, usize::MAX - 1),
            item(300, 512, 1 << 40, 1 << 41),
        ];
        assert_eq!(lower_bound(&items, usize::MAX, 256).unwrap(), 10 + 300);
        assert_eq!(lower_bound(&items, 1 << 40, 256).unwrap(), 10);
    }
}

#[path = "greedy_bucketed_tests.rs"]
mod bucketed;

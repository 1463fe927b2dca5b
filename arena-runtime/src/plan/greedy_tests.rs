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

mod bucketed {
    use super::*;

    /// Random problems: sparse traces and dense ones, empty ranges, guards.
    fn random(seed: u64, n: usize) -> Vec<Item> {
        let mut s = seed;
        let mut next = |m: u64| {
            s = mix(s, 3);
            (s % m) as usize
        };
        let dense = seed.is_multiple_of(3);
        (0..n)
            .map(|_| {
                let first = next(if dense { 50 } else { 20_000 });
                let life = match next(20) {
                    0 => next(20_000),
                    1 => 0,
                    _ => next(if dense { 50 } else { 12 }),
                };
                Item {
                    bytes: if next(16) == 0 { 0 } else { 1 + next(1 << 16) },
                    align: 1 << next(9),
                    first,
                    last: if next(25) == 0 {
                        first.wrapping_sub(1)
                    } else {
                        first + life
                    },
                }
            })
            .collect()
    }

    /// Greedy's offsets and height in order `by`, through buckets above
    /// `ways.0` buffers and blocks above `ways.1`.
    fn place(
        items: &[Item],
        guard: usize,
        by: Order,
        ways: (usize, usize),
    ) -> (Vec<usize>, Result<usize, PlanError>) {
        let n = items.len();
        let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
        let height = greedy_from(items, guard, (&mut off, &mut order, &mut placed), by, ways);
        (off, height)
    }

    #[test]
    fn buckets_and_blocks_give_the_offsets_of_the_scan() {
        for seed in 0..24 {
            let items = random(seed, 300 + 150 * seed as usize);
            let n = items.len();
            let guard = (seed as usize % 2) * 64;
            for by in [Order::SIZE, Order::LIFETIME, Order::shuffled(seed)] {
                let run = |ways| place(&items, guard, by, ways);
                let scan = run((usize::MAX, usize::MAX));
                assert_eq!(run((0, usize::MAX)), scan, "buckets, seed {seed}, {by:?}");
                assert_eq!(run((usize::MAX, 0)), scan, "blocks, seed {seed}, {by:?}");
            }
            // The sparse ones go through the buckets (the dense ones may not).
            let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
            greedy_from(
                &items,
                guard,
                (&mut off, &mut order, &mut placed),
                Order::SIZE,
                (usize::MAX, usize::MAX),
            )
            .unwrap();
            let m = items.iter().filter(|it| it.bytes > 0).count();
            let bucketed = place_bucketed(&items, guard, &mut off, &order[..m]).unwrap();
            assert!(seed.is_multiple_of(3) || bucketed.is_some(), "seed {seed}");
        }
    }

    /// Buffers that all meet (every range holds phase 1000), of sizes and
    /// alignments drawn from `seed`: where the scan is quadratic.
    fn co_live(seed: u64, n: usize) -> Vec<Item> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % m) as usize
        };
        (0..n)
            .map(|_| {
                let first = 1000 - next(900);
                Item {
                    bytes: 1 + next(1 << 12),
                    align: 1 << next(8),
                    first,
                    last: 1000 + next(900),
                }
            })
            .collect()
    }

    #[test]
    fn blocks_give_the_offsets_of_the_scan_where_every_buffer_meets() {
        for seed in 0..12 {
            let items = co_live(seed, 200 + 400 * seed as usize);
            let guard = (seed as usize % 3) * 16;
            for by in [Order::SIZE, Order::LIFETIME, Order::shuffled(seed)] {
                let run = |ways| place(&items, guard, by, ways);
                let scan = run((usize::MAX, usize::MAX));
                assert_eq!(run((usize::MAX, 0)), scan, "seed {seed}, {by:?}");
            }
        }
    }

    #[test]
    fn buckets_narrow_where_many_are_live_in_each_phase() {
        // 12,000 buffers starting in 600 phases, each live 4: some 80 live
        // in each phase, 1,300 in each bucket of 64 phases, where every
        // buffer gathered and sorted the placed ones of its bucket (60,000
        // such buffers over 1,000 phases: 27 s in every order, 9 s now).
        let spans: Vec<Option<(usize, usize)>> = (0..12_000u64)
            .map(|k| {
                let a = (mix(k, 7) % 600) as usize;
                Some((a, a + 3))
            })
            .collect();
        let wide = gathered(&spans, 604, 64).unwrap();
        let width = bucket_width(&spans, 604).unwrap();
        let narrow = gathered(&spans, 604, width).unwrap();
        assert!(
            width < 64 && narrow * 4 < wide,
            "{width}: {narrow} against {wide}"
        );
        // Where the phases are few and all crowd them, no width serves.
        let crowded = vec![Some((0, 1)); 12_000];
        assert_eq!(bucket_width(&crowded, 2), None);
        // The narrow buckets give the scan's offsets.
        let items: Vec<Item> = spans
            .iter()
            .flatten()
            .enumerate()
            .map(|(k, &(a, b))| Item {
                bytes: 1 + (mix(k as u64, 5) % 65_536) as usize,
                align: 1 << (k % 4),
                first: a,
                last: b,
            })
            .collect();
        for by in [Order::SIZE, Order::shuffled(1)] {
            let run = |ways| place(&items, 16, by, ways);
            assert_eq!(
                run((0, usize::MAX)),
                run((usize::MAX, usize::MAX)),
                "{by:?}"
            );
        }
    }

    #[test]
    fn the_orders_after_the_first_walk_a_bounded_number_of_pairs() {
        // `meeting` counts each pair that meets from both sides, as a naive
        // count does.
        let random: Vec<Item> = (0..3_000u64)
            .map(|k| {
                let first = (mix(k, 11) % 40) as usize;
                Item {
                    bytes: (mix(k, 12) % 100_000) as usize,
                    align: 1,
                    first,
                    last: first + (mix(k, 14) % 6) as usize,
                }
            })
            .collect();
        let naive: u128 = random
            .iter()
            .filter(|a| a.bytes > 0)
            .map(|a| {
                let meet = |b: &&Item| b.bytes > 0 && a.first <= b.last && b.first <= a.last;
                random.iter().filter(meet).count() as u128 - 1
            })
            .sum();
        assert_eq!(meeting(&random), naive);
        // Five buffers where size first ends at 170, the longest-lived first
        // at 190 and a shuffled order at the bound, 160 (the test of the
        // shuffled orders above), and 3,000 bytes each alone in a phase:
        // past 2,048 buffers, where the work counts.
        let mut items = unaligned(&[(50, 0, 2), (40, 0, 1), (60, 3, 3), (70, 1, 1), (80, 2, 3)]);
        items.extend((0..3_000).map(|k| Item {
            bytes: 1,
            align: 1,
            first: 10 + k,
            last: 10 + k,
        }));
        let pairs = meeting(&items);
        assert_eq!(pairs, 10);
        let n = items.len();
        let walking = |work| {
            let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
            let h = plan_walking(&items, 0, (&mut off, &mut order, &mut placed), work).unwrap();
            // (The buffers alone in a phase are all at 0.)
            assert!(off[5..].iter().all(|&o| o == 0));
            (off[..5].to_vec(), h)
        };
        let by = |by| {
            let (off, h) = place(&items, 0, by, (usize::MAX, usize::MAX));
            (off[..5].to_vec(), h.unwrap())
        };
        // No work: the first order alone; one order's pairs: the second
        // too (no lower); work for every order: a shuffled one's 160, and
        // `plan`'s plan.
        assert_eq!(walking(0), by(Order::SIZE));
        assert_eq!(walking(pairs), by(Order::SIZE));
        assert_eq!(by(Order::LIFETIME).1, 190);
        let all = walking(u128::MAX);
        assert_eq!(all.1, 160);
        assert_eq!(walking(ORDERS_WORK), all);
        let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
        let h = plan(&items, 0, &mut off, &mut order, &mut placed).unwrap();
        assert_eq!((off[..5].to_vec(), h), all);
    }

    #[test]
    fn past_2048_buffers_at_most_eight_shuffled_orders_are_tried() {
        // Seven buffers whose bound, 290, only shuffled orders of seed 8
        // and later reach (size first, the longest-lived first and the
        // first eight shuffled orders end at 330): alone, the plan tries
        // them; with 3,000 buffers each alone in a phase, it stops at the
        // eighth shuffled order.
        let mut items = unaligned(&[
            (80, 1, 2),
            (40, 2, 3),
            (90, 1, 1),
            (30, 3, 4),
            (70, 3, 3),
            (80, 1, 3),
            (40, 1, 2),
        ]);
        let height = |items: &[Item]| plan_offsets(items, 0).unwrap().height;
        assert_eq!(height(&items), 290);
        items.extend((0..3_000).map(|k| Item {
            bytes: 1,
            align: 1,
            first: 10 + k,
            last: 10 + k,
        }));
        let by = |by| place(&items, 0, by, (usize::MAX, usize::MAX)).1.unwrap();
        assert!((0..8).all(|s| by(Order::shuffled(s)) == 330));
        assert_eq!(by(Order::shuffled(8)), 290);
        assert_eq!(height(&items), 330);
    }
}

//! The planner on 10,000 random phased arenas: 1 to 64 buffers, sizes from 0
//! to near `usize::MAX`, random alignments and phase ranges. No two buffers
//! whose ranges intersect overlap; every buffer is aligned and inside the
//! slab; lower bound ≤ planned ≤ unplanned; an overflow is a `PlanError`.

use arena_runtime::__private::Cursor;
use arena_runtime::SizeError;
use arena_runtime::plan::{Item, Plan, PlanError, lower_bound, plan_offsets};
use proptest::prelude::*;

fn arb_item(phases: usize) -> impl Strategy<Value = Item> {
    let bytes = prop_oneof![
        3 => 0usize..=1 << 20,
        1 => Just(0usize),
        1 => (usize::MAX - (1 << 20))..=usize::MAX,
        1 => (1usize << 40)..=(1usize << 62),
    ];
    (bytes, 0u32..=12, 0..phases, 0..phases).prop_map(|(bytes, a, p, q)| Item {
        bytes,
        align: 1 << a,
        first: p.min(q),
        last: p.max(q),
    })
}

fn arb_arena() -> impl Strategy<Value = (Vec<Item>, usize, usize)> {
    (1usize..=8).prop_flat_map(|phases| {
        (
            prop::collection::vec(arb_item(phases), 1..=64),
            Just(phases),
            prop_oneof![Just(0usize), 1usize..=512],
        )
    })
}

/// Every buffer one after the other, as without phases.
fn unplanned(items: &[Item], guard: usize) -> Result<usize, SizeError> {
    let mut c = Cursor::new(guard);
    for it in items {
        c.fit("A", "x", it.bytes, it.align)?;
    }
    Ok(c.end())
}

/// 10,000 cases; under Miri (`scripts/miri.sh`), which runs about a
/// thousand times slower, `PROPTEST_CASES` or 8.
fn cases() -> u32 {
    if cfg!(miri) {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(8)
    } else {
        10_000
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn planned_offsets_are_sound((items, phases, guard) in arb_arena()) {
        let n = items.len();
        let planned = plan_offsets(&items, guard);
        let flat = unplanned(&items, guard);
        let lower = lower_bound(&items, phases, 1);
        // Rounded to any alignment (capped at the live buffers' own), a
        // true bound: 256 is the arenas' default.
        let lowers = [64usize, 256, 4096].map(|a| lower_bound(&items, phases, a));
        match planned {
            Err(PlanError::Overflow { .. }) => {
                // Overflow only where the sum itself leaves usize.
                let sum = items.iter().map(|i| i.bytes as u128 + guard as u128).sum::<u128>();
                prop_assert!(sum > usize::MAX as u128 / 2 || flat.is_err(), "spurious overflow");
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
            Ok(Plan { offsets: off, height: slab, .. }) => {
                for (i, a) in items.iter().enumerate() {
                    if a.bytes == 0 {
                        prop_assert_eq!(off[i], 0, "buffer {} of no bytes", i);
                        continue;
                    }
                    prop_assert_eq!(off[i] % a.align, 0, "buffer {} misaligned", i);
                    let end = off[i].checked_add(a.bytes).and_then(|e| e.checked_add(guard));
                    prop_assert!(end.is_some_and(|e| e <= slab), "buffer {} outside the slab", i);
                    for (j, b) in items.iter().enumerate().skip(i + 1) {
                        if b.bytes == 0 || !a.overlaps(b) {
                            continue;
                        }
                        let end = |k: usize, it: &Item| off[k] as u128 + it.bytes as u128 + guard as u128;
                        let disjoint = end(i, a) <= off[j] as u128 || end(j, b) <= off[i] as u128;
                        prop_assert!(disjoint, "buffers {} and {} overlap while both live", i, j);
                    }
                }
                for lower in std::iter::once(lower).chain(lowers).flatten() {
                    prop_assert!(lower as u128 <= slab as u128 + (guard * n) as u128, "lower {} > planned {}", lower, slab);
                }
                if let Ok(flat) = flat {
                    prop_assert!(slab <= flat, "planned {} > unplanned {}", slab, flat);
                }
            }
        }
    }
}

//! Fuzzes the planner on problems decoded from the input: greedy and the
//! search, checked by an independent overlap check; the search never above
//! greedy, the lower bound never above the plan, the same input the same
//! plan. Run with `-timeout=10`: the budget (at most 4,000 nodes here on at
//! most 300 buffers) bounds the search's work, so a slow input is a finding.
#![no_main]

use arena_runtime::plan::{Item, Plan, lower_bound, plan_offsets, plan_with_budget, plan_within};
use libfuzzer_sys::fuzz_target;

mod check;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let budget = u16::from_le_bytes([data[0], data[1]]) as u64 % 4_000;
    let scale = data[2] % 16;
    let items: Vec<Item> = data[3..]
        .chunks_exact(5)
        .take(300)
        .map(|c| {
            let first = (c[2] % 40) as usize;
            Item {
                bytes: (u16::from_le_bytes([c[0], c[1]]) as usize) << scale,
                align: 1 << (c[4] % 10),
                // A few empty ranges (first > last) and ranges to the end.
                first,
                last: match c[3] {
                    255 => usize::MAX,
                    254 => first.wrapping_sub(1),
                    l => first + (l % 40) as usize,
                },
            }
        })
        .collect();
    let Plan {
        offsets: greedy_off,
        height: greedy,
        ..
    } = plan_offsets(&items, 0).expect("sizes of at most 2^31 fit");
    check::plan_is_sound(&items, &greedy_off, greedy);
    let Plan {
        offsets: off,
        height: slab,
        ..
    } = plan_with_budget(&items, 0, budget).unwrap();
    check::plan_is_sound(&items, &off, slab);
    assert!(slab <= greedy, "the search {slab} above greedy {greedy}");
    let again = plan_with_budget(&items, 0, budget).unwrap();
    assert_eq!((again.offsets, again.height), (off, slab));
    let Plan {
        offsets: within_off,
        height: within,
        ..
    } = plan_within(&items, 0, budget, slab).unwrap();
    check::plan_is_sound(&items, &within_off, within);
    assert!(within <= greedy);
    let finite: Vec<Item> = items
        .iter()
        .map(|it| Item {
            last: it.last.min(1_000),
            ..*it
        })
        .collect();
    let phases = finite.iter().map(|it| it.last + 1).max().unwrap_or(0);
    for align in [1, 256] {
        let lower = lower_bound(&finite, phases, align).unwrap();
        assert!(lower <= slab, "lower bound {lower} above the plan {slab}");
    }
});

//! The walk through groups of blocks against the walk through blocks alone
//! and the definition: the same offsets, the same steps, less looked at.

use super::*;
use crate::plan::base::mix;

/// Random buffers: long-lived and short, empty ranges, empty sizes left
/// out (greedy never places them), alignments up to 256.
fn random(seed: u64, n: usize) -> Vec<Item> {
    let mut s = seed;
    let mut next = |m: u64| {
        s = mix(s, 7);
        (s % m) as usize
    };
    let dense = seed.is_multiple_of(2);
    (0..n)
        .map(|_| {
            let first = next(if dense { 40 } else { 2_000 });
            let life = if next(8) == 0 {
                next(2_000)
            } else {
                next(if dense { 40 } else { 60 })
            };
            Item {
                bytes: 1 + next(1 << 12),
                align: 1 << next(9),
                first,
                last: if next(30) == 0 {
                    first.wrapping_sub(1)
                } else {
                    first + life
                },
            }
        })
        .collect()
}

/// Greedy in the given order by its definition: each buffer at the lowest
/// aligned offset clear of the placed ones live with it.
fn by_definition(items: &[Item], guard: usize) -> (Vec<usize>, usize) {
    let mut off = vec![0; items.len()];
    let mut height = 0;
    let mut placed: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let foot = it.bytes + guard;
        let mut live: Vec<(usize, usize)> = placed
            .iter()
            .filter(|p| it.first <= it.last && p.2 <= it.last && it.first <= p.3)
            .map(|p| (p.0, p.1))
            .collect();
        live.sort_unstable();
        let mut at = 0;
        for (start, end) in live {
            if align_up(at, it.align).unwrap() + foot <= start {
                break;
            }
            at = at.max(end);
        }
        let start = align_up(at, it.align).unwrap();
        off[i] = start;
        height = height.max(start + foot);
        if it.first <= it.last {
            placed.push((start, start + foot, it.first, it.last));
        }
    }
    (off, height)
}

/// The offsets, height, steps and looks of a placement in `shape`.
fn place(
    items: &[Item],
    guard: usize,
    shape: (usize, Option<usize>),
) -> (Vec<usize>, usize, u64, u64) {
    let order: Vec<u128> = (0..items.len() as u128).collect();
    let mut off = vec![0; items.len()];
    let mut steps = 0;
    let (height, looked) = place_in(items, guard, &mut off, &order, &mut steps, shape).unwrap();
    (off, height, steps, looked)
}

#[test]
fn groups_give_the_offsets_and_steps_of_the_walk_through_blocks() {
    for seed in 0..40 {
        let items = random(seed, 200 + (seed as usize * 37) % 400);
        let guard = (seed as usize % 3) * 8;
        let want = by_definition(&items, guard);
        for (most, group) in [(4, 2), (4, 3), (8, 5), (MOST, GROUP)] {
            let alone = place(&items, guard, (most, None));
            assert_eq!(
                (&alone.0, alone.1),
                (&want.0, want.1),
                "seed {seed}, {most}"
            );
            let got = place(&items, guard, (most, Some(group)));
            assert_eq!(
                (&got.0, got.1),
                (&want.0, want.1),
                "seed {seed}, {most}, {group}"
            );
            assert_eq!(got.2, alone.2, "steps, seed {seed}, {most}, {group}");
        }
    }
}

#[test]
fn buffers_that_all_meet_are_passed_a_group_at_a_time() {
    // Every buffer live at once, the largest first: each is stacked on the
    // others, and the walk through blocks alone looks at every block.
    let n = 20_000;
    let items: Vec<Item> = (0..n)
        .map(|k| Item {
            bytes: n - k,
            align: 1,
            first: 0,
            last: 0,
        })
        .collect();
    let grouped = place(&items, 0, (MOST, Some(GROUP)));
    let alone = place(&items, 0, (MOST, None));
    assert_eq!(grouped.0, alone.0);
    assert_eq!(grouped.2, alone.2, "the same steps");
    let n = n as u64;
    assert!(grouped.3 <= 4 * n, "{} looks for {n} buffers", grouped.3);
    assert!(alone.3 > 20 * n, "{} looks for {n} buffers", alone.3);
}

//! Problems of known optimum: a rectangle of time x bytes cut by random
//! guillotine cuts into buffers (the construction of
//! `scripts/guillotine-problems.py`, written again here with its own
//! generator). Every phase is full to the rectangle's height, so the bound
//! and the optimum are that height, and a plan there is a perfect packing.

use arena_runtime::plan::{Item, Plan, plan_offsets, plan_with_budget};

use crate::rng::Rng;

/// A value below `n`, as an index.
fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// The height of every tiling: 1 MiB.
const HEIGHT: usize = 1 << 20;

/// `n` buffers tiling phases `[t0, t1)` x `[0, HEIGHT)`, cut on 1 KiB steps.
fn tile(rng: &mut Rng, n: usize, t0: usize, t1: usize, out: &mut Vec<Item>) {
    let unit = 1024;
    let mut rects = vec![(t0, t1, 0, HEIGHT)];
    let mut stuck = 0;
    while rects.len() < n && stuck < 1000 {
        // One of the larger half of the pieces, cut in time or in bytes.
        rects.sort_by_key(|&(a, b, lo, hi)| ((b - a) * (hi - lo), a, lo));
        let half = rects.len() / 2;
        let k = half + below(rng, rects.len() - half);
        let (a, b, lo, hi) = rects.remove(k);
        if below(rng, 2) == 0 && b - a >= 2 {
            let cut = a + 1 + below(rng, b - a - 1);
            rects.extend([(a, cut, lo, hi), (cut, b, lo, hi)]);
        } else if (hi - lo) / unit >= 2 {
            let cut = lo + unit * (1 + below(rng, (hi - lo) / unit - 1));
            rects.extend([(a, b, lo, cut), (a, b, cut, hi)]);
        } else {
            rects.push((a, b, lo, hi));
            stuck += 1;
        }
    }
    out.extend(rects.into_iter().map(|(a, b, lo, hi)| Item {
        bytes: hi - lo,
        align: 1,
        first: a,
        last: b - 1,
    }));
}

/// A tiling of `n` buffers over `strips` independent strips of time.
fn tiling(n: usize, strips: usize, seed: u64) -> Vec<Item> {
    let mut rng = Rng(seed);
    let times = 1_000_000;
    let mut out = Vec::new();
    let width = times / strips;
    for s in 0..strips {
        let share = if s + 1 == strips {
            n - out.len()
        } else {
            n / strips
        };
        tile(&mut rng, share, s * width, (s + 1) * width, &mut out);
    }
    // In no particular order, as a user's buffers come.
    for i in (1..out.len()).rev() {
        let j = below(&mut rng, i + 1);
        out.swap(i, j);
    }
    out
}

fn check(items: &[Item], off: &[usize], slab: usize) {
    for (i, a) in items.iter().enumerate() {
        assert!(off[i] + a.bytes <= slab, "buffer {i} outside");
        for (j, b) in items.iter().enumerate().take(i) {
            if a.overlaps(b) {
                assert!(
                    off[i] + a.bytes <= off[j] || off[j] + b.bytes <= off[i],
                    "{i} and {j} overlap"
                );
            }
        }
    }
}

#[test]
fn tilings_of_known_optimum_are_planned_at_it() {
    for (n, seed) in [(120, 1), (300, 2), (450, 3), (600, 4)] {
        let items = tiling(n, 1, seed);
        let Plan { height: greedy, .. } = plan_offsets(&items, 0).unwrap();
        let Plan {
            offsets: off,
            height: slab,
            ..
        } = plan_with_budget(&items, 0, 250_000).unwrap();
        check(&items, &off, slab);
        assert_eq!(slab, HEIGHT, "{n} buffers, seed {seed}: greedy {greedy}");
        assert!(greedy > HEIGHT, "greedy alone is not enough here");
    }
}

/// Independent strips are searched apart: past 2,048 buffers in all, where
/// the search did not run before, each strip is below that.
#[test]
fn independent_strips_past_2048_buffers_are_planned_at_the_optimum() {
    let items = tiling(2_400, 4, 9);
    assert_eq!(items.len(), 2_400);
    let Plan { height: greedy, .. } = plan_offsets(&items, 0).unwrap();
    let Plan {
        offsets: off,
        height: slab,
        ..
    } = plan_with_budget(&items, 0, 250_000).unwrap();
    check(&items, &off, slab);
    assert_eq!(slab, HEIGHT, "greedy {greedy}");
}

/// One perfect packing of more than 2,048 buffers, no strips: searched as a
/// whole (a perfect packing's part may hold up to 8,192).
#[test]
fn one_tiling_of_2500_buffers_is_planned_at_the_optimum() {
    let items = tiling(2_500, 1, 11);
    let Plan {
        offsets: off,
        height: slab,
        ..
    } = plan_with_budget(&items, 0, 250_000).unwrap();
    check(&items, &off, slab);
    assert_eq!(slab, HEIGHT);
}

/// Small perfect packings of every seed, aligned to the cut step or not:
/// always planned at the optimum, and soundly.
#[test]
fn small_tilings_of_every_seed_are_planned_at_the_optimum() {
    for seed in 0..300u64 {
        let mut rng = Rng(seed);
        let n = 2 + below(&mut rng, 60);
        let strips = 1 + below(&mut rng, 3);
        let mut items = tiling(n, strips, seed);
        let align = [1, 16, 1024][below(&mut rng, 3)];
        for it in &mut items {
            it.align = align;
        }
        let Plan {
            offsets: off,
            height: slab,
            ..
        } = plan_with_budget(&items, 0, 100_000).unwrap();
        check(&items, &off, slab);
        assert!(
            off.iter().all(|o| o.is_multiple_of(align)),
            "seed {seed}: unaligned"
        );
        assert_eq!(slab, HEIGHT, "seed {seed}: {n} buffers in {strips} strips");
    }
}

//! The settling stopped short: the buffers it did not reach keep their
//! places in the stack, and the plan still keeps every pair that meets
//! apart. The chains of clocks that share nothing.

use super::*;

/// Three workers' buffers, none ordered by a message: every two of
/// different workers meet; one worker's in turn.
fn workers() -> ClockProblem {
    let mut buffers = Vec::new();
    for w in 0..3 {
        for k in 0..6u64 {
            let clock = |t: u64| (0..3).map(|c| if c == w { t } else { 0 }).collect();
            buffers.push(Buffer {
                id: format!("{w}.{k}"),
                lower: clock(k),
                upper: clock(k + 1 + k % 2),
                size: 10 + 7 * (k as usize % 3),
                line: 0,
            });
        }
    }
    ClockProblem { buffers }
}

fn sound(p: &ClockProblem, offsets: &[usize]) {
    for a in 0..offsets.len() {
        for b in 0..a {
            let (x, y) = (&p.buffers[a], &p.buffers[b]);
            if p.meet(a, b) {
                assert!(
                    offsets[a] + x.size <= offsets[b] || offsets[b] + y.size <= offsets[a],
                    "{} and {} share bytes",
                    x.id,
                    y.id
                );
            }
        }
    }
}

#[test]
fn a_settling_cut_short_at_every_step_keeps_the_plan_sound() {
    let p = workers();
    let n = p.buffers.len();
    // The stack: one buffer above the other.
    let mut stack = vec![0; n];
    for b in 1..n {
        stack[b] = stack[b - 1] + p.buffers[b - 1].size;
    }
    let top = |o: &[usize]| (0..n).map(|b| o[b] + p.buffers[b].size).max().unwrap();
    let mut last = top(&stack);
    for most in 0..200 {
        let mut offsets = stack.clone();
        p.settle(&mut offsets, 1, most);
        sound(&p, &offsets);
        for b in 0..n {
            assert!(offsets[b] <= stack[b], "buffer {b} rose");
        }
        // More steps never leave the plan higher.
        assert!(top(&offsets) <= last, "{most} steps");
        last = top(&offsets);
    }
    // All the way: each worker's buffers over one another as their times
    // allow, the three workers side by side.
    assert!(last < top(&stack));
}

/// Clocks drawn at random, two components (no clock shared, so no worker
/// to find, and about half the pairs ordered): the buffers fall into a few
/// chains of ordered events, where before each buffer but a few was a chain
/// of its own and the stack of them as high as all their bytes.
#[test]
fn clocks_drawn_at_random_fall_into_few_chains() {
    let n = 4_000;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut draw = |most: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % most
    };
    let buffers = (0..n)
        .map(|k| {
            let lower: Vec<u64> = (0..2).map(|_| draw(1_000_000)).collect();
            let upper = lower.iter().map(|&t| t + 1 + draw(50_000)).collect();
            Buffer {
                id: k.to_string(),
                lower,
                upper,
                size: 1 + draw(100_000) as usize,
                line: 0,
            }
        })
        .collect();
    let p = ClockProblem::new(buffers).unwrap();
    let chains = p.chains();
    let mut seen = vec![false; n];
    for chain in &chains {
        let mut events: Vec<&[u64]> = chain
            .iter()
            .flat_map(|&b| [&p.buffers[b].lower[..], &p.buffers[b].upper[..]])
            .collect();
        events.sort_by_key(|&c| sum(c));
        for pair in events.windows(2) {
            assert!(before(pair[0], pair[1]), "{pair:?} not ordered");
        }
        for &b in chain {
            assert!(!seen[b], "buffer {b} in two chains");
            seen[b] = true;
        }
    }
    assert!(seen.iter().all(|&s| s), "a buffer in no chain");
    assert!(
        chains.len() * 4 < n,
        "{} chains of {n} buffers",
        chains.len()
    );
}

//! The settling stopped short: the buffers it did not reach keep their
//! places in the stack, and the plan still keeps every pair that meets
//! apart.

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

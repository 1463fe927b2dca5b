//! The planner in a loop, outside criterion (`benches/plan.rs` of this package has the same
//! arenas):
//!
//! - `plan-loop <buffers> <calls>` plans the arena of `buffers` buffers
//!   `calls` times, for instruction counts under callgrind: deterministic
//!   where wall-clock times on a shared machine are not.
//! - `plan-loop time <buffers> [rounds]` times rounds of 100,000 plans and
//!   prints the fastest round (the least disturbed by other work).
//!
//! BENCHMARKS.md has the commands and figures.

use std::hint::black_box;
use std::time::Instant;

use arena_runtime::__private::{Placed, plan};

use arena_testkit::items;

fn usage() -> ! {
    eprintln!("usage: plan-loop <buffers> <calls> | plan-loop time <buffers> [rounds]");
    std::process::exit(2);
}

fn number(arg: Option<&String>) -> usize {
    arg.and_then(|a| a.parse().ok()).unwrap_or_else(|| usage())
}

/// Plans the arena of `n` buffers `calls` times.
fn run(n: usize, calls: usize) {
    let items = items::items(n);
    let (mut off, mut order, mut placed) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
    for _ in 0..calls {
        let slab = plan(black_box(&items), 0, &mut off, &mut order, &mut placed);
        black_box(slab.expect("the benchmark arena fits"));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("time") {
        let n = number(args.get(1));
        let rounds = args.get(2).map_or(20, |_| number(args.get(2)));
        const CALLS: usize = 100_000;
        let best = (0..rounds)
            .map(|_| {
                let t = Instant::now();
                run(n, CALLS);
                t.elapsed().as_secs_f64() / CALLS as f64
            })
            .fold(f64::INFINITY, f64::min);
        println!(
            "{n} buffers: {:.3} µs per plan (fastest of {rounds} rounds of {CALLS})",
            best * 1e6
        );
        return;
    }
    run(number(args.first()), number(args.get(1)));
}

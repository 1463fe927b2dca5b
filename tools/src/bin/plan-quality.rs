//! How close the planner comes to the lower bound (the busiest phase's
//! bytes) on random realistic phased arenas, and on random arbitrary ones.
//! `cargo run --release -p arena-tools --bin plan-quality [arenas]`;
//! the ratios are deterministic (a fixed-seed generator), the times of each
//! plan indicative; BENCHMARKS.md has the figures.

use arena_runtime::__private::{Placed, plan};
use arena_runtime::plan::{Item, lower_bound};

use arena_testkit::rng::Rng;

/// A scratch buffer of a forward pass: 256 B to 256 MiB, log-uniform, a
/// multiple of 256; live in one phase (60 %), a few (25 %) or all (15 %).
fn realistic(rng: &mut Rng, phases: usize) -> Item {
    let bytes = (1u64 << (8 + rng.below(21))) + rng.below(1 << 20) * 256;
    let first = rng.below(phases as u64) as usize;
    let (first, last) = match rng.below(100) {
        0..60 => (first, first),
        60..85 => (first, (first + 1 + rng.below(2) as usize).min(phases - 1)),
        _ => (0, phases - 1),
    };
    Item {
        bytes: bytes as usize,
        align: 256,
        first,
        last,
    }
}

/// Anything: sizes 0 to 1 MiB, alignments 1 to 4096, any range.
fn arbitrary(rng: &mut Rng, phases: usize) -> Item {
    let (p, q) = (
        rng.below(phases as u64) as usize,
        rng.below(phases as u64) as usize,
    );
    Item {
        bytes: rng.below(1 << 20) as usize,
        align: 1 << rng.below(13),
        first: p.min(q),
        last: p.max(q),
    }
}

/// The ratios planned / lower bound, sorted; the worst case; the time of
/// each plan in µs, sorted.
fn ratios(
    arenas: usize,
    seed: u64,
    make: fn(&mut Rng, usize) -> Item,
) -> (Vec<f64>, String, Vec<f64>) {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(arenas);
    let mut times = Vec::with_capacity(arenas);
    let mut worst = (0.0, String::new());
    for _ in 0..arenas {
        let phases = 2 + rng.below(7) as usize;
        let n = 1 + rng.below(64) as usize;
        let items: Vec<Item> = (0..n).map(|_| make(&mut rng, phases)).collect();
        let (mut off, mut order, mut conf) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
        let t = std::time::Instant::now();
        let planned = plan(&items, 0, &mut off, &mut order, &mut conf).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e6);
        let lower = lower_bound(&items, phases, 1).unwrap();
        let r = if lower == 0 {
            1.0
        } else {
            planned as f64 / lower as f64
        };
        if r > worst.0 {
            worst = (
                r,
                format!(
                    "{n} buffers over {phases} phases, planned {planned} B, lower bound {lower} B"
                ),
            );
        }
        out.push(r);
    }
    out.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    (out, worst.1, times)
}

fn main() {
    let arenas = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    for (name, make) in [
        ("realistic", realistic as fn(&mut Rng, usize) -> Item),
        ("arbitrary", arbitrary),
    ] {
        let (r, worst, t) = ratios(arenas, 42, make);
        let q = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p) as usize];
        println!(
            "{name:<10} {arenas} arenas, planned / lower bound: median {:.4}, p90 {:.4}, p99 {:.4}, worst {:.4} ({worst})",
            q(&r, 0.5),
            q(&r, 0.9),
            q(&r, 0.99),
            r[r.len() - 1]
        );
        println!(
            "{:<10} time per plan: median {:.2} µs, p99 {:.2} µs, max {:.2} µs (one run each, not a benchmark)",
            "",
            q(&t, 0.5),
            q(&t, 0.99),
            t[t.len() - 1]
        );
    }
}

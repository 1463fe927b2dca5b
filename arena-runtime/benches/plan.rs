//! The planner's time for 8, 46 and 256 buffers over 6 phases (BENCHMARKS.md).
//! Run: `cargo bench -p arena-runtime --bench plan`.

use std::hint::black_box;
use std::time::Duration;

use arena_runtime::plan::{Item, plan};
use criterion::{Criterion, criterion_group, criterion_main};

/// Realistic buffers from a fixed seed: 256 B to 256 MiB, one to three
/// phases or all six.
fn items(n: usize) -> Vec<Item> {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let bytes = (1usize << (8 + next() % 21)) + (next() % 4096) as usize * 256;
            let first = (next() % 6) as usize;
            let (first, last) = match next() % 10 {
                0..6 => (first, first),
                6..9 => (first, (first + 2).min(5)),
                _ => (0, 5),
            };
            Item {
                name: "b",
                bytes,
                align: 256,
                first,
                last,
            }
        })
        .collect()
}

fn planner(c: &mut Criterion) {
    let mut g = c.benchmark_group("plan");
    for n in [8, 46, 256] {
        let items = items(n);
        let (mut off, mut order, mut conf) = (vec![0; n], vec![0; n], vec![0; n]);
        g.bench_function(format!("{n}_buffers"), |b| {
            b.iter(|| plan("A", black_box(&items), 0, &mut off, &mut order, &mut conf))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = planner
}
criterion_main!(benches);

//! The planner's time for 8, 46 and 256 buffers over 6 phases (BENCHMARKS.md).
//! Run: `cargo bench -p arena-tools --bench plan`.

use std::hint::black_box;
use std::time::Duration;

use arena_runtime::__private::{Placed, plan};
use criterion::{Criterion, criterion_group, criterion_main};

use arena_testkit::items::items;

fn planner(c: &mut Criterion) {
    let mut g = c.benchmark_group("plan");
    for n in [8, 46, 256] {
        let items = items(n);
        let (mut off, mut order, mut conf) = (vec![0; n], vec![0; n], vec![Placed::EMPTY; n]);
        g.bench_function(format!("{n}_buffers"), |b| {
            b.iter(|| plan(black_box(&items), 0, &mut off, &mut order, &mut conf))
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

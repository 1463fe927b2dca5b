//! Taking the views of an arena with phases: a slab's views use the offsets
//! it planned when it was allocated; a bare `carve_step` of the same bytes
//! plans them again (what every `views()` did before); the unplanned slab
//! lays the buffers one after the other. Each takes the views and one phase.
//!
//! `cargo bench --bench phase_views`

#[path = "../examples/tiny/mod.rs"]
mod tiny;

use std::hint::black_box;
use std::time::Duration;

use arena::{Arena, Carving, Host, HostSlab, Levers};
use criterion::{Criterion, criterion_group, criterion_main};
use tiny::{Forward, Tiny};

fn phase_views(c: &mut Criterion) {
    let arena = Forward::try_from_config_with(&Levers::new(), &Tiny::SMALL, 16).unwrap();
    let step = Forward::try_from_config_with(&Levers::new(), &Tiny::SMALL, 5).unwrap();
    let mut slab = HostSlab::new(arena.clone()).unwrap();
    let mut unplanned = HostSlab::unplanned(arena.clone()).unwrap();
    let mut bytes = HostSlab::new(arena.clone()).unwrap();
    let mut g = c.benchmark_group("phase_views_11_buffers");
    g.bench_function("slab_views", |b| {
        b.iter(|| black_box(slab.views().attn().qkv.len()))
    });
    g.bench_function("slab_views_for_step", |b| {
        b.iter(|| black_box(slab.views_for(black_box(&step)).unwrap().attn().qkv.len()))
    });
    g.bench_function("bare_carve_planning_each_time", |b| {
        b.iter(|| {
            let region = bytes.as_bytes_mut();
            let mut v = black_box(&arena)
                .carve_step::<Host>(&arena, region, Carving::default())
                .unwrap();
            black_box(v.attn().qkv.len())
        })
    });
    g.bench_function("unplanned_slab_views", |b| {
        b.iter(|| black_box(unplanned.views().attn().qkv.len()))
    });
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
    targets = phase_views
}
criterion_main!(benches);

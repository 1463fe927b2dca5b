//! What the generated code costs at run time, against hand-written twins.
//! Run: `cargo bench -p layouts --bench arena`; BENCHMARKS.md has the figures.

use std::hint::black_box;
use std::time::Duration;

use arena::{Arena, HostSlab, Levers};
use criterion::{Criterion, criterion_group, criterion_main};
use layouts::{BufferSizes, ModelConfig, Target};

use arena_testkit::fixtures::deepseek_v4;
use arena_testkit::handwritten::{self, HandLevers};

const M: usize = 8192;
const S: usize = 32_768;
const B: usize = 16;
const N: usize = 64;

/// A hand-written twin (`arena_testkit::handwritten`): the closed
/// forms or every sub-layout part, checked or plain.
type TwinFn<R> = fn(&ModelConfig, usize, usize, usize, usize, &Target, HandLevers) -> R;

/// One call of a twin, every argument through `black_box`.
#[inline(always)]
fn call_twin<R>(f: TwinFn<R>, config: &ModelConfig, t: &Target) -> R {
    f(
        black_box(config),
        black_box(M),
        black_box(S),
        black_box(B),
        black_box(N),
        black_box(t),
        black_box(HandLevers::default()),
    )
}

fn from_config(c: &mut Criterion) {
    for (name, config) in [
        ("qwen3_next", ModelConfig::qwen3_next_80b_nvfp4()),
        ("deepseek_v4", deepseek_v4()),
    ] {
        let mut g = c.benchmark_group(format!("from_config/{name}"));
        let levers = Levers::new();
        let t = Target::DEFAULT;
        g.bench_function("generated", |b| {
            b.iter(|| {
                BufferSizes::try_from_config_with(
                    black_box(&levers),
                    black_box(&config),
                    black_box(M),
                    black_box(S),
                    black_box(B),
                    black_box(N),
                    black_box(&t),
                )
            })
        });
        g.bench_function("handwritten_checked", |b| {
            b.iter(|| call_twin(handwritten::sizes_checked, &config, &t))
        });
        g.bench_function("handwritten_checked_full", |b| {
            b.iter(|| call_twin(handwritten::sizes_checked_full, &config, &t))
        });
        g.bench_function("handwritten_unchecked", |b| {
            b.iter(|| call_twin(handwritten::sizes, &config, &t))
        });
        g.bench_function("handwritten_unchecked_full", |b| {
            b.iter(|| call_twin(handwritten::sizes_unchecked_full, &config, &t))
        });
        g.finish();
    }
}

/// Where the generated constructor's time goes: each nested arena on its own.
fn sub_layouts(c: &mut Criterion) {
    use layouts::sublayouts::{GdnFlaScratch, HcLowrankLayouts, MoeFp8Scratch, ScratchLayouts};
    let config = ModelConfig::qwen3_next_80b_nvfp4();
    let levers = Levers::new();
    let mut g = c.benchmark_group("sub_layouts/qwen3_next");
    g.bench_function("scratch", |b| {
        b.iter(|| {
            ScratchLayouts::try_from_config_with(
                black_box(&levers),
                black_box(&config),
                black_box(M),
                black_box(S / B + 1),
                black_box(N),
            )
        })
    });
    g.bench_function("gdn_fla_scratch", |b| {
        b.iter(|| {
            GdnFlaScratch::try_from_config_with(
                black_box(&levers),
                black_box(&config),
                black_box(M),
            )
        })
    });
    g.bench_function("moe_fp8_scratch", |b| {
        b.iter(|| {
            MoeFp8Scratch::try_from_config_with(
                black_box(&levers),
                black_box(&config),
                black_box(M),
            )
        })
    });
    g.bench_function("hc_lowrank_scratch", |b| {
        b.iter(|| {
            HcLowrankLayouts::try_from_config_with(
                black_box(&levers),
                black_box(&config),
                black_box(M),
                black_box(false),
            )
        })
    });
    g.finish();
}

fn layout_and_carving(c: &mut Criterion) {
    let sizes = BufferSizes::try_from_config_with(
        &Levers::new(),
        &ModelConfig::qwen3_next_80b_nvfp4(),
        M,
        S,
        B,
        N,
        &Target::DEFAULT,
    )
    .unwrap();
    let mut g = c.benchmark_group("slab/qwen3_next");
    g.bench_function("slab_bytes", |b| b.iter(|| black_box(&sizes).slab_bytes()));
    g.bench_function("layout", |b| b.iter(|| black_box(&sizes).layout()));
    let mut slab = HostSlab::new(sizes).unwrap();
    g.bench_function("carve_all_views", |b| {
        b.iter(|| {
            let v = slab.views();
            black_box(v.hidden_states.len() + v.ssm_rowwise_w_bf16.len())
        })
    });
    g.finish();
}

/// One forward step: size the arena for the step's tokens and carve its
/// views out of the slab reserved for `M`.
fn step_views(c: &mut Criterion) {
    let config = ModelConfig::qwen3_next_80b_nvfp4();
    let levers = Levers::new();
    let t = Target::DEFAULT;
    let reserved = BufferSizes::try_from_config_with(&levers, &config, M, S, B, N, &t).unwrap();
    let mut slab = HostSlab::new(reserved).unwrap();
    let mut g = c.benchmark_group("step/qwen3_next");
    g.bench_function("size_and_carve_37", |b| {
        b.iter(|| {
            let step = BufferSizes::try_from_config_with(
                black_box(&levers),
                black_box(&config),
                black_box(37),
                black_box(S),
                black_box(B),
                black_box(N),
                black_box(&t),
            )
            .unwrap();
            let v = slab.views_for(&step).unwrap();
            black_box(v.hidden_states.len() + v.ssm_rowwise_w_bf16.len())
        })
    });
    g.bench_function("size_with_shapes_37", |b| {
        b.iter(|| {
            BufferSizes::try_step_with(
                black_box(&levers),
                black_box(&config),
                black_box(37),
                black_box(S),
                black_box(B),
                black_box(N),
                black_box(&t),
            )
        })
    });
    g.finish();
}

/// The real configs of `configs/hf`, by file name.
const CONFIGS: [(&str, &str); 8] = [
    (
        "Qwen3-30B-A3B",
        include_str!("../configs/hf/Qwen__Qwen3-30B-A3B.json"),
    ),
    (
        "Qwen3-Next-80B-A3B",
        include_str!("../configs/hf/Qwen__Qwen3-Next-80B-A3B-Thinking.json"),
    ),
    (
        "DeepSeek-V3",
        include_str!("../configs/hf/deepseek-ai__DeepSeek-V3.json"),
    ),
    (
        "DeepSeek-V4-Flash",
        include_str!("../configs/hf/deepseek-ai__DeepSeek-V4-Flash.json"),
    ),
    (
        "Llama-3.1-8B",
        include_str!("../configs/hf/meta-llama__Meta-Llama-3.1-8B.json"),
    ),
    (
        "Nemotron-3-Nano-30B",
        include_str!("../configs/hf/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"),
    ),
    (
        "Nemotron-H-56B",
        include_str!("../configs/hf/nvidia__Nemotron-H-56B-Base-8K.json"),
    ),
    (
        "gpt-oss-20b",
        include_str!("../configs/hf/openai__gpt-oss-20b.json"),
    ),
];

/// `arena::fit::largest`: the largest max batch tokens over 1..=2^20 whose
/// metrale arena fits 6 GiB, on each real config; the sizings each takes,
/// and, once, the time of a scan of the whole range (the baseline).
fn fit(c: &mut Criterion) {
    let levers = Levers::new();
    let t = Target::DEFAULT;
    let budget = 6usize << 30;
    let mut g = c.benchmark_group("fit/max_batch_tokens");
    for (name, text) in CONFIGS {
        let config = ModelConfig::from_hf_config_json(text, name).unwrap();
        let size = |m| BufferSizes::try_from_config_with(&levers, &config, m, S, B, N, &t);
        let f = arena::fit::largest("max_batch_tokens", 1..=1 << 20, budget, size).unwrap();
        eprintln!(
            "fit {name}: max_batch_tokens {} in {} sizings ({:?})",
            f.value, f.sizings, f.method
        );
        g.bench_function(name, |b| {
            b.iter(|| {
                arena::fit::largest(
                    "max_batch_tokens",
                    1..=black_box(1 << 20),
                    black_box(budget),
                    size,
                )
                .unwrap()
            })
        });
        if name == "Qwen3-Next-80B-A3B" {
            let start = std::time::Instant::now();
            let best = (1..=1usize << 20)
                .filter(|&m| size(m).unwrap().slab_bytes().unwrap() <= budget)
                .max();
            assert_eq!(best, Some(f.value));
            eprintln!("scan {name}: 2^20 sizings in {:?}", start.elapsed());
        }
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
    targets = from_config, sub_layouts, layout_and_carving, step_views, fit
}
criterion_main!(benches);

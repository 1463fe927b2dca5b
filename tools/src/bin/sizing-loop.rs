//! The generated sizing against its hand-written twins, outside criterion:
//!
//! - `sizing-loop <variant> <config> <calls>` calls one function in a loop, for
//!   instruction counts under callgrind (`scripts/instructions.sh`):
//!   deterministic where wall-clock times on a shared machine are not.
//! - `sizing-loop time <config> [rounds]` times every variant in interleaved
//!   rounds of 100,000 calls and prints the fastest round of each (the least
//!   disturbed by other work on the machine) and the ratios of those.
//!
//! Variants: `generated`, `checked`, `checked_full`, `unchecked`,
//! `unchecked_full`, or a
//! sub-layout alone: `scratch`, `moe_fp8`, `gdn_fla`. Configs: `qwen3_next`,
//! `deepseek_v4`. Run with `cargo run --release -p arena-tools --bin sizing-loop -- ...`.

use std::hint::black_box;
use std::time::Instant;

use arena::Levers;
use layouts::sublayouts::{GdnFlaScratch, MoeFp8Scratch, ScratchLayouts};
use layouts::{BufferSizes, ModelConfig, Target};

use arena_testkit::handwritten;

const M: usize = 8192;
const S: usize = 32_768;
const B: usize = 16;
const N: usize = 64;

const VARIANTS: [&str; 8] = [
    "generated",
    "checked",
    "checked_full",
    "unchecked",
    "unchecked_full",
    "scratch",
    "moe_fp8",
    "gdn_fla",
];

fn usage() -> ! {
    eprintln!(
        "usage: sizing-loop <{}|carve|step|views_static|views_dyn> <qwen3_next|deepseek_v4> <calls>\n       sizing-loop time <qwen3_next|deepseek_v4> [rounds]",
        VARIANTS.join("|")
    );
    std::process::exit(2);
}

fn config(name: &str) -> ModelConfig {
    match name {
        "qwen3_next" => ModelConfig::qwen3_next_80b_nvfp4(),
        "deepseek_v4" => arena_testkit::fixtures::deepseek_v4(),
        other => {
            eprintln!("unknown config {other:?}");
            usage()
        }
    }
}

/// Calls `variant` `calls` times; every argument and result through `black_box`.
fn run(variant: &str, config: &ModelConfig, calls: usize) {
    let levers = Levers::new();
    let t = Target::DEFAULT;
    let hand = handwritten::HandLevers::default();
    macro_rules! repeat {
        ($call:expr) => {
            for _ in 0..calls {
                assert!(black_box($call).is_ok_or_some());
            }
        };
    }
    // A hand-written twin, with the arguments of every twin.
    macro_rules! twin {
        ($f:path) => {
            repeat!($f(
                black_box(config),
                black_box(M),
                black_box(S),
                black_box(B),
                black_box(N),
                black_box(&t),
                black_box(hand),
            ))
        };
    }
    match variant {
        "generated" => repeat!(BufferSizes::try_from_config_with(
            black_box(&levers),
            black_box(config),
            black_box(M),
            black_box(S),
            black_box(B),
            black_box(N),
            black_box(&t),
        )),
        "checked" => twin!(handwritten::sizes_checked),
        "checked_full" => twin!(handwritten::sizes_checked_full),
        "unchecked" => twin!(handwritten::sizes),
        "unchecked_full" => twin!(handwritten::sizes_unchecked_full),
        "scratch" => repeat!(ScratchLayouts::try_from_config_with(
            black_box(&levers),
            black_box(config),
            black_box(M),
            black_box(S / B + 1),
            black_box(N.max(32)),
        )),
        "moe_fp8" => repeat!(MoeFp8Scratch::try_from_config_with(
            black_box(&levers),
            black_box(config),
            black_box(M),
        )),
        "gdn_fla" => repeat!(GdnFlaScratch::try_from_config_with(
            black_box(&levers),
            black_box(config),
            black_box(M),
        )),
        "carve" => {
            let sizes = BufferSizes::try_from_config_with(&levers, config, M, S, B, N, &t).unwrap();
            let mut slab = arena::HostSlab::new(sizes).unwrap();
            for _ in 0..calls {
                let v = slab.views();
                black_box(v.hidden_states.len() + v.ssm_rowwise_w_bf16.len());
            }
        }
        "step" => {
            let sizes = BufferSizes::try_from_config_with(&levers, config, M, S, B, N, &t).unwrap();
            let mut slab = arena::HostSlab::new(sizes).unwrap();
            for _ in 0..calls {
                let step = BufferSizes::try_from_config_with(
                    black_box(&levers),
                    black_box(config),
                    black_box(37),
                    black_box(S),
                    black_box(B),
                    black_box(N),
                    black_box(&t),
                )
                .unwrap();
                let v = slab.views_for(&step).unwrap();
                black_box(v.hidden_states.len() + v.ssm_rowwise_w_bf16.len());
            }
        }
        // Eight bf16 buffers carved and each view typed: the dtype fixed at
        // compile time, or chosen at run time (`DynView::typed`).
        "views_static" => {
            let sizes = EightBf16::try_from_config_with(&levers, 4096).unwrap();
            let mut slab = arena::HostSlab::new(sizes).unwrap();
            for _ in 0..calls {
                let v = slab.views();
                let n = |x: &mut [arena::bf16]| black_box(x).len();
                black_box(n(v.a) + n(v.b) + n(v.c) + n(v.d) + n(v.e) + n(v.f) + n(v.g) + n(v.h));
            }
        }
        "views_dyn" => {
            let sizes = EightDyn::try_from_config_with(&levers, 4096, arena::DType::BF16).unwrap();
            let mut slab = arena::HostSlab::new(sizes).unwrap();
            for _ in 0..calls {
                let v = slab.views();
                let n = |x: arena::DynView<'_>| black_box(x.typed::<arena::bf16>().unwrap()).len();
                black_box(n(v.a) + n(v.b) + n(v.c) + n(v.d) + n(v.e) + n(v.f) + n(v.g) + n(v.h));
            }
        }
        "views_dyn_untyped" => {
            let sizes = EightDyn::try_from_config_with(&levers, 4096, arena::DType::BF16).unwrap();
            let mut slab = arena::HostSlab::new(sizes).unwrap();
            for _ in 0..calls {
                let v = slab.views();
                let n = |x: arena::DynView<'_>| black_box(x.into_bytes()).len();
                black_box(n(v.a) + n(v.b) + n(v.c) + n(v.d) + n(v.e) + n(v.f) + n(v.g) + n(v.h));
            }
        }
        other => {
            eprintln!("unknown variant {other:?}");
            usage()
        }
    }
}

/// Eight bf16 buffers, for `views_static`.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize))]
pub struct EightBf16 {
    #[arena(shape = [m], dtype = bf16)]
    pub a: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub b: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub c: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub d: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub e: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub f: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub g: usize,
    #[arena(shape = [m], dtype = bf16)]
    pub h: usize,
}

/// The same eight buffers in a dtype chosen at run time, for `views_dyn`.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize, act: arena::DType))]
pub struct EightDyn {
    #[arena(shape = [m], dtype = act)]
    pub a: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub b: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub c: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub d: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub e: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub f: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub g: arena::DynBytes,
    #[arena(shape = [m], dtype = act)]
    pub h: arena::DynBytes,
}

/// `Result` and `Option` alike: did the sizing succeed.
trait Succeeded {
    fn is_ok_or_some(&self) -> bool;
}

impl<T, E> Succeeded for Result<T, E> {
    fn is_ok_or_some(&self) -> bool {
        self.is_ok()
    }
}

impl<T> Succeeded for Option<T> {
    fn is_ok_or_some(&self) -> bool {
        self.is_some()
    }
}

/// The unchecked closed forms return the sizes themselves.
impl Succeeded for [usize; 47] {
    fn is_ok_or_some(&self) -> bool {
        true
    }
}

fn time(config: &ModelConfig, rounds: usize) {
    const CALLS: usize = 100_000;
    let timed = &VARIANTS;
    let mut best = [f64::INFINITY; VARIANTS.len()];
    for _ in 0..rounds {
        for (i, v) in timed.iter().enumerate() {
            let start = Instant::now();
            run(v, config, CALLS);
            let ns = start.elapsed().as_secs_f64() * 1e9 / CALLS as f64;
            best[i] = best[i].min(ns);
        }
    }
    println!("fastest of {rounds} interleaved rounds of {CALLS} calls, ns per call");
    for (v, ns) in timed.iter().zip(best) {
        println!("{v:<14} {ns:8.1}");
    }
    for (i, v) in timed.iter().enumerate().take(5).skip(1) {
        println!("generated / {v:<14} {:.2}", best[0] / best[i]);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [mode, name, rest @ ..] if mode == "time" && rest.len() <= 1 => {
            let rounds = match rest.first().map(|r| r.parse::<usize>()) {
                None => 30,
                Some(Ok(r)) if r > 0 => r,
                Some(_) => usage(),
            };
            time(&config(name), rounds);
        }
        [variant, name, calls] => {
            let Ok(calls) = calls.parse::<usize>() else {
                usage()
            };
            run(variant, &config(name), calls);
        }
        _ => usage(),
    }
}

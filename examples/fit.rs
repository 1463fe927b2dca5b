//! What fits on one GPU, from the config alone, before loading anything:
//! Llama 3.1 8B's weights sized from its config.json's shapes and dtype, a
//! paged KV cache declared as an arena of its own, and the forward pass's
//! scratch arena; then, on an 80 GiB GPU, the largest max batch tokens at a
//! given context and batch, and the KV blocks left at given limits.
//!
//! Run it with `cargo run --example fit` (Llama 3.1 8B's config.json,
//! embedded) or `cargo run --example fit -- path/to/config.json`.

use std::error::Error;

use arena::fit::{self, Options};
use arena::{Arena, DType, DynBytes, Levers, Region};

/// The published config.json of meta-llama/Meta-Llama-3.1-8B, byte for byte.
const LLAMA_3_1_8B: &str = include_str!("configs/meta-llama__Meta-Llama-3.1-8B.json");

/// The GPU: 80 GiB, less what the runtime keeps for itself (the CUDA
/// context, the kernels' workspaces, the allocator's slack).
const GPU_BYTES: usize = 80 << 30;
const RUNTIME_RESERVE: usize = 2 << 30;

/// What the sizing reads from config.json.
#[derive(Debug)]
pub struct Config {
    pub layers: usize,
    pub hidden: usize,
    pub intermediate: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
    pub vocab: usize,
    pub tied: bool,
    /// `torch_dtype`: the weights' dtype and the activations'.
    pub dtype: DType,
}

impl Config {
    /// Reads the fields the arenas need; an error names the key.
    pub fn from_json(text: &str) -> Result<Self, Box<dyn Error>> {
        let v: serde_json::Value =
            serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(text))?;
        let size = |key: &str| -> Result<usize, Box<dyn Error>> {
            v[key]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("config.json: `{key}` is not a whole number").into())
        };
        let (hidden, heads) = (size("hidden_size")?, size("num_attention_heads")?);
        if heads == 0 {
            return Err("config.json: `num_attention_heads` is 0".into());
        }
        let dtype = v["torch_dtype"]
            .as_str()
            .ok_or("config.json: no `torch_dtype`")?
            .parse::<DType>()
            .map_err(|e| format!("config.json: `torch_dtype`: {e}"))?;
        Ok(Config {
            layers: size("num_hidden_layers")?,
            hidden,
            intermediate: size("intermediate_size")?,
            heads,
            kv_heads: size("num_key_value_heads")?,
            head_dim: v["head_dim"]
                .as_u64()
                .map_or(hidden / heads, |d| d as usize),
            vocab: size("vocab_size")?,
            tied: v["tie_word_embeddings"].as_bool().unwrap_or(false),
            dtype,
        })
    }
}

/// The weights, from the config's shapes, in its dtype.
#[derive(Arena, Debug)]
#[arena(params(cfg: &Config))]
#[arena(let L = cfg.layers, let h = cfg.hidden, let kv = cfg.kv_heads * cfg.head_dim)]
pub struct Weights {
    #[arena(shape = [cfg.vocab, h], dtype = cfg.dtype)]
    pub embed: DynBytes,
    /// Q, K, V and O of every layer.
    #[arena(shape = [L, h, cfg.heads * cfg.head_dim + 2 * kv], dtype = cfg.dtype)]
    pub qkv: DynBytes,
    #[arena(shape = [L, cfg.heads * cfg.head_dim, h], dtype = cfg.dtype)]
    pub o: DynBytes,
    /// Gate, up and down projections of every layer.
    #[arena(shape = [L, 3 * cfg.intermediate, h], dtype = cfg.dtype)]
    pub mlp: DynBytes,
    /// Two RMSNorm weights a layer, and the final one.
    #[arena(shape = [2 * L + 1, h], dtype = cfg.dtype)]
    pub norms: DynBytes,
    #[arena(shape = [cfg.vocab, h], dtype = cfg.dtype, unless = cfg.tied)]
    pub lm_head: DynBytes,
}

/// A paged KV cache: `blocks` blocks of `block_size` tokens, K and V of
/// every layer, in the KV dtype.
#[derive(Arena, Debug)]
#[arena(params(cfg: &Config, blocks: usize as nb, block_size: usize as bs, kv_dtype: DType))]
pub struct KvCache {
    #[arena(shape = [cfg.layers, 2, nb, bs, cfg.kv_heads, cfg.head_dim], dtype = kv_dtype)]
    pub kv: DynBytes,
}

/// The scratch of one forward pass: up to `M` tokens, `N` sequences of up
/// to `S` tokens each.
#[derive(Arena, Debug)]
#[arena(params(cfg: &Config, max_batch_tokens: usize as M, max_seqs: usize as N, max_seq_len: usize as S, block_size: usize as bs))]
#[arena(let h = cfg.hidden, let q = cfg.heads * cfg.head_dim, let kv = cfg.kv_heads * cfg.head_dim)]
pub struct Scratch {
    #[arena(shape = [M, h], dtype = cfg.dtype)]
    pub hidden: DynBytes,
    #[arena(shape = [M, h], dtype = cfg.dtype)]
    pub residual: DynBytes,
    #[arena(shape = [M, q + 2 * kv], dtype = cfg.dtype)]
    pub qkv: DynBytes,
    #[arena(shape = [M, q], dtype = cfg.dtype)]
    pub attn_out: DynBytes,
    #[arena(shape = [M, 2 * cfg.intermediate], dtype = cfg.dtype)]
    pub gate_up: DynBytes,
    /// Split-K decode partials: one split per 4,096 tokens of context, each
    /// with its output row and its max and sum.
    #[arena(shape = [N, cfg.heads, div_ceil(S, 4096), cfg.head_dim + 2], dtype = f32)]
    pub attn_partials: usize,
    /// Each sequence's block table.
    #[arena(shape = [N, div_ceil(S, bs)], dtype = i32)]
    pub block_tables: usize,
    /// The last token's logits of every sequence.
    #[arena(shape = [min(M, N), cfg.vocab], dtype = f32)]
    pub logits: usize,
}

/// What one GPU holds besides the weights: the KV cache for `N` sequences
/// of up to `S` tokens and the scratch, each a nested arena.
#[derive(Arena, Debug)]
#[arena(params(cfg: &Config, max_batch_tokens: usize as M, max_seqs: usize as N, max_seq_len: usize as S, block_size: usize as bs, kv_dtype: DType))]
pub struct Serving {
    #[arena(nested(cfg, N * div_ceil(S, bs), bs, kv_dtype))]
    pub kv: Region<KvCache>,
    #[arena(nested(cfg, M, N, S, bs))]
    pub scratch: Region<Scratch>,
}

fn gib(bytes: usize) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let text = match std::env::args().nth(1) {
        Some(path) => {
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
        None => LLAMA_3_1_8B.to_owned(),
    };
    let cfg = Config::from_json(&text)?;
    let levers = Levers::new();
    let weights = Weights::try_from_config_with(&levers, &cfg)?.slab_bytes()?;
    println!(
        "weights   {} ({} parameters in {})",
        gib(weights),
        weights / cfg.dtype.bytes(),
        cfg.dtype
    );
    let free = GPU_BYTES
        .checked_sub(RUNTIME_RESERVE + weights)
        .ok_or("the weights alone do not fit")?;
    println!(
        "GPU       {} less {} for the runtime and the weights: {} for the KV cache and the scratch",
        gib(GPU_BYTES),
        gib(RUNTIME_RESERVE),
        gib(free)
    );
    assert_eq!(
        Serving::growth("max_seqs"),
        arena::fit::Growth::Grows,
        "the derive reads that both nested arenas grow with the sequences"
    );
    let bs = 16;
    let serving = |m: usize, n: usize, s: usize, kv: DType| {
        Serving::try_from_config_with(&levers, &cfg, m, n, s, bs, kv)
    };

    // 1. The largest max batch tokens at a context and a batch: the KV
    //    cache of every sequence at its longest, and the scratch.
    println!(
        "\nlargest max_batch_tokens at a context and batch (KV cache in bf16, blocks of {bs} tokens):"
    );
    for (n, s) in [
        (32, 8_192),
        (48, 8_192),
        (60, 8_192),
        (4, 65_536),
        (64, 8_192),
    ] {
        match fit::largest("max_batch_tokens", 1..=1 << 20, free, |m| {
            serving(m, n, s, DType::BF16)
        }) {
            Ok(f) => println!(
                "  {n:>4} sequences of {s:>6} tokens: max_batch_tokens {:>6} ({} in all; {} sizings)",
                f.value,
                gib(f.bytes),
                f.sizings
            ),
            Err(e) => println!("  {n:>4} sequences of {s:>6} tokens: {e}"),
        }
    }

    // 2. The KV blocks left at given limits: the scratch sized first, then
    //    the most blocks whose cache fits the rest (vLLM's question).
    println!("\nKV blocks left at given limits:");
    for (m, n, s, dtype) in [
        (8_192, 256, 8_192, DType::BF16),
        (8_192, 256, 8_192, DType::F8E4M3),
        (16_384, 64, 131_072, DType::BF16),
    ] {
        let scratch = serving(m, n, s, dtype)?.scratch.bytes;
        let left = free
            .checked_sub(scratch)
            .ok_or("the scratch alone does not fit")?;
        let f = fit::largest("blocks", 0..=1 << 30, left, |nb| {
            KvCache::try_from_config_with(&levers, &cfg, nb, bs, dtype)
        })?;
        let tokens = f.value * bs;
        println!(
            "  M {m}, N {n}, S {s}, KV in {dtype}: scratch {}, {} blocks ({tokens} tokens, {:.1} full sequences)",
            gib(scratch),
            f.value,
            tokens as f64 / s as f64
        );
    }

    // 3. Two limits: for each context, the most sequences whose KV cache
    //    and scratch fit together at max_batch_tokens 8,192.
    println!("\nlargest max_seqs at each max_seq_len (M 8192, KV in bf16):");
    let frontier = fit::frontier(
        "max_seq_len",
        [4_096, 16_384, 65_536, 131_072],
        "max_seqs",
        1..=1 << 16,
        free,
        &Options::new(),
        |s, n| serving(8_192, n, s, DType::BF16),
    )?;
    for p in frontier {
        match p.fit {
            Some(f) => println!(
                "  S {:>6}: {:>4} sequences ({} in all)",
                p.value,
                f.value,
                gib(f.bytes)
            ),
            None => println!("  S {:>6}: not one sequence fits", p.value),
        }
    }
    Ok(())
}

//! The sub-layouts of the metrale arena (spec §6): each its own derived arena,
//! carved by the same generated code a layer uses.

use arena::{Arena, Region};

use crate::ModelConfig;

/// `scratch`: one region reused by whichever of its layouts runs (spec §6.1).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M, blocks: usize as mb, rows: usize as R))]
#[arena(one_of)]
pub struct ScratchLayouts {
    /// Prefill: MoE top-K, then the prefill metadata.
    #[arena(nested(config, M, mb))]
    pub prefill: Region<PrefillScratch>,
    /// Batched decode / MTP verify: a fixed region, then the larger metadata block.
    #[arena(nested(mb, R))]
    pub decode: Region<DecodeScratch>,
    /// Kernel-batched prefill staging over 8 streams.
    #[arena(nested(config, M))]
    pub q12: Region<Q12Scratch>,
}

/// Prefill layout of `scratch` (spec §6.1 P).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M, blocks: usize as mb), align = 1)]
#[arena(let k = config.num_experts_per_tok, let ps = if config.mrope_interleaved { 3 } else { 1 })]
pub struct PrefillScratch {
    /// MoE top-K expert ids.
    #[arena(shape = [M, k], dtype = i32)]
    pub topk_ids: usize,
    /// MoE top-K weights.
    #[arena(shape = [M, k], dtype = f32)]
    pub topk_weights: usize,
    /// Positions, one stream per rope section (3 with interleaved M-RoPE).
    #[arena(shape = [ps, M], dtype = u32)]
    pub positions: usize,
    /// KV-cache slot per token.
    #[arena(shape = [M], dtype = i64)]
    pub slots: usize,
    /// Block table of the sequence.
    #[arena(shape = [mb], dtype = i32)]
    pub block_table: usize,
    /// Sequence length.
    #[arena(shape = [1], dtype = i32)]
    pub seq_len: usize,
}

/// Decode layout of `scratch` (spec §6.1 D).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(blocks: usize as mb, rows: usize as R), align = 1)]
pub struct DecodeScratch {
    /// Fixed decode / verify region.
    #[arena(size = 32768)]
    pub fixed: usize,
    /// The verify block or the decode-metadata block, whichever is larger.
    #[arena(nested(mb, R))]
    pub meta: Region<DecodeMetaChoice>,
}

/// The two metadata blocks after the fixed decode region.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(blocks: usize as mb, rows: usize as R), one_of)]
pub struct DecodeMetaChoice {
    /// MTP verify metadata, 160 rows (VERIFY_ROW_CAP).
    #[arena(nested(160, mb))]
    pub verify: Region<DecodeMeta>,
    /// Batched-decode metadata, `max(max_batch_size, 32)` rows.
    #[arena(nested(R, mb))]
    pub decode: Region<DecodeMeta>,
}

/// `DecodeMetaLayout` (spec §6.7): per-row metadata then the block table.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(rows: usize as R, blocks: usize as mb), align = 1)]
pub struct DecodeMeta {
    /// Position of each row's token.
    #[arena(shape = [R], dtype = u32)]
    pub positions: usize,
    /// Sequence slot of each row.
    #[arena(shape = [R], dtype = i32)]
    pub seq_slot: usize,
    /// KV-cache slot of each row's token.
    #[arena(shape = [R], dtype = i64)]
    pub slots: usize,
    /// Sequence length of each row.
    #[arena(shape = [R], dtype = i32)]
    pub seq_lens: usize,
    /// Unused, kept so the block table starts at 24·R.
    #[arena(shape = [R], dtype = u32)]
    pub unused: usize,
    /// Block table, row stride `blocks`.
    #[arena(shape = [R, mb], dtype = i32)]
    pub block_table: usize,
}

/// Streams the kernel-batched prefill staging ([`Q12Scratch`]) is sized for.
pub const Q12_SIZING_STREAMS: usize = 8;

/// Kernel-batched prefill staging (spec §6.1 Q, `q12_batched_scratch_bytes`).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M), align = 1)]
#[arena(let n = crate::sublayouts::Q12_SIZING_STREAMS, let c = max(div_ceil(M, n), 1), let T = n * c)]
#[arena(let k = config.num_experts_per_tok, let ps = if config.mrope_interleaved { 3 } else { 1 })]
pub struct Q12Scratch {
    /// MoE top-K area of the packed tokens.
    #[arena(size = round_up(8 * T * k, 64))]
    pub topk: usize,
    /// One metadata block per stream.
    #[arena(size = n * max(16 * c + 64, 4096))]
    pub stream_meta: usize,
    /// Positions of the packed tokens.
    #[arena(size = ps * round_up(4 * T, 8), dtype = u32)]
    pub positions: usize,
    /// KV-cache slots of the packed tokens.
    #[arena(size = round_up(8 * T, 8), dtype = i64)]
    pub slots: usize,
    /// Block-table and seq-len pointer arrays.
    #[arena(size = 2 * round_up(8 * n, 8), dtype = u64)]
    pub pointer_arrays: usize,
    /// Cumulative sequence lengths.
    #[arena(size = round_up(4 * (n + 1), 8), dtype = i32)]
    pub cu_seqlens: usize,
    /// KV lengths.
    #[arena(size = round_up(4 * n, 8), dtype = i32)]
    pub kv_lens: usize,
    /// Recurrent-state pointer table.
    #[arena(shape = [n], dtype = u64)]
    pub h_state_ptrs: usize,
}

/// GDN FLA chunked-prefill scratch (spec §6.2).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M), align = 1)]
#[arena(let nt = div_ceil(M, 64) + 16, let Hv = config.linear_num_value_heads)]
#[arena(let dk = config.linear_key_head_dim, let dv = config.linear_value_head_dim)]
pub struct GdnFlaScratch {
    /// W, per chunk and value head.
    #[arena(shape = [nt * Hv, 64, dk], dtype = bf16)]
    pub w: usize,
    /// U, per chunk and value head.
    #[arena(shape = [nt * Hv, 64, dv], dtype = bf16)]
    pub u: usize,
    /// Chunk states.
    #[arena(shape = [nt * Hv, dk, dv], dtype = bf16)]
    pub s: usize,
    /// Corrected U.
    #[arena(shape = [nt * Hv, 64, dv], dtype = bf16)]
    pub uc: usize,
    /// Cumulative gates.
    #[arena(shape = [nt * Hv, 64], dtype = f32)]
    pub gc: usize,
}

/// Mamba-2 SSD chunked-scan scratch (spec §6.3).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M), align = 1)]
#[arena(let nc = div_ceil(M, 64) + 1, let Hm = config.mamba_num_heads, let Gs = max(config.n_groups, 1))]
pub struct SsdScratch {
    /// Time steps.
    #[arena(shape = [Hm, nc, 64], dtype = f32)]
    pub dt: usize,
    /// Cumulative dA.
    #[arena(shape = [Hm, nc, 64], dtype = f32)]
    pub d_a_cumsum: usize,
    /// C·B per chunk and group.
    #[arena(shape = [nc, Gs, 64, 64], dtype = f32)]
    pub cb: usize,
}

/// QSA prefill-selection scratch, 2048-row slabs (spec §6.4).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_seq_len: usize as S, enabled: bool), align = 1, when = enabled)]
#[arena(let ih = config.index_n_heads, let id = config.index_head_dim)]
#[arena(let icr = config.index_compress_ratio, let itk = config.index_topk)]
pub struct QsaSelectScratch {
    /// Indexer q and k.
    #[arena(shape = [2048, (ih + 1) * id], dtype = bf16)]
    pub qk: usize,
    /// Post-processed indexer queries.
    #[arena(shape = [2048, ih, id], dtype = f32)]
    pub q_post: usize,
    /// Scores over the compressed sequence.
    #[arena(shape = [2048, div_ceil(S, icr)], dtype = f32)]
    pub scores: usize,
    /// Selected indices.
    #[arena(shape = [2048, itk / icr], dtype = i32)]
    pub lists: usize,
}

/// The low-rank hyper-connection scratch: one of two layouts (spec §6.5).
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M, enabled: bool), one_of)]
pub struct HcLowrankLayouts {
    /// Decode split layout, at most 64 tokens, FP32.
    #[arena(nested(config, if enabled { min(M, 64) } else { 0 }))]
    pub split: Region<HcSplit>,
    /// Prefill GEMM layout, slabs of at most 2048 tokens, BF16.
    #[arena(nested(config, if enabled { min(M, 2048) } else { 0 }))]
    pub gemm: Region<HcGemm>,
}

/// Decode split layout of the low-rank hyper-connection.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, tokens: usize as t), align = 1)]
#[arena(let hc = config.hc_mult, let h = config.hidden_size)]
pub struct HcSplit {
    /// Normalised streams.
    #[arena(shape = [t, hc * h], dtype = f32)]
    pub normed: usize,
    /// Low-rank projection.
    #[arena(shape = [t, config.hc_lowrank], dtype = f32)]
    pub low: usize,
}

/// Prefill GEMM layout of the low-rank hyper-connection.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, tokens: usize as ts), align = 1)]
#[arena(let hc = config.hc_mult, let h = config.hidden_size)]
pub struct HcGemm {
    /// Normalised streams.
    #[arena(shape = [ts, hc * h], dtype = bf16)]
    pub normed: usize,
    /// Up-projection input.
    #[arena(shape = [ts, hc * h], dtype = bf16)]
    pub up_pre: usize,
    /// Low-rank projection.
    #[arena(shape = [ts, config.hc_lowrank], dtype = bf16)]
    pub low: usize,
    /// Injection weights.
    #[arena(shape = [ts, hc], dtype = bf16)]
    pub inj_pre: usize,
}

/// The grouped FP8 MoE scratch slab (spec §6.6): regions 256-aligned.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(config: &ModelConfig, rows: usize), align = 256)]
#[arena(let X = rows * config.num_experts_per_tok, let Im = config.moe_intermediate_size)]
#[arena(let Ks = max(config.hidden_size, config.shared_expert_intermediate_size))]
#[arena(let items = (div_ceil(X, 128) + config.num_experts + 1) * div_ceil(max(config.hidden_size, Im), 64))]
pub struct MoeFp8Scratch {
    /// FP8 activations of the shared expert or the expanded routed rows.
    #[arena(size = max(rows * Ks, X * Im), dtype = u8)]
    pub activation: usize,
    /// One f32 scale per 128 activations.
    #[arena(size = 4 * max(rows * div_ceil(Ks, 128), X * div_ceil(Im, 128)), dtype = f32)]
    pub scales: usize,
    /// Tile worklist, 8 bytes per item.
    #[arena(shape = [items], dtype = u64)]
    pub worklist: usize,
    /// The `total_tiles` counter.
    #[arena(shape = [1], dtype = u32)]
    pub total_tiles: usize,
}

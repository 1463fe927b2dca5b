//! The metrale arena: 46 buffers, five levers, six sub-layouts and the GLM
//! trim, each formula next to its buffer (spec §4–§8).

use arena::{Arena, Region};

use crate::ModelConfig;
use crate::splitk::{SplitKPolicy, Target, splitk_slots};
pub use crate::sublayouts::Q12_SIZING_STREAMS;
use crate::sublayouts::{
    GdnFlaScratch, HcLowrankLayouts, MoeFp8Scratch, QsaSelectScratch, ScratchLayouts, SsdScratch,
};

/// Rows of the fused dense-FFN gate+up decode GEMM.
pub const GATEUP_FUSED_MAX_M: usize = 16;

/// Byte size of each buffer of the metrale arena. `M` is `max_batch_tokens`,
/// `S` `max_seq_len`, `B` `kv_block_size`, `N` `max_batch_size`.
#[derive(Arena, Debug, Clone, PartialEq, Eq)]
#[arena(params(
    config: &ModelConfig,
    max_batch_tokens: usize as M,
    max_seq_len: usize as S,
    kv_block_size: usize as B,
    max_batch_size: usize as N,
    target: &Target = &Target::DEFAULT,
))]
#[arena(
    lever(METRALE_GGUF_NATIVE_Q2),
    lever(METRALE_GGUF_NATIVE_Q2_MMQ),
    lever(METRALE_FP8_ROWWISE),
    lever(METRALE_GLM_ARENA_TRIM, default = true),
    lever(METRALE_ATTN_DECODE_SPLITK, parse = SplitKPolicy::parse_lever),
)]
#[arena(
    let h = config.hidden_size,
    let I = config.intermediate_size,
    let nq = config.num_attention_heads,
    let nkv = config.num_key_value_heads,
    let hd = config.head_dim,
    let Hv = config.linear_num_value_heads,
    let QKVZ = config.ssm_qkvz_size(),
    let Di = config.mamba2_d_inner(),
    let Dip = config.mamba2_in_proj_size(),
    let E = config.num_experts,
    let EZ = E + config.zero_expert_num,
    let k = config.num_experts_per_tok,
    let Im = config.moe_intermediate_size,
    let r_kv = config.kv_lora_rank,
    let d_rope = config.qk_rope_head_dim,
    let hc = config.hc_mult,
    let r_a = config.adapter_max_rank,
)]
#[arena(
    let moe = E > 0,
    let dense = E == 0,
    let mla = r_kv > 0,
    let g = if config.attn_gated { 2 } else { 1 },
    let qkv_dim = (g * nq + 2 * nkv) * hd,
    let m_pad = ceil16(M),
    let k_max = ceil16(max(M, 3)),
    let R = max(N, 32),
    let logits_tokens = min(M, max(160, R + 1)),
    let max_dim = max(h, Di),
    let max_proj_k = max(h, nq * hd, Di, Hv * config.linear_value_head_dim),
    let W_e = if moe { k_max * max(k * Im, I) } else { k_max * I },
    let mb = if B > 0 { S / B + 1 } else { 256 },
    let Kf = max(h, I),
    let slots = splitk_slots(METRALE_ATTN_DECODE_SPLITK, target, nq, R),
    let hc_lowrank_on = hc > 0 && config.hc_lowrank > 0,
    let qsa_on = config.index_topk > 0 && config.index_compress_ratio > 0,
    let glm_trim = (config.model_type == "glm5_next" || config.model_type == "glm5_next_text")
        && METRALE_GLM_ARENA_TRIM,
)]
pub struct BufferSizes {
    /// Hidden states.
    #[arena(shape = [M, h], dtype = bf16)]
    pub hidden_states: usize,
    /// Residual stream.
    #[arena(shape = [M, h], dtype = bf16)]
    pub residual: usize,
    /// Norm output, wide enough for the Mamba-2 inner dimension.
    #[arena(shape = [M, max_dim], dtype = bf16)]
    pub norm_output: usize,
    /// QKV projection output, cuBLASLt-padded rows.
    #[arena(shape = [m_pad, qkv_dim], dtype = bf16, trim = glm_trim)]
    pub qkv_output: usize,
    /// Attention output rows of the widest use (heads, Mamba-2, MLA latent).
    #[arena(
        size = max(2 * M * nq * hd, 2 * M * Di, if mla { 2 * M * nq * (r_kv + d_rope) } else { 0 }),
        dtype = bf16,
        trim = glm_trim
    )]
    pub attn_output: usize,
    /// Router logits [M, experts + zero experts]; 256 bytes without experts.
    #[arena(size = if moe { 2 * M * EZ } else { 256 }, dtype = bf16, trim = glm_trim)]
    pub gate_logits: usize,
    /// FP32 router logits for the FP32 gate and routing paths.
    #[arena(size = if moe { 4 * M * EZ } else { 256 }, dtype = f32, trim = glm_trim)]
    pub gate_logits_f32: usize,
    /// FP32 MoE-input norm output the router GEMM reads under FP32 routing.
    #[arena(size = if moe { 4 * M * h } else { 256 }, dtype = f32, trim = glm_trim)]
    pub moe_router_in_f32: usize,
    /// MoE output.
    #[arena(shape = [m_pad, h], dtype = bf16)]
    pub moe_output: usize,
    /// Logits of the rows that sample.
    #[arena(shape = [logits_tokens, config.vocab_size], dtype = bf16)]
    pub logits: usize,
    /// QKVZ projection, Mamba-2 in_proj, prefill K then V, shared-expert up.
    #[arena(
        size = max(2 * m_pad * QKVZ, 2 * M * Dip, 2 * (M + m_pad) * nkv * hd,
                   2 * M * config.shared_expert_intermediate_size, 256),
        dtype = bf16,
        trim = glm_trim
    )]
    pub ssm_qkvz: usize,
    /// GDN b|a, MoE latent, MLA q-rope and q-lora rows.
    #[arena(
        size = max(2 * M * config.ssm_ba_size(), 2 * M * config.moe_latent_size,
                   if mla { max(2 * M * d_rope, 2 * M * config.q_lora_rank) } else { 0 }, 256),
        dtype = bf16,
        trim = glm_trim
    )]
    pub ssm_ba: usize,
    /// De-interleaved QKVZ, Mamba-2 xBC, attention heads, MLA latent rows.
    #[arena(
        size = max(2 * m_pad * QKVZ, 2 * M * config.mamba2_d_xbc(), 2 * M * nq * hd,
                   if mla { 2 * M * nq * (r_kv + d_rope) } else { 0 }, 256),
        dtype = bf16,
        trim = glm_trim
    )]
    pub ssm_deinterleaved: usize,
    /// GDN gates then betas per token, FP32.
    #[arena(size = max(8 * M * Hv, 256), dtype = f32, trim = glm_trim)]
    pub ssm_gates: usize,
    /// FP32 conv output [M, QKVZ] (or BF16 MLA q-rope rows).
    #[arena(size = max(4 * M * QKVZ, if mla { 2 * M * nq * d_rope } else { 0 }, 256), dtype = f32, trim = glm_trim)]
    pub ssm_conv_out_f32: usize,
    /// Shared region: prefill, decode/verify or batched-prefill layout.
    #[arena(nested(config, M, mb, R), size = max(65536, inner))]
    pub scratch: Region<ScratchLayouts>,
    /// Expert gate outputs [k_max, routed or dense width].
    #[arena(shape = [k_max, if moe { max(k * Im, I) } else { I }], dtype = bf16, trim = glm_trim)]
    pub expert_gate_out: usize,
    /// Expert up outputs, the same size as the gate outputs.
    #[arena(shape = [k_max, if moe { max(k * Im, I) } else { I }], dtype = bf16, trim = glm_trim)]
    pub expert_up_out: usize,
    /// Expert down outputs.
    #[arena(size = if moe { 2 * k_max * k * config.moe_input_size() } else { 2 * k_max * h },
            dtype = bf16, trim = glm_trim)]
    pub expert_down_out: usize,
    /// Split-K decode partials: `o[hd]`, `m`, `l` per slot.
    #[arena(shape = [slots, hd + 2], dtype = f32)]
    pub splitk_workspace: usize,
    /// GDN FLA chunked-prefill scratch, W | U | S | uc | gc.
    #[arena(
        nested(config, M),
        when = Hv > 0 && config.linear_key_head_dim == 128 && config.linear_value_head_dim == 128,
        trim = glm_trim
    )]
    pub gdn_fla_scratch: Region<GdnFlaScratch>,
    /// Mamba-2 SSD chunked-scan scratch, dt | dA_cumsum | CB.
    #[arena(nested(config, M), when = config.mamba_num_heads > 0 && config.ssm_state_size > 0)]
    pub ssd_scratch: Region<SsdScratch>,
    /// Grouped O-projection latent, at least 256 bytes.
    #[arena(size = max(2 * M * config.o_groups * config.o_lora_rank, 256), dtype = bf16, not_in_total)]
    pub o_latent: usize,
    /// The zero RMSNorm weight: the kernel scales by (1 + w).
    #[arena(shape = [max_dim], dtype = bf16, zeroed, not_in_total)]
    pub norm_unit_w: usize,
    /// Hyper-connection residual streams; 256 bytes without them.
    #[arena(size = if hc > 0 { 4 * M * hc * h } else { 256 }, dtype = f32)]
    pub hc_streams: usize,
    /// Hyper-connection post weights.
    #[arena(size = if hc > 0 { max(4 * M * hc, 256) } else { 256 }, dtype = f32)]
    pub hc_post: usize,
    /// Hyper-connection comb matrices.
    #[arena(size = if hc > 0 { max(4 * M * hc * hc, 256) } else { 256 }, dtype = f32)]
    pub hc_comb: usize,
    /// Low-rank hyper-connection scratch; 256 bytes without one.
    #[arena(nested(config, M, hc_lowrank_on), size = if hc_lowrank_on { inner } else { 256 })]
    pub hc_lowrank_scratch: Region<HcLowrankLayouts>,
    /// QSA prefill-selection scratch; 256 bytes without an indexer.
    #[arena(nested(config, S, qsa_on), size = if qsa_on { inner } else { 256 })]
    pub qsa_select_scratch: Region<QsaSelectScratch>,
    /// Token ids of the pass, read by hash-routed MoE layers.
    #[arena(size = max(4 * M, 256), dtype = u32)]
    pub token_ids: usize,
    /// Dense-FFN q8_1 MMQ activations.
    #[arena(size = 4 * M * round_up(Kf, 256) + 1048576, when = dense)]
    pub ffn_act_q8: usize,
    /// Dense-FFN int8 activations (also NVFP4 / FP8 forms).
    #[arena(shape = [m_pad, Kf], dtype = i8, when = dense)]
    pub ffn_act_a: usize,
    /// Dense-FFN activation scales, one per 32.
    #[arena(shape = [m_pad, Kf / 32], dtype = f32, when = dense)]
    pub ffn_act_scale: usize,
    /// Dense-FFN FP8 scales, token index contiguous.
    #[arena(shape = [Kf / 128, m_pad], dtype = f32, when = dense)]
    pub ffn_act_scale_kmajor: usize,
    /// Fused dense-FFN gate+up decode output, a row is [gate | up].
    #[arena(shape = [ceil16(crate::sizes::GATEUP_FUSED_MAX_M), 2 * I], dtype = bf16, when = dense)]
    pub ffn_gate_up_fused: usize,
    /// FP8 activations of the prefill projections.
    #[arena(shape = [m_pad, max_proj_k], dtype = u8, trim = glm_trim)]
    pub fp8_act: usize,
    /// Grouped FP8 MoE scratch slab.
    #[arena(nested(config, M), when = moe, trim = glm_trim)]
    pub moe_fp8_scratch: Region<MoeFp8Scratch>,
    /// One f32 scale per 128 elements of `fp8_act`.
    #[arena(shape = [m_pad, div_ceil(max_proj_k, 128)], dtype = f32, trim = glm_trim)]
    pub fp8_act_scale: usize,
    /// Transpose of `fp8_act_scale`, token index contiguous.
    #[arena(shape = [div_ceil(max_proj_k, 128), m_pad], dtype = f32, trim = glm_trim)]
    pub fp8_act_scale_kmajor: usize,
    /// LoRA shrink output.
    #[arena(shape = [M, r_a], dtype = bf16, when = r_a > 0)]
    pub lora_xa: usize,
    /// LoRA expand output over the widest target.
    #[arena(shape = [M, max(h, I, g * nq * hd)], dtype = bf16, when = r_a > 0)]
    pub lora_delta: usize,
    /// LoRA hidden-activation scratch.
    #[arena(shape = [M, I], dtype = bf16, when = r_a > 0)]
    pub lora_hact: usize,
    /// LoRA adapter slot per prefill token.
    #[arena(shape = [M], dtype = i32, when = r_a > 0)]
    pub lora_seq_slot: usize,
    /// Keep-packed Q2_0 dequant scratch for the largest projection.
    #[arena(shape = [max(I, QKVZ, Dip, g * nq * hd, 2 * nkv * hd), h], dtype = bf16,
            lever = METRALE_GGUF_NATIVE_Q2)]
    pub q2_dequant_scratch: usize,
    /// Keep-packed Q2_0 MMQ q8_1 activations.
    #[arena(size = 4 * M * round_up(max(h, I, nq * hd), 256) + 1048576, lever = METRALE_GGUF_NATIVE_Q2_MMQ)]
    pub q2_act_q8: usize,
    /// Row-wise FP8 GDN prefill BF16-weight slab, per SSM layer.
    #[arena(size = config.num_ssm_layers() * (2 * QKVZ * h + 2 * h * Hv * config.linear_value_head_dim),
            dtype = bf16, lever = METRALE_FP8_ROWWISE)]
    pub ssm_rowwise_w_bf16: usize,
    /// Bytes the GLM trim removed (not a buffer).
    #[arena(value = trimmed(glm_trim))]
    pub glm_trimmed: usize,
}

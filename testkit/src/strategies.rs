//! Random realistic metrale configs and serve limits, for the property tests.

use layouts::ModelConfig;
use proptest::prelude::*;

/// A realistic config: dense or MoE, MLA, GDN, Mamba-2, hyper-connections,
/// indexer, LoRA, M-RoPE, the GLM trim.
pub fn arb_config() -> impl Strategy<Value = ModelConfig> {
    let attention = (
        1usize..=64,
        1usize..=8,
        prop_oneof![Just(64usize), Just(128), Just(256)],
        any::<bool>(),
    );
    let ffn = (
        1usize..=64,
        1000usize..=200_000,
        prop_oneof![Just(0usize), 8..=512usize],
        1usize..=16,
        1usize..=32,
    );
    let linear = (
        0usize..=64,
        prop_oneof![Just(0usize), Just(64), Just(128)],
        0usize..=64,
        0usize..=2,
    );
    let mamba = (
        0usize..=4,
        prop_oneof![Just(1usize), Just(2), Just(8)],
        prop_oneof![Just(64usize), Just(128)],
    );
    let extras = (
        0usize..=2,
        0usize..=16,
        0usize..=64,
        0usize..=4,
        any::<bool>(),
        0usize..=3,
    );
    (1usize..=64, attention, ffn, linear, mamba, extras).prop_map(
        |(
            h128,
            (nq, kv_div, hd, gated),
            (i128, vocab, experts, k, im128),
            (hk, dkv, hv, lat),
            (mh16, g, ns),
            (mla, hc, idx, icr, mrope, lora),
        )| {
            let nkv = (nq / kv_div).max(1);
            ModelConfig {
                model_type: if mla == 2 {
                    "glm5_next".into()
                } else {
                    "test".into()
                },
                hidden_size: 128 * h128,
                num_hidden_layers: 24,
                intermediate_size: 128 * i128,
                vocab_size: vocab,
                num_attention_heads: nq,
                num_key_value_heads: nkv,
                head_dim: hd,
                linear_num_key_heads: hk,
                linear_key_head_dim: dkv,
                linear_num_value_heads: hv,
                linear_value_head_dim: dkv,
                num_experts: experts,
                zero_expert_num: usize::from(experts > 0 && k % 3 == 0),
                num_experts_per_tok: k.min(experts.max(1)),
                moe_intermediate_size: 128 * im128,
                shared_expert_intermediate_size: if experts > 0 { 128 * im128 } else { 0 },
                mamba_num_heads: 16 * mh16,
                mamba_head_dim: 64,
                ssm_state_size: if mh16 > 0 { ns } else { 0 },
                n_groups: if mh16 > 0 { g } else { 0 },
                moe_latent_size: 512 * lat,
                kv_lora_rank: if mla > 0 { 512 } else { 0 },
                q_lora_rank: if mla > 0 { 1536 } else { 0 },
                qk_rope_head_dim: if mla > 0 { 64 } else { 0 },
                o_lora_rank: 256 * (idx % 3),
                o_groups: idx % 5,
                hc_mult: hc % 5,
                hc_lowrank: if hc > 8 { 16 } else { 0 },
                index_n_heads: idx,
                index_head_dim: if idx > 0 { 128 } else { 0 },
                index_topk: 64 * idx,
                index_compress_ratio: icr,
                adapter_max_rank: 16 * lora,
                attn_gated: gated,
                mrope_interleaved: mrope,
                ..ModelConfig::default()
            }
        },
    )
}

pub fn arb_limits() -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (
        1usize..=4096,
        1usize..=131_072,
        prop_oneof![Just(0usize), 1usize..=64],
        1usize..=512,
    )
}

/// Calls `$m!($args [every top-level buffer of the metrale arena])`.
#[macro_export]
macro_rules! metrale_buffers {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            hidden_states, residual, norm_output, qkv_output, attn_output, gate_logits,
            gate_logits_f32, moe_router_in_f32, moe_output, logits, ssm_qkvz, ssm_ba,
            ssm_deinterleaved, ssm_gates, ssm_conv_out_f32, expert_gate_out, expert_up_out,
            expert_down_out, splitk_workspace, o_latent, norm_unit_w, hc_streams, hc_post,
            hc_comb, token_ids, ffn_act_q8, ffn_act_a, ffn_act_scale, ffn_act_scale_kmajor,
            ffn_gate_up_fused, fp8_act, fp8_act_scale, fp8_act_scale_kmajor, lora_xa,
            lora_delta, lora_hact, lora_seq_slot, q2_dequant_scratch, q2_act_q8,
            ssm_rowwise_w_bf16,
        ])
    };
}

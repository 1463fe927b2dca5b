//! The numbers and relations of spec/fixtures.md (C.1–C.13), asserted on the
//! derived `BufferSizes`.

use arena::{Arena, HostSlab, Levers};
use layouts::sublayouts::{DecodeMeta, MoeFp8Scratch};
use layouts::{BufferSizes, ModelConfig, Target};

fn sizes_with(
    c: &ModelConfig,
    levers: &Levers,
    m: usize,
    s: usize,
    b: usize,
    n: usize,
) -> BufferSizes {
    BufferSizes::try_from_config_with(levers, c, m, s, b, n, &Target::DEFAULT).unwrap()
}

fn sizes(c: &ModelConfig, m: usize, s: usize, b: usize, n: usize) -> BufferSizes {
    sizes_with(c, &Levers::new(), m, s, b, n)
}

fn a() -> ModelConfig {
    ModelConfig::qwen3_next_80b_nvfp4()
}

fn b1() -> ModelConfig {
    ModelConfig {
        hidden_size: 5120,
        num_hidden_layers: 64,
        linear_num_key_heads: 16,
        linear_key_head_dim: 128,
        linear_num_value_heads: 48,
        linear_value_head_dim: 128,
        full_attention_interval: 4,
        layer_types: layouts::config::hybrid_layer_types(64, 4),
        ..a()
    }
}

fn b2() -> ModelConfig {
    ModelConfig {
        model_type: "glm5_next".into(),
        attn_gated: false,
        hidden_size: 4096,
        intermediate_size: 12_288,
        vocab_size: 154_880,
        num_attention_heads: 32,
        num_key_value_heads: 32,
        linear_num_key_heads: 32,
        num_experts: 288,
        num_experts_per_tok: 8,
        moe_intermediate_size: 2048,
        shared_expert_intermediate_size: 2048,
        kv_lora_rank: 512,
        q_lora_rank: 1536,
        hc_mult: 4,
        index_n_heads: 32,
        index_head_dim: 128,
        index_topk: 2048,
        ..a()
    }
}

fn twin(t: &str) -> ModelConfig {
    ModelConfig {
        model_type: t.into(),
        ..b2()
    }
}

const TRIMMABLE: [&str; 18] = [
    "qkv_output",
    "attn_output",
    "gate_logits",
    "gate_logits_f32",
    "moe_router_in_f32",
    "ssm_qkvz",
    "ssm_ba",
    "ssm_deinterleaved",
    "ssm_gates",
    "ssm_conv_out_f32",
    "expert_gate_out",
    "expert_up_out",
    "expert_down_out",
    "gdn_fla_scratch",
    "fp8_act",
    "fp8_act_scale",
    "fp8_act_scale_kmajor",
    "moe_fp8_scratch",
];

fn by_name(s: &BufferSizes) -> std::collections::BTreeMap<&'static str, usize> {
    s.sizes().into_iter().collect()
}

#[test]
fn c01_mixed_dense_moe_expert_outputs() {
    let c = ModelConfig {
        intermediate_size: 12_288,
        num_experts: 256,
        num_experts_per_tok: 10,
        moe_intermediate_size: 1024,
        ..a()
    };
    let s = sizes(&c, 4, 4096, 16, 32);
    assert_eq!(s.expert_gate_out, 16 * 12_288 * 2);
    assert_eq!(s.expert_up_out, 393_216);
}

#[test]
fn c02_single_token() {
    let s = sizes(&a(), 1, 4096, 16, 32);
    assert_eq!(s.hidden_states, 4096);
    assert_eq!(s.qkv_output, 294_912);
    assert_eq!(s.attn_output, 8192);
    assert_eq!(s.gate_logits, 1024);
    assert_eq!(s.logits, 303_872);
    assert_eq!(s.ssm_qkvz, 393_216);
    assert_eq!(s.ssm_ba, 256);
    assert_eq!(s.ssm_deinterleaved, 393_216);
    assert_eq!(s.ssm_gates, 256);
}

#[test]
fn c03_allocated_regions_are_disjoint_and_exact() {
    let s = sizes(&a(), 128, 4096, 16, 32);
    let zero: Vec<_> = by_name(&s)
        .into_iter()
        .filter(|&(_, v)| v == 0)
        .map(|(k, _)| k)
        .collect();
    let mut expected = vec![
        "ssd_scratch",
        "ffn_act_q8",
        "ffn_act_a",
        "ffn_act_scale",
        "ffn_act_scale_kmajor",
        "ffn_gate_up_fused",
        "q2_dequant_scratch",
        "q2_act_q8",
        "lora_xa",
        "lora_delta",
        "lora_hact",
        "lora_seq_slot",
        "ssm_rowwise_w_bf16",
        "glm_trimmed",
    ];
    expected.sort_unstable();
    assert_eq!(
        zero, expected,
        "13 buffers (and the value glm_trimmed) are 0"
    );
    let layout = s.layout().unwrap();
    let mut placed: Vec<_> = layout.placements.iter().filter(|p| p.bytes > 0).collect();
    placed.sort_by_key(|p| p.offset);
    for w in placed.windows(2) {
        assert!(
            w[0].end() <= w[1].offset,
            "{} overlaps {}",
            w[0].name,
            w[1].name
        );
    }
    for p in &layout.placements {
        assert_eq!(
            p.bytes,
            s.sizes().iter().find(|(n, _)| *n == p.name).unwrap().1
        );
    }
    let mut slab = HostSlab::new(s).unwrap();
    let views = slab.views();
    assert!(!views.norm_unit_w.is_empty());
    assert!(views.norm_unit_w.iter().all(|w| w.to_f32() == 0.0));
    assert!(views.ffn_act_a.is_empty());
}

#[test]
fn c04_q2_dequant_covers_every_projection() {
    let levers = Levers::new().with("METRALE_GGUF_NATIVE_Q2", "1");
    let s = sizes_with(&a(), &levers, 128, 4096, 16, 32);
    assert_eq!(s.q2_dequant_scratch, 50_331_648);
    for projection in [20_971_520, 50_331_648, 33_554_432, 2_097_152] {
        assert!(s.q2_dequant_scratch >= projection);
    }
}

#[test]
fn c05_q2_levers() {
    let at = |q2: &str, mmq: &str| {
        let l = Levers::new()
            .with("METRALE_GGUF_NATIVE_Q2", q2)
            .with("METRALE_GGUF_NATIVE_Q2_MMQ", mmq);
        let s = sizes_with(&a(), &l, 3, 4096, 16, 32);
        (s.q2_dequant_scratch, s.q2_act_q8)
    };
    assert_eq!(at("0", "0"), (0, 0));
    assert_eq!(at("1", "0"), (50_331_648, 0));
    assert_eq!(at("0", "1"), (0, 1_110_016));
    let unset = sizes(&a(), 3, 4096, 16, 32);
    assert_eq!((unset.q2_dequant_scratch, unset.q2_act_q8), (0, 0));
}

#[test]
fn c06_rows_scale_with_m() {
    let one = sizes(&a(), 1, 4096, 16, 32);
    let s = sizes(&a(), 128, 4096, 16, 32);
    assert_eq!(s.hidden_states, 128 * one.hidden_states);
    assert_eq!(s.hidden_states, 524_288);
    assert_eq!(s.logits, 38_895_616);
}

#[test]
fn c07_batch_size_dependence() {
    let at = |n| sizes(&a(), 8192, 4096, 16, n);
    let base = at(1);
    for n in [31, 32] {
        let s = at(n);
        assert_eq!(s.total_bytes(), base.total_bytes());
        assert_eq!(s.scratch.bytes, base.scratch.bytes);
        assert_eq!(s.logits, base.logits);
    }
    let t33 = at(33).total_bytes();
    for n in [64, 128, 159] {
        assert_eq!(at(n).total_bytes(), t33);
    }
    assert_eq!(at(160).logits, 48_923_392);
    let s = at(192);
    assert_eq!(s.logits, 58_647_296);
    assert!(s.scratch.bytes >= 234_752);
}

#[test]
fn c08_rowwise_slab() {
    let c = b1();
    assert_eq!(c.ssm_qkvz_size(), 16_384);
    assert_eq!(c.num_ssm_layers(), 48);
    assert_eq!(sizes(&c, 64, 4096, 16, 32).ssm_rowwise_w_bf16, 0);
    assert_eq!(2 * 16_384 * 5120, 167_772_160);
    assert_eq!(2 * 5120 * 48 * 128, 62_914_560);
    let on = Levers::new().with("METRALE_FP8_ROWWISE", "1");
    assert_eq!(
        sizes_with(&c, &on, 64, 4096, 16, 32).ssm_rowwise_w_bf16,
        11_072_962_560
    );
}

#[test]
fn c09_rowwise_counts_in_total() {
    let mut s = sizes(&b1(), 64, 4096, 16, 32);
    let before = s.total_bytes();
    s.ssm_rowwise_w_bf16 = 4096;
    assert_eq!(s.total_bytes(), before + 4096);
}

#[test]
fn c10_glm_trim() {
    let at = |c: &ModelConfig, l: &Levers| sizes_with(c, l, 8196, 65_536, 16, 4);
    let none = Levers::new();
    let trimmed = |s: &BufferSizes| s.glm_trimmed > 0;
    assert!(trimmed(&at(&b2(), &none)));
    assert!(trimmed(&at(&twin("glm5_next_text"), &none)));
    assert!(trimmed(&at(
        &b2(),
        &Levers::new().with("METRALE_GLM_ARENA_TRIM", "1")
    )));
    assert!(!trimmed(&at(
        &b2(),
        &Levers::new().with("METRALE_GLM_ARENA_TRIM", "0")
    )));
    for t in ["deepseek_v4", "deepseek_v41", "kimi_k3", "qwen3_next"] {
        assert!(!trimmed(&at(&twin(t), &none)), "{t}");
    }
    let full = at(&twin("deepseek_v4"), &none);
    let glm = at(&b2(), &none);
    assert_eq!(full.glm_trimmed, 0);
    let (f, g) = (by_name(&full), by_name(&glm));
    let mut sum = 0;
    for name in TRIMMABLE {
        assert_eq!(g[name], 0, "{name} in glm");
        assert!(f[name] > 0, "{name} in full");
        sum += f[name];
    }
    assert_eq!(glm.glm_trimmed, sum);
    assert_eq!(glm.total_bytes(), full.total_bytes() - glm.glm_trimmed);
    for (name, v) in &f {
        if !TRIMMABLE.contains(name) && *name != "glm_trimmed" {
            assert_eq!(g[name], *v, "{name} must not change");
        }
    }
}

#[test]
fn c11_decode_meta_layout() {
    for n in [1usize, 31, 32, 33, 64, 128] {
        let rows = n.max(32);
        let meta = DecodeMeta::try_from_config_with(&Levers::new(), rows, 257).unwrap();
        let l = meta.layout().unwrap();
        assert_eq!(l.offset_of("positions"), Some(0));
        assert_eq!(l.offset_of("seq_slot"), Some(4 * rows));
        assert_eq!(l.offset_of("slots"), Some(8 * rows));
        assert_eq!(l.offset_of("seq_lens"), Some(16 * rows));
        assert_eq!(l.offset_of("block_table"), Some(24 * rows));
        assert_eq!(l.slab_bytes, 24 * rows + 1028 * rows);
        if rows == 32 {
            assert_eq!(
                (l.offset_of("seq_slot"), l.offset_of("block_table")),
                (Some(128), Some(768))
            );
            assert_eq!(l.slab_bytes, 33_664);
        }
    }
}

#[test]
fn c12_splitk_through_the_arena() {
    let s = sizes(&a(), 8, 4096, 16, 16);
    assert_eq!(s.splitk_workspace, 48 * (256 + 2) * 4);
    let hopper = Target {
        sm_count: 132,
        declared_splitk: layouts::SplitKPolicy::Auto,
    };
    let s =
        BufferSizes::try_from_config_with(&Levers::new(), &a(), 8, 4096, 16, 16, &hopper).unwrap();
    assert_eq!(s.splitk_workspace, 8192 * 258 * 4);
    let pinned = Levers::new().with("METRALE_ATTN_DECODE_SPLITK", "0");
    assert_eq!(
        sizes_with(&a(), &pinned, 8, 4096, 16, 16).splitk_workspace,
        32 * 16 * 258 * 4
    );
    let bad = Levers::new().with("METRALE_ATTN_DECODE_SPLITK", "aut0");
    let err = BufferSizes::try_from_config_with(&bad, &a(), 8, 4096, 16, 16, &Target::DEFAULT)
        .unwrap_err();
    assert!(
        err.to_string().contains("METRALE_ATTN_DECODE_SPLITK"),
        "{err}"
    );
}

#[test]
fn c13_moe_fp8_scratch() {
    let b5 = ModelConfig {
        num_experts: 256,
        num_experts_per_tok: 8,
        moe_intermediate_size: 512,
        shared_expert_intermediate_size: 512,
        ..a()
    };
    let dense = ModelConfig {
        num_experts: 0,
        ..b5.clone()
    };
    assert_eq!(sizes(&dense, 2176, 4096, 16, 32).moe_fp8_scratch.bytes, 0);
    let m = MoeFp8Scratch::try_from_config_with(&Levers::new(), &b5, 2176).unwrap();
    let l = m.layout().unwrap();
    assert_eq!(l.offset_of("scales"), Some(8_912_896));
    assert_eq!(l.offset_of("worklist"), Some(9_191_424));
    assert_eq!(l.offset_of("total_tiles"), Some(9_292_032));
    assert_eq!(l.slab_bytes, 9_292_036);
    assert_eq!(
        sizes(&b5, 2176, 4096, 16, 32).moe_fp8_scratch.bytes,
        9_292_036
    );
}

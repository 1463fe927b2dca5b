//! Every real config.json parses, and at (M 8192, S 32768, B 16, N 64) each
//! gives a non-floor size exactly for the buffers its architecture uses.

use arena::{Arena, Levers};
use layouts::{BufferSizes, ModelConfig, Target};

const M: usize = 8192;

fn load(name: &str) -> (ModelConfig, BufferSizes) {
    let path = format!("{}/configs/hf/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let c = ModelConfig::from_hf_config_json(&text, name).unwrap_or_else(|e| panic!("{e}"));
    let s =
        BufferSizes::try_from_config_with(&Levers::new(), &c, M, 32_768, 16, 64, &Target::DEFAULT)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    (c, s)
}

/// The buffers that are "in use" (above their 0 or 256-byte floor) for a model.
fn used(s: &BufferSizes) -> Vec<&'static str> {
    s.sizes()
        .into_iter()
        .filter(|&(name, v)| v > 256 && name != "glm_trimmed")
        .map(|(n, _)| n)
        .collect()
}

fn assert_uses(s: &BufferSizes, yes: &[&str], no: &[&str]) {
    let u = used(s);
    for y in yes {
        assert!(u.contains(y), "{y} should be in use: {u:?}");
    }
    for n in no {
        assert!(!u.contains(n), "{n} should be at its floor: {u:?}");
    }
}

const DENSE_FFN: [&str; 5] = [
    "ffn_act_q8",
    "ffn_act_a",
    "ffn_act_scale",
    "ffn_act_scale_kmajor",
    "ffn_gate_up_fused",
];
const HC: [&str; 3] = ["hc_streams", "hc_post", "hc_comb"];
const MOE: [&str; 4] = [
    "gate_logits",
    "gate_logits_f32",
    "moe_router_in_f32",
    "moe_fp8_scratch",
];

fn with(extra: &[&'static str], base: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(extra).copied().collect()
}

/// An attention-only MoE transformer: the MoE buffers, no recurrent, indexer,
/// hyper-connection or dense-FFN scratch.
fn assert_plain_moe(s: &BufferSizes) {
    assert_uses(
        s,
        &MOE,
        &with(
            &["gdn_fla_scratch", "ssd_scratch", "qsa_select_scratch"],
            &with(&HC, &DENSE_FFN),
        ),
    );
}

#[test]
fn qwen3_next() {
    let (c, s) = load("Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    assert!(c.attn_gated);
    assert_eq!(c.num_ssm_layers(), 36);
    assert_uses(
        &s,
        &with(&["gdn_fla_scratch", "ssm_gates", "ssm_qkvz"], &MOE),
        &with(
            &[
                "ssd_scratch",
                "qsa_select_scratch",
                "hc_lowrank_scratch",
                "o_latent",
            ],
            &with(&HC, &DENSE_FFN),
        ),
    );
}

#[test]
fn qwen3_moe() {
    let (c, s) = load("Qwen__Qwen3-30B-A3B.json");
    assert_eq!((c.num_experts, c.head_dim, c.attn_gated), (128, 128, false));
    assert_plain_moe(&s);
}

#[test]
fn deepseek_v3() {
    let (c, s) = load("deepseek-ai__DeepSeek-V3.json");
    assert_eq!((c.num_experts, c.kv_lora_rank, c.head_dim), (256, 512, 192));
    assert_eq!(c.shared_expert_intermediate_size, 2048);
    assert_plain_moe(&s);
    // MLA widens attn_output to nq * (kv_lora_rank + rope) rows.
    assert_eq!(s.attn_output, 2 * M * 128 * (512 + 64));
}

#[test]
fn deepseek_v4() {
    let (c, s) = load("deepseek-ai__DeepSeek-V4-Flash.json");
    assert_eq!((c.hc_mult, c.index_compress_ratio, c.o_groups), (4, 4, 8));
    assert_uses(
        &s,
        &with(&["qsa_select_scratch", "o_latent"], &with(&HC, &MOE)),
        &with(&["gdn_fla_scratch", "ssd_scratch"], &DENSE_FFN),
    );
    // The config has no hc_lowrank: that scratch stays at its floor.
    assert_eq!(s.hc_lowrank_scratch.bytes, 256);
    assert_eq!(s.glm_trimmed, 0);
}

#[test]
fn llama_dense() {
    let (c, s) = load("meta-llama__Meta-Llama-3.1-8B.json");
    assert_eq!((c.head_dim, c.num_experts), (128, 0));
    assert_uses(
        &s,
        &DENSE_FFN,
        &with(
            &[
                "gdn_fla_scratch",
                "ssd_scratch",
                "qsa_select_scratch",
                "moe_fp8_scratch",
            ],
            &with(&HC, &MOE[..3]),
        ),
    );
}

#[test]
fn gpt_oss() {
    let (c, s) = load("openai__gpt-oss-20b.json");
    assert_eq!(
        (
            c.num_experts,
            c.num_experts_per_tok,
            c.moe_intermediate_size
        ),
        (32, 4, 2880)
    );
    assert_eq!(c.layer_types.len(), 24);
    assert_uses(
        &s,
        &MOE,
        &with(&["gdn_fla_scratch", "ssd_scratch"], &with(&HC, &DENSE_FFN)),
    );
}

#[test]
fn nemotron_h_nano_moe() {
    let (c, s) = load("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    assert_eq!(
        (c.num_experts, c.shared_expert_intermediate_size),
        (128, 3712)
    );
    assert_eq!(c.layer_types.len(), 52);
    assert_uses(
        &s,
        &with(&["ssd_scratch"], &MOE),
        &with(&["gdn_fla_scratch"], &with(&HC, &DENSE_FFN)),
    );
}

#[test]
fn nemotron_h_56b_dense_with_infinity() {
    let (c, s) = load("nvidia__Nemotron-H-56B-Base-8K.json");
    assert_eq!((c.head_dim, c.num_experts), (128, 0));
    assert_eq!(c.layer_types.len(), 118);
    assert_uses(
        &s,
        &with(&["ssd_scratch"], &DENSE_FFN),
        &with(&["gdn_fla_scratch", "moe_fp8_scratch"], &HC),
    );
}

#[test]
fn the_repository_copies_are_the_shared_configs() {
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/configs");
    let Ok(entries) = std::fs::read_dir(shared) else {
        eprintln!("skipped: no shared/configs beside the repository");
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        let ours = format!(
            "{}/configs/hf/{}",
            env!("CARGO_MANIFEST_DIR"),
            p.file_name().unwrap().to_string_lossy()
        );
        assert_eq!(
            std::fs::read(&p).unwrap(),
            std::fs::read(&ours).unwrap(),
            "{}",
            p.display()
        );
    }
}

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

/// Every config in the repository, parsed.
fn all_configs() -> Vec<(String, ModelConfig)> {
    let dir = format!("{}/configs/hf", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, ModelConfig)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let c = ModelConfig::from_hf_config_json(&text, &name).unwrap();
            (name, c)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The derive reads that the metrale arena grows with the tokens and the
/// sequence length (not with the block size or the decode batch, whose
/// formulas hold conditions on them), and on every real config, with the
/// levers off and on, its slab does not decrease over the first 3,000 values
/// of each: the reading the fit's bisection rests on, checked.
#[test]
fn the_metrale_slab_grows_with_the_tokens_and_the_sequence() {
    use arena::fit::Growth;
    assert_eq!(BufferSizes::growth("max_batch_tokens"), Growth::Grows);
    assert_eq!(BufferSizes::growth("S"), Growth::Grows);
    assert!(matches!(
        BufferSizes::growth("kv_block_size"),
        Growth::NotKnown { item: "mb", .. }
    ));
    assert!(!BufferSizes::grows_with("max_batch_size"));
    let on = Levers::new()
        .with("METRALE_FP8_ROWWISE", "1")
        .with("METRALE_GGUF_NATIVE_Q2", "1")
        .with("METRALE_GLM_ARENA_TRIM", "0");
    for (name, c) in all_configs() {
        for levers in [Levers::new(), on.clone()] {
            let at = |m: usize, s: usize| {
                BufferSizes::try_from_config_with(&levers, &c, m, s, 16, 64, &Target::DEFAULT)
                    .unwrap()
                    .slab_bytes()
                    .unwrap()
            };
            let mut last = (0, 0);
            for v in 1..=3000 {
                let now = (at(v, 32_768), at(8192, v));
                assert!(now.0 >= last.0 && now.1 >= last.1, "{name} at {v}");
                last = now;
            }
        }
    }
}

/// The largest max batch tokens that fits each of a few budgets, on every
/// real config, is the scan's, in at most 22 sizings over 1..=2^20.
#[test]
fn the_metrale_fit_is_the_scans() {
    let levers = Levers::new();
    for (name, c) in all_configs() {
        let size = |m: usize| {
            BufferSizes::try_from_config_with(&levers, &c, m, 32_768, 16, 64, &Target::DEFAULT)
        };
        let bytes = |m: usize| size(m).unwrap().slab_bytes().unwrap();
        for m in [1, 100, 1000, 4096, 8191, 65_536, 300_000] {
            for budget in [bytes(m), bytes(m) + 1, bytes(m) - 1] {
                let f = arena::fit::largest("max_batch_tokens", 1..=1 << 20, budget, size);
                match f {
                    Ok(f) => {
                        assert!(f.bytes <= budget && f.sizings <= 22, "{name}: {f:?}");
                        assert!(f.next_bytes.is_some_and(|n| n > budget), "{name}: {f:?}");
                        assert_eq!(bytes(f.value), f.bytes);
                        assert!(bytes(f.value + 1) > budget);
                        assert!(f.value >= m || budget < bytes(m), "{name}: {f:?}");
                    }
                    Err(e) => assert!(m == 1 && budget < bytes(1), "{name}: {e}"),
                }
            }
        }
    }
}

//! The derived arena gives the same bytes as the hand-written sizing, for
//! every real config, many serve limits and every lever combination.

mod common;

use arena::{Arena, Levers};
use common::handwritten::{self, HandLevers};
use layouts::{BufferSizes, ModelConfig, SplitKPolicy, Target};

fn configs() -> Vec<(String, ModelConfig)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/hf");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let c = ModelConfig::from_hf_config_json(&text, &name).unwrap();
            (name, c)
        })
        .collect();
    out.push(("fixture A".into(), ModelConfig::qwen3_next_80b_nvfp4()));
    let mut glm = ModelConfig::qwen3_next_80b_nvfp4();
    glm.model_type = "glm5_next".into();
    glm.kv_lora_rank = 512;
    glm.q_lora_rank = 1536;
    glm.hc_mult = 4;
    glm.hc_lowrank = 16;
    glm.index_topk = 2048;
    glm.index_n_heads = 32;
    glm.index_head_dim = 128;
    glm.index_compress_ratio = 4;
    glm.adapter_max_rank = 64;
    glm.mrope_interleaved = true;
    glm.moe_latent_size = 1024;
    glm.zero_expert_num = 2;
    out.push(("glm-like".into(), glm));
    out
}

#[test]
fn same_bytes_as_the_handwritten_sizing() {
    let targets = [
        Target::DEFAULT,
        Target {
            sm_count: 132,
            declared_splitk: SplitKPolicy::Auto,
        },
    ];
    let mut cases = 0;
    for (name, c) in configs() {
        for (m, s, b, n) in [
            (1, 4096, 16, 32),
            (3, 4096, 0, 1),
            (128, 32_768, 16, 64),
            (777, 65_536, 64, 161),
            (8192, 32_768, 16, 64),
            (16_384, 131_072, 32, 256),
        ] {
            for t in &targets {
                for bits in 0..32u32 {
                    let hl = HandLevers {
                        q2: bits & 1 != 0,
                        q2_mmq: bits & 2 != 0,
                        rowwise: bits & 4 != 0,
                        glm_trim_off: bits & 8 != 0,
                        splitk: (bits & 16 != 0).then_some(SplitKPolicy::Pinned(4)),
                    };
                    let on = |b: bool| if b { "1" } else { "0" };
                    let mut levers = Levers::new()
                        .with("METRALE_GGUF_NATIVE_Q2", on(hl.q2))
                        .with("METRALE_GGUF_NATIVE_Q2_MMQ", on(hl.q2_mmq))
                        .with("METRALE_FP8_ROWWISE", on(hl.rowwise))
                        .with("METRALE_GLM_ARENA_TRIM", on(!hl.glm_trim_off));
                    if hl.splitk.is_some() {
                        levers.set("METRALE_ATTN_DECODE_SPLITK", "4");
                    }
                    let derived =
                        BufferSizes::try_from_config_with(&levers, &c, m, s, b, n, t).unwrap();
                    let hand = handwritten::sizes(&c, m, s, b, n, t, hl);
                    assert_eq!(
                        handwritten::sizes_checked(&c, m, s, b, n, t, hl),
                        Some(hand),
                        "{name}: checked twin"
                    );
                    let got: Vec<usize> = derived.sizes().into_iter().map(|(_, v)| v).collect();
                    assert_eq!(
                        got,
                        hand.to_vec(),
                        "{name} at M={m} S={s} B={b} N={n} levers={bits:05b}"
                    );
                    assert_eq!(
                        derived.total_bytes(),
                        handwritten::total_bytes(&hand),
                        "{name}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 1000);
}

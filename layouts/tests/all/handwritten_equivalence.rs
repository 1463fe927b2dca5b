//! The derived arena gives the same bytes as the hand-written sizing, for
//! every real config, many serve limits and every lever combination.

use arena::{Arena, Levers};
use arena_testkit::handwritten::{self, HandLevers};
use layouts::{BufferSizes, ModelConfig, SplitKPolicy, Target};

fn parts<const N: usize>(bytes: usize, parts: [usize; N]) -> handwritten::Part<N> {
    handwritten::Part { bytes, parts }
}

/// Every part of every sub-layout the derive sized, against the full twin.
fn same_parts(d: &BufferSizes, full: &handwritten::FullSizes, name: &str) {
    let scratch = &d.scratch.inner;
    let p = &scratch.prefill.inner;
    let prefill = [
        p.topk_ids,
        p.topk_weights,
        p.positions,
        p.slots,
        p.block_table,
        p.seq_len,
    ];
    assert_eq!(
        parts(scratch.prefill.bytes, prefill),
        full.prefill,
        "{name}: prefill"
    );
    let meta = |r: &arena::Region<layouts::sublayouts::DecodeMeta>| {
        let m = &r.inner;
        let fields = [
            m.positions,
            m.seq_slot,
            m.slots,
            m.seq_lens,
            m.unused,
            m.block_table,
        ];
        parts(r.bytes, fields)
    };
    let dec = &scratch.decode.inner;
    assert_eq!(meta(&dec.meta.inner.verify), full.verify, "{name}: verify");
    assert_eq!(
        meta(&dec.meta.inner.decode),
        full.decode_meta,
        "{name}: decode meta"
    );
    let decode = parts(scratch.decode.bytes, [dec.fixed, dec.meta.bytes]);
    assert_eq!(decode, full.decode, "{name}: decode");
    let q = &scratch.q12.inner;
    let q12 = [
        q.topk,
        q.stream_meta,
        q.positions,
        q.slots,
        q.pointer_arrays,
        q.cu_seqlens,
        q.kv_lens,
        q.h_state_ptrs,
    ];
    assert_eq!(parts(scratch.q12.bytes, q12), full.q12, "{name}: q12");
    let g = &d.gdn_fla_scratch.inner;
    let gdn = parts(g.slab_bytes().unwrap(), [g.w, g.u, g.s, g.uc, g.gc]);
    assert_eq!(gdn, full.gdn_fla, "{name}: gdn");
    let s = &d.ssd_scratch.inner;
    let ssd = parts(s.slab_bytes().unwrap(), [s.dt, s.d_a_cumsum, s.cb]);
    assert_eq!(ssd, full.ssd, "{name}: ssd");
    let hc = &d.hc_lowrank_scratch.inner;
    let split = parts(hc.split.bytes, [hc.split.inner.normed, hc.split.inner.low]);
    assert_eq!(split, full.hc_split, "{name}: hc split");
    let gm = &hc.gemm.inner;
    let gemm = parts(hc.gemm.bytes, [gm.normed, gm.up_pre, gm.low, gm.inj_pre]);
    assert_eq!(gemm, full.hc_gemm, "{name}: hc gemm");
    let qs = &d.qsa_select_scratch.inner;
    let qsa = parts(
        qs.slab_bytes().unwrap(),
        [qs.qk, qs.q_post, qs.scores, qs.lists],
    );
    assert_eq!(qsa, full.qsa, "{name}: qsa");
    let f = &d.moe_fp8_scratch.inner;
    let fp8 = [f.activation, f.scales, f.worklist, f.total_tiles];
    assert_eq!(
        parts(f.slab_bytes().unwrap(), fp8),
        full.moe_fp8,
        "{name}: moe fp8"
    );
}

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
                    let full = handwritten::sizes_checked_full(&c, m, s, b, n, t, hl)
                        .expect("the full twin sizes what the derive sizes");
                    assert_eq!(full.top, hand, "{name}: full twin");
                    let plain = handwritten::sizes_unchecked_full(&c, m, s, b, n, t, hl).unwrap();
                    assert_eq!(
                        format!("{plain:?}"),
                        format!("{full:?}"),
                        "{name}: unchecked full twin"
                    );
                    same_parts(&derived, &full, &name);
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

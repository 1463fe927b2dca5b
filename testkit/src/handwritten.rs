//! The metrale sizing written by hand from the spec, as the original does it:
//! plain `usize` arithmetic, one function, one post-pass for the GLM trim.
//! The port is checked against it, and the benchmarks time it.

#![allow(dead_code, unused_imports, clippy::too_many_arguments)]

use layouts::ModelConfig;
use layouts::splitk::{SplitKPolicy, Target, workspace_slots};

/// Lever values, already parsed.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandLevers {
    pub q2: bool,
    pub q2_mmq: bool,
    pub rowwise: bool,
    pub glm_trim_off: bool,
    pub splitk: Option<SplitKPolicy>,
}

fn up(x: usize, q: usize) -> usize {
    x.div_ceil(q) * q
}

/// Every size in BufferSizes field order, then glm_trimmed; unchecked like the original.
pub fn sizes(
    c: &ModelConfig,
    m: usize,
    s: usize,
    b: usize,
    n: usize,
    t: &Target,
    lv: HandLevers,
) -> [usize; 47] {
    let h = c.hidden_size;
    let i = c.intermediate_size;
    let nq = c.num_attention_heads;
    let nkv = c.num_key_value_heads;
    let hd = c.head_dim;
    let hv = c.linear_num_value_heads;
    let qkvz = c.ssm_qkvz_size();
    let di = c.mamba2_d_inner();
    let dip = c.mamba2_in_proj_size();
    let e = c.num_experts;
    let ez = e + c.zero_expert_num;
    let k = c.num_experts_per_tok;
    let im = c.moe_intermediate_size;
    let moe = e > 0;
    let mla = c.kv_lora_rank > 0;
    let g = if c.attn_gated { 2 } else { 1 };
    let qkv_dim = (g * nq + 2 * nkv) * hd;
    let m_pad = up(m, 16);
    let k_max = up(m.max(3), 16);
    let r = n.max(32);
    let logits_tokens = m.min(160usize.max(r + 1));
    let max_dim = h.max(di);
    let max_proj_k = h.max(nq * hd).max(di).max(hv * c.linear_value_head_dim);
    let w_e = if moe {
        k_max * (k * im).max(i)
    } else {
        k_max * i
    };
    let mb = s.checked_div(b).map_or(256, |q| q + 1);
    let kf = h.max(i);
    let dense = !moe;
    let rope = c.qk_rope_head_dim;
    let rkv = c.kv_lora_rank;

    // scratch (§6.1)
    let ps = if c.mrope_interleaved { 3 } else { 1 };
    let p = 8 * m * k + up(4 * m * ps, 8) + 8 * m + 4 * mb + 4;
    let d = 32_768 + (3840 + 640 * mb).max(24 * r + 4 * r * mb);
    let cc = m.div_ceil(8).max(1);
    let q = 64 * cc * k + 8 * (16 * cc + 64).max(4096) + 32 * cc * ps + 64 * cc + 264;
    let scratch = 65_536usize.max(p).max(d).max(q);

    let policy = lv.splitk.unwrap_or(t.declared_splitk);
    let slots = workspace_slots(policy, t.sm_count, nq, r) as usize;

    let gdn = if hv > 0 && c.linear_key_head_dim == 128 && c.linear_value_head_dim == 128 {
        let nt = m.div_ceil(64) + 16;
        82_176 * nt * hv
    } else {
        0
    };
    let ssd = if c.mamba_num_heads > 0 && c.ssm_state_size > 0 {
        let nc = m.div_ceil(64) + 1;
        512 * c.mamba_num_heads * nc + 16_384 * nc * c.n_groups.max(1)
    } else {
        0
    };
    let hc = c.hc_mult;
    let hc_lowrank = if hc > 0 && c.hc_lowrank > 0 {
        let t1 = m.min(64);
        let ts = m.min(2048);
        (4 * t1 * (hc * h + c.hc_lowrank)).max(2 * ts * (2 * hc * h + c.hc_lowrank + hc))
    } else {
        256
    };
    let qsa = if c.index_topk > 0 && c.index_compress_ratio > 0 {
        let (ih, id, icr) = (c.index_n_heads, c.index_head_dim, c.index_compress_ratio);
        4096 * (ih + 1) * id + 8192 * ih * id + 8192 * s.div_ceil(icr) + 8192 * (c.index_topk / icr)
    } else {
        256
    };
    let moe_fp8 = if moe {
        let x = m * k;
        let ks = h.max(c.shared_expert_intermediate_size);
        let act = (m * ks).max(x * im);
        let sc = 4 * (m * ks.div_ceil(128)).max(x * im.div_ceil(128));
        let items = (x.div_ceil(128) + e + 1) * h.max(im).div_ceil(64);
        let off_scale = up(act, 256);
        let off_work = off_scale + up(sc, 256);
        off_work + up(8 * items, 256) + 4
    } else {
        0
    };
    let mut out = [
        2 * m * h,
        2 * m * h,
        2 * m * max_dim,
        2 * m_pad * qkv_dim,
        (2 * m * nq * hd)
            .max(2 * m * di)
            .max(if mla { 2 * m * nq * (rkv + rope) } else { 0 }),
        if moe { 2 * m * ez } else { 256 },
        if moe { 4 * m * ez } else { 256 },
        if moe { 4 * m * h } else { 256 },
        2 * m_pad * h,
        2 * logits_tokens * c.vocab_size,
        (2 * m_pad * qkvz)
            .max(2 * m * dip)
            .max(2 * (m + m_pad) * nkv * hd)
            .max(2 * m * c.shared_expert_intermediate_size)
            .max(256),
        (2 * m * c.ssm_ba_size())
            .max(2 * m * c.moe_latent_size)
            .max(if mla {
                (2 * m * rope).max(2 * m * c.q_lora_rank)
            } else {
                0
            })
            .max(256),
        (2 * m_pad * qkvz)
            .max(2 * m * c.mamba2_d_xbc())
            .max(2 * m * nq * hd)
            .max(if mla { 2 * m * nq * (rkv + rope) } else { 0 })
            .max(256),
        (8 * m * hv).max(256),
        (4 * m * qkvz)
            .max(if mla { 2 * m * nq * rope } else { 0 })
            .max(256),
        scratch,
        2 * w_e,
        2 * w_e,
        if moe {
            2 * k_max * k * c.moe_input_size()
        } else {
            2 * k_max * h
        },
        4 * (hd + 2) * slots,
        gdn,
        ssd,
        (2 * m * c.o_groups * c.o_lora_rank).max(256),
        2 * max_dim,
        if hc > 0 { 4 * m * hc * h } else { 256 },
        if hc > 0 { (4 * m * hc).max(256) } else { 256 },
        if hc > 0 {
            (4 * m * hc * hc).max(256)
        } else {
            256
        },
        hc_lowrank,
        qsa,
        (4 * m).max(256),
        if dense {
            4 * m * up(kf, 256) + 1_048_576
        } else {
            0
        },
        if dense { m_pad * kf } else { 0 },
        if dense { 4 * m_pad * (kf / 32) } else { 0 },
        if dense { 4 * m_pad * (kf / 128) } else { 0 },
        if dense { 64 * i } else { 0 },
        m_pad * max_proj_k,
        moe_fp8,
        4 * m_pad * max_proj_k.div_ceil(128),
        4 * m_pad * max_proj_k.div_ceil(128),
        if c.adapter_max_rank > 0 {
            2 * m * c.adapter_max_rank
        } else {
            0
        },
        if c.adapter_max_rank > 0 {
            2 * m * h.max(i).max(g * nq * hd)
        } else {
            0
        },
        if c.adapter_max_rank > 0 { 2 * m * i } else { 0 },
        if c.adapter_max_rank > 0 { 4 * m } else { 0 },
        if lv.q2 {
            2 * h * i.max(qkvz).max(dip).max(g * nq * hd).max(2 * nkv * hd)
        } else {
            0
        },
        if lv.q2_mmq {
            4 * m * up(h.max(i).max(nq * hd), 256) + 1_048_576
        } else {
            0
        },
        if lv.rowwise {
            c.num_ssm_layers() * (2 * qkvz * h + 2 * h * hv * c.linear_value_head_dim)
        } else {
            0
        },
        0,
    ];
    // The GLM trim, a post-pass over a list of fields (§7).
    let glm = (c.model_type == "glm5_next" || c.model_type == "glm5_next_text") && !lv.glm_trim_off;
    if glm {
        let mut trimmed = 0;
        for idx in [
            3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 16, 17, 18, 20, 35, 36, 37, 38,
        ] {
            trimmed += out[idx];
            out[idx] = 0;
        }
        out[46] = trimmed;
    }
    out
}

/// §8: every buffer but o_latent (22) and norm_unit_w (23); glm_trimmed is not a buffer.
pub fn total_bytes(sizes: &[usize; 47]) -> usize {
    sizes[..46]
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 22 && *i != 23)
        .map(|(_, v)| v)
        .sum()
}

/// The twins with an overflow check on every step, as the derive checks.
pub mod checked {
    const CHECKED: bool = true;
    include!("handwritten_twin.rs");
}

/// The same twins with plain (wrapping) arithmetic, like the original.
pub mod unchecked {
    const CHECKED: bool = false;
    include!("handwritten_twin.rs");
}

pub use checked::{FullSizes, Part, closed as sizes_checked, full as sizes_checked_full};
/// Every sub-layout part the derive computes, with plain arithmetic: always `Some`.
pub use unchecked::full as sizes_unchecked_full;

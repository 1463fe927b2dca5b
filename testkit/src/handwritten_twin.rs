// The metrale sizing step by step, twice: `closed` with the spec's closed forms
// of the nested regions, `full` computing every part of every sub-layout as the
// derive does. Included by `handwritten.rs` in a `checked` module (every step
// checked, as the derive checks) and an `unchecked` one (plain arithmetic).

use layouts::ModelConfig;
use layouts::splitk::{Target, workspace_slots};

use super::HandLevers;

// Every step of the twins below goes through these: `checked_*` in the
// `checked` module, wrapping arithmetic (and never `None`) in `unchecked`.

fn a(x: usize, y: usize) -> Option<usize> {
    if CHECKED {
        x.checked_add(y)
    } else {
        Some(x.wrapping_add(y))
    }
}
fn m(x: usize, y: usize) -> Option<usize> {
    if CHECKED {
        x.checked_mul(y)
    } else {
        Some(x.wrapping_mul(y))
    }
}
fn upc(x: usize, q: usize) -> Option<usize> {
    m(x.div_ceil(q), q)
}
fn m3(x: usize, y: usize, z: usize) -> Option<usize> {
    m(m(x, y)?, z)
}
fn m4(w: usize, x: usize, y: usize, z: usize) -> Option<usize> {
    m(m3(w, x, y)?, z)
}

/// The bytes of the six nested regions of the metrale arena.
#[derive(Debug, Clone, Copy)]
pub struct Regions {
    pub scratch: usize,
    pub gdn: usize,
    pub ssd: usize,
    pub hc_lowrank: usize,
    pub qsa: usize,
    pub moe_fp8: usize,
}

/// The inputs both forms of the nested regions start from.
struct Shared {
    h: usize,
    e: usize,
    k: usize,
    im: usize,
    moe: bool,
    r: usize,
    mb: usize,
    ps: usize,
}

#[inline(always)]
fn shared(c: &ModelConfig, s: usize, b: usize, n: usize) -> Option<Shared> {
    let e = c.num_experts;
    Some(Shared {
        h: c.hidden_size,
        e,
        k: c.num_experts_per_tok,
        im: c.moe_intermediate_size,
        moe: e > 0,
        r: n.max(32),
        mb: s.checked_div(b).map_or(Some(256), |q| a(q, 1))?,
        ps: if c.mrope_interleaved { 3 } else { 1 },
    })
}

/// The nested regions as the spec's closed forms, checked.
#[inline(always)]
fn closed_form_regions(
    c: &ModelConfig,
    mm: usize,
    s: usize,
    b: usize,
    n: usize,
) -> Option<Regions> {
    let Shared {
        h,
        e,
        k,
        im,
        moe,
        r,
        mb,
        ps,
    } = shared(c, s, b, n)?;
    let hv = c.linear_num_value_heads;
    let p = a(
        a(
            a(a(m3(8, mm, k)?, upc(m3(4, mm, ps)?, 8)?)?, m(8, mm)?)?,
            m(4, mb)?,
        )?,
        4,
    )?;
    let d = a(
        32_768,
        a(3840, m(640, mb)?)?.max(a(m(24, r)?, m3(4, r, mb)?)?),
    )?;
    let cc = mm.div_ceil(8).max(1);
    let q = a(
        a(
            a(
                a(m3(64, cc, k)?, m(8, a(m(16, cc)?, 64)?.max(4096))?)?,
                m3(32, cc, ps)?,
            )?,
            m(64, cc)?,
        )?,
        264,
    )?;
    let scratch = 65_536usize.max(p).max(d).max(q);
    let gdn = if hv > 0 && c.linear_key_head_dim == 128 && c.linear_value_head_dim == 128 {
        m3(82_176, a(mm.div_ceil(64), 16)?, hv)?
    } else {
        0
    };
    let ssd = if c.mamba_num_heads > 0 && c.ssm_state_size > 0 {
        let nc = a(mm.div_ceil(64), 1)?;
        a(
            m3(512, c.mamba_num_heads, nc)?,
            m3(16_384, nc, c.n_groups.max(1))?,
        )?
    } else {
        0
    };
    let hc = c.hc_mult;
    let hc_lowrank = if hc > 0 && c.hc_lowrank > 0 {
        let (t1, ts) = (mm.min(64), mm.min(2048));
        let hch = m(hc, h)?;
        m3(4, t1, a(hch, c.hc_lowrank)?)?.max(m3(2, ts, a(a(m(2, hch)?, c.hc_lowrank)?, hc)?)?)
    } else {
        256
    };
    let qsa = if c.index_topk > 0 && c.index_compress_ratio > 0 {
        let (ih, id, icr) = (c.index_n_heads, c.index_head_dim, c.index_compress_ratio);
        a(
            a(m3(4096, a(ih, 1)?, id)?, m3(8192, ih, id)?)?,
            a(m(8192, s.div_ceil(icr))?, m(8192, c.index_topk / icr)?)?,
        )?
    } else {
        256
    };
    let moe_fp8 = if moe {
        let x = m(mm, k)?;
        let ks = h.max(c.shared_expert_intermediate_size);
        let act = m(mm, ks)?.max(m(x, im)?);
        let sc = m(4, m(mm, ks.div_ceil(128))?.max(m(x, im.div_ceil(128))?))?;
        let items = m(a(a(x.div_ceil(128), e)?, 1)?, h.max(im).div_ceil(64))?;
        a(
            a(a(upc(act, 256)?, upc(sc, 256)?)?, upc(m(8, items)?, 256)?)?,
            4,
        )?
    } else {
        0
    };
    Some(Regions {
        scratch,
        gdn,
        ssd,
        hc_lowrank,
        qsa,
        moe_fp8,
    })
}

/// [`sizes`](super::sizes) step by step: `None` where a size overflows (checked).
pub fn closed(
    c: &ModelConfig,
    mm: usize,
    s: usize,
    b: usize,
    n: usize,
    t: &Target,
    lv: HandLevers,
) -> Option<[usize; 47]> {
    let regions = closed_form_regions(c, mm, s, b, n)?;
    top_checked(c, mm, n, t, lv, regions)
}

/// Every buffer but the nested regions, which the caller sized; checked.
#[inline(always)]
fn top_checked(
    c: &ModelConfig,
    mm: usize,
    n: usize,
    t: &Target,
    lv: HandLevers,
    rg: Regions,
) -> Option<[usize; 47]> {
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
    let ez = a(e, c.zero_expert_num)?;
    let k = c.num_experts_per_tok;
    let im = c.moe_intermediate_size;
    let moe = e > 0;
    let mla = c.kv_lora_rank > 0;
    let g = if c.attn_gated { 2 } else { 1 };
    let qkv_dim = m(a(m(g, nq)?, m(2, nkv)?)?, hd)?;
    let m_pad = upc(mm, 16)?;
    let k_max = upc(mm.max(3), 16)?;
    let r = n.max(32);
    let logits_tokens = mm.min(160usize.max(a(r, 1)?));
    let max_dim = h.max(di);
    let nqhd = m(nq, hd)?;
    let max_proj_k = h.max(nqhd).max(di).max(m(hv, c.linear_value_head_dim)?);
    let w_e = if moe {
        m(k_max, m(k, im)?.max(i))?
    } else {
        m(k_max, i)?
    };
    let kf = h.max(i);
    let dense = !moe;
    let rope = c.qk_rope_head_dim;
    let rkv = c.kv_lora_rank;
    let policy = lv.splitk.unwrap_or(t.declared_splitk);
    let slots = workspace_slots(policy, t.sm_count, nq, r) as usize;
    let hc = c.hc_mult;
    let Regions {
        scratch,
        gdn,
        ssd,
        hc_lowrank,
        qsa,
        moe_fp8,
    } = rg;
    let mh = m(mm, h)?;
    let fp8_scale = m3(4, m_pad, max_proj_k.div_ceil(128))?;
    let ra = c.adapter_max_rank;
    let mut out = [
        m(2, mh)?,
        m(2, mh)?,
        m3(2, mm, max_dim)?,
        m3(2, m_pad, qkv_dim)?,
        m3(2, mm, nqhd)?.max(m3(2, mm, di)?).max(if mla {
            m4(2, mm, nq, a(rkv, rope)?)?
        } else {
            0
        }),
        if moe { m3(2, mm, ez)? } else { 256 },
        if moe { m3(4, mm, ez)? } else { 256 },
        if moe { m(4, mh)? } else { 256 },
        m3(2, m_pad, h)?,
        m3(2, logits_tokens, c.vocab_size)?,
        m3(2, m_pad, qkvz)?
            .max(m3(2, mm, dip)?)
            .max(m4(2, a(mm, m_pad)?, nkv, hd)?)
            .max(m3(2, mm, c.shared_expert_intermediate_size)?)
            .max(256),
        m3(2, mm, c.ssm_ba_size())?
            .max(m3(2, mm, c.moe_latent_size)?)
            .max(if mla {
                m3(2, mm, rope)?.max(m3(2, mm, c.q_lora_rank)?)
            } else {
                0
            })
            .max(256),
        m3(2, m_pad, qkvz)?
            .max(m3(2, mm, c.mamba2_d_xbc())?)
            .max(m3(2, mm, nqhd)?)
            .max(if mla {
                m4(2, mm, nq, a(rkv, rope)?)?
            } else {
                0
            })
            .max(256),
        m3(8, mm, hv)?.max(256),
        m3(4, mm, qkvz)?
            .max(if mla { m4(2, mm, nq, rope)? } else { 0 })
            .max(256),
        scratch,
        m(2, w_e)?,
        m(2, w_e)?,
        if moe {
            m4(2, k_max, k, c.moe_input_size())?
        } else {
            m3(2, k_max, h)?
        },
        m3(4, a(hd, 2)?, slots)?,
        gdn,
        ssd,
        m4(2, mm, c.o_groups, c.o_lora_rank)?.max(256),
        m(2, max_dim)?,
        if hc > 0 { m4(4, mm, hc, h)? } else { 256 },
        if hc > 0 { m3(4, mm, hc)?.max(256) } else { 256 },
        if hc > 0 {
            m4(4, mm, hc, hc)?.max(256)
        } else {
            256
        },
        hc_lowrank,
        qsa,
        m(4, mm)?.max(256),
        if dense {
            a(m3(4, mm, upc(kf, 256)?)?, 1_048_576)?
        } else {
            0
        },
        if dense { m(m_pad, kf)? } else { 0 },
        if dense { m3(4, m_pad, kf / 32)? } else { 0 },
        if dense { m3(4, m_pad, kf / 128)? } else { 0 },
        if dense { m(64, i)? } else { 0 },
        m(m_pad, max_proj_k)?,
        moe_fp8,
        fp8_scale,
        fp8_scale,
        if ra > 0 { m3(2, mm, ra)? } else { 0 },
        if ra > 0 {
            m3(2, mm, h.max(i).max(m(g, nqhd)?))?
        } else {
            0
        },
        if ra > 0 { m3(2, mm, i)? } else { 0 },
        if ra > 0 { m(4, mm)? } else { 0 },
        if lv.q2 {
            m3(
                2,
                h,
                i.max(qkvz).max(dip).max(m(g, nqhd)?).max(m3(2, nkv, hd)?),
            )?
        } else {
            0
        },
        if lv.q2_mmq {
            a(m3(4, mm, upc(h.max(i).max(nqhd), 256)?)?, 1_048_576)?
        } else {
            0
        },
        if lv.rowwise {
            m(
                c.num_ssm_layers(),
                a(m3(2, qkvz, h)?, m4(2, h, hv, c.linear_value_head_dim)?)?,
            )?
        } else {
            0
        },
        0,
    ];
    let glm = (c.model_type == "glm5_next" || c.model_type == "glm5_next_text") && !lv.glm_trim_off;
    if glm {
        let mut trimmed = 0usize;
        for idx in [
            3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 16, 17, 18, 20, 35, 36, 37, 38,
        ] {
            trimmed = a(trimmed, out[idx])?;
            out[idx] = 0;
        }
        out[46] = trimmed;
    }
    Some(out)
}

// The same sizing again, by hand, but computing what the derived arena
// computes: every part of every sub-layout and the bytes of each region, not
// only the closed forms of the spec. With this information the typed views can
// be carved without sizing again. Checked as above; the checks a careful
// engineer can prove away by hand (whole elements, a region holding its
// layout, alignments that sums of multiples of 8 already meet) are left out.

/// A nested region by hand: its bytes and its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part<const N: usize> {
    pub bytes: usize,
    pub parts: [usize; N],
}

impl<const N: usize> Default for Part<N> {
    fn default() -> Self {
        Part {
            bytes: 0,
            parts: [0; N],
        }
    }
}

fn sum<const N: usize>(parts: [usize; N]) -> Option<Part<N>> {
    let mut bytes = 0usize;
    for p in parts {
        bytes = a(bytes, p)?;
    }
    Some(Part { bytes, parts })
}

/// Every size of [`closed`] plus every sub-layout's parts, as the derive gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullSizes {
    pub top: [usize; 47],
    pub prefill: Part<6>,
    pub verify: Part<6>,
    pub decode_meta: Part<6>,
    /// `fixed`, then the larger of the two metadata blocks.
    pub decode: Part<2>,
    pub q12: Part<8>,
    pub gdn_fla: Part<5>,
    pub ssd: Part<3>,
    pub hc_split: Part<2>,
    pub hc_gemm: Part<4>,
    pub qsa: Part<4>,
    pub moe_fp8: Part<4>,
}

fn decode_meta(rows: usize, mb: usize) -> Option<Part<6>> {
    let r4 = m(4, rows)?;
    sum([r4, r4, m(8, rows)?, r4, r4, m3(4, rows, mb)?])
}

/// [`closed`], but computing every sub-layout part the derive computes.
pub fn full(
    c: &ModelConfig,
    mm: usize,
    s: usize,
    b: usize,
    n: usize,
    t: &Target,
    lv: HandLevers,
) -> Option<FullSizes> {
    let Shared {
        h,
        e,
        k,
        im,
        moe,
        r,
        mb,
        ps,
    } = shared(c, s, b, n)?;

    // scratch (§6.1): three layouts, the largest wins.
    let mk4 = m3(4, mm, k)?;
    let pos = m3(ps, 4, mm)?;
    let parts = [mk4, mk4, pos, m(8, mm)?, m(4, mb)?, 4];
    // `slots` (i64) follows `positions` (u32): its start rounds up to 8.
    let mut bytes = upc(a(m(2, mk4)?, pos)?, 8)?;
    for p in &parts[3..] {
        bytes = a(bytes, *p)?;
    }
    let prefill = Part { bytes, parts };
    let verify = decode_meta(160, mb)?;
    let decode_meta = decode_meta(r, mb)?;
    let decode = sum([32_768, verify.bytes.max(decode_meta.bytes)])?;
    let qn = 8;
    let cc = mm.div_ceil(qn).max(1);
    let tt = m(qn, cc)?;
    let q12 = sum([
        upc(m3(8, tt, k)?, 64)?,
        m(qn, a(m(16, cc)?, 64)?.max(4096))?,
        m(ps, upc(m(4, tt)?, 8)?)?,
        upc(m(8, tt)?, 8)?,
        m(2, upc(m(8, qn)?, 8)?)?,
        upc(m(4, qn + 1)?, 8)?,
        upc(m(4, qn)?, 8)?,
        m(8, qn)?,
    ])?;
    let scratch = 65_536usize
        .max(prefill.bytes)
        .max(decode.bytes)
        .max(q12.bytes);

    // GDN FLA (§6.2), SSD (§6.3).
    let hv = c.linear_num_value_heads;
    let (dk, dv) = (c.linear_key_head_dim, c.linear_value_head_dim);
    let gdn_fla = if hv > 0 && dk == 128 && dv == 128 {
        let rows = m(a(mm.div_ceil(64), 16)?, hv)?;
        let u = m4(2, rows, 64, dv)?;
        sum([
            m4(2, rows, 64, dk)?,
            u,
            m4(2, rows, dk, dv)?,
            u,
            m3(4, rows, 64)?,
        ])?
    } else {
        Part::default()
    };
    let ssd = if c.mamba_num_heads > 0 && c.ssm_state_size > 0 {
        let nc = a(mm.div_ceil(64), 1)?;
        let dt = m4(4, c.mamba_num_heads, nc, 64)?;
        sum([dt, dt, m4(4, nc, c.n_groups.max(1), 4096)?])?
    } else {
        Part::default()
    };

    // Hyper-connection low-rank layouts (§6.5) and QSA selection (§6.4).
    let hc = c.hc_mult;
    let hc_on = hc > 0 && c.hc_lowrank > 0;
    let (t1, ts) = if hc_on {
        (mm.min(64), mm.min(2048))
    } else {
        (0, 0)
    };
    let hch = m(hc, h)?;
    let hc_split = sum([m3(4, t1, hch)?, m3(4, t1, c.hc_lowrank)?])?;
    let normed = m3(2, ts, hch)?;
    let hc_gemm = sum([normed, normed, m3(2, ts, c.hc_lowrank)?, m3(2, ts, hc)?])?;
    let hc_lowrank = if hc_on {
        hc_split.bytes.max(hc_gemm.bytes)
    } else {
        256
    };
    let qsa_on = c.index_topk > 0 && c.index_compress_ratio > 0;
    let qsa = if qsa_on {
        let (ih, id, icr) = (c.index_n_heads, c.index_head_dim, c.index_compress_ratio);
        sum([
            m3(4096, a(ih, 1)?, id)?,
            m4(8192, 1, ih, id)?,
            m(8192, s.div_ceil(icr))?,
            m(8192, c.index_topk / icr)?,
        ])?
    } else {
        Part::default()
    };
    let qsa_bytes = if qsa_on { qsa.bytes } else { 256 };

    // Grouped FP8 MoE scratch (§6.6): regions 256-aligned.
    let moe_fp8 = if moe {
        let x = m(mm, k)?;
        let ks = h.max(c.shared_expert_intermediate_size);
        let act = m(mm, ks)?.max(m(x, im)?);
        let sc = m(4, m(mm, ks.div_ceil(128))?.max(m(x, im.div_ceil(128))?))?;
        let items = m(a(a(x.div_ceil(128), e)?, 1)?, h.max(im).div_ceil(64))?;
        let wl = m(8, items)?;
        let bytes = a(a(a(upc(act, 256)?, upc(sc, 256)?)?, upc(wl, 256)?)?, 4)?;
        Part {
            bytes,
            parts: [act, sc, wl, 4],
        }
    } else {
        Part::default()
    };

    // The other buffers as in `closed`, the regions in their places.
    let top = top_checked(
        c,
        mm,
        n,
        t,
        lv,
        Regions {
            scratch,
            gdn: gdn_fla.bytes,
            ssd: ssd.bytes,
            hc_lowrank,
            qsa: qsa_bytes,
            moe_fp8: moe_fp8.bytes,
        },
    )?;
    // The GLM trim empties the trimmed regions (`top` counts their bytes in
    // `glm_trimmed`).
    let glm = (c.model_type == "glm5_next" || c.model_type == "glm5_next_text") && !lv.glm_trim_off;
    let (gdn_fla, moe_fp8) = if glm {
        (Part::default(), Part::default())
    } else {
        (gdn_fla, moe_fp8)
    };
    // The total must fit, as the derive checks.
    let mut total = 0usize;
    for (i, v) in top[..46].iter().enumerate() {
        if i != 22 && i != 23 {
            total = a(total, *v)?;
        }
    }
    let _ = total;
    Some(FullSizes {
        top,
        prefill,
        verify,
        decode_meta,
        decode,
        q12,
        gdn_fla,
        ssd,
        hc_split,
        hc_gemm,
        qsa,
        moe_fp8,
    })
}

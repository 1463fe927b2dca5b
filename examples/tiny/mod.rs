//! A small transformer forward pass in plain Rust (embedding, RMSNorm, QKV,
//! causal attention with softmax, an MLP with SiLU, logits), written against
//! a phased arena: each phase's buffers come from one `XPhases` method.
//! `Forward` declares every range right; `Forward` with `CUT` = true is the
//! same arena with the positional table's range cut short (`live = attn`).

#![allow(dead_code)]

use arena::Arena;

/// The model's shape.
pub struct Tiny {
    pub vocab: usize,
    pub d: usize,
    pub heads: usize,
    pub ff: usize,
    pub layers: usize,
}

impl Tiny {
    /// The shape the host proof runs.
    pub const SMALL: Tiny = Tiny {
        vocab: 64,
        d: 32,
        heads: 4,
        ff: 64,
        layers: 3,
    };
    /// A Llama-3.1-8B-like shape, for the byte figures.
    pub const LLAMA_8B: Tiny = Tiny {
        vocab: 128_256,
        d: 4096,
        heads: 32,
        ff: 14_336,
        layers: 32,
    };
}

/// The arena of one forward pass of `M` tokens, by phase; `$pos` is the
/// declared range of the positional table.
macro_rules! forward_arena {
    ($(#[$doc:meta])* $name:ident, pos: $($pos:tt)+) => {
        $(#[$doc])*
        #[derive(Arena, Debug, Clone)]
        #[arena(params(cfg: &Tiny, tokens: usize as M), phases(embed, attn, mlp, head))]
        #[arena(let d = cfg.d, let V = cfg.vocab, let H = cfg.heads, let F = cfg.ff)]
        pub struct $name {
            /// Token ids.
            #[arena(shape = [M], dtype = u32, live = embed)]
            pub ids: usize,
            /// The residual stream: live in every phase.
            #[arena(shape = [M, d], dtype = f32)]
            pub x: usize,
            /// A per-token positional scale, computed in the first layer's
            /// attention and read by every layer's.
            #[arena(shape = [M], dtype = f32, live = $($pos)+)]
            pub pos: usize,
            /// RMSNorm of the stream, for attention then the MLP.
            #[arena(shape = [M, d], dtype = f32, live = attn..=mlp)]
            pub norm: usize,
            #[arena(shape = [M, 3 * d], dtype = f32, live = attn)]
            pub qkv: usize,
            #[arena(shape = [H, M, M], dtype = f32, live = attn)]
            pub scores: usize,
            #[arena(shape = [M, d], dtype = f32, live = attn)]
            pub attn_out: usize,
            #[arena(shape = [M, F], dtype = f32, live = mlp)]
            pub up: usize,
            #[arena(shape = [M, F], dtype = f32, live = mlp)]
            pub gate: usize,
            #[arena(shape = [M, d], dtype = f32, live = head)]
            pub head_norm: usize,
            #[arena(shape = [M, V], dtype = f32, live = head)]
            pub logits: usize,
        }
    };
}

forward_arena!(
    /// Every range declared right: `pos` lives from `embed` through `mlp`,
    /// so it survives the MLP phases between layers.
    Forward, pos: embed..=mlp
);

forward_arena!(
    /// The same arena with `pos` cut short to `live = attn`: its bytes may be
    /// shared with the MLP's, and nothing keeps it across layers.
    ForwardCut, pos: attn
);

/// Random weights from a fixed seed.
pub struct Weights {
    pub emb: Vec<f32>,
    pub wqkv: Vec<Vec<f32>>,
    pub wo: Vec<Vec<f32>>,
    pub w_up: Vec<Vec<f32>>,
    pub w_gate: Vec<Vec<f32>>,
    pub w_down: Vec<Vec<f32>>,
    pub w_out: Vec<f32>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.5
    }
    fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.next()).collect()
    }
}

impl Weights {
    pub fn new(c: &Tiny, seed: u64) -> Self {
        let mut r = Rng(seed);
        let per_layer = |r: &mut Rng, n: usize| (0..c.layers).map(|_| r.vec(n)).collect();
        Weights {
            emb: r.vec(c.vocab * c.d),
            wqkv: per_layer(&mut r, c.d * 3 * c.d),
            wo: per_layer(&mut r, c.d * c.d),
            w_up: per_layer(&mut r, c.d * c.ff),
            w_gate: per_layer(&mut r, c.d * c.ff),
            w_down: per_layer(&mut r, c.ff * c.d),
            w_out: r.vec(c.d * c.vocab),
        }
    }
}

/// `out[m, n] = a[m, k] · w[k, n]`.
pub fn matmul(a: &[f32], w: &[f32], out: &mut [f32], k: usize, n: usize) {
    for (row, o) in a.chunks(k).zip(out.chunks_mut(n)) {
        o.fill(0.0);
        for (i, &av) in row.iter().enumerate() {
            for (ov, wv) in o.iter_mut().zip(&w[i * n..(i + 1) * n]) {
                *ov += av * wv;
            }
        }
    }
}

pub fn rmsnorm(x: &[f32], out: &mut [f32], d: usize) {
    for (r, o) in x.chunks(d).zip(out.chunks_mut(d)) {
        let ms = r.iter().map(|v| v * v).sum::<f32>() / d as f32;
        let s = 1.0 / (ms + 1e-6).sqrt();
        for (ov, rv) in o.iter_mut().zip(r) {
            *ov = rv * s;
        }
    }
}

/// The forward pass for one arena type (both arenas have the same fields).
#[macro_export]
macro_rules! forward_pass {
    ($name:ident, $arena:ty) => {
        /// Logits of the last token, computed through the phased views of `slab`.
        pub fn $name(
            slab: &mut arena::HostSlab<$arena>,
            c: &Tiny,
            w: &Weights,
            m: usize,
        ) -> Vec<f32> {
            let (d, hd) = (c.d, c.d / c.heads);
            let mut phases = slab.views();
            let e = phases.embed();
            for (t, id) in e.ids.iter_mut().enumerate() {
                *id = ((t * 7 + 3) % c.vocab) as u32;
            }
            for (t, &id) in e.ids.iter().enumerate() {
                let id = id as usize;
                e.x[t * d..(t + 1) * d].copy_from_slice(&w.emb[id * d..(id + 1) * d]);
            }
            for layer in 0..c.layers {
                let a = phases.attn();
                if layer == 0 {
                    for (t, p) in a.pos.iter_mut().enumerate() {
                        *p = 1.0 + t as f32 / m as f32;
                    }
                }
                rmsnorm(a.x, a.norm, d);
                matmul(a.norm, &w.wqkv[layer], a.qkv, d, 3 * d);
                for h in 0..c.heads {
                    let s = &mut a.scores[h * m * m..(h + 1) * m * m];
                    for i in 0..m {
                        let q = &a.qkv[i * 3 * d + h * hd..][..hd];
                        let mut mx = f32::NEG_INFINITY;
                        for j in 0..=i {
                            let k = &a.qkv[j * 3 * d + d + h * hd..][..hd];
                            let dot: f32 = q.iter().zip(k).map(|(x, y)| x * y).sum();
                            s[i * m + j] = dot * a.pos[i] * a.pos[j] / (hd as f32).sqrt();
                            mx = mx.max(s[i * m + j]);
                        }
                        let mut sum = 0.0;
                        for j in 0..=i {
                            s[i * m + j] = (s[i * m + j] - mx).exp();
                            sum += s[i * m + j];
                        }
                        let o = &mut a.attn_out[i * d + h * hd..][..hd];
                        o.fill(0.0);
                        for j in 0..=i {
                            let v = &a.qkv[j * 3 * d + 2 * d + h * hd..][..hd];
                            for (ov, vv) in o.iter_mut().zip(v) {
                                *ov += s[i * m + j] / sum * vv;
                            }
                        }
                    }
                }
                // x += attn_out · Wo, through `norm` as the product's scratch.
                matmul(a.attn_out, &w.wo[layer], a.norm, d, d);
                for (xv, nv) in a.x.iter_mut().zip(a.norm.iter()) {
                    *xv += nv;
                }
                let f = phases.mlp();
                rmsnorm(f.x, f.norm, d);
                matmul(f.norm, &w.w_up[layer], f.up, d, c.ff);
                matmul(f.norm, &w.w_gate[layer], f.gate, d, c.ff);
                for (u, g) in f.up.iter_mut().zip(f.gate.iter()) {
                    *u *= g / (1.0 + (-g).exp());
                }
                matmul(f.up, &w.w_down[layer], f.norm, c.ff, d);
                for (xv, nv) in f.x.iter_mut().zip(f.norm.iter()) {
                    *xv += nv;
                }
            }
            let h = phases.head();
            rmsnorm(h.x, h.head_norm, d);
            matmul(h.head_norm, &w.w_out, h.logits, d, c.vocab);
            h.logits[(m - 1) * c.vocab..].to_vec()
        }
    };
}

forward_pass!(forward, Forward);
forward_pass!(forward_cut, ForwardCut);

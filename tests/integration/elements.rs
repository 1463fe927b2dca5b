//! The element types and alignments of today's kernels: FP8, packed FP4,
//! MX scales, a user `Pod` type through `arena::bytemuck`, per-buffer
//! alignment, and views at fixed addresses across steps.

use arena::{Arena, Carving, E8M0, F4E2M1x2, F8E4M3, F8E5M2, HostSlab, Levers, Region};

/// A user element type with only `arena` as a dependency.
#[derive(Clone, Copy, Debug, PartialEq, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]
#[bytemuck(crate = "arena::bytemuck")]
#[repr(C)]
pub struct Pair {
    pub a: u16,
    pub b: u16,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, k: usize))]
pub struct Quant {
    /// FP8 activations.
    #[arena(shape = [m, k], dtype = f8e4m3)]
    pub act: usize,
    /// FP8 gradients.
    #[arena(shape = [m, k], dtype = f8e5m2)]
    pub grad: usize,
    /// FP4 weights, two a byte: the shape counts bytes.
    #[arena(shape = [m, k / 2], dtype = f4e2m1x2)]
    pub w: usize,
    /// One MX scale per 32 values.
    #[arena(shape = [m, k / 32], dtype = e8m0)]
    pub scales: usize,
    #[arena(shape = [m], dtype = crate::elements::Pair)]
    pub pairs: usize,
}

#[test]
fn each_dtype_sizes_types_and_round_trips() {
    let q = Quant::try_from_config_with(&Levers::new(), 16, 128).unwrap();
    assert_eq!(
        (q.act, q.grad, q.w, q.scales, q.pairs),
        (16 * 128, 16 * 128, 16 * 64, 16 * 4, 16 * 4)
    );
    let dtypes: Vec<_> = Quant::BUFFERS
        .iter()
        .map(|b| (b.dtype, b.elem_bytes))
        .collect();
    assert_eq!(
        dtypes,
        [
            ("f8e4m3", 1),
            ("f8e5m2", 1),
            ("f4e2m1x2", 1),
            ("e8m0", 1),
            ("crate::elements::Pair", 4)
        ]
    );
    let mut slab = HostSlab::new(q).unwrap();
    let v = slab.views();
    // The views are typed: each assignment checks the element type.
    let act: &mut [F8E4M3] = v.act;
    let grad: &mut [F8E5M2] = v.grad;
    let w: &mut [F4E2M1x2] = v.w;
    let scales: &mut [E8M0] = v.scales;
    let pairs: &mut [Pair] = v.pairs;
    act[3] = F8E4M3::from_f32(1.5);
    grad[5] = F8E5M2::from_f32(-0.25);
    w[7] = F4E2M1x2::from_f32_pair(0.5, 6.0);
    scales[1] = E8M0::from_f64(0.125);
    pairs[2] = Pair { a: 7, b: 9 };
    let (act, grad, w, scales, pairs) = (act[3], grad[5], w[7], scales[1], pairs[2]);
    assert_eq!(act.to_f32(), 1.5);
    assert_eq!(grad.to_f32(), -0.25);
    assert_eq!(w.to_f32_pair(), (0.5, 6.0));
    assert_eq!(scales.to_f64(), 0.125);
    assert_eq!(pairs, Pair { a: 7, b: 9 });
    // And they are the slab's bytes.
    let l = slab.layout().clone();
    let bytes = slab.as_bytes();
    assert_eq!(bytes[l.offset_of("act").unwrap() + 3], act.to_bits());
    assert_eq!(bytes[l.offset_of("w").unwrap() + 7], w.0);
    assert_eq!(bytes[l.offset_of("scales").unwrap() + 1], 127 - 3);
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b), align = 16)]
pub struct Fp8Phases {
    #[arena(shape = [m], dtype = u8, live = a)]
    pub first: usize,
    #[arena(shape = [m], dtype = f8e4m3, live = b)]
    pub e4: usize,
    #[arena(shape = [m], dtype = f8e5m2, live = b)]
    pub e5: usize,
    #[arena(shape = [m], dtype = e8m0, live = b)]
    pub s: usize,
}

#[test]
fn poison_makes_fp8_and_scales_nan() {
    let sized = Fp8Phases::try_from_config_with(&Levers::new(), 64).unwrap();
    let mut slab = HostSlab::new(sized).unwrap();
    slab.set_poison(true);
    let mut ph = slab.views();
    ph.a().first.fill(1);
    let b = ph.b();
    assert!(b.e4.iter().all(|v| v.is_nan()));
    assert!(b.e5.iter().all(|v| v.is_nan()));
    assert!(b.s.iter().all(|v| v.to_f64().is_nan()));
}

/// Buffers with their own alignment, in every kind of layout.
#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), align = 16)]
pub struct Tiles {
    #[arena(size = n)]
    pub head: usize,
    #[arena(size = n + 1, align = 1024)]
    pub tma: usize,
    #[arena(shape = [n], dtype = f32, align = 512)]
    pub smem: usize,
    #[arena(size = 3)]
    pub tail: usize,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), one_of, align = 16)]
pub struct TileChoice {
    #[arena(size = n)]
    pub small: usize,
    #[arena(size = 2 * n, align = 2048)]
    pub big: usize,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), phases(load, math), align = 16)]
pub struct AlignedPhases {
    #[arena(size = n, live = load)]
    pub staging: usize,
    #[arena(size = n, align = 4096, live = math)]
    pub swizzled: usize,
    #[arena(nested(n))]
    pub tiles: Region<Tiles>,
    #[arena(nested(n), live = math)]
    pub choice: Region<TileChoice>,
}

#[test]
fn field_alignment_holds_in_every_layout() {
    assert_eq!(Tiles::BUFFERS[1].align, 1024);
    assert_eq!(Tiles::BUFFERS[0].align, 1);
    assert_eq!(Tiles::REGION_ALIGN, 1024);
    assert_eq!(AlignedPhases::REGION_ALIGN, 4096);
    for n in (1..300).step_by(7).chain([1000, 4095, 4097, 65_537]) {
        let a = AlignedPhases::try_from_config_with(&Levers::new(), n).unwrap();
        for layout in [
            a.layout().unwrap(),
            a.layout_for(Carving {
                unplanned: true,
                ..Carving::default()
            })
            .unwrap(),
            a.layout_for(Carving::guard(3)).unwrap(),
        ] {
            let flat = layout.flatten();
            let at = |p: &str| flat.iter().find(|b| b.path == p).unwrap().offset;
            assert_eq!(at("swizzled") % 4096, 0, "n {n}");
            assert_eq!(at("tiles.tma") % 1024, 0, "n {n}");
            assert_eq!(at("tiles.smem") % 512, 0, "n {n}");
            assert_eq!(at("choice.big") % 2048, 0, "n {n}");
        }
        // The slab's base follows the largest alignment: the views' addresses.
        let mut slab = HostSlab::new(a).unwrap();
        let base = slab.as_bytes().as_ptr() as usize;
        assert_eq!(base % 4096, 0);
        let mut ph = slab.views();
        let m = ph.math();
        assert_eq!(m.swizzled.as_ptr() as usize % 4096, 0);
        assert_eq!(m.tiles.tma.as_ptr() as usize % 1024, 0);
        assert_eq!(m.tiles.smem.as_ptr() as usize % 512, 0);
    }
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(attn, mlp), align = 64)]
pub struct Graph {
    #[arena(shape = [m, 64], dtype = bf16)]
    pub x: usize,
    #[arena(shape = [m, 192], dtype = f8e4m3, live = attn)]
    pub qkv: usize,
    #[arena(shape = [m, 256], dtype = f32, live = mlp, align = 1024)]
    pub up: usize,
}

#[test]
fn every_step_views_start_at_the_reserved_addresses() {
    // A CUDA graph captured once replays with the same pointers: every
    // step's views, whatever its shapes, start where the reservation put
    // them.
    let sized = |m| Graph::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(sized(512)).unwrap();
    let (attn, mlp) = {
        let mut ph = slab.views();
        let a = ph.attn();
        let attn = (a.x.as_ptr() as usize, a.qkv.as_ptr() as usize);
        let m = ph.mlp();
        (attn, (m.x.as_ptr() as usize, m.up.as_ptr() as usize))
    };
    for m in [1, 2, 37, 100, 511, 512] {
        let step = sized(m);
        let mut ph = slab.views_for(&step).unwrap();
        let a = ph.attn();
        assert_eq!((a.x.as_ptr() as usize, a.qkv.as_ptr() as usize), attn);
        assert_eq!(a.qkv.len(), m * 192);
        let b = ph.mlp();
        assert_eq!((b.x.as_ptr() as usize, b.up.as_ptr() as usize), mlp);
        assert_eq!(b.up.len(), m * 256);
    }
}

//! Element types chosen at run time (`dtype = EXPR`): sizing in the dtype the
//! engine picked, typed views with no unsafe code, and the same behaviour as
//! a static dtype with phases, nested and one-of arenas, per-buffer `align`,
//! guards, poison and step views.

use arena::report::Report;
use arena::{
    Arena, CarveError, Carving, DType, DTypeError, DynBytes, HostSlab, Levers, Region, SizeError,
    StepError, bf16,
};

/// What an engine reads from config.json when it loads the model.
#[derive(Debug)]
pub struct Model {
    pub hidden: usize,
    pub dtype: DType,
}

impl Model {
    /// The activation dtype: the model's, with FP32 kept for FP32 models.
    pub fn act_dtype(&self) -> DType {
        self.dtype
    }
}

#[derive(Arena, Debug, Clone)]
#[arena(params(cfg: &Model, max_tokens: usize as M, act: DType), let h = cfg.hidden)]
#[arena(let act_out = cfg.act_dtype())]
pub struct Fwd {
    /// Hidden states in the activation dtype (a parameter).
    #[arena(shape = [M, h], dtype = act)]
    pub hidden: DynBytes,
    /// The model's own dtype, read from the config.
    #[arena(shape = [M, 3 * h], dtype = cfg.dtype)]
    pub qkv: DynBytes,
    /// Through a method, by a let.
    #[arena(shape = [M, h], dtype = act_out)]
    pub out: DynBytes,
    /// Bytes given by a formula: whole elements of the dtype.
    #[arena(size = 4 * M + 2, dtype = cfg.act_dtype())]
    pub odd: DynBytes,
    /// A constant dtype through `DType::...` is a dtype value too.
    #[arena(shape = [M], dtype = DType::F32)]
    pub norms: DynBytes,
    /// A static dtype beside them.
    #[arena(shape = [M], dtype = f32)]
    pub scales: usize,
}

fn fwd(m: usize, act: DType, model: DType) -> Result<Fwd, SizeError> {
    let cfg = Model {
        hidden: 64,
        dtype: model,
    };
    Fwd::try_from_config_with(&Levers::new(), &cfg, m, act)
}

#[test]
fn sizes_are_the_product_times_the_dtype_chosen_at_run_time() {
    let f = fwd(8, DType::F32, DType::BF16).unwrap();
    assert_eq!(f.hidden, DynBytes::new(8 * 64 * 4, DType::F32));
    assert_eq!(f.qkv, DynBytes::new(8 * 192 * 2, DType::BF16));
    assert_eq!(f.out, DynBytes::new(8 * 64 * 2, DType::BF16));
    assert_eq!(f.odd, DynBytes::new(34, DType::BF16));
    assert_eq!(f.norms, DynBytes::new(32, DType::F32));
    assert_eq!(f.scales, 32);
    assert_eq!((f.hidden.len(), f.odd.len()), (512, 17));
    // The same formulas in other dtypes.
    let g = fwd(8, DType::F8E4M3, DType::F16).unwrap();
    assert_eq!((g.hidden.bytes, g.qkv.bytes), (8 * 64, 8 * 192 * 2));
    assert_eq!(Fwd::BUFFERS[0].dtype, "act");
    assert!(Fwd::BUFFERS[0].dyn_dtype && !Fwd::BUFFERS[5].dyn_dtype);
    assert_eq!(Fwd::BUFFERS[1].formula, "cfg.dtype.bytes() * M * (3 * h)");
    assert_eq!(Fwd::BUFFERS[1].align, DType::MAX_ALIGN);
    assert_eq!(
        g.total_bytes(),
        g.sizes().iter().map(|(_, b)| b).sum::<usize>()
    );
}

#[test]
fn bytes_that_are_not_whole_elements_of_the_dtype_are_an_error() {
    // 34 bytes of f32.
    let e = fwd(8, DType::BF16, DType::F32).unwrap_err();
    assert_eq!(
        e,
        SizeError::NotWholeElements {
            arena: "Fwd",
            field: "odd",
            bytes: 34,
            elem_bytes: 4
        }
    );
}

#[test]
fn typed_views_where_the_type_is_the_dtype_an_error_naming_both_where_not() {
    let f = fwd(8, DType::BF16, DType::BF16).unwrap();
    let mut slab = HostSlab::new(f).unwrap();
    let v = slab.views();
    assert_eq!((v.hidden.dtype(), v.hidden.len()), (DType::BF16, 512));
    let e = v.qkv.typed::<f32>().unwrap_err();
    let DTypeError {
        arena,
        buffer,
        dtype,
        asked,
        size,
        ..
    } = e;
    assert_eq!(
        (arena, buffer, dtype, asked, size),
        ("Fwd", "qkv", DType::BF16, DType::F32, 4)
    );
    assert_eq!(
        e.to_string(),
        "`Fwd.qkv` holds bf16 elements, not f32: take it as `typed::<bf16>()`"
    );
    let hidden: &mut [bf16] = v.hidden.typed::<bf16>().unwrap();
    hidden.fill(bf16::ONE);
    let norms: &mut [f32] = v.norms.typed::<f32>().unwrap();
    norms.fill(2.0);
    assert_eq!(v.odd.len(), 17);
    assert_eq!(v.scales.len(), 8);
    // The slab stays usable after a refused type: the views again.
    let v = slab.views();
    let hidden = v.hidden.typed::<bf16>().unwrap();
    assert!(hidden.iter().all(|x| *x == bf16::ONE));
    assert_eq!(v.norms.typed::<f32>().unwrap()[7], 2.0);
}

#[test]
fn the_layout_and_the_report_say_the_dtype_the_arena_was_sized_with() {
    let f = fwd(8, DType::F8E4M3, DType::BF16).unwrap();
    let layout = f.layout().unwrap();
    let dtypes: Vec<_> = layout.placements.iter().map(|p| p.dtype).collect();
    assert_eq!(
        dtypes,
        [
            Some(DType::F8E4M3),
            Some(DType::BF16),
            Some(DType::BF16),
            Some(DType::BF16),
            Some(DType::F32),
            Some(DType::F32)
        ]
    );
    assert!(layout.placements.iter().all(|p| p.offset % 8 == 0));
    let r = Report::of(&f).unwrap();
    let shown: Vec<_> = r.rows.iter().map(|r| r.dtype.as_str()).collect();
    assert_eq!(shown, ["f8e4m3", "bf16", "bf16", "bf16", "f32", "f32"]);
    assert!(r.table().contains("f8e4m3"), "{}", r.table());
    assert!(!r.table().contains(" act "), "{}", r.table());
    let json = r.json();
    assert_eq!(json["buffers"][0]["dtype"], "f8e4m3", "{json}");
    assert!(
        r.csv().lines().nth(1).unwrap().contains("f8e4m3"),
        "{}",
        r.csv()
    );
}

/// A forward pass whose activations take the dtype picked at load time.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, act: DType), phases(embed, attn, mlp), align = 64)]
pub struct Pass {
    #[arena(shape = [m, 16], dtype = act)]
    pub x: DynBytes,
    #[arena(shape = [m, 48], dtype = act, live = attn)]
    pub qkv: DynBytes,
    #[arena(shape = [m, 64], dtype = act, live = mlp, zeroed)]
    pub up: DynBytes,
    #[arena(shape = [m], dtype = u32, live = attn..=mlp, align = 256)]
    pub ids: usize,
}

/// Its twin with the dtype fixed at compile time.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(embed, attn, mlp), align = 64)]
pub struct PassBf16 {
    #[arena(shape = [m, 16], dtype = bf16)]
    pub x: usize,
    #[arena(shape = [m, 48], dtype = bf16, live = attn)]
    pub qkv: usize,
    #[arena(shape = [m, 64], dtype = bf16, live = mlp, zeroed)]
    pub up: usize,
    #[arena(shape = [m], dtype = u32, live = attn..=mlp, align = 256)]
    pub ids: usize,
}

fn pass(m: usize, act: DType) -> Pass {
    Pass::try_from_config_with(&Levers::new(), m, act).unwrap()
}

#[test]
fn with_phases_a_runtime_dtype_plans_as_its_static_twin() {
    for m in [1, 7, 64, 300] {
        let a = pass(m, DType::BF16).layout().unwrap();
        let b = PassBf16::try_from_config_with(&Levers::new(), m)
            .unwrap()
            .layout()
            .unwrap();
        assert_eq!(
            (a.slab_bytes, &a.placements),
            (b.slab_bytes, &b.placements),
            "m = {m}"
        );
        assert_eq!(a.get("ids").unwrap().offset % 256, 0);
    }
}

/// The bits of the first element of each buffer live in a phase, poisoned.
fn poisoned(act: DType) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut slab = HostSlab::new(pass(4, act)).unwrap();
    slab.set_poison(true);
    let mut phases = slab.views();
    let x = phases.embed().x.into_bytes().to_vec();
    let attn = phases.attn();
    let qkv = attn.qkv.into_bytes().to_vec();
    let up = phases.mlp().up.into_bytes().to_vec();
    (x, qkv, up)
}

#[test]
fn poison_follows_the_dtype_chosen_at_run_time_and_zeroed_wins() {
    let (x, qkv, up) = poisoned(DType::BF16);
    let nan = |b: &[u8]| b.chunks(2).all(|c| c == [0xC0, 0x7F]);
    assert!(nan(&x) && nan(&qkv), "{:02x?}", &x[..4]);
    assert!(up.iter().all(|&b| b == 0), "a zeroed buffer is zero");
    let (x, _, _) = poisoned(DType::F32);
    assert!(
        x.chunks(4)
            .all(|c| f32::from_le_bytes(c.try_into().unwrap()).is_nan())
    );
    let (x, _, _) = poisoned(DType::F8E4M3);
    assert!(x.iter().all(|&b| b == 0x7F));
    for integer in [DType::I32, DType::U8, DType::F4E2M1x2] {
        let (x, _, _) = poisoned(integer);
        assert!(x.iter().all(|&b| b == 0xA5), "{integer}");
    }
}

#[test]
fn a_step_view_takes_the_steps_dtype_and_length_at_the_reserved_offset() {
    let reserved = pass(64, DType::BF16);
    let mut slab = HostSlab::new(reserved).unwrap();
    let x_at = slab.layout().get("x").unwrap().offset;
    let base = slab.as_bytes().as_ptr() as usize;
    // A smaller step in a wider dtype: 16 * 16 f32 fit 64 * 16 bf16.
    let step = pass(16, DType::F32);
    let mut phases = slab.views_for(&step).unwrap();
    let x = phases.embed().x;
    assert_eq!((x.dtype(), x.len()), (DType::F32, 256));
    let x = x.typed::<f32>().unwrap();
    assert_eq!(x.as_ptr() as usize - base, x_at);
    // A step past the reservation, by its dtype alone.
    let wide = pass(64, DType::F32);
    let Err(e) = slab.views_for(&wide) else {
        panic!("64 * 16 f32 do not fit 64 * 16 bf16");
    };
    assert_eq!(
        e,
        StepError::TooLarge {
            arena: "Pass",
            buffer: "x",
            step_bytes: 4096,
            reserved_bytes: 2048
        }
    );
}

#[test]
fn a_step_edited_to_half_an_element_is_an_error_not_a_panic() {
    let mut slab = HostSlab::new(pass(8, DType::BF16)).unwrap();
    let mut step = pass(8, DType::F32);
    step.x.bytes = 6;
    let Err(e) = slab.views_for(&step) else {
        panic!("6 bytes of f32 are refused");
    };
    assert_eq!(
        e,
        StepError::Carve(CarveError::Size(SizeError::NotWholeElements {
            arena: "Pass",
            field: "x",
            bytes: 6,
            elem_bytes: 4
        }))
    );
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R, act: DType), align = 1)]
pub struct Inner {
    #[arena(size = 3)]
    pub tag: usize,
    #[arena(shape = [R], dtype = act)]
    pub v: DynBytes,
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R, act: DType), one_of)]
pub struct Choice {
    #[arena(nested(R, act))]
    pub small: Region<Inner>,
    #[arena(shape = [2 * R], dtype = act)]
    pub flat: DynBytes,
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R, act: DType), align = 16)]
pub struct Outer {
    #[arena(nested(R, act))]
    pub inner: Region<Inner>,
    #[arena(nested(R, act))]
    pub choice: Region<Choice>,
    #[arena(shape = [R], dtype = act, zeroed)]
    pub tail: DynBytes,
}

#[test]
fn nested_and_one_of_regions_carry_the_dtype() {
    let o = Outer::try_from_config_with(&Levers::new(), 5, DType::F64).unwrap();
    // Inner: tag 3 bytes, then v at 8 (the largest dtype's alignment).
    let inner = o.inner.inner.layout().unwrap();
    assert_eq!(inner.offset_of("v"), Some(8));
    assert_eq!(inner.get("v").unwrap().dtype, Some(DType::F64));
    assert_eq!(o.inner.bytes, 8 + 40);
    assert_eq!(o.choice.inner.flat, DynBytes::new(80, DType::F64));
    let mut slab = HostSlab::new(o).unwrap();
    let mut v = slab.views();
    v.inner.v.typed::<f64>().unwrap().fill(1.5);
    {
        let flat = v.choice.flat();
        assert_eq!(flat.dtype(), DType::F64);
        flat.typed::<f64>().unwrap()[0] = 2.5;
    }
    let small = v.choice.small();
    assert_eq!(small.v.typed::<f64>().unwrap().len(), 5);
    assert_eq!(small.tag.len(), 3);
    assert_eq!(v.tail.dtype(), DType::F64);
    let tail = v.tail.typed::<f64>().unwrap();
    assert!(tail.iter().all(|t| *t == 0.0));
}

#[test]
fn guards_follow_a_runtime_dtype_buffer() {
    let f = fwd(4, DType::BF16, DType::BF16).unwrap();
    let mut slab = HostSlab::with_carving(f, Carving::guard(8)).unwrap();
    let end = slab.layout().get("qkv").unwrap().end();
    {
        let v = slab.views();
        v.qkv.typed::<bf16>().unwrap().fill(bf16::ONE);
    }
    assert_eq!(slab.check_guards(), Ok(()));
    slab.as_bytes_mut()[end + 1] = 0;
    assert_eq!(slab.check_guards().unwrap_err().overrun, ["qkv"]);
}

/// A user element type beside a runtime dtype and a per-buffer alignment.
#[derive(Debug, Clone, Copy, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]
#[bytemuck(crate = "arena::bytemuck")]
#[repr(C)]
pub struct Pair {
    pub lo: u16,
    pub hi: u16,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, act: DType), align = 16)]
pub struct Aligned {
    #[arena(size = 3)]
    pub head: usize,
    #[arena(shape = [m], dtype = act, align = 1024)]
    pub x: DynBytes,
    #[arena(shape = [m], dtype = crate::dyn_dtype::Pair)]
    pub pairs: usize,
    #[arena(nested(m, act))]
    pub inner: Region<Inner>,
}

#[test]
fn per_buffer_alignment_and_the_dtypes_a_layout_reports() {
    for act in [DType::U8, DType::BF16, DType::F64] {
        let a = Aligned::try_from_config_with(&Levers::new(), 5, act).unwrap();
        let l = a.layout().unwrap();
        assert_eq!(l.offset_of("x"), Some(1024), "{act}");
        let dtypes: Vec<_> = l.placements.iter().map(|p| p.dtype).collect();
        assert_eq!(dtypes, [Some(DType::U8), Some(act), None, None]);
        assert_eq!(a.field_dtype(1), Some(act));
        assert_eq!(Aligned::REGION_ALIGN, 1024);
        let mut slab = HostSlab::new(a).unwrap();
        let v = slab.views();
        assert_eq!(v.x.into_bytes().as_ptr() as usize % 1024, 0);
    }
}

/// The activation dtype of this build.
pub const ACT: DType = DType::F16;

fn parse_dtype(text: &str) -> Result<DType, arena::UnknownDType> {
    text.parse()
}

/// Other spellings of a dtype chosen at run time.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, fp8: bool, act: DType))]
#[arena(lever(DEMO_ACT_DTYPE, parse = parse_dtype))]
pub struct Spellings {
    /// A constant by path, on a `DynBytes` field.
    #[arena(shape = [m], dtype = crate::dyn_dtype::ACT)]
    pub by_const: DynBytes,
    /// A condition choosing between dtypes.
    #[arena(shape = [m], dtype = if fp8 { DType::F8E4M3 } else { act })]
    pub chosen: DynBytes,
    /// A lever's parsed value, with a default.
    #[arena(shape = [m], dtype = DEMO_ACT_DTYPE.unwrap_or(act))]
    pub from_env: DynBytes,
    /// Raw identifiers, gates and trims as for any buffer.
    #[arena(shape = [m], dtype = act, when = !fp8)]
    pub r#type: DynBytes,
    /// Another formula reads a runtime-dtype buffer's bytes.
    #[arena(size = 2 * by_const)]
    pub copy: usize,
    /// And a value field.
    #[arena(value = chosen + from_env)]
    pub both: usize,
}

#[test]
fn a_dtype_is_any_expression_of_type_dtype() {
    let s = Spellings::try_from_config_with(&Levers::new(), 4, true, DType::BF16).unwrap();
    assert_eq!(s.by_const, DynBytes::new(8, DType::F16));
    assert_eq!(s.chosen, DynBytes::new(4, DType::F8E4M3));
    assert_eq!(s.from_env, DynBytes::new(8, DType::BF16));
    assert_eq!(s.r#type, DynBytes::new(0, DType::BF16), "off: 0 bytes");
    assert_eq!((s.copy, s.both), (16, 12));
    let levers = Levers::new().with("DEMO_ACT_DTYPE", "float32");
    let s = Spellings::try_from_config_with(&levers, 4, false, DType::BF16).unwrap();
    assert_eq!(s.from_env, DynBytes::new(16, DType::F32));
    assert_eq!(s.chosen, DynBytes::new(8, DType::BF16));
    assert_eq!(s.r#type, DynBytes::new(8, DType::BF16));
    assert_eq!(Spellings::BUFFERS[3].name, "type");
    let bad = Levers::new().with("DEMO_ACT_DTYPE", "fp7");
    let e = Spellings::try_from_config_with(&bad, 4, false, DType::BF16).unwrap_err();
    assert!(e.to_string().contains("DEMO_ACT_DTYPE"), "{e}");
    let mut slab = HostSlab::new(s).unwrap();
    let v = slab.views();
    assert_eq!(v.r#type.typed::<bf16>().unwrap().len(), 4);
}

/// A `DType` parameter compares with a `DType` path (and another such
/// parameter) in a condition, as `cfg.dtype == DType::F32` does.
#[derive(Arena, Debug)]
#[arena(params(act: DType, out: DType, n: usize))]
struct ByDType {
    #[arena(size = "4 * n", unless = act == DType::F32)]
    upcast: usize,
    #[arena(size = 4 * n, when = act != DType::F32)]
    also: usize,
    #[arena(size = "8 * n", when = act == out)]
    same: usize,
}

#[test]
fn a_dtype_parameter_compares_with_a_dtype_path() {
    let l = Levers::new();
    let f32 = ByDType::try_from_config_with(&l, DType::F32, DType::F32, 3).unwrap();
    assert_eq!((f32.upcast, f32.also, f32.same), (0, 0, 24));
    let bf16 = ByDType::try_from_config_with(&l, DType::BF16, DType::F32, 3).unwrap();
    assert_eq!((bf16.upcast, bf16.also, bf16.same), (12, 12, 0));
}

/// Three bytes that claim to be one `u8`: a wrong user `impl Elem`.
#[derive(Clone, Copy, Debug, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]
#[bytemuck(crate = "arena::bytemuck")]
#[repr(C)]
struct Triple([u8; 3]);

impl arena::Elem for Triple {
    const DTYPE: DType = DType::U8;
}

/// Eight bytes that claim to be one `f32`.
#[derive(Clone, Copy, Debug, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]
#[bytemuck(crate = "arena::bytemuck")]
#[repr(C)]
struct Wide(u64);

impl arena::Elem for Wide {
    const DTYPE: DType = DType::F32;
}

#[derive(Arena, Debug)]
#[arena(params(act: DType, n: usize))]
struct OneDyn {
    #[arena(shape = [n], dtype = act)]
    x: DynBytes,
}

#[test]
fn a_wrong_user_elem_is_an_error_not_a_panic() {
    for (act, n) in [
        (DType::U8, 10),
        (DType::U8, 9),
        (DType::F32, 4),
        (DType::F32, 3),
    ] {
        let a = OneDyn::try_from_config_with(&Levers::new(), act, n).unwrap();
        let mut slab = HostSlab::new(a).unwrap();
        let e = match act {
            DType::U8 => slab.views().x.typed::<Triple>().map(drop).unwrap_err(),
            _ => slab.views().x.typed::<Wide>().map(drop).unwrap_err(),
        };
        assert_eq!((e.dtype, e.asked), (act, act));
        assert!(e.to_string().contains("its `impl Elem` is wrong"), "{e}");
        // The slab stays usable.
        assert_eq!(slab.views().x.len(), n);
    }
    let a = OneDyn::try_from_config_with(&Levers::new(), DType::U8, 9).unwrap();
    let mut slab = HostSlab::new(a).unwrap();
    let e = slab.views().x.typed::<Triple>().map(drop).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`OneDyn.x`: the type asked for says it is u8 (`Elem::DTYPE`) but takes 3 bytes where u8 takes 1: its `impl Elem` is wrong"
    );
}

/// A nested arena whose buffer's dtype is chosen at run time, and a one-of
/// region of a float and a byte alternative, in a phased parent.
#[derive(Arena, Debug)]
#[arena(params(act: DType, n: usize))]
struct DynInner {
    #[arena(shape = [n], dtype = act)]
    x: DynBytes,
    #[arena(shape = [n], dtype = u32)]
    ids: usize,
}

#[derive(Arena, Debug)]
#[arena(params(n: usize), one_of)]
struct FloatOrBytes {
    #[arena(shape = [n], dtype = f32)]
    floats: usize,
    #[arena(shape = [4 * n], dtype = u8)]
    bytes: usize,
    #[arena(shape = [2 * n], dtype = bf16)]
    halves: usize,
}

#[derive(Arena, Debug)]
#[arena(params(act: DType, n: usize), phases(a, b))]
struct PoisonNest {
    #[arena(shape = [n], dtype = f32, live = a)]
    early: usize,
    #[arena(nested(act, n), live = b)]
    inner: Region<DynInner>,
    #[arena(nested(n), live = b)]
    either: Region<FloatOrBytes>,
}

#[test]
fn poison_in_a_nested_region_follows_the_steps_dtype() {
    let l = Levers::new();
    // Reserved in f64, stepped in bf16: the step's view reads NaN, every element.
    let reserved = PoisonNest::try_from_config_with(&l, DType::F64, 16).unwrap();
    let step = PoisonNest::try_from_config_with(&l, DType::BF16, 16).unwrap();
    {
        let mut slab = HostSlab::new(reserved).unwrap();
        slab.set_poison(true);
        let mut phases = slab.views_for(&step).unwrap();
        let b = phases.b();
        let x = b.inner.x.typed::<bf16>().unwrap();
        assert_eq!(x.len(), 16);
        assert!(x.iter().all(|v| v.is_nan()), "{x:?}");
        assert!(b.inner.ids.iter().all(|&v| v == 0xA5A5_A5A5));
    }
    // Stepped in f32 over an f32 reservation, and in f64 over f64.
    for act in [DType::F32, DType::F64, DType::F16] {
        let a = PoisonNest::try_from_config_with(&l, act, 8).unwrap();
        let mut slab = HostSlab::new(a).unwrap();
        slab.set_poison(true);
        let mut phases = slab.views();
        let b = phases.b();
        let nan = match act {
            DType::F32 => b.inner.x.typed::<f32>().unwrap().iter().all(|v| v.is_nan()),
            DType::F64 => b.inner.x.typed::<f64>().unwrap().iter().all(|v| v.is_nan()),
            _ => b
                .inner
                .x
                .typed::<arena::f16>()
                .unwrap()
                .iter()
                .all(|v| v.is_nan()),
        };
        assert!(nan, "{act}");
    }
}

#[test]
fn poison_in_a_one_of_region_is_nan_in_every_float_alternative() {
    let a = PoisonNest::try_from_config_with(&Levers::new(), DType::F32, 8).unwrap();
    let mut slab = HostSlab::new(a).unwrap();
    slab.set_poison(true);
    let mut phases = slab.views();
    let mut b = phases.b();
    assert!(b.either.floats().iter().all(|v| v.is_nan()));
    assert!(b.either.halves().iter().all(|v| v.is_nan()));
    assert!(b.either.bytes().iter().all(|&v| v == 0xFF));
}

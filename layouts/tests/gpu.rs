//! GPU checks (feature `cuda`; `scripts/gpu-check.sh` runs them). Without a
//! driver or a device every test prints why it skipped and passes.
#![cfg(feature = "cuda")]

use std::sync::Arc;
use std::time::Instant;

use arena::cuda::cudarc::driver::{
    CudaStream, CudaViewMut, DeviceRepr, LaunchConfig, PushKernelArg, result,
};
use arena::cuda::cudarc::nvrtc::{Ptx, compile_ptx};
use arena::cuda::{self, DeviceSlab};
use arena::{Arena, Layout, Levers};
use layouts::{BufferSizes, ModelConfig, Target};

use arena_testkit::fixtures::qwen3_next;

/// The device, or why not. Each test calls it first and returns where it
/// gets none (kept per test, not in a harness: every test must skip on its
/// own, with its own message, where no GPU is).
fn device() -> Option<(
    Arc<arena::cuda::cudarc::driver::CudaContext>,
    Arc<CudaStream>,
)> {
    match cuda::open(0) {
        Ok(pair) => Some(pair),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// The PTX of `src`, compiled with NVRTC; `None` (the test skips, saying
/// why) where the NVRTC library is absent, as on a driver-only machine:
/// cudarc panics when it calls a library that is not there.
fn ptx(src: &str) -> Option<Ptx> {
    // SAFETY: loads the library by name and unloads it; no symbol is called.
    if !unsafe { arena::cuda::cudarc::nvrtc::sys::is_culib_present() } {
        eprintln!("skipped: no NVRTC library (libnvrtc) here; this test compiles a kernel");
        return None;
    }
    Some(
        compile_ptx(src)
            .unwrap_or_else(|e| panic!("NVRTC could not compile the test kernel: {e:?}")),
    )
}

fn byte_of(name: &str) -> u8 {
    let i = BufferSizes::BUFFERS
        .iter()
        .position(|b| b.name == name)
        .unwrap();
    u8::try_from(i + 1).unwrap()
}

fn fill<T: bytemuck::Pod + DeviceRepr>(
    stream: &Arc<CudaStream>,
    view: &mut CudaViewMut<T>,
    byte: u8,
) {
    if view.is_empty() {
        return;
    }
    let mut host = vec![T::zeroed(); view.len()];
    bytemuck::cast_slice_mut::<T, u8>(&mut host).fill(byte);
    stream.memcpy_htod(&host, view).unwrap();
}

/// The slab as it must read back: each leaf buffer its field's byte, the rest 0.
/// In a one-of region only the alternative named by `pick` is painted.
fn paint(
    layout: &Layout,
    base: usize,
    byte: Option<u8>,
    pick: &dyn Fn(&str) -> &'static str,
    out: &mut [u8],
) {
    for p in &layout.placements {
        let b = byte.unwrap_or_else(|| byte_of(p.name));
        match &p.nested {
            None => out[base + p.offset..base + p.end()].fill(b),
            Some(inner) if inner.one_of => {
                let choice = pick(p.name);
                let alt = inner.get(choice).unwrap();
                match &alt.nested {
                    Some(l) => paint(l, base + p.offset, Some(b), pick, out),
                    None => out[base + p.offset..base + p.offset + alt.bytes].fill(b),
                }
            }
            Some(inner) => paint(inner, base + p.offset, Some(b), pick, out),
        }
    }
}

macro_rules! fill_all {
    ($s:expr, $v:expr, [$($f:ident),* $(,)?]) => {
        $( fill($s, &mut $v.$f, byte_of(stringify!($f))); )*
    };
}

#[test]
fn every_byte_belongs_to_one_buffer() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sizes = qwen3_next(8192);
    let mut slab = DeviceSlab::new(sizes, &stream).unwrap();
    let layout = slab.layout().clone();
    {
        let mut v = slab.views();
        fill_all!(
            &stream,
            v,
            [
                hidden_states,
                residual,
                norm_output,
                qkv_output,
                attn_output,
                gate_logits,
                gate_logits_f32,
                moe_router_in_f32,
                moe_output,
                logits,
                ssm_qkvz,
                ssm_ba,
                ssm_deinterleaved,
                ssm_gates,
                ssm_conv_out_f32,
                expert_gate_out,
                expert_up_out,
                expert_down_out,
                splitk_workspace,
                o_latent,
                norm_unit_w,
                hc_streams,
                hc_post,
                hc_comb,
                token_ids,
                ffn_act_q8,
                ffn_act_a,
                ffn_act_scale,
                ffn_act_scale_kmajor,
                ffn_gate_up_fused,
                fp8_act,
                fp8_act_scale,
                fp8_act_scale_kmajor,
                lora_xa,
                lora_delta,
                lora_hact,
                lora_seq_slot,
                q2_dequant_scratch,
                q2_act_q8,
                ssm_rowwise_w_bf16,
            ]
        );
        let b = byte_of("scratch");
        let mut p = v.scratch.prefill();
        fill(&stream, &mut p.topk_ids, b);
        fill(&stream, &mut p.topk_weights, b);
        fill(&stream, &mut p.positions, b);
        fill(&stream, &mut p.slots, b);
        fill(&stream, &mut p.block_table, b);
        fill(&stream, &mut p.seq_len, b);
        let b = byte_of("gdn_fla_scratch");
        let g = &mut v.gdn_fla_scratch;
        fill(&stream, &mut g.w, b);
        fill(&stream, &mut g.u, b);
        fill(&stream, &mut g.s, b);
        fill(&stream, &mut g.uc, b);
        fill(&stream, &mut g.gc, b);
        let b = byte_of("ssd_scratch");
        fill(&stream, &mut v.ssd_scratch.dt, b);
        fill(&stream, &mut v.ssd_scratch.d_a_cumsum, b);
        fill(&stream, &mut v.ssd_scratch.cb, b);
        let b = byte_of("hc_lowrank_scratch");
        let mut split = v.hc_lowrank_scratch.split();
        fill(&stream, &mut split.normed, b);
        fill(&stream, &mut split.low, b);
        let b = byte_of("qsa_select_scratch");
        let q = &mut v.qsa_select_scratch;
        fill(&stream, &mut q.qk, b);
        fill(&stream, &mut q.q_post, b);
        fill(&stream, &mut q.scores, b);
        fill(&stream, &mut q.lists, b);
        let b = byte_of("moe_fp8_scratch");
        let f = &mut v.moe_fp8_scratch;
        fill(&stream, &mut f.activation, b);
        fill(&stream, &mut f.scales, b);
        fill(&stream, &mut f.worklist, b);
        fill(&stream, &mut f.total_tiles, b);
    }
    let got = stream.clone_dtoh(slab.slab()).unwrap();
    let mut want = vec![0u8; got.len()];
    let pick = |region: &str| match region {
        "scratch" => "prefill",
        _ => "split",
    };
    paint(&layout, 0, None, &pick, &mut want);
    let bad = got.iter().zip(&want).position(|(g, w)| g != w);
    assert!(
        bad.is_none(),
        "byte {} reads {} but belongs to {}",
        bad.unwrap(),
        got[bad.unwrap()],
        want[bad.unwrap()]
    );
    println!(
        "gpu: {} bytes, {} buffers, every byte in exactly one buffer, padding untouched",
        got.len(),
        layout.placements.len()
    );
}

const KERNEL: &str = r#"
extern "C" __global__ void write_two(float* gates, unsigned int* ids, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        gates[i] = 0.5f * (float)i;
        ids[i] = 3u * (unsigned int)i + 1u;
    }
}
"#;

#[test]
fn one_kernel_writes_two_typed_views() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let mut slab = DeviceSlab::new(qwen3_next(8192), &stream).unwrap();
    let Some(ptx) = ptx(KERNEL) else {
        return;
    };
    let module = ctx.load_module(ptx).unwrap();
    let f = module.load_function("write_two").unwrap();
    let mut v = slab.views();
    let n = v.ssm_gates.len().min(v.token_ids.len());
    let n_arg = i32::try_from(n).unwrap();
    let mut launch = stream.launch_builder(&f);
    launch.arg(&mut v.ssm_gates);
    launch.arg(&mut v.token_ids);
    launch.arg(&n_arg);
    // SAFETY: the kernel writes n elements of each view, both at least n long.
    unsafe { launch.launch(LaunchConfig::for_num_elems(u32::try_from(n).unwrap())) }.unwrap();
    let gates: Vec<f32> = stream.clone_dtoh(&v.ssm_gates).unwrap();
    let ids: Vec<u32> = stream.clone_dtoh(&v.token_ids).unwrap();
    for i in 0..n {
        assert_eq!(gates[i], 0.5 * i as f32);
        assert_eq!(ids[i], 3 * i as u32 + 1);
    }
    println!("gpu: one kernel wrote {n} f32 and {n} u32 through two arena views");
}

/// Two disjoint views of one slab written on two streams, with the
/// context's event tracking on (cudarc's default: the two uses wait on each
/// other through the slab's one event pair) and off (the caller orders:
/// the second stream joins the slab's after its zero fill): both results
/// read back whole either way ([`DeviceSlab`]'s "Streams and events").
#[test]
fn two_streams_use_two_disjoint_views() {
    if device().is_none() {
        return;
    }
    for tracking in [true, false] {
        // A context object of its own: the tracking flag is the object's, so
        // the other tests' allocations keep the default.
        let ctx = arena::cuda::cudarc::driver::CudaContext::new(0).unwrap();
        if !tracking {
            // SAFETY: this test orders the slab's uses itself: the second
            // stream joins the first after the allocation, both are
            // synchronized before the read-back and before the slab drops.
            unsafe { ctx.disable_event_tracking() };
        }
        let first = ctx.default_stream();
        let second = ctx.new_stream().unwrap();
        let mut slab = DeviceSlab::new(qwen3_next(8192), &first).unwrap();
        second.join(&first).unwrap();
        let mut v = slab.views();
        let gates: Vec<f32> = (0..v.ssm_gates.len()).map(|i| 0.25 * i as f32).collect();
        let ids: Vec<u32> = (0..v.token_ids.len()).map(|i| 7 * i as u32 + 3).collect();
        first.memcpy_htod(&gates, &mut v.ssm_gates).unwrap();
        second.memcpy_htod(&ids, &mut v.token_ids).unwrap();
        first.synchronize().unwrap();
        second.synchronize().unwrap();
        assert_eq!(
            first.clone_dtoh(&v.ssm_gates).unwrap(),
            gates,
            "tracking {tracking}"
        );
        assert_eq!(
            second.clone_dtoh(&v.token_ids).unwrap(),
            ids,
            "tracking {tracking}"
        );
        first.synchronize().unwrap();
        second.synchronize().unwrap();
        println!(
            "gpu: two streams wrote {} f32 and {} u32 through two views of one slab, event tracking {}",
            gates.len(),
            ids.len(),
            if tracking { "on" } else { "off" }
        );
    }
}

const OVERRUN: &str = r#"
extern "C" __global__ void past_end(unsigned int* ids, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) { ids[n] = 7u; }
}
"#;

#[test]
fn guard_catches_a_kernel_writing_past_a_view() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let mut slab = DeviceSlab::with_guard(qwen3_next(128), &stream, 256).unwrap();
    assert!(slab.check_guards().unwrap().is_ok());
    let Some(ptx) = ptx(OVERRUN) else {
        return;
    };
    let module = ctx.load_module(ptx).unwrap();
    let f = module.load_function("past_end").unwrap();
    let mut v = slab.views();
    let n = i32::try_from(v.token_ids.len()).unwrap();
    let mut launch = stream.launch_builder(&f);
    launch.arg(&mut v.token_ids);
    launch.arg(&n);
    // SAFETY: deliberately one element past the view, inside the guard gap.
    unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }.unwrap();
    let err = slab.check_guards().unwrap().unwrap_err();
    assert_eq!(err.overrun, ["token_ids"]);
    println!("gpu: {err}");
}

/// One allocation plus carving against one allocation per buffer (spec §9),
/// with the bytes each holds according to the driver.
#[test]
fn one_allocation_against_46() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sizes = qwen3_next(8192);
    let list: Vec<usize> = sizes
        .sizes()
        .into_iter()
        .take(46)
        .map(|(_, b)| b)
        .filter(|&b| b > 0)
        .collect();
    stream.synchronize().unwrap();
    let (free0, _) = result::mem_get_info().unwrap();
    let reps = 20;
    let mut one = Vec::new();
    let mut free_one = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let mut slab = DeviceSlab::new(sizes.clone(), &stream).unwrap();
        let v = slab.views();
        std::hint::black_box(&v.hidden_states);
        stream.synchronize().unwrap();
        one.push(t.elapsed().as_secs_f64());
        free_one = free0.saturating_sub(result::mem_get_info().unwrap().0);
    }
    let mut many = Vec::new();
    let mut free_many = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let bufs: Vec<_> = list
            .iter()
            .map(|&b| stream.alloc_zeros::<u8>(b).unwrap())
            .collect();
        stream.synchronize().unwrap();
        many.push(t.elapsed().as_secs_f64());
        free_many = free0.saturating_sub(result::mem_get_info().unwrap().0);
        drop(bufs);
    }
    one.sort_by(f64::total_cmp);
    many.sort_by(f64::total_cmp);
    let (m1, m2) = (one[reps / 2], many[reps / 2]);
    println!(
        "gpu-bench: one allocation + carving {:.3} ms, {} separate allocations {:.3} ms, ratio {:.2}; driver bytes held {} vs {} (total_bytes {}, slab {})",
        m1 * 1e3,
        list.len(),
        m2 * 1e3,
        m2 / m1,
        free_one,
        free_many,
        sizes.total_bytes(),
        sizes.slab_bytes().unwrap()
    );
}

const FILL: &str = r#"
extern "C" __global__ void fill_rows(unsigned short* p, int rows, int cols, unsigned short v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) { p[i] = v; }
}
"#;

/// A step's views on the device: a kernel launched with the step's shape
/// (from `try_step_with`) writes exactly the step's rows of the reserved
/// buffer; the rest of the reservation and the guards are untouched; a step
/// past the reservation is an error, and the slab stays usable.
#[test]
fn step_views_on_the_device() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let mut slab = DeviceSlab::with_guard(qwen3_next(8192), &stream, 256).unwrap();
    let Some(ptx) = ptx(FILL) else {
        return;
    };
    let f = ctx
        .load_module(ptx)
        .unwrap()
        .load_function("fill_rows")
        .unwrap();
    let (step, shapes) = BufferSizes::try_step_with(
        &Levers::new(),
        &ModelConfig::qwen3_next_80b_nvfp4(),
        37,
        32_768,
        16,
        64,
        &Target::DEFAULT,
    )
    .unwrap();
    let [rows, cols] = shapes.hidden_states;
    let reserved = slab.layout().get("hidden_states").unwrap().clone();
    {
        let mut v = slab.views_for(&step).unwrap();
        assert_eq!(v.hidden_states.len(), rows * cols);
        let (r, c) = (i32::try_from(rows).unwrap(), i32::try_from(cols).unwrap());
        let value: u16 = 0x3f80; // bf16 1.0
        let mut launch = stream.launch_builder(&f);
        launch.arg(&mut v.hidden_states);
        launch.arg(&r);
        launch.arg(&c);
        launch.arg(&value);
        // SAFETY: the kernel writes rows * cols elements, the view's length.
        unsafe {
            launch.launch(LaunchConfig::for_num_elems(
                u32::try_from(rows * cols).unwrap(),
            ))
        }
        .unwrap();
    }
    let bytes: Vec<u8> = stream.clone_dtoh(slab.slab()).unwrap();
    let region = &bytes[reserved.offset..reserved.end()];
    let written = 2 * rows * cols;
    assert!(region[..written].chunks(2).all(|b| b == [0x80, 0x3f]));
    assert!(
        region[written..].iter().all(|&b| b == 0),
        "the rest of the reservation is untouched"
    );
    assert!(slab.check_guards().unwrap().is_ok());
    let too_big = qwen3_next(8193);
    assert!(slab.views_for(&too_big).is_err());
    assert_eq!(slab.views().hidden_states.len(), 8192 * 2048);
    println!(
        "gpu: a step of {rows} tokens wrote {written} bytes into a {}-byte reservation; guards intact",
        reserved.bytes
    );
}

/// A phased arena on the device: `t1` and `t2` never live together.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b, c))]
pub struct Phased {
    #[arena(shape = [n], dtype = u32)]
    pub keep: usize,
    #[arena(shape = [n], dtype = u32, live = a)]
    pub t1: usize,
    #[arena(shape = [n], dtype = u32, live = b)]
    pub t2: usize,
    #[arena(shape = [n], dtype = u32, live = c, zeroed)]
    pub t3: usize,
}

const FILL_U32: &str = r#"
extern "C" __global__ void fill_u32(unsigned int* p, int n, unsigned int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { p[i] = v; }
}
"#;

/// One kernel per phase writing its buffers; the buffer live across phases
/// keeps its contents while the others share bytes; poison and zeroing on
/// the device at a buffer's first phase.
#[test]
fn phases_on_the_device() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let Some(ptx) = ptx(FILL_U32) else {
        return;
    };
    let f = ctx
        .load_module(ptx)
        .unwrap()
        .load_function("fill_u32")
        .unwrap();
    let n = 100_000usize;
    let sized = Phased::try_from_config_with(&Levers::new(), n).unwrap();
    let layout = sized.layout().unwrap();
    assert_eq!(
        layout.offset_of("t1"),
        layout.offset_of("t2"),
        "t1 and t2 share bytes"
    );
    let fill = |view: &mut CudaViewMut<u32>, v: u32| {
        let len = i32::try_from(view.len()).unwrap();
        let mut launch = stream.launch_builder(&f);
        launch.arg(view);
        launch.arg(&len);
        launch.arg(&v);
        // SAFETY: the kernel writes `len` elements, the view's length.
        unsafe { launch.launch(LaunchConfig::for_num_elems(u32::try_from(len).unwrap())) }.unwrap();
    };
    let mut slab = DeviceSlab::with_carving(
        sized,
        &stream,
        arena::Carving {
            poison: true,
            ..arena::Carving::default()
        },
    )
    .unwrap();
    let mut phases = slab.views();
    let mut a = phases.a();
    fill(&mut a.keep, 1);
    fill(&mut a.t1, 2);
    let mut b = phases.b();
    let t2: Vec<u32> = stream.clone_dtoh(&b.t2).unwrap();
    assert!(
        t2.iter().all(|&v| v == 0xA5A5_A5A5),
        "poisoned at its first phase"
    );
    fill(&mut b.t2, 3);
    let c = phases.c();
    let keep: Vec<u32> = stream.clone_dtoh(&c.keep).unwrap();
    assert!(keep.iter().all(|&v| v == 1), "live across phases: kept");
    let t3: Vec<u32> = stream.clone_dtoh(&c.t3).unwrap();
    assert!(t3.iter().all(|&v| v == 0), "zeroed at its first phase");
    println!(
        "gpu: phased arena, {} planned bytes for {} unplanned; a buffer live in every phase kept its contents",
        layout.slab_bytes,
        slab.arena().unplanned_bytes().unwrap()
    );
}

/// A nested arena with a `zeroed` byte buffer and a float buffer (#20).
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize), align = 16)]
pub struct ZeroedInner {
    #[arena(size = m, zeroed)]
    pub z: usize,
    #[arena(shape = [m], dtype = f32)]
    pub f: usize,
}

/// `w` (phase a) and the nested `n` (phase b) share bytes.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b), align = 16)]
pub struct NestedPhases {
    #[arena(size = 8 * m, live = a)]
    pub w: usize,
    #[arena(nested(m), live = b)]
    pub n: arena::Region<ZeroedInner>,
}

/// A nested `zeroed` buffer is zero, and a nested float NaN in poison mode,
/// at its field's first phase, on the device as on the host.
#[test]
fn nested_zeroing_and_poison_on_the_device() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sized = NestedPhases::try_from_config_with(&Levers::new(), 4096).unwrap();
    for poison in [false, true] {
        let carving = arena::Carving {
            poison,
            ..arena::Carving::default()
        };
        let mut slab = DeviceSlab::with_carving(sized.clone(), &stream, carving).unwrap();
        let mut phases = slab.views();
        fill(&stream, &mut phases.a().w, 3);
        let b = phases.b();
        let z: Vec<u8> = stream.clone_dtoh(&b.n.z).unwrap();
        assert!(z.iter().all(|&x| x == 0), "poison {poison}: nested zeroed");
        if poison {
            let f: Vec<f32> = stream.clone_dtoh(&b.n.f).unwrap();
            assert!(f.iter().all(|x| x.is_nan()), "nested f32 poisoned to NaN");
        }
    }
    println!("gpu: a nested zeroed buffer is zero and a nested f32 NaN at its first phase");
}

/// `big` (phase a) and `small` (phase b) planned at one offset.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b), align = 16)]
pub struct SharedGuard {
    #[arena(shape = [10 * n], dtype = u32, live = a)]
    pub big: usize,
    #[arena(shape = [n], dtype = u32, live = b)]
    pub small: usize,
}

/// With phases, a kernel writing past a buffer into bytes another phase's
/// buffer holds is reported, naming the buffer.
#[test]
fn phased_guard_overrun_on_the_device() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let sized = SharedGuard::try_from_config_with(&Levers::new(), 1000).unwrap();
    let mut slab = DeviceSlab::with_guard(sized, &stream, 16).unwrap();
    let l = slab.layout().clone();
    assert_eq!(l.offset_of("big"), l.offset_of("small"));
    let Some(ptx) = ptx(OVERRUN) else {
        return;
    };
    let module = ctx.load_module(ptx).unwrap();
    let f = module.load_function("past_end").unwrap();
    {
        let mut phases = slab.views();
        fill(&stream, &mut phases.a().big, 1);
        let mut b = phases.b();
        let n = i32::try_from(b.small.len()).unwrap();
        let mut launch = stream.launch_builder(&f);
        launch.arg(&mut b.small);
        launch.arg(&n);
        // SAFETY: deliberately one element past the view, inside its guard band.
        unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }.unwrap();
    }
    let err = slab.check_guards().unwrap().unwrap_err();
    assert_eq!(err.overrun, ["small"]);
    println!("gpu: with phases, {err}");
}

#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), one_of)]
pub struct EitherOr {
    #[arena(size = n)]
    pub left: usize,
    #[arena(size = 2 * n)]
    pub right: usize,
}

#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b))]
pub struct TwoFloats {
    #[arena(shape = [m], dtype = f32, live = a)]
    pub p: usize,
    #[arena(shape = [m], dtype = f32, live = b)]
    pub q: usize,
}

#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize))]
pub struct Enormous {
    #[arena(size = n)]
    pub buf: usize,
}

/// The errors of #20 on the device: a guard on a one-of arena, a size that
/// is not whole elements, a slab the driver cannot allocate.
#[test]
fn bad_sizes_are_errors_on_the_device() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let either = EitherOr::try_from_config_with(&Levers::new(), 64).unwrap();
    let e = DeviceSlab::with_guard(either, &stream, 16).err().unwrap();
    assert!(
        matches!(
            e,
            cuda::DeviceError::Carve(arena::CarveError::GuardOnOneOf { .. })
        ),
        "{e}"
    );
    let floats = |m| TwoFloats::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = DeviceSlab::new(floats(8), &stream).unwrap();
    let mut step = floats(4);
    step.q = 6;
    let e = slab.views_for(&step).err().unwrap();
    assert!(
        matches!(
            e,
            arena::StepError::Carve(arena::CarveError::Size(
                arena::SizeError::NotWholeElements { field: "q", .. }
            ))
        ),
        "{e}"
    );
    for n in [1usize << 50, usize::MAX - 100] {
        let huge = Enormous::try_from_config_with(&Levers::new(), n).unwrap();
        let e = DeviceSlab::new(huge, &stream).err().unwrap();
        println!("gpu: a slab of {n} bytes: {e}");
    }
}

/// #25.1: zero-size buffers at odd offsets (guards 1, 2, 3, 100) carve on the
/// device as on the host.
#[test]
fn odd_guards_carve_on_the_device() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    for guard in [1, 2, 3, 100] {
        let mut slab = DeviceSlab::with_guard(qwen3_next(128), &stream, guard)
            .unwrap_or_else(|e| panic!("guard {guard}: {e}"));
        let _views = slab.views();
        assert!(slab.check_guards().unwrap().is_ok(), "guard {guard}");
    }
    println!("gpu: the metrale arena carves with guards 1, 2, 3 and 100");
}

/// An arena aligned past the driver's 256 bytes.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), align = 4096)]
pub struct Wide {
    #[arena(shape = [n], dtype = f32)]
    pub a: usize,
    #[arena(shape = [n], dtype = u8)]
    pub b: usize,
}

/// #25.5: an alignment above 256 is honoured on the device (over-allocated,
/// the region at the first aligned byte), as on the host.
#[test]
fn alignment_past_256_on_the_device() {
    use arena::cuda::cudarc::driver::DevicePtr;
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sized = Wide::try_from_config_with(&Levers::new(), 1000).unwrap();
    let mut slab = DeviceSlab::new(sized, &stream).unwrap();
    let skip = slab.region_offset();
    let v = slab.views();
    for (name, ptr) in [
        ("a", v.a.device_ptr(&stream).0),
        ("b", v.b.device_ptr(&stream).0),
    ] {
        assert_eq!(ptr % 4096, 0, "{name} at {ptr:#x}");
    }
    println!("gpu: an arena aligned to 4096 starts {skip} bytes into its allocation");
}

/// Poison of every float width and a guard, filled on the device.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b), align = 16)]
pub struct Widths {
    #[arena(shape = [n], dtype = u32, live = a)]
    pub first: usize,
    #[arena(shape = [n], dtype = f64, live = b)]
    pub d: usize,
    #[arena(shape = [n], dtype = bf16, live = b)]
    pub h: usize,
    #[arena(shape = [n], dtype = f32, live = b)]
    pub s: usize,
    #[arena(shape = [n], dtype = u8, live = b, zeroed)]
    pub z: usize,
}

/// #25.7: poison (8-, 16-, 32-bit and byte patterns), zeroing and guards
/// are device-side fills: every buffer reads back as its pattern.
#[test]
fn device_side_fills() {
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sized = Widths::try_from_config_with(&Levers::new(), 10_000).unwrap();
    let carving = arena::Carving {
        guard: 64,
        poison: true,
        ..arena::Carving::default()
    };
    let mut slab = DeviceSlab::with_carving(sized, &stream, carving).unwrap();
    {
        let mut phases = slab.views();
        let a = phases.try_a().unwrap();
        let first: Vec<u32> = stream.clone_dtoh(&a.first).unwrap();
        assert!(first.iter().all(|&v| v == 0xA5A5_A5A5));
        let b = phases.try_b().unwrap();
        let d: Vec<f64> = stream.clone_dtoh(&b.d).unwrap();
        let h: Vec<arena::bf16> = stream.clone_dtoh(&b.h).unwrap();
        let s: Vec<f32> = stream.clone_dtoh(&b.s).unwrap();
        let z: Vec<u8> = stream.clone_dtoh(&b.z).unwrap();
        assert!(d.iter().all(|v| v.is_nan()), "f64 NaN");
        assert!(h.iter().all(|v| v.is_nan()), "bf16 NaN");
        assert!(s.iter().all(|v| v.is_nan()), "f32 NaN");
        assert!(z.iter().all(|&v| v == 0), "zeroed");
    }
    assert!(slab.check_guards().unwrap().is_ok());
    println!("gpu: poison, zeroing and guards filled on the device, no host image");
}

/// FP8, FP4 and MX-scale buffers, one aligned to 1024.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(m: usize), phases(attn, mlp), align = 64)]
pub struct LowPrecision {
    #[arena(shape = [m, 64], dtype = f8e4m3)]
    pub act: usize,
    #[arena(shape = [m, 32], dtype = f4e2m1x2, live = attn)]
    pub w4: usize,
    #[arena(shape = [m, 2], dtype = e8m0, live = attn)]
    pub scales: usize,
    #[arena(shape = [m, 64], dtype = f8e5m2, live = mlp, align = 1024)]
    pub grad: usize,
}

/// #22: typed FP8/FP4/E8M0 device views written and read back, and every
/// step's views at the reserved device addresses (what a captured CUDA
/// graph replays against).
#[test]
fn low_precision_views_at_fixed_addresses_on_the_device() {
    use arena::cuda::cudarc::driver::DevicePtr;
    use arena::{E8M0, F4E2M1x2, F8E4M3, F8E5M2};
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let sized = |m| LowPrecision::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = DeviceSlab::new(sized(256), &stream).unwrap();
    let (attn, mlp) = {
        let mut ph = slab.views();
        let mut a = ph.attn();
        let host: Vec<F8E4M3> = (0..a.act.len())
            .map(|i| F8E4M3::from_f32((i % 7) as f32))
            .collect();
        stream.memcpy_htod(&host, &mut a.act).unwrap();
        let back: Vec<F8E4M3> = stream.clone_dtoh(&a.act).unwrap();
        assert_eq!(back, host);
        let w: Vec<F4E2M1x2> = vec![F4E2M1x2::from_f32_pair(0.5, -1.0); a.w4.len()];
        stream.memcpy_htod(&w, &mut a.w4).unwrap();
        assert_eq!(stream.clone_dtoh(&a.w4).unwrap(), w);
        let s: Vec<E8M0> = vec![E8M0::from_f64(4.0); a.scales.len()];
        stream.memcpy_htod(&s, &mut a.scales).unwrap();
        assert_eq!(stream.clone_dtoh(&a.scales).unwrap(), s);
        let attn = (
            a.act.device_ptr(&stream).0,
            a.w4.device_ptr(&stream).0,
            a.scales.device_ptr(&stream).0,
        );
        let m = ph.mlp();
        let g: Vec<F8E5M2> = stream.clone_dtoh(&m.grad).unwrap();
        assert_eq!(g.len(), 256 * 64);
        let mlp = m.grad.device_ptr(&stream).0;
        assert_eq!(mlp % 1024, 0, "grad aligned to 1024");
        (attn, mlp)
    };
    for m in [1, 37, 255, 256] {
        let step = sized(m);
        let mut ph = slab.views_for(&step).unwrap();
        let a = ph.attn();
        let got = (
            a.act.device_ptr(&stream).0,
            a.w4.device_ptr(&stream).0,
            a.scales.device_ptr(&stream).0,
        );
        assert_eq!(got, attn, "step {m}");
        assert_eq!(a.act.len(), m * 64);
        let b = ph.mlp();
        assert_eq!(b.grad.device_ptr(&stream).0, mlp, "step {m}");
    }
    println!("gpu: FP8/FP4/E8M0 views round-trip; every step's views at the reserved addresses");
}

/// Two kernels over raw element pointers: one writes bf16 bits (the top
/// half of the f32, exact for these values), one f32.
const DYN_KERNELS: &str = r#"
extern "C" __global__ void halves_bf16(unsigned short* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] = (unsigned short)(__float_as_uint(0.5f * (float)i) >> 16); }
}
extern "C" __global__ void halves_f32(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] = 0.5f * (float)i; }
}
"#;

/// Activations in a dtype picked at run time, beside a static buffer that
/// leaves the second one at an odd cursor; poisoned at their first phase.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize, act: arena::DType), phases(a, b), align = 16)]
pub struct DynAct {
    #[arena(shape = [n], dtype = act)]
    pub x: arena::DynBytes,
    #[arena(size = 6, live = a)]
    pub odd: usize,
    #[arena(shape = [n], dtype = act, live = b)]
    pub y: arena::DynBytes,
}

/// #30: a `DynView` taken as `CudaViewMut<bf16>` and as `CudaViewMut<f32>`
/// with no unsafe code but the launch, written by a kernel and read back;
/// another type is a `DTypeError`; poison follows the dtype.
#[test]
fn runtime_dtype_views_on_the_device() {
    use arena::{DType, bf16};
    let Some((ctx, stream)) = device() else {
        return;
    };
    let Some(ptx) = ptx(DYN_KERNELS) else {
        return;
    };
    let module = ctx.load_module(ptx).unwrap();
    let n = 256usize;
    let n_arg = i32::try_from(n).unwrap();
    let cfg = LaunchConfig::for_num_elems(u32::try_from(n).unwrap());
    for act in [DType::BF16, DType::F32] {
        let sized = DynAct::try_from_config_with(&Levers::new(), n, act).unwrap();
        let mut slab = DeviceSlab::with_carving(
            sized,
            &stream,
            arena::Carving {
                poison: true,
                ..arena::Carving::default()
            },
        )
        .unwrap();
        let mut phases = slab.views();
        let a = phases.a();
        assert_eq!((a.x.dtype(), a.x.len()), (act, n));
        match act {
            DType::BF16 => {
                let f = module.load_function("halves_bf16").unwrap();
                let mut x: CudaViewMut<bf16> = a.x.typed::<bf16>().unwrap();
                let mut launch = stream.launch_builder(&f);
                launch.arg(&mut x).arg(&n_arg);
                // SAFETY: the kernel writes n elements of a view n long.
                unsafe { launch.launch(cfg) }.unwrap();
                let back: Vec<bf16> = stream.clone_dtoh(&x).unwrap();
                let want: Vec<bf16> = (0..n).map(|i| bf16::from_f32(0.5 * i as f32)).collect();
                assert_eq!(back, want);
            }
            _ => {
                let f = module.load_function("halves_f32").unwrap();
                let mut x: CudaViewMut<f32> = a.x.typed::<f32>().unwrap();
                let mut launch = stream.launch_builder(&f);
                launch.arg(&mut x).arg(&n_arg);
                // SAFETY: the kernel writes n elements of a view n long.
                unsafe { launch.launch(cfg) }.unwrap();
                let back: Vec<f32> = stream.clone_dtoh(&x).unwrap();
                assert!(back.iter().enumerate().all(|(i, v)| *v == 0.5 * i as f32));
            }
        }
        let b = phases.b();
        let asked = if act == DType::BF16 {
            DType::F32
        } else {
            DType::BF16
        };
        let e = match asked {
            DType::F32 => b.y.typed::<f32>().map(drop).unwrap_err(),
            _ => b.y.typed::<bf16>().map(drop).unwrap_err(),
        };
        assert_eq!(
            (e.arena, e.buffer, e.dtype, e.asked, e.size),
            ("DynAct", "y", act, asked, asked.bytes())
        );
        // The slab stays usable; `y` begins at phase b: NaN-poisoned as its dtype.
        let b = phases.b();
        let poisoned = match act {
            DType::BF16 => {
                let y: Vec<bf16> = stream.clone_dtoh(&b.y.typed::<bf16>().unwrap()).unwrap();
                y.iter().all(|v| v.to_bits() == 0x7FC0)
            }
            _ => {
                let y: Vec<f32> = stream.clone_dtoh(&b.y.typed::<f32>().unwrap()).unwrap();
                y.iter().all(|v| v.to_bits() == 0x7FC0_0000)
            }
        };
        assert!(poisoned, "{act}: poisoned as NaN");
    }
    println!(
        "gpu: DynView as CudaViewMut<bf16> and <f32>, written by kernels and read back; poison by dtype"
    );
}

const TRAP: &str = r#"
extern "C" __global__ void fault() { asm("trap;"); }
"#;

/// Phases whose second poisons a buffer: a fill the device can fail.
#[derive(arena::Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b))]
pub struct AfterFault {
    #[arena(shape = [n], dtype = u32, live = a)]
    pub first: usize,
    #[arena(shape = [n], dtype = f32, live = b, zeroed)]
    pub second: usize,
}

/// #25.2: a kernel that faults in one phase makes the context's error
/// sticky; the next phase's fill meets it, and `try_b` returns it as a
/// `StepError` instead of panicking. Named to run last (libtest runs tests
/// by name, one at a time here): the context stays broken after it.
#[test]
fn zz_a_sticky_fault_surfaces_at_the_next_phase_as_an_error() {
    let Some((ctx, stream)) = device() else {
        return;
    };
    let Some(ptx) = ptx(TRAP) else {
        return;
    };
    let f = ctx
        .load_module(ptx)
        .unwrap()
        .load_function("fault")
        .unwrap();
    let sized = AfterFault::try_from_config_with(&Levers::new(), 1024).unwrap();
    let carving = arena::Carving {
        poison: true,
        ..arena::Carving::default()
    };
    let mut slab = DeviceSlab::with_carving(sized, &stream, carving).unwrap();
    let mut phases = slab.views();
    phases.try_a().unwrap();
    // SAFETY: the kernel traps on purpose; nothing is read or written.
    unsafe {
        stream
            .launch_builder(&f)
            .launch(LaunchConfig::for_num_elems(1))
    }
    .ok();
    stream.synchronize().ok();
    match phases.try_b() {
        Err(e) => println!("gpu: after a faulting kernel the next phase is an error: {e}"),
        Ok(_) => panic!("the next phase's fill should meet the sticky fault"),
    }
}

/// A nested arena whose dtype is chosen at run time, and a one-of region of
/// float and byte alternatives, in a phased parent (#41, items 2 and 3).
#[derive(arena::Arena, Debug)]
#[arena(params(act: arena::DType, n: usize))]
pub struct DynNested {
    #[arena(shape = [n], dtype = act)]
    pub x: arena::DynBytes,
}

#[derive(arena::Arena, Debug)]
#[arena(params(n: usize), one_of)]
pub struct FloatOrBytes {
    #[arena(shape = [n], dtype = f32)]
    pub floats: usize,
    #[arena(shape = [4 * n], dtype = u8)]
    pub bytes: usize,
}

#[derive(arena::Arena, Debug)]
#[arena(params(act: arena::DType, n: usize), phases(a, b))]
pub struct PoisonNest {
    #[arena(shape = [n], dtype = f32, live = a)]
    pub early: usize,
    #[arena(nested(act, n), live = b)]
    pub inner: arena::Region<DynNested>,
    #[arena(nested(n), live = b)]
    pub either: arena::Region<FloatOrBytes>,
}

/// Poison on the device under a step whose nested dtype differs from the
/// reservation's (bf16 over f64), and in a one-of region: NaN in every
/// float view.
#[test]
fn poison_under_steps_and_one_of_on_the_device() {
    use arena::{DType, bf16};
    let Some((_ctx, stream)) = device() else {
        return;
    };
    let l = Levers::new();
    let reserved = PoisonNest::try_from_config_with(&l, DType::F64, 64).unwrap();
    let step = PoisonNest::try_from_config_with(&l, DType::BF16, 64).unwrap();
    let mut slab = DeviceSlab::new(reserved, &stream).unwrap();
    slab.set_poison(true);
    let mut phases = slab.views_for(&step).unwrap();
    let mut b = phases.b();
    let x = b.inner.x.typed::<bf16>().unwrap();
    let back: Vec<bf16> = stream.clone_dtoh(&x).unwrap();
    assert_eq!(back.len(), 64);
    assert!(back.iter().all(|v| v.is_nan()), "bf16 step over f64: NaN");
    let floats: Vec<f32> = stream.clone_dtoh(&b.either.floats()).unwrap();
    assert!(floats.iter().all(|v| v.is_nan()), "one-of f32: NaN");
    let bytes: Vec<u8> = stream.clone_dtoh(&b.either.bytes()).unwrap();
    assert!(bytes.iter().all(|&v| v == 0xFF));
    println!("gpu: poison under steps and one-of: NaN in every float view");
}

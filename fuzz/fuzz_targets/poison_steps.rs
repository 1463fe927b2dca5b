//! Fuzzes poison mode under step views (#41): a phased arena with a buffer
//! whose dtype is chosen at run time, a nested arena of the same, a nested
//! one-of region of float and byte alternatives, reserved at one size and
//! dtype and viewed at a step of another, with guards or none. Every float
//! view of a phase's new buffers reads NaN in the step's dtype; a step past
//! its reservation is an error; nothing panics. Run: see RELIABILITY.md.
#![no_main]

use arena::{Arena, Carving, DType, DynBytes, HostSlab, Levers, Region, bf16, f16};
use libfuzzer_sys::fuzz_target;

#[derive(Arena, Debug)]
#[arena(params(act: DType, n: usize))]
pub struct Inner {
    #[arena(shape = [n], dtype = act)]
    pub x: DynBytes,
    #[arena(shape = [n + 1], dtype = u16)]
    pub ids: usize,
}

#[derive(Arena, Debug)]
#[arena(params(n: usize), one_of)]
pub struct Either {
    #[arena(shape = [n], dtype = f32)]
    pub floats: usize,
    #[arena(shape = [3 * n], dtype = u8)]
    pub bytes: usize,
    #[arena(shape = [n], dtype = bf16)]
    pub halves: usize,
    #[arena(nested(DType::F16, n))]
    pub inner: Region<Inner>,
}

#[derive(Arena, Debug)]
#[arena(params(act: DType, n: usize), phases(a, b, c))]
pub struct Pass {
    #[arena(shape = [n], dtype = act, live = a..=b)]
    pub top: DynBytes,
    #[arena(nested(act, n), live = b)]
    pub inner: Region<Inner>,
    #[arena(nested(n), live = b..=c)]
    pub either: Region<Either>,
    #[arena(shape = [n], dtype = f64, live = c)]
    pub late: usize,
}

const ALL: [DType; 10] = [
    DType::F64,
    DType::F32,
    DType::BF16,
    DType::F16,
    DType::F8E4M3,
    DType::U8,
    DType::I32,
    DType::F4E2M1x2,
    DType::E8M0,
    DType::U64,
];

/// Whether every element of `view` (in `dtype`) is NaN, for float dtypes.
fn all_nan(view: arena::DynView<'_>) -> bool {
    match view.dtype() {
        DType::F64 => view.typed::<f64>().unwrap().iter().all(|v| v.is_nan()),
        DType::F32 => view.typed::<f32>().unwrap().iter().all(|v| v.is_nan()),
        DType::BF16 => view.typed::<bf16>().unwrap().iter().all(|v| v.is_nan()),
        DType::F16 => view.typed::<f16>().unwrap().iter().all(|v| v.is_nan()),
        // FP8 and E8M0: their NaN patterns (0x7F, 0xFF).
        DType::F8E4M3 | DType::F8E5M2 | DType::E8M0 => {
            view.into_bytes().iter().all(|&b| b & 0x7F == 0x7F)
        }
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let act = ALL[usize::from(data[0]) % ALL.len()];
    let step_act = if data[1] % 2 == 0 {
        act
    } else {
        ALL[usize::from(data[1] / 2) % ALL.len()]
    };
    let n = usize::from(data[2]) % 200;
    let m = usize::from(data[3]) % 220;
    let guard = [0, 1, 8, 64][usize::from(data[4]) % 4];
    let l = Levers::new();
    let (Ok(reserved), Ok(step)) = (
        Pass::try_from_config_with(&l, act, n),
        Pass::try_from_config_with(&l, step_act, m),
    ) else {
        return;
    };
    let carving = Carving {
        guard,
        poison: true,
        ..Carving::default()
    };
    let mut slab = HostSlab::with_carving(reserved, carving).unwrap();
    let r = slab.arena();
    let inner_fits = |s: &Inner, r: &Inner| s.x.bytes <= r.x.bytes && s.ids <= r.ids;
    let (se, re) = (&step.either, &r.either);
    let fits = step.top.bytes <= r.top.bytes
        && step.inner.bytes <= r.inner.bytes
        && inner_fits(&step.inner.inner, &r.inner.inner)
        && se.bytes <= re.bytes
        && se.inner.floats <= re.inner.floats
        && se.inner.bytes <= re.inner.bytes
        && se.inner.halves <= re.inner.halves
        && se.inner.inner.bytes <= re.inner.inner.bytes
        && inner_fits(&se.inner.inner.inner, &re.inner.inner.inner)
        && step.late <= r.late;
    let mut phases = match slab.views_for(&step) {
        Ok(p) => p,
        Err(_) => {
            assert!(!fits, "a step within its reservation was refused");
            return;
        }
    };
    assert!(fits, "a step past its reservation was carved");
    let a = phases.a();
    assert!(all_nan(a.top), "top, {act} reserved, {step_act} stepped");
    let mut b = phases.b();
    assert!(all_nan(b.inner.x), "inner.x, {act} reserved, {step_act} stepped");
    assert!(b.either.floats().iter().all(|v| v.is_nan()));
    assert!(b.either.halves().iter().all(|v| v.is_nan()));
    assert!(all_nan(b.either.inner().x));
    let c = phases.c();
    assert!(c.late.iter().all(|v| v.is_nan()));
    drop(c);
    assert!(slab.check_guards().is_ok());
});

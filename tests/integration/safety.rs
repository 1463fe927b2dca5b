//! The safety net where memory is shared or nested: zeroing and poison of
//! nested buffers, guard bands with phases, one-of guards, sizes that are not
//! whole elements, slabs that cannot be allocated, planner alignments, and
//! one rule for nested steps.

use arena::plan::{Item, PlanError, plan_offsets};
use arena::{Arena, CarveError, HostSlab, Levers, Region, SizeError, StepError};

/// A nested arena with a `zeroed` byte buffer and a float buffer.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), align = 16)]
pub struct Z {
    #[arena(size = m, zeroed)]
    pub z: usize,
    #[arena(shape = [m], dtype = f32)]
    pub f: usize,
}

/// `w` (phase a) and the nested `n` (phase b) share bytes.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b), align = 16)]
pub struct P {
    #[arena(size = 8 * m, live = a)]
    pub w: usize,
    #[arena(nested(m), live = b)]
    pub n: Region<Z>,
}

/// Two levels of nesting: the zeroed buffer two regions down.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), align = 16)]
pub struct Mid {
    #[arena(shape = [m], dtype = bf16)]
    pub h: usize,
    #[arena(nested(m))]
    pub z: Region<Z>,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b), align = 16)]
pub struct Deep {
    #[arena(size = 16 * m, live = a)]
    pub w: usize,
    #[arena(nested(m), live = b)]
    pub mid: Region<Mid>,
}

fn p(m: usize) -> P {
    P::try_from_config_with(&Levers::new(), m).unwrap()
}

#[test]
fn a_nested_zeroed_buffer_is_zero_at_its_fields_first_phase() {
    for poison in [false, true] {
        let mut slab = HostSlab::new(p(40)).unwrap();
        slab.set_poison(poison);
        let layout = slab.layout().clone();
        assert_eq!(layout.offset_of("w"), layout.offset_of("n"), "they share");
        let mut ph = slab.views();
        ph.a().w.fill(3);
        let b = ph.b();
        assert!(
            b.n.z.iter().all(|&x| x == 0),
            "poison {poison}: {:?}",
            b.n.z
        );
        if poison {
            assert!(b.n.f.iter().all(|x| x.is_nan()), "{:?}", b.n.f);
        }
    }
}

#[test]
fn nested_zeroing_and_poison_reach_every_depth() {
    let deep = Deep::try_from_config_with(&Levers::new(), 24).unwrap();
    let mut slab = HostSlab::new(deep).unwrap();
    slab.set_poison(true);
    let mut ph = slab.views();
    ph.a().w.fill(0x11);
    let b = ph.b();
    assert!(b.mid.h.iter().all(|x| x.is_nan()), "a nested bf16 is NaN");
    assert!(b.mid.z.z.iter().all(|&x| x == 0), "zeroed two levels down");
    assert!(b.mid.z.f.iter().all(|x| x.is_nan()), "f32 two levels down");
}

/// `big` (phase a) and `small` (phase b) planned at the same offset.
#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b), align = 16)]
pub struct Shared {
    #[arena(size = 10 * n, live = a)]
    pub big: usize,
    #[arena(size = n, live = b)]
    pub small: usize,
}

#[test]
fn with_phases_an_overrun_into_a_guard_band_is_reported() {
    let shared = Shared::try_from_config_with(&Levers::new(), 100).unwrap();
    let mut slab = HostSlab::with_guard(shared, 16).unwrap();
    let l = slab.layout().clone();
    let (big, small) = (
        l.get("big").unwrap().clone(),
        l.get("small").unwrap().clone(),
    );
    assert_eq!(big.offset, small.offset, "planned at one offset");
    {
        let mut ph = slab.views();
        ph.a().big.fill(1);
        ph.b().small.fill(2);
    }
    assert_eq!(slab.check_guards(), Ok(()), "a clean run is clean");
    // 8 bytes past `small` while phase b is current: inside `big`'s bytes.
    slab.as_bytes_mut()[small.end()..small.end() + 8].fill(0);
    let e = slab.check_guards().unwrap_err();
    assert_eq!(e.overrun, ["small"]);
    assert_eq!(e.to_string(), "`Shared`: guard overwritten after `small`");
}

#[test]
fn an_overrun_in_an_earlier_phase_is_kept_when_the_next_begins() {
    let shared = Shared::try_from_config_with(&Levers::new(), 100).unwrap();
    let mut slab = HostSlab::with_guard(shared, 16).unwrap();
    let big = slab.layout().get("big").unwrap().clone();
    slab.views().a().big.fill(1);
    // One byte past `big` while phase a is current.
    slab.as_bytes_mut()[big.end()] = 0;
    // Phase b re-arms the bands (small's band lies in big's old bytes).
    slab.views().b().small.fill(2);
    assert_eq!(slab.check_guards().unwrap_err().overrun, ["big"]);
}

/// `a1` and `b1` share bytes after `all`.
#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b), align = 16)]
pub struct Blame {
    #[arena(size = 48)]
    pub all: usize,
    #[arena(size = n, live = a)]
    pub a1: usize,
    #[arena(size = 2 * n, live = b)]
    pub b1: usize,
}

#[test]
fn an_overrun_is_blamed_on_the_buffer_that_made_it() {
    let blame = Blame::try_from_config_with(&Levers::new(), 64).unwrap();
    let mut slab = HostSlab::with_guard(blame, 16).unwrap();
    let l = slab.layout().clone();
    assert_eq!(l.offset_of("a1"), l.offset_of("b1"));
    let a1 = l.get("a1").unwrap().clone();
    slab.views().a().a1.fill(7);
    slab.as_bytes_mut()[a1.end()..a1.end() + 30].fill(0);
    assert_eq!(slab.check_guards().unwrap_err().overrun, ["a1"]);
}

#[test]
fn guards_without_phases_still_name_the_buffer() {
    let z = Z::try_from_config_with(&Levers::new(), 10).unwrap();
    let mut slab = HostSlab::with_guard(z, 16).unwrap();
    let end = slab.layout().get("z").unwrap().end();
    slab.as_bytes_mut()[end] = 1;
    assert_eq!(slab.check_guards().unwrap_err().overrun, ["z"]);
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), one_of)]
pub struct Either {
    #[arena(size = n)]
    pub left: usize,
    #[arena(size = 2 * n)]
    pub right: usize,
}

#[test]
fn a_top_level_one_of_arena_refuses_a_guard() {
    let either = || Either::try_from_config_with(&Levers::new(), 10).unwrap();
    let Err(e) = HostSlab::with_guard(either(), 16) else {
        panic!("a guard on a one-of arena is refused");
    };
    assert_eq!(
        e,
        CarveError::GuardOnOneOf {
            arena: "Either",
            guard: 16
        }
    );
    assert!(
        e.to_string()
            .starts_with("`Either`: a `one_of` arena cannot have guard bytes")
    );
    assert!(HostSlab::with_guard(either(), 0).is_ok());
}

/// An f32 buffer in an arena with phases.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(a, b))]
pub struct Floats {
    #[arena(shape = [m], dtype = f32, live = a)]
    pub p: usize,
    #[arena(shape = [m], dtype = f32, live = b)]
    pub q: usize,
}

/// The same without phases.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize))]
pub struct FlatFloats {
    #[arena(shape = [m], dtype = f32)]
    pub q: usize,
}

fn not_whole(field: &'static str, arena: &'static str) -> CarveError {
    CarveError::Size(SizeError::NotWholeElements {
        arena,
        field,
        bytes: 6,
        elem_bytes: 4,
    })
}

#[test]
fn a_size_that_is_not_whole_elements_is_an_error_not_a_panic() {
    let floats = |m| Floats::try_from_config_with(&Levers::new(), m).unwrap();
    // A step edited by hand.
    let mut slab = HostSlab::new(floats(8)).unwrap();
    let mut step = floats(4);
    step.q = 6;
    let Err(e) = slab.views_for(&step) else {
        panic!("a step of 6 bytes of f32 is refused");
    };
    assert_eq!(e, StepError::Carve(not_whole("q", "Floats")));
    assert_eq!(
        e.to_string(),
        "`Floats.q`: 6 bytes is not a whole number of 4-byte elements"
    );
    // A reservation edited by hand.
    let mut reserved = floats(8);
    reserved.q = 6;
    assert_eq!(
        HostSlab::new(reserved).err(),
        Some(not_whole("q", "Floats"))
    );
    // Without phases: the same error, not `Misaligned`.
    let flat = |m| FlatFloats::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(flat(8)).unwrap();
    let mut step = flat(4);
    step.q = 6;
    assert_eq!(
        slab.views_for(&step).err(),
        Some(StepError::Carve(not_whole("q", "FlatFloats")))
    );
    let mut reserved = flat(8);
    reserved.q = 6;
    assert_eq!(
        HostSlab::new(reserved).err(),
        Some(not_whole("q", "FlatFloats"))
    );
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize))]
pub struct Huge {
    #[arena(size = n)]
    pub buf: usize,
}

#[test]
fn a_slab_that_cannot_be_allocated_is_an_error() {
    for n in [usize::MAX - 100, isize::MAX as usize - 100] {
        let huge = Huge::try_from_config_with(&Levers::new(), n).unwrap();
        assert_eq!(huge.slab_bytes(), Ok(n), "it sizes");
        let Err(e) = HostSlab::new(huge) else {
            panic!("{n} bytes cannot be allocated");
        };
        assert!(
            matches!(e, CarveError::Alloc { arena: "Huge", bytes, .. } if bytes == n),
            "{e}"
        );
        assert!(e.to_string().contains("cannot be allocated"), "{e}");
    }
    // 64 TiB: refused by the allocator here, or (where memory is
    // overcommitted without limit) a lazily zeroed mapping; never an abort.
    // (Miri stops at an allocation past its machine's memory instead.)
    if cfg!(miri) {
        return;
    }
    let huge = Huge::try_from_config_with(&Levers::new(), 1 << 46).unwrap();
    match HostSlab::new(huge) {
        Err(e) => assert!(matches!(e, CarveError::Alloc { .. }), "{e}"),
        Ok(slab) => assert_eq!(slab.as_bytes().len(), 1 << 46),
    }
}

#[test]
fn the_planner_refuses_an_alignment_that_is_not_a_power_of_two() {
    for align in [0, 3, 48] {
        let items = [Item {
            bytes: 10,
            align,
            first: 0,
            last: 0,
        }];
        assert_eq!(
            plan_offsets(&items, 0),
            Err(PlanError::BadAlign { item: 0, align })
        );
    }
}

/// Without phases, a nested region.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize))]
pub struct Flat {
    #[arena(size = m)]
    pub w: usize,
    #[arena(nested(m))]
    pub n: Region<Z>,
}

#[test]
fn a_nested_step_past_its_reservation_is_refused_with_and_without_phases() {
    let flat = |m| Flat::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(flat(32)).unwrap();
    let mut step = flat(8);
    step.n.bytes = slab.arena().n.bytes + 1;
    let e = slab.views_for(&step).err();
    assert!(
        matches!(
            e,
            Some(StepError::TooLarge {
                arena: "Flat",
                buffer: "n",
                ..
            })
        ),
        "{e:?}"
    );
    let mut slab = HostSlab::new(p(32)).unwrap();
    let mut step = p(8);
    step.n.bytes = slab.arena().n.bytes + 1;
    let e = slab.views_for(&step).err();
    assert!(
        matches!(
            e,
            Some(StepError::TooLarge {
                arena: "P",
                buffer: "n",
                ..
            })
        ),
        "{e:?}"
    );
}

/// Every error of a chain, from `e` down its `source()`s.
fn chain(e: &dyn std::error::Error) -> Vec<String> {
    let mut out = vec![e.to_string()];
    let mut at = e.source();
    while let Some(s) = at {
        out.push(s.to_string());
        at = s.source();
    }
    out
}

#[test]
fn a_wrapped_error_is_the_source_down_to_its_root() {
    let floats = |m| Floats::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(floats(8)).unwrap();
    let mut step = floats(4);
    step.q = 6;
    let e = slab
        .views_for(&step)
        .err()
        .expect("6 bytes of f32 are refused");
    // StepError::Carve -> CarveError::Size -> SizeError, the root.
    let message = "`Floats.q`: 6 bytes is not a whole number of 4-byte elements";
    assert_eq!(chain(&e), [message; 3]);
    let carve = std::error::Error::source(&e).expect("the carve error");
    assert!(carve.downcast_ref::<CarveError>().is_some());
    let size = carve.source().expect("the size error");
    assert_eq!(
        size.downcast_ref::<SizeError>(),
        Some(&SizeError::NotWholeElements {
            arena: "Floats",
            field: "q",
            bytes: 6,
            elem_bytes: 4,
        })
    );
    assert!(size.source().is_none());
}

#[test]
fn a_step_error_goes_to_a_carve_error_and_back_unchanged() {
    let flat = |m| Flat::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(flat(32)).unwrap();
    let mut step = flat(8);
    step.n.bytes = slab.arena().n.bytes + 1;
    let too_large = slab.views_for(&step).err().expect("past its reservation");
    assert!(matches!(too_large, StepError::TooLarge { .. }));
    let carve = CarveError::from(too_large.clone());
    // The same message, and nothing lost on the way back.
    assert_eq!(carve.to_string(), too_large.to_string());
    assert_eq!(StepError::from(carve), too_large);
    let wrapped = StepError::Carve(CarveError::Size(SizeError::SlabOverflow {
        arena: "Flat",
        field: "w",
    }));
    assert_eq!(StepError::from(CarveError::from(wrapped.clone())), wrapped);
}

//! Declared lifetimes on a small arena: planned offsets share bytes only
//! between buffers whose phases are disjoint, phase views one at a time,
//! zeroing and poison at a buffer's first phase.

use arena::{Arena, Carving, HostSlab, Levers};

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, h: usize), phases(embed, attn, mlp, head), align = 64)]
pub struct Pass {
    /// The residual stream: live throughout.
    #[arena(shape = [m, h], dtype = f32)]
    pub x: usize,
    #[arena(shape = [m, 3 * h], dtype = f32, live = attn)]
    pub qkv: usize,
    #[arena(shape = [m, 4 * h], dtype = f32, live = mlp)]
    pub up: usize,
    #[arena(shape = [m, h], dtype = u8, live = attn..=mlp, zeroed)]
    pub mask: usize,
    #[arena(shape = [m], dtype = u32, live = head)]
    pub ids: usize,
}

fn pass(m: usize) -> Pass {
    Pass::try_from_config_with(&Levers::new(), m, 64).unwrap()
}

#[test]
fn metadata_and_planned_bytes() {
    assert_eq!(Pass::PHASES, ["embed", "attn", "mlp", "head"]);
    assert_eq!(Pass::BUFFERS[0].live, None);
    assert_eq!(Pass::BUFFERS[1].live, Some((1, 1)));
    assert_eq!(Pass::BUFFERS[3].live, Some((1, 2)));
    let p = pass(10);
    let unplanned = p.unplanned_bytes().unwrap();
    let planned = p.slab_bytes().unwrap();
    let lower = p.lower_bound_bytes().unwrap();
    assert!(
        lower <= planned && planned < unplanned,
        "{lower} {planned} {unplanned}"
    );
    // qkv and up never live together: they share bytes.
    let l = p.layout().unwrap();
    assert_eq!(l.slab_bytes, planned);
    assert_eq!(l.offset_of("up"), l.offset_of("qkv"));
    assert_eq!(
        p.layout_for(Carving {
            unplanned: true,
            ..Carving::default()
        })
        .unwrap()
        .slab_bytes,
        unplanned
    );
}

#[test]
fn phase_views_one_at_a_time() {
    let mut slab = HostSlab::new(pass(10)).unwrap();
    assert_eq!(slab.as_bytes().len(), pass(10).slab_bytes().unwrap());
    let mut phases = slab.views();
    {
        let e = phases.embed();
        assert_eq!(e.x.len(), 10 * 64);
        e.x.fill(1.0);
    }
    {
        let a = phases.attn();
        assert_eq!(a.qkv.len(), 10 * 192);
        assert!(a.mask.iter().all(|&b| b == 0), "zeroed at its first phase");
        a.qkv.fill(2.0);
        a.mask.fill(1);
        assert!(a.x.iter().all(|&v| v == 1.0), "x survives every phase");
    }
    {
        let mlp = phases.mlp();
        assert!(mlp.mask.iter().all(|&b| b == 1), "mask survives attn..=mlp");
        mlp.up.fill(3.0);
    }
    let head = phases.head();
    assert_eq!(head.ids.len(), 10);
    assert!(head.x.iter().all(|&v| v == 1.0));
}

#[test]
fn poison_fills_a_buffer_at_its_first_phase() {
    let mut slab = HostSlab::with_carving(
        pass(4),
        Carving {
            poison: true,
            ..Carving::default()
        },
    )
    .unwrap();
    let mut phases = slab.views();
    let e = phases.embed();
    assert!(e.x.iter().all(|v| v.is_nan()), "f32 poison is NaN");
    e.x.fill(0.5);
    let a = phases.attn();
    assert!(a.qkv.iter().all(|v| v.is_nan()));
    assert!(a.mask.iter().all(|&b| b == 0), "zeroed wins over poison");
    assert!(
        a.x.iter().all(|&v| v == 0.5),
        "not poisoned again after its first phase"
    );
    let h = phases.head();
    assert!(
        h.ids.iter().all(|&v| v == 0xA5A5_A5A5),
        "integers get 0xA5 bytes"
    );
}

#[test]
fn unplanned_slab_gives_the_same_views() {
    let mut slab = HostSlab::unplanned(pass(10)).unwrap();
    assert_eq!(slab.as_bytes().len(), pass(10).unplanned_bytes().unwrap());
    let mut phases = slab.views();
    assert_eq!(phases.mlp().up.len(), 10 * 256);
}

#[test]
fn step_views_through_the_phases() {
    let mut slab = HostSlab::new(pass(16)).unwrap();
    let step = pass(5);
    let mut phases = slab.views_for(&step).unwrap();
    assert_eq!(phases.attn().qkv.len(), 5 * 192);
    assert_eq!(phases.mlp().up.len(), 5 * 256);
    let Err(e) = slab.views_for(&pass(17)) else {
        panic!("17 rows do not fit a reservation of 16");
    };
    assert!(e.to_string().contains("`Pass.x`"), "{e}");
}

#[test]
fn slab_views_sit_at_the_offsets_planned_once() {
    let unplanned = Carving {
        unplanned: true,
        ..Carving::default()
    };
    for carving in [Carving::default(), Carving::guard(32), unplanned] {
        let arena = pass(10);
        let mut slab = HostSlab::with_carving(arena.clone(), carving).unwrap();
        let layout = slab.layout().clone();
        let base = slab.as_bytes().as_ptr() as usize;
        let offsets = |phases: &mut PassPhases<'_>| {
            let at = |p: *const f32| p as usize - base;
            let attn = phases.attn();
            let (x, qkv, mask) = (
                at(attn.x.as_ptr()),
                at(attn.qkv.as_ptr()),
                attn.mask.as_ptr() as usize - base,
            );
            let mlp = phases.mlp();
            let up = at(mlp.up.as_ptr());
            let ids = phases.head().ids.as_ptr() as usize - base;
            [x, qkv, up, mask, ids]
        };
        // The slab's views take the offsets it planned when it was allocated.
        let from_slab = offsets(&mut slab.views());
        let want = ["x", "qkv", "up", "mask", "ids"].map(|n| layout.offset_of(n).unwrap());
        assert_eq!(from_slab, want, "{carving:?}");
        // A bare carve of the same bytes plans for itself and agrees.
        let bytes = slab.as_bytes_mut();
        let mut bare = arena
            .carve_step::<arena::Host>(&arena, bytes, carving)
            .unwrap();
        assert_eq!(offsets(&mut bare), want, "{carving:?}");
    }
}

use crate::heads::Heads;

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(attn, mlp), align = 64)]
pub struct WithNested {
    #[arena(shape = [m, 8], dtype = f32)]
    pub x: usize,
    #[arena(nested(m), live = attn)]
    pub heads: arena::Region<Heads>,
    #[arena(shape = [m, 16], dtype = f32, live = mlp)]
    pub up: usize,
}

#[test]
fn a_nested_arena_takes_its_phases_step_views() {
    let sized = |m| WithNested::try_from_config_with(&Levers::new(), m).unwrap();
    let mut slab = HostSlab::new(sized(16)).unwrap();
    let layout = slab.layout().clone();
    // heads and up are never live together: they share bytes.
    assert_eq!(layout.offset_of("heads"), layout.offset_of("up"));
    let base = slab.as_bytes().as_ptr() as usize;
    let step = sized(5);
    let mut phases = slab.views_for(&step).unwrap();
    {
        let attn = phases.attn();
        assert_eq!(attn.x.len(), 5 * 8);
        let heads = attn.heads;
        assert_eq!((heads.q.len(), heads.idx.len()), (5 * 4, 5));
        // The nested arena is laid out for its reservation of 16 rows.
        let inner = layout.get("heads").unwrap();
        let idx_at = inner.offset + inner.nested.as_ref().unwrap().offset_of("idx").unwrap();
        assert_eq!(heads.idx.as_ptr() as usize - base, idx_at);
        heads.q.fill(1.0);
    }
    let mlp = phases.mlp();
    assert_eq!(mlp.up.len(), 5 * 16);
    // A step larger than the reservation is refused before any phase.
    assert!(slab.views_for(&sized(17)).is_err());
}

#[test]
fn a_region_too_short_is_an_error_naming_the_buffer() {
    let arena = pass(10);
    let slab = arena.slab_bytes().unwrap();
    let mut short = vec![0u8; slab - 1];
    let Err(e) = arena.carve_step::<arena::Host>(&arena, &mut short, Carving::default()) else {
        panic!("a region one byte short of the slab carves nothing");
    };
    assert!(
        matches!(
            e,
            arena::StepError::Carve(arena::CarveError::TooShort { arena: "Pass", .. })
        ),
        "{e}"
    );
}

/// An arena that opts into the planner's search.
#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), phases(p0, p1, p2, p3), align = 1, plan_budget = 50_000)]
pub struct Searched {
    #[arena(size = 50 * n, live = p0..=p2)]
    pub a: usize,
    #[arena(size = 40 * n, live = p0..=p1)]
    pub b: usize,
    #[arena(size = 60 * n, live = p3)]
    pub c: usize,
    #[arena(size = 70 * n, live = p1)]
    pub d: usize,
    #[arena(size = 80 * n, live = p2..=p3)]
    pub e: usize,
}

#[test]
fn a_plan_budget_reaches_every_path() {
    assert_eq!(Searched::PLAN_BUDGET, 50_000);
    assert_eq!(Pass::PLAN_BUDGET, 0);
    let s = Searched::try_from_config_with(&Levers::new(), 1).unwrap();
    let layout = s.layout().unwrap();
    // The generated slab_bytes() plans with the same budget as layout().
    assert_eq!(s.slab_bytes().unwrap(), layout.slab_bytes);
    assert_eq!(layout.slab_bytes, s.lower_bound_bytes().unwrap());
    // A slab with a budget of its own, and a bare carve: the same views.
    for budget in [None, Some(0), Some(1_000_000)] {
        let carving = Carving {
            plan_budget: budget,
            ..Carving::default()
        };
        let mut slab = HostSlab::with_carving(s.clone(), carving).unwrap();
        let want = s.layout_for(carving).unwrap();
        assert_eq!(slab.layout(), &want, "{budget:?}");
        let mut ph = slab.views();
        ph.p1().d.fill(7);
        assert_eq!(ph.p3().c.len(), 60);
    }
}

/// Two 10-byte buffers in one phase, aligned to 256.
#[derive(Arena, Debug)]
#[arena(params(n: usize), phases(only))]
pub struct TwoSmall {
    #[arena(size = n, live = only)]
    pub a: usize,
    #[arena(size = n, live = only)]
    pub b: usize,
}

/// A one-of arena: one buffer at a time.
#[derive(Arena, Debug)]
#[arena(params(n: usize, m: usize), one_of)]
pub struct Either {
    #[arena(size = n)]
    pub a: usize,
    #[arena(size = m)]
    pub b: usize,
}

/// The same buffers without phases.
#[derive(Arena, Debug)]
#[arena(params(n: usize, m: usize))]
pub struct Plain {
    #[arena(size = n)]
    pub a: usize,
    #[arena(size = m, align = 4096)]
    pub b: usize,
    #[arena(size = n + m)]
    pub c: usize,
}

#[test]
fn the_lower_bound_is_at_most_the_slab() {
    // 512 (both rounded up) was more than the slab's 266.
    let t = TwoSmall::try_from_config_with(&Levers::new(), 10).unwrap();
    assert_eq!(t.slab_bytes().unwrap(), 266);
    assert_eq!(t.lower_bound_bytes().unwrap(), 266);
    // A one-of arena's bound is its widest buffer, not the sum.
    let e = Either::try_from_config_with(&Levers::new(), 10, 300).unwrap();
    assert_eq!(e.lower_bound_bytes().unwrap(), 300);
    assert_eq!(e.slab_bytes().unwrap(), 300);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

    #[test]
    fn lower_bound_at_most_slab_with_and_without_phases(n in 0usize..100_000, m in 0usize..100_000, h in 0usize..300) {
        let levers = Levers::new();
        let pass = Pass::try_from_config_with(&levers, n % 300, h).unwrap();
        proptest::prop_assert!(pass.lower_bound_bytes().unwrap() <= pass.slab_bytes().unwrap());
        let two = TwoSmall::try_from_config_with(&levers, n).unwrap();
        proptest::prop_assert!(two.lower_bound_bytes().unwrap() <= two.slab_bytes().unwrap());
        let either = Either::try_from_config_with(&levers, n, m).unwrap();
        proptest::prop_assert!(either.lower_bound_bytes().unwrap() <= either.slab_bytes().unwrap());
        let plain = Plain::try_from_config_with(&levers, n, m).unwrap();
        proptest::prop_assert!(plain.lower_bound_bytes().unwrap() <= plain.slab_bytes().unwrap());
    }
}

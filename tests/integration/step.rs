//! Step views on small arenas: a plain buffer, a nested arena and a one-of
//! region each carved for a smaller step at the reserved offsets.

use arena::{Arena, HostSlab, Levers, Region, StepError};

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), align = 64)]
pub struct Inner {
    #[arena(shape = [m, 4], dtype = f32)]
    pub a: usize,
    #[arena(shape = [m], dtype = u8)]
    pub b: usize,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), one_of, align = 64)]
pub struct Either {
    #[arena(shape = [m, 2], dtype = u16)]
    pub small: usize,
    #[arena(nested(m))]
    pub inner: Region<Inner>,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), align = 64)]
pub struct Outer {
    #[arena(shape = [m, 8], dtype = f32)]
    pub x: usize,
    #[arena(nested(m))]
    pub inner: Region<Inner>,
    #[arena(nested(m))]
    pub either: Region<Either>,
    #[arena(shape = [2 * m], dtype = u32)]
    pub y: usize,
}

fn sized(m: usize) -> Outer {
    Outer::try_from_config_with(&Levers::new(), m).unwrap()
}

#[test]
fn every_view_has_the_step_length_at_its_reserved_offset() {
    let reserved = sized(100);
    let mut slab = HostSlab::with_guard(reserved.clone(), 16).unwrap();
    // The reserved layout, guards included.
    let layout = slab.layout().clone();
    let base = slab.as_bytes().as_ptr() as usize;
    let step = sized(7);
    let mut v = slab.views_for(&step).unwrap();
    assert_eq!(v.x.len(), 7 * 8);
    assert_eq!(v.y.len(), 14);
    assert_eq!(v.inner.a.len(), 7 * 4);
    assert_eq!(v.inner.b.len(), 7);
    let at = |p: usize| p - base;
    assert_eq!(at(v.x.as_ptr() as usize), layout.offset_of("x").unwrap());
    assert_eq!(at(v.y.as_ptr() as usize), layout.offset_of("y").unwrap());
    let inner = layout.get("inner").unwrap();
    let inner_b = inner.offset + inner.nested.as_ref().unwrap().offset_of("b").unwrap();
    assert_eq!(
        at(v.inner.b.as_ptr() as usize),
        inner_b,
        "nested at its reserved offset"
    );
    // One-of alternatives follow their own step sizes.
    assert_eq!(v.either.small().len(), 14);
    let e = v.either.inner();
    assert_eq!((e.a.len(), e.b.len()), (28, 7));
    v.x.fill(1.0);
    v.y.fill(7);
    assert!(
        slab.check_guards().is_ok(),
        "guards stay after the reservations"
    );
}

#[test]
fn a_step_past_its_reservation_names_the_buffer() {
    let mut slab = HostSlab::new(sized(10)).unwrap();
    let Err(e) = slab.views_for(&sized(11)) else {
        panic!("11 rows do not fit a reservation of 10");
    };
    assert_eq!(
        e,
        StepError::TooLarge {
            arena: "Outer",
            buffer: "x",
            step_bytes: 11 * 8 * 4,
            reserved_bytes: 10 * 8 * 4,
        }
    );
    assert_eq!(
        e.to_string(),
        "`Outer.x`: the step needs 352 bytes, the slab reserves 320"
    );
    // The slab stays usable.
    assert_eq!(slab.views().x.len(), 80);
    assert_eq!(slab.views_for(&sized(3)).unwrap().y.len(), 6);
}

#[test]
fn nested_and_one_of_errors_name_their_own_arena() {
    // A step larger only inside a nested arena and a one-of alternative.
    let reserved = sized(10);
    let mut step = sized(10);
    step.inner.inner.b = 11;
    let mut slab = HostSlab::new(reserved.clone()).unwrap();
    let Err(e) = slab.views_for(&step) else {
        panic!("the nested buffer grew");
    };
    assert!(
        matches!(
            e,
            StepError::TooLarge {
                arena: "Inner",
                buffer: "b",
                step_bytes: 11,
                reserved_bytes: 10
            }
        ),
        "{e}"
    );
    let mut step = sized(10);
    step.either.inner.small += 2;
    let Err(e) = slab.views_for(&step) else {
        panic!("the alternative grew");
    };
    assert!(
        matches!(
            e,
            StepError::TooLarge {
                arena: "Either",
                buffer: "small",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn step_shapes_come_from_the_same_sizing() {
    let (step, shapes) = Outer::try_step_with(&Levers::new(), 7).unwrap();
    assert_eq!(step.x, 7 * 8 * 4);
    assert_eq!(shapes.x, [7, 8]);
    assert_eq!(shapes.y, [14]);
    assert_eq!(shapes.inner.a, [7, 4]);
    assert_eq!(shapes.either.small, [7, 2]);
    assert_eq!(shapes.either.inner.b, [7]);
}

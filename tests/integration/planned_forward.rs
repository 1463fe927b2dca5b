//! The proof on the host: a small transformer's forward pass through a phased
//! arena gives bit-identical logits planned and unplanned, and poison mode
//! catches a `live` range cut short.

use crate::tiny::{Forward, ForwardCut, Tiny, Weights, forward, forward_cut};
use arena::{Arena, Carving, HostSlab, Levers};

const M: usize = 12;

fn sized(c: &Tiny) -> Forward {
    Forward::try_from_config_with(&Levers::new(), c, M).unwrap()
}

fn poisoned<A: Arena>(a: A) -> HostSlab<A> {
    HostSlab::with_carving(
        a,
        Carving {
            poison: true,
            ..Carving::default()
        },
    )
    .unwrap()
}

#[test]
fn planned_and_unplanned_give_bit_identical_logits() {
    let c = Tiny::SMALL;
    let w = Weights::new(&c, 7);
    let a = sized(&c);
    assert!(
        a.slab_bytes().unwrap() < a.unplanned_bytes().unwrap(),
        "the plan shares bytes"
    );
    let planned = forward(&mut HostSlab::new(a.clone()).unwrap(), &c, &w, M);
    let unplanned = forward(&mut HostSlab::unplanned(a.clone()).unwrap(), &c, &w, M);
    assert!(planned.iter().all(|v| v.is_finite()));
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&planned), bits(&unplanned));
    // Poison mode on a right declaration changes nothing either.
    let p = forward(&mut poisoned(a), &c, &w, M);
    assert_eq!(bits(&p), bits(&planned));
}

#[test]
fn poison_catches_a_live_range_cut_short() {
    let c = Tiny::SMALL;
    let w = Weights::new(&c, 7);
    let right = forward(&mut HostSlab::new(sized(&c)).unwrap(), &c, &w, M);
    let cut = ForwardCut::try_from_config_with(&Levers::new(), &c, M).unwrap();
    // Unplanned and without poison the bug hides: nothing else uses `pos`'s bytes.
    let hidden = forward_cut(&mut HostSlab::unplanned(cut.clone()).unwrap(), &c, &w, M);
    assert_eq!(hidden, right);
    // Poison mode refills `pos` when `attn` begins again in the second layer.
    let caught = forward_cut(&mut poisoned(cut), &c, &w, M);
    assert_ne!(caught, right);
    assert!(
        caught.iter().any(|v| v.is_nan()),
        "the poison reaches the logits"
    );
}

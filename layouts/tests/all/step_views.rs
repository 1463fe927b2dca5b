//! Step views of the metrale arena: a slab reserved for the serve limits,
//! carved for one forward step's smaller shapes. Every step view starts at its
//! reserved offset, lies inside its reservation and has the step's length; a
//! step larger than the reservation is an error naming the right buffer, and
//! the slab stays usable.

use std::mem::size_of_val;

use arena::{Arena, HostSlab, Layout, Levers, StepError};
use arena_testkit::metrale_buffers;
use arena_testkit::strategies::{arb_config, arb_limits};
use layouts::{BufferSizes, ModelConfig, Target};
use proptest::prelude::*;

fn size(c: &ModelConfig, m: usize, s: usize, b: usize, n: usize) -> BufferSizes {
    BufferSizes::try_from_config_with(&Levers::new(), c, m, s, b, n, &Target::DEFAULT).unwrap()
}

/// The first buffer, in carving order (nested and one-of regions in their
/// fields' order), whose step bytes pass its reservation: what the error names.
fn first_too_large(
    reserved: &Layout,
    step: &Layout,
) -> Option<(&'static str, &'static str, usize, usize)> {
    for (r, s) in reserved.placements.iter().zip(&step.placements) {
        match (&r.nested, &s.nested) {
            (Some(rn), Some(sn)) => {
                if let Some(hit) = first_too_large(rn, sn) {
                    return Some(hit);
                }
            }
            _ if s.bytes > r.bytes => return Some((reserved.arena, r.name, s.bytes, r.bytes)),
            _ => {}
        }
    }
    None
}

/// Checks every top-level buffer view of `views`: it starts at the reserved
/// offset, its bytes are the step's, it ends inside the reservation.
macro_rules! check_views {
    ($views:expr, $base:expr, $reserved:expr, $step:expr, [$($f:ident),* $(,)?]) => {{
        let layout = $reserved.layout().unwrap();
        $(
            let p = layout.get(stringify!($f)).unwrap();
            let bytes = size_of_val(&*$views.$f);
            prop_assert_eq!(bytes, $step.$f, "{}: length", stringify!($f));
            if bytes > 0 {
                let offset = $views.$f.as_ptr() as usize - $base;
                prop_assert_eq!(offset, p.offset, "{}: offset", stringify!($f));
                prop_assert!(offset + bytes <= p.offset + p.bytes, "{}: inside", stringify!($f));
            }
        )*
    }};
}

/// Step views for `step` out of a slab reserved for `reserved`, checked.
fn check_step(reserved: &BufferSizes, step: &BufferSizes) -> Result<(), TestCaseError> {
    let mut slab = HostSlab::new(reserved.clone()).unwrap();
    let base = slab.as_bytes().as_ptr() as usize;
    let v = slab.views_for(step).unwrap();
    metrale_buffers!(check_views!(v, base, reserved, step,));
    // A nested region follows its own step sizes, inside its reservation.
    let layout = reserved.layout().unwrap();
    let gdn = layout.get("gdn_fla_scratch").unwrap();
    let inner = gdn.nested.as_ref().unwrap();
    for (name, view, step_bytes) in [
        (
            "w",
            size_of_val(&*v.gdn_fla_scratch.w),
            step.gdn_fla_scratch.inner.w,
        ),
        (
            "gc",
            size_of_val(&*v.gdn_fla_scratch.gc),
            step.gdn_fla_scratch.inner.gc,
        ),
    ] {
        prop_assert_eq!(view, step_bytes, "gdn_fla_scratch.{}", name);
        prop_assert!(inner.get(name).unwrap().bytes >= step_bytes);
    }
    if step.gdn_fla_scratch.inner.w > 0 {
        let off = v.gdn_fla_scratch.w.as_ptr() as usize - base;
        prop_assert_eq!(off, gdn.offset + inner.offset_of("w").unwrap());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random configs and serve limits; a random step at or under every limit.
    #[test]
    fn step_views_lie_inside_their_reservations(
        c in arb_config(),
        (m, s, b, n) in arb_limits(),
        (fm, fs, fn_) in (0.0f64..=1.0, 0.0f64..=1.0, 0.0f64..=1.0),
    ) {
        let reserved = size(&c, m, s, b, n);
        let scale = |limit: usize, f: f64| ((limit as f64 * f) as usize).clamp(1, limit);
        let step = size(&c, scale(m, fm), scale(s, fs), b, scale(n, fn_));
        check_step(&reserved, &step)?;
    }

    /// A step past the reservation is an error naming the first buffer that
    /// does not fit, with both sizes; the slab stays usable.
    #[test]
    fn larger_steps_name_the_buffer(
        c in arb_config(),
        (m, s, b, n) in arb_limits(),
        grow in 2usize..=8,
    ) {
        let reserved = size(&c, m, s, b, n);
        let step = size(&c, m * grow, s, b, n);
        let expected = first_too_large(&reserved.layout().unwrap(), &step.layout().unwrap());
        let mut slab = HostSlab::new(reserved.clone()).unwrap();
        match (slab.views_for(&step), expected) {
            (Ok(_), None) => {}
            (Err(StepError::TooLarge { arena, buffer, step_bytes, reserved_bytes }), Some(e)) => {
                prop_assert_eq!((arena, buffer, step_bytes, reserved_bytes), e);
            }
            (got, want) => prop_assert!(false, "got {:?}, expected {:?}", got.err(), want),
        }
        // Still usable: the reservation's own views and a fitting step.
        let _ = slab.views();
        check_step(&reserved, &reserved)?;
    }
}

/// The metrale arena at M = 1, 37 and 8192 under a reservation of 8192.
#[test]
fn metrale_steps_under_a_reservation_of_8192() {
    let c = ModelConfig::qwen3_next_80b_nvfp4();
    let reserved = size(&c, 8192, 32_768, 16, 64);
    let mut slab = HostSlab::with_guard(reserved.clone(), 64).unwrap();
    for m in [1, 37, 8192] {
        let step = size(&c, m, 32_768, 16, 64);
        check_step(&reserved, &step).unwrap();
        let v = slab.views_for(&step).unwrap();
        assert_eq!(v.hidden_states.len(), m * 2048, "M = {m}");
        v.hidden_states.fill(arena::bf16::from_f32(1.0));
        v.logits.fill(arena::bf16::from_f32(2.0));
        // Writing a whole step view leaves the guards after the reservation intact.
        assert!(slab.check_guards().is_ok(), "M = {m}");
    }
    let too_big = size(&c, 8193, 32_768, 16, 64);
    let Err(e) = slab.views_for(&too_big) else {
        panic!("M = 8193 does not fit a reservation of 8192")
    };
    assert_eq!(
        e.to_string(),
        "`BufferSizes.hidden_states`: the step needs 33558528 bytes, the slab reserves 33554432"
    );
    assert_eq!(slab.views().hidden_states.len(), 8192 * 2048);
}

/// The step's dimensions come from the same sizing as its bytes.
#[test]
fn step_shapes_match_the_step_bytes() {
    let c = ModelConfig::qwen3_next_80b_nvfp4();
    let levers = Levers::new();
    let (step, shapes) =
        BufferSizes::try_step_with(&levers, &c, 37, 32_768, 16, 64, &Target::DEFAULT).unwrap();
    assert_eq!(step, size(&c, 37, 32_768, 16, 64));
    assert_eq!(shapes.hidden_states, [37, 2048]);
    assert_eq!(shapes.qkv_output, [48, step.qkv_output / 2 / 48]);
    let [rows, vocab] = shapes.logits;
    assert_eq!(2 * rows * vocab, step.logits);
    // Every shaped buffer's bytes are its element size times its dimensions.
    macro_rules! dims_match {
        ($($f:ident),* $(,)?) => {$(
            let info = BufferSizes::BUFFERS.iter().find(|b| b.name == stringify!($f)).unwrap();
            assert_eq!(
                info.elem_bytes * shapes.$f.iter().product::<usize>(),
                step.$f,
                "{}: {:?}",
                stringify!($f),
                shapes.$f
            );
        )*};
    }
    dims_match!(
        hidden_states,
        residual,
        norm_output,
        qkv_output,
        moe_output,
        logits,
        expert_gate_out,
        expert_up_out,
        splitk_workspace,
        norm_unit_w,
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
    );
    assert_eq!(
        BufferSizes::BUFFERS
            .iter()
            .filter(|b| !b.shape.is_empty())
            .count(),
        22,
        "every shaped buffer is checked"
    );
    // Off: a buffer whose condition does not hold (no LoRA) has no dimensions.
    assert_eq!(step.lora_xa, 0);
    assert_eq!(shapes.lora_xa, [0, 0]);
    assert_eq!(shapes.fp8_act, [48, step.fp8_act / 48]);
}

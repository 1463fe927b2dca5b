//! The design card's own words compile and size as documented: its
//! attribute inside `#[arena(...)]`, its two stand-alone attributes, a lever
//! no struct attribute declares, a bool let as a condition, and a panic that
//! names the caller's line.

use arena::{Arena, Levers};

#[derive(Debug)]
pub struct Params {
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub fp8_generation_mla: bool,
}

const P: Params = Params {
    hidden_size: 2048,
    intermediate_size: 5120,
    fp8_generation_mla: true,
};

/// The card's line, inside `#[arena(...)]`; the lever is declared nowhere else.
#[derive(Arena, Debug)]
#[arena(params(p: &Params, max_batch_tokens: usize as M))]
#[arena(let K = max(p.hidden_size, p.intermediate_size))]
pub struct InArena {
    #[arena(size = "ceil16(M) * K / 128 * 4", lever = "METRALE_FP8_ROWWISE")]
    pub fp8_scales: usize,
}

/// The card's closest valid Rust: two stand-alone attributes, a string size.
#[derive(Arena, Debug)]
#[arena(params(p: &Params, max_batch_tokens: usize as M))]
#[arena(let K = max(p.hidden_size, p.intermediate_size))]
pub struct TwoAttributes {
    #[size = "ceil16(M) * K / 128 * 4"]
    #[lever = "METRALE_FP8_ROWWISE"]
    pub fp8_scales: usize,
}

/// Rustc takes only a literal after `=` in a stand-alone attribute: a
/// formula there is a string, or a bare integer.
#[derive(Arena, Debug)]
pub struct TwoAttributesLiteral {
    #[size = 4096]
    #[lever = "METRALE_FP8_ROWWISE"]
    pub fixed: usize,
}

/// A let over a bool config field, used as a condition; another over a
/// number field, used in arithmetic.
#[derive(Arena, Debug)]
#[arena(params(p: &Params, max_batch_tokens: usize as M))]
#[arena(let fp8 = p.fp8_generation_mla, let h = p.hidden_size, let fp8_too = fp8)]
pub struct BoolLet {
    #[arena(shape = [M, h], dtype = u8, when = fp8)]
    pub fp8_act: usize,
    #[arena(shape = [M, h], dtype = bf16, unless = fp8_too)]
    pub bf16_act: usize,
}

fn expected(m: usize) -> usize {
    (m.div_ceil(16) * 16) * 5120 / 128 * 4
}

fn on() -> Levers {
    Levers::new().with("METRALE_FP8_ROWWISE", "1")
}

#[test]
fn the_card_attribute_inside_arena_sizes_as_documented() {
    let off = InArena::try_from_config_with(&Levers::new(), &P, 100).unwrap();
    assert_eq!(off.fp8_scales, 0, "an undeclared lever is off when unset");
    let s = InArena::try_from_config_with(&on(), &P, 100).unwrap();
    assert_eq!(s.fp8_scales, expected(100));
    assert_eq!(s.total_bytes(), expected(100));
    // Listed like a declared on/off lever, default off.
    assert_eq!(InArena::LEVERS.len(), 1);
    assert_eq!(InArena::LEVERS[0].name, "METRALE_FP8_ROWWISE");
    assert_eq!(InArena::LEVERS[0].default, Some(false));
    assert_eq!(InArena::lever_names(), ["METRALE_FP8_ROWWISE"]);
    assert_eq!(InArena::BUFFERS[0].lever, Some("METRALE_FP8_ROWWISE"));
    assert_eq!(InArena::BUFFERS[0].formula, "ceil16(M) * K / 128 * 4");
    // Any value but 1 or 0 is an error naming the lever, as for declared ones.
    let bad = Levers::new().with("METRALE_FP8_ROWWISE", "yes");
    let e = InArena::try_from_config_with(&bad, &P, 100).unwrap_err();
    assert!(e.to_string().contains("METRALE_FP8_ROWWISE"), "{e}");
}

#[test]
fn the_two_attribute_forms_mean_the_same() {
    for m in [1, 37, 100, 8192] {
        let a = InArena::try_from_config_with(&on(), &P, m)
            .unwrap()
            .fp8_scales;
        let b = TwoAttributes::try_from_config_with(&on(), &P, m)
            .unwrap()
            .fp8_scales;
        assert_eq!((a, b), (expected(m), expected(m)), "M = {m}");
        let off = TwoAttributes::try_from_config_with(&Levers::new(), &P, m).unwrap();
        assert_eq!(off.fp8_scales, 0);
    }
    assert_eq!(TwoAttributes::BUFFERS, InArena::BUFFERS);
    assert_eq!(TwoAttributes::LEVERS, InArena::LEVERS);
    let lit = TwoAttributesLiteral::try_from_config_with(&on()).unwrap();
    assert_eq!(lit.fixed, 4096);
    assert_eq!(
        TwoAttributesLiteral::BUFFERS[0].lever,
        Some("METRALE_FP8_ROWWISE")
    );
}

#[test]
fn a_bool_let_is_a_condition() {
    let s = BoolLet::try_from_config_with(&Levers::new(), &P, 10).unwrap();
    assert_eq!(s.fp8_act, 10 * 2048);
    assert_eq!(s.bf16_act, 0, "`let fp8_too = fp8` is a bool too");
    let p = Params {
        fp8_generation_mla: false,
        ..P
    };
    let s = BoolLet::try_from_config_with(&Levers::new(), &p, 10).unwrap();
    assert_eq!((s.fp8_act, s.bf16_act), (0, 2 * 10 * 2048));
}

#[test]
fn from_config_panics_at_the_callers_line() {
    use std::sync::{Arc, Mutex};
    let seen: Arc<Mutex<Option<(String, u32)>>> = Arc::default();
    let hook_seen = Arc::clone(&seen);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(l) = info.location() {
            *hook_seen.lock().unwrap() = Some((l.file().to_owned(), l.line()));
        }
    }));
    let huge = Params {
        hidden_size: usize::MAX,
        ..P
    };
    let line = line!() + 1;
    let result = std::panic::catch_unwind(|| BoolLet::from_config(&huge, 10));
    std::panic::set_hook(previous);
    assert!(result.is_err(), "an overflowing size panics");
    let (file, at) = seen.lock().unwrap().clone().expect("a location");
    assert!(file.ends_with("card.rs"), "{file}");
    assert_eq!(at, line, "the panic names the line that called from_config");
}

//! Generated code at work: sizes, totals, offsets, levers, conditions, nested
//! and one-of regions, overflow errors and host carving.

use arena::{Arena, Fault, FieldKind, HostSlab, Levers, Region, SizeError, bf16};

#[derive(Debug)]
pub struct Cfg {
    pub hidden: usize,
    pub experts: usize,
    pub kind: String,
}

fn cfg(hidden: usize, experts: usize) -> Cfg {
    Cfg {
        hidden,
        experts,
        kind: "dense".into(),
    }
}

pub fn doubled(x: usize) -> usize {
    2 * x
}

pub const FLOOR: usize = 256;

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(config: &Cfg, max_batch_tokens: usize as M, extra: usize = 7))]
#[arena(lever(T_ON), lever(T_DEFAULT_ON, default = true))]
#[arena(let h = config.hidden, let moe = config.experts > 0, let twice = doubled(M))]
struct Basic {
    /// Hidden states.
    #[arena(shape = [M, h], dtype = bf16)]
    hidden: usize,
    #[arena(size = "max(4 * M, crate::derive::FLOOR)", dtype = u32)]
    ids: usize,
    #[arena(size = 3)]
    odd: usize,
    #[arena(shape = [M, config.experts], dtype = f32, when = moe)]
    router: usize,
    #[arena(size = 64, unless = moe)]
    dense_only: usize,
    #[arena(size = twice + extra, lever = T_ON)]
    levered: usize,
    #[arena(size = 128, lever = T_DEFAULT_ON)]
    default_on: usize,
    #[arena(size = if config.kind == "dense" { 32 } else { 0 })]
    by_string: usize,
    #[arena(size = hidden / 2, not_in_total, zeroed)]
    derived: usize,
    #[arena(value = hidden + ids)]
    hidden_and_ids: usize,
    #[arena(value = moe)]
    is_moe: bool,
}

fn basic(c: &Cfg, m: usize, levers: &Levers) -> Basic {
    Basic::try_from_config_with(levers, c, m, 7).unwrap()
}

#[test]
fn sizes_and_total() {
    let b = basic(&cfg(16, 0), 10, &Levers::new());
    assert_eq!(b.hidden, 2 * 10 * 16);
    assert_eq!(b.ids, 256);
    assert_eq!(b.odd, 3);
    assert_eq!(b.router, 0, "`when` false");
    assert_eq!(b.dense_only, 64, "`unless` false");
    assert_eq!(b.levered, 0, "lever unset is off");
    assert_eq!(b.default_on, 128, "lever unset takes its default");
    assert_eq!(b.by_string, 32);
    assert_eq!(b.derived, 160, "a field's formula reads another field");
    assert_eq!(b.hidden_and_ids, 320 + 256);
    assert!(!b.is_moe);
    assert_eq!(b.total_bytes(), 320 + 256 + 3 + 64 + 128 + 32);
    let moe = basic(&cfg(16, 4), 10, &Levers::new());
    assert_eq!(moe.router, 4 * 10 * 4);
    assert_eq!(moe.dense_only, 0);
    assert!(moe.is_moe);
}

#[test]
fn defaults_and_the_environment_free_variant() {
    // try_from_config reads the environment; the test names levers no one sets.
    let b = Basic::try_from_config(&cfg(16, 0), 10).unwrap();
    assert_eq!(b, basic(&cfg(16, 0), 10, &Levers::new()));
    assert_eq!(Basic::from_config(&cfg(16, 0), 10), b);
    let mut names = Basic::lever_names();
    names.sort_unstable();
    assert_eq!(names, ["T_DEFAULT_ON", "T_ON"]);
}

/// Defaults are any Rust expression: paths and calls with generic arguments,
/// and forms such as arrays, `if` and closures, each up to its comma.
#[derive(Arena, Debug)]
#[arena(params(
    n: usize,
    a: usize = core::cmp::max::<usize>(2, 3),
    b: usize = [5, 7][1],
    c: usize = if cfg!(test) { 11 } else { 13 },
    d: usize = (|x: usize| x * 2)(8),
))]
struct Defaults {
    #[arena(size = n * (a + b + c + d))]
    x: usize,
}

#[test]
fn defaults_are_any_expression() {
    let d = Defaults::try_from_config(1).unwrap();
    assert_eq!(d.x, 3 + 7 + 11 + 16);
    let all = Defaults::try_from_config_with(&Levers::new(), 2, 1, 1, 1, 1).unwrap();
    assert_eq!(all.x, 8);
}

#[test]
fn levers_through_a_snapshot() {
    let on = Levers::new().with("T_ON", "1").with("T_DEFAULT_ON", "0");
    let b = basic(&cfg(16, 0), 10, &on);
    assert_eq!(b.levered, 20 + 7);
    assert_eq!(b.default_on, 0);
    for bad in ["yes", " 1", "2", "true", ""] {
        let l = Levers::new().with("T_ON", bad);
        let err = Basic::try_from_config_with(&l, &cfg(16, 0), 10, 7).unwrap_err();
        assert!(
            matches!(err, SizeError::Lever { lever: "T_ON", .. }),
            "{err}"
        );
    }
}

#[test]
fn offsets_are_aligned_and_zero_size_takes_no_space() {
    let b = basic(&cfg(16, 0), 10, &Levers::new());
    let l = b.layout().unwrap();
    assert_eq!(l.offset_of("hidden"), Some(0));
    assert_eq!(l.offset_of("ids"), Some(512));
    assert_eq!(l.offset_of("odd"), Some(768));
    // router is 0 bytes: it sits at the cursor and the next buffer is not pushed.
    assert_eq!(l.offset_of("dense_only"), Some(1024));
    for p in &l.placements {
        if p.bytes > 0 {
            assert_eq!(p.offset % 256, 0, "{}", p.name);
        }
    }
    assert!(
        l.get("hidden_and_ids").is_none(),
        "value fields are not carved"
    );
    assert_eq!(l.slab_bytes, b.slab_bytes().unwrap());
    let last = l
        .placements
        .iter()
        .filter(|p| p.bytes > 0)
        .max_by_key(|p| p.offset)
        .unwrap();
    assert_eq!(l.slab_bytes, last.end());
}

#[test]
fn metadata() {
    let info = &Basic::BUFFERS[0];
    assert_eq!(info.name, "hidden");
    assert_eq!(info.doc, "Hidden states.");
    assert_eq!(info.formula, "2 * M * h");
    assert_eq!(info.shape, ["M", "h"]);
    assert_eq!(info.dtype, "bf16");
    assert_eq!(info.elem_bytes, 2);
    let ids = &Basic::BUFFERS[1];
    assert_eq!(ids.formula, "max(4 * M, crate::derive::FLOOR)");
    let levered = Basic::BUFFERS.iter().find(|b| b.name == "levered").unwrap();
    assert_eq!(levered.lever, Some("T_ON"));
    let derived = Basic::BUFFERS.iter().find(|b| b.name == "derived").unwrap();
    assert!(!derived.in_total && derived.zeroed);
    let value = Basic::BUFFERS.iter().find(|b| b.name == "is_moe").unwrap();
    assert_eq!(value.kind, FieldKind::Value);
    assert_eq!(Basic::LEVERS.len(), 2);
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R), align = 1)]
struct Inner {
    #[arena(shape = [R], dtype = u32)]
    a: usize,
    #[arena(shape = [R], dtype = i64)]
    b: usize,
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R), one_of)]
struct Choice {
    #[arena(nested(R))]
    small: Region<Inner>,
    #[arena(nested(2 * R))]
    big: Region<Inner>,
    #[arena(shape = [R], dtype = f32)]
    plain: usize,
}

#[derive(Arena, Debug, Clone, PartialEq)]
#[arena(params(rows: usize as R, on: bool))]
struct Outer {
    #[arena(size = 10)]
    head: usize,
    #[arena(nested(R))]
    inner: Region<Inner>,
    #[arena(nested(R), size = max(4096, inner))]
    floored: Region<Choice>,
    #[arena(nested(R), when = on)]
    gated: Region<Inner>,
    #[arena(shape = [R], dtype = bf16)]
    tail: usize,
}

#[test]
fn nested_and_one_of() {
    let o = Outer::try_from_config_with(&Levers::new(), 3, true).unwrap();
    // Inner: a = 12 bytes at 0, b at 16 (i64 alignment), 24 bytes: slab 40.
    assert_eq!(o.inner.bytes, 40);
    assert_eq!(o.inner.inner.layout().unwrap().offset_of("b"), Some(16));
    // Choice: the max of its alternatives: big = Inner(6) = 24 + 48 = 72.
    assert_eq!(o.floored.inner.slab_bytes().unwrap(), 72);
    assert_eq!(o.floored.bytes, 4096);
    assert_eq!(o.gated.bytes, 40);
    let off = Outer::try_from_config_with(&Levers::new(), 3, false).unwrap();
    assert_eq!(off.gated.bytes, 0);
    assert_eq!(
        off.gated.inner,
        Inner { a: 0, b: 0 },
        "a gated-off nested arena is empty"
    );
    assert_eq!(o.total_bytes(), 10 + 40 + 4096 + 40 + 6);
    let l = o.layout().unwrap();
    let choice = l.get("floored").unwrap().nested.as_ref().unwrap();
    assert!(choice.one_of);
    assert!(choice.placements.iter().all(|p| p.offset == 0));
}

#[test]
fn host_carving_of_nested_and_one_of() {
    let o = Outer::try_from_config_with(&Levers::new(), 3, true).unwrap();
    let mut slab = HostSlab::new(o).unwrap();
    let mut v = slab.views();
    v.head.copy_from_slice(&[1; 10]);
    v.inner.a.copy_from_slice(&[7, 8, 9]);
    v.inner.b[2] = -5;
    v.tail.fill(bf16::from_f32(2.0));
    {
        let small = v.floored.small();
        small.a[0] = 42;
    }
    {
        // The same region seen through another alternative.
        let plain = v.floored.plain();
        assert_eq!(plain[0].to_bits(), 42);
        plain[1] = 1.5;
    }
    let big = v.floored.big();
    assert_eq!(big.a.len(), 6);
    assert_eq!(big.b.len(), 6);
    assert_eq!(v.gated.a.len(), 3);
    let bytes = slab.as_bytes();
    let l = slab.layout().clone();
    let inner_off = l.offset_of("inner").unwrap();
    assert_eq!(&bytes[inner_off..inner_off + 4], &7u32.to_ne_bytes());
    assert_eq!(&bytes[..10], &[1; 10]);
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct Overflowing {
    #[arena(size = n * n)]
    square: usize,
    #[arena(size = n - 1)]
    minus: usize,
}

#[test]
fn overflow_names_the_buffer_and_formula() {
    let e = Overflowing::try_from_config_with(&Levers::new(), usize::MAX / 2 + 1).unwrap_err();
    assert_eq!(
        e,
        SizeError::Formula {
            arena: "Overflowing",
            item: "square",
            formula: "n * n",
            fault: Fault::Overflow
        }
    );
    assert_eq!(
        e.to_string(),
        "`Overflowing.square`: formula `n * n` overflows usize"
    );
    let e = Overflowing::try_from_config_with(&Levers::new(), 0).unwrap_err();
    assert!(matches!(
        e,
        SizeError::Formula {
            item: "minus",
            fault: Fault::Underflow,
            ..
        }
    ));
    let ok = Overflowing::try_from_config_with(&Levers::new(), 1 << 31).unwrap();
    assert_eq!(ok.square, 1 << 62);
}

#[test]
#[should_panic(expected = "`Overflowing.square`: formula `n * n` overflows usize")]
fn from_config_panics_with_the_message() {
    let _ = Overflowing::from_config(usize::MAX);
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct TotalOverflow {
    #[arena(size = n)]
    a: usize,
    /// Not counted: the overflow is past it, at `b`.
    #[arena(size = n, not_in_total)]
    skipped: usize,
    #[arena(value = n)]
    count: usize,
    #[arena(size = n)]
    b: usize,
}

#[test]
fn total_overflow_is_an_error() {
    let e = TotalOverflow::try_from_config_with(&Levers::new(), usize::MAX / 2 + 1).unwrap_err();
    assert!(
        matches!(e, SizeError::SlabOverflow { field: "b", .. }),
        "{e}"
    );
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct Ragged {
    #[arena(size = n, dtype = f32)]
    a: usize,
}

#[test]
fn a_size_must_hold_whole_elements() {
    assert!(Ragged::try_from_config_with(&Levers::new(), 8).is_ok());
    let e = Ragged::try_from_config_with(&Levers::new(), 6).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`Ragged.a`: 6 bytes is not a whole number of 4-byte elements"
    );
}

/// The check is left out only where the formula proves it: `4 * n` always
/// holds whole f32s, `4 * n + 2` and `2 * max(n, 4)` do not.
#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct Multiples {
    #[arena(size = 4 * n, dtype = f32)]
    proven: usize,
    #[arena(size = 4 * n + 2, dtype = f32)]
    plus_two: usize,
    #[arena(size = "2 * max(n, 4)", dtype = f32)]
    doubled: usize,
}

#[test]
fn whole_elements_are_checked_unless_the_formula_proves_them() {
    let e = Multiples::try_from_config_with(&Levers::new(), 4).unwrap_err();
    assert!(
        matches!(
            e,
            SizeError::NotWholeElements {
                field: "plus_two",
                bytes: 18,
                ..
            }
        ),
        "{e}"
    );
}

/// A nested struct whose own fields fit but whose slab does not.
#[derive(Arena, Debug)]
#[arena(params(n: usize), align = 1)]
struct TwoHalves {
    #[arena(size = n)]
    a: usize,
    #[arena(size = n)]
    b: usize,
}

#[derive(Arena, Debug)]
#[arena(params(n: usize), one_of)]
struct TwoChoices {
    #[arena(size = n)]
    a: usize,
    #[arena(size = n)]
    b: usize,
}

#[derive(Arena, Debug)]
#[arena(params(n: usize, one_of: bool))]
struct HoldsHalves {
    #[arena(nested(n), unless = one_of)]
    halves: Region<TwoHalves>,
    #[arena(nested(n), when = one_of)]
    choices: Region<TwoChoices>,
}

#[test]
fn a_nested_arena_past_usize_max_is_an_error() {
    let big = usize::MAX / 2 + 1;
    // The nested struct's slab overflows at its second field.
    let e = HoldsHalves::try_from_config_with(&Levers::new(), big, false).unwrap_err();
    assert!(
        matches!(
            e,
            SizeError::SlabOverflow {
                arena: "TwoHalves",
                field: "b"
            }
        ),
        "{e}"
    );
    assert!(TwoHalves::try_from_config_with(&Levers::new(), big).is_err());
    // A one-of's slab is its largest alternative, but its total sums them:
    // the total must still fit.
    let e = HoldsHalves::try_from_config_with(&Levers::new(), big, true).unwrap_err();
    assert!(
        matches!(
            e,
            SizeError::SlabOverflow {
                arena: "TwoChoices",
                field: "b"
            }
        ),
        "{e}"
    );
    let ok = HoldsHalves::try_from_config_with(&Levers::new(), big - 1, false).unwrap();
    assert_eq!(ok.halves.bytes, ok.halves.inner.total_bytes());
    assert_eq!(ok.total_bytes(), 2 * (big - 1));
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
#[arena(let trim = n > 100)]
struct Trimmed {
    #[arena(size = n, trim = trim)]
    a: usize,
    #[arena(size = 2 * n, trim = trim)]
    b: usize,
    #[arena(size = 5)]
    c: usize,
    #[arena(value = trimmed(trim))]
    removed: usize,
}

#[test]
fn trim_zeroes_its_fields_and_counts_them() {
    let small = Trimmed::try_from_config_with(&Levers::new(), 10).unwrap();
    assert_eq!((small.a, small.b, small.removed), (10, 20, 0));
    let big = Trimmed::try_from_config_with(&Levers::new(), 1000).unwrap();
    assert_eq!((big.a, big.b, big.c, big.removed), (0, 0, 5, 3000));
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct Guarded {
    #[arena(shape = [n], dtype = u32)]
    first: usize,
    #[arena(shape = [n], dtype = u32)]
    second: usize,
}

#[test]
fn guard_bands_name_the_buffer_that_overran() {
    let g = Guarded::try_from_config_with(&Levers::new(), 4).unwrap();
    let mut slab = HostSlab::with_guard(g, 64).unwrap();
    assert!(slab.check_guards().is_ok());
    let l = slab.layout().clone();
    assert!(l.offset_of("second").unwrap() >= 16 + 64);
    {
        let views = slab.views();
        views.first.fill(1);
        views.second.fill(2);
    }
    assert!(
        slab.check_guards().is_ok(),
        "writes inside the views keep the guards"
    );
    // One element past the end of `first`, as a kernel with an off-by-one
    // would write it: through the raw slab, since a view cannot.
    let end = l.get("first").unwrap().end();
    slab.as_bytes_mut()[end..end + 4].copy_from_slice(&9u32.to_ne_bytes());
    let err = slab.check_guards().unwrap_err();
    assert_eq!(err.overrun, ["first"]);
    assert_eq!(
        err.to_string(),
        "`Guarded`: guard overwritten after `first`"
    );
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
#[arena(let trim = n > 100)]
struct TrimsANestedRegion {
    #[arena(nested(n), trim = trim)]
    inner: Region<Inner>,
    #[arena(value = trimmed(trim))]
    removed: usize,
}

#[test]
fn a_trimmed_nested_region_is_empty_and_carves() {
    let t = TrimsANestedRegion::try_from_config_with(&Levers::new(), 1000).unwrap();
    assert_eq!(t.inner.bytes, 0);
    assert_eq!(t.inner.inner, Inner { a: 0, b: 0 });
    assert_eq!(
        t.removed,
        4000 + 8000,
        "a: 4000 bytes, then b at 4000: 8000 bytes"
    );
    let mut slab = HostSlab::new(t).unwrap();
    assert!(slab.views().inner.a.is_empty());
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct NamedInner {
    /// A nested field that happens to be named `inner`: in its own `size`,
    /// `inner` is the nested arena's bytes.
    #[arena(nested(n), size = max(64, inner))]
    inner: Region<Inner>,
    #[arena(size = inner + 1)]
    after: usize,
}

#[test]
fn a_nested_field_named_inner() {
    let s = NamedInner::try_from_config_with(&Levers::new(), 2).unwrap();
    assert_eq!(s.inner.bytes, 64);
    assert_eq!(s.after, 65, "other fields read the region's final size");
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct InnerElsewhere {
    #[arena(size = 8 * n)]
    inner: usize,
    #[arena(nested(n), size = max(256, inner))]
    region: Region<Inner>,
    #[arena(size = inner + region)]
    sum: usize,
}

#[test]
fn inner_in_a_size_does_not_hide_a_field_named_inner() {
    let s = InnerElsewhere::try_from_config_with(&Levers::new(), 2).unwrap();
    assert_eq!((s.inner, s.region.bytes, s.sum), (16, 256, 272));
}

#[derive(Arena, Debug)]
#[arena(params(n: usize))]
struct Part {
    #[arena(shape = [n], dtype = f32)]
    a: usize,
}

/// The generated locals (`cx`, `levers`, `shapes`, `slab`, `x_raw`, `x_on`,
/// `x_inner`, `x_bytes`) are hygienic: user names that spell them mean the
/// user's values, and nothing clashes.
#[derive(Arena, Debug)]
#[arena(params(levers: usize, shapes: usize, cx: usize, trimmed: bool))]
#[arena(let slab = levers + shapes)]
struct Spelled {
    #[arena(size = slab + cx)]
    total: usize,
    #[arena(size = 8, trim = trimmed)]
    w: usize,
    #[arena(size = levers)]
    w_raw: usize,
    #[arena(shape = [shapes], dtype = u8, when = cx > 0)]
    v: usize,
    #[arena(size = 2 * cx)]
    v_on: usize,
    #[arena(nested(levers), size = inner + 4)]
    part: Region<Part>,
    #[arena(size = 3 * shapes)]
    part_bytes: usize,
    #[arena(size = 5)]
    part_inner: usize,
}

#[test]
fn generated_locals_never_meet_user_names() {
    let l = Levers::new();
    let s = Spelled::try_from_config_with(&l, 10, 20, 30, false).unwrap();
    assert_eq!(s.total, 10 + 20 + 30);
    assert_eq!((s.w, s.w_raw), (8, 10));
    assert_eq!((s.v, s.v_on), (20, 60));
    assert_eq!((s.part.bytes, s.part.inner.a), (40 + 4, 40));
    assert_eq!((s.part_bytes, s.part_inner), (60, 5));
    assert_eq!(
        Spelled::try_from_config_with(&l, 10, 20, 30, true)
            .unwrap()
            .w,
        0
    );
    let (step, shapes) = Spelled::try_step_with(&l, 1, 2, 3, false).unwrap();
    assert_eq!(step.v, 2);
    assert_eq!(
        shapes.v,
        [2],
        "the user's `shapes` parameter, not the generated one"
    );
    assert_eq!(shapes.part.a, [1]);
}

/// Raw-identifier fields: the view keeps the raw name (`r#type`), the
/// metadata and messages say `type`, and the locals built from a field's
/// name (`type_on`, `fn_raw`, `ref_inner`) stay valid identifiers.
#[derive(Arena, Debug)]
#[arena(params(n: usize, trimmed: bool))]
struct Keywords {
    #[arena(shape = [n], dtype = f32, when = n > 1)]
    r#type: usize,
    #[arena(size = 8 * r#type, trim = trimmed)]
    r#fn: usize,
    #[arena(nested(n), size = inner + 4)]
    r#ref: Region<Part>,
    #[arena(size = r#fn + 1, lever = T_KEYWORD_OFF)]
    r#match: usize,
}

#[test]
fn raw_identifier_fields_compile_and_are_named_without_r_hash() {
    let l = Levers::new().with("T_KEYWORD_OFF", "1");
    let k = Keywords::try_from_config_with(&l, 3, false).unwrap();
    assert_eq!((k.r#type, k.r#fn, k.r#match), (12, 96, 97));
    assert_eq!((k.r#ref.bytes, k.r#ref.inner.a), (12 + 4, 12));
    assert_eq!(Keywords::try_from_config_with(&l, 3, true).unwrap().r#fn, 0);
    let names: Vec<&str> = Keywords::BUFFERS.iter().map(|b| b.name).collect();
    assert_eq!(names, ["type", "fn", "ref", "match"]);
    let mut slab = HostSlab::new(k).unwrap();
    let v = slab.views();
    assert_eq!((v.r#type.len(), v.r#fn.len()), (3, 96));
    assert_eq!(v.r#ref.a.len(), 3);
    let e = Keywords::try_from_config_with(&Levers::new().with("T_KEYWORD_OFF", "x"), 3, false)
        .unwrap_err();
    assert!(!e.to_string().contains("r#"), "{e}");
}

/// Raw identifiers in a phased arena: fields and phases.
#[derive(Arena, Debug)]
#[arena(params(n: usize), phases(r#in, out))]
struct KeywordPhases {
    #[arena(shape = [n], dtype = u32, live = r#in, zeroed)]
    r#type: usize,
    #[arena(shape = [n], dtype = f32, live = out)]
    r#loop: usize,
}

#[test]
fn raw_identifier_fields_in_phases() {
    assert_eq!(KeywordPhases::PHASES, ["in", "out"]);
    let k = KeywordPhases::try_from_config_with(&Levers::new(), 4).unwrap();
    let mut slab = HostSlab::new(k).unwrap();
    let mut phases = slab.views();
    assert_eq!(phases.r#in().r#type, [0; 4]);
    assert_eq!(phases.out().r#loop.len(), 4);
}

/// Rust identifiers are XID: a string formula takes the names its token
/// twin takes, `größe` and `länge` included.
#[derive(Arena, Debug)]
#[arena(params(größe: usize, länge: usize), let breite = größe + länge)]
struct Unicode {
    #[arena(size = "größe * 4")]
    a: usize,
    #[arena(size = größe * 4)]
    b: usize,
    #[arena(size = "breite * länge + größe")]
    c: usize,
}

#[test]
fn string_formulas_take_rust_identifiers() {
    let u = Unicode::try_from_config_with(&Levers::new(), 10, 3).unwrap();
    assert_eq!((u.a, u.b, u.c), (40, 40, 13 * 3 + 10));
    assert_eq!(Unicode::BUFFERS[0].formula, "größe * 4");
}

/// `next_pow2`: CUDA-graph batch buckets, checked like the other built-ins.
#[derive(Arena, Debug)]
#[arena(params(batch: usize as N, h: usize))]
struct Buckets {
    #[arena(size = "next_pow2(N) * h * 2")]
    padded: usize,
    #[arena(size = next_pow2(N))]
    bucket: usize,
}

#[test]
fn next_pow2_rounds_up_to_a_power_of_two_and_overflow_is_an_error() {
    let l = Levers::new();
    let at = |n| Buckets::try_from_config_with(&l, n, 8).map(|b| b.bucket);
    assert_eq!(at(0), Ok(1));
    assert_eq!(at(1), Ok(1));
    assert_eq!(at(3), Ok(4));
    assert_eq!(at(64), Ok(64));
    assert_eq!(at(65), Ok(128));
    let e = Buckets::try_from_config_with(&l, (1 << 63) + 1, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`Buckets.padded`: formula `next_pow2(N) * h * 2` overflows usize"
    );
    assert_eq!(Buckets::growth("N"), arena::fit::Growth::Grows);
}

/// `lever(NAME, flag)`: an on/off lever read with the usual spellings, with
/// a default, a plain `bool` in formulas.
#[derive(Arena, Debug)]
#[arena(params(n: usize))]
// clippy's `duplicated_attributes` reads a key repeated in helper
// attributes (`flag` of two levers) as a repeated attribute
// (rust-clippy#12923): allowed on the struct.
#[allow(clippy::duplicated_attributes)]
#[arena(
    lever(DEMO_FLAG_GRAPHS, flag, default = true),
    lever(DEMO_FLAG_FP8, flag)
)]
struct Flags {
    #[arena(size = "4 * n", when = DEMO_FLAG_GRAPHS && !DEMO_FLAG_FP8)]
    graphs: usize,
    #[arena(size = if DEMO_FLAG_FP8 { n } else { 2 * n })]
    act: usize,
}

#[test]
fn flag_levers_take_the_usual_spellings_and_a_default() {
    let at = |l: Levers| Flags::try_from_config_with(&l, 10).map(|f| (f.graphs, f.act));
    assert_eq!(at(Levers::new()), Ok((40, 20)));
    assert_eq!(
        at(Levers::new().with("DEMO_FLAG_GRAPHS", "off")),
        Ok((0, 20))
    );
    assert_eq!(
        at(Levers::new().with("DEMO_FLAG_GRAPHS", "No")),
        Ok((0, 20))
    );
    assert_eq!(at(Levers::new().with("DEMO_FLAG_FP8", "TRUE")), Ok((0, 10)));
    assert_eq!(at(Levers::new().with("DEMO_FLAG_FP8", " yes")), Ok((0, 10)));
    assert_eq!(at(Levers::new().with("DEMO_FLAG_FP8", "")), Ok((40, 20)));
    let e = at(Levers::new().with("DEMO_FLAG_FP8", "sure")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("lever `DEMO_FLAG_FP8` has value \"sure\""),
        "{e}"
    );
    assert_eq!(
        Flags::LEVERS
            .iter()
            .map(|l| (l.name, l.default))
            .collect::<Vec<_>>(),
        [
            ("DEMO_FLAG_GRAPHS", Some(true)),
            ("DEMO_FLAG_FP8", Some(false))
        ]
    );
}

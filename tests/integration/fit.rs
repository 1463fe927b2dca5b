//! `arena::fit`: the largest value of a parameter whose arena fits a
//! budget, checked against a scan of the whole range on random budgets, for
//! arenas flat and phased, with levers, nested and one-of regions, run-time
//! dtypes, guards and formulas not known to grow.

use arena::fit::{self, FitError, Growth, Method, Options};
use arena::{Arena, Carving, DType, DynBytes, Levers, Region, SizeError};

/// A flat arena with a lever, a condition that does not read `M` and the
/// built-ins that grow.
#[derive(Arena, Debug)]
#[arena(params(hidden: usize as h, max_batch_tokens: usize as M, experts: usize as E))]
#[arena(lever(DEMO_FIT_SCALES), let K = max(h, 3 * h / 2))]
pub struct Flat {
    #[arena(shape = [M, h], dtype = bf16)]
    pub hidden_states: usize,
    #[arena(size = "ceil16(M) * K / 128 * 4", dtype = f32, lever = DEMO_FIT_SCALES)]
    pub scales: usize,
    #[arena(size = if E > 0 { 4 * M * E } else { 256 }, dtype = f32)]
    pub router: usize,
    #[arena(size = "round_up(div_ceil(M, 3), 64) + min(M, 100) + clamp(M, 7, 4096) - 7")]
    pub odd: usize,
    #[arena(size = "max(M * 2, 1000) / 3", align = 1024)]
    pub tail: usize,
}

/// The same shape with phases: a planned slab.
#[derive(Arena, Debug)]
#[arena(params(m: usize, h: usize), phases(embed, attn, mlp, head), align = 64)]
pub struct Pass {
    #[arena(shape = [m, h], dtype = f32)]
    pub x: usize,
    #[arena(shape = [m, 3 * h], dtype = f32, live = attn)]
    pub qkv: usize,
    #[arena(shape = [m + 5, 4 * h], dtype = f32, live = mlp)]
    pub up: usize,
    #[arena(shape = [m, h], dtype = u8, live = attn..=mlp)]
    pub mask: usize,
    #[arena(shape = [3 * m + 17], dtype = u32, live = head)]
    pub ids: usize,
    #[arena(size = "(m * 37) % 4096 + 64", live = embed..=attn)]
    pub jitter: usize,
}

/// A one-of region: the widest alternative.
#[derive(Arena, Debug)]
#[arena(params(rows: usize as R, cols: usize as C), one_of)]
pub struct Either {
    #[arena(shape = [R, C], dtype = f32)]
    pub wide: usize,
    #[arena(shape = [2 * R + 64], dtype = u8)]
    pub narrow: usize,
}

/// Nested regions whose arguments grow with `M`, and one that does not read it.
#[derive(Arena, Debug)]
#[arena(params(max_batch_tokens: usize as M, width: usize as w))]
pub struct Outer {
    #[arena(shape = [M, w], dtype = bf16)]
    pub x: usize,
    #[arena(nested(M, w))]
    pub either: Region<Either>,
    #[arena(nested(16, w), size = "max(inner, 4096)")]
    pub fixed: Region<Either>,
    #[arena(nested(ceil16(M), 8), size = "inner + 512")]
    pub padded: Region<Either>,
}

/// A dtype chosen at run time.
#[derive(Arena, Debug)]
#[arena(params(act: DType, tokens: usize as M, h: usize))]
pub struct Dyn {
    #[arena(shape = [M, h], dtype = act)]
    pub x: DynBytes,
    #[arena(shape = [M], dtype = f32)]
    pub scale: usize,
}

/// Formulas not known to grow: a condition on `M`, a subtraction of it.
#[derive(Arena, Debug)]
#[arena(params(max_batch_tokens: usize as M))]
pub struct Wobbly {
    #[arena(size = if M % 2 == 0 { 1000 * M } else { 10 * M })]
    pub saw: usize,
    #[arena(size = "64 * M")]
    pub steady: usize,
}

/// A nested arena that does not grow with the parameter its argument fills.
#[derive(Arena, Debug)]
#[arena(params(m: usize))]
pub struct Shrinks {
    #[arena(size = "8192 - m")]
    pub rest: usize,
}

#[derive(Arena, Debug)]
#[arena(params(max_batch_tokens: usize as M))]
pub struct HoldsShrinks {
    #[arena(shape = [M], dtype = f32)]
    pub x: usize,
    #[arena(nested(M))]
    pub inner: Region<Shrinks>,
}

/// A small deterministic generator (xorshift), so the random budgets are the
/// same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The slab's bytes at every value of `range` (`None`: too large).
fn scan<A: Arena>(
    range: std::ops::RangeInclusive<usize>,
    carving: Carving,
    mut size: impl FnMut(usize) -> Result<A, SizeError>,
) -> Vec<(usize, Option<usize>)> {
    range
        .map(|v| {
            let bytes = size(v)
                .ok()
                .and_then(|a| a.layout_for(carving).ok().map(|l| l.slab_bytes));
            (v, bytes)
        })
        .collect()
}

/// The brute-force answer: the largest value whose bytes fit.
fn brute(table: &[(usize, Option<usize>)], budget: usize) -> Option<usize> {
    table
        .iter()
        .rev()
        .find(|(_, b)| b.is_some_and(|b| b <= budget))
        .map(|&(v, _)| v)
}

/// `fit::largest_with` against the scan for `budgets` budgets drawn around
/// the range's bytes, and the fit's own claims (bytes, next bytes).
fn check_against_scan<A: Arena>(
    param: &str,
    range: std::ops::RangeInclusive<usize>,
    options: Options,
    budgets: usize,
    seed: u64,
    mut size: impl FnMut(usize) -> Result<A, SizeError>,
) -> Vec<fit::Fit> {
    let table = scan(range.clone(), options.carving, &mut size);
    let top = table.iter().filter_map(|(_, b)| *b).max().unwrap_or(0);
    let mut rng = Rng(seed);
    let mut fits = Vec::new();
    for k in 0..budgets {
        // Some budgets at a table's bytes exactly, some between, some beyond.
        let budget = match k % 3 {
            0 => table[rng.below(table.len() as u64) as usize].1.unwrap_or(0),
            1 => rng.below(top as u64 + top as u64 / 4 + 2) as usize,
            _ => table[rng.below(table.len() as u64) as usize]
                .1
                .unwrap_or(0)
                .saturating_sub(1),
        };
        let got = fit::largest_with(param, range.clone(), budget, &options, &mut size);
        match (brute(&table, budget), got) {
            (Some(v), Ok(f)) => {
                assert_eq!(f.value, v, "{param}: budget {budget}");
                let bytes = table.iter().find(|(x, _)| *x == v).unwrap().1;
                assert_eq!(Some(f.bytes), bytes);
                let next = table.iter().find(|(x, _)| *x == v + 1).and_then(|t| t.1);
                assert_eq!(f.next_bytes, next);
                assert!(f.next_bytes.is_none_or(|n| n > budget));
                fits.push(f);
            }
            (None, Err(FitError::NothingFits { start, bytes, .. })) => {
                assert_eq!(start, *range.start());
                assert_eq!(bytes, table[0].1);
            }
            (want, got) => panic!("{param}, budget {budget}: scan {want:?}, fit {got:?}"),
        }
    }
    fits
}

#[test]
fn flat_arena_fits_as_a_scan_does_by_bisection() {
    assert_eq!(Flat::growth("max_batch_tokens"), Growth::Grows);
    assert_eq!(Flat::growth("M"), Growth::Grows);
    assert!(Flat::grows_with("hidden"));
    // `E > 0` reads the experts in a condition.
    assert!(matches!(
        Flat::growth("E"),
        Growth::NotKnown { item: "router", .. }
    ));
    assert_eq!(Flat::PARAMS, ["hidden", "max_batch_tokens", "experts"]);
    for (lever, seed) in [("1", 1), ("0", 2)] {
        let levers = Levers::new().with("DEMO_FIT_SCALES", lever);
        let fits = check_against_scan("M", 0..=3000, Options::new(), 60, seed, |m| {
            Flat::try_from_config_with(&levers, 512, m, 8)
        });
        assert!(fits.iter().all(|f| f.method == Method::Bisection));
        // 3,001 values: at most 13 sizings for the bisection, one for the next.
        assert!(fits.iter().all(|f| f.sizings <= 14), "{fits:?}");
    }
}

#[test]
fn a_range_of_2_20_values_takes_at_most_25_sizings() {
    let levers = Levers::new();
    let mut sized = 0;
    let f = fit::largest("max_batch_tokens", 1..=1 << 20, 6 << 30, |m| {
        sized += 1;
        Flat::try_from_config_with(&levers, 7168, m, 256)
    })
    .unwrap();
    assert_eq!(f.sizings, sized);
    assert!(sized <= 25, "{sized}");
    let at = |m| {
        Flat::try_from_config_with(&levers, 7168, m, 256)
            .unwrap()
            .slab_bytes()
            .unwrap()
    };
    assert!(at(f.value) <= 6 << 30 && at(f.value + 1) > 6 << 30);
}

#[test]
fn guards_and_unplanned_carving_are_the_slab_that_must_fit() {
    let levers = Levers::new();
    let options = Options::new().carving(Carving::guard(4096));
    check_against_scan("M", 1..=2000, options, 40, 3, |m| {
        Flat::try_from_config_with(&levers, 256, m, 0)
    });
    let options = Options::new().carving(Carving {
        unplanned: true,
        guard: 256,
        ..Carving::default()
    });
    let fits = check_against_scan("h", 0..=1500, options, 40, 4, |h| {
        Pass::try_from_config_with(&levers, 30, h)
    });
    assert!(fits.iter().all(|f| f.method == Method::Bisection));
}

#[test]
fn planned_arena_fits_between_its_bounds() {
    let levers = Levers::new();
    // `jitter` reads `m` in a remainder: not known to grow, so a scan.
    assert!(matches!(
        Pass::growth("m"),
        Growth::NotKnown { item: "jitter", .. }
    ));
    assert_eq!(Pass::growth("h"), Growth::Grows);
    let fits = check_against_scan("h", 1..=1500, Options::new(), 40, 5, |h| {
        Pass::try_from_config_with(&levers, 37, h)
    });
    assert!(fits.iter().all(|f| f.method == Method::Bounds));
    let fits = check_against_scan("m", 0..=1200, Options::new(), 30, 6, |m| {
        Pass::try_from_config_with(&levers, m, 64)
    });
    assert!(fits.iter().all(|f| f.method == Method::Scan));
    // With guards the planned slab is the guarded plan.
    check_against_scan(
        "h",
        1..=800,
        Options::new().carving(Carving::guard(512)),
        20,
        7,
        |h| Pass::try_from_config_with(&levers, 50, h),
    );
}

#[test]
fn nested_and_one_of_regions_fit_as_a_scan_does() {
    let levers = Levers::new();
    assert_eq!(Either::growth("R"), Growth::Grows);
    assert_eq!(Outer::growth("M"), Growth::Grows);
    let fits = check_against_scan("M", 0..=2500, Options::new(), 60, 8, |m| {
        Outer::try_from_config_with(&levers, m, 48)
    });
    assert!(fits.iter().all(|f| f.method == Method::Bisection));
    check_against_scan("R", 0..=5000, Options::new(), 40, 9, |r| {
        Either::try_from_config_with(&levers, r, 3)
    });
}

#[test]
fn a_nested_arena_that_does_not_grow_is_named() {
    assert_eq!(
        Shrinks::growth("m"),
        Growth::NotKnown {
            item: "rest",
            formula: "8192 - m"
        }
    );
    assert_eq!(
        HoldsShrinks::growth("M"),
        Growth::NotKnown {
            item: "rest",
            formula: "8192 - m"
        }
    );
    let levers = Levers::new();
    let fits = check_against_scan("M", 0..=3000, Options::new(), 30, 10, |m| {
        HoldsShrinks::try_from_config_with(&levers, m)
    });
    assert!(fits.iter().all(|f| f.method == Method::Scan));
}

#[test]
fn runtime_dtypes_fit_as_a_scan_does() {
    let levers = Levers::new();
    assert_eq!(Dyn::growth("tokens"), Growth::Grows);
    for (act, seed) in [(DType::BF16, 11), (DType::F32, 12), (DType::F8E4M3, 13)] {
        check_against_scan("tokens", 0..=4000, Options::new(), 30, seed, |m| {
            Dyn::try_from_config_with(&levers, act, m, 96)
        });
    }
}

#[test]
fn formulas_not_known_to_grow_are_scanned_and_named_past_the_bound() {
    let levers = Levers::new();
    let g = Wobbly::growth("M");
    assert_eq!(
        g,
        Growth::NotKnown {
            item: "saw",
            formula: "if M % 2 == 0 { 1000 * M } else { 10 * M }"
        }
    );
    let fits = check_against_scan("M", 1..=3000, Options::new(), 60, 14, |m| {
        Wobbly::try_from_config_with(&levers, m)
    });
    // An odd value beats the even one below it: a bisection would miss it.
    assert!(fits.iter().any(|f| f.value % 2 == 1));
    let e = fit::largest_with(
        "max_batch_tokens",
        1..=1 << 20,
        1 << 20,
        &Options::new().max_scan(1000),
        |m| Wobbly::try_from_config_with(&levers, m),
    )
    .unwrap_err();
    assert!(matches!(
        e,
        FitError::NotMonotone {
            item: "saw",
            max_scan: 1000,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "`Wobbly.saw`: formula `if M % 2 == 0 { 1000 * M } else { 10 * M }` is not known to grow with `max_batch_tokens`, so every value must be sized; the scan passed 1000 sizings (narrow the range or raise max_scan)"
    );
}

#[test]
fn errors_name_the_parameter_the_range_and_the_value() {
    let levers = Levers::new();
    let size = |m| Flat::try_from_config_with(&levers, 512, m, 8);
    let e = fit::largest("max_batch_tokns", 1..=10, 1 << 30, size).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`Flat` has no parameter `max_batch_tokns`; its parameters: `hidden`, `max_batch_tokens`, `experts`"
    );
    let e = fit::largest("M", 10..10, 1 << 30, size).unwrap_err();
    assert_eq!(e.to_string(), "the range of `M` is empty");
    let e = fit::largest("M", 100..=200, 1000, size).unwrap_err();
    let at_100 = size(100).unwrap().slab_bytes().unwrap();
    assert_eq!(
        e.to_string(),
        format!(
            "no value of `M` fits `Flat` in 1000 bytes: at M = 100, the smallest, it takes {at_100} bytes"
        )
    );
    // Sizes past usize::MAX do not fit any budget; the values below do.
    let f = fit::largest("M", 1..=usize::MAX, usize::MAX, size).unwrap();
    assert!(f.next_bytes.is_none() && f.value > 1 << 40, "{f:?}");
    // Another sizing error is returned with the value, and is its source.
    let e = fit::largest("m", 0..=100, 1 << 20, |m| {
        Shrinks::try_from_config_with(&levers, m + 8150)
    })
    .unwrap_err();
    assert!(matches!(e, FitError::Sizing { .. }), "{e:?}");
    let source = std::error::Error::source(&e).unwrap();
    assert!(source.to_string().contains("`Shrinks.rest`"), "{source}");
    assert!(e.to_string().starts_with("at m = "), "{e}");
}

#[test]
fn the_frontier_of_two_limits_is_a_fit_for_each_outer_value() {
    let levers = Levers::new();
    let budget = 48 << 20;
    let points = fit::frontier(
        "experts",
        [0, 8, 64, 4096],
        "max_batch_tokens",
        1..=1 << 16,
        budget,
        &Options::new(),
        |e, m| Flat::try_from_config_with(&levers, 2048, m, e),
    )
    .unwrap();
    assert_eq!(points.len(), 4);
    for p in &points {
        let want = fit::largest("M", 1..=1 << 16, budget, |m| {
            Flat::try_from_config_with(&levers, 2048, m, p.value)
        })
        .ok();
        assert_eq!(p.fit, want);
    }
    // More experts, fewer tokens.
    let values: Vec<usize> = points
        .iter()
        .filter_map(|p| p.fit.map(|f| f.value))
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // A budget nothing fits at 4,096 experts: that point has no fit.
    let points = fit::frontier(
        "E",
        [1, 1 << 20],
        "M",
        1..=1 << 16,
        1 << 20,
        &Options::new(),
        |e, m| Flat::try_from_config_with(&levers, 256, m, e),
    )
    .unwrap();
    assert!(points[0].fit.is_some() && points[1].fit.is_none());
    let e = fit::frontier("nope", [1], "M", 1..=2, 1, &Options::new(), |e, m| {
        Flat::try_from_config_with(&levers, 256, m, e)
    })
    .unwrap_err();
    assert!(matches!(e, FitError::UnknownParam { .. }));
}

#[test]
fn a_planned_fit_past_max_scan_between_its_bounds_is_an_error() {
    let levers = Levers::new();
    let size = |h| Pass::try_from_config_with(&levers, 37, h);
    // A budget between the lower bound and the unplanned slab over a wide
    // range of values: more values to plan than a scan of 3 may.
    let at = |h| size(h).unwrap();
    let budget = at(5_000).lower_bound_bytes().unwrap();
    let e = fit::largest_with(
        "h",
        1..=1_000_000,
        budget,
        &Options::new().max_scan(3),
        size,
    )
    .unwrap_err();
    match &e {
        FitError::ScanTooLong {
            from, to, max_scan, ..
        } => {
            assert_eq!(*max_scan, 3);
            assert!(from < to && *to >= 5_000, "{e}");
            assert!(at(from - 1).unplanned_bytes().unwrap() <= budget);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        e.to_string()
            .contains("lie between the lower bound and the unplanned slab")
    );
    // With the default scan it is the scan's answer.
    let f = fit::largest("h", 1..=20_000, budget, size).unwrap();
    assert_eq!(f.method, Method::Bounds);
    let want = (1..=20_000)
        .rev()
        .find(|&h| at(h).slab_bytes().unwrap() <= budget)
        .unwrap();
    assert_eq!(f.value, want);
}

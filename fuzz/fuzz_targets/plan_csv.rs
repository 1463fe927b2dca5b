//! Fuzzes `arena-plan`'s reader: any text is a problem or a `ProblemError`
//! naming a line; a problem is planned (budget 1,000), its plan checked by an
//! independent overlap check, and its solution file read back.
#![no_main]

use arena_runtime::plan::{Plan, Problem, plan_with_budget};
use libfuzzer_sys::fuzz_target;

mod check;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let problem = match Problem::parse(text) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}");
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if problem.buffers.len() > 400 {
        return;
    }
    let items = problem.items(1);
    let Ok(Plan {
        offsets: off,
        height: slab,
        ..
    }) = plan_with_budget(&items, 0, 1_000)
    else {
        // Only sizes whose sum leaves usize fail.
        let sum: u128 = problem.buffers.iter().map(|b| b.size as u128).sum();
        assert!(sum > usize::MAX as u128);
        return;
    };
    check::plan_is_sound(&items, &off, slab);
    assert!(problem.lower_bound() <= slab);
    let back = Problem::parse(&problem.solution_csv(&off)).expect("a solution reads back");
    assert_eq!(back.buffers.len(), problem.buffers.len());
    for (a, b) in back.buffers.iter().zip(&problem.buffers) {
        assert_eq!(
            (&a.id, a.lower, a.upper, a.size),
            (&b.id, b.lower, b.upper, b.size)
        );
    }
});

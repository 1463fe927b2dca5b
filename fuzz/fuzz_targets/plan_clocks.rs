//! Fuzzes the reader of vector clocks (`ClockProblem`, what `arena-plan`
//! reads): any text is a problem or a `ProblemError` naming a line; a
//! problem of up to 300 buffers is planned (budget 1,000, alignment 8), its
//! plan checked pair by pair against the clocks (two buffers that meet never
//! share a byte), its height against the bound, and its solution file read
//! back to the same buffers.
#![no_main]

use arena_runtime::plan::ClockProblem;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let problem = match ClockProblem::parse(text) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}");
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let buffers = problem.buffers();
    if buffers.len() > 300 {
        return;
    }
    let Ok(plan) = problem.plan(8, 1_000) else {
        // Only sizes whose sum leaves usize fail.
        let sum: u128 = buffers.iter().map(|b| b.size as u128).sum();
        assert!(sum > usize::MAX as u128 / 2);
        return;
    };
    let off = &plan.offsets;
    for a in 0..buffers.len() {
        // A buffer of no bytes takes no place: at 0.
        if buffers[a].size > 0 {
            assert_eq!(off[a] % 8, 0);
            assert!(off[a] + buffers[a].size <= plan.height);
        } else {
            assert_eq!(off[a], 0, "{} of no bytes", buffers[a].id);
        }
        for b in 0..a {
            if buffers[a].size > 0 && buffers[b].size > 0 && problem.meet(a, b) {
                assert!(
                    off[a] + buffers[a].size <= off[b] || off[b] + buffers[b].size <= off[a],
                    "{} and {} meet and share bytes",
                    buffers[a].id,
                    buffers[b].id
                );
            }
        }
    }
    assert!(problem.lower_bound() <= plan.height);
    let back = ClockProblem::parse(&problem.solution_csv(off)).expect("a solution reads back");
    assert_eq!(back.buffers().len(), buffers.len());
    for (a, b) in back.buffers().iter().zip(buffers) {
        assert_eq!(
            (&a.id, &a.lower, &a.upper, a.size),
            (&b.id, &b.lower, &b.upper, b.size)
        );
    }
});

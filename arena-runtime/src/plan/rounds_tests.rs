//! The rounds' heights in units of the sizes' common divisor.

use super::*;
use crate::plan::search::tests::{draws, perfect_packing};

/// Perfect packings whose sizes are multiples of 1 KiB, searched from a
/// height one byte above the bound (as a stuck rebuild's tiles are: only a
/// plan at the bound is of use): the rounds go on until they have one or
/// their budget is spent. (Counted in whole KiB, that height was the
/// bound's, and they ended after their first attempt.)
#[test]
fn rounds_from_one_byte_above_the_bound_go_on_until_a_plan_or_the_budget() {
    let mut next = draws(7);
    let budget = 20_000;
    let mut searched_on = 0;
    for case in 0..12 {
        let (width, height, splits) = (16 + next(16), 32 + next(32), 150 + next(100));
        let (_, mut jobs) = perfect_packing(&mut next, width, height, splits);
        for job in &mut jobs {
            job.foot *= 1_024;
        }
        let bound = height * 1_024;
        let rounded = rounds(
            &jobs,
            width,
            Vec::new(),
            bound,
            bound + 1,
            (budget, 0),
            None,
        );
        let first = run_unit(jobs.len() as u64);
        if let Some(plan) = &rounded.best {
            assert_eq!(plan.height, bound, "case {case}");
        } else {
            assert_eq!(rounded.nodes, budget, "case {case}: stopped early");
        }
        if rounded.nodes > first {
            searched_on += 1;
        }
    }
    // Not every case is planned by the first attempt.
    assert!(searched_on > 0);
}

//! The search against an exhaustive optimum on small problems.

use super::*;
use crate::plan::Plan;

/// The lowest height over every order of placing each buffer on the
/// highest placed buffer live with it: the optimum (every plan pushed
/// down is one of these).
fn optimum(jobs: &[Job]) -> usize {
    optimum_above(jobs, &[])
}

/// [`optimum`] with each section's bottom taken up to `base` (empty:
/// nothing taken).
fn optimum_above(jobs: &[Job], base: &[usize]) -> usize {
    fn go(
        jobs: &[Job],
        base: &[usize],
        placed: &mut Vec<(usize, usize)>,
        used: &mut [bool],
        best: &mut usize,
    ) {
        if placed.len() == jobs.len() {
            let h = placed
                .iter()
                .map(|&(j, o)| o + jobs[j].foot)
                .max()
                .unwrap_or(0);
            *best = (*best).min(h);
            return;
        }
        for j in 0..jobs.len() {
            if used[j] {
                continue;
            }
            let a = &jobs[j];
            let under = base
                .get(a.start..a.end)
                .and_then(|b| b.iter().copied().max())
                .unwrap_or(0);
            let off = placed
                .iter()
                .filter(|&&(k, _)| jobs[k].start < a.end && a.start < jobs[k].end)
                .map(|&(k, o)| o + jobs[k].foot)
                .max()
                .unwrap_or(0)
                .max(under)
                .next_multiple_of(a.align);
            used[j] = true;
            placed.push((j, off));
            go(jobs, base, placed, used, best);
            placed.pop();
            used[j] = false;
        }
    }
    let mut best = usize::MAX;
    go(
        jobs,
        base,
        &mut Vec::new(),
        &mut vec![false; jobs.len()],
        &mut best,
    );
    best
}

/// A stream of draws from `seed`: each call a value below its argument.
pub(crate) fn draws(mut seed: u64) -> impl FnMut(u64) -> usize {
    move |n: u64| {
        seed = super::super::base::mix(seed, 1);
        (seed % n) as usize
    }
}

/// `n` jobs over `sections`, drawn from `next` (a value below its
/// argument): 1 to 9 bytes, aligned to 1, 2 or 4.
fn random_jobs(next: &mut impl FnMut(u64) -> usize, sections: usize, n: usize) -> Vec<Job> {
    (0..n)
        .map(|item| {
            let start = next(sections as u64);
            let end = start + 1 + next((sections - start) as u64);
            Job {
                start,
                end,
                foot: 1 + next(9),
                align: 1 << next(3),
                width: end - start,
                item,
            }
        })
        .collect()
}

/// Every job of the plan `offsets` aligned, at or below `best`, at or
/// above the `base` of its sections (where one is given), and apart from
/// every job live with it.
fn assert_plan(jobs: &[Job], offsets: &[usize], best: usize, base: &[usize], case: &str) {
    for (a, ja) in jobs.iter().enumerate() {
        assert!(offsets[a] + ja.foot <= best && offsets[a].is_multiple_of(ja.align));
        assert!(
            base.is_empty() || (ja.start..ja.end).all(|s| offsets[a] >= base[s]),
            "{case}: {a} below the base"
        );
        for (b, jb) in jobs.iter().enumerate().skip(a + 1) {
            let live = ja.start < jb.end && jb.start < ja.end;
            let apart = offsets[a] + ja.foot <= offsets[b] || offsets[b] + jb.foot <= offsets[a];
            assert!(!live || apart, "{case}: {a} and {b} overlap");
        }
    }
}

#[test]
fn finds_and_proves_the_optimum_of_small_problems() {
    let mut next = draws(7);
    for case in 0..3000 {
        let sections = 1 + next(6);
        let n = 1 + next(7);
        let jobs = random_jobs(&mut next, sections, n);
        let best = optimum(&jobs);
        // Through the planner: at the optimum with a budget it cannot
        // run out of, with or without a capacity to aim at.
        let items: Vec<super::super::base::Item> = jobs
            .iter()
            .map(|j| super::super::base::Item {
                bytes: j.foot,
                align: j.align,
                first: j.start,
                last: j.end - 1,
            })
            .collect();
        let Plan { height, .. } = super::super::plan_with_budget(&items, 0, 1_000_000).unwrap();
        assert_eq!(height, best, "case {case}: {jobs:?}");
        let Plan { height, .. } = super::super::plan_within(&items, 0, 1_000_000, best).unwrap();
        assert_eq!(height, best, "case {case}: {jobs:?}");
        let model = Model::new(&jobs, sections, Vec::new());
        for (order, branch) in ORDERS.into_iter().flat_map(|o| {
            [
                (o, Branch::Offset),
                (o, Branch::Corner),
                (o, Branch::Valley),
            ]
        }) {
            let found = model.solve_by(best, order, branch, 1_000_000);
            let offsets = found.offsets.unwrap_or_else(|| {
                panic!("case {case}: {jobs:?} at {best} ({order:?}, {branch:?})")
            });
            assert_plan(
                &jobs,
                &offsets,
                best,
                &[],
                &format!("case {case} ({branch:?})"),
            );
            if best > 1 {
                let below = model.solve_by(best - 1, order, branch, 1_000_000);
                assert!(
                    below.offsets.is_none() && below.proven,
                    "case {case} ({branch:?})"
                );
            }
        }
    }
}

#[test]
fn finds_and_proves_the_optimum_above_a_base() {
    // The search of a neighbourhood re-planned above the rest of a plan:
    // each section's bottom taken up to its base.
    let mut next = draws(11);
    for case in 0..2000 {
        let sections = 1 + next(6);
        let n = 1 + next(6);
        let base: Vec<usize> = (0..sections).map(|_| next(3) * next(5)).collect();
        let jobs = random_jobs(&mut next, sections, n);
        let best = optimum_above(&jobs, &base);
        let model = Model::new(&jobs, sections, base.clone());
        for order in ORDERS {
            let found = model.solve_by(best, order, Branch::Offset, 1_000_000);
            let offsets = found
                .offsets
                .unwrap_or_else(|| panic!("case {case}: {jobs:?} over {base:?} at {best}"));
            assert_plan(&jobs, &offsets, best, &base, &format!("case {case}"));
            let below = model.solve_by(best - 1, order, Branch::Offset, 1_000_000);
            assert!(
                below.offsets.is_none() && below.proven,
                "case {case}: {jobs:?} over {base:?} below {best}"
            );
        }
    }
}

#[test]
fn the_pairs_counted_are_the_pairs_listed() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % m) as usize
    };
    for case in 0..300 {
        let sections = 1 + next(40);
        let jobs = random_jobs(&mut next, sections, case % 60);
        assert_eq!(count_pairs(&jobs), pairs(&jobs, |_, _| {}).0, "case {case}");
    }
}

/// A perfect packing of `width` sections by `height` bytes cut `splits`
/// times (guillotine cuts and pinwheels, a centre ringed by four blades),
/// drawn from `next`: its rectangles (sections, then bytes, each as a
/// half-open range) in shuffled order, and their jobs.
#[allow(clippy::type_complexity)]
pub(crate) fn perfect_packing(
    next: &mut impl FnMut(u64) -> usize,
    width: usize,
    height: usize,
    splits: usize,
) -> (Vec<(usize, usize, usize, usize)>, Vec<Job>) {
    let mut rects = vec![(0, width, 0, height)];
    for _ in 0..splits {
        let k = next(rects.len() as u64);
        let (x0, x1, y0, y1) = rects[k];
        let (w, h) = (x1 - x0, y1 - y0);
        let pieces = match next(3) {
            // A pinwheel: a centre ringed by four blades.
            0 if w >= 3 && h >= 3 => {
                let a = x0 + 1 + next(w as u64 - 2);
                let b = a + 1 + next((x1 - a - 1) as u64);
                let c = y0 + 1 + next(h as u64 - 2);
                let d = c + 1 + next((y1 - c - 1) as u64);
                vec![
                    (x0, b, y0, c),
                    (b, x1, y0, d),
                    (a, x1, d, y1),
                    (x0, a, c, y1),
                    (a, b, c, d),
                ]
            }
            1 if w >= 2 => {
                let t = x0 + 1 + next(w as u64 - 1);
                vec![(x0, t, y0, y1), (t, x1, y0, y1)]
            }
            _ if h >= 2 => {
                let c = y0 + 1 + next(h as u64 - 1);
                vec![(x0, x1, y0, c), (x0, x1, c, y1)]
            }
            _ => continue,
        };
        rects.swap_remove(k);
        rects.extend(pieces);
    }
    for i in (1..rects.len()).rev() {
        rects.swap(i, next(i as u64 + 1));
    }
    let jobs = rects
        .iter()
        .enumerate()
        .map(|(item, &(x0, x1, y0, y1))| Job {
            start: x0,
            end: x1,
            foot: y1 - y0,
            align: 1,
            width: x1 - x0,
            item,
        })
        .collect();
    (rects, jobs)
}

/// Small perfect packings, guillotine cuts and pinwheels mixed, in shuffled
/// order: both corner searches find a plan at the height in every order
/// (neither prunes a branch that holds one), and none below it.
#[test]
fn the_corner_searches_find_every_small_perfect_packing() {
    let mut next = draws(29);
    for case in 0..1500 {
        let (width, height) = (3 + next(10), 3 + next(10));
        let splits = 1 + next(8);
        let (rects, jobs) = perfect_packing(&mut next, width, height, splits);
        let model = Model::new(&jobs, width, Vec::new());
        assert!(model.tight(height), "case {case}: not a perfect packing");
        for order in ORDERS.into_iter().chain((0..4).map(Order::drawn)) {
            for branch in [Branch::Corner, Branch::Valley] {
                let found = model.solve_by(height, order, branch, 1_000_000);
                let offsets = found
                    .offsets
                    .unwrap_or_else(|| panic!("case {case}: {rects:?} ({order:?}, {branch:?})"));
                assert_plan(&jobs, &offsets, height, &[], &format!("case {case}"));
                let below = model.solve_by(height - 1, order, branch, 1_000_000);
                assert!(below.offsets.is_none() && below.proven, "case {case}");
            }
        }
    }
}

/// Perfect packings of 20 to 60 pieces on a coarse grid, so that many
/// share their start and end (where the valley search jumps back over the
/// choices a failure does not follow from): the valley search never proves
/// that no plan fits the height they were cut from, and finds one in
/// nearly every case within its nodes.
#[test]
fn the_valley_search_jumps_back_only_over_choices_that_cannot_help() {
    let mut next = draws(41);
    let (mut found, mut cases) = (0, 0);
    for case in 0..300 {
        let (width, height) = (6 + next(14), 8 + next(40));
        let splits = 6 + next(20);
        let (rects, jobs) = perfect_packing(&mut next, width, height, splits);
        let model = Model::new(&jobs, width, Vec::new());
        for order in [ORDERS[0], Order::drawn(case)] {
            cases += 1;
            let run = model.solve_by(height, order, Branch::Valley, 200_000);
            assert!(
                !run.proven,
                "case {case}: ruled out a perfect packing: {rects:?} ({order:?})"
            );
            if let Some(offsets) = run.offsets {
                assert_plan(&jobs, &offsets, height, &[], &format!("case {case}"));
                found += 1;
            }
        }
    }
    assert!(found * 10 >= cases * 9, "{found} of {cases} found");
}

/// A run that fails (of each search) leaves the placements of the
/// deepest path it reached: apart, aligned and below the height it
/// searched at; a run with more nodes (the same search, further) reaches
/// at least as deep. Each completes to a whole plan that keeps them where
/// they are.
#[test]
fn a_failed_run_leaves_its_deepest_placements_and_they_complete() {
    let mut next = draws(53);
    let mut deep = 0;
    for case in 0..300 {
        let (width, height) = (6 + next(14), 8 + next(40));
        let splits = 6 + next(20);
        let (_, jobs) = perfect_packing(&mut next, width, height, splits);
        let model = Model::new(&jobs, width, Vec::new());
        for branch in [Branch::Offset, Branch::Corner, Branch::Valley] {
            let mut last = 0;
            for budget in [4, 16, 64] {
                let run = model.solve_by(height, ORDERS[0], branch, budget);
                if run.offsets.is_some() {
                    assert!(run.partial.is_empty(), "case {case}: a plan and a partial");
                    break;
                }
                let case = format!("case {case} ({branch:?}, {budget} nodes)");
                assert!(
                    run.partial.len() >= last,
                    "{case}: less deep with more nodes"
                );
                last = run.partial.len();
                deep = deep.max(last);
                let mut at = vec![usize::MAX; jobs.len()];
                for &(j, o) in &run.partial {
                    assert_eq!(at[j], usize::MAX, "{case}: job {j} twice");
                    at[j] = o;
                }
                let (offsets, top, _) = model.complete(&run.partial);
                for &(j, o) in &run.partial {
                    assert!(o + jobs[j].foot <= height, "{case}: {j} above the height");
                    assert_eq!(offsets[j], o, "{case}: {j} moved");
                }
                let highest = jobs.iter().zip(&offsets).map(|(j, &o)| o + j.foot).max();
                assert_eq!(Some(top), highest, "{case}");
                assert_plan(&jobs, &offsets, top, &[], &case);
            }
        }
    }
    assert!(deep > 10, "no run got deep: {deep}");
}

/// Completing half of an optimal plan (or none of it) gives a whole plan,
/// aligned and above each section's base, with the half kept.
#[test]
fn completing_part_of_a_plan_keeps_it_and_places_the_rest_apart() {
    let mut next = draws(59);
    for case in 0..500 {
        let sections = 1 + next(6);
        let n = 1 + next(9);
        let jobs = random_jobs(&mut next, sections, n);
        let base: Vec<usize> = (0..sections).map(|_| next(5)).collect();
        let model = Model::new(&jobs, sections, base.clone());
        let best = optimum_above(&jobs, &base);
        let found = model.solve_by(best, ORDERS[0], Branch::Offset, 1_000_000);
        let plan = found.offsets.expect("the optimum");
        let kept: Vec<(usize, usize)> = plan.iter().copied().enumerate().step_by(2).collect();
        for partial in [&kept[..], &[]] {
            let (offsets, top, steps) = model.complete(partial);
            assert!(steps >= n, "case {case}: the work not counted");
            assert!(top >= best, "case {case}: below the optimum");
            for &(j, o) in partial {
                assert_eq!(offsets[j], o, "case {case}");
            }
            assert_plan(&jobs, &offsets, top, &base, &format!("case {case}"));
        }
    }
}

/// A completion charges its sort: 1,024 jobs apart in time (nothing
/// overlaps, so the first fit is one step a job) count at least
/// `n log n` steps, not the `2n` of a count that left the sort out.
#[test]
fn a_completion_counts_the_sort_of_the_jobs_it_places() {
    let n = 1024;
    let jobs: Vec<Job> = (0..n)
        .map(|item| Job {
            start: item,
            end: item + 1,
            foot: 1 + item % 7,
            align: 1,
            width: 1,
            item,
        })
        .collect();
    let model = Model::new(&jobs, n, Vec::new());
    let (offsets, top, steps) = model.complete(&[]);
    assert!(offsets.iter().all(|&o| o == 0));
    assert_eq!(top, 7);
    assert!(steps >= n * 10, "{steps} steps for a sort of {n} jobs");
}

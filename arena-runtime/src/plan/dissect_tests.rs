//! The rebuild's joins on small pieces: windmills, straight cuts, what
//! no join rebuilds and the budget on hostile pieces.

use super::*;

/// Jobs of these spans of sections and heights, aligned to `align`.
pub(in crate::plan) fn jobs(spans: &[(usize, usize, usize)], align: usize) -> Vec<Job> {
    spans
        .iter()
        .enumerate()
        .map(|(item, &(start, end, foot))| Job {
            start,
            end,
            foot,
            align,
            width: end - start,
            item,
        })
        .collect()
}

/// The jobs of the pieces of a cut plan, each given as its rectangle
/// (phases `[x0, x1)`, bytes `[y0, y1)`), aligned to 1.
fn pieces(rects: &[(usize, usize, usize, usize)]) -> Vec<Job> {
    let spans: Vec<_> = rects
        .iter()
        .map(|&(x0, x1, y0, y1)| (x0, x1, y1 - y0))
        .collect();
    jobs(&spans, 1)
}

/// `off` places `jobs` apart, each section exactly full to `height`.
pub(in crate::plan) fn tiles(jobs: &[Job], off: &[usize], sections: usize, height: usize) {
    for s in 0..sections {
        let mut live: Vec<(usize, usize)> = jobs
            .iter()
            .zip(off)
            .filter(|(j, _)| j.start <= s && s < j.end)
            .map(|(j, &o)| (o, o + j.foot))
            .collect();
        live.sort_unstable();
        let mut top = 0;
        for (lo, hi) in live {
            assert_eq!(lo, top, "section {s}: a gap or an overlap at {lo}");
            top = hi;
        }
        assert_eq!(top, height, "section {s}");
    }
}

#[path = "dissect_fixtures.rs"]
mod fixtures;
use fixtures::{many_left, scattered, stubborn};

#[test]
fn a_windmill_of_either_turning_is_rebuilt() {
    // Centre [2, 4) of 3; blades [0, 2) of 7 and [4, 6) of 5; under
    // [0, 4) of 5 - 3 = 2, over [2, 6) of 7 - 3 = 4: 9 high.
    let one = [(2, 4, 3), (0, 2, 7), (4, 6, 5), (0, 4, 2), (2, 6, 4)];
    // Mirrored in time.
    let other = one.map(|(s, e, h)| (6 - e, 6 - s, h));
    for spans in [one, other] {
        let jobs = jobs(&spans, 1);
        let Rebuilt {
            offsets: off,
            nodes,
            ..
        } = rebuild(&jobs, 6, 10, unsolved);
        let off = off.expect("a windmill");
        tiles(&jobs, &off, 6, 9);
        assert!(nodes <= 1);
    }
}

#[test]
fn straight_cuts_are_rebuilt_and_windmills_inside_them() {
    // [0, 6) x 9 (the windmill above), beside [6, 8) cut in bytes
    // into 4 and 5, all under [0, 8) of 2, which is cut in time at 3.
    let spans = [
        (2, 4, 3),
        (0, 2, 7),
        (4, 6, 5),
        (0, 4, 2),
        (2, 6, 4),
        (6, 8, 4),
        (6, 8, 5),
        (0, 3, 2),
        (3, 8, 2),
    ];
    // The pieces in any order.
    for turn in 0..spans.len() {
        let mut spans = spans;
        spans.rotate_left(turn);
        let jobs = jobs(&spans, 1);
        let Rebuilt { offsets: off, .. } = rebuild(&jobs, 8, 10, unsolved);
        tiles(&jobs, &off.expect("a dissection"), 8, 11);
    }
}

#[test]
fn what_no_join_rebuilds_is_left_to_the_search() {
    // [0, 1) and [1, 3) of 1 join, [0, 2) of 2 joins nothing: no
    // rectangle (3, 3 and 1 bytes in the three sections).
    let jobs = jobs(&[(0, 2, 2), (1, 3, 1), (0, 1, 1)], 1);
    assert_eq!(rebuild(&jobs, 3, 10, unsolved).offsets, None);
    // Heights that are not multiples of an alignment: the offsets of
    // the joins would break it, so nothing is tried.
    let jobs = jobs_aligned();
    assert_eq!(rebuild(&jobs, 2, 10, unsolved).offsets, None);
    // No budget: no more than about one node of work.
    let spans = [(2, 4, 3), (0, 2, 7), (4, 6, 5), (0, 4, 2), (2, 6, 4)];
    let Rebuilt { nodes, .. } = rebuild(&self::jobs(&spans, 1), 6, 0, unsolved);
    assert!(nodes <= 1);
}

#[test]
fn the_budget_bounds_the_joins_on_hostile_pieces() {
    // A centre [n, n + 1) of 1, n blades of 3 ending where it starts
    // and n starting where it ends, none with the pieces to join: n^2
    // pairs of blades to look at. Not a perfect packing, so nothing
    // rebuilds; the budget stops the looking.
    let n = 3_000;
    let mut spans = vec![(n, n + 1, 1)];
    spans.extend((0..n).map(|k| (k, n, 3)));
    spans.extend((0..n).map(|k| (n + 1, n + 2 + k, 3)));
    let jobs = jobs(&spans, 1);
    for budget in [0, 10, 100] {
        let Rebuilt {
            offsets: off,
            nodes,
            ..
        } = rebuild(&jobs, 2 * n + 1, budget, unsolved);
        assert_eq!(off, None);
        assert!(nodes <= budget + 2, "{nodes} nodes of {budget}");
    }
}

#[test]
fn the_budget_bounds_the_mending_on_hostile_pieces() {
    // n sections, each with two pieces that stack (1 and 2, or 2 and 2,
    // in turn): n tiles of 3 and 4 that join nothing, each opened and
    // joined again as it was, then n^2 / 2 pairs of them. Not a perfect
    // packing; the budget stops the mending.
    let n = 2_000;
    let spans: Vec<_> = (0..n)
        .flat_map(|k| [(k, k + 1, 2), (k, k + 1, 1 + k % 2)])
        .collect();
    let jobs = jobs(&spans, 1);
    for budget in [10, 100, 1_000] {
        let Rebuilt {
            offsets: off,
            nodes,
            ..
        } = rebuild(&jobs, n, budget, unsolved);
        assert_eq!(off, None);
        assert!(nodes <= budget + 2, "{nodes} nodes of {budget}");
    }
}

#[test]
fn the_budget_bounds_the_look_up_of_stacks_beside_on_hostile_pieces() {
    // n pieces over each of [0, 1), [1, 2) and [2, 3), of heights n + 1
    // to 2n, in another order each: each pair of one height meeting at 1
    // is alone there and would join the piece of its height beside, so
    // each asks whether it stacks to one of up to n heights beside, each
    // less than n above it, less than any piece: n subset sums over n
    // pieces that find none. The budget stops the looking.
    let n = 1_000;
    let heights = n + 1..=2 * n;
    let mut spans: Vec<(usize, usize, usize)> = heights.clone().map(|h| (0, 1, h)).collect();
    spans.extend(heights.clone().rev().map(|h| (1, 2, h)));
    spans.extend(heights.map(|h| (2, 3, h)));
    let jobs = jobs(&spans, 1);
    for budget in (0..=10).map(|k| k * 500) {
        let Rebuilt { nodes, .. } = rebuild(&jobs, 3, budget, unsolved);
        assert!(nodes <= budget + 2, "{nodes} nodes of {budget}");
    }
}

/// A search of a stuck rebuild's tiles that finds nothing.
fn unsolved(_: &[Job], _: u64) -> (Option<Vec<usize>>, u64) {
    (None, 0)
}

/// Two jobs of 3 and 5 bytes over one span, each aligned to 8:
/// stacked, the second would sit at 3 or 5.
fn jobs_aligned() -> Vec<Job> {
    jobs(&[(0, 2, 3), (0, 2, 5)], 8)
}

/// Seventeen pieces of one span, which stack into one tile, and `[2, 3)`
/// of 40 and `[2, 4)` of 50, which join nothing: no rectangle.
fn stuck_jobs() -> Vec<Job> {
    let mut spans = vec![(0, 2, 1); 17];
    spans.extend([(2, 3, 40), (2, 4, 50)]);
    jobs(&spans, 1)
}

#[test]
fn a_stuck_rebuild_hands_its_tiles_to_the_search_the_large_ones_whole() {
    let jobs = stuck_jobs();
    let mut seen = Vec::new();
    let Rebuilt {
        offsets: off,
        nodes,
        ..
    } = rebuild(&jobs, 4, 100, |reduced: &[Job], budget| {
        seen.push((
            reduced
                .iter()
                .map(|j| (j.start, j.end, j.foot))
                .collect::<Vec<_>>(),
            budget,
        ));
        // The search's plan: each job 100 above the last.
        (Some((0..reduced.len()).map(|k| 100 * k).collect()), 7)
    });
    // Kept whole, the seventeen are one job (rebuilt once more as a
    // problem of three, stuck again with the same three, left to the
    // search here). Of the 100 nodes, one went to the joins; the stuck
    // tiles have half the rest (49) but at most 8 nodes a tile (24); their
    // rebuild used one, and the search has the rest (23).
    assert_eq!(seen, [(vec![(2, 3, 40), (2, 4, 50), (0, 2, 17)], 23)]);
    let off = off.expect("the search's plan");
    assert_eq!((off[17], off[18]), (0, 100));
    let mut stacked = off[..17].to_vec();
    stacked.sort_unstable();
    assert_eq!(stacked, (200..217).collect::<Vec<_>>());
    assert!(nodes >= 7, "the search's nodes are counted: {nodes}");
}

/// Where no search finds a plan, the tiles of a stuck rebuild are handed
/// back (their plans are the jobs' plans), and the searches, each
/// spending what it is given, keep within the budget in all.
#[test]
fn a_stuck_rebuild_keeps_to_its_budget_and_hands_back_its_tiles() {
    let jobs = stuck_jobs();
    for budget in [10, 1_000, 100_000] {
        let mut given = Vec::new();
        let rebuilt = rebuild(&jobs, 4, budget, |_: &[Job], nodes| {
            given.push(nodes);
            (None, nodes)
        });
        assert_eq!(rebuilt.offsets, None);
        // (The joins stop just past their limit: one node more at most.)
        assert!(rebuilt.nodes <= budget + 1, "{} of {budget}", rebuilt.nodes);
        assert!(given.iter().sum::<u64>() <= budget, "{given:?} of {budget}");
        let tiles = rebuilt.stuck.expect("the tiles of the stuck rebuild");
        let reduced: Vec<_> = tiles
            .jobs
            .iter()
            .map(|j| (j.start, j.end, j.foot))
            .collect();
        assert_eq!(reduced, [(2, 3, 40), (2, 4, 50), (0, 2, 17)]);
        // A plan of the tiles (each 100 above the last) is one of the jobs.
        let off = tiles.expand(&[0, 100, 200], &jobs).expect("aligned");
        assert_eq!((off[17], off[18]), (0, 100));
    }
}

/// A stuck rebuild's tiles cut back: a tile of more than `whole` pieces
/// stays one job, a smaller one is given back as its pieces, and a plan of
/// what is left is one of the pieces.
#[test]
fn cut_back_gives_back_the_tiles_of_at_most_whole_pieces() {
    let jobs = stuck_jobs();
    let rebuilt = rebuild(&jobs, 4, 1_000, unsolved);
    let tiles = rebuilt.stuck.expect("the tiles of the stuck rebuild");
    let spans =
        |r: &Reduced| -> Vec<_> { r.jobs.iter().map(|j| (j.start, j.end, j.foot)).collect() };
    assert_eq!(spans(&tiles.cut_back(16, &jobs, 1)), spans(&tiles));
    let coarser = tiles.cut_back(17, &jobs, 1);
    let mut want = vec![(2, 3, 40), (2, 4, 50)];
    want.extend([(0, 2, 1); 17]);
    assert_eq!(spans(&coarser), want);
    assert!(coarser.jobs.iter().enumerate().all(|(k, j)| j.item == k));
    // Each piece 100 above the last: the two of `[2, 3)` and `[2, 4)` at
    // 0 and 100, the 17 at 200 to 1,800.
    let at: Vec<usize> = (0..19).map(|k| 100 * k).collect();
    let off = coarser.expand(&at, &jobs).expect("aligned");
    assert_eq!((off[17], off[18]), (0, 100));
    let mut pieces = off[..17].to_vec();
    pieces.sort_unstable();
    assert_eq!(pieces, (2..19).map(|k| 100 * k).collect::<Vec<_>>());
}

/// The tiles of a stuck rebuild are searched once: another order leaves
/// the same tiles here, and their rebuild gives every tile back (the jobs
/// it was given, which its caller searches).
#[test]
fn the_same_stuck_tiles_are_searched_once() {
    let jobs = stuck_jobs();
    let mut searched = Vec::new();
    let rebuilt = rebuild(&jobs, 4, 100_000, |reduced: &[Job], nodes| {
        searched.push(shape(reduced, &mut 0));
        (None, nodes)
    });
    assert_eq!(rebuilt.offsets, None);
    assert_eq!(searched, [vec![(0, 2, 17), (2, 3, 40), (2, 4, 50)]]);
}

/// Pieces where some of one height meet by chance: `[0, 3)` of 1 byte
/// ends where two pieces `[3, 4)` of 1 byte start, only one of them in
/// line with it in the rectangle. Joined side by side at once (as
/// before), the tiles left join no more in any of the rebuild's orders;
/// joined only where the rectangle made would join another, or once
/// nothing else joins, they rebuild.
#[test]
fn pieces_that_meet_by_chance_wait_for_a_join_that_follows() {
    let rects = [
        (3, 4, 1, 2),
        (4, 5, 0, 1),
        (3, 4, 2, 4),
        (4, 6, 2, 4),
        (1, 3, 1, 4),
        (4, 5, 1, 2),
        (5, 6, 0, 2),
        (0, 1, 1, 7),
        (1, 6, 4, 6),
        (1, 6, 6, 7),
        (0, 3, 0, 1),
        (3, 4, 0, 1),
    ];
    let jobs = pieces(&rects);
    let Rebuilt { offsets: off, .. } = rebuild(&jobs, 6, 1_000, unsolved);
    tiles(&jobs, &off.expect("a dissection"), 6, 7);
}

/// A cut plan whose four pieces `[2, 3)` of one byte meet pieces of one
/// byte on either side, and a side-by-side join of two of them goes
/// first: no order of the joins rebuilds it where every stack waits for
/// nothing else to join; stacked first (every other order), it does.
#[test]
fn pieces_of_one_span_are_stacked_first_in_every_other_order() {
    let rects = [
        (3, 4, 1, 4),
        (0, 1, 5, 6),
        (2, 3, 1, 2),
        (4, 7, 0, 5),
        (2, 3, 0, 1),
        (0, 2, 0, 5),
        (3, 4, 0, 1),
        (2, 4, 4, 6),
        (1, 2, 5, 6),
        (4, 7, 5, 6),
        (2, 3, 3, 4),
        (2, 3, 2, 3),
    ];
    let jobs = pieces(&rects);
    let done = |order: &[usize], stack_first| {
        let (ended, _) = once(&jobs, order, 7, 1, u64::MAX, stack_first, false);
        matches!(ended, Ended::Done(_))
    };
    for attempt in 0..ATTEMPTS {
        assert!(!done(&order(jobs.len(), attempt), false), "order {attempt}");
    }
    assert!(done(&order(jobs.len(), 0), true));
    let Rebuilt { offsets: off, .. } = rebuild(&jobs, 7, 1_000, unsolved);
    tiles(&jobs, &off.expect("a dissection"), 7, 6);
}

/// 36 pieces of a cut plan over 8 phases, 8 bytes high, many of one
/// byte meeting others of their height where several end and start at
/// once. Joined side by side at once with the first of them found (as
/// before), no order rebuilt them (the fewest tiles left were 13); at once
/// only where the two are alone of their height where they meet (the
/// others once nothing else joins), they rebuild.
#[test]
fn pieces_side_by_side_join_at_once_only_alone_of_their_height() {
    let rects = [
        (6, 7, 1, 2),
        (5, 6, 4, 5),
        (7, 8, 3, 5),
        (5, 6, 7, 8),
        (7, 8, 5, 7),
        (6, 7, 5, 6),
        (6, 7, 2, 3),
        (5, 6, 3, 4),
        (6, 7, 0, 1),
        (5, 6, 6, 7),
        (1, 5, 0, 1),
        (3, 4, 3, 4),
        (2, 3, 1, 2),
        (6, 7, 6, 7),
        (6, 7, 4, 5),
        (3, 4, 1, 2),
        (7, 8, 0, 3),
        (5, 6, 0, 1),
        (4, 5, 1, 2),
        (3, 4, 4, 5),
        (4, 5, 6, 8),
        (2, 5, 2, 3),
        (3, 4, 5, 6),
        (0, 1, 0, 1),
        (5, 6, 1, 2),
        (5, 6, 2, 3),
        (6, 7, 7, 8),
        (4, 5, 5, 6),
        (0, 3, 3, 8),
        (1, 2, 1, 3),
        (4, 5, 3, 5),
        (7, 8, 7, 8),
        (6, 7, 3, 4),
        (5, 6, 5, 6),
        (3, 4, 6, 8),
        (0, 1, 1, 3),
    ];
    let jobs = pieces(&rects);
    let Rebuilt { offsets: off, .. } = rebuild(&jobs, 8, 100_000, unsolved);
    tiles(&jobs, &off.expect("a dissection"), 8, 8);
}

/// Where a rebuild gets stuck, a tile opened (its tiles a join or more
/// down given back) lets the rest join where it held a chance join: the
/// first order of `scattered` leaves 22 jobs, and mended, it rebuilds.
#[test]
fn a_stuck_order_is_mended_by_opening_its_tiles() {
    let jobs = scattered();
    let first = order(jobs.len(), 0);
    let Ended::Stuck(_, left) = once(&jobs, &first, 10, 1, u64::MAX, false, false).0 else {
        panic!("the first order gets stuck");
    };
    assert_eq!(left.jobs.len(), 22);
    let Ended::Done(off) = once(&jobs, &first, 10, 1, u64::MAX, false, true).0 else {
        panic!("the first order, mended, rebuilds");
    };
    tiles(&jobs, &off, 10, 16);
    let Rebuilt { offsets: off, .. } = rebuild(&jobs, 10, 100_000, unsolved);
    tiles(&jobs, &off.expect("a dissection"), 10, 16);
}

/// A mending that does not rebuild the part, nor would at its rate
/// within sixteen times the rebuild's steps, uses about as many as the
/// rebuild it mends: it stops there.
#[test]
fn a_mending_uses_about_as_many_steps_as_the_rebuild() {
    let jobs = stubborn();
    let first = order(jobs.len(), 0);
    let (Ended::Stuck(..), plain) = once(&jobs, &first, 10, 1, u64::MAX, false, false) else {
        panic!("the first order gets stuck");
    };
    let (Ended::Stuck(..), mended) = once(&jobs, &first, 10, 1, u64::MAX, false, true) else {
        panic!("the first order, mended, gets stuck");
    };
    assert!(mended > plain, "{mended} steps, {plain} unmended");
    assert!(
        mended <= 2 * plain + plain / 4,
        "{mended} steps, {plain} unmended"
    );
    // Within a limit, the mending's steps are counted in it.
    for limit in [plain, plain + plain / 2] {
        let (_, steps) = once(&jobs, &first, 10, 1, limit, false, true);
        assert!(steps <= limit + plain / 4, "{steps} steps of {limit}");
    }
}

/// Where every order gets stuck, the tiles handed back are the fewest any
/// order left, not the first order's: a cut plan of 63 pieces over 10
/// phases whose first order, mended, leaves 44 jobs and another 25.
#[test]
fn the_fewest_stuck_tiles_are_handed_back() {
    let jobs = stubborn();
    let Ended::Stuck(_, first) = once(&jobs, &order(jobs.len(), 0), 10, 1, u64::MAX, false, true).0
    else {
        panic!("the first order gets stuck");
    };
    assert_eq!(first.jobs.len(), 44);
    let rebuilt = rebuild(&jobs, 10, 100_000, unsolved);
    assert_eq!(rebuilt.offsets, None);
    let fewest = rebuilt.stuck.expect("the tiles of a stuck rebuild");
    assert_eq!(fewest.jobs.len(), 25);
}

/// Tiles nearly as many as the jobs are not searched (a search of them
/// seldom finds a plan, and another order costs less): of `many_left`'s
/// 59, the first order leaves 36, and only the orders that leave fewer
/// than two in five (here 23 or fewer) have their tiles searched.
#[test]
fn tiles_nearly_as_many_as_the_jobs_are_not_searched() {
    let jobs = many_left();
    let Ended::Stuck(_, first) = once(&jobs, &order(jobs.len(), 0), 10, 1, u64::MAX, false, true).0
    else {
        panic!("the first order gets stuck");
    };
    assert_eq!(first.jobs.len(), 36);
    let mut searched = Vec::new();
    let rebuilt = rebuild(&jobs, 10, 100_000, |reduced: &[Job], nodes| {
        searched.push(reduced.len());
        (None, nodes)
    });
    assert_eq!(rebuilt.offsets, None);
    assert_eq!(searched, [16, 16, 23, 22]);
}

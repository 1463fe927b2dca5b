//! A perfect packing rebuilt as a dissection: rectangles of time × bytes
//! joined, bottom up, into larger rectangles until one is left.
//!
//! In a perfect packing every section is as full as the bound, so the
//! buffers are the pieces of one rectangle cut into rectangles. Where that
//! rectangle was cut straight (a cut in time or in bytes running edge to
//! edge, recursively: a guillotine dissection) or into a windmill (a centre
//! ringed by four blades, no straight cut crossing it: OmniMalloc's
//! "pinwheel" problems), its pieces can be joined back:
//!
//! - *Windmill*: a centre `[a, b)` of height `hc`, a blade `L` ending at `a`
//!   and a blade `R` starting at `b`, both higher than the centre, and two
//!   more, `[L.start, b)` of height `hR - hc` and `[a, R.end)` of height
//!   `hL - hc`: the five are the rectangle `[L.start, R.end)` of height
//!   `hL + hR - hc` (the first of the two under `L` and the centre, the
//!   second over the centre and `R`).
//! - *Stacked*: two rectangles of one span of time whose sum is the height
//!   of a rectangle beside their span (the two are the piece of a cut in
//!   time).
//! - *Side by side*: two rectangles of one height, one ending where the
//!   other starts. Where many pieces share a start, an end and a height,
//!   two of them meet by chance: a pair joins at once only where the two
//!   are the only tiles of their height that end and start there (where
//!   more meet, the first found is as often not the one in line) and the
//!   rectangle it makes would join another (one of its span, or one of its
//!   height beside it where few tiles meet there or few pieces share the
//!   height: else that one mostly met it by chance), and where neither of
//!   the two, with others of its span, sums to the height of a tile beside
//!   that span (that stack is then mostly the cut, and the two met by
//!   chance); the others once nothing else joins.
//! - *Stacked*, of a sum: once nothing else joins, in every other order
//!   (the first included), the one choice of the fewest tiles of a span
//!   whose heights sum to the height of a tile beside it (a cut in time's
//!   piece cut in bytes into more than two), where a sum of as many meets
//!   one by chance seldom: stacked two by two as they come, they were
//!   stacked with the pieces of other cuts (on a strip tiling whose sizes
//!   are whole KiB, chance sums are many, and the other orders go without).
//! - *Stacked*, any pair: where several share a span, the first two once
//!   nothing else joins, of a span of the fewest tiles alive (two alone of
//!   a span are mostly the pieces of one cut; of three or more, the first
//!   two are as often the pieces of two cuts, and stacked, they leave a
//!   dissection no rule rebuilds); in every other order, before the
//!   side-by-side joins left for last, of the first span to have come to
//!   two (two of one span of a cut plan can be made to touch, the byte cut
//!   between them reordered; two of one height side by side are surely in
//!   line only where a cut in time parts them). Of the few orders of a
//!   part of more than [`SMALL`] pieces, only the third stacks first
//!   ([`stacks_first`] says why).
//!
//! Each join places its pieces inside the new rectangle, so a single one
//! left, spanning the part, is a plan at the bound. A join of pieces that
//! were not cut from one rectangle (where many share a span or a height by
//! chance) may leave pieces that no rule joins. In the first [`MENDED`]
//! orders of a part, such a rebuild is mended first (the child `mend`): each
//! tile left opened in turn, one join down, then two, ..., then two tiles
//! together, and the rest rebuilt, each opening kept where that leaves fewer
//! tiles (a wrong join mostly sits a few joins below the top of its tile, and
//! a right tile opened is mostly joined again as it was), with as many
//! steps as the rebuild used, and past them half as many from one opening
//! kept to the next, at most sixteen times as many in all, while at the
//! rate it has taken tiles away it would come to one within those (on a
//! part of thousands of pieces, it may take them away a few at a time for
//! longer than the rebuild took). Then the tiles left are a smaller problem
//! of the same bound: each tile of more than [`WHOLE`] pieces one job, its
//! pieces fixed inside it, the smaller ones given back as their pieces (the
//! wrong joins are mostly there, among the last ones made). Where those are
//! [`few`], that problem is rebuilt once more (the large tiles there from the
//! start: a pair is chosen beside them) and else searched (the caller's
//! `solve`), with half of what the budget has left but at most a few nodes a
//! tile (a search that finds a plan mostly finds it soon, one that does not
//! spends all it has); where it has a plan at the bound, so has the part.
//! Else the pieces are joined again in another order, whose tiles are
//! searched in turn (tiles searched once are not searched again: another
//! order often leaves the same ones). A part of more than [`SMALL`] pieces is
//! joined in [`LARGE`] orders, more only where one left few tiles (each costs
//! as much as the first, and mends a few chance joins, not many). Where one
//! of the first [`REGROUPED`] orders of any part gets stuck, its tiles are
//! cut back further, those of at most 32 pieces, then 64, ..., given back as
//! their pieces (on OmniMalloc's tilings of 10,001 over 1,024 phases, the
//! wrong tiles of more than 16 pieces were of 17 to 75, the right ones of up
//! to 629), and while they are at most one in [`REGROUP`] of its pieces, they
//! are rebuilt as a part of their own, in every order, with a share of what
//! the budget has left (each order leaves other wrong tiles). Where nothing
//! has, the fewest tiles the orders left are rebuilt as a part of their own,
//! with half of what is left (every order, and so on down while each leaves
//! fewer), and the fewest tiles that leaves, as tiles of the pieces, are
//! handed back: a plan of theirs at any height is one of the part's, and the
//! fewer, the lower the search takes them. Hash maps are only looked up,
//! never walked: the result is the same on every run.
//! This module holds the orders and the stuck tiles; its child `board` one
//! run's tiles, their lookups and the joins, `sums` the stacks of tiles
//! that sum to a height (a join of the board's, and the choice of the
//! tiles), `stacks` the last stack (two tiles of one span, and which
//! span), and `mend` the mending of a stuck rebuild.

use super::base::{log_steps, mix};
use super::search::Job;
use board::Board;

mod board;
mod mend;
mod stacks;
mod sums;

/// The steps (pieces looked at) that count as one node of the budget:
/// about the time of one node of the search (a step here is a lookup).
const STEPS: u64 = 4_096;

/// How many times the pieces are joined, each time taken in another order
/// (the budget mostly stops them first).
const ATTEMPTS: u64 = 64;
/// The most nodes the tiles of a stuck rebuild of the pieces are rebuilt
/// and searched with, per job of theirs (not on the rebuild of the tiles,
/// which has its share of these). Where the tiles have a plan at the
/// bound, their search mostly finds it within that; where they have none,
/// it spends all it is given, and the tiles another order leaves, as likely
/// to have one, get the rest (BENCHMARKS.md, stop 58).
const PER_JOB: u64 = 8;
/// Another order is tried only where the part has at most [`SMALL`]
/// pieces or a rebuild left at most one tile in this many: on larger parts
/// a failed rebuild leaves many, and each order costs as much as the
/// first.
const NEAR: usize = 64;
/// The most pieces a part may have to be tried in every order.
const SMALL: usize = 4_096;
/// The orders a part of more than [`SMALL`] pieces is joined in where
/// each leaves many tiles: each costs as much as the first, and mends a
/// few chance joins, not many (BENCHMARKS.md, stop 65).
const LARGE: u64 = 3;
/// The first orders of any part whose stuck tiles are regrouped
/// ([`regroup`]): each order leaves other wrong tiles, and the tiles it
/// leaves, regrouped, are another draw (BENCHMARKS.md, stops 65 and 67).
/// As many as [`LARGE`], so that every order of a large part that leaves
/// many tiles has its tiles regrouped.
const REGROUPED: u64 = LARGE;
/// The first orders of any part whose stuck rebuild is mended (`mend`:
/// its tiles opened and the rest rebuilt while that leaves fewer), not in
/// a rebuild of stuck tiles: where a mending does not rebuild the part,
/// another order's may (BENCHMARKS.md, stop 71).
const MENDED: u64 = 3;
/// A part's stuck tiles, the smaller ones given back as their
/// pieces, are rebuilt as a part of their own only while they are at most
/// one in this many of its pieces: nearly as many, they are nearly as hard
/// to rebuild (BENCHMARKS.md, stop 65).
const REGROUP: usize = 4;

/// What [`rebuild`] found.
pub(super) struct Rebuilt {
    /// The offsets (by position in the jobs) of a plan at the height of
    /// the rectangle they tile, where they rebuild into it.
    pub(super) offsets: Option<Vec<usize>>,
    /// The nodes of the budget used.
    pub(super) nodes: u64,
    /// Where the rebuilds got stuck (and nothing found a plan): the fewest
    /// tiles one was left with (the first of as many), or where those were
    /// rebuilt in turn and got stuck, the fewest tiles that left, as tiles
    /// of the jobs: a smaller problem whose plans are plans of the jobs.
    pub(super) stuck: Option<Reduced>,
}

impl Rebuilt {
    /// A plan at the bound, found with `nodes`.
    fn found(offsets: Vec<usize>, nodes: u64) -> Rebuilt {
        Rebuilt {
            offsets: Some(offsets),
            nodes,
            stuck: None,
        }
    }
}

/// Rebuilds `jobs`, which tile a rectangle over `sections`, into it, with
/// `budget` nodes in all. Where a rebuild gets stuck with [`few`] tiles,
/// they are rebuilt as a smaller problem, then searched by `solve` (jobs,
/// nodes: the offsets of a plan at the bound, if found, and the nodes
/// used), with half of what the budget has left (the rebuild of the tiles
/// a quarter), but at most [`PER_JOB`] nodes a tile; the tiles of the
/// first [`REGROUPED`] orders are also regrouped (the module's doc). A
/// rebuild that fails (on a small part, with few tiles left, or the first
/// [`LARGE`] on a large one) is tried again with the pieces in another
/// order (a fixed one, up to [`ATTEMPTS`]; some stack first:
/// [`stacks_first`]): which pieces are found first decides where pieces
/// of one height meet by chance. Where every order gets stuck, the fewest
/// tiles they left are rebuilt in turn, with half of what is left, and
/// what that leaves is handed back ([`Rebuilt::stuck`]).
pub(super) fn rebuild(
    jobs: &[Job],
    sections: usize,
    budget: u64,
    mut solve: impl FnMut(&[Job], u64) -> (Option<Vec<usize>>, u64),
) -> Rebuilt {
    rebuild_at(jobs, sections, budget, &mut solve, 0)
}

/// [`rebuild`], `depth` rebuilds of stuck tiles deep.
fn rebuild_at(
    jobs: &[Job],
    sections: usize,
    budget: u64,
    solve: &mut impl FnMut(&[Job], u64) -> (Option<Vec<usize>>, u64),
    depth: usize,
) -> Rebuilt {
    let mut rebuilt = Rebuilt {
        offsets: None,
        nodes: 0,
        stuck: None,
    };
    // Every offset a join gives is a sum or difference of heights: where
    // every height is a multiple of every alignment, so is every offset;
    // elsewhere the rebuild is not tried (it would mostly be wasted).
    let align = jobs.iter().map(|j| j.align.max(1)).max().unwrap_or(1);
    if jobs
        .iter()
        .any(|j| j.start >= j.end || j.end > sections || j.foot == 0 || j.foot % align != 0)
    {
        return rebuilt;
    }
    let mut steps = 0;
    // The nodes the searches of stuck rebuilds used.
    let mut searched: u64 = 0;
    // The problems of stuck tiles searched so far, each as its jobs' spans
    // and heights, sorted: another order often leaves the same tiles, and
    // a rebuild of stuck tiles that gives every tile back leaves the jobs
    // it was given, which its caller searches.
    let mut tried: Vec<Vec<(usize, usize, usize)>> = Vec::new();
    if depth > 0 {
        tried.push(shape(jobs, &mut steps));
    }
    // A part whose orders each cost about as much as the first.
    let large = jobs.len() > SMALL;
    for attempt in 0..ATTEMPTS {
        // The steps before this order: what the order itself costs.
        let before = steps;
        let order = order(jobs.len(), attempt);
        // The joins' steps and the searches' nodes share the budget.
        let limit = budget
            .saturating_sub(searched)
            .saturating_mul(STEPS)
            .saturating_sub(steps);
        let (ended, joined) = once(
            jobs,
            &order,
            sections,
            align,
            limit,
            stacks_first(large, attempt),
            depth == 0 && attempt < MENDED,
        );
        steps += joined;
        let left = match ended {
            Ended::Done(offsets) => return Rebuilt::found(offsets, used(steps, searched)),
            Ended::Stuck(left, reduced) => {
                let known = shape(&reduced.jobs, &mut steps);
                let fresh = !tried.contains(&known);
                let share = if !fresh {
                    0
                } else {
                    tried.push(known);
                    let half = budget.saturating_sub(used(steps, searched)) / 2;
                    if depth > 0 {
                        half
                    } else if few(reduced.jobs.len(), jobs.len()) {
                        half.min(PER_JOB.saturating_mul(reduced.jobs.len() as u64))
                    } else {
                        0
                    }
                };
                // The nodes of this share spent so far.
                let mut spent = 0;
                let mut found = None;
                if share > 0 && depth < DEPTH {
                    let inner = rebuild_at(&reduced.jobs, sections, share / 2, solve, depth + 1);
                    (found, spent) = (inner.offsets, inner.nodes);
                }
                if share > 0 && found.is_none() {
                    let (plan, nodes) = solve(&reduced.jobs, share.saturating_sub(spent));
                    (found, spent) = (plan, spent + nodes);
                }
                searched += spent;
                if let Some(offsets) = found.and_then(|at| reduced.expand(&at, jobs)) {
                    return Rebuilt::found(offsets, used(steps, searched));
                }
                // The tiles each of the first few orders leaves, the
                // smaller cut back, are parts of their own, with a share
                // of what is left (a large part has no more orders than
                // these, where each leaves many tiles).
                if depth == 0 && attempt < REGROUPED && fresh {
                    let now = used(steps, searched);
                    let cap = now + budget.saturating_sub(now) / (REGROUPED - attempt);
                    let mut spent = (steps, searched);
                    let found = regroup(&reduced, jobs, sections, align, cap, solve, &mut spent);
                    (steps, searched) = spent;
                    if let Some(offsets) = found {
                        return Rebuilt::found(offsets, used(steps, searched));
                    }
                }
                // The fewest tiles are handed back: their search after the
                // rebuild has fewer jobs to place.
                if rebuilt
                    .stuck
                    .as_ref()
                    .is_none_or(|fewest| fewest.jobs.len() > reduced.jobs.len())
                {
                    rebuilt.stuck = Some(reduced);
                }
                left
            }
            Ended::Stopped => break,
        };
        // Another order mends a few chance joins, not many; on a large
        // part it costs about as much as this one, which the budget must
        // have left.
        if used(steps, searched) >= budget
            || (large && left > jobs.len().div_ceil(NEAR) && attempt + 1 >= LARGE)
            || (large && used(steps + (steps - before), searched) > budget)
        {
            break;
        }
    }
    // A part whose every order got stuck (not the rebuild of a few stuck
    // tiles, `depth` > 0, whose caller searches them): the fewest tiles
    // left, rebuilt as a part of their own with half of what is left; what
    // that leaves, as tiles of the jobs, is handed back.
    let share = budget.saturating_sub(used(steps, searched)) / 2;
    if let Some(fewest) = rebuilt
        .stuck
        .take_if(|f| depth == 0 && share > 0 && f.jobs.len() < jobs.len())
    {
        let inner = rebuild_at(&fewest.jobs, sections, share, solve, 0);
        searched += inner.nodes;
        if let Some(offsets) = inner.offsets.and_then(|at| fewest.expand(&at, jobs)) {
            rebuilt.offsets = Some(offsets);
        } else {
            let deeper = inner.stuck.map(|deeper| fewest.compose(&deeper));
            rebuilt.stuck = Some(deeper.unwrap_or(fewest));
        }
    }
    rebuilt.nodes = used(steps, searched);
    rebuilt
}

/// The `tiles` a stuck rebuild of a part left, those of at most 32,
/// 64, 128, ... pieces given back as their pieces (the tiles made of a
/// join of pieces that met by chance are mostly among the smaller), each
/// rebuilt as a part of its own, in every order, with half of what
/// `budget` has left, while they are at most [`SMALL`] and at most one in
/// [`REGROUP`] of the part's `jobs`. The offsets of the first that
/// rebuilds (by position in `jobs`); `spent` is the steps and the nodes
/// of searches used, before and after.
fn regroup(
    tiles: &Reduced,
    jobs: &[Job],
    sections: usize,
    align: usize,
    budget: u64,
    solve: &mut impl FnMut(&[Job], u64) -> (Option<Vec<usize>>, u64),
    spent: &mut (u64, u64),
) -> Option<Vec<usize>> {
    let mut whole = WHOLE;
    let mut last = tiles.jobs.len();
    while used(spent.0, spent.1) < budget {
        whole = whole.saturating_mul(2);
        let n = tiles.cut_back_len(whole);
        spent.0 += tiles.jobs.len() as u64;
        if n > SMALL || n.saturating_mul(REGROUP) > jobs.len() {
            return None;
        }
        if n == last {
            continue;
        }
        last = n;
        let coarser = tiles.cut_back(whole, jobs, align);
        spent.0 += tiles.members.len() as u64;
        let left = budget.saturating_sub(used(spent.0, spent.1));
        let inner = rebuild_at(&coarser.jobs, sections, left / 2, solve, 0);
        spent.1 += inner.nodes;
        if let Some(offsets) = inner.offsets.and_then(|at| coarser.expand(&at, jobs)) {
            return Some(offsets);
        }
    }
    None
}

/// The order the `n` pieces are taken in on `attempt`: as given first,
/// then shuffled by a fixed hash.
fn order(n: usize, attempt: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if attempt > 0 {
        order.sort_by_key(|&k| (mix(attempt, k as u64), k));
    }
    order
}

/// Whether the `tiles` a stuck rebuild of `jobs` left (at the top; below
/// it, every stuck rebuild's are) are few enough to be searched: fewer
/// than two in five of the jobs. A search of more, nearly the part itself,
/// seldom finds a plan and spends all it is given, where another order
/// costs less (on strip tilings, 52 of 484 searches of two in five or more
/// found one; 43 of 67 of fewer than three in ten did: BENCHMARKS.md, stop
/// 62).
fn few(tiles: usize, jobs: usize) -> bool {
    tiles.saturating_mul(5) < jobs.saturating_mul(2)
}

/// The nodes of the budget used: the joins' `steps` and the nodes the
/// searches of stuck tiles used.
fn used(steps: u64, searched: u64) -> u64 {
    steps.div_ceil(STEPS) + searched
}

/// The spans and heights of `jobs`, sorted (the sort's steps counted in
/// `steps`).
fn shape(jobs: &[Job], steps: &mut u64) -> Vec<(usize, usize, usize)> {
    let mut shape: Vec<_> = jobs.iter().map(|j| (j.start, j.end, j.foot)).collect();
    shape.sort_unstable();
    *steps += jobs.len() as u64 * log_steps(jobs.len());
    shape
}

/// The tiles a rebuild was left with as jobs of their own: a tile of
/// more than [`WHOLE`] jobs kept whole (one job of its span and height),
/// the others given back as their jobs.
pub(super) struct Reduced {
    pub(super) jobs: Vec<Job>,
    /// Each reduced job's jobs (by position) and their offsets inside it:
    /// `members[from[k]..from[k + 1]]`.
    members: Vec<(usize, usize)>,
    from: Vec<usize>,
}

/// The most jobs a tile of a stuck rebuild holds to be given back as its
/// jobs; a larger one is kept whole.
const WHOLE: usize = 16;

/// How many times the tiles of a stuck rebuild are rebuilt in turn.
const DEPTH: usize = 1;

/// Whether a tile of `pieces` stays one job where those of at most
/// `whole` are given back ([`Reduced::cut_back`]; a piece is one either
/// way).
fn kept_whole(pieces: usize, whole: usize) -> bool {
    pieces > whole || pieces == 1
}

impl Reduced {
    /// No jobs yet, with room for `members` jobs inside them.
    pub(super) fn with_capacity(members: usize) -> Reduced {
        Reduced {
            jobs: Vec::new(),
            members: Vec::with_capacity(members),
            from: vec![0],
        }
    }

    /// The jobs' offsets (by position) where the reduced jobs are at `at`,
    /// or nothing where one breaks its alignment.
    pub(super) fn expand(&self, at: &[usize], jobs: &[Job]) -> Option<Vec<usize>> {
        let mut offsets = vec![0; jobs.len()];
        for (k, &base) in at.iter().enumerate() {
            for &(j, inner) in &self.members[self.from[k]..self.from[k + 1]] {
                offsets[j] = base + inner;
            }
        }
        let aligned = jobs
            .iter()
            .zip(&offsets)
            .all(|(j, &o)| o % j.align.max(1) == 0);
        aligned.then_some(offsets)
    }

    /// The same tiles, those of at most `whole` jobs given back as their
    /// jobs (of `jobs`, by position; each at `align`, as [`Board::reduce`]
    /// gives them).
    fn cut_back(&self, whole: usize, jobs: &[Job], align: usize) -> Reduced {
        let mut coarser = Reduced::with_capacity(self.members.len());
        for (k, tile) in self.jobs.iter().enumerate() {
            let members = &self.members[self.from[k]..self.from[k + 1]];
            if kept_whole(members.len(), whole) {
                coarser.push_job(*tile, members.iter().copied());
            } else {
                for &(j, _) in members {
                    coarser.push_job(Job { align, ..jobs[j] }, [(j, 0)]);
                }
            }
        }
        coarser
    }

    /// `inner`, tiles of this one's jobs, as tiles of the jobs.
    fn compose(&self, inner: &Reduced) -> Reduced {
        let mut composed = Reduced::with_capacity(self.members.len());
        for (k, tile) in inner.jobs.iter().enumerate() {
            let members = inner.members[inner.from[k]..inner.from[k + 1]]
                .iter()
                .flat_map(|&(t, at)| {
                    self.members[self.from[t]..self.from[t + 1]]
                        .iter()
                        .map(move |&(j, inner)| (j, at + inner))
                });
            composed.push_job(*tile, members);
        }
        composed
    }

    /// How many jobs [`Reduced::cut_back`] with `whole` would give.
    fn cut_back_len(&self, whole: usize) -> usize {
        self.from
            .windows(2)
            .map(|w| w[1] - w[0])
            .map(|pieces| if kept_whole(pieces, whole) { 1 } else { pieces })
            .sum()
    }

    /// Tile `t`, holding `members` (pieces by position in `order`, and
    /// their offsets inside it): one job where it is kept whole, else its
    /// pieces as jobs; `job(u)` is tile or piece `u` as a job.
    fn push_tile(
        &mut self,
        t: usize,
        members: &[(usize, usize)],
        order: &[usize],
        job: impl Fn(usize) -> Job,
    ) {
        if kept_whole(members.len(), WHOLE) {
            self.push_job(job(t), members.iter().map(|&(p, at)| (order[p], at)));
        } else {
            for &(p, _) in members {
                self.push_job(job(p), [(order[p], 0)]);
            }
        }
    }

    /// `job` (its item the next position), holding `members`.
    fn push_job(&mut self, job: Job, members: impl IntoIterator<Item = (usize, usize)>) {
        self.members.extend(members);
        self.from.push(self.members.len());
        let item = self.jobs.len();
        self.jobs.push(Job { item, ..job });
    }
}

/// How one rebuild ended.
enum Ended {
    /// The offsets (by position in the jobs).
    Done(Vec<usize>),
    /// Stuck with this many tiles.
    Stuck(usize, Reduced),
    /// Stopped by the budget.
    Stopped,
}

/// Whether order `attempt` of a part stacks two tiles of one span before
/// the side-by-side joins left for last: every other order of a part of
/// at most [`SMALL`] pieces (the second, the fourth, ...), only the third
/// of a `large` one. Two of one span of a cut plan can always be made to
/// touch, so stacking first mends orders whose side-by-side joins met by
/// chance; but on OmniMalloc's tilings, whose heights few pieces share,
/// such an order of a large part left three to five times as many tiles
/// as the others, and on whole-KiB tilings of 10,000 one such order is
/// needed (BENCHMARKS.md, stops 59 and 67).
fn stacks_first(large: bool, attempt: u64) -> bool {
    if large {
        attempt == 2
    } else {
        attempt % 2 == 1
    }
}

/// One rebuild of `jobs` taken in `order`, stopping past `limit` steps,
/// and the steps used. Where `stack_first`, two tiles of one span are
/// stacked before two of one height are joined side by side with nothing
/// to follow (the module's doc says why); where `mend`, a rebuild that
/// gets stuck is mended ([`mend::stuck`]), its steps counted in `limit`.
fn once(
    jobs: &[Job],
    order: &[usize],
    sections: usize,
    align: usize,
    limit: u64,
    stack_first: bool,
    mend: bool,
) -> (Ended, u64) {
    let mut board = Board::new(jobs.len(), sections, limit, stack_first);
    for &k in order {
        let job = &jobs[k];
        board.add(job.start, job.end, job.foot, job.width, &[]);
    }
    board.run();
    let Some(whole) = board.whole() else {
        if board.steps > board.limit {
            return (Ended::Stopped, board.steps);
        }
        if mend {
            return mend::stuck(&board, order, align, limit);
        }
        let reduced = board.reduce(order, align);
        return (Ended::Stuck(board.alive, reduced), board.steps);
    };
    let mut offsets = vec![0; jobs.len()];
    board.place(whole, 0, jobs.len(), &mut |t, at| offsets[order[t]] = at);
    debug_assert!(
        jobs.iter()
            .zip(&offsets)
            .all(|(j, &o)| o % j.align.max(1) == 0),
        "every size is a multiple of every alignment"
    );
    (Ended::Done(offsets), board.steps)
}

#[cfg(test)]
#[path = "dissect_tests.rs"]
pub(super) mod tests;

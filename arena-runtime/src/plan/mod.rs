//! Offsets for buffers with lifetimes: two buffers share bytes only if the
//! phase ranges they are live in are disjoint. What an arena with
//! `#[arena(phases(...))]` is planned with, and a library call for any
//! static allocation problem.
//!
//! # The calls
//!
//! - [`plan_offsets`]: greedy in a few orders; what an arena gets by
//!   default (there with its scratch on the stack, no heap).
//! - [`plan_with_budget`]: greedy, then a search for a lower plan within a
//!   budget of nodes. [`plan_within`]: the same, stopping once the plan is
//!   within a capacity.
//! - [`lower_bound`]: a height no plan goes below.
//! - [`Problem`]: MiniMalloc's CSV form, what the `arena-plan` binary plans.
//! - [`ClockProblem`]: the same with buffers timed by vector clocks
//!   (OmniMalloc's form: concurrent workers joined by messages), planned
//!   by [`ClockProblem::plan`] (its chains by the calls above, stacked, then
//!   settled; its module documentation has the method).
//!
//! Each returns a [`Plan`] (each item's offset, the plan's height) or a
//! [`PlanError`] naming an item by its index. Guarantees: deterministic
//! (the budget counts work, never time, so the same items give the same
//! offsets on every machine); never above [`plan_offsets`]'s plan, which is
//! never above the items one after the other; a plan at the bound ends the
//! search at once; a budget of 0 is [`plan_offsets`]; an item of no bytes
//! takes no place and is at offset 0.
//!
//! # The method
//!
//! **Greedy** (Pisarchyk & Lee 2020, TensorFlow Lite's offset planner): the
//! largest buffer first (ties in declaration order), each at the lowest aligned
//! offset clear of every placed buffer live with it. Where that is more than
//! 1/64 above the busiest phase's bytes, greedy again with the longest-lived
//! buffers first; while still more than 1/32 above, up to 32 shuffled orders of
//! fixed seeds (above 2,048 buffers, up to 8, and only while the orders after
//! the first have taken at most 2^30 steps, an order's steps the pairs of
//! buffers that meet or, where more, those of the first order's walk through
//! blocks); the smallest plan is kept, or the buffers one after the other
//! where that is no larger.
//! Above 1,024 buffers the walk over the placed buffers passes whole blocks
//! that cannot hold the new one (and whole groups of such blocks, where a
//! million buffers meet), and above 2,048 it gathers them from buckets
//! of time, as wide as gathers the fewest (unless they crowd into a few phases,
//! where the walk is faster, and gather more than 1/64 of all the pairs, where
//! buffers scattered in time make the walk pass half of the placed ones): the
//! same offsets, without the quadratic walk.
//!
//! **Stacking apart.** Buffers live over the whole time meet every other,
//! so their bytes are free at every phase of any plan: they are stacked at
//! the bottom first and the rest planned above them, where the rest may
//! fall apart into independent parts. That plan is kept where it is below
//! greedy's; else the search runs on the whole with the budget left.
//!
//! **Parts.** Where no buffer crosses a phase boundary, the two sides share
//! no byte: each part is searched on its own, the smaller first, the budget
//! shared in proportion to their buffers (what one leaves going to the
//! others), down to the highest part's bound.
//!
//! **Rebuilding a dissection.** A part that is a perfect packing is the pieces
//! of one rectangle of time × bytes: before any search it is rebuilt bottom up,
//! with half of its share. Five pieces that ring a centre as a windmill (a
//! blade ending where the centre starts, one starting where it ends, one piece
//! under the first blade and the centre, one over the centre and the second
//! blade, heights that add up) are joined first; then two of one span of time
//! whose sum is the height of a piece beside them, stacked; then two of one
//! height side by side, at once only where they are the only two of their
//! height to end and start where they meet and the rectangle they make would
//! join another (one of its span; or one of its height beside it, but not where
//! more than 9 tiles end or start where the two meet and more than 16 pieces
//! share their height, or one in 256 of a larger part: pieces of one height
//! meet by chance where phases are few), and neither, with others of its
//! span, sums to the height of a piece beside that span; then any two of one
//! span, stacked, those of a span of the fewest tiles first (of three or more,
//! the first two are as often the pieces of two cuts), except in every other
//! order, which stacks before the side-by-side joins left for last (in the
//! third of a part of more than 4,096 pieces: two of one span of a cut plan
//! can always be made to touch, two of one height are surely in line only
//! across a cut in time). Each join places its pieces inside the new
//! rectangle, so one left spanning the part is a plan at the bound; where
//! pieces no rule joins are left (a join of pieces of one height or span
//! that met by chance), the tiles left are a smaller problem: each of more
//! than 16 pieces one buffer, its pieces fixed inside it, the smaller ones
//! cut back into their pieces (the wrong joins are mostly there). Where
//! those buffers are fewer than two in five of the part's, that problem is
//! rebuilt once more, then searched, with half of what the rebuild has left
//! but at most 8 nodes for each of its buffers (a search that finds a plan
//! there mostly finds it within that; one that does not spends all it is
//! given); where neither gives a plan at the
//! bound, the whole is tried again in up to 63 more fixed orders where the part
//! has at most 4,096 pieces or few were left (one in 64 or fewer), the tiles of
//! each searched unless an earlier order left the same; a larger part is joined
//! in three orders. The tiles each of the first three orders of a part leaves
//! are cut back further, those of at most 32 pieces, then 64, ..., given back
//! as their pieces, and rebuilt as a part of their own (in every order, with a
//! share of what is left) while they are at most a quarter of its pieces. Where
//! every order gets stuck, the fewest tiles they left are rebuilt as a part of
//! their own, with half of what is left (and so on down, while each leaves
//! fewer), and the fewest the last of these left, as tiles of the pieces, are
//! handed back. Then the search goes on, first over those tiles, with half of
//! its share (a plan of theirs at any height is one of the part's), then over
//! the part's buffers.
//!
//! **Peeling a part.** Where a part's rebuild gets stuck and some of its
//! pieces span the whole part (within a larger problem they are not live
//! throughout, so the stacking apart above passes them by), they are stacked
//! at its bottom: in any plan at the bound, the bytes under such a piece are
//! a rectangle of its span, which fits above it as well. The rest may then
//! fall into parts no piece crosses, each peeled in turn, and what no piece
//! spans is rebuilt, with an eighth of the rebuild's share in all. Over few
//! phases, where the rebuild joins pieces that met by chance, the cuts taken
//! this way are certain.
//!
//! **The search** (in the manner of MiniMalloc, Moffitt, ASPLOS 2023)
//! answers "is there a plan at or below this height?" depth first over
//! canonical plans. Time is sections (the spans between distinct phase
//! boundaries); only offsets are chosen.
//!
//! - *Canonical plans.* Every buffer sits at its lowest offset: 0 or the
//!   top of a placed buffer it is live with (aligned up). Any plan can be
//!   pushed down into such a form, so the search only chooses which buffer
//!   comes next, in order of offset (ties in a fixed rank), never going
//!   back below the last one placed.
//! - *Section inference.* Each section's floor is at least the lowest
//!   offset an unplaced buffer live there can take, and at least the last
//!   offset placed; the floor plus the bytes still to place there must fit.
//! - *Dominance.* A buffer whose lowest offset is at or above the top of
//!   another unplaced buffer would leave a gap that one fits in: not tried.
//!   A buffer with nothing unplaced live with it constrains nothing: if the
//!   rest fails after it, no other choice at that node helps. Buffers of
//!   equal interval, size and alignment are interchangeable: only the first
//!   is tried.
//! - *Decomposition.* Once no unplaced buffer crosses a section boundary,
//!   the two sides are solved one after the other, each with its buffers
//!   ranked afresh by the bytes left in it.
//! - *Rounds.* The bound is asked first, then heights by bisection between
//!   the lowest not ruled out and the best plan so far, in rounds whose
//!   node limit doubles, over three tie-break orders (by lifetime, bytes ×
//!   lifetime, the busiest section a buffer is live in). Where a quarter
//!   of what the bisection has is less than one descent of the search
//!   (its nodes grow faster than the buffers: at the default budget, a
//!   perfect packing of some 6,500 buffers and more), an attempt at the
//!   midpoint would run out before its last buffer: the attempts aim just
//!   below the best plan instead, with all that is left, and keep what
//!   they find (a descent lands well below a loose cap).
//! - *Corners and valleys*, for a perfect packing (every section exactly as
//!   full as the bound, so no byte may be wasted), two searches. The corner
//!   search takes the lowest offset any buffer can take and the earliest
//!   section where one can, and tries each buffer that starts there, then none
//!   (each barred from that offset until its lowest offset rises); every run of
//!   sections at that offset is checked to be coverable end to end. The valley
//!   search looks at every valley of the stacks (a run of sections at one
//!   floor, both sides higher): the byte beside each of its walls can only be
//!   taken by a buffer that starts (or ends) at that wall and fits in the
//!   valley, so the wall with the fewest such buffers is branched on, at
//!   whatever height (the most constrained choice first, as in exact cover),
//!   and the valley must be coverable end to end. In both, every wall a
//!   placement makes must still have such a buffer. Such a plan is found by a
//!   short run or hardly at all: the first round runs each search once in each
//!   order, each run one descent of the search and n nodes more (n buffers),
//!   then 32 short runs a round of shuffled orders and Luby's lengths, the two
//!   searches in turn; the first runs and the short ones stop once half of what
//!   the round started with is spent: the rest is the bisection's, so that
//!   where many buffers share each start and end (OmniMalloc's makespan of
//!   1,024) and no run finds the bound, the plan still comes down from
//!   greedy's.
//! - *Learning.* The runs learn from those that failed before them on the same
//!   part: the walls that could not be filled (the valley search branches,
//!   among the walls of fewest buffers, on the one of most failures, where
//!   conflicts surface soonest, as in weighted-degree heuristics), and, for a
//!   run that ran out of nodes, the last three choices above where its
//!   backtracking reached (the trap it was held under is among them; later runs
//!   try those placements last at their corner). Hints only, never a proof.
//! - *Jumping back.* The valley search jumps back (conflict-directed
//!   backjumping, Prosser 1993): a failure carries the placements it follows
//!   from (the stack under the byte it could not fill, the buffer over that
//!   byte beside the wall, and for every other buffer live there, one placed
//!   buffer in its way at that height), and a node whose child failed without
//!   its own choice among them tries no other. Where many buffers share each
//!   start and end, a wrong choice is met only far above it; without the jump
//!   every choice made since in other spans of time would be tried again under
//!   it.
//! - *Blocks.* Which buffer is tried first beside a wall: in a plan with no
//!   byte free, the buffers that end at a boundary and those that start there
//!   cover the same bytes, in runs of equal sums on both sides; where sizes are
//!   fine, the smallest sets of equal sums (joined where they share a buffer:
//!   blocks) are those runs on 99 % of the boundaries. Both searches try first
//!   the buffers in one block with the placed one beside the byte, and the
//!   valley search picks its wall by the count of those (a hint: nothing is
//!   left out, and no proof rests on it).
//! - *Completion.* A run that fails is not wasted: the placements of the
//!   deepest path it reached are a perfect packing of the bytes below its
//!   frontier, and with the rest placed by first fit above them and in their
//!   gaps (the largest first) they are a plan; so are those of the bisection's
//!   attempts that run out of nodes, below the attempt's height. The lowest
//!   such plan is the part's where the rounds found none lower, and at once
//!   where it reaches the lowest height not ruled out (taken at once in every
//!   case, it moved the bisection: lower on some problems, higher on others).
//!
//! **Neighbourhoods.** A part of more than 2,048 non-empty buffers (16,384
//! for a perfect packing, and above 8,192 only for one pass of the corner
//! searches with half its share of the budget) is too large for one search
//! (its depth is the number of buffers, and a node scans the part). Its
//! plan is improved a neighbourhood at a time: the buffers whose tops are
//! above a level, in the window of time around the plan's peak that they
//! span themselves. Such a set is upward closed (a buffer above one of them
//! is live with it), so each section's base, the highest top of the buffers
//! that stay, is all a re-plan must respect. Sets of 64 to 2,048 buffers
//! are re-planned by the search, larger ones (up to 16,384) by greedy in
//! several orders; a re-plan is kept only where the peak falls, each
//! failure doubles the set, and a success starts again at the smallest. A
//! part whose buffers meet in more than 4 Mi pairs builds no search model.
//! A perfect packing of up to 4,096 buffers is searched whole with three
//! quarters of its share, and where its plan stays above the bound, the
//! neighbourhoods go on from it with the last quarter: sets of up to 2,048
//! are half of it or more, re-planned whole above the rest, and lower what
//! the search's bisection leaves (where many buffers share each start and
//! end).
//!
//! **The budget.** A node is one candidate examined; every 16,384
//! elementary steps done for it in the search (jobs scanned, sections
//! updated, floors raised, parts ranked) count as one node more, and so do
//! every 8,192 steps outside it (the neighbourhoods' scans, greedy's
//! placements of a neighbourhood). So the budget bounds the time on any
//! problem, in proportion. The figures (nodes a second, heights against
//! the bound, time against budget) are in the repository's BENCHMARKS.md.
//!
//! # What made the difference
//!
//! Each change was measured against the plan before it, in one run (the
//! repository's BENCHMARKS.md has the runs, the commands and what was
//! tried and dropped). The few that moved the most:
//!
//! - *Rebuilding a perfect packing before searching it.* The search alone
//!   spent the default budget on corner runs at the bound and stayed 1.32
//!   to 1.43 above the optimum on OmniMalloc's pinwheels of 1,001 to
//!   10,001 buffers (greedy's height at 1,001 and 2,001); rebuilt, every
//!   pinwheel of 2,001 to 10,001 buffers at every makespan is at the
//!   optimum, each within a second.
//! - *Distrusting the joins that chance makes*, where phases are few and
//!   many pieces share a span or a height: a side-by-side join at once
//!   only where the pair is alone of its height there, its rectangle
//!   joins another and neither could be stacked with others of its span
//!   to a height beside, stacks of a sum chosen by the fewest tiles, the
//!   last stacks from the span of the fewest tiles, every other order
//!   stacking first; and the tiles a stuck rebuild leaves (a few hundred
//!   where the part had thousands) searched, or cut back and rebuilt as a
//!   part of their own. OmniMalloc's tilings of 2,001 to 5,001 buffers
//!   over 1,024 phases went from 1.12–1.26 to the optimum; of its tilings
//!   of 10,001 over 1,024 phases, 23 of 25 seeds are there (from 5), and
//!   27 of 30 and 14 of 16 seeds drawn later; of this crate's cut of that
//!   kind, 135 of 160 seeds; and 96 of 180 strip tilings over few phases
//!   (from 84; counted before the last two changes, which moved 84 others
//!   from 38 to 37, then 35).
//! - *Mending a stuck rebuild*: its tiles opened one or two at a time and
//!   the rest rebuilt, each opening kept where fewer tiles are left (a
//!   wrong join mostly sits a few joins below the top of its tile), for as
//!   long as the rebuild took, and longer while it would finish at its
//!   rate. Of OmniMalloc's tilings of 10,001 over 1,024 phases, all 71
//!   seeds are at the optimum (from 64), each within 1.3 s; of this
//!   crate's cut of that kind, all 160 seeds (from 135); of the strip
//!   tilings, 46 of 90 (from 35).
//! - *In the search, which buffer is tried first beside a wall* (one of
//!   the run of equal sums that ends and starts there), runs that learn
//!   from the failures before them, and jumping back over choices a
//!   failure does not follow from: OmniMalloc's 52 problems of 501 buffers
//!   over 1,024 phases, 48 at the optimum from 31 (all 52 today).
//! - *A failed run completed into a plan* (its deepest path, the rest by
//!   first fit): where runs get far, the plan is at or near the bound
//!   where the bisection from greedy stayed 20 % above.
//!
//! # The words
//!
//! One word a quantity, in these docs and in the code:
//! - **height**: a plan's, the end of its highest buffer and guard (the
//!   slab an arena allocates for it);
//! - **bound**: a height no plan goes below (the busiest phase's bytes, or
//!   [`lower_bound`] with alignment);
//! - **capacity**: the height a caller asks for ([`plan_within`]); the
//!   **aim**: the height the search stops at, the capacity or the bound,
//!   whichever is higher;
//! - **cap**: the height one search tries (is there a plan at or below
//!   it?), which the rounds move between the bound and the best height;
//! - **floor**: in the search, the lowest offset an unplaced buffer may
//!   take in a section; a buffer's own is its **lowest** offset;
//! - **budget**, **nodes**, **steps**: the work allowed, counted, and
//!   counted a node per 16,384 (8,192) of.
//!
//! # The files
//!
//! Bottom up, each using only those above it: `base` (the [`Item`], the
//! alignment arithmetic, the first-fit step every greedy placement shares, the
//! hash), `time` (time compressed into sections, once for every user; the load
//! of a set of jobs; the lower bound), `order` (the one order type: keys read
//! from a buffer, largest or smallest first), `blocks`, `greedy`, `dissect` (a
//! perfect packing rebuilt as a dissection), `search` (`search/model`, the
//! offset search, `search/corner`, `search/place` and `search/trail`, the undo
//! trail), `rounds`, `lns` (the neighbourhoods), `parts`, `solve` (the whole
//! run), `problem`, `clocks` (problems timed by vector clocks, planned a chain
//! at a time through the calls here); this module holds only the public calls.

mod base;
mod blocks;
mod clocks;
mod dissect;
pub(crate) mod greedy;
mod lns;
mod order;
mod parts;
mod peel;
mod problem;
mod rounds;
mod search;
mod solve;
mod split;
mod time;

pub use crate::error::PlanError;
pub use crate::error::ProblemError;
pub use base::{Item, Plan};
pub use clocks::{ClockBuffer, ClockProblem};
pub use greedy::plan_offsets;
pub(crate) use greedy::{Placed, plan};
pub use problem::{Buffer, Problem};
use solve::search_plan;
pub use time::lower_bound;

/// [`plan_offsets`], then, while the plan is above the busiest phase's
/// bytes and `budget` nodes remain, a search for a lower one (the module's
/// documentation has the method and what a node is). `guard` bytes follow
/// every non-empty item. Deterministic; never above [`plan_offsets`]'s
/// plan; a budget of 0 is [`plan_offsets`].
///
/// ```
/// use arena_runtime::plan::{Item, plan_offsets, plan_with_budget};
/// let item = |bytes, first, last| Item { bytes, align: 1, first, last };
/// // Greedy by size leaves a hole these five cannot share.
/// let items = [item(50, 0, 2), item(40, 0, 1), item(60, 3, 3), item(70, 1, 1), item(80, 2, 3)];
/// let greedy = plan_offsets(&items, 0).unwrap();
/// let plan = plan_with_budget(&items, 0, 10_000).unwrap();
/// assert!(plan.height <= greedy.height);
/// assert_eq!(plan.height, 160); // the busiest phase: no plan is lower
/// assert_eq!(plan.offsets.len(), items.len());
/// ```
pub fn plan_with_budget(items: &[Item], guard: usize, budget: u64) -> Result<Plan, PlanError> {
    search_plan(items, guard, budget, None, true).map(|s| s.plan)
}

/// [`plan_with_budget`] for a plan that must fit in `capacity` bytes: after
/// the bound, the search looks for a plan at or below `capacity` directly,
/// and stops once it has one (or one at the bound). The plan may still be
/// above `capacity` where none was found within the budget: the caller
/// compares.
///
/// ```
/// use arena_runtime::plan::{Item, plan_within};
/// let item = |bytes, first, last| Item { bytes, align: 1, first, last };
/// let items = [item(50, 0, 2), item(40, 0, 1), item(60, 3, 3), item(70, 1, 1), item(80, 2, 3)];
/// let plan = plan_within(&items, 0, 10_000, 200).unwrap();
/// assert!(plan.height <= 200);
/// ```
pub fn plan_within(
    items: &[Item],
    guard: usize,
    budget: u64,
    capacity: usize,
) -> Result<Plan, PlanError> {
    search_plan(items, guard, budget, Some(capacity), true).map(|s| s.plan)
}

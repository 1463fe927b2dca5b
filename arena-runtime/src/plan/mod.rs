//! Offsets for an arena with declared lifetimes (`#[arena(phases(...))]`):
//! two buffers share bytes only if their phase ranges are disjoint.
//!
//! Greedy by size (Pisarchyk & Lee 2020, TensorFlow Lite's offset planner):
//! the largest buffer first (ties in declaration order), each at the lowest
//! aligned offset clear of every placed buffer whose range intersects its own;
//! where that is measurably above the busiest phase's bytes, greedy again
//! with the longest-lived buffers first, then in shuffled orders of fixed
//! seeds, keeping the smallest; the buffers one after the other where that is
//! no larger (so the plan never loses to no plan). Deterministic, and no
//! heap allocation: the caller hands in the scratch ([`plan`]).
//!
//! For larger problems, [`plan_with_budget`] and [`plan_within`] search
//! after greedy while the plan is above the busiest phase's bytes: a
//! depth-first search over canonical plans in the manner of MiniMalloc
//! (Moffitt, ASPLOS 2023): each buffer at its lowest offset, taken in order
//! of offset, with section inference, dominance and decomposition (the
//! search module's documentation has each rule), in rounds of doubling node
//! limits over three tie-break orders. The independent parts of a problem
//! (runs of time no buffer crosses) are searched apart. A perfect packing
//! (every phase as full as the bound) is searched by corners instead, in
//! many short runs of shuffled orders. A part too large for one search is
//! improved a neighbourhood at a time (the `lns` module). Buffers live
//! throughout are stacked apart first, so that the rest can fall apart. [`Problem`] reads and writes
//! MiniMalloc's CSV form, what the `arena-plan` binary plans.

mod base;
mod blocks;
pub(crate) mod greedy;
mod lns;
mod parts;
mod problem;
mod rounds;
mod search;
mod solve;
mod time;

pub use crate::error::PlanError;
pub use base::{Item, Plan};
pub use greedy::plan_offsets;
pub(crate) use greedy::{Placed, plan};
pub use problem::{Buffer, Problem, ProblemError};
use solve::search_plan;
pub use time::lower_bound;

/// [`plan_offsets`], then, while the plan is above the busiest phase's
/// bytes and `budget` nodes remain, a search for a lower one. The search
/// answers "is there a plan at or below this height?" by a depth-first
/// search over canonical plans (MiniMalloc's rules: each buffer at 0 or on
/// a buffer live with it, placed in order of offset; the bytes still to
/// place in each span of time must fit above its floor; no buffer placed
/// above the top of another; independent spans of time solved apart). It
/// asks first at the bound, then by bisection between the lowest height not
/// ruled out and the best plan so far, in rounds whose node limit doubles,
/// with three tie-break orders (by lifetime, bytes x lifetime and the
/// busiest time a buffer is live in) in turn. Where no buffer crosses a
/// phase boundary the two sides are independent parts, each searched on
/// its own (the smaller first; the budget shared in proportion to their
/// buffers, what one leaves going to the others) down to the highest
/// part's bound. A part whose every phase is exactly as full as the bound
/// (a perfect packing, where no byte may be wasted) is asked at the bound
/// by the corner search: the lowest free offset and the earliest phase
/// there, one of the buffers that can start there or none; in 32 short runs
/// a round, of shuffled orders and Luby's lengths, since such a plan is
/// found by a short run or hardly at all.
///
/// Deterministic: the budget counts the search's work, never time, so the
/// same items give the same offsets on every machine. A node is one
/// candidate examined, and every 16,384 elementary steps done for it (jobs
/// scanned, sections updated, floors raised, parts ranked) count as one
/// node more: the budget bounds the time on any problem (BENCHMARKS.md:
/// at least 35,000 nodes a second on 2,048 buffers that all meet, where
/// uncounted work made a node cost up to 6 ms). Never above
/// [`plan_offsets`]'s plan; a plan at the bound ends the search at once. A
/// budget of 0 is [`plan_offsets`].
///
/// Buffers live over the whole time of the problem meet every other, so
/// their bytes are free at every phase of any plan: they are stacked apart
/// at the bottom first and the rest planned above them, where the rest may
/// fall apart into independent parts (a small buffer live throughout no
/// longer ties every phase together). That plan is kept where it is below
/// greedy's; else the search runs on the whole with the budget left.
///
/// A part of more than 2,048 non-empty buffers (8,192 for a perfect
/// packing) is too large for one search (its depth is the number of
/// buffers, and a node scans the part's buffers): its plan is improved a
/// neighbourhood at a time instead. The buffers with the highest tops in a
/// window of time around the plan's peak (upward closed: every buffer above
/// one of them is one of them) are re-planned above the rest, by the search
/// for 64 to 2,048 buffers and by greedy in several orders for up to 16,384;
/// a re-plan is kept only where the peak falls, and each failure doubles the
/// neighbourhood. The scans of the part count against the budget too, so
/// the time stays in proportion to it at any size.
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

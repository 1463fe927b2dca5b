//! The search's rounds over one part: node limits that double, the bound
//! tried first, then a bisection towards it from the best plan so far.

use super::base::{Plan, gcd};
use super::search;

/// What [`rounds`] did.
pub(super) struct Rounded {
    /// The best plan found below the height it started from (offsets by
    /// job), if any.
    pub(super) best: Option<Plan>,
    /// The nodes used.
    pub(super) nodes: u64,
    /// The round a later call on the same part goes on from.
    pub(super) next_round: usize,
}

/// The short runs of the corner search a round makes on a perfect packing.
const RESTARTS: usize = 32;

/// The nodes one descent of the offset search takes, about, on a part of
/// `n` jobs: one a buffer placed, and the scans of the part its nodes make,
/// which grow with it (measured on perfect packings: 1.0 a buffer at 393,
/// 1.2 at 1,021 and 2,602, 2.4 to 2.6 at 5,001 and 10,001; this estimate
/// is above each). An attempt with fewer nodes returns no plan.
const fn descent(n: u64) -> u64 {
    n + n * n / 4_096
}

/// The nodes of the shortest run of the corner searches on a part of `n`
/// jobs (the runs are multiples of it): one [`descent`] and `n` nodes more
/// to back up: `2n + n²/4,096`, 6 % above the `2n` it was at 501 jobs,
/// 3.2n at 5,001. At `2n` a run on a part of 5,001 jobs and more ran out
/// before its last buffer (a descent there takes some 2.4 nodes a buffer,
/// a node scanning the part), and the plans at the bound that runs of 2.8
/// and 2.9 nodes a buffer find were never reached.
const fn run_unit(n: u64) -> u64 {
    descent(n) + n
}

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, ...), `i` from 1: the lengths
/// of restarts that lose at most a log factor against the best fixed length
/// (Luby, Sinclair and Zuckerman 1993).
fn luby(i: usize) -> u64 {
    let mut i = i as u64;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// The search's rounds over `jobs` (`sections` spans of time) from a plan
/// of height `height`: the best plan found below it (offsets by job, height),
/// if any. Rounds of searches with a node limit that doubles each round;
/// each round tries the bound (with each order in the first round, then
/// with one order a round in turn, so that where the bound is out of reach
/// most of the work goes to lower plans), then the aim if one is given
/// and not yet met, then a bisection between the lowest height not ruled
/// out and the best plan. A search that ends without a
/// plan rules its height out for good; one cut short rules it out for the
/// round only.
pub(super) fn rounds(
    jobs: &[search::Job],
    sections: usize,
    base: Vec<usize>,
    bound: usize,
    height: usize,
    (budget, first_round): (u64, usize),
    aim: Option<usize>,
) -> Rounded {
    // Every height is a multiple of the sizes' and alignments' common
    // divisor: heights are counted in that unit.
    let unit = jobs
        .iter()
        .flat_map(|j| [j.foot, if j.align > 1 { j.align } else { 0 }])
        .chain(base.iter().copied())
        .fold(0, gcd)
        .max(1);
    let bound = bound.div_ceil(unit);
    // The model keeps every pair of jobs that meet: where they are many
    // (buffers that nearly all meet) it is not built, its memory bounded as
    // the neighbourhoods' is, and greedy's plan stands.
    if search::count_pairs(jobs) > search::MOST_PAIRS {
        return Rounded {
            best: None,
            nodes: 0,
            next_round: first_round,
        };
    }
    let mut r = Rounds {
        model: search::Model::new(jobs, sections, base),
        jobs,
        unit,
        aim: aim.map(|t| t / unit),
        left: budget,
        height,
        ruled_out: bound,
        best: None,
        learned: search::Learned::default(),
        completed: None,
    };
    let mut limit = (2 * jobs.len() as u64).saturating_mul(1u64 << first_round.min(40));
    let mut round = first_round;
    let tight = r.model.tight(bound * unit);
    'rounds: loop {
        let before = r.left;
        if tight {
            // A perfect packing (every span of time exactly as full as the
            // bound) has no byte to waste: the corner searches, where a gap
            // ends a branch at once. Their plans are found by short runs or
            // not at all: first the three orders, one short run each, in
            // both searches (the most constrained wall first, then the
            // lowest corner first: each finds tilings the other misses),
            // then many short runs in shuffled orders (run `i` of the round
            // `luby(i)` times the unit long, the two searches in turn), and
            // the three orders at the round's limit (one search a round, in
            // turn). The first runs and the short ones stop once half of
            // what the round started with is spent: the rest is the
            // bisection's, so that where the bound stays out of reach the
            // plan still comes down from greedy's.
            let unit_limit = run_unit(jobs.len() as u64);
            if round == first_round {
                'first: for branch in search::PERFECT {
                    for order in search::ORDERS {
                        if r.half_spent(before) {
                            break 'first;
                        }
                        if r.ruled_out == bound && r.attempt(bound, order, branch, unit_limit).done
                        {
                            break 'rounds;
                        }
                    }
                }
            }
            for i in 0..RESTARTS {
                if r.half_spent(before) {
                    break;
                }
                let seed = (round * RESTARTS + i) as u64;
                let order = search::Order::drawn(seed);
                let run = unit_limit.saturating_mul(luby(i + 1));
                let branch = search::PERFECT[i % search::PERFECT.len()];
                if r.ruled_out == bound && r.attempt(bound, order, branch, run).done {
                    break 'rounds;
                }
            }
            // (In a first round whose limit is no more than the unit these
            // would be the first runs again, or shorter ones: a search is
            // deterministic. The nodes go to the bisection.)
            if round != first_round || limit > unit_limit {
                let branch = search::PERFECT[round % search::PERFECT.len()];
                for order in search::ORDERS {
                    if r.ruled_out == bound && r.attempt(bound, order, branch, limit).done {
                        break 'rounds;
                    }
                }
            }
        } else {
            // Every order in the first round, then one a round in turn:
            // where the bound is out of reach, the bisection gets the more.
            for (k, order) in search::ORDERS.into_iter().enumerate() {
                if round > first_round && k != (round + 1) % search::ORDERS.len() {
                    continue;
                }
                if r.ruled_out == bound
                    && r.attempt(bound, order, search::Branch::Offset, limit).done
                {
                    break 'rounds;
                }
            }
        }
        if let Some(t) = r
            .aim
            .filter(|&t| t > bound && t >= r.ruled_out && t < r.in_units())
        {
            for order in search::ORDERS {
                if r.attempt(t, order, search::Branch::Offset, limit).done {
                    break 'rounds;
                }
            }
        }
        // The bisection: one order a round, in turn, a quarter of the
        // limit an attempt, the limit in all (or, where that is more, as
        // much as the round spent at the bound, so that a perfect packing
        // whose bound stays out of reach still gets a plan close to it).
        // Where a quarter of that is less than one descent of the search
        // (at the default budget, a perfect packing of some 6,500 buffers
        // and more, whose bound took half the round), no attempt at the
        // midpoint could finish: the attempts aim just below the best plan
        // instead, each with all the share has left, and every plan they
        // find is kept (a descent lands well below its cap where the cap
        // is loose).
        let order = search::ORDERS[round % search::ORDERS.len()];
        let mut lo = r.ruled_out;
        let mut spent = 0;
        let share = if tight {
            limit.max(before - r.left)
        } else {
            limit
        };
        let short = tight && share / 4 < descent(jobs.len() as u64);
        while lo < r.in_units() && spent < share {
            let (cap, most) = if short {
                (r.in_units() - 1, share - spent)
            } else {
                (lo + (r.in_units() - 1 - lo) / 2, share / 4)
            };
            let tried = r.attempt(cap, order, search::Branch::Offset, most);
            if tried.done {
                break 'rounds;
            }
            spent += tried.nodes;
            if !tried.found {
                lo = cap + 1;
            }
        }
        if r.in_units() <= r.ruled_out {
            break;
        }
        limit = limit.saturating_mul(2);
        round += 1;
    }
    // A failed run's completion counts only here, once the rounds are
    // over: taken as the best plan at once, it moved the bisection's
    // heights, lower on some problems and higher on others (BENCHMARKS.md,
    // "Completing the deepest run"); here no plan is above the rounds'
    // own.
    if let Some(plan) = r.completed.take().filter(|c| c.height < r.height) {
        r.height = plan.height;
        r.best = Some(plan);
    }
    Rounded {
        best: r.best,
        nodes: budget - r.left,
        next_round: round + 1,
    }
}

/// A plan of `jobs` at `bound` (where only that is of use: the tiles a
/// rebuild got stuck with, or a part it left), the rounds stopping at
/// `aim`: its offsets (by job), if one was found, and the nodes used.
pub(super) fn at_bound(
    jobs: &[search::Job],
    sections: usize,
    bound: usize,
    aim: usize,
    budget: u64,
) -> (Option<Vec<usize>>, u64) {
    let above = bound.saturating_add(1);
    let rounded = rounds(
        jobs,
        sections,
        Vec::new(),
        bound,
        above,
        (budget, 0),
        Some(aim),
    );
    (rounded.best.map(|plan| plan.offsets), rounded.nodes)
}

/// The state of [`rounds`]: heights in its unit, but for the plans' own.
struct Rounds<'j> {
    model: search::Model<'j>,
    jobs: &'j [search::Job],
    unit: usize,
    aim: Option<usize>,
    /// Nodes left.
    left: u64,
    /// The best plan's height, in bytes.
    height: usize,
    /// The lowest height not ruled out.
    ruled_out: usize,
    /// The best plan found: offsets by job.
    best: Option<Plan>,
    /// What the corner searches' failed runs learned.
    learned: search::Learned,
    /// The lowest plan completed from a failed search's deepest
    /// placements ([`Rounds::complete`]).
    completed: Option<Plan>,
}

/// What one search of [`Rounds::attempt`] did.
struct Tried {
    found: bool,
    /// The rounds are over: the budget is spent, or the best plan is at
    /// the lowest height not ruled out or at the aim.
    done: bool,
    nodes: u64,
}

impl Rounds<'_> {
    /// The best plan's height in units, rounded up: a height between two
    /// units (a caller's `bound + 1`: only a plan at the bound is of use)
    /// counts as the unit above, else it would be the bound itself and
    /// the rounds would end after their first attempt.
    fn in_units(&self) -> usize {
        self.height.div_ceil(self.unit)
    }

    /// Whether nothing lower than `units` is left to look for: it is the
    /// lowest height not ruled out, or at the aim.
    fn settled(&self, units: usize) -> bool {
        units <= self.ruled_out || self.aim.is_some_and(|t| units <= t)
    }

    /// `offsets` as the best plan, of `height`.
    fn take(&mut self, offsets: Vec<usize>, height: usize) {
        self.height = height;
        self.best = Some(Plan::new(offsets, height));
    }

    /// Whether more than half of `before` (the nodes left when a round
    /// began) is spent.
    fn half_spent(&self, before: u64) -> bool {
        before - self.left > before / 2
    }

    /// The plan completed from the deepest placements of a failed search
    /// ([`search::Model::complete`]), where it is below the best and every
    /// completion before: the best plan at once where nothing lower
    /// is left to look for (the lowest height not ruled out, or the aim),
    /// else kept for the rounds' end. Its work is charged to the budget.
    fn complete(&mut self, partial: &[(usize, usize)]) {
        if partial.is_empty() {
            return;
        }
        let (offsets, height, steps) = self.model.complete(partial);
        let nodes = (steps as u64).div_ceil(search::STEPS_PER_NODE);
        self.left = self.left.saturating_sub(nodes);
        if height >= self.height || self.completed.as_ref().is_some_and(|c| height >= c.height) {
            return;
        }
        if self.settled(height / self.unit) {
            // At the lowest height not ruled out, or at the aim: taken at
            // once, and the rounds are over.
            self.take(offsets, height);
        } else {
            self.completed = Some(Plan::new(offsets, height));
        }
    }

    /// One search for a plan at or below `cap`, with `order`, within
    /// `limit` nodes.
    fn attempt(
        &mut self,
        cap: usize,
        order: search::Order,
        branch: search::Branch,
        limit: u64,
    ) -> Tried {
        let found = self.model.solve_with(
            cap * self.unit,
            order,
            branch,
            limit.min(self.left),
            &mut self.learned,
        );
        let nodes = found.nodes.max(1);
        self.left = self.left.saturating_sub(nodes);
        let some = found.offsets.is_some();
        match found.offsets {
            Some(off) => {
                let height = self.jobs.iter().zip(&off).map(|(j, &o)| o + j.foot).max();
                if let Some(height) = height.filter(|&h| h < self.height) {
                    self.take(off, height);
                }
            }
            None => {
                if found.proven {
                    self.ruled_out = self.ruled_out.max(cap + 1);
                }
                self.complete(&found.partial);
            }
        }
        Tried {
            found: some,
            done: self.left == 0 || self.settled(self.in_units()),
            nodes,
        }
    }
}

#[cfg(test)]
#[path = "rounds_tests.rs"]
mod tests;

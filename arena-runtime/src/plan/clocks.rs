//! Problems whose buffers are timed by vector clocks (OmniMalloc's form:
//! `lower` and `upper` as components joined by `:`, one a worker or
//! stream), and their plans.
//!
//! Two buffers meet (may not share bytes) unless one's `upper` is at or
//! before the other's `lower` in every component: the work of concurrent
//! workers, say two CUDA streams joined by a few events, is ordered only
//! where a message orders it. That is no longer one interval of time a
//! buffer, so the planner's search cannot take it whole; it is planned in
//! three steps, each keeping every pair that meets apart:
//!
//! 1. **Chains.** The buffers are split into chains, in each of which
//!    every two events (a `lower` or an `upper`) are ordered: the events of
//!    one worker are. Within a chain, ordering by the sum of components is
//!    the order of events, so a chain is an interval problem. Buffers left
//!    a chain of their own (clocks no other buffer shares, as where they
//!    are drawn at random) are joined into sequences, each after the last
//!    one in every component, the nearest in size first: a greedy cover
//!    by chains, where stacked apart they would be as high as their bytes.
//! 2. **Each chain planned** by the planner (greedy, then the search; the
//!    smallest chain first, each with its share, by its buffers, of the
//!    budget the others left), and the chains' plans stacked one above the
//!    other: buffers of two chains never share bytes there, whether they
//!    meet or not.
//! 3. **Settling.** Every buffer, lowest first, drops to the lowest offset
//!    clear of the buffers that meet it and have settled: a buffer ordered
//!    after another by a message may take its bytes. Never higher than the
//!    stack (each one's old place is still free when its turn comes). Two
//!    stacks are settled, the highest chain at the bottom (where the chains
//!    are single buffers, this is greedy by size) and the lowest, and the
//!    lower plan kept. The settling is quadratic where nearly every pair
//!    meets: after 2^30 steps the buffers not reached move down as one, to
//!    just above the settled ones.
//!
//! Where each worker's buffers are a perfect packing of its own band
//! (OmniMalloc's `ConcurrentTilingSource`), the stack of the chains'
//! optimal plans is the optimum. The bound ([`ClockProblem::lower_bound`])
//! is the busiest moment of two orders of all events that keep every
//! message's order: the buffers live at any prefix of such an order all
//! meet each other.

use super::base::{Item, Plan, align_up, fits};
use super::problem::{Buffer, Problem, rows};
use super::solve::search_plan;
use super::time::{Time, lower_bound};
use crate::error::{PlanError, ProblemError};

mod chains;

/// One buffer of a [`ClockProblem`], as its file gives it: `upper` at or
/// after `lower` in every component, and after it in one.
pub type ClockBuffer = Buffer<Vec<u64>>;

/// A problem whose buffers are timed by vector clocks: its buffers in file
/// order, every clock of one width, each `upper` after its `lower` (made
/// by [`ClockProblem::parse`] or [`ClockProblem::new`], which check both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockProblem {
    buffers: Vec<ClockBuffer>,
}

/// The settling stops after this many steps (a settled buffer passed, a
/// component of two clocks compared), the rest moving down as one (some
/// 5 s on 60,000 buffers of random two-component clocks, BENCHMARKS.md).
const SETTLE_STEPS: usize = 1 << 30;

/// Whether clock `a` is at or before `b` in every component.
fn before(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// The sum of a clock's components: along one chain, its order.
fn sum(c: &[u64]) -> u128 {
    c.iter().map(|&x| u128::from(x)).sum()
}

impl ClockProblem {
    /// Reads a problem in MiniMalloc's CSV form whose `lower` and `upper`
    /// are vector clocks, components joined by `:` (`3:0:17`), every clock
    /// of the file of one width; a whole number is a clock of one
    /// component. The same header and rows as [`Problem::parse`], and the
    /// same errors, each naming its line and column.
    pub fn parse(text: &str) -> Result<ClockProblem, ProblemError> {
        let time = |v: &str| {
            v.split(':')
                .map(|c| c.trim().parse::<u64>())
                .collect::<Result<Vec<u64>, _>>()
                .map_err(|_| format!("`{v}` is not a whole number or a vector clock (`3:0:17`)"))
        };
        ClockProblem::new(rows(text, time, |l, u| fault(l, u))?)
    }

    /// A problem of `buffers` made in code, checked as a file is: every
    /// `upper` after its `lower` (at or after it in every component, after
    /// it in one), every clock of the width of the first buffer's. The
    /// error names the buffer by its id and line (0 for one made in code).
    pub fn new(buffers: Vec<ClockBuffer>) -> Result<ClockProblem, ProblemError> {
        let width = buffers.first().map_or(0, |b| b.lower.len());
        for b in &buffers {
            let err = |column, message: String| ProblemError {
                line: b.line,
                column: Some(column),
                message: format!("buffer `{}`: {message}", b.id),
            };
            if b.lower.len() != width {
                return Err(err(
                    "lower",
                    format!(
                        "`{}` has {} components where the first buffer's clocks have {width}: every clock of a problem has one width",
                        show(&b.lower),
                        b.lower.len()
                    ),
                ));
            }
            if let Some(message) = fault(&b.lower, &b.upper) {
                return Err(err("upper", message));
            }
        }
        Ok(ClockProblem { buffers })
    }

    /// The buffers, in file order.
    pub fn buffers(&self) -> &[ClockBuffer] {
        &self.buffers
    }

    /// The components of each clock (1 for MiniMalloc's times).
    pub fn width(&self) -> usize {
        self.buffers.first().map_or(0, |b| b.lower.len())
    }

    /// The same problem in MiniMalloc's interval form, where its clocks have
    /// one component.
    pub fn to_intervals(&self) -> Option<Problem> {
        let buffers = self
            .buffers
            .iter()
            .map(|b| match (&b.lower[..], &b.upper[..]) {
                (&[lower], &[upper]) => Some(Buffer {
                    id: b.id.clone(),
                    lower,
                    upper,
                    size: b.size,
                    line: b.line,
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Problem { buffers })
    }

    /// Whether buffers `a` and `b` meet: neither ends at or before the
    /// other's start in every component, so some order of events has both
    /// live at once.
    pub fn meet(&self, a: usize, b: usize) -> bool {
        let (a, b) = (&self.buffers[a], &self.buffers[b]);
        !before(&a.upper, &b.lower) && !before(&b.upper, &a.lower)
    }

    /// A height no plan goes below: the most bytes live at once in either
    /// of two orders of all events that keep every message's order (by the
    /// sum of components, and by the largest component, then the sum).
    pub fn lower_bound(&self) -> usize {
        let by_sum = |c: &[u64]| (0, sum(c));
        let by_max = |c: &[u64]| (c.iter().copied().max().unwrap_or(0), sum(c));
        self.busiest(by_sum).max(self.busiest(by_max))
    }

    /// The most bytes live at once when the events are taken in the order
    /// of `key` (one that keeps every message's order: each prefix is a
    /// moment of some run, and the buffers live there all meet).
    fn busiest(&self, key: impl Fn(&[u64]) -> (u64, u128)) -> usize {
        let time = Time::of(
            self.buffers
                .iter()
                .flat_map(|b| [key(&b.lower), key(&b.upper)]),
        );
        let items: Vec<Item> = self
            .buffers
            .iter()
            .map(|b| Item {
                bytes: b.size,
                align: 1,
                first: time.index(key(&b.lower)),
                last: time.index(key(&b.upper)) - 1,
            })
            .collect();
        // Past `usize::MAX` only if the sizes alone are: no plan fits then.
        lower_bound(&items, time.sections(), 1).unwrap_or(usize::MAX)
    }

    /// Offsets for every buffer, each a multiple of `align` (a power of
    /// two), two that meet never sharing a byte: the chains planned with
    /// `budget` nodes in all and stacked, then settled (the module's
    /// documentation). A problem of one component is planned whole by
    /// `plan_with_budget`. Deterministic. A [`PlanError`] names the
    /// buffer by its index.
    pub fn plan(&self, align: usize, budget: u64) -> Result<Plan, PlanError> {
        if let Some(p) = self.to_intervals() {
            return search_plan(&p.items(align), 0, budget, None, true).map(|s| s.plan);
        }
        let n = self.buffers.len();
        // The smallest chain first, each with its share of what is left:
        // what one leaves (a chain planned at its bound stops at once) goes
        // to the larger ones.
        let mut chains = self.chains();
        chains.sort_by_key(Vec::len);
        let (mut left, mut rest) = (budget, n);
        let mut planned = Vec::with_capacity(chains.len());
        for chain in chains {
            let time = Time::of(chain.iter().flat_map(|&b| {
                let b = &self.buffers[b];
                [sum(&b.lower), sum(&b.upper)]
            }));
            let items: Vec<Item> = chain
                .iter()
                .map(|&b| {
                    let b = &self.buffers[b];
                    Item {
                        bytes: b.size,
                        align,
                        first: time.index(sum(&b.lower)),
                        last: time.index(sum(&b.upper)) - 1,
                    }
                })
                .collect();
            let share = (u128::from(left) * chain.len() as u128 / rest as u128) as u64;
            let searched = search_plan(&items, 0, share, None, true).map_err(|e| match e {
                PlanError::Overflow { item } => PlanError::Overflow { item: chain[item] },
                PlanError::BadAlign { item, align } => PlanError::BadAlign {
                    item: chain[item],
                    align,
                },
            })?;
            (left, rest) = (left.saturating_sub(searched.nodes), rest - chain.len());
            planned.push((chain, searched.plan));
        }
        // Two stacks, each settled, the lower plan kept: the highest chain
        // first (the settling takes the buffers lowest first, so where the
        // chains are single buffers, clocks that order little, it is greedy
        // by size), then the lowest first, where the first settling left
        // half of its steps.
        let mut best: Option<Plan> = None;
        let mut steps = SETTLE_STEPS;
        for highest in [true, false] {
            planned.sort_by_key(|(chain, plan)| {
                let key = if highest {
                    usize::MAX - plan.height
                } else {
                    plan.height
                };
                (key, chain[0])
            });
            let mut offsets = vec![0usize; n];
            let mut base = 0usize;
            for (chain, plan) in &planned {
                for (&b, &o) in chain.iter().zip(&plan.offsets) {
                    offsets[b] = base.checked_add(o).ok_or(PlanError::Overflow { item: b })?;
                }
                base = base
                    .checked_add(plan.height)
                    .and_then(|h| align_up(h, align))
                    .ok_or(PlanError::Overflow { item: chain[0] })?;
            }
            steps = steps.saturating_sub(self.settle(&mut offsets, align, steps));
            let height = (0..n)
                .map(|b| offsets[b] + self.buffers[b].size)
                .max()
                .unwrap_or(0);
            if best.as_ref().is_none_or(|p| height < p.height) {
                best = Some(Plan::new(offsets, height));
            }
            if steps < SETTLE_STEPS / 2 {
                break;
            }
        }
        Ok(best.unwrap_or_default())
    }

    /// Every buffer, lowest first, dropped to the lowest offset (a multiple
    /// of `align`) clear of the settled buffers it meets, until `most`
    /// steps are spent (the rest then move down as one, to just above the
    /// settled ones). The steps spent. None rises: the settled ones it meets
    /// ended at or below its old offset before they dropped.
    fn settle(&self, offsets: &mut [usize], align: usize, most: usize) -> usize {
        // The clocks side by side, for the pairs' checks.
        let w = self.width();
        let flat = |upper: bool| -> Vec<u64> {
            let clock = |b: &'_ ClockBuffer| {
                if upper {
                    b.upper.clone()
                } else {
                    b.lower.clone()
                }
            };
            self.buffers.iter().flat_map(clock).collect()
        };
        let (lower, upper) = (flat(false), flat(true));
        fn at(v: &[u64], k: usize, w: usize) -> &[u64] {
            &v[k * w..(k + 1) * w]
        }
        let meet = |a: usize, b: usize| {
            !before(at(&upper, a, w), at(&lower, b, w))
                && !before(at(&upper, b, w), at(&lower, a, w))
        };
        let mut order: Vec<usize> = (0..self.buffers.len()).collect();
        order.sort_by_key(|&b| (offsets[b], b));
        // The settled buffers by offset: the first-fit walk stops at the
        // first one the buffer fits below.
        let mut settled: Vec<(usize, usize, usize)> = Vec::new();
        let (mut steps, mut top) = (0usize, 0usize);
        for (k, &b) in order.iter().enumerate() {
            if steps > most {
                // The rest keep their places but for a shift down as one,
                // to just above the settled ones (their old places were
                // above their old tops).
                let rest = &order[k..];
                let shift = align_up(top, align).map_or(0, |a| offsets[rest[0]].saturating_sub(a));
                for &r in rest {
                    offsets[r] = if self.buffers[r].size == 0 {
                        0
                    } else {
                        offsets[r] - shift
                    };
                }
                break;
            }
            let size = self.buffers[b].size;
            if size == 0 {
                offsets[b] = 0;
                continue;
            }
            let mut at = 0;
            for &(start, end, c) in &settled {
                if fits(at, align, size, start) {
                    break;
                }
                // A step a buffer passed, and one a component compared.
                steps += 1;
                if end > at {
                    steps += w;
                    if meet(b, c) {
                        at = end;
                    }
                }
            }
            // Aligned, at or below the old offset (a multiple of `align`).
            offsets[b] = align_up(at, align).unwrap_or(offsets[b]).min(offsets[b]);
            let o = offsets[b];
            top = top.max(o + size);
            let at = settled.partition_point(|&(start, _, _)| start <= o);
            settled.insert(at, (o, o + size, b));
        }
        steps
    }

    /// The solution file: the header with `offset` added, then each buffer
    /// with its offset, in file order, its clocks as read.
    pub fn solution_csv(&self, offsets: &[usize]) -> String {
        let mut out = String::from("id,lower,upper,size,offset\n");
        for (b, o) in self.buffers.iter().zip(offsets) {
            out.push_str(&format!(
                "{},{},{},{},{o}\n",
                b.id,
                show(&b.lower),
                show(&b.upper),
                b.size
            ));
        }
        out
    }
}

/// What is wrong with a buffer live from `lower` to `upper`, if anything:
/// two widths, or an `upper` not after `lower`.
fn fault(lower: &[u64], upper: &[u64]) -> Option<String> {
    if lower.len() != upper.len() {
        return Some(format!(
            "`{}` has {} components, lower `{}` has {}",
            show(upper),
            upper.len(),
            show(lower),
            lower.len()
        ));
    }
    if let ([l], [u]) = (lower, upper) {
        return (u <= l)
            .then(|| format!("{u} is not after lower {l}: a buffer is live over [lower, upper)"));
    }
    (!before(lower, upper) || lower == upper).then(|| {
        format!(
            "`{}` is not after lower `{}` (at or after it in every component, after it in one): a buffer is live over [lower, upper)",
            show(upper),
            show(lower)
        )
    })
}

/// A clock as the file writes it: components joined by `:`.
fn show(c: &[u64]) -> String {
    c.iter().map(u64::to_string).collect::<Vec<_>>().join(":")
}

#[cfg(test)]
#[path = "clocks_tests.rs"]
mod tests;

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
//!    the order of events, so a chain is an interval problem.
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
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// At most this many chains are asked to take a buffer before it opens a
/// chain of its own (the work a buffer is bounded; workers are few).
const CHAINS_ASKED: usize = 64;

/// The settling stops after this many steps (a settled buffer passed, a
/// component of two clocks compared), the rest moving down as one (some
/// 4 s on 60,000 buffers of random two-component clocks, BENCHMARKS.md).
const SETTLE_STEPS: usize = 1 << 30;

/// At most this many passes over the buffers once every event is in.
const PASSES: usize = 8;

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

    /// The chains: every buffer in one, each chain's events totally
    /// ordered. First the buffers that share a clock joined
    /// ([`ClockProblem::shared_clocks`]); then the chains, smallest first,
    /// empty into the others where every one of their buffers has another
    /// chain that takes it (a chain cut off from its worker's), else stay
    /// whole; then, in passes until none moves, each buffer in turn (by
    /// its `upper`: its largest component, then its sum) takes, of the
    /// chains that take it, the one that holds more of its two clocks (the
    /// buffers of one worker meet at its boundaries), then its own, then
    /// the one whose events lie closest below its own.
    fn chains(&self) -> Vec<Vec<usize>> {
        let clocks = |b: usize| (&self.buffers[b].lower[..], &self.buffers[b].upper[..]);
        let mut order: Vec<usize> = (0..self.buffers.len()).collect();
        order.sort_by_key(|&b| {
            let (lower, upper) = clocks(b);
            (upper.iter().max().copied(), sum(upper), sum(lower), b)
        });
        // The chain for `b`, not `not` nor one emptied; `own` kept where no
        // other holds more of its clocks.
        let best =
            |chains: &[Chain<'_>], live: &BTreeSet<usize>, b: usize, not: usize, own: usize| {
                let (lower, upper) = clocks(b);
                live.iter()
                    .copied()
                    .filter(|&k| k != not && !chains[k].events.is_empty())
                    .take(CHAINS_ASKED)
                    .filter(|&k| chains[k].takes(lower) && chains[k].takes(upper))
                    .max_by_key(|&k| {
                        let c = &chains[k];
                        (
                            usize::from(c.holds(lower)) + usize::from(c.holds(upper)),
                            k == own,
                            c.below(lower) + c.below(upper),
                            Reverse(k),
                        )
                    })
            };
        let mut chains = self.shared_clocks();
        // The chains not emptied, for `best` to ask.
        let mut live: BTreeSet<usize> = (0..chains.len()).collect();
        let mut by_size: Vec<usize> = (0..chains.len()).collect();
        by_size.sort_by_key(|&k| (chains[k].buffers.len(), k));
        // A chain empties into the others only whole: where one of its
        // buffers has no other chain, every one moved goes back.
        for k in by_size {
            let mine = std::mem::take(&mut chains[k].buffers);
            let mut moved = Vec::new();
            for &b in &mine {
                let (lower, upper) = clocks(b);
                chains[k].remove(lower, upper);
                let Some(to) = best(&chains, &live, b, k, usize::MAX) else {
                    chains[k].add(b, lower, upper);
                    break;
                };
                chains[to].add(b, lower, upper);
                moved.push((b, to));
            }
            if moved.len() == mine.len() {
                live.remove(&k);
            } else {
                for (b, to) in moved {
                    let (lower, upper) = clocks(b);
                    chains[to].remove(lower, upper);
                    chains[to].buffers.retain(|&x| x != b);
                }
                chains[k] = Chain::default();
                for &b in &mine {
                    let (lower, upper) = clocks(b);
                    chains[k].add(b, lower, upper);
                }
            }
        }
        // Once every event is in, each buffer (in the same order) takes the
        // chain that suits it best now, its own included: a buffer that
        // came first at a boundary of its worker meets the events of those
        // that start there only now.
        let mut of = vec![0; self.buffers.len()];
        for (k, c) in chains.iter_mut().enumerate() {
            for b in std::mem::take(&mut c.buffers) {
                of[b] = k;
            }
        }
        for _ in 0..PASSES {
            let mut moved = false;
            for &b in &order {
                let (lower, upper) = clocks(b);
                let was = of[b];
                chains[was].remove(lower, upper);
                of[b] = best(&chains, &live, b, usize::MAX, was).unwrap_or(was);
                chains[of[b]].add(b, lower, upper);
                moved |= of[b] != was;
            }
            if !moved {
                break;
            }
        }
        let mut members = vec![Vec::new(); chains.len()];
        for (b, &k) in of.iter().enumerate() {
            members[k].push(b);
        }
        members.retain(|c| !c.is_empty());
        members
    }

    /// The first chains: each buffer its own, then the chains of buffers
    /// that share a clock (one worker's buffers meet at its boundaries)
    /// joined wherever every event stays ordered, the smaller chain into
    /// the larger. The clocks are taken latest first (by the largest
    /// component, then the sum): the earliest ones, the zero clock above
    /// all, are shared by the first buffers of every worker, and a chain
    /// joins them only once it holds enough events to show whose it is.
    fn shared_clocks(&self) -> Vec<Chain<'_>> {
        let n = self.buffers.len();
        let mut chains: Vec<Chain<'_>> = (0..n)
            .map(|b| {
                let mut c = Chain::default();
                c.add(b, &self.buffers[b].lower, &self.buffers[b].upper);
                c
            })
            .collect();
        let mut sharing: HashMap<&[u64], Vec<usize>> = HashMap::new();
        for (k, b) in self.buffers.iter().enumerate() {
            for c in [&b.lower[..], &b.upper[..]] {
                sharing.entry(c).or_default().push(k);
            }
        }
        let mut groups: Vec<(&[u64], Vec<usize>)> =
            sharing.into_iter().filter(|(_, g)| g.len() > 1).collect();
        groups.sort_unstable_by_key(|&(c, _)| Reverse((c.iter().max().copied(), sum(c), c)));
        let mut root: Vec<usize> = (0..n).collect();
        let find = |root: &mut Vec<usize>, mut x: usize| {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        };
        // Each buffer of a group joins the first of the group's chains so
        // far that takes its chain whole, else starts one more.
        let mut roots: Vec<usize> = Vec::new();
        for (_, group) in groups {
            roots.clear();
            for &b in &group {
                let y = find(&mut root, b);
                roots.retain(|&r| root[r] == r);
                if roots.contains(&y) {
                    continue;
                }
                let joined = roots.iter().take(CHAINS_ASKED).copied().find(|&x| {
                    let (big, small) = if chains[x].buffers.len() >= chains[y].buffers.len() {
                        (x, y)
                    } else {
                        (y, x)
                    };
                    chains[small]
                        .events
                        .values()
                        .all(|&(e, _)| chains[big].takes(e))
                });
                match joined {
                    Some(x) => {
                        let (big, small) = if chains[x].buffers.len() >= chains[y].buffers.len() {
                            (x, y)
                        } else {
                            (y, x)
                        };
                        let moved = std::mem::take(&mut chains[small]);
                        chains[big].join(moved);
                        root[small] = big;
                        if !roots.contains(&big) && roots.len() < CHAINS_ASKED {
                            roots.push(big);
                        }
                    }
                    None if roots.len() < CHAINS_ASKED => roots.push(y),
                    None => {}
                }
            }
        }
        chains.retain(|c| !c.buffers.is_empty());
        chains
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

/// A chain of [`ClockProblem::chains`]: its buffers, and their events by
/// sum (one clock a sum: two distinct clocks of a chain are ordered, so
/// their sums differ), each with how many of its buffers have it.
#[derive(Default)]
struct Chain<'p> {
    events: BTreeMap<u128, (&'p [u64], usize)>,
    buffers: Vec<usize>,
}

impl<'p> Chain<'p> {
    /// Whether clock `c` is ordered with every event of the chain: with the
    /// events just below and just above it by sum (the rest follow).
    fn takes(&self, c: &[u64]) -> bool {
        let s = sum(c);
        let below = self
            .events
            .range(..=s)
            .next_back()
            .is_none_or(|(&t, &(e, _))| if t == s { e == c } else { before(e, c) });
        below
            && self
                .events
                .range(s..)
                .next()
                .is_none_or(|(_, &(e, _))| before(c, e))
    }

    /// Whether clock `c` is one of the chain's events.
    fn holds(&self, c: &[u64]) -> bool {
        self.events.get(&sum(c)).is_some_and(|&(e, _)| e == c)
    }

    /// The sum of the chain's latest event at or below `c`, plus one (0
    /// where there is none): how closely the chain runs below it.
    fn below(&self, c: &[u64]) -> u128 {
        self.events
            .range(..=sum(c))
            .next_back()
            .map_or(0, |(&t, _)| t + 1)
    }

    fn add(&mut self, b: usize, lower: &'p [u64], upper: &'p [u64]) {
        for c in [lower, upper] {
            self.events.entry(sum(c)).or_insert((c, 0)).1 += 1;
        }
        self.buffers.push(b);
    }

    /// Takes in every buffer and event of `other`.
    fn join(&mut self, other: Chain<'p>) {
        for (t, (e, k)) in other.events {
            self.events.entry(t).or_insert((e, 0)).1 += k;
        }
        self.buffers.extend(other.buffers);
    }

    /// Takes a buffer's two events out (its index is the caller's).
    fn remove(&mut self, lower: &[u64], upper: &[u64]) {
        for c in [lower, upper] {
            let s = sum(c);
            if let Some(e) = self.events.get_mut(&s) {
                e.1 -= 1;
                if e.1 == 0 {
                    self.events.remove(&s);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "clocks_tests.rs"]
mod tests;

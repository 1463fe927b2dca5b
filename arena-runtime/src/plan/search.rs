//! The search after greedy: is there a plan at or below a height `cap`?
//!
//! The rules (canonical plans, section inference, dominance,
//! decomposition, corners) are described once, in the planner's
//! documentation ([`super`]); this module holds the offset search and
//! its state, its children the rest: `model` (the problem as the search
//! sees it), `complete` (a whole plan from a failed run's deepest
//! placements), `corner` (the corner search's node), `conflict` (what a
//! failure of the valley search follows from, for its jumps back), `place`
//! (placing a job and raising the floors) and `trail` (the undo trail).
//!
//! Deterministic: the search counts nodes, not time, and its order depends
//! only on the items and the [`Order`].

use super::order::Facts;
pub(crate) use super::order::Order;

/// What a search returns: the offsets it found (by job) and the nodes it
/// used. `proven` says that no plan fits `cap` (the search ran to its end).
pub(crate) struct Found {
    pub offsets: Option<Vec<usize>>,
    pub nodes: u64,
    pub proven: bool,
    /// Where no plan was found: the placements (job, offset) on the
    /// deepest path the search reached (for [`Model::complete`]).
    pub partial: Vec<(usize, usize)>,
}

/// The ranks that break ties between buffers at the same offset, tried in
/// turn (W: phases live; A: bytes times phases; T: the most bytes left in a
/// section among its own, at the start and again for each part that splits
/// off). The corner search's short runs rank by [`Order::drawn`].
pub(crate) const ORDERS: [Order; 3] = [Order::WAT, Order::TAW, Order::TWA];

/// The searches of a perfect packing, tried in turn.
pub(crate) const PERFECT: [Branch; 2] = [Branch::Valley, Branch::Corner];

/// How a node chooses the buffers to try next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Branch {
    /// Every buffer that can come next at or above the last offset placed,
    /// in order of offset and rank (MiniMalloc's canonical search).
    Offset,
    /// The corner: the lowest offset any buffer can take, and the earliest
    /// section where one can take it. Either one of the buffers that start
    /// there sits there, or none does (each is then barred from that
    /// offset, and the corner's section has a gap). Buffers at one offset
    /// are placed in order of time, so no rank is needed to break the
    /// symmetry, and a node branches over the buffers of one corner only.
    Corner,
    /// For a perfect packing only (else as [`Branch::Corner`]): every
    /// valley of the stacks (a run of sections at one floor, both sides
    /// higher) is filled from its walls, the byte beside a wall by a buffer
    /// that starts or ends there; the wall with the fewest such buffers is
    /// branched on (the most constrained choice first), at whatever height.
    Valley,
}

/// The scale of the parts the search runs on (`parts::max_jobs`: twice
/// this for a perfect packing, a quarter for any other part): its depth is
/// the number of buffers, its model holds every pair live together, and a
/// node scans the part's buffers.
pub(crate) const MAX_JOBS: usize = 8_192;

/// The work one node of the budget pays for: a node is one buffer placed
/// (or one candidate examined), and every `STEPS_PER_NODE` elementary steps
/// of work done for it (jobs scanned, sections updated, floors raised,
/// parts ranked) count as one node more. So the budget bounds the search's
/// time on any problem, not only on those whose nodes are cheap.
pub(crate) const STEPS_PER_NODE: u64 = 16_384;

enum Outcome {
    Found,
    NotFound,
    OutOfNodes,
}

/// The part of the problem a search node works on: its sections and its
/// jobs (placed or not).
struct Part {
    lo: usize,
    hi: usize,
    jobs: Vec<usize>,
}

impl Model<'_> {
    /// Each job's rank under `order` (0 first).
    fn ranks(&self, order: Order) -> Vec<usize> {
        let all: Vec<usize> = (0..self.jobs.len()).collect();
        let mut rank = vec![0; self.jobs.len()];
        for (r, j) in ranked(self.jobs, &self.load, order, &all)
            .into_iter()
            .enumerate()
        {
            rank[j] = r;
        }
        rank
    }

    /// [`Model::solve_with`] with nothing learned before (the tests'
    /// entry).
    #[cfg(test)]
    pub(crate) fn solve_by(&self, cap: usize, order: Order, branch: Branch, budget: u64) -> Found {
        self.solve_with(cap, order, branch, budget, &mut Learned::default())
    }

    /// Looks for offsets with every buffer below `cap`, within `budget`
    /// nodes, ties broken by `order`, each node branching as `branch` says;
    /// the corner searches led by what earlier runs on the same part
    /// learned from their failures (`carried`), and adding to it.
    pub(crate) fn solve_with(
        &self,
        cap: usize,
        order: Order,
        branch: Branch,
        budget: u64,
        carried: &mut Learned,
    ) -> Found {
        let mut learned = core::mem::take(carried);
        learned.walls.resize(self.sections + 1, 0);
        let mut s = Search {
            deepest: Vec::new(),
            fresh: false,
            learned,
            path: Vec::new(),
            held: usize::MAX,
            m: self,
            cap,
            budget,
            steps: 0,
            rank: self.ranks(order),
            order,
            branch,
            perfect: branch != Branch::Offset && self.tight(cap),
            candidates: Vec::new(),
            reach: vec![false; self.sections + 1],
            barred: vec![usize::MAX; self.jobs.len()],
            bars: Trail::default(),
            min_off: self.start_off.clone(),
            placed: vec![false; self.jobs.len()],
            solution: vec![0; self.jobs.len()],
            floor: self.base.clone(),
            total: self.load.clone(),
            cuts: self.cuts.clone(),
            affected: Vec::new(),
            witness: self
                .live
                .iter()
                .map(|l| l.first().copied().unwrap_or(0))
                .collect(),
            offs: Trail::default(),
            floors: Trail::default(),
            level: vec![0; self.jobs.len()],
            conflict: conflict::Levels::with_room(self.jobs.len()),
        };
        let whole = Part {
            lo: 0,
            hi: self.sections,
            jobs: (0..self.jobs.len()).collect(),
        };
        // Ranking every job reads its sections.
        let spans: usize = self.jobs.iter().map(|j| j.end - j.start).sum();
        s.charge(spans + self.jobs.len() + self.sections);
        // (A section with nothing to place holds no job: its base is no
        // matter.)
        let over = |(&t, &b): (&usize, &usize)| t > 0 && t.checked_add(b).is_none_or(|h| h > cap);
        let outcome =
            if s.total.iter().zip(&self.base).any(over) || self.start_off.contains(&usize::MAX) {
                Outcome::NotFound
            } else {
                let cuts: Vec<usize> = (0..self.sections.saturating_sub(1))
                    .filter(|&c| self.cuts[c] == 0)
                    .map(|c| c + 1)
                    .collect();
                s.parts(&whole, &cuts)
            };
        let nodes = budget - s.budget;
        *carried = core::mem::take(&mut s.learned);
        match outcome {
            Outcome::Found => Found {
                offsets: Some(s.solution),
                nodes,
                proven: false,
                partial: Vec::new(),
            },
            Outcome::NotFound => Found {
                offsets: None,
                nodes,
                proven: true,
                partial: s.deepest,
            },
            Outcome::OutOfNodes => Found {
                offsets: None,
                nodes,
                proven: false,
                partial: s.deepest,
            },
        }
    }
}

/// `subset` in `order`, with T the most bytes of `totals` in the job's
/// sections.
fn ranked(jobs: &[Job], totals: &[usize], order: Order, subset: &[usize]) -> Vec<usize> {
    order.sort(subset.iter().map(|&j| {
        let job = &jobs[j];
        Facts {
            bytes: job.foot,
            life: job.width,
            busy: totals[job.start..job.end]
                .iter()
                .copied()
                .max()
                .unwrap_or(0),
            index: j,
        }
    }))
}

/// The most bytes left in a section of a part before each of its sections
/// (`before[k]`: sections `..k`) and from each on (`after[k]`: `k..`).
struct Outside {
    before: Vec<usize>,
    after: Vec<usize>,
}

impl Outside {
    fn of(total: &[usize]) -> Outside {
        let width = total.len();
        let mut before = vec![0usize; width + 1];
        let mut after = vec![0usize; width + 1];
        for k in 0..width {
            before[k + 1] = before[k].max(total[k]);
            after[width - 1 - k] = after[width - k].max(total[width - 1 - k]);
        }
        Outside { before, after }
    }
}

/// What the corner searches of one part learned from the runs that failed,
/// carried from run to run: each section's walls that could not be filled
/// (the valley search branches on the wall of most failures among those
/// with the fewest buffers, where conflicts are met soonest), and the
/// placements a run that ran out of nodes was stuck under (tried last at
/// their corner in later runs). Read as hints only: a plan found is a plan,
/// and one not found is not ruled out by them.
#[derive(Debug, Default)]
pub(crate) struct Learned {
    /// By section: the walls beside it that could not be filled.
    walls: Vec<u32>,
    /// By (job, offset): the runs stuck under that placement.
    blamed: rustc_hash::FxHashMap<(usize, usize), u32>,
}

/// The choices above where a run that ran out of nodes backtracked to
/// that are blamed for it: the stuck run's trap is among the last ones
/// its backtracking never reached.
const BLAMED: usize = 3;

/// One search's state.
struct Search<'m, 'j> {
    /// The placements (job, offset) of the deepest path so far.
    deepest: Vec<(usize, usize)>,
    /// Whether the path went deeper than `deepest` since it was copied:
    /// the first placement taken back after that copies it, at the
    /// path's deepest.
    fresh: bool,
    /// What the runs before learned, and this one adds to.
    learned: Learned,
    /// The placements on the path: (job, offset, whether the node had
    /// another buffer to try; always `false` in the offset search, whose
    /// runs blame nothing).
    path: Vec<(usize, usize, bool)>,
    /// The shortest the path has been after a placement was taken back:
    /// the placements below it were never undone.
    held: usize,
    m: &'m Model<'j>,
    cap: usize,
    /// Nodes left.
    budget: u64,
    /// Steps of work not yet counted as a node ([`STEPS_PER_NODE`]).
    steps: u64,
    rank: Vec<usize>,
    order: Order,
    branch: Branch,
    /// A perfect packing (every section exactly `cap` full): every run of
    /// sections at the lowest offset must be covered there end to end.
    perfect: bool,
    /// Scratch of [`Search::runs_covered`]: the boundaries reached.
    reach: Vec<bool>,
    /// For [`Branch::Corner`]: the offset each job is barred from
    /// (`usize::MAX`: none); it can be placed once its lowest offset rises
    /// above it.
    barred: Vec<usize>,
    /// The undo trail of `barred`.
    bars: Trail,
    /// The candidates of the [`Branch::Offset`] nodes on the path, each
    /// node's after its parent's: (offset, rank, job).
    candidates: Vec<(usize, usize, usize)>,
    /// Each unplaced job's lowest offset: above every placed job live with
    /// it, aligned.
    min_off: Vec<usize>,
    placed: Vec<bool>,
    /// The offsets of the plan found: each job's is written when it is
    /// placed, so the last write is the plan's.
    solution: Vec<usize>,
    /// Each section's floor: no unplaced job lies below it there.
    floor: Vec<usize>,
    /// Each section's unplaced bytes.
    total: Vec<usize>,
    /// Each boundary's crossing jobs not yet placed.
    cuts: Vec<usize>,
    /// Scratch: the jobs whose lowest offset rose, a stack.
    affected: Vec<usize>,
    /// For each section, a job last found at its floor (any job at first).
    witness: Vec<usize>,
    /// The undo trails of `min_off` and `floor`.
    offs: Trail,
    floors: Trail,
    /// For the valley search's jumps back ([`Search::jumps`]): each placed
    /// job's level (its depth on the path), and the levels the last
    /// failure follows from.
    level: Vec<usize>,
    conflict: conflict::Levels,
}

impl Search<'_, '_> {
    /// Whether failures carry what they follow from, for jumps back: the
    /// valley search on a perfect packing.
    fn jumps(&self) -> bool {
        self.perfect && self.branch == Branch::Valley
    }

    /// A placement of `j` at `off` goes on the path (`choice`: the node
    /// had another buffer to try).
    fn enter(&mut self, j: usize, off: usize, choice: bool) {
        self.path.push((j, off, choice));
        if self.path.len() > self.deepest.len() {
            self.fresh = true;
        }
    }

    /// The last placement on the path is taken back: where the path went
    /// deeper than ever since the last copy, this is its deepest, and it is
    /// kept (also where a plan was found, whose copy is of no use: its
    /// charge is in the nodes the part used, which the parts after share,
    /// and leaving it out moved their plans, BENCHMARKS.md).
    fn leave(&mut self) {
        if self.fresh {
            self.fresh = false;
            self.charge(self.path.len());
            self.deepest.clear();
            self.deepest
                .extend(self.path.iter().map(|&(j, o, _)| (j, o)));
        }
        self.path.pop();
    }

    /// Counts `steps` of work against the budget: a node per
    /// [`STEPS_PER_NODE`].
    fn charge(&mut self, steps: usize) {
        self.steps += steps as u64;
        if self.steps >= STEPS_PER_NODE {
            self.budget = self.budget.saturating_sub(self.steps / STEPS_PER_NODE);
            self.steps %= STEPS_PER_NODE;
        }
    }

    /// Solves `part` split at the section indices `cuts` (ascending, inside
    /// it), each side on its own.
    fn parts(&mut self, part: &Part, cuts: &[usize]) -> Outcome {
        let mut lo = part.lo;
        for hi in cuts.iter().copied().chain([part.hi]) {
            if self.budget == 0 {
                return Outcome::OutOfNodes;
            }
            self.charge(part.jobs.len());
            let jobs: Vec<usize> = part
                .jobs
                .iter()
                .copied()
                .filter(|&j| {
                    let job = &self.m.jobs[j];
                    !self.placed[j] && job.start < hi && lo < job.end
                })
                .collect();
            if !jobs.is_empty() {
                // Ranked afresh among themselves, by the bytes left now.
                let old: Vec<usize> = jobs.iter().map(|&j| self.rank[j]).collect();
                let spans: usize = jobs
                    .iter()
                    .map(|&j| {
                        let job = &self.m.jobs[j];
                        job.end.min(hi) - job.start.max(lo)
                    })
                    .sum();
                self.charge(spans + 16 * jobs.len());
                for (r, j) in ranked(self.m.jobs, &self.total, self.order, &jobs)
                    .into_iter()
                    .enumerate()
                {
                    self.rank[j] = r;
                }
                let sub = Part { lo, hi, jobs };
                let outcome = self.dfs(&sub, (0, 0));
                for (&j, &r) in sub.jobs.iter().zip(&old) {
                    self.rank[j] = r;
                }
                match outcome {
                    Outcome::Found => {}
                    other => return other,
                }
            }
            lo = hi;
        }
        Outcome::Found
    }

    fn dfs(&mut self, part: &Part, last: (usize, usize)) -> Outcome {
        if self.branch != Branch::Offset {
            return self.corner(part);
        }
        if self.budget == 0 {
            return Outcome::OutOfNodes;
        }
        self.budget -= 1;
        // The unplaced jobs, and the lowest top among them, on the shared
        // stack of candidates (this node's from `base` on; the nodes below
        // push theirs after them and take them off again).
        let base = self.candidates.len();
        let mut min_height = usize::MAX;
        let mut any = false;
        for &j in &part.jobs {
            if self.placed[j] {
                continue;
            }
            any = true;
            let off = self.min_off[j];
            let top = off.saturating_add(self.m.jobs[j].foot);
            if top > self.cap {
                self.candidates.truncate(base);
                return Outcome::NotFound;
            }
            min_height = min_height.min(top);
            if (off, self.rank[j]) >= last {
                self.candidates.push((off, self.rank[j], j));
            }
        }
        self.charge(part.jobs.len());
        if !any {
            return Outcome::Found;
        }
        // The candidates: below every unplaced top, not before the last
        // placed; in order of offset, then rank.
        let mut end = base;
        for k in base..self.candidates.len() {
            if self.candidates[k].0 < min_height {
                self.candidates[end] = self.candidates[k];
                end += 1;
            }
        }
        self.candidates.truncate(end);
        self.candidates[base..].sort_unstable();
        let outcome = self.try_candidates(part, base);
        self.candidates.truncate(base);
        outcome
    }

    /// The candidates of a [`Branch::Offset`] node, `candidates[base..]`,
    /// each placed in turn.
    fn try_candidates(&mut self, part: &Part, base: usize) -> Outcome {
        let end = self.candidates.len();
        let most = self.total[part.lo..part.hi]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        // The most bytes left before and after each section, made when an
        // offset is high enough to need them.
        let mut outside: Option<Outside> = None;
        let mut tried: Vec<(usize, usize)> = Vec::new();
        for k in base..end {
            let (off, rank, j) = self.candidates[k];
            // Every candidate examined is work: the budget may end here,
            // between two of them.
            if self.budget == 0 {
                return Outcome::OutOfNodes;
            }
            let twin = self.m.twin[j];
            self.charge(1 + tried.len());
            if tried.contains(&(twin, off)) {
                continue;
            }
            tried.push((twin, off));
            let outside = if off.saturating_add(most) <= self.cap {
                None
            } else {
                if outside.is_none() {
                    self.charge(part.hi - part.lo);
                }
                Some(&*outside.get_or_insert_with(|| Outside::of(&self.total[part.lo..part.hi])))
            };
            self.enter(j, off, false);
            let (outcome, hat) = self.try_place(part, outside, j, off, rank);
            self.leave();
            match outcome {
                Outcome::NotFound => {}
                other => return other,
            }
            if !hat {
                break;
            }
        }
        Outcome::NotFound
    }
}

mod complete;
mod conflict;
mod corner;
mod model;
mod place;
mod sides;
mod trail;

pub(crate) use model::{Job, MOST_PAIRS, Model, count_pairs, pairs};

use trail::Trail;

#[cfg(test)]
#[path = "search_tests.rs"]
pub(super) mod tests;

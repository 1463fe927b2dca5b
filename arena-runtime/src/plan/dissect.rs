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
//!   two of them meet by chance: a pair joins at once only where the
//!   rectangle it makes would join another (one of its span, or one of its
//!   height beside it), the others once nothing else joins.
//! - *Stacked*, any pair: where several share a span, a pair is chosen
//!   only once nothing else joins (the first).
//!
//! Each join places its pieces inside the new rectangle, so a single one
//! left, spanning the part, is a plan at the bound. A join of pieces that
//! were not cut from one rectangle (where many share a span or a height
//! by chance) may leave pieces that no rule joins. Then the tiles left are
//! a smaller problem of the same bound: each tile of more than [`WHOLE`]
//! pieces one job, its pieces fixed inside it, the smaller ones given back
//! as their pieces (the wrong joins are mostly there, among the last ones
//! made). That problem is rebuilt once more (the large tiles there from
//! the start: a pair is chosen beside them) and else searched (the
//! caller's `solve`), with half of what the budget has left but at most a
//! few nodes a tile (a search that finds a plan mostly finds it soon, one
//! that does not spends all it has); where it has a plan at the bound, so
//! has the part. Else the pieces are joined again in another order, whose
//! tiles are searched in turn (tiles searched once are not searched
//! again: another order often leaves the same ones). Where nothing has,
//! the tiles of the first stuck rebuild are handed back: a plan of theirs
//! at any height is one of the part's. Hash maps are only looked up, never walked: the
//! result is the same on every run.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;

use super::base::{log_steps, mix};
use super::search::Job;

/// The steps (pieces looked at) that count as one node of the budget:
/// about the time of one node of the search (a step here is a lookup).
const STEPS: u64 = 4_096;

/// A rectangle: a job (the first `n`) or the join of others.
struct Tile {
    start: usize,
    end: usize,
    height: usize,
    /// Its phases (the jobs' `width`, summed along it).
    width: usize,
    alive: bool,
    /// Its pieces, `pieces[from..to]`: (tile, offset inside this one).
    from: usize,
    to: usize,
}

/// The tiles of one span of time.
#[derive(Default)]
struct Group {
    tiles: Vec<usize>,
    /// Whether it is in [`Board::crowded`].
    listed: bool,
}

struct Board {
    tiles: Vec<Tile>,
    pieces: Vec<(usize, usize)>,
    by_start: Vec<Vec<usize>>,
    by_end: Vec<Vec<usize>>,
    by_window: FxHashMap<(usize, usize), Group>,
    /// Spans with two tiles or more alive (some maybe fewer now).
    crowded: VecDeque<(usize, usize)>,
    queue: VecDeque<usize>,
    /// Tiles no windmill joins now, to be tried stacked on a sum beside
    /// them or side by side.
    beside: VecDeque<usize>,
    /// Tiles whose join side by side nothing else would join now, to be
    /// tried once nothing else joins.
    later: VecDeque<usize>,
    alive: usize,
    steps: u64,
    /// The steps past which every join gives up.
    limit: u64,
}

/// How many times the pieces are joined, each time taken in another order.
const ATTEMPTS: u64 = 16;
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

/// What [`rebuild`] found.
pub(super) struct Rebuilt {
    /// The offsets (by position in the jobs) of a plan at the height of
    /// the rectangle they tile, where they rebuild into it.
    pub(super) offsets: Option<Vec<usize>>,
    /// The nodes of the budget used.
    pub(super) nodes: u64,
    /// Where the first rebuild got stuck (and nothing found a plan): the
    /// tiles it was left with, a smaller problem whose plans are plans of
    /// the jobs.
    pub(super) stuck: Option<Reduced>,
}

/// Rebuilds `jobs`, which tile a rectangle over `sections`, into it, with
/// `budget` nodes in all. Where a rebuild gets stuck, its tiles are
/// rebuilt as a smaller problem, then searched by `solve` (jobs, nodes:
/// the offsets of a plan at the bound, if found, and the nodes used),
/// with half of what the budget has left (the rebuild of the tiles a
/// quarter), but at most [`PER_JOB`] nodes a tile. A rebuild that fails
/// (on a small part, or with few tiles left) is tried again with the
/// pieces in another order (a fixed one, up to [`ATTEMPTS`]): which pieces
/// are found first decides where pieces of one height meet by chance.
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
    for attempt in 0..ATTEMPTS {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        if attempt > 0 {
            order.sort_by_key(|&k| (mix(attempt, k as u64), k));
        }
        // The joins' steps and the searches' nodes share the budget.
        let limit = budget
            .saturating_sub(searched)
            .saturating_mul(STEPS)
            .saturating_sub(steps);
        let (ended, joined) = once(jobs, &order, sections, align, limit);
        steps += joined;
        let left = match ended {
            Ended::Done(offsets) => {
                rebuilt.offsets = Some(offsets);
                rebuilt.nodes = used(steps, searched);
                return rebuilt;
            }
            Ended::Stuck(left, reduced) => {
                let known = shape(&reduced.jobs, &mut steps);
                let share = if tried.contains(&known) {
                    0
                } else {
                    tried.push(known);
                    let half = budget.saturating_sub(used(steps, searched)) / 2;
                    if depth == 0 {
                        half.min(PER_JOB.saturating_mul(reduced.jobs.len() as u64))
                    } else {
                        half
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
                    rebuilt.offsets = Some(offsets);
                    rebuilt.stuck = None;
                    rebuilt.nodes = used(steps, searched);
                    return rebuilt;
                }
                rebuilt.stuck.get_or_insert(reduced);
                left
            }
            Ended::Stopped => break,
        };
        // Another order mends a few chance joins, not many.
        if used(steps, searched) >= budget
            || (left > jobs.len().div_ceil(NEAR) && jobs.len() > SMALL)
        {
            break;
        }
    }
    rebuilt.nodes = used(steps, searched);
    rebuilt
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

impl Reduced {
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

    /// A job of `tile`'s span and height, holding `members` (jobs by
    /// position, offsets inside it).
    fn push(
        &mut self,
        tile: &Tile,
        align: usize,
        members: impl IntoIterator<Item = (usize, usize)>,
    ) {
        self.members.extend(members);
        self.from.push(self.members.len());
        self.jobs.push(Job {
            start: tile.start,
            end: tile.end,
            foot: tile.height,
            align,
            width: tile.width,
            item: self.jobs.len(),
        });
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

/// One rebuild of `jobs` taken in `order`, stopping past `limit` steps,
/// and the steps used.
fn once(jobs: &[Job], order: &[usize], sections: usize, align: usize, limit: u64) -> (Ended, u64) {
    let mut board = Board {
        tiles: Vec::with_capacity(2 * jobs.len()),
        pieces: Vec::with_capacity(4 * jobs.len()),
        by_start: vec![Vec::new(); sections + 1],
        by_end: vec![Vec::new(); sections + 1],
        by_window: FxHashMap::default(),
        crowded: VecDeque::new(),
        queue: VecDeque::new(),
        beside: VecDeque::new(),
        later: VecDeque::new(),
        alive: 0,
        steps: 0,
        limit,
    };
    for &k in order {
        let job = &jobs[k];
        board.add(job.start, job.end, job.foot, job.width, &[]);
    }
    board.queue = (0..jobs.len()).collect();
    while board.alive > 1 && board.steps <= board.limit {
        if let Some(t) = board.queue.pop_front() {
            if board.tiles[t].alive && !board.windmill(t) {
                board.beside.push_back(t);
            }
        } else if let Some(t) = board.beside.pop_front() {
            if board.tiles[t].alive && !board.pair(t) && !board.side_by_side(t, true) {
                board.later.push_back(t);
            }
        } else if let Some(t) = board.later.pop_front() {
            if board.tiles[t].alive {
                board.side_by_side(t, false);
            }
        } else if !board.stack() {
            break;
        }
    }
    let whole = board.tiles.len() - 1;
    let done = board.alive == 1
        && board.tiles[whole].alive
        && board.tiles[whole].start == 0
        && board.tiles[whole].end == sections;
    if !done && board.steps > board.limit {
        return (Ended::Stopped, board.steps);
    }
    if !done {
        let reduced = board.reduce(order, align);
        return (Ended::Stuck(board.alive, reduced), board.steps);
    }
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

impl Board {
    /// A new tile of these pieces (offsets inside it); its neighbours,
    /// which it may complete a windmill for, go back in the queue.
    fn add(
        &mut self,
        start: usize,
        end: usize,
        height: usize,
        width: usize,
        pieces: &[(usize, usize)],
    ) {
        let t = self.tiles.len();
        let from = self.pieces.len();
        for &(p, _) in pieces {
            self.tiles[p].alive = false;
        }
        self.alive = self.alive + 1 - pieces.len();
        self.pieces.extend_from_slice(pieces);
        self.tiles.push(Tile {
            start,
            end,
            height,
            width,
            alive: true,
            from,
            to: self.pieces.len(),
        });
        if !pieces.is_empty() {
            // The centres it may be a blade or a corner piece of.
            for list in [
                &self.by_start[end],
                &self.by_end[start],
                &self.by_start[start],
                &self.by_end[end],
            ] {
                self.steps += list.len() as u64;
                self.queue
                    .extend(list.iter().copied().filter(|&c| self.tiles[c].alive));
            }
            self.queue.push_back(t);
        }
        // The lists keep only tiles alive, so that no scan passes the
        // dead.
        let tiles = &self.tiles;
        self.steps += 1;
        let group = self.by_window.entry((start, end)).or_default();
        for list in [
            &mut self.by_start[start],
            &mut self.by_end[end],
            &mut group.tiles,
        ] {
            if !pieces.is_empty() {
                self.steps += list.len() as u64;
                list.retain(|&u| tiles[u].alive);
            }
            list.push(t);
        }
        if !group.listed && group.tiles.len() >= 2 {
            group.listed = true;
            self.crowded.push_back((start, end));
        }
    }

    /// Calls `at(job, offset)` for each job (the first `n` tiles) in tile
    /// `t` placed at `base`.
    fn place(&self, t: usize, base: usize, n: usize, at: &mut impl FnMut(usize, usize)) {
        let mut stack = vec![(t, base)];
        while let Some((t, base)) = stack.pop() {
            let tile = &self.tiles[t];
            if t < n {
                at(t, base);
            }
            stack.extend(
                self.pieces[tile.from..tile.to]
                    .iter()
                    .map(|&(p, at)| (p, base + at)),
            );
        }
    }

    /// The tiles alive as a smaller problem (see [`Reduced`]); the first
    /// tiles are the jobs in `order`.
    fn reduce(&mut self, order: &[usize], align: usize) -> Reduced {
        let n = order.len();
        let mut reduced = Reduced {
            jobs: Vec::new(),
            members: Vec::with_capacity(n),
            from: vec![0],
        };
        for t in 0..self.tiles.len() {
            let tile = &self.tiles[t];
            if !tile.alive {
                continue;
            }
            let mut members = Vec::new();
            self.place(t, 0, n, &mut |j, at| members.push((j, at)));
            self.steps += members.len() as u64;
            if members.len() > WHOLE {
                reduced.push(tile, align, members.iter().map(|&(j, at)| (order[j], at)));
            } else {
                for (j, _) in members {
                    reduced.push(&self.tiles[j], align, [(order[j], 0)]);
                }
            }
        }
        reduced
    }

    /// An alive tile of span `[start, end)` and this height, if `height`
    /// is given, else of any height (every tile looked at is counted).
    fn find(&mut self, start: usize, end: usize, height: Option<usize>) -> Option<usize> {
        self.steps += 1;
        let group = self.by_window.get(&(start, end))?;
        self.steps += group.tiles.len() as u64;
        group.tiles.iter().copied().find(|&u| {
            let tile = &self.tiles[u];
            tile.alive && height.is_none_or(|h| tile.height == h)
        })
    }

    /// Joins the windmill `c` is the centre of, if its four blades are there.
    fn windmill(&mut self, c: usize) -> bool {
        let (a, b, hc) = (self.tiles[c].start, self.tiles[c].end, self.tiles[c].height);
        self.steps += (self.by_end[a].len() + self.by_start[b].len()) as u64;
        // A blade is of use only where a tile spans from it to the far
        // side of the centre (the piece under or over): looked up once.
        let mut lefts = self.by_end[a].clone();
        lefts.retain(|&l| self.tiles[l].alive && self.tiles[l].height > hc);
        lefts.retain(|&l| self.find(self.tiles[l].start, b, None).is_some());
        let mut rights = self.by_start[b].clone();
        rights.retain(|&r| self.tiles[r].alive && self.tiles[r].height > hc);
        if !lefts.is_empty() {
            rights.retain(|&r| self.find(a, self.tiles[r].end, None).is_some());
        }
        for &l in &lefts {
            for &r in &rights {
                self.steps += 1;
                if self.steps > self.limit {
                    return false;
                }
                let (x, hl) = (self.tiles[l].start, self.tiles[l].height);
                let (y, hr) = (self.tiles[r].end, self.tiles[r].height);
                // The five spans differ, so no tile is found twice.
                let Some(under) = self.find(x, b, Some(hr - hc)) else {
                    continue;
                };
                let Some(over) = self.find(a, y, Some(hl - hc)) else {
                    continue;
                };
                let low = hr - hc;
                let pieces = [(under, 0), (r, 0), (c, low), (l, low), (over, hr)];
                let width = self.tiles[l].width + self.tiles[c].width + self.tiles[r].width;
                self.add(x, y, hl + low, width, &pieces);
                return true;
            }
        }
        false
    }

    /// Joins `t` with a tile of its height beside it, if there is one
    /// (where `sure`, only if the tile they make would join another now).
    fn side_by_side(&mut self, t: usize, sure: bool) -> bool {
        let (s, e, h) = (self.tiles[t].start, self.tiles[t].end, self.tiles[t].height);
        self.steps += (self.by_start[e].len() + self.by_end[s].len()) as u64;
        let same = |u: &usize| self.tiles[*u].alive && self.tiles[*u].height == h;
        let (u, x, y, pieces) = if let Some(u) = self.by_start[e].iter().copied().find(same) {
            (u, s, self.tiles[u].end, [(t, 0), (u, 0)])
        } else if let Some(u) = self.by_end[s].iter().copied().find(same) {
            (u, self.tiles[u].start, e, [(u, 0), (t, 0)])
        } else {
            return false;
        };
        if sure && !self.joins_on(x, y, h) {
            return false;
        }
        let width = self.tiles[t].width + self.tiles[u].width;
        self.add(x, y, h, width, &pieces);
        true
    }

    /// Whether a tile of span `[x, y)` and height `h` would join one now:
    /// one of its span, or one of its height beside it (neither is one of
    /// the two it would be made of: their spans differ).
    fn joins_on(&mut self, x: usize, y: usize, h: usize) -> bool {
        if self.find(x, y, None).is_some() {
            return true;
        }
        self.steps += (self.by_end[x].len() + self.by_start[y].len()) as u64;
        let tiles = &self.tiles;
        self.by_end[x]
            .iter()
            .chain(&self.by_start[y])
            .any(|&w| tiles[w].alive && tiles[w].height == h)
    }

    /// Stacks `t` with a tile of its span whose sum with it is the height
    /// of a tile beside the span (the two are a piece of a cut in time).
    fn pair(&mut self, t: usize) -> bool {
        let (s, e, h) = (self.tiles[t].start, self.tiles[t].end, self.tiles[t].height);
        self.steps += 1;
        let Some(group) = self.by_window.get(&(s, e)) else {
            return false;
        };
        let beside = || self.by_end[s].iter().chain(&self.by_start[e]);
        self.steps += (group.tiles.len() * (self.by_end[s].len() + self.by_start[e].len())) as u64;
        if self.steps > self.limit {
            return false;
        }
        let fits = |u: usize| {
            let sum = h + self.tiles[u].height;
            beside().any(|&w| self.tiles[w].alive && self.tiles[w].height == sum)
        };
        let found = group
            .tiles
            .iter()
            .copied()
            .find(|&u| u != t && self.tiles[u].alive && fits(u));
        let Some(u) = found else {
            return false;
        };
        let (hu, width) = (self.tiles[u].height, self.tiles[t].width);
        self.add(s, e, h + hu, width, &[(t, 0), (u, h)]);
        true
    }

    /// Stacks the first two tiles of the first span that has two. False
    /// where none has.
    fn stack(&mut self) -> bool {
        while let Some(span) = self.crowded.pop_front() {
            let group = self
                .by_window
                .get_mut(&span)
                .expect("a crowded span has a group");
            group.listed = false;
            self.steps += group.tiles.len() as u64;
            let mut alive = group.tiles.iter().copied().filter(|&u| self.tiles[u].alive);
            if let (Some(u), Some(v)) = (alive.next(), alive.next()) {
                let (hu, hv) = (self.tiles[u].height, self.tiles[v].height);
                let width = self.tiles[u].width;
                self.add(span.0, span.1, hu + hv, width, &[(u, 0), (v, hu)]);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
#[path = "dissect_tests.rs"]
mod tests;

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
//! - *Side by side*: two rectangles of one height, one ending where the
//!   other starts.
//! - *Stacked*: two rectangles of one span of time. Where several share it,
//!   a pair is chosen only once nothing else joins: first one whose sum is
//!   the height of a rectangle beside their span (the two are the piece of
//!   a cut in time), else the first pair.
//!
//! Each join places its pieces inside the new rectangle, so a single one
//! left, spanning the part, is a plan at the bound. A join of pieces that
//! were not cut from one rectangle may leave pieces that no rule joins:
//! then nothing is returned, and the search goes on as before. Hash maps
//! are only looked up, never walked: the result is the same on every run.

use std::collections::{HashMap, VecDeque};

use super::base::mix;
use super::search::Job;

/// The steps (pieces looked at) that count as one node of the budget:
/// about the time of one node of the search (a step here is a lookup).
const STEPS: u64 = 4_096;

/// A rectangle: a job (the first `n`) or the join of others.
struct Tile {
    start: usize,
    end: usize,
    height: usize,
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
    by_window: HashMap<(usize, usize), Group>,
    /// Spans with two tiles or more alive (some maybe fewer now).
    crowded: VecDeque<(usize, usize)>,
    queue: VecDeque<usize>,
    /// Tiles no windmill joins now, to be tried side by side.
    beside: VecDeque<usize>,
    alive: usize,
    steps: u64,
    /// The steps past which every join gives up.
    limit: u64,
}

/// How many times the pieces are joined, each time taken in another order.
const ATTEMPTS: u64 = 4;
/// Another order is tried only where the part has at most [`SMALL`]
/// pieces or a rebuild left at most one tile in this many: on larger parts
/// a failed rebuild leaves many, and each order costs as much as the
/// first.
const NEAR: usize = 64;
/// The most pieces a part may have to be tried in every order.
const SMALL: usize = 4_096;

/// The offsets (by position in `jobs`) of a plan at the height of the
/// rectangle `jobs` tile over `sections`, where they rebuild into it, and
/// the nodes of the budget used (at most about `budget`). A rebuild that
/// fails (on a small part, or with few tiles left) is tried again with
/// the pieces in another order (a fixed one): which pieces are found first
/// decides where pieces of one height meet by chance.
pub(super) fn rebuild(jobs: &[Job], sections: usize, budget: u64) -> (Option<Vec<usize>>, u64) {
    // Every offset a join gives is a sum or difference of heights: where
    // every height is a multiple of every alignment, so is every offset;
    // elsewhere the rebuild is not tried (it would mostly be wasted).
    let align = jobs.iter().map(|j| j.align.max(1)).max().unwrap_or(1);
    if jobs
        .iter()
        .any(|j| j.start >= j.end || j.end > sections || j.foot == 0 || j.foot % align != 0)
    {
        return (None, 0);
    }
    let limit = budget.saturating_mul(STEPS);
    let mut steps = 0;
    for attempt in 0..ATTEMPTS {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        if attempt > 0 {
            order.sort_by_key(|&k| (mix(attempt, k as u64), k));
        }
        let (placed, left, used) = once(jobs, &order, sections, limit.saturating_sub(steps));
        steps += used;
        if let Some(at) = placed {
            let mut offsets = vec![0; jobs.len()];
            for (&k, o) in order.iter().zip(at) {
                offsets[k] = o;
            }
            return (Some(offsets), steps.div_ceil(STEPS));
        }
        // Another order mends a few chance joins, not many.
        if steps >= limit || (left > jobs.len().div_ceil(NEAR) && jobs.len() > SMALL) {
            break;
        }
    }
    (None, steps.div_ceil(STEPS))
}

/// One rebuild of `jobs` taken in `order`: the offsets by position in
/// `order`, where they rebuild into the rectangle over `sections` (and
/// keep their alignments), the tiles left, and the steps used (stopping
/// past `limit`).
fn once(
    jobs: &[Job],
    order: &[usize],
    sections: usize,
    limit: u64,
) -> (Option<Vec<usize>>, usize, u64) {
    let mut board = Board {
        tiles: Vec::with_capacity(2 * jobs.len()),
        pieces: Vec::with_capacity(4 * jobs.len()),
        by_start: vec![Vec::new(); sections + 1],
        by_end: vec![Vec::new(); sections + 1],
        by_window: HashMap::new(),
        crowded: VecDeque::new(),
        queue: VecDeque::new(),
        beside: VecDeque::new(),
        alive: 0,
        steps: 0,
        limit,
    };
    for &k in order {
        board.add(jobs[k].start, jobs[k].end, jobs[k].foot, &[]);
    }
    board.queue = (0..jobs.len()).collect();
    while board.alive > 1 && board.steps <= board.limit {
        if let Some(t) = board.queue.pop_front() {
            if board.tiles[t].alive && !board.windmill(t) {
                board.beside.push_back(t);
            }
        } else if let Some(t) = board.beside.pop_front() {
            if board.tiles[t].alive && !board.side_by_side(t) {
                board.pair(t);
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
    if !done {
        return (None, board.alive, board.steps);
    }
    let mut offsets = vec![0; jobs.len()];
    let mut stack = vec![(whole, 0usize)];
    while let Some((t, base)) = stack.pop() {
        let tile = &board.tiles[t];
        if t < jobs.len() {
            offsets[t] = base;
        }
        stack.extend(
            board.pieces[tile.from..tile.to]
                .iter()
                .map(|&(p, at)| (p, base + at)),
        );
    }
    let aligned = order
        .iter()
        .zip(&offsets)
        .all(|(&k, &o)| o % jobs[k].align.max(1) == 0);
    (aligned.then_some(offsets), 1, board.steps)
}

impl Board {
    /// A new tile of these pieces (offsets inside it); its neighbours,
    /// which it may complete a windmill for, go back in the queue.
    fn add(&mut self, start: usize, end: usize, height: usize, pieces: &[(usize, usize)]) -> usize {
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
        t
    }

    /// An alive tile of span `[start, end)` and this height (a scan of the
    /// tiles starting there: no hashing in the windmill's inner loop, and
    /// every tile looked at is counted).
    fn find(&mut self, start: usize, end: usize, height: usize) -> Option<usize> {
        let list = &self.by_start[start];
        self.steps += 1 + list.len() as u64;
        list.iter().copied().find(|&u| {
            let tile = &self.tiles[u];
            tile.alive && tile.end == end && tile.height == height
        })
    }

    /// Joins the windmill `c` is the centre of, if its four blades are there.
    fn windmill(&mut self, c: usize) -> bool {
        let (a, b, hc) = (self.tiles[c].start, self.tiles[c].end, self.tiles[c].height);
        let lefts: Vec<usize> = self.by_end[a]
            .iter()
            .copied()
            .filter(|&l| self.tiles[l].alive && self.tiles[l].height > hc)
            .collect();
        let rights: Vec<usize> = self.by_start[b]
            .iter()
            .copied()
            .filter(|&r| self.tiles[r].alive && self.tiles[r].height > hc)
            .collect();
        self.steps += (self.by_end[a].len() + self.by_start[b].len()) as u64;
        for &l in &lefts {
            for &r in &rights {
                self.steps += 1;
                if self.steps > self.limit {
                    return false;
                }
                let (x, hl) = (self.tiles[l].start, self.tiles[l].height);
                let (y, hr) = (self.tiles[r].end, self.tiles[r].height);
                // The five spans differ, so no tile is found twice.
                let Some(under) = self.find(x, b, hr - hc) else {
                    continue;
                };
                let Some(over) = self.find(a, y, hl - hc) else {
                    continue;
                };
                let low = hr - hc;
                let pieces = [(under, 0), (r, 0), (c, low), (l, low), (over, hr)];
                self.add(x, y, hl + low, &pieces);
                return true;
            }
        }
        false
    }

    /// Joins `t` with a tile of its height beside it, if there is one.
    fn side_by_side(&mut self, t: usize) -> bool {
        let (s, e, h) = (self.tiles[t].start, self.tiles[t].end, self.tiles[t].height);
        self.steps += (self.by_start[e].len() + self.by_end[s].len()) as u64;
        let same = |u: &usize| self.tiles[*u].alive && self.tiles[*u].height == h;
        if let Some(u) = self.by_start[e].iter().copied().find(same) {
            self.add(s, self.tiles[u].end, h, &[(t, 0), (u, 0)]);
            return true;
        }
        if let Some(u) = self.by_end[s].iter().copied().find(same) {
            self.add(self.tiles[u].start, e, h, &[(u, 0), (t, 0)]);
            return true;
        }
        false
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
        self.add(s, e, h + self.tiles[u].height, &[(t, 0), (u, h)]);
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
                self.add(span.0, span.1, hu + hv, &[(u, 0), (v, hu)]);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
#[path = "dissect_tests.rs"]
mod tests;

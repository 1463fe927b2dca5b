//! The board of one rebuild: its tiles, alive or joined, looked up by
//! start, end and span, and the joins (the rules are the parent's doc;
//! the stacks of a sum are in the sibling `sums`).

use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::Reduced;
use crate::plan::search::Job;

/// [`Board::many_meet`]: the most tiles alive ending or starting where a
/// pair meets, and the most pieces of a height (16, or one in 256 where
/// the pieces are more), for the look-ahead of a tile beside to count.
const CROWD: usize = 9;
const COMMON: usize = 16;
const SHARE: usize = 256;

/// A span of time, the tiles alive it had and when it was counted (the
/// count of [`Spans::Fewest`] then): the fewest first, then the first.
type Counted = Reverse<(usize, u64, (usize, usize))>;

/// The spans of two tiles or more alive (some maybe fewer now), in the
/// order the last stack takes them.
pub(super) enum Spans {
    /// In the order they came to have two (where [`Board::stack_first`]).
    Crowded(VecDeque<(usize, usize)>),
    /// By how many, the fewest first, then the first to have that many,
    /// each time that changed (an entry whose count is no longer the
    /// span's is passed); `counted`, the entries it has had.
    Fewest {
        heap: BinaryHeap<Counted>,
        counted: u64,
    },
}

impl Spans {
    /// None yet, in the order of a board that stacks first or not.
    pub(super) fn new(stack_first: bool) -> Spans {
        if stack_first {
            Spans::Crowded(VecDeque::new())
        } else {
            Spans::Fewest {
                heap: BinaryHeap::new(),
                counted: 0,
            }
        }
    }
}

/// Calls `at(piece, offset)` for each piece (a tile below `n`) of tile
/// `t` placed at `base`, where `kids(u)` are the tiles tile `u` was joined
/// of and their offsets inside it (a board's, or a mending's forest).
pub(super) fn place<'a>(
    t: usize,
    base: usize,
    n: usize,
    kids: impl Fn(usize) -> &'a [(usize, usize)],
    at: &mut impl FnMut(usize, usize),
) {
    let mut stack = vec![(t, base)];
    while let Some((t, base)) = stack.pop() {
        if t < n {
            at(t, base);
        }
        stack.extend(kids(t).iter().map(|&(p, at)| (p, base + at)));
    }
}

/// A rectangle of time × bytes: a tile's, or a node's of a mending's
/// forest.
#[derive(Clone, Copy)]
pub(super) struct Rect {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) height: usize,
    /// Its phases (the jobs' `width`, summed along it).
    pub(super) width: usize,
}

impl Rect {
    /// It as a job at `align`.
    pub(super) fn job(self, align: usize) -> Job {
        Job {
            start: self.start,
            end: self.end,
            foot: self.height,
            align,
            width: self.width,
            item: 0,
        }
    }

    /// Its span of time, `(start, end)`.
    pub(super) fn span(self) -> (usize, usize) {
        (self.start, self.end)
    }

    /// Whether it spans a part of `sections`: a plan of the part.
    pub(super) fn spans(self, sections: usize) -> bool {
        self.start == 0 && self.end == sections
    }
}

/// A rectangle: a job (the first `n`) or the join of others.
pub(super) struct Tile {
    pub(super) rect: Rect,
    pub(super) alive: bool,
    /// Whether it is in [`Board::queue`] (once: a windmill is looked for
    /// when it comes out).
    pub(super) queued: bool,
    /// Whether it is in [`Board::beside`].
    pub(super) waiting: bool,
    /// Its pieces, `pieces[from..to]`: (tile, offset inside this one).
    pub(super) from: usize,
    pub(super) to: usize,
}

/// The tiles of one span of time.
#[derive(Default)]
pub(super) struct Group {
    pub(super) tiles: Vec<usize>,
    /// How many of `tiles` are alive.
    pub(super) alive: usize,
    /// Whether it is in [`Spans::Crowded`].
    pub(super) listed: bool,
    /// Whether it is in [`Board::changed`].
    pub(super) changed: bool,
}

impl Group {
    /// Puts `span` (this group's) at the back of `changed`, unless it is
    /// in it.
    fn mark(&mut self, span: (usize, usize), changed: &mut VecDeque<(usize, usize)>) {
        if !self.changed {
            self.changed = true;
            changed.push_back(span);
        }
    }
}

pub(super) struct Board {
    pub(super) tiles: Vec<Tile>,
    pub(super) pieces: Vec<(usize, usize)>,
    pub(super) by_start: Vec<Vec<usize>>,
    pub(super) by_end: Vec<Vec<usize>>,
    pub(super) by_window: FxHashMap<(usize, usize), Group>,
    /// How many tiles alive end at a time with a height, by (time,
    /// height): whether one of a height is beside a span is one lookup.
    pub(super) ending: FxHashMap<(usize, usize), usize>,
    /// How many tiles alive start at a time with a height.
    pub(super) starting: FxHashMap<(usize, usize), usize>,
    /// How many of the pieces (the jobs) have each height.
    pub(super) of_height: FxHashMap<usize, usize>,
    /// The most pieces of a height for it not to be common
    /// ([`Board::many_meet`]).
    pub(super) common: usize,
    /// The spans of two tiles or more alive, for the last stack.
    pub(super) spans: Spans,
    /// Spans whose tiles, or the tiles beside them, changed since
    /// [`Board::sums`] last looked at them.
    pub(super) changed: VecDeque<(usize, usize)>,
    /// Tiles to look for a windmill around, each in it once at a time.
    queue: VecDeque<usize>,
    /// Tiles no windmill joins now, to be tried stacked on a sum beside
    /// them or side by side.
    beside: VecDeque<usize>,
    /// Tiles whose join side by side nothing else would join now, to be
    /// tried once nothing else joins.
    later: VecDeque<usize>,
    pub(super) alive: usize,
    pub(super) steps: u64,
    /// The steps past which every join gives up.
    pub(super) limit: u64,
}

impl Board {
    /// An empty board for `jobs` pieces over `sections`, whose joins give
    /// up past `limit` steps (see [`Board::stack_first`]).
    pub(super) fn new(jobs: usize, sections: usize, limit: u64, stack_first: bool) -> Board {
        Board {
            tiles: Vec::with_capacity(2 * jobs),
            pieces: Vec::with_capacity(4 * jobs),
            by_start: vec![Vec::new(); sections + 1],
            by_end: vec![Vec::new(); sections + 1],
            by_window: FxHashMap::default(),
            ending: FxHashMap::default(),
            starting: FxHashMap::default(),
            of_height: FxHashMap::default(),
            common: COMMON.max(jobs / SHARE),
            spans: Spans::new(stack_first),
            changed: VecDeque::new(),
            queue: VecDeque::new(),
            beside: VecDeque::new(),
            later: VecDeque::new(),
            alive: 0,
            steps: 0,
            limit,
        }
    }

    /// A new tile of these pieces (offsets inside it), queued for a
    /// windmill; its neighbours, which it may complete one for, go back in
    /// the queue first.
    pub(super) fn add(
        &mut self,
        start: usize,
        end: usize,
        height: usize,
        width: usize,
        pieces: &[(usize, usize)],
    ) {
        let t = self.tiles.len();
        if pieces.is_empty() {
            *self.of_height.entry(height).or_default() += 1;
        }
        let from = self.pieces.len();
        for &(p, _) in pieces {
            let tile = &mut self.tiles[p];
            tile.alive = false;
            for (map, at) in [
                (&mut self.ending, tile.rect.end),
                (&mut self.starting, tile.rect.start),
            ] {
                if let Some(count) = map.get_mut(&(at, tile.rect.height)) {
                    *count -= 1;
                }
            }
            let span = tile.rect.span();
            self.steps += 1;
            if let Some(group) = self.by_window.get_mut(&span) {
                group.alive -= 1;
            }
        }
        *self.ending.entry((end, height)).or_default() += 1;
        *self.starting.entry((start, height)).or_default() += 1;
        self.alive = self.alive + 1 - pieces.len();
        self.pieces.extend_from_slice(pieces);
        self.tiles.push(Tile {
            rect: Rect {
                start,
                end,
                height,
                width,
            },
            alive: true,
            queued: true,
            waiting: false,
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
                for &c in list {
                    let tile = &mut self.tiles[c];
                    if tile.alive && !tile.queued {
                        tile.queued = true;
                        self.queue.push_back(c);
                    }
                }
            }
            // The spans beside it have a new height to sum to (where sums
            // are looked for).
            let beside = if self.stack_first() {
                [].as_slice()
            } else {
                &[&self.by_start[end], &self.by_end[start]]
            };
            for &list in beside {
                self.steps += list.len() as u64;
                for &u in list {
                    let tile = &self.tiles[u];
                    let span = tile.rect.span();
                    if let Some(group) = self.by_window.get_mut(&span).filter(|_| tile.alive) {
                        group.mark(span, &mut self.changed);
                    }
                }
            }
        }
        // It may be a centre itself.
        self.queue.push_back(t);
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
        group.alive += 1;
        if let Spans::Crowded(crowded) = &mut self.spans {
            if !group.listed && group.tiles.len() >= 2 {
                group.listed = true;
                crowded.push_back((start, end));
            }
        } else {
            if group.tiles.len() >= 2 {
                group.mark((start, end), &mut self.changed);
            }
            self.recount(pieces, (start, end));
        }
    }

    /// Joins the tiles until one is left, none joins, or the limit is
    /// passed: a windmill about each new tile first, then a stack on a
    /// sum beside it or a join side by side, then the joins left for last.
    pub(super) fn run(&mut self) {
        while self.alive > 1 && self.steps <= self.limit {
            if let Some(t) = self.queue.pop_front() {
                self.tiles[t].queued = false;
                if self.tiles[t].alive && !self.windmill(t) && !self.tiles[t].waiting {
                    self.tiles[t].waiting = true;
                    self.beside.push_back(t);
                }
            } else if let Some(t) = self.beside.pop_front() {
                self.tiles[t].waiting = false;
                if self.tiles[t].alive && !self.pair(t) && !self.side_by_side(t, true) {
                    self.later.push_back(t);
                }
            } else if !self.last() {
                break;
            }
        }
    }

    /// The tile left, where one is and it spans the part: the jobs'
    /// plan.
    pub(super) fn whole(&self) -> Option<usize> {
        let last = self.tiles.len().checked_sub(1)?;
        let tile = &self.tiles[last];
        let spans = tile.rect.spans(self.by_start.len() - 1);
        (self.alive == 1 && tile.alive && spans).then_some(last)
    }

    /// Calls `at(job, offset)` for each job (the first `n` tiles) in tile
    /// `t` placed at `base`.
    pub(super) fn place(&self, t: usize, base: usize, n: usize, at: &mut impl FnMut(usize, usize)) {
        let kids = |u: usize| &self.pieces[self.tiles[u].from..self.tiles[u].to];
        place(t, base, n, kids, at);
    }

    /// The tiles alive as a smaller problem (see [`Reduced`]); the first
    /// tiles are the jobs in `order`.
    pub(super) fn reduce(&mut self, order: &[usize], align: usize) -> Reduced {
        let n = order.len();
        let mut reduced = Reduced::with_capacity(n);
        for t in 0..self.tiles.len() {
            if !self.tiles[t].alive {
                continue;
            }
            let mut members = Vec::new();
            self.place(t, 0, n, &mut |j, at| members.push((j, at)));
            self.steps += members.len() as u64;
            reduced.push_tile(t, &members, order, |u| self.tiles[u].rect.job(align));
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
            tile.alive && height.is_none_or(|h| tile.rect.height == h)
        })
    }

    /// Joins the windmill `c` is the centre of, if its four blades are there.
    pub(super) fn windmill(&mut self, c: usize) -> bool {
        let rect = self.tiles[c].rect;
        let (a, b, hc) = (rect.start, rect.end, rect.height);
        self.steps += (self.by_end[a].len() + self.by_start[b].len()) as u64;
        // A blade is of use only where a tile spans from it to the far
        // side of the centre (the piece under or over): looked up once.
        let mut lefts = self.by_end[a].clone();
        lefts.retain(|&l| self.tiles[l].alive && self.tiles[l].rect.height > hc);
        lefts.retain(|&l| self.find(self.tiles[l].rect.start, b, None).is_some());
        let mut rights = self.by_start[b].clone();
        rights.retain(|&r| self.tiles[r].alive && self.tiles[r].rect.height > hc);
        if !lefts.is_empty() {
            rights.retain(|&r| self.find(a, self.tiles[r].rect.end, None).is_some());
        }
        for &l in &lefts {
            for &r in &rights {
                self.steps += 1;
                if self.steps > self.limit {
                    return false;
                }
                let (x, hl) = (self.tiles[l].rect.start, self.tiles[l].rect.height);
                let (y, hr) = (self.tiles[r].rect.end, self.tiles[r].rect.height);
                // The five spans differ, so no tile is found twice.
                let Some(under) = self.find(x, b, Some(hr - hc)) else {
                    continue;
                };
                let Some(over) = self.find(a, y, Some(hl - hc)) else {
                    continue;
                };
                let low = hr - hc;
                let pieces = [(under, 0), (r, 0), (c, low), (l, low), (over, hr)];
                let width =
                    self.tiles[l].rect.width + self.tiles[c].rect.width + self.tiles[r].rect.width;
                self.add(x, y, hl + low, width, &pieces);
                return true;
            }
        }
        false
    }

    /// Joins `t` with a tile of its height beside it, if there is one
    /// (where `sure`, only if the two are the only tiles of their height
    /// that end and start where they meet, and the tile they make would
    /// join another now).
    pub(super) fn side_by_side(&mut self, t: usize, sure: bool) -> bool {
        let rect = self.tiles[t].rect;
        let (s, e, h) = (rect.start, rect.end, rect.height);
        if !self.beside(s, e, h) {
            return false;
        }
        self.steps += (self.by_start[e].len() + self.by_end[s].len()) as u64;
        let same = |u: &usize| self.tiles[*u].alive && self.tiles[*u].rect.height == h;
        let (u, x, y, pieces) = if let Some(u) = self.by_start[e].iter().copied().find(same) {
            (u, s, self.tiles[u].rect.end, [(t, 0), (u, 0)])
        } else if let Some(u) = self.by_end[s].iter().copied().find(same) {
            (u, self.tiles[u].rect.start, e, [(u, 0), (t, 0)])
        } else {
            return false;
        };
        // They meet where `t` ends or where it starts.
        let at = if x == s { e } else { s };
        // At once only where nothing tells of a chance meeting: the two
        // alone of their height there, what they make joining another, and
        // neither a piece of a stack of its span to a height beside it.
        let clear = |board: &mut Board| {
            board.alone(at, h)
                && board.joins_on(x, y, h, at)
                && !board.stacks_beside(t)
                && !board.stacks_beside(u)
        };
        if sure && !clear(self) {
            return false;
        }
        let width = self.tiles[t].rect.width + self.tiles[u].rect.width;
        self.add(x, y, h, width, &pieces);
        true
    }

    /// Whether a tile of span `[x, y)` and height `h`, made of two that
    /// meet at `at`, would join one now: one of its span, or one of its
    /// height beside it (neither is one of the two it would be made of:
    /// their spans differ), the latter only where not
    /// [`Board::many_meet`] at `at`.
    fn joins_on(&mut self, x: usize, y: usize, h: usize, at: usize) -> bool {
        self.find(x, y, None).is_some() || (self.beside(x, y, h) && !self.many_meet(at, h))
    }

    /// Whether more than [`CROWD`] tiles alive end or start at `at` and
    /// more than [`Board::common`] pieces have height `h`: there a tile of
    /// height `h` beside the span a pair would make mostly met it by
    /// chance (on strip tilings whose sizes are whole KiB, such joins at
    /// once were wrong in 65 % to 68 % of cases, the others 2 % to 29 %;
    /// on OmniMalloc's tilings, whose heights few pieces share, 2 %:
    /// BENCHMARKS.md, stop 64).
    fn many_meet(&mut self, at: usize, h: usize) -> bool {
        self.steps += 1;
        if self.of_height.get(&h).is_none_or(|&n| n <= self.common) {
            return false;
        }
        let (ending, starting) = (&self.by_end[at], &self.by_start[at]);
        self.steps += (ending.len() + starting.len()) as u64;
        let tiles = &self.tiles;
        let alive = ending
            .iter()
            .chain(starting)
            .filter(|&&u| tiles[u].alive)
            .count();
        alive > CROWD
    }

    /// Whether one tile alive of height `h` ends at `at` and one starts
    /// there: two of that height side by side there are then in line in
    /// every plan of the tiles where either is in line with one. Where
    /// more meet, the first found is as often not the one in line (on
    /// strip tilings over few phases, 51 % to all of such joins at once
    /// were wrong, 9 % of the others: BENCHMARKS.md, stop 63). Two steps.
    fn alone(&mut self, at: usize, h: usize) -> bool {
        self.steps += 2;
        let one = |map: &FxHashMap<(usize, usize), usize>| map.get(&(at, h)) == Some(&1);
        one(&self.ending) && one(&self.starting)
    }

    /// Whether a tile alive of height `h` ends at `s` or starts at `e`
    /// (beside the span `[s, e)`): two steps.
    fn beside(&mut self, s: usize, e: usize, h: usize) -> bool {
        self.steps += 2;
        self.is_beside(s, e, h)
    }

    /// [`Board::beside`], its steps not counted.
    fn is_beside(&self, s: usize, e: usize, h: usize) -> bool {
        let alive =
            |map: &FxHashMap<(usize, usize), usize>, key| map.get(&key).is_some_and(|&n| n > 0);
        alive(&self.ending, (s, h)) || alive(&self.starting, (e, h))
    }

    /// Stacks `t` with a tile of its span whose sum with it is the height
    /// of a tile beside the span (the two are a piece of a cut in time).
    pub(super) fn pair(&mut self, t: usize) -> bool {
        let rect = self.tiles[t].rect;
        let (s, e, h) = (rect.start, rect.end, rect.height);
        self.steps += 1;
        let Some(group) = self.by_window.get(&(s, e)) else {
            return false;
        };
        // Two lookups a tile of the span.
        self.steps += 2 * group.tiles.len() as u64;
        if self.steps > self.limit {
            return false;
        }
        let fits = |u: usize| self.is_beside(s, e, h + self.tiles[u].rect.height);
        let found = group
            .tiles
            .iter()
            .copied()
            .find(|&u| u != t && self.tiles[u].alive && fits(u));
        let Some(u) = found else {
            return false;
        };
        let (hu, width) = (self.tiles[u].rect.height, self.tiles[t].rect.width);
        self.add(s, e, h + hu, width, &[(t, 0), (u, h)]);
        true
    }

    /// One of the joins left for last, once nothing else joins: tiles of
    /// one span that sum to a height beside it (where not
    /// [`Board::stack_first`], first), a tile of [`Board::later`] side by
    /// side with one of its height, or two of one span stacked (first
    /// where `stack_first`). False where none is left.
    pub(super) fn last(&mut self) -> bool {
        let stack_first = self.stack_first();
        if !stack_first && self.sums() {
            return true;
        }
        if stack_first && self.stack() {
            return true;
        }
        if let Some(t) = self.later.pop_front() {
            if self.tiles[t].alive {
                self.side_by_side(t, false);
            }
            return true;
        }
        !stack_first && self.stack()
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;

//! Mending a stuck rebuild: its tiles opened one or two at a time, the
//! rest rebuilt.
//!
//! Where a rebuild gets stuck, some of its tiles hold a join of pieces
//! that met by chance, mostly a few joins below the top (on OmniMalloc's
//! tilings of 10,001 over 1,024 phases, two in three of them three or
//! fewer below). A tile opened (given back as its tiles some joins down)
//! and the tiles rebuilt again: where the opened one was wrong, the rest
//! joins further and fewer tiles are left; where it was right, the
//! rebuild mostly joins it again as it was. So a tile is opened, at each
//! depth in turn, and the first opening that leaves fewer tiles is kept;
//! where none does, two tiles are opened together. The tiles of a rebuild
//! are themselves tiles of tiles: the joins of every rebuild kept are
//! kept in one [`Forest`], and a tile opens into the tiles it was joined
//! of, whichever rebuild joined them.

use super::board::{Board, Rect, place};
use super::{Ended, Reduced};

/// The steps a mending may use at first, as a multiple of the steps the
/// rebuild it mends used (a share); past it, half a share from one
/// opening that leaves fewer tiles to the next: a mending that no longer
/// finds one mostly spends what it is given on openings that leave as
/// many tiles (BENCHMARKS.md, stops 71 and 72).
const SHARE: u64 = 1;
/// The most steps a mending may use in all, in [`SHARE`]s: past the first,
/// it goes on only while, at the rate it has taken tiles away so far, it
/// would come to one tile within this many. A mending that rebuilds a
/// part of thousands of pieces may take away a few tiles at a time over
/// one and a half shares (on `by_area` seed 78, its large part from 291
/// tiles to 12); on strip tilings over few phases, where it would need
/// tens, it stops (BENCHMARKS.md, stop 72).
const PATIENCE: u64 = 16;

/// Mends the stuck `board` of the pieces of `order` (by position in it),
/// in shares of [`SHARE`] times the steps it used ([`PATIENCE`]), and at
/// most `limit` steps in all, its own counted: the pieces' offsets where
/// it rebuilds them, else the tiles it left as jobs of their own (each at
/// `align`); and the steps used, its own included.
pub(super) fn stuck(board: &Board, order: &[usize], align: usize, limit: u64) -> (Ended, u64) {
    let most = limit.saturating_sub(board.steps);
    let share = board.steps.saturating_mul(SHARE);
    let (mut forest, alive) = Forest::of(board, order.len(), most, share);
    let tiles = forest.mend(alive);
    if forest.whole(&tiles) {
        let mut offsets = vec![0; order.len()];
        forest.place(tiles[0], 0, &mut |p, at| offsets[order[p]] = at);
        return (Ended::Done(offsets), board.steps + forest.steps);
    }
    let reduced = forest.reduce(&tiles, order, align);
    let steps = board.steps + forest.steps;
    if steps > limit {
        return (Ended::Stopped, steps);
    }
    (Ended::Stuck(tiles.len(), reduced), steps)
}

/// The most steps a mending that has used `steps` and come from `start`
/// tiles to `alive` may use: half a `share` more (never less than the
/// first share, so that one whose gains came early stops where the first
/// share ends), where at that rate it would come to one tile within
/// [`PATIENCE`] shares (and no more than those); else the first share.
fn patient(steps: u64, start: usize, alive: usize, share: u64) -> u64 {
    let taken = start.saturating_sub(alive).max(1) as u64;
    let rest = (alive.max(1) as u64 - 1).saturating_mul(steps) / taken;
    let last = share.saturating_mul(PATIENCE);
    if steps.saturating_add(rest) <= last {
        share.max(last.min(steps.saturating_add(share / 2)))
    } else {
        share
    }
}

/// The depths a tile is opened to, in turn: its tiles that many joins
/// down (or its pieces, where it is not as deep); the last, its pieces.
const DEPTHS: [usize; 8] = [1, 2, 3, 4, 6, 8, 12, usize::MAX];

/// A tile of the forest: a piece (the first [`Forest::pieces`]) or the
/// join of others, `kids[from..to]` (tile, offset inside this one).
#[derive(Clone, Copy)]
struct Node {
    rect: Rect,
    from: usize,
    to: usize,
}

/// Every tile the rebuilds kept have joined, and the pieces.
struct Forest {
    nodes: Vec<Node>,
    kids: Vec<(usize, usize)>,
    /// How many of the nodes are pieces (by position in the rebuild's
    /// order).
    pieces: usize,
    sections: usize,
    /// The steps used, and the most the mending may use now.
    steps: u64,
    limit: u64,
    /// The most it may use in all, a share of them ([`SHARE`]), and the
    /// tiles alive it started with.
    most: u64,
    share: u64,
    start: usize,
}

impl Forest {
    /// The forest of `board`'s tiles (its first `pieces` the pieces), and
    /// its tiles alive, for a mending of at most `most` steps, in shares of
    /// `share`.
    fn of(board: &Board, pieces: usize, most: u64, share: u64) -> (Forest, Vec<usize>) {
        let nodes = board
            .tiles
            .iter()
            .map(|t| Node {
                rect: t.rect,
                from: t.from,
                to: t.to,
            })
            .collect();
        let alive: Vec<usize> = (0..board.tiles.len())
            .filter(|&t| board.tiles[t].alive)
            .collect();
        let forest = Forest {
            nodes,
            kids: board.pieces.clone(),
            pieces,
            sections: board.by_start.len() - 1,
            steps: board.tiles.len() as u64,
            limit: most.min(share),
            most,
            share,
            start: alive.len(),
        };
        (forest, alive)
    }

    /// Opens the tiles of `alive`, one at a time (at each of [`DEPTHS`]),
    /// then two, keeping the first opening whose rebuild leaves fewer
    /// tiles, until one is left, none leaves fewer, or the limit is
    /// reached (each such opening moves it: [`Forest::extend`]).
    fn mend(&mut self, mut alive: Vec<usize>) -> Vec<usize> {
        while alive.len() > 1 && self.steps <= self.limit {
            let better = self.one(&alive).or_else(|| self.two(&alive));
            match better {
                Some(fewer) => {
                    alive = fewer;
                    self.extend(alive.len());
                }
                None => break,
            }
        }
        alive
    }

    /// After an opening that left `alive` tiles, the limit ([`patient`]):
    /// half a share more, not before the first share ends, where at the
    /// rate tiles were taken away so far the mending would come to one
    /// within [`PATIENCE`] shares (and no more than those); else the first
    /// share.
    fn extend(&mut self, alive: usize) {
        let cap = patient(self.steps, self.start, alive, self.share);
        self.limit = self.most.min(cap);
    }

    /// The first opening of one tile of `alive` whose rebuild leaves
    /// fewer tiles, each tile opened one join down, then two, ... (the
    /// shallower the cheaper): those tiles.
    fn one(&mut self, alive: &[usize]) -> Option<Vec<usize>> {
        let singles: Vec<[usize; 1]> = (0..alive.len()).map(|k| [k]).collect();
        // A piece opens no further.
        let last = alive.iter().map(|&t| usize::from(!self.piece(t))).collect();
        self.first(alive, &singles, last)
    }

    /// The first opening of two tiles of `alive` (both to one of
    /// [`DEPTHS`], the shallower first) whose rebuild leaves fewer tiles:
    /// those tiles.
    fn two(&mut self, alive: &[usize]) -> Option<Vec<usize>> {
        let tiles: Vec<usize> = (0..alive.len())
            .filter(|&k| !self.piece(alive[k]))
            .collect();
        // Each pair opened costs a step a tile alive or more: those past
        // what the limit leaves are never reached (nor kept in memory).
        let most = self.limit.saturating_sub(self.steps) / (alive.len() as u64 + 1) + 1;
        let pairs: Vec<[usize; 2]> = tiles
            .iter()
            .enumerate()
            .flat_map(|(a, &i)| tiles[a + 1..].iter().map(move |&j| [i, j]))
            .take(usize::try_from(most).unwrap_or(usize::MAX))
            .collect();
        self.steps += pairs.len() as u64;
        let last = vec![2; pairs.len()];
        self.first(alive, &pairs, last)
    }

    /// The first opening of the tiles of `alive` at the positions of one
    /// of `picks`, each pick opened to each of [`DEPTHS`] in turn, whose
    /// rebuild leaves fewer tiles: those tiles. `last` is how many tiles
    /// each pick opened into at the depth before (0: it opens no further).
    fn first<P: AsRef<[usize]>>(
        &mut self,
        alive: &[usize],
        picks: &[P],
        mut last: Vec<usize>,
    ) -> Option<Vec<usize>> {
        for depth in DEPTHS {
            for (p, pick) in picks.iter().enumerate() {
                self.steps += 1;
                if self.steps > self.limit {
                    return None;
                }
                if last[p] == 0 {
                    continue;
                }
                let mut trial = self.without(alive, pick.as_ref());
                let whole = trial.len();
                for &k in pick.as_ref() {
                    self.opened(alive[k], depth, &mut trial);
                }
                let opened = trial.len() - whole;
                last[p] = if opened == last[p] { 0 } else { opened };
                if last[p] > 0
                    && let Some(fewer) = self.fewer(&trial, alive.len())
                {
                    return Some(fewer);
                }
            }
        }
        None
    }

    /// Whether node `t` is a piece.
    fn piece(&self, t: usize) -> bool {
        self.nodes[t].from == self.nodes[t].to
    }

    /// `alive` but those at positions `except` (the steps counted).
    fn without(&mut self, alive: &[usize], except: &[usize]) -> Vec<usize> {
        self.steps += alive.len() as u64;
        (0..alive.len())
            .filter(|k| !except.contains(k))
            .map(|k| alive[k])
            .collect()
    }

    /// Pushes onto `out` the tiles `t` was joined of `depth` joins down
    /// (a piece, or a tile not as deep, as it is); the nodes looked at
    /// counted.
    fn opened(&mut self, t: usize, depth: usize, out: &mut Vec<usize>) {
        let mut stack = vec![(t, depth)];
        while let Some((t, depth)) = stack.pop() {
            self.steps += 1;
            let node = self.nodes[t];
            if depth == 0 || self.piece(t) {
                out.push(t);
            } else {
                stack.extend(
                    self.kids[node.from..node.to]
                        .iter()
                        .rev()
                        .map(|&(k, _)| (k, depth - 1)),
                );
            }
        }
    }

    /// Rebuilds the tiles `trial` (in that order); where that leaves
    /// fewer than `than` tiles, its joins are kept in the forest and the
    /// tiles it left are returned.
    fn fewer(&mut self, trial: &[usize], than: usize) -> Option<Vec<usize>> {
        let left = self.limit.saturating_sub(self.steps);
        let mut board = Board::new(trial.len(), self.sections, left, false);
        for &t in trial {
            let rect = self.nodes[t].rect;
            board.add(rect.start, rect.end, rect.height, rect.width, &[]);
        }
        board.run();
        self.steps += board.steps;
        if board.alive >= than || board.steps > board.limit {
            return None;
        }
        // The board's tiles as nodes: its first the trial's tiles, the
        // others new.
        let mut node_of: Vec<usize> = trial.to_vec();
        for tile in &board.tiles[trial.len()..] {
            let from = self.kids.len();
            self.kids.extend(
                board.pieces[tile.from..tile.to]
                    .iter()
                    .map(|&(p, at)| (node_of[p], at)),
            );
            node_of.push(self.nodes.len());
            self.nodes.push(Node {
                rect: tile.rect,
                from,
                to: self.kids.len(),
            });
        }
        self.steps += board.tiles.len() as u64;
        Some(
            (0..board.tiles.len())
                .filter(|&t| board.tiles[t].alive)
                .map(|t| node_of[t])
                .collect(),
        )
    }

    /// Whether `tiles` is one tile spanning the part.
    fn whole(&self, tiles: &[usize]) -> bool {
        matches!(tiles, [t] if self.nodes[*t].rect.spans(self.sections))
    }

    /// Calls `at(piece, offset)` for each piece of tile `t` placed at
    /// `base`.
    fn place(&self, t: usize, base: usize, at: &mut impl FnMut(usize, usize)) {
        let kids = |u: usize| &self.kids[self.nodes[u].from..self.nodes[u].to];
        place(t, base, self.pieces, kids, at);
    }

    /// `tiles` as jobs of their own ([`Reduced`]): a tile of more than
    /// [`WHOLE`](super::WHOLE) pieces one job, the others given back as
    /// their pieces (`order[piece]` the job of each; every job at `align`).
    fn reduce(&mut self, tiles: &[usize], order: &[usize], align: usize) -> Reduced {
        let mut reduced = Reduced::with_capacity(self.pieces);
        for &t in tiles {
            let mut members = Vec::new();
            self.place(t, 0, &mut |p, at| members.push((p, at)));
            self.steps += members.len() as u64;
            reduced.push_tile(t, &members, order, |u| self.nodes[u].rect.job(align));
        }
        reduced
    }
}

#[cfg(test)]
mod tests {
    use super::{PATIENCE, patient};

    /// A mending goes on half a share past its last gain, never ending
    /// before its first share, while at its rate it would come to one
    /// tile within [`PATIENCE`] shares; else it stops at the first share,
    /// and never past the last.
    #[test]
    fn a_mending_goes_on_while_its_rate_would_finish_in_time() {
        let share = 1_000;
        // 300 tiles to 150 in one and a half shares: 150 more in as many.
        assert_eq!(patient(1_500, 300, 150, share), 2_000);
        // 300 to 100 in a fifth of a share: the first share still holds.
        assert_eq!(patient(200, 300, 100, share), share);
        // 300 to 290 in a share: 290 more in 29 shares, too many.
        assert_eq!(patient(1_000, 300, 290, share), share);
        // Within the shares at the rate, just (200 steps for the last
        // tile), and just not; the last share caps it.
        let steps = share * PATIENCE - 200;
        assert_eq!(patient(steps, 16, 1, share), share * PATIENCE);
        assert_eq!(patient(steps, 81, 2, share), share * PATIENCE);
        assert_eq!(patient(steps, 80, 2, share), share);
        // No tile taken away, and huge counts, do not overflow.
        assert_eq!(patient(u64::MAX, 5, 5, u64::MAX), u64::MAX);
        assert_eq!(patient(0, 5, 5, share), share);
    }
}

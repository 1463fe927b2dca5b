//! Greedy's scan for many buffers that meet: the placed buffers by offset in
//! blocks, and the blocks in groups, each block and group with what the scan
//! needs to pass it whole.
//!
//! Greedy places a buffer at the lowest aligned offset clear of the placed
//! buffers live with it: it walks them by offset, raising a floor to each
//! one's end, and stops at the first gap that holds the buffer. Where every
//! buffer meets every other (a long-lived set, an adversarial problem) each
//! walk passes every placed buffer: quadratic. Here a block whose buffers
//! all meet the new one and whose own gaps are all too small is passed in
//! one step (the floor rises to its highest end); a block none of whose
//! buffers meets it is skipped; only the others are walked. A group of
//! blocks is passed or skipped the same way, so that where a million
//! buffers meet (thousands of blocks) a walk looks at a few hundred groups
//! and blocks, not at every block. The offsets are the walk's, byte for
//! byte: a run is passed whole only where the walk would find no gap in it;
//! and the steps counted are those of the walk through blocks alone (a
//! group passed or skipped, one step a block in it), so that the orders
//! greedy runs, which the steps bound, are the same.

use super::base::{Item, align_up, fits};
use crate::error::PlanError;

/// A placed buffer: its bytes `start..end`, live over `first..=last`.
#[derive(Clone, Copy)]
struct Placed {
    start: usize,
    end: usize,
    first: usize,
    last: usize,
}

/// Buffers a block holds before it is split in two.
pub(super) const MOST: usize = 256;
/// Blocks a group holds before it is split in two.
pub(super) const GROUP: usize = 64;

/// What a walk needs to pass a run of placed buffers (by offset) whole.
#[derive(Clone, Copy)]
struct Summary {
    /// The lowest start (the first buffer's).
    start: usize,
    /// The earliest and latest first phase, the earliest last phase and the
    /// latest last phase of its buffers.
    min_first: usize,
    max_first: usize,
    min_last: usize,
    max_last: usize,
    /// The highest end.
    max_end: usize,
    /// At least the widest gap between a buffer and the highest end of
    /// those before it in the run (0 when there is none): exactly that for a
    /// block, a bound for a group.
    gap: usize,
}

impl Summary {
    /// Of a block's buffers, by offset (at least one).
    fn of_items(items: &[Placed]) -> Summary {
        let mut s = Summary {
            start: items[0].start,
            min_first: usize::MAX,
            max_first: 0,
            min_last: usize::MAX,
            max_last: 0,
            max_end: 0,
            gap: 0,
        };
        for (k, p) in items.iter().enumerate() {
            if k > 0 {
                s.gap = s.gap.max(p.start.saturating_sub(s.max_end));
            }
            s.min_first = s.min_first.min(p.first);
            s.max_first = s.max_first.max(p.first);
            s.min_last = s.min_last.min(p.last);
            s.max_last = s.max_last.max(p.last);
            s.max_end = s.max_end.max(p.end);
        }
        s
    }

    /// Of a group's blocks, by offset (at least one). A buffer of a later
    /// block starts at most its block's gap above the highest end before
    /// it in its block, and its block's first at most the gap computed here
    /// above the highest end of the blocks before: the bound holds.
    fn of_blocks(blocks: &[Block]) -> Summary {
        let mut s = blocks[0].sum;
        for b in &blocks[1..] {
            let t = b.sum;
            s.gap = s.gap.max(t.gap).max(t.start.saturating_sub(s.max_end));
            s.min_first = s.min_first.min(t.min_first);
            s.max_first = s.max_first.max(t.max_first);
            s.min_last = s.min_last.min(t.min_last);
            s.max_last = s.max_last.max(t.max_last);
            s.max_end = s.max_end.max(t.max_end);
        }
        s
    }

    /// None of the run's buffers meets `first..=last`.
    fn meets_none(&self, first: usize, last: usize) -> bool {
        self.min_first > last || self.max_last < first
    }

    /// Every one of them does.
    fn meets_all(&self, first: usize, last: usize) -> bool {
        self.max_first <= last && self.min_last >= first
    }

    /// What the walk does with the run, from the floor `at`, for a buffer
    /// of `foot` bytes live over `first..=last` (`holds`: whether it fits
    /// from a floor below a start).
    fn pass(
        &self,
        (first, last): (usize, usize),
        foot: usize,
        at: usize,
        holds: impl Fn(usize, usize) -> bool,
    ) -> Pass {
        if self.meets_none(first, last) {
            return Pass::Skip;
        }
        if self.meets_all(first, last) {
            if holds(at, self.start) {
                return Pass::Stop;
            }
            // Every later buffer starts less than `foot` above the highest
            // end before it in the run, so less than `foot` above the
            // floor: no gap in the run holds this one.
            if self.gap < foot {
                return Pass::Over(at.max(self.max_end));
            }
        }
        Pass::Walk
    }
}

/// What a walk does with a run of placed buffers ([`Summary::pass`]).
enum Pass {
    /// None of them meets the new buffer: past it, the floor as it was.
    Skip,
    /// Every one does, and the new buffer fits below the first: the floor.
    Stop,
    /// Every one does, and no gap holds the new buffer: past it, the floor
    /// at this.
    Over(usize),
    /// Its buffers are walked one by one.
    Walk,
}

/// A run of placed buffers, by offset.
struct Block {
    items: Vec<Placed>,
    sum: Summary,
}

impl Block {
    fn new(items: Vec<Placed>) -> Block {
        let sum = Summary::of_items(&items);
        Block { items, sum }
    }

    fn last_start(&self) -> usize {
        self.items.last().map_or(0, |p| p.start)
    }
}

/// A run of blocks, by offset.
struct Group {
    blocks: Vec<Block>,
    sum: Summary,
}

impl Group {
    fn new(blocks: Vec<Block>) -> Group {
        let sum = Summary::of_blocks(&blocks);
        Group { blocks, sum }
    }

    fn last_start(&self) -> usize {
        self.blocks.last().map_or(0, Block::last_start)
    }
}

/// The placed buffers of one greedy pass, by offset, in blocks of at most
/// `most` buffers, in groups of at most `group` blocks (with `None`, one
/// group that the walk does not look at: the walk through blocks alone).
struct Blocks {
    groups: Vec<Group>,
    most: usize,
    group: Option<usize>,
}

impl Blocks {
    /// The lowest offset, before alignment, at which a buffer of `foot`
    /// bytes (with alignment `align`) live over `first..=last` is clear of
    /// the placed buffers live with it: the floor the walk stops at.
    /// Each block the walk through blocks alone would look at, and each
    /// buffer it walks, is a step of `steps`; each group, block and buffer
    /// looked at here is one of `looked`.
    fn floor(
        &self,
        (first, last): (usize, usize),
        (foot, align): (usize, usize),
        steps: &mut u64,
        looked: &mut u64,
    ) -> usize {
        let holds = |at: usize, start: usize| fits(at, align, foot, start);
        let mut at = 0usize;
        for g in &self.groups {
            *looked += 1;
            let blocks = g.blocks.len() as u64;
            // A group is passed where the walk through blocks alone would
            // pass each of its blocks in one step (or stop at the first);
            // without groups, its blocks are walked.
            match self
                .group
                .map(|_| g.sum.pass((first, last), foot, at, holds))
            {
                Some(Pass::Skip) => {
                    *steps += blocks;
                    continue;
                }
                Some(Pass::Stop) => {
                    *steps += 1;
                    return at;
                }
                Some(Pass::Over(top)) => {
                    *steps += blocks;
                    at = top;
                    continue;
                }
                Some(Pass::Walk) | None => {}
            }
            for b in &g.blocks {
                *steps += 1;
                *looked += 1;
                match b.sum.pass((first, last), foot, at, holds) {
                    Pass::Skip => continue,
                    Pass::Stop => return at,
                    Pass::Over(top) => {
                        at = top;
                        continue;
                    }
                    Pass::Walk => {}
                }
                *steps += b.items.len() as u64;
                for p in &b.items {
                    *looked += 1;
                    if p.first > last || first > p.last {
                        continue;
                    }
                    if holds(at, p.start) {
                        return at;
                    }
                    at = at.max(p.end);
                }
            }
        }
        at
    }

    /// Keeps `p` after every placed buffer that starts at or below it: in
    /// the first block whose last buffer starts above it, else the last.
    fn insert(&mut self, p: Placed) {
        if self.groups.is_empty() {
            self.groups.push(Group::new(vec![Block::new(vec![p])]));
            return;
        }
        let last = |n: usize| n - 1;
        let gi = self
            .groups
            .partition_point(|g| g.last_start() <= p.start)
            .min(last(self.groups.len()));
        let g = &mut self.groups[gi];
        let bi = g
            .blocks
            .partition_point(|b| b.last_start() <= p.start)
            .min(last(g.blocks.len()));
        let b = &mut g.blocks[bi];
        let pos = b.items.partition_point(|q| q.start <= p.start);
        b.items.insert(pos, p);
        if b.items.len() > self.most {
            let upper = b.items.split_off(self.most / 2);
            b.sum = Summary::of_items(&b.items);
            g.blocks.insert(bi + 1, Block::new(upper));
        } else {
            b.sum = Summary::of_items(&b.items);
        }
        if let Some(cap) = self.group.filter(|&cap| g.blocks.len() > cap) {
            let upper = g.blocks.split_off(cap / 2);
            g.sum = Summary::of_blocks(&g.blocks);
            self.groups.insert(gi + 1, Group::new(upper));
        } else {
            g.sum = Summary::of_blocks(&g.blocks);
        }
    }
}

/// Greedy's placement of the buffers of `order` (sorted), as its walk over
/// the placed buffers places them, through [`Blocks`]: the plan's height.
/// The blocks the walk through blocks alone looks at and the buffers it
/// walks (those of a block walked in part counted whole) are added to
/// `steps`.
pub(super) fn place_blocked(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &[u128],
    steps: &mut u64,
) -> Result<usize, PlanError> {
    place_in(items, guard, offsets, order, steps, (MOST, Some(GROUP))).map(|(height, _)| height)
}

/// [`place_blocked`] in blocks of at most `most` buffers and groups of at
/// most `group` blocks (`None`: the walk through blocks alone): the
/// height, and the groups, blocks and buffers looked at (greedy's tests
/// hold other shapes to the same offsets and steps).
pub(super) fn place_in(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &[u128],
    steps: &mut u64,
    (most, group): (usize, Option<usize>),
) -> Result<(usize, u64), PlanError> {
    let mut placed = Blocks {
        groups: Vec::new(),
        most: most.max(2),
        group: group.map(|cap| cap.max(2)),
    };
    let mut height = 0usize;
    let mut looked = 0u64;
    for &key in order {
        let i = (key & ((1 << 56) - 1)) as usize;
        let item = &items[i];
        let overflow = || PlanError::Overflow { item: i };
        let foot = item.bytes.checked_add(guard).ok_or_else(overflow)?;
        let (first, last) = (item.first, item.last);
        // An empty range meets no buffer: at 0, and not kept.
        let empty = first > last;
        let at = if empty {
            0
        } else {
            placed.floor((first, last), (foot, item.align), steps, &mut looked)
        };
        let start = align_up(at, item.align).ok_or_else(overflow)?;
        let end = start.checked_add(foot).ok_or_else(overflow)?;
        offsets[i] = start;
        height = height.max(end);
        if !empty {
            placed.insert(Placed {
                start,
                end,
                first,
                last,
            });
        }
    }
    Ok((height, looked))
}

//! Greedy's scan for many buffers that meet: the placed buffers by offset in
//! blocks, each block with what the scan needs to pass it whole.
//!
//! Greedy places a buffer at the lowest aligned offset clear of the placed
//! buffers live with it: it walks them by offset, raising a floor to each
//! one's end, and stops at the first gap that holds the buffer. Where every
//! buffer meets every other (a long-lived set, an adversarial problem) each
//! walk passes every placed buffer: quadratic. Here a block whose buffers
//! all meet the new one and whose own gaps are all too small is passed in
//! one step (the floor rises to its highest end); a block none of whose
//! buffers meets it is skipped; only the others are walked. The offsets are
//! the walk's, byte for byte: a block is passed whole only where the walk
//! would find no gap in it.

use super::base::{Item, align_up, fits};

/// A placed buffer: its bytes `start..end`, live over `first..=last`.
#[derive(Clone, Copy)]
struct Placed {
    start: usize,
    end: usize,
    first: usize,
    last: usize,
}
use crate::error::PlanError;

/// Buffers a block holds before it is split in two.
const MOST: usize = 256;

/// A run of placed buffers, by offset, and what a walk needs to pass it.
struct Block {
    items: Vec<Placed>,
    /// The earliest and latest first phase, the earliest last phase and the
    /// latest last phase of its buffers.
    min_first: usize,
    max_first: usize,
    min_last: usize,
    max_last: usize,
    /// The highest end.
    max_end: usize,
    /// The widest gap between a buffer and the highest end of those before
    /// it in the block (0 when there is none).
    gap: usize,
}

impl Block {
    fn new(items: Vec<Placed>) -> Block {
        let mut b = Block {
            items,
            min_first: usize::MAX,
            max_first: 0,
            min_last: usize::MAX,
            max_last: 0,
            max_end: 0,
            gap: 0,
        };
        b.sum_up();
        b
    }

    fn sum_up(&mut self) {
        let (mut min_first, mut max_first) = (usize::MAX, 0);
        let (mut min_last, mut max_last) = (usize::MAX, 0);
        let (mut max_end, mut gap) = (0usize, 0usize);
        for (k, p) in self.items.iter().enumerate() {
            if k > 0 {
                gap = gap.max(p.start.saturating_sub(max_end));
            }
            min_first = min_first.min(p.first);
            max_first = max_first.max(p.first);
            min_last = min_last.min(p.last);
            max_last = max_last.max(p.last);
            max_end = max_end.max(p.end);
        }
        *self = Block {
            items: std::mem::take(&mut self.items),
            min_first,
            max_first,
            min_last,
            max_last,
            max_end,
            gap,
        };
    }
}

/// The placed buffers of one greedy pass, by offset, in blocks.
#[derive(Default)]
struct Blocks {
    blocks: Vec<Block>,
}

impl Blocks {
    /// The lowest offset, before alignment, at which a buffer of `foot`
    /// bytes (with alignment `align`) live over `first..=last` is clear of
    /// the placed buffers live with it: the floor the walk stops at.
    /// Each block looked at and each buffer walked is a step of `steps`.
    fn floor(
        &self,
        first: usize,
        last: usize,
        foot: usize,
        align: usize,
        steps: &mut u64,
    ) -> usize {
        let holds = |at: usize, start: usize| fits(at, align, foot, start);
        let mut at = 0usize;
        for b in &self.blocks {
            *steps += 1;
            // None of its buffers meets this one.
            if b.min_first > last || b.max_last < first {
                continue;
            }
            let all_meet = b.max_first <= last && b.min_last >= first;
            if all_meet {
                let p0 = &b.items[0];
                if holds(at, p0.start) {
                    return at;
                }
                // Every later buffer starts less than `foot` above the
                // highest end before it in the block, so less than `foot`
                // above the floor: no gap in the block holds this one.
                if b.gap < foot {
                    at = at.max(b.max_end);
                    continue;
                }
            }
            *steps += b.items.len() as u64;
            for p in &b.items {
                if p.first > last || first > p.last {
                    continue;
                }
                if holds(at, p.start) {
                    return at;
                }
                at = at.max(p.end);
            }
        }
        at
    }

    /// Keeps `p` after every placed buffer that starts at or below it.
    fn insert(&mut self, p: Placed) {
        let k = self
            .blocks
            .iter()
            .position(|b| b.items.last().is_some_and(|q| q.start > p.start))
            .unwrap_or(self.blocks.len().saturating_sub(1));
        if self.blocks.is_empty() {
            self.blocks.push(Block::new(vec![p]));
            return;
        }
        let b = &mut self.blocks[k];
        let pos = b.items.partition_point(|q| q.start <= p.start);
        b.items.insert(pos, p);
        if b.items.len() > MOST {
            let upper = b.items.split_off(MOST / 2);
            b.sum_up();
            self.blocks.insert(k + 1, Block::new(upper));
        } else {
            b.sum_up();
        }
    }
}

/// Greedy's placement of the buffers of `order` (sorted), as its walk over
/// the placed buffers places them, through [`Blocks`]: the plan's height.
/// The blocks the walks looked at and the buffers they walked (those of a
/// block walked in part counted whole) are added to `steps`.
pub(super) fn place_blocked(
    items: &[Item],
    guard: usize,
    offsets: &mut [usize],
    order: &[u128],
    steps: &mut u64,
) -> Result<usize, PlanError> {
    let mut placed = Blocks::default();
    let mut height = 0usize;
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
            placed.floor(first, last, foot, item.align, steps)
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
    Ok(height)
}

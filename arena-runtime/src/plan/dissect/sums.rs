//! Stacks of a few tiles of one span whose heights sum to a height beside
//! it: the board's join ([`Board::sums`]), the choice of the tiles behind
//! it, and whether a tile could be one of such a stack
//! ([`Board::stacks_beside`]).

use super::super::base::{gcd, log_steps};
use super::board::{Board, Tile};

/// The most chance sums a choice of tiles may be expected to meet the
/// height of a tile beside their span with (over all the choices of as
/// many tiles and all those heights): above it, `Board::sums` leaves the
/// choice to the joins left for last.
const CHANCE: f64 = 0.25;

/// The fewest of `members` (heights, largest first, and tiles) whose
/// heights sum to one of `targets` (sorted, the heights beside their span),
/// where that choice is the only one of as many and a sum of as many would
/// meet one of the heights by chance seldom ([`CHANCE`]); the height and
/// the choice (by position), if found, and the steps taken. A height two
/// choices of as many meet is set to 0 in `targets` (which one was cut is
/// a guess).
fn fewest(members: &[(usize, usize)], targets: &mut [usize]) -> (Option<(usize, Vec<usize>)>, u64) {
    let mut taken = 0;
    let heights = targets.len();
    // The step all heights are multiples of.
    let step = members
        .iter()
        .map(|m| m.0)
        .chain(targets.iter().copied())
        .fold(0, gcd)
        .max(1);
    // The fewest tiles first.
    let mut found = None;
    let mut left = members.len().saturating_mul(heights).saturating_mul(64);
    // The choices of `most` tiles.
    let mut choices = members.len() as f64;
    'fewest: for most in 2..=members.len() {
        choices = choices * (members.len() + 1 - most) as f64 / most as f64;
        if !choices.is_finite() {
            break;
        }
        for target in targets.iter_mut() {
            left = left.saturating_sub(1);
            taken += 1;
            // The sums of `most` tiles expected to meet one of the
            // heights by chance.
            let chance = choices * heights as f64 * step as f64 / (*target).max(1) as f64;
            if *target == 0 || chance > CHANCE {
                continue;
            }
            let limit = left.min(16 * members.len());
            let (chosen, steps) = subset(members, *target, (2, most), limit);
            taken += steps as u64;
            left -= steps;
            match chosen {
                Found::One(chosen) => {
                    found = Some((*target, chosen));
                    break 'fewest;
                }
                Found::Many => *target = 0,
                Found::None => {}
            }
        }
        if left == 0 {
            break;
        }
    }
    (found, taken)
}

impl Board {
    /// Stacks a few tiles of one span whose heights sum to the height of a
    /// tile beside the span (the pieces of a cut in time, as in
    /// [`Board::pair`], of any number), in the first span of
    /// [`Board::changed`] that has such. False where none has.
    pub(super) fn sums(&mut self) -> bool {
        while let Some((s, e)) = self.changed.pop_front() {
            if self.steps > self.limit {
                return false;
            }
            let group = self
                .by_window
                .get_mut(&(s, e))
                .expect("a changed span has a group");
            group.changed = false;
            self.steps += group.tiles.len() as u64;
            let members = highest_first(&self.tiles, &group.tiles, None);
            if members.len() < 2 {
                continue;
            }
            let total: usize = members.iter().map(|m| m.0).sum();
            let mut targets = self.heights_beside((s, e), 0, total);
            self.steps += members.len() as u64 * log_steps(members.len());
            let (found, steps) = fewest(&members, &mut targets);
            self.steps += steps;
            if let Some((target, chosen)) = found {
                let mut at = 0;
                let pieces: Vec<(usize, usize)> = chosen
                    .iter()
                    .map(|&k| {
                        let (h, u) = members[k];
                        at += h;
                        (u, at - h)
                    })
                    .collect();
                let width = self.tiles[members[0].1].rect.width;
                self.add(s, e, target, width, &pieces);
                return true;
            }
        }
        false
    }

    /// Whether `t` and one or more other tiles alive of its span sum to
    /// the height of a tile alive beside the span. Then `t` is mostly a
    /// piece of that stack, and a tile of its own height beside it met it
    /// by chance: on OmniMalloc's tiling of 10,001 over 1,024 phases of
    /// seed 3104, the first wrong join side by side at once took such a
    /// tile (BENCHMARKS.md, stop 70).
    pub(super) fn stacks_beside(&mut self, t: usize) -> bool {
        let rect = self.tiles[t].rect;
        let (s, e, h) = (rect.start, rect.end, rect.height);
        let Some(group) = self.by_window.get(&(s, e)) else {
            return false;
        };
        self.steps += group.tiles.len() as u64;
        if self.steps > self.limit {
            return false;
        }
        let members = highest_first(&self.tiles, &group.tiles, Some(t));
        if members.is_empty() {
            return false;
        }
        let most = h + members.iter().map(|m| m.0).sum::<usize>();
        let targets = self.heights_beside((s, e), h, most);
        self.steps += (self.by_end[s].len() + self.by_start[e].len()) as u64
            + members.len() as u64 * log_steps(members.len());
        // The look-up stops at the board's limit, as every join does.
        let room = self.limit.saturating_sub(self.steps);
        let (found, steps) = completes(&members, h, &targets, room);
        self.steps += steps;
        found
    }

    /// The heights in `(above, most]` of the tiles alive beside `span`,
    /// sorted, each once (a step each).
    fn heights_beside(&mut self, (s, e): (usize, usize), above: usize, most: usize) -> Vec<usize> {
        let mut heights: Vec<usize> = self.by_end[s]
            .iter()
            .chain(&self.by_start[e])
            .map(|&w| &self.tiles[w])
            .filter(|w| w.alive && w.rect.height > above && w.rect.height <= most)
            .map(|w| w.rect.height)
            .collect();
        self.steps += heights.len() as u64;
        heights.sort_unstable();
        heights.dedup();
        heights
    }
}

/// The tiles alive of `group` but `except`, as (height, tile), the
/// highest first (ties: the later tile first).
fn highest_first(tiles: &[Tile], group: &[usize], except: Option<usize>) -> Vec<(usize, usize)> {
    let mut members: Vec<(usize, usize)> = group
        .iter()
        .filter(|&&u| Some(u) != except && tiles[u].alive)
        .map(|&u| (tiles[u].rect.height, u))
        .collect();
    members.sort_unstable_by(|a, b| b.cmp(a));
    members
}

/// Whether some of `members` (heights, largest first, and tiles), one or
/// more, sum to `need - base` for a `need` of `targets` above `base`, each
/// looked for within 16 steps a member and all within `room` steps; and
/// the steps taken.
fn completes(members: &[(usize, usize)], base: usize, targets: &[usize], room: u64) -> (bool, u64) {
    let mut taken = 0;
    for &target in targets.iter().filter(|&&t| t > base) {
        let left = usize::try_from(room.saturating_sub(taken)).unwrap_or(usize::MAX);
        if left == 0 {
            break;
        }
        let most = left.min(16 * members.len());
        let (found, steps) = subset(members, target - base, (1, members.len()), most);
        taken += steps as u64 + 1;
        if !matches!(found, Found::None) {
            return (true, taken);
        }
    }
    (false, taken)
}

/// What [`subset`] found.
enum Found {
    /// Exactly one choice, by position.
    One(Vec<usize>),
    /// None (or none within the steps given).
    None,
    /// Two or more: which one was cut is a guess.
    Many,
}

/// The one choice of `least` to `count` of `members` (heights, largest
/// first) whose heights sum to `need`, if there is one, looked for within
/// `most` steps; and the steps taken.
fn subset(
    members: &[(usize, usize)],
    need: usize,
    (least, count): (usize, usize),
    most: usize,
) -> (Found, usize) {
    // The heights from each position on, summed.
    let mut after = vec![0; members.len() + 1];
    for k in (0..members.len()).rev() {
        after[k] = after[k + 1] + members[k].0;
    }
    let mut chosen = Vec::new();
    let mut first = None;
    let (mut k, mut need) = (0, need);
    for steps in 0..most {
        if need == 0 && chosen.len() >= least {
            if first.is_some() {
                return (Found::Many, steps);
            }
            first = Some(chosen.clone());
        } else if need > 0 && k < members.len() && after[k] >= need {
            if members[k].0 <= need && chosen.len() < count {
                chosen.push(k);
                need -= members[k].0;
            }
            k += 1;
            continue;
        }
        // Back: the last chosen left out.
        let Some(last) = chosen.pop() else {
            return (first.map_or(Found::None, Found::One), steps);
        };
        need += members[last].0;
        k = last + 1;
    }
    (Found::None, most)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heights, largest first, as [`subset`] takes them.
    fn members(heights: &[usize]) -> Vec<(usize, usize)> {
        heights.iter().copied().zip(0..).collect()
    }

    #[test]
    fn the_one_choice_of_tiles_that_sum_to_a_height_is_found() {
        let members = members(&[9, 7, 5, 3, 2]);
        // 9 + 3 + 2 = 14 and 7 + 5 + 2 = 14: two choices of three.
        assert!(matches!(subset(&members, 14, (2, 3), 1_000).0, Found::Many));
        // 9 + 5 + 3 = 17 only (7 + 5 + 3 + 2 is four).
        let (Found::One(chosen), _) = subset(&members, 17, (2, 3), 1_000) else {
            panic!("one choice of three sums to 17");
        };
        assert_eq!(chosen, [0, 2, 3]);
        // Two at least: 9 alone is not a choice; none sums to 1.
        assert!(matches!(subset(&members, 9, (2, 1), 1_000).0, Found::None));
        assert!(matches!(subset(&members, 9, (2, 2), 1_000).0, Found::One(c) if c == [1, 4]));
        assert!(matches!(subset(&members, 1, (2, 5), 1_000).0, Found::None));
        // Within the steps given, or not at all.
        assert!(matches!(subset(&members, 17, (2, 3), 2).0, Found::None));
    }

    #[test]
    fn a_tile_and_some_of_its_span_are_found_to_sum_to_a_height_beside() {
        let members = members(&[9, 7, 5]);
        // 4 + 7 = 11; a height not above the tile's own is passed.
        assert!(completes(&members, 4, &[3, 4, 11], 100).0);
        // 4 + 9 + 5 = 18: three of them.
        assert!(completes(&members, 4, &[18], 100).0);
        // None sums to 1 or 3.
        assert!(!completes(&members, 4, &[2, 5, 7], 100).0);
        assert!(!completes(&[], 4, &[11], 100).0);
        // Within the room given, or not at all.
        assert_eq!(completes(&members, 4, &[18], 0), (false, 0));
    }

    #[test]
    fn the_fewest_tiles_whose_sum_chance_seldom_meets_are_chosen() {
        // 70,001 + 29,999: the one choice of two.
        let mut targets = [100_000];
        let (found, _) = fewest(&members(&[70_001, 29_999, 1]), &mut targets);
        assert_eq!(found, Some((100_000, vec![0, 1])));
        // Two choices of two meet the height: a guess, so that height is
        // left (and three of them sum to none).
        let (found, _) = fewest(&members(&[60_001, 50_001, 49_999, 39_999]), &mut targets);
        assert_eq!((found, targets), (None, [0]));
        // 512 + 512 = 1,024, the one choice, but two tiles of 512-byte
        // steps meet a height of 1,024 by chance too often: left to the
        // joins left for last.
        let mut targets = [1_024];
        let (found, _) = fewest(&members(&[512, 512]), &mut targets);
        assert_eq!((found, targets), (None, [1_024]));
    }
}

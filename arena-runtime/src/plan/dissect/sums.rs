//! The choice of a few tiles of one span whose heights sum to a height
//! beside it: the search behind the board's sums (`Board::sums`, in the
//! sibling `board`).

/// The most chance sums a choice of tiles may be expected to meet the
/// height of a tile beside their span with (over all the choices of as
/// many tiles and all those heights): above it, `Board::sums` leaves the
/// choice to the joins left for last.
pub(super) const CHANCE: f64 = 0.25;

/// What [`subset`] found.
pub(super) enum Found {
    /// Exactly one choice, by position.
    One(Vec<usize>),
    /// None (or none within the steps given).
    None,
    /// Two or more: which one was cut is a guess.
    Many,
}

/// The one choice of two to `count` of `members` (heights, largest first)
/// whose heights sum to `need`, if there is one, looked for within `most`
/// steps; and the steps taken.
pub(super) fn subset(
    members: &[(usize, usize)],
    need: usize,
    count: usize,
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
        if need == 0 && chosen.len() >= 2 {
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
        assert!(matches!(subset(&members, 14, 3, 1_000).0, Found::Many));
        // 9 + 5 + 3 = 17 only (7 + 5 + 3 + 2 is four).
        let (Found::One(chosen), _) = subset(&members, 17, 3, 1_000) else {
            panic!("one choice of three sums to 17");
        };
        assert_eq!(chosen, [0, 2, 3]);
        // Two at least: 9 alone is not a choice; none sums to 1.
        assert!(matches!(subset(&members, 9, 1, 1_000).0, Found::None));
        assert!(matches!(subset(&members, 9, 2, 1_000).0, Found::One(c) if c == [1, 4]));
        assert!(matches!(subset(&members, 1, 5, 1_000).0, Found::None));
        // Within the steps given, or not at all.
        assert!(matches!(subset(&members, 17, 3, 2).0, Found::None));
    }
}

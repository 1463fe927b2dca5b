//! Which buffers on the two sides of a phase boundary are likely to meet
//! there, for the corner searches on a perfect packing: a hint to the order
//! they try buffers in, never a rule.
//!
//! In a plan with no byte free, the buffers that end at a boundary and
//! those that start at it cover the same bytes: each run of bytes where
//! both sides change is tiled by some that end and some that start, of
//! equal sums. Where sizes are drawn from a fine range, two such sets of
//! equal sums seldom meet by chance: the smallest sets of equal sums
//! (joined where they share a buffer: a block) are the runs of the plan
//! on 98.9 % of the boundaries of OmniMalloc's tilings and pinwheels of 501
//! buffers over 1,024 phases planned at the optimum, and 1 % of the
//! buffers that start there lie beside one of another block
//! (`scripts/sums-at-boundaries.py`, BENCHMARKS.md). So a buffer that
//! starts beside one that ends is tried first where the two are in one
//! block; where many sizes are equal, blocks join and the hint says less.

/// No block: the boundary has too many buffers to look at, or none on one
/// side.
pub(crate) const NONE: u32 = u32::MAX;

/// The most buffers on one side of a boundary whose sets are looked at
/// (`2^MOST_SIDE` sums each side).
const MOST_SIDE: usize = 10;

/// The most pairs of sets of equal sums looked at on one boundary (many
/// buffers of one size make many): past it, no block there.
const MOST_PAIRS: usize = 4_096;

/// The most steps (sums made, pairs compared) the blocks of one model take
/// in all: past it, the boundaries left have none (some 0.2 s; OmniMalloc's
/// perfect packings of 10,001 buffers take 0.4 to 2.1 million).
const MOST_STEPS: usize = 1 << 27;

/// For each job (its first and past-last section and its bytes, as
/// `(start, end, foot)`), its block at its start boundary and at its end
/// boundary (ids unique over the model), or [`NONE`].
pub(crate) fn of(
    jobs: impl Iterator<Item = (usize, usize, usize)>,
    sections: usize,
) -> Vec<[u32; 2]> {
    let mut ending: Vec<Vec<usize>> = vec![Vec::new(); sections + 1];
    let mut starting: Vec<Vec<usize>> = vec![Vec::new(); sections + 1];
    let mut foot = Vec::new();
    for (j, (start, end, bytes)) in jobs.enumerate() {
        starting[start].push(j);
        ending[end].push(j);
        foot.push(bytes);
    }
    let mut sides = vec![[NONE; 2]; foot.len()];
    let mut next = 0u32;
    let mut steps = 0;
    for x in 0..=sections {
        let (e, s) = (&ending[x], &starting[x]);
        if e.is_empty() || s.is_empty() || e.len() > MOST_SIDE || s.len() > MOST_SIDE {
            continue;
        }
        let Some(block) = blocks(
            &e.iter().map(|&j| foot[j]).collect::<Vec<_>>(),
            &s.iter().map(|&j| foot[j]).collect::<Vec<_>>(),
            &mut steps,
        ) else {
            if steps > MOST_STEPS {
                break;
            }
            continue;
        };
        // Block ids local to the boundary (the roots), made unique.
        let mut ids: Vec<(usize, u32)> = Vec::new();
        let mut id = |root: usize| -> u32 {
            if let Some(&(_, i)) = ids.iter().find(|&&(r, _)| r == root) {
                return i;
            }
            let i = next;
            next = next.saturating_add(1);
            ids.push((root, i));
            i
        };
        for (k, &j) in e.iter().enumerate() {
            sides[j][1] = id(block[k]);
        }
        for (k, &j) in s.iter().enumerate() {
            sides[j][0] = id(block[e.len() + k]);
        }
    }
    sides
}

/// The blocks of one boundary: the buffers that end there (sizes `e`) and
/// those that start (`s`), indexed `e` then `s`, each with its block's
/// root; `None` where the sets of equal sums are too many to look at, or
/// `steps` (counted on) pass [`MOST_STEPS`]. Every buffer is in some set
/// of equal sums (all that end against all that start, where the boundary
/// is exactly as full on both sides); a buffer in none stays a block of
/// its own.
fn blocks(e: &[usize], s: &[usize], steps: &mut usize) -> Option<Vec<usize>> {
    *steps += (e.len() << e.len()) + (s.len() << s.len());
    let sums = |sizes: &[usize]| -> Vec<(usize, u32)> {
        let mut out: Vec<(usize, u32)> = (1u32..1 << sizes.len())
            .map(|mask| {
                let sum = (0..sizes.len())
                    .filter(|&k| mask >> k & 1 == 1)
                    .map(|k| sizes[k])
                    .fold(0usize, usize::saturating_add);
                (sum, mask)
            })
            .collect();
        out.sort_unstable();
        out
    };
    let (left, right) = (sums(e), sums(s));
    // Every pair of sets of equal sums, as one mask (`e` low, `s` high).
    let mut pairs: Vec<u32> = Vec::new();
    for &(sum, sm) in &right {
        let from = left.partition_point(|&(t, _)| t < sum);
        for &(_, em) in left[from..].iter().take_while(|&&(t, _)| t == sum) {
            if pairs.len() == MOST_PAIRS {
                return None;
            }
            pairs.push(em | sm << e.len());
        }
    }
    // The smallest: those with no other inside them.
    pairs.sort_unstable_by_key(|&m| (m.count_ones(), m));
    let mut least: Vec<u32> = Vec::new();
    for &m in &pairs {
        *steps += least.len();
        if *steps > MOST_STEPS {
            return None;
        }
        if !least.iter().any(|&l| l & !m == 0) {
            least.push(m);
        }
    }
    let n = e.len() + s.len();
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], mut k: usize) -> usize {
        while root[k] != k {
            root[k] = root[root[k]];
            k = root[k];
        }
        k
    }
    for &m in &least {
        let members: Vec<usize> = (0..n).filter(|&k| m >> k & 1 == 1).collect();
        for w in members.windows(2) {
            let (a, b) = (find(&mut root, w[0]), find(&mut root, w[1]));
            if a != b {
                root[b.max(a)] = a.min(b);
            }
        }
    }
    Some((0..n).map(|k| find(&mut root, k)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_sets_of_equal_sums_make_the_blocks() {
        // Ending 3, 5, 7; starting 8, 7: {3, 5 | 8} and {7 | 7}.
        let b = blocks(&[3, 5, 7], &[8, 7], &mut 0).unwrap();
        assert_eq!(b[0], b[1]);
        assert_eq!(b[0], b[3]);
        assert_eq!(b[2], b[4]);
        assert_ne!(b[0], b[2]);
        // {2, 3 | 2, 3} has smaller sets inside: {2 | 2} and {3 | 3}.
        let b = blocks(&[2, 3], &[2, 3], &mut 0).unwrap();
        assert_eq!(b[0], b[2]);
        assert_eq!(b[1], b[3]);
        assert_ne!(b[0], b[1]);
    }

    #[test]
    fn too_many_sets_of_equal_sums_give_no_blocks() {
        assert!(blocks(&[1; 10], &[1; 10], &mut 0).is_none());
        // Past ten a side, the boundary is not looked at.
        let jobs = (0..12).map(|k| if k < 11 { (0, 1, 1) } else { (1, 2, 11) });
        assert!(of(jobs, 2).iter().all(|s| *s == [NONE; 2]));
    }

    #[test]
    fn the_blocks_of_a_model_take_a_bounded_number_of_steps() {
        // 5,000 sections of ten buffers sized 1, 2, 4, ..., 512: each
        // boundary has 1,023 pairs of sets of equal sums (some 30,000
        // steps), so that the boundaries past some 4,400 get no block.
        let jobs = (0..5_000).flat_map(|t| (0..10).map(move |k| (t, t + 1, 1 << k)));
        let sides = of(jobs, 5_000);
        assert_ne!(sides[0][1], NONE);
        assert_eq!(sides[sides.len() - 1][0], NONE);
    }

    #[test]
    fn each_job_has_its_block_at_both_ends() {
        // Two rows: 4 then 4 (one block at 1), 6 then 1 + 5 (another).
        let jobs = [(0, 1, 4), (1, 2, 4), (0, 1, 6), (1, 2, 1), (1, 2, 5)];
        let sides = of(jobs.into_iter(), 2);
        assert_eq!(sides[0][1], sides[1][0]);
        assert_eq!(sides[2][1], sides[3][0]);
        assert_eq!(sides[2][1], sides[4][0]);
        assert_ne!(sides[0][1], sides[2][1]);
        // Sets that share a buffer are joined: {4 | 4} (either 4) and
        // {6 | 2 + 4}, one block.
        let b = blocks(&[4, 6], &[4, 2, 4], &mut 0).unwrap();
        assert!(b.iter().all(|&r| r == b[0]));
        // Boundaries with nothing on one side: no block.
        assert_eq!(sides[0][0], NONE);
        assert_eq!(sides[1][1], NONE);
    }
}

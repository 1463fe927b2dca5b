//! Conflict-directed backjumping for the valley search: each failure
//! carries the levels of the placements it follows from (a set over the
//! depths of the path), and a node whose child failed without its own
//! choice among them returns at once: no other choice there helps.

use super::*;

/// A set of levels (depths of the path), as bits.
#[derive(Debug, Default, Clone)]
pub(super) struct Levels(Vec<u64>);

impl Levels {
    /// Room for levels below `n`, none in it.
    pub(super) fn with_room(n: usize) -> Levels {
        Levels(vec![0; n / 64 + 1])
    }

    pub(super) fn clear(&mut self) {
        self.0.fill(0);
    }

    /// Every level: no jump past any choice.
    pub(super) fn fill(&mut self) {
        self.0.fill(u64::MAX);
    }

    pub(super) fn insert(&mut self, level: usize) {
        self.0[level / 64] |= 1 << (level % 64);
    }

    pub(super) fn remove(&mut self, level: usize) {
        self.0[level / 64] &= !(1 << (level % 64));
    }

    pub(super) fn contains(&self, level: usize) -> bool {
        self.0[level / 64] & (1 << (level % 64)) != 0
    }

    pub(super) fn union(&mut self, other: &Levels) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    pub(super) fn words(&self) -> usize {
        self.0.len()
    }
}

/// The side of a free byte that a wall closes: the jobs that can take it
/// must start (`Left`) or end (`Right`) beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Edge {
    None,
    Left,
    Right,
}

/// A free byte no job is left for: its section, its offset, and the side
/// a wall closes.
pub(super) type Gap = (usize, usize, Edge);

impl Search<'_, '_> {
    /// Adds to the conflict the levels of the placed jobs live in sections
    /// `lo..hi` (their stacks).
    pub(super) fn explain(&mut self, lo: usize, hi: usize) {
        let m = self.m;
        let hi = hi.min(m.sections);
        let mut steps = 0;
        for s in lo..hi {
            steps += m.live[s].len();
            for &o in &m.live[s] {
                if self.placed[o] {
                    self.conflict.insert(self.level[o]);
                }
            }
        }
        self.charge(steps);
    }

    /// Adds the placed job that covers byte `g` of section `y`; false
    /// where none does.
    fn cover(&mut self, y: usize, g: usize) -> bool {
        let m = self.m;
        self.charge(m.live[y].len());
        let p = m.live[y].iter().copied().find(|&o| {
            self.placed[o] && self.solution[o] <= g && g < self.solution[o] + m.jobs[o].foot
        });
        if let Some(p) = p {
            self.conflict.insert(self.level[p]);
        }
        p.is_some()
    }

    /// Adds what keeps unplaced job `t` from offset `g`: the placed job
    /// over byte `g` in the first of its sections whose stack is above it.
    fn blocker(&mut self, t: usize, g: usize) -> bool {
        let job = self.m.jobs[t];
        self.charge(job.end - job.start);
        match (job.start..job.end).find(|&y| self.cap - self.total[y] > g) {
            Some(y) => self.cover(y, g),
            None => false,
        }
    }

    /// Adds why free byte `g` of section `y` (every byte under it taken)
    /// can be taken by no job but those `edge` allows at `g` (beside a
    /// wall: those that start in section `y`, or end with it): the placed
    /// jobs of the stack under it, the job over byte `g` in the wall's
    /// section for a job that would cross into it, and each other unplaced
    /// job's blocker.
    pub(super) fn explain_byte(&mut self, y: usize, g: usize, edge: Edge) {
        let m = self.m;
        self.explain(y, y + 1);
        let mut sound = true;
        let mut wall_added = false;
        for &t in &m.live[y] {
            if self.placed[t] {
                continue;
            }
            let job = m.jobs[t];
            let crosses = match edge {
                Edge::None => false,
                Edge::Left => job.start < y,
                Edge::Right => job.end > y + 1,
            };
            if crosses {
                if !wall_added {
                    let w = if edge == Edge::Left { y - 1 } else { y + 1 };
                    sound &= self.cover(w, g);
                    wall_added = true;
                }
            } else if self.min_off[t] != g || self.barred[t] == g {
                sound &= self.blocker(t, g);
            }
        }
        if !sound {
            self.conflict.fill();
        }
    }

    /// Adds why the run `a..b` at floor `g` cannot be covered end to end:
    /// the stacks under it, the jobs over byte `g` beside it, and each
    /// unplaced job's blocker.
    pub(super) fn explain_run(&mut self, a: usize, b: usize, g: usize) {
        let m = self.m;
        self.explain(a, b);
        let mut sound = true;
        // The jobs inside the run: those that start in it and end by `b`.
        for y in a..b {
            for &t in &m.starting[y] {
                let job = m.jobs[t];
                if self.placed[t] || job.end > b {
                    continue;
                }
                if self.min_off[t] != g || self.barred[t] == g {
                    sound &= self.blocker(t, g);
                }
            }
        }
        // A job that crosses the run's ends is kept out by what is over
        // byte `g` beside it.
        if a > 0 && self.cap - self.total[a - 1] > g {
            sound &= self.cover(a - 1, g);
        }
        if b < m.sections && self.cap - self.total[b] > g {
            sound &= self.cover(b, g);
        }
        if !sound {
            self.conflict.fill();
        }
    }
}

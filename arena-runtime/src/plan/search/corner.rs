//! The corner search's node ([`Branch::Corner`], for perfect packings):
//! the lowest free offset, the earliest section there, each buffer that can
//! start at that corner or none; and the check that every run of sections
//! at that offset can be covered end to end.

use super::*;

impl Search<'_, '_> {
    /// A node of [`Branch::Corner`]: the lowest offset `h` an unbarred job
    /// can take, the earliest section `s` (in the part) where one that can
    /// take it starts; each of those placed at `h` in turn, then none of
    /// them (all barred from `h`).
    pub(super) fn corner(&mut self, part: &Part) -> Outcome {
        if self.budget == 0 {
            return Outcome::OutOfNodes;
        }
        self.budget -= 1;
        let m = self.m;
        let mut corner = (usize::MAX, usize::MAX);
        let mut unplaced = false;
        for &j in &part.jobs {
            if self.placed[j] {
                continue;
            }
            unplaced = true;
            let off = self.min_off[j];
            if off.saturating_add(m.jobs[j].foot) > self.cap {
                return Outcome::NotFound;
            }
            if self.barred[j] == off {
                continue;
            }
            corner = corner.min((off, m.jobs[j].start.max(part.lo)));
        }
        self.charge(part.jobs.len());
        if !unplaced {
            return Outcome::Found;
        }
        let (h, s) = corner;
        if h == usize::MAX {
            // Every job left is barred where it could go.
            return Outcome::NotFound;
        }
        if self.perfect && !self.runs_covered(part, h) {
            return Outcome::NotFound;
        }
        let mut here: Vec<(usize, usize)> = part
            .jobs
            .iter()
            .copied()
            .filter(|&j| {
                !self.placed[j]
                    && self.min_off[j] == h
                    && self.barred[j] != h
                    && m.jobs[j].start.max(part.lo) == s
            })
            .map(|j| (self.rank[j], j))
            .collect();
        here.sort_unstable();
        let most = self.total[part.lo..part.hi]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        let outside = (h.saturating_add(most) > self.cap).then(|| {
            self.charge(part.hi - part.lo);
            Outside::of(&self.total[part.lo..part.hi])
        });
        let mut tried: Vec<usize> = Vec::new();
        for &(rank, j) in &here {
            if self.budget == 0 {
                return Outcome::OutOfNodes;
            }
            let twin = m.twin[j];
            self.charge(1 + tried.len());
            if tried.contains(&twin) {
                continue;
            }
            tried.push(twin);
            let (outcome, hat) = self.try_place(part, outside.as_ref(), j, h, rank);
            match outcome {
                Outcome::NotFound => {}
                other => return other,
            }
            if !hat {
                // Nothing unplaced meets it: no other choice here helps.
                return Outcome::NotFound;
            }
        }
        // None of them at `h`: barred from it, and section `s` has a gap
        // there, so its floor rises to the lowest offset a job left in it
        // can still take.
        let bar_mark = self.bars.mark();
        for &(_, j) in &here {
            self.bars.set(&mut self.barred, j, h);
        }
        let mut lowest = usize::MAX;
        for &o in &m.live[s] {
            if !self.placed[o] {
                let off = self.min_off[o];
                let off = if self.barred[o] == off { off + 1 } else { off };
                lowest = lowest.min(off);
            }
        }
        self.charge(m.live[s].len() + here.len());
        let floor_mark = self.floors.mark();
        let outcome = if lowest != usize::MAX
            && lowest > self.floor[s]
            && lowest.saturating_add(self.total[s]) > self.cap
        {
            Outcome::NotFound
        } else {
            if lowest != usize::MAX && lowest > self.floor[s] {
                self.floors.set(&mut self.floor, s, lowest);
            }
            self.corner(part)
        };
        self.floors.undo(&mut self.floor, floor_mark);
        self.bars.undo(&mut self.barred, bar_mark);
        outcome
    }

    /// In a perfect packing, whether every run of sections of `part` whose
    /// floor is the lowest offset `h` can be covered at `h` end to end by
    /// buffers that can go there: no byte may stay free, and a buffer
    /// placed at `h` lies within one run (its offset is the highest floor
    /// under it). Runs are independent, so one that cannot be covered ends
    /// the branch at once, not after every choice made in the runs before
    /// it.
    fn runs_covered(&mut self, part: &Part, h: usize) -> bool {
        let m = self.m;
        let mut steps = part.hi - part.lo;
        let mut ok = true;
        let mut a = part.lo;
        while a < part.hi {
            if self.floor[a] != h || self.total[a] == 0 {
                a += 1;
                continue;
            }
            let mut b = a;
            while b < part.hi && self.floor[b] == h && self.total[b] > 0 {
                b += 1;
            }
            // Boundaries `a..=b` of the run; from `a`, each buffer that
            // starts at a reached boundary and ends inside the run.
            self.reach[a..=b].fill(false);
            self.reach[a] = true;
            for x in a..b {
                if !self.reach[x] {
                    continue;
                }
                for &j in &m.live[x] {
                    steps += 1;
                    let job = &m.jobs[j];
                    if job.start == x
                        && job.end <= b
                        && !self.placed[j]
                        && self.min_off[j] == h
                        && self.barred[j] != h
                    {
                        self.reach[job.end] = true;
                    }
                }
            }
            if !self.reach[b] {
                ok = false;
                break;
            }
            a = b;
        }
        self.charge(steps);
        ok
    }
}

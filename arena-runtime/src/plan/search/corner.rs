//! The corner searches' nodes, for perfect packings: [`Branch::Corner`]
//! (the lowest free offset, the earliest section there, each buffer that
//! can start at that corner or none) and [`Branch::Valley`] (the wall of a
//! valley with the fewest buffers that can fill the byte beside it); the
//! checks that prune them (every run at the lowest offset, or the valley
//! branched on, can be covered end to end; every wall a placement makes
//! can still be filled); and the hint both follow, the buffers whose sizes
//! sum with the placed one beside them to a run both sides of the boundary
//! cover ([`sides`]) tried first, and counted first where the valley
//! search picks its wall.

use super::*;

impl Search<'_, '_> {
    /// A node of [`Branch::Corner`]: the lowest offset `h` an unbarred job
    /// can take, the earliest section `s` (in the part) where one that can
    /// take it starts; each of those placed at `h` in turn, then none of
    /// them (all barred from `h`).
    pub(super) fn corner(&mut self, part: &Part) -> Outcome {
        if self.perfect && self.branch == Branch::Valley {
            return self.valley(part);
        }
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
        self.blamed_last(&mut here, h);
        self.met_first(part, &mut here, s, h, true);
        let most = self.total[part.lo..part.hi]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        let outside = (h.saturating_add(most) > self.cap).then(|| {
            self.charge(part.hi - part.lo);
            Outside::of(&self.total[part.lo..part.hi])
        });
        if let Some(outcome) = self.each_at(part, outside.as_ref(), &here, h, true, None) {
            return outcome;
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

    /// A node of the corner search on a perfect packing: every valley of
    /// the stacks (a run of sections at one floor, both sides higher) must
    /// be filled from its walls, the byte beside each wall by a buffer
    /// that starts (or ends) there and fits in the valley. The wall with
    /// the fewest such buffers is branched on, each in turn; none left at
    /// one ends the branch.
    fn valley(&mut self, part: &Part) -> Outcome {
        if self.budget == 0 {
            return Outcome::OutOfNodes;
        }
        self.budget -= 1;
        let m = self.m;
        let (lo, hi) = (part.lo, part.hi);
        // (count, hinted count, floor, section, left wall)
        let mut best: Option<(usize, usize, usize, usize, bool)> = None;
        let mut steps = hi - lo;
        let mut a = lo;
        while a < hi {
            if self.total[a] == 0 {
                a += 1;
                continue;
            }
            let g = self.floor[a];
            let mut b = a + 1;
            while b < hi && self.total[b] > 0 && self.floor[b] == g {
                b += 1;
            }
            let left_higher = a == lo || self.total[a - 1] == 0 || self.floor[a - 1] > g;
            let right_higher = b == hi || self.total[b] == 0 || self.floor[b] > g;
            if left_higher && right_higher {
                steps += m.live[a].len() + m.live[b - 1].len();
                let left = self.fitting(&m.live[a], g, a, b, true).count();
                let right = self.fitting(&m.live[b - 1], g, a, b, false).count();
                let (hl, hr) = (
                    self.likely(part, left, g, (a, b), true),
                    self.likely(part, right, g, (a, b), false),
                );
                // The fewest buffers first (those likely to meet the one
                // beside, where there are some), then the wall of most
                // failures in the runs before, then the earliest.
                let key = |c: usize, x: usize| (c, core::cmp::Reverse(self.learned.walls[x]), x);
                for (count, hint, x, is_left) in [(left, hl, a, true), (right, hr, b - 1, false)] {
                    if best.is_none_or(|(_, h, _, bx, _)| key(hint, x) < key(h, bx)) {
                        best = Some((count, hint, g, x, is_left));
                    }
                }
                if left == 0 || right == 0 {
                    break;
                }
            }
            a = b;
        }
        self.charge(steps);
        let Some((count, _, g, x, is_left)) = best else {
            return Outcome::Found;
        };
        // The valley's ends again, for the candidates.
        let (mut a, mut b) = (x, x + 1);
        while a > lo && self.total[a - 1] > 0 && self.floor[a - 1] == g {
            a -= 1;
        }
        while b < hi && self.total[b] > 0 && self.floor[b] == g {
            b += 1;
        }
        // What the candidates follow from: the byte beside the wall.
        let edge = if is_left {
            conflict::Edge::Left
        } else {
            conflict::Edge::Right
        };
        if count == 0 {
            self.wall_failed(x);
            if self.jumps() {
                self.conflict.clear();
                self.explain_byte(x, g, edge);
            }
            return Outcome::NotFound;
        }
        // A valley that cannot be covered end to end ends the branch.
        if !self.run_covered(a, b, g) {
            self.wall_failed(x);
            if self.jumps() {
                self.conflict.clear();
                self.explain_run(a, b, g);
            }
            return Outcome::NotFound;
        }
        let mut here: Vec<(usize, usize)> = self
            .fitting(&m.live[x], g, a, b, is_left)
            .map(|j| (self.rank[j], j))
            .collect();
        here.sort_unstable();
        self.blamed_last(&mut here, g);
        self.met_first(part, &mut here, x, g, is_left);
        // (No bound from the bytes left elsewhere: a valley above the
        // lowest is filled before the valleys below it.)
        self.each_at(part, None, &here, g, false, Some((x, g, edge)))
            .unwrap_or(Outcome::NotFound)
    }

    /// Places each job of `here` (rank, job) at `off` in turn, one of each
    /// set of twins: the outcome that ends the node (a plan found, the
    /// budget spent, or, with `hat`, a failed job that meets nothing
    /// unplaced, so that no other choice here helps), else `None`.
    fn each_at(
        &mut self,
        part: &Part,
        outside: Option<&Outside>,
        here: &[(usize, usize)],
        off: usize,
        hat: bool,
        why: Option<(usize, usize, conflict::Edge)>,
    ) -> Option<Outcome> {
        let mut tried: Vec<usize> = Vec::new();
        let choice = here.len() > 1;
        // The levels the children's failures follow from, but this node's.
        let jump = self.jumps() && why.is_some();
        let level = self.path.len();
        let mut acc = if jump {
            conflict::Levels::with_room(self.m.jobs.len())
        } else {
            conflict::Levels::default()
        };
        for &(rank, j) in here {
            if self.budget == 0 {
                return Some(Outcome::OutOfNodes);
            }
            let twin = self.m.twin[j];
            self.charge(1 + tried.len());
            if tried.contains(&twin) {
                continue;
            }
            tried.push(twin);
            self.enter(j, off, choice);
            let (outcome, meets) = self.try_place(part, outside, j, off, rank);
            if matches!(outcome, Outcome::OutOfNodes) {
                self.blame();
            }
            self.leave();
            self.held = self.held.min(self.path.len());
            match outcome {
                Outcome::NotFound if hat && !meets => return Some(Outcome::NotFound),
                Outcome::NotFound if jump => {
                    self.charge(acc.words());
                    if !self.conflict.contains(level) {
                        // The failure follows from choices above this
                        // node: no other choice here helps.
                        return Some(Outcome::NotFound);
                    }
                    self.conflict.remove(level);
                    acc.union(&self.conflict);
                }
                Outcome::NotFound => {}
                other => return Some(other),
            }
        }
        if let Some((y, g, edge)) = why.filter(|_| jump) {
            self.conflict = acc;
            self.explain_byte(y, g, edge);
        }
        None
    }

    /// `here` (rank, job, in order) with the placements at `off` that
    /// stuck runs before were blamed for last, the least blamed first.
    fn blamed_last(&self, here: &mut [(usize, usize)], off: usize) {
        let blamed = &self.learned.blamed;
        if !blamed.is_empty() {
            here.sort_by_key(|&(_, j)| blamed.get(&(j, off)).copied().unwrap_or(0));
        }
    }

    /// `here` (rank, job, in order) with the jobs in one block
    /// ([`super::sides`]) with the placed job beside them first: beside
    /// section `x` at height `g`, on its left where the jobs start at `x`
    /// (`left`), else on its right, where they end after `x`. A hint:
    /// nothing is left out.
    fn met_first(
        &mut self,
        part: &Part,
        here: &mut [(usize, usize)],
        x: usize,
        g: usize,
        left: bool,
    ) {
        if here.len() < 2 {
            return;
        }
        let m = self.m;
        let want = self.block_beside(part, x, g, left);
        if want != sides::NONE {
            here.sort_by_key(|&(_, j)| m.block(j, !left) != want);
        }
    }

    /// Of the `count` buffers that can fill the byte at `g` beside a wall
    /// of the valley `a..b` (its left wall where `left`), how many are in
    /// one block with the placed job on the wall's other side; `count`
    /// where none is, or where that job has no block.
    fn likely(
        &mut self,
        part: &Part,
        count: usize,
        g: usize,
        (a, b): (usize, usize),
        left: bool,
    ) -> usize {
        if count < 2 {
            return count;
        }
        let m = self.m;
        let x = if left { a } else { b - 1 };
        let want = self.block_beside(part, x, g, left);
        if want == sides::NONE {
            return count;
        }
        self.charge(m.live[x].len());
        match self
            .fitting(&m.live[x], g, a, b, left)
            .filter(|&j| m.block(j, !left) == want)
            .count()
        {
            0 => count,
            likely => likely,
        }
    }

    /// The block of the placed job beside section `x` at height `g` (on
    /// its left where `left`, else on its right) at the boundary between
    /// them, or [`sides::NONE`].
    fn block_beside(&mut self, part: &Part, x: usize, g: usize, left: bool) -> u32 {
        let m = self.m;
        let y = if left {
            x.checked_sub(1).filter(|&y| y >= part.lo)
        } else {
            Some(x + 1).filter(|&y| y < part.hi)
        };
        let Some(y) = y else { return sides::NONE };
        self.charge(m.live[y].len());
        let Some(o) = m.live[y].iter().copied().find(|&o| {
            self.placed[o] && self.solution[o] <= g && g < self.solution[o] + m.jobs[o].foot
        }) else {
            return sides::NONE;
        };
        m.block(o, left)
    }

    /// The run ran out of nodes (once, where it did): the last [`BLAMED`]
    /// choices on the path above where its backtracking reached are
    /// blamed for it.
    fn blame(&mut self) {
        let held = core::mem::replace(&mut self.held, 0).min(self.path.len());
        let choices = self.path[..held]
            .iter()
            .rev()
            .filter(|&&(.., choice)| choice);
        for &(j, off, _) in choices.take(BLAMED) {
            let times = self.learned.blamed.entry((j, off)).or_insert(0);
            *times = times.saturating_add(1);
        }
    }

    /// A wall beside section `x` could not be filled: counted for the runs
    /// after this one.
    fn wall_failed(&mut self, x: usize) {
        self.learned.walls[x] = self.learned.walls[x].saturating_add(1);
    }

    /// The unplaced buffers of `live` that can go at `g` inside the valley
    /// `a..b`, starting at `a` (`left`) or ending at `b`.
    fn fitting<'s>(
        &'s self,
        live: &'s [usize],
        g: usize,
        a: usize,
        b: usize,
        left: bool,
    ) -> impl Iterator<Item = usize> + 's {
        live.iter().copied().filter(move |&o| {
            let job = &self.m.jobs[o];
            let edge = if left {
                job.start == a && job.end <= b
            } else {
                job.end == b && job.start >= a
            };
            edge && !self.placed[o] && self.min_off[o] == g && self.barred[o] != g
        })
    }

    /// In a perfect packing, after `j` is placed (and the jobs of
    /// `affected[mark..]` had their lowest offsets raised): whether every
    /// wall at the ends of those jobs can still be filled. A wall is a
    /// boundary `x` where the stack of one side is higher than the other's
    /// (or the part's edge): the free byte at the lower side's floor `g`,
    /// beside the wall, can only be taken by a buffer at `g` that starts
    /// (or ends) exactly at `x`, since it would otherwise cross into the
    /// higher stack. No such buffer left: no plan below (the free byte
    /// no job is left for).
    pub(super) fn walls_filled(
        &mut self,
        part: &Part,
        j: usize,
        mark: usize,
    ) -> Result<(), conflict::Gap> {
        let m = self.m;
        let mut ends: Vec<usize> = core::iter::once(j)
            .chain(self.affected[mark..].iter().copied())
            .flat_map(|o| [m.jobs[o].start, m.jobs[o].end])
            .filter(|&x| part.lo <= x && x <= part.hi)
            .collect();
        ends.sort_unstable();
        ends.dedup();
        let mut steps = ends.len();
        let mut filled = Ok(());
        for &x in &ends {
            // The wall on the left of section `x`: a buffer starting at `x`.
            if x < part.hi
                && self.total[x] > 0
                && (x == part.lo || self.floor[x - 1] > self.floor[x])
            {
                let g = self.floor[x];
                steps += m.live[x].len();
                if !self.can_take(&m.live[x], g, |job| job.start == x) {
                    self.wall_failed(x);
                    filled = Err((x, g, conflict::Edge::Left));
                    break;
                }
            }
            // The wall on the right of section `x - 1`: one ending at `x`.
            if x > part.lo
                && self.total[x - 1] > 0
                && (x == part.hi || self.floor[x] > self.floor[x - 1])
            {
                let g = self.floor[x - 1];
                steps += m.live[x - 1].len();
                if !self.can_take(&m.live[x - 1], g, |job| job.end == x) {
                    self.wall_failed(x - 1);
                    filled = Err((x - 1, g, conflict::Edge::Right));
                    break;
                }
            }
        }
        self.charge(steps);
        filled
    }

    /// Whether one of `live`, unplaced, with `edge`, can go at `g`.
    fn can_take(&self, live: &[usize], g: usize, edge: impl Fn(&Job) -> bool) -> bool {
        live.iter().any(|&o| {
            !self.placed[o] && self.min_off[o] == g && self.barred[o] != g && edge(&self.m.jobs[o])
        })
    }

    /// In a perfect packing, whether every run of sections of `part` whose
    /// floor is the lowest offset `h` can be covered at `h` end to end by
    /// buffers that can go there: no byte may stay free, and a buffer
    /// placed at `h` lies within one run (its offset is the highest floor
    /// under it). Runs are independent, so one that cannot be covered ends
    /// the branch at once, not after every choice made in the runs before
    /// it.
    fn runs_covered(&mut self, part: &Part, h: usize) -> bool {
        let steps = part.hi - part.lo;
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
            if !self.run_covered(a, b, h) {
                ok = false;
                break;
            }
            a = b;
        }
        self.charge(steps);
        ok
    }

    /// Whether the run of sections `a..b` can be covered at `h` end to end
    /// by buffers that can go there and lie inside it: from `a`, each
    /// buffer that starts at a boundary reached and ends inside the run.
    fn run_covered(&mut self, a: usize, b: usize, h: usize) -> bool {
        let m = self.m;
        let mut steps = 0;
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
        self.charge(steps);
        self.reach[b]
    }
}

//! Placing one job during the search and taking it back, and raising the
//! sections' floors after a placement.

use super::*;

impl Search<'_, '_> {
    /// Places `j` at `off`, searches on, and takes it back. Also says
    /// whether anything unplaced was live with it.
    pub(super) fn try_place(
        &mut self,
        part: &Part,
        outside: Option<&Outside>,
        j: usize,
        off: usize,
        rank: usize,
    ) -> (Outcome, bool) {
        let m = self.m;
        let job = m.jobs[j];
        let top = off + job.foot;
        // The plain check first, before anything changes: the placed
        // buffer's top with the bytes left beside it in its sections, and
        // the new offset under the bytes left in the others.
        // (No `outside`: the offset is low enough for any section.)
        let (a, b) = (job.start.max(part.lo), job.end.min(part.hi));
        self.charge(b - a + m.overlaps[j].len());
        let others_fit = outside.is_none_or(|o| {
            let rest = o.before[a - part.lo].max(o.after[b - part.lo]);
            off.saturating_add(rest) <= self.cap
        });
        let plain =
            others_fit && (a..b).all(|s| top.saturating_add(self.total[s] - job.foot) <= self.cap);
        if !plain {
            self.conflict.fill();
            let hat = m.overlaps[j].iter().any(|&o| !self.placed[o]);
            return (Outcome::NotFound, hat);
        }
        self.placed[j] = true;
        if self.jumps() {
            self.level[j] = self.path.len().saturating_sub(1);
        }
        // A placed job's lowest offset reads as none, so that the floors'
        // scan needs no test of `placed`; restored when it is taken back.
        let own = core::mem::replace(&mut self.min_off[j], usize::MAX);
        self.solution[j] = off;
        let off_mark = self.offs.mark();
        let floor_mark = self.floors.mark();
        let affected_mark = self.affected.len();
        let mut hat = false;
        for &o in &m.overlaps[j] {
            if self.placed[o] {
                continue;
            }
            hat = true;
            if self.min_off[o] >= top {
                continue;
            }
            let a = m.jobs[o].align;
            // `a` is a power of two: a mask, not a division.
            let lowest = top.checked_add(a - 1).map_or(usize::MAX, |t| t & !(a - 1));
            self.offs.set(&mut self.min_off, o, lowest);
            self.affected.push(o);
        }
        self.charge(2 * (job.end - job.start));
        for s in job.start..job.end {
            self.floors.set(&mut self.floor, s, top);
            self.total[s] -= job.foot;
        }
        // Then the floors that the lowest offsets raise.
        let fits = self.raise_floors(part, affected_mark).and_then(|()| {
            if self.perfect {
                self.walls_filled(part, j, affected_mark)
            } else {
                Ok(())
            }
        });
        self.affected.truncate(affected_mark);
        let outcome = if fits.is_ok() {
            let mut cuts = Vec::new();
            for c in job.start..job.end.saturating_sub(1) {
                self.cuts[c] -= 1;
                if self.cuts[c] == 0 {
                    cuts.push(c + 1);
                }
            }
            let outcome = if cuts.is_empty() {
                self.dfs(part, (off, rank))
            } else {
                self.parts(part, &cuts)
            };
            for c in job.start..job.end.saturating_sub(1) {
                self.cuts[c] += 1;
            }
            outcome
        } else {
            if let (Err((y, g, edge)), true) = (fits, self.jumps()) {
                self.conflict.clear();
                self.explain_byte(y, g, edge);
            }
            Outcome::NotFound
        };
        self.floors.undo(&mut self.floor, floor_mark);
        for s in job.start..job.end {
            self.total[s] += job.foot;
        }
        self.offs.undo(&mut self.min_off, off_mark);
        self.min_off[j] = own;
        self.placed[j] = false;
        (outcome, hat)
    }
    /// Raises the floor of each section of the jobs in `affected` from
    /// `mark` on to the lowest offset of the unplaced jobs live there; the
    /// free byte no job is left for where one then overflows (the section's
    /// floor before).
    pub(super) fn raise_floors(&mut self, part: &Part, mark: usize) -> Result<(), conflict::Gap> {
        let m = self.m;
        // The sections of the jobs whose lowest offset rose, as merged runs.
        let changed = &mut self.affected[mark..];
        let mut fits = Ok(());
        let mut steps = changed.len();
        if !changed.is_empty() {
            changed.sort_unstable_by_key(|&o| m.jobs[o].start);
            let mut runs: Vec<(usize, usize)> = Vec::new();
            for &o in changed.iter() {
                let (a, b) = (m.jobs[o].start.max(part.lo), m.jobs[o].end.min(part.hi));
                match runs.last_mut() {
                    Some(run) if a <= run.1 => run.1 = run.1.max(b),
                    _ => runs.push((a, b)),
                }
            }
            'runs: for (a, b) in runs {
                for s in a..b {
                    // The lowest offset above the floor, or none: stops at
                    // the first job that can still go at the floor. The
                    // last such job found is looked at first (a hint, never
                    // undone: a placed job's reads as `usize::MAX`).
                    let floor = self.floor[s];
                    let w = self.witness[s];
                    steps += 1;
                    if self.min_off[w] <= floor {
                        continue;
                    }
                    let mut lowest = usize::MAX;
                    for &o in &m.live[s] {
                        steps += 1;
                        // (A placed job's reads as `usize::MAX`.)
                        lowest = lowest.min(self.min_off[o]);
                        if lowest <= floor {
                            self.witness[s] = o;
                            break;
                        }
                    }
                    if lowest != usize::MAX && lowest > floor {
                        self.floors.set(&mut self.floor, s, lowest);
                        if lowest.saturating_add(self.total[s]) > self.cap {
                            fits = Err((s, floor, conflict::Edge::None));
                            break 'runs;
                        }
                    }
                }
            }
        }
        self.charge(steps);
        fits
    }
}

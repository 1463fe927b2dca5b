//! The search after greedy: a depth-first search over skyline placements,
//! for a plan at or below a height `cap`.
//!
//! Time is what the phases are here: a buffer is live over a fixed interval
//! and only its offset is chosen. The search builds the plan from the
//! bottom: it keeps the *skyline*, the height already used at each time,
//! and always fills its lowest point (the leftmost where several are
//! lowest), so offsets never decrease along a branch. A buffer that covers
//! that point starts exactly there and ends inside the skyline's flat run
//! (the times on either side are filled to above it), so the candidates are
//! few. The alternative is to leave the point empty: the times up to the
//! next start in the run are raised to their lower neighbour (waste).
//! Every buffer still to place lies above the lowest point and above the
//! skyline at each of its times, so at every time the higher of the two
//! plus the bytes still to place there must stay within `cap`: a branch
//! that breaks it is cut. Buffers of equal interval, size and alignment are
//! interchangeable: only the first is tried.
//!
//! A buffer placed on the skyline sits on the highest buffer live with it,
//! so every plan found is canonical in MiniMalloc's sense (each offset 0 or
//! the end of a buffer it overlaps in time; Moffitt, ASPLOS 2023) and is
//! built in order of offset as MiniMalloc builds its plans; the skyline and
//! the cut at every time are this module's own.
//!
//! Deterministic: the search counts nodes, not time, and its order depends
//! only on the items.

/// One buffer as the search sees it: its interval in compressed time
/// (`[start, end)` over the distinct phase boundaries), its bytes (with the
/// guard) and alignment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Job {
    pub start: usize,
    pub end: usize,
    pub foot: usize,
    pub align: usize,
    /// The item this job places.
    pub item: usize,
}

/// What the search returns: the offsets it found and the nodes it used.
pub(crate) struct Found {
    pub offsets: Option<Vec<usize>>,
    pub nodes: u64,
}

/// The search's state.
pub(crate) struct Search<'j> {
    jobs: &'j [Job],
    cap: usize,
    /// Nodes left.
    budget: u64,
    /// Jobs by start time, each group in the order they are tried.
    by_start: Vec<Vec<usize>>,
    /// Height used at each compressed time.
    sky: Vec<usize>,
    /// Bytes of the unplaced jobs live at each compressed time.
    rest: Vec<usize>,
    placed: Vec<bool>,
    offsets: Vec<usize>,
    left: usize,
    /// Scratch: the lowest offset any unplaced buffer can take, per time.
    floor: Vec<usize>,
    /// Each job's highest skyline point over its times.
    base: Vec<usize>,
    /// Undo log of `base`: (job, old value).
    base_undo: Vec<(usize, usize)>,
    /// For each job, the jobs live with it at some time.
    overlaps: Vec<Vec<usize>>,
    /// The lowest point's height at the last node.
    level: usize,
}

impl<'j> Search<'j> {
    /// Looks for offsets of `jobs` over `times` compressed times, every
    /// buffer below `cap`, within `budget` nodes. `seed` 0 tries the
    /// buffers that start at a time longest first, then largest; another
    /// seed shakes that order (a restart that explores other branches first).
    pub(crate) fn run(jobs: &'j [Job], times: usize, cap: usize, budget: u64, seed: u64) -> Found {
        let mut by_start = vec![Vec::new(); times + 1];
        let mut rest = vec![0usize; times];
        for (j, job) in jobs.iter().enumerate() {
            by_start[job.start].push(j);
            for r in &mut rest[job.start..job.end] {
                *r = r.saturating_add(job.foot);
            }
        }
        if rest.iter().any(|&r| r > cap) {
            return Found {
                offsets: None,
                nodes: 0,
            };
        }
        // The longest first, then the largest: a long buffer leaves the
        // flattest skyline behind it.
        for group in &mut by_start {
            group.sort_by_key(|&j| {
                let b = &jobs[j];
                let shake = if seed == 0 {
                    0
                } else {
                    super::mix(seed, j as u64) % 3
                };
                (
                    shake,
                    core::cmp::Reverse(b.end),
                    core::cmp::Reverse(b.foot),
                    j,
                )
            });
        }
        let mut s = Search {
            jobs,
            cap,
            budget,
            by_start,
            sky: vec![0; times],
            rest,
            placed: vec![false; jobs.len()],
            offsets: vec![0; jobs.len()],
            left: jobs.len(),
            floor: vec![0; times],
            base: vec![0; jobs.len()],
            base_undo: Vec::new(),
            overlaps: jobs
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    (0..jobs.len())
                        .filter(|&j| j != i && a.start < jobs[j].end && jobs[j].start < a.end)
                        .collect()
                })
                .collect(),
            level: usize::MAX,
        };
        let found = s.dfs();
        Found {
            offsets: found.then_some(s.offsets),
            nodes: budget - s.budget,
        }
    }

    /// The lowest run of the skyline: `[a, b)` at height `y`, the leftmost
    /// of the lowest.
    fn lowest(&self) -> (usize, usize, usize) {
        let mut a = 0;
        for (t, &h) in self.sky.iter().enumerate() {
            if h < self.sky[a] {
                a = t;
            }
        }
        let y = self.sky[a];
        let b = self.sky[a..]
            .iter()
            .position(|&h| h != y)
            .map_or(self.sky.len(), |n| a + n);
        (a, b, y)
    }

    fn dfs(&mut self) -> bool {
        if self.left == 0 {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let (a, b, y) = self.lowest();
        // The cut: each buffer still to place sits at or above `y` and the
        // highest point of the skyline over its times; at each time the
        // lowest of those live there, plus the bytes still to place there,
        // must stay within `cap`. Spreading each buffer's lowest offset over
        // its times is the costly part: done where the lowest point rose
        // (a new level: what sat at the old one is settled), else only the
        // per-buffer and per-time checks.
        let fresh = y != self.level;
        self.level = y;
        if fresh {
            for t in &mut self.floor {
                *t = usize::MAX;
            }
        }
        for (j, job) in self.jobs.iter().enumerate() {
            if self.placed[j] {
                continue;
            }
            let base = self.base[j].max(y);
            if base.saturating_add(job.foot) > self.cap {
                return false;
            }
            if fresh {
                for f in &mut self.floor[job.start..job.end] {
                    *f = (*f).min(base);
                }
            }
        }
        let cut = if fresh {
            self.floor
                .iter()
                .zip(&self.rest)
                .any(|(&f, &r)| r > 0 && f.saturating_add(r) > self.cap)
        } else {
            self.sky
                .iter()
                .zip(&self.rest)
                .any(|(&s, &r)| r > 0 && s.max(y).saturating_add(r) > self.cap)
        };
        if cut {
            return false;
        }
        // Each buffer that starts at `a` and ends inside the run, once per
        // kind (interval, size, alignment).
        let mut k = 0;
        while k < self.by_start[a].len() {
            let j = self.by_start[a][k];
            k += 1;
            let job = self.jobs[j];
            if self.placed[j] || job.end > b {
                continue;
            }
            let same_as_tried = self.by_start[a][..k - 1].iter().any(|&i| {
                let o = &self.jobs[i];
                !self.placed[i] && o.end == job.end && o.foot == job.foot && o.align == job.align
            });
            if same_as_tried {
                continue;
            }
            let Some(at) = y.checked_next_multiple_of(job.align) else {
                continue;
            };
            let Some(top) = at.checked_add(job.foot).filter(|&t| t <= self.cap) else {
                continue;
            };
            let mark = self.base_undo.len();
            self.place(j, at, top);
            if self.dfs() {
                return true;
            }
            self.unplace(j, y, mark);
            self.level = usize::MAX;
            if self.budget == 0 {
                return false;
            }
        }
        // Leave the lowest point empty. Nothing can cover `[a, c)` at `y`,
        // where `c` is the next time in the run some buffer starts: raise
        // it to its left neighbour (or, at the run's end, the lower
        // neighbour), or, with no neighbour, mark it full.
        let c = (a + 1..b)
            .find(|&t| self.by_start[t].iter().any(|&j| !self.placed[j]))
            .unwrap_or(b);
        let left = if a > 0 { self.sky[a - 1] } else { usize::MAX };
        let right = if c == b && b < self.sky.len() {
            self.sky[b]
        } else {
            usize::MAX
        };
        // A buffer that starts at `a` but reaches past the run sits on the
        // highest point of its times: raise no higher than the lowest such.
        let reach = self.by_start[a]
            .iter()
            .filter(|&&j| !self.placed[j])
            .map(|&j| {
                let job = &self.jobs[j];
                self.sky[a..job.end].iter().copied().max().unwrap_or(y)
            })
            .filter(|&h| h > y)
            .min()
            .unwrap_or(usize::MAX);
        let to = match left.min(right).min(reach) {
            usize::MAX if (a..c).any(|t| self.rest[t] > 0) => return false,
            usize::MAX => self.cap,
            to => to,
        };
        if (a..c).any(|t| to.saturating_add(self.rest[t]) > self.cap) {
            return false;
        }
        for h in &mut self.sky[a..c] {
            *h = to;
        }
        let mark = self.base_undo.len();
        for (i, o) in self.jobs.iter().enumerate() {
            if !self.placed[i] && o.start < c && a < o.end && self.base[i] < to {
                self.base_undo.push((i, self.base[i]));
                self.base[i] = to;
            }
        }
        if self.dfs() {
            return true;
        }
        self.restore(mark);
        self.level = usize::MAX;
        for h in &mut self.sky[a..c] {
            *h = y;
        }
        false
    }

    fn place(&mut self, j: usize, at: usize, top: usize) {
        let job = self.jobs[j];
        self.placed[j] = true;
        self.offsets[j] = at;
        self.left -= 1;
        for t in job.start..job.end {
            self.sky[t] = top;
            self.rest[t] -= job.foot;
        }
        for k in 0..self.overlaps[j].len() {
            let o = self.overlaps[j][k];
            if !self.placed[o] && self.base[o] < top {
                self.base_undo.push((o, self.base[o]));
                self.base[o] = top;
            }
        }
    }

    fn unplace(&mut self, j: usize, y: usize, mark: usize) {
        let job = self.jobs[j];
        self.placed[j] = false;
        self.left += 1;
        for t in job.start..job.end {
            self.sky[t] = y;
            self.rest[t] += job.foot;
        }
        self.restore(mark);
    }

    /// Undoes the `base` changes since `mark`.
    fn restore(&mut self, mark: usize) {
        while self.base_undo.len() > mark {
            if let Some((o, old)) = self.base_undo.pop() {
                self.base[o] = old;
            }
        }
    }
}

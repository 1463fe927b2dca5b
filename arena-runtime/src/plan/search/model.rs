//! The search's model of a problem: its jobs, and what does not change
//! between searches of it (who meets whom, who is live in each section, the
//! bytes live there, the twins, the base).

/// One buffer as the search sees it: its sections (`[start, end)`), its
/// bytes (with the guard) and alignment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Job {
    pub start: usize,
    pub end: usize,
    pub foot: usize,
    pub align: usize,
    /// Its phases, for the rank.
    pub width: usize,
    /// The item this job places.
    pub item: usize,
}

/// What does not change between searches of one problem.
pub(crate) struct Model<'j> {
    pub(super) jobs: &'j [Job],
    pub(super) sections: usize,
    /// For each job, the jobs live with it in some section.
    pub(super) overlaps: Vec<Vec<usize>>,
    /// For each section, the jobs live in it.
    pub(super) live: Vec<Vec<usize>>,
    /// For each section, the jobs that start in it (in the order of
    /// `live`).
    pub(super) starting: Vec<Vec<usize>>,
    /// For each section, the bytes live in it.
    pub(super) load: Vec<usize>,
    /// For each boundary `s` (between sections `s` and `s + 1`), the jobs
    /// that cross it.
    pub(super) cuts: Vec<usize>,
    /// For each job, the first job of equal interval, size and alignment.
    pub(super) twin: Vec<usize>,
    /// For each section, the bytes already taken at its bottom by buffers
    /// outside the problem (a neighbourhood re-planned above the rest of a
    /// plan): no job lies below it there. Zero for a whole problem.
    pub(super) base: Vec<usize>,
    /// Each job's lowest offset before any is placed: the highest base
    /// under it, aligned.
    pub(super) start_off: Vec<usize>,
    /// Each job's block at its start and at its end ([`super::sides`]),
    /// where every section is as full as every other (the corner searches
    /// run only there); else empty.
    sides: Vec<[u32; 2]>,
}

impl<'j> Model<'j> {
    /// The model of `jobs` over `sections`, each section's bottom taken up
    /// to `base` (empty: nothing taken).
    pub(crate) fn new(jobs: &'j [Job], sections: usize, base: Vec<usize>) -> Self {
        let base = if base.is_empty() {
            vec![0; sections]
        } else {
            base
        };
        let start_off = jobs
            .iter()
            .map(|j| {
                let under = base[j.start..j.end].iter().copied().max().unwrap_or(0);
                under
                    .checked_next_multiple_of(j.align)
                    .unwrap_or(usize::MAX)
            })
            .collect();
        let mut live = vec![Vec::new(); sections];
        let mut starting = vec![Vec::new(); sections];
        let load =
            super::super::time::load(sections, jobs.iter().map(|j| (j.start, j.end, j.foot)));
        let mut cuts = vec![0usize; sections];
        for (j, job) in jobs.iter().enumerate() {
            for l in &mut live[job.start..job.end] {
                l.push(j);
            }
            if job.start < job.end {
                starting[job.start].push(j);
            }
            for c in &mut cuts[job.start..job.end.saturating_sub(1)] {
                *c += 1;
            }
        }
        let mut overlaps: Vec<Vec<usize>> = vec![Vec::new(); jobs.len()];
        pairs(jobs, |a, j| {
            overlaps[a].push(j);
            overlaps[j].push(a);
        });
        for o in &mut overlaps {
            o.sort_unstable();
        }
        // Each job's twin: the first of its kind, by a sort on the kind.
        let kind = |j: usize| {
            let a = &jobs[j];
            (a.start, a.end, a.foot, a.align, j)
        };
        let mut by_kind: Vec<usize> = (0..jobs.len()).collect();
        by_kind.sort_unstable_by_key(|&j| kind(j));
        let mut twin: Vec<usize> = (0..jobs.len()).collect();
        for w in 1..by_kind.len() {
            let (prev, j) = (by_kind[w - 1], by_kind[w]);
            let (a, b) = (kind(prev), kind(j));
            if (a.0, a.1, a.2, a.3) == (b.0, b.1, b.2, b.3) {
                twin[j] = twin[prev];
            }
        }
        let mut full = load.iter().zip(&base).map(|(&l, &b)| l.checked_add(b));
        let first = full.next();
        let even = full.all(|f| Some(f) == first);
        Model {
            sides: if even {
                super::sides::of(jobs.iter().map(|j| (j.start, j.end, j.foot)), sections)
            } else {
                Vec::new()
            },
            jobs,
            sections,
            overlaps,
            live,
            starting,
            load,
            cuts,
            twin,
            base,
            start_off,
        }
    }

    /// Job `j`'s block at its end (`end`) or at its start
    /// ([`super::sides`]), or [`super::sides::NONE`].
    pub(super) fn block(&self, j: usize, end: bool) -> u32 {
        self.sides
            .get(j)
            .map_or(super::sides::NONE, |s| s[usize::from(end)])
    }

    /// Whether every section holds exactly `cap` bytes (with its base): a
    /// plan at `cap` leaves no byte free anywhere.
    pub(crate) fn tight(&self, cap: usize) -> bool {
        self.load
            .iter()
            .zip(&self.base)
            .all(|(&l, &b)| l.checked_add(b) == Some(cap))
    }
}

/// Every pair of jobs live in a common section, by a sweep in order of
/// start (each job meets the jobs still live when it starts): `each(a, j)`
/// for each, `a` the one that started first. The number of pairs, and of
/// steps taken beside them.
pub(crate) fn pairs(jobs: &[Job], mut each: impl FnMut(usize, usize)) -> (usize, usize) {
    let mut by_start: Vec<usize> = (0..jobs.len()).collect();
    by_start.sort_by_key(|&j| (jobs[j].start, j));
    let mut active: Vec<usize> = Vec::new();
    let (mut count, mut steps) = (0usize, 0usize);
    for &j in &by_start {
        let start = jobs[j].start;
        steps += active.len() + 1;
        active.retain(|&a| jobs[a].end > start);
        count += active.len();
        for &a in &active {
            each(a, j);
        }
        active.push(j);
    }
    (count, steps)
}

/// The most pairs of jobs that meet a neighbourhood re-planned by greedy
/// may hold (each kept twice: 64 MiB).
pub(crate) const MOST_PAIRS: usize = 4 << 20;

/// How many pairs of jobs meet (share a section), counted in `O(n log n)`
/// without listing them: each job meets the jobs that start before it (in
/// [`pairs`]' order) and have not ended by its start, and a job that has
/// ended by then started before it.
pub(crate) fn count_pairs(jobs: &[Job]) -> usize {
    let mut starts: Vec<usize> = jobs.iter().map(|j| j.start).collect();
    let mut ends: Vec<usize> = jobs.iter().map(|j| j.end).collect();
    starts.sort_unstable();
    ends.sort_unstable();
    starts
        .iter()
        .enumerate()
        .map(|(before, &s)| before - ends.partition_point(|&e| e <= s))
        .sum()
}

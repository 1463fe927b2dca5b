//! The chains of a [`ClockProblem`]: buffers whose events are totally
//! ordered, each one an interval problem (step 1 of the method in
//! [`super`]).

use super::{ClockProblem, before, sum};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// At most this many chains are asked to take a buffer before it opens a
/// chain of its own (the work a buffer is bounded; workers are few).
const CHAINS_ASKED: usize = 64;

/// At most this many passes over the buffers once every event is in.
const PASSES: usize = 8;

/// At most this many sequences are asked to take a buffer of a chain of
/// its own before it starts one more (the nearest in size first).
const SEQUENCES_ASKED: usize = 1_024;

/// The steps (a sequence asked, a component compared) that joining the
/// chains of one buffer into sequences may take in all.
const SEQUENCE_STEPS: usize = 1 << 28;

impl ClockProblem {
    /// The chains: every buffer in one, each chain's events totally
    /// ordered. First the buffers that share a clock joined
    /// ([`ClockProblem::shared_clocks`]); then the chains, smallest first,
    /// empty into the others where every one of their buffers has another
    /// chain that takes it (a chain cut off from its worker's), else stay
    /// whole; then, in passes until none moves, each buffer in turn (by
    /// its `upper`: its largest component, then its sum) takes, of the
    /// chains that take it, the one that holds more of its two clocks (the
    /// buffers of one worker meet at its boundaries), then its own, then
    /// the one whose events lie closest below its own. Last, the chains
    /// of one buffer joined into sequences ([`ClockProblem::sequences`]).
    pub(super) fn chains(&self) -> Vec<Vec<usize>> {
        let clocks = |b: usize| (&self.buffers[b].lower[..], &self.buffers[b].upper[..]);
        let mut order: Vec<usize> = (0..self.buffers.len()).collect();
        order.sort_by_key(|&b| {
            let (lower, upper) = clocks(b);
            (upper.iter().max().copied(), sum(upper), sum(lower), b)
        });
        // The chain for `b`, not `not` nor one emptied; `own` kept where no
        // other holds more of its clocks.
        let best =
            |chains: &[Chain<'_>], live: &BTreeSet<usize>, b: usize, not: usize, own: usize| {
                let (lower, upper) = clocks(b);
                live.iter()
                    .copied()
                    .filter(|&k| k != not && !chains[k].events.is_empty())
                    .take(CHAINS_ASKED)
                    .filter(|&k| chains[k].takes(lower) && chains[k].takes(upper))
                    .max_by_key(|&k| {
                        let c = &chains[k];
                        (
                            usize::from(c.holds(lower)) + usize::from(c.holds(upper)),
                            k == own,
                            c.below(lower) + c.below(upper),
                            Reverse(k),
                        )
                    })
            };
        let mut chains = self.shared_clocks();
        // The chains not emptied, for `best` to ask.
        let mut live: BTreeSet<usize> = (0..chains.len()).collect();
        let mut by_size: Vec<usize> = (0..chains.len()).collect();
        by_size.sort_by_key(|&k| (chains[k].buffers.len(), k));
        // A chain empties into the others only whole: where one of its
        // buffers has no other chain, every one moved goes back.
        for k in by_size {
            let mine = std::mem::take(&mut chains[k].buffers);
            let mut moved = Vec::new();
            for &b in &mine {
                let (lower, upper) = clocks(b);
                chains[k].remove(lower, upper);
                let Some(to) = best(&chains, &live, b, k, usize::MAX) else {
                    chains[k].add(b, lower, upper);
                    break;
                };
                chains[to].add(b, lower, upper);
                moved.push((b, to));
            }
            if moved.len() == mine.len() {
                live.remove(&k);
            } else {
                for (b, to) in moved {
                    let (lower, upper) = clocks(b);
                    chains[to].remove(lower, upper);
                    chains[to].buffers.retain(|&x| x != b);
                }
                chains[k] = Chain::default();
                for &b in &mine {
                    let (lower, upper) = clocks(b);
                    chains[k].add(b, lower, upper);
                }
            }
        }
        // Once every event is in, each buffer (in the same order) takes the
        // chain that suits it best now, its own included: a buffer that
        // came first at a boundary of its worker meets the events of those
        // that start there only now.
        let mut of = vec![0; self.buffers.len()];
        for (k, c) in chains.iter_mut().enumerate() {
            for b in std::mem::take(&mut c.buffers) {
                of[b] = k;
            }
        }
        for _ in 0..PASSES {
            let mut moved = false;
            for &b in &order {
                let (lower, upper) = clocks(b);
                let was = of[b];
                chains[was].remove(lower, upper);
                of[b] = best(&chains, &live, b, usize::MAX, was).unwrap_or(was);
                chains[of[b]].add(b, lower, upper);
                moved |= of[b] != was;
            }
            if !moved {
                break;
            }
        }
        let mut members = vec![Vec::new(); chains.len()];
        for (b, &k) in of.iter().enumerate() {
            members[k].push(b);
        }
        members.retain(|c| !c.is_empty());
        self.sequences(&mut members);
        members
    }

    /// The chains of one buffer (clocks no other buffer shares, as where
    /// every clock is drawn at random: stacked apart, they would be as high
    /// as their bytes) joined into sequences, each buffer after the last
    /// one's `upper` in every component: a greedy cover by chains. Each, by
    /// the sum of its `lower`, follows the sequence whose largest buffer is
    /// nearest its own size of those it can follow (asked nearest first),
    /// else starts one; a sequence is as high as its largest buffer. Past
    /// [`SEQUENCE_STEPS`] (a sequence asked, a component compared), the
    /// rest stay alone.
    fn sequences(&self, members: &mut Vec<Vec<usize>>) {
        let mut alone: Vec<usize> = members
            .iter()
            .filter(|c| c.len() == 1)
            .map(|c| c[0])
            .collect();
        if alone.len() < 2 {
            return;
        }
        members.retain(|c| c.len() > 1);
        alone.sort_by_key(|&b| (sum(&self.buffers[b].lower), b));
        // Each sequence's buffers and the last one's `upper`; the
        // sequences by their largest size.
        let mut seqs: Vec<(Vec<usize>, &[u64])> = Vec::new();
        let mut by_size: BTreeSet<(usize, usize)> = BTreeSet::new();
        let step = 1 + self.width();
        let mut steps = 0usize;
        // Each component's least `upper` a sequence has ended at: a buffer
        // whose `lower` is below it in one follows none (where every pair
        // meets, none is asked).
        let mut least = vec![u64::MAX; self.width()];
        for b in alone {
            let buffer = &self.buffers[b];
            let size = buffer.size;
            steps += step;
            let follows = before(&least, &buffer.lower);
            for (l, &u) in least.iter_mut().zip(&buffer.upper) {
                *l = (*l).min(u);
            }
            // The sequences below and above the size, the nearer first.
            let mut down = by_size.range(..(size, 0)).rev().peekable();
            let mut up = by_size.range((size, 0)..).peekable();
            let mut to = None;
            for _ in 0..if follows { SEQUENCES_ASKED } else { 0 } {
                if steps > SEQUENCE_STEPS {
                    break;
                }
                let next = match (down.peek(), up.peek()) {
                    (Some(&&(d, _)), Some(&&(u, _))) if size - d < u - size => down.next(),
                    (_, Some(_)) => up.next(),
                    (Some(_), None) => down.next(),
                    (None, None) => break,
                };
                let Some(&(most, k)) = next else { break };
                steps += step;
                if before(seqs[k].1, &buffer.lower) {
                    to = Some((most, k));
                    break;
                }
            }
            match to {
                Some((most, k)) => {
                    seqs[k].0.push(b);
                    seqs[k].1 = &buffer.upper;
                    if size > most {
                        by_size.remove(&(most, k));
                        by_size.insert((size, k));
                    }
                }
                None => {
                    by_size.insert((size, seqs.len()));
                    seqs.push((vec![b], &buffer.upper));
                }
            }
        }
        members.extend(seqs.into_iter().map(|(buffers, _)| buffers));
    }

    /// The first chains: each buffer its own, then the chains of buffers
    /// that share a clock (one worker's buffers meet at its boundaries)
    /// joined wherever every event stays ordered, the smaller chain into
    /// the larger. The clocks are taken latest first (by the largest
    /// component, then the sum): the earliest ones, the zero clock above
    /// all, are shared by the first buffers of every worker, and a chain
    /// joins them only once it holds enough events to show whose it is.
    fn shared_clocks(&self) -> Vec<Chain<'_>> {
        let n = self.buffers.len();
        let mut chains: Vec<Chain<'_>> = (0..n)
            .map(|b| {
                let mut c = Chain::default();
                c.add(b, &self.buffers[b].lower, &self.buffers[b].upper);
                c
            })
            .collect();
        let mut sharing: HashMap<&[u64], Vec<usize>> = HashMap::new();
        for (k, b) in self.buffers.iter().enumerate() {
            for c in [&b.lower[..], &b.upper[..]] {
                sharing.entry(c).or_default().push(k);
            }
        }
        let mut groups: Vec<(&[u64], Vec<usize>)> =
            sharing.into_iter().filter(|(_, g)| g.len() > 1).collect();
        groups.sort_unstable_by_key(|&(c, _)| Reverse((c.iter().max().copied(), sum(c), c)));
        let mut root: Vec<usize> = (0..n).collect();
        let find = |root: &mut Vec<usize>, mut x: usize| {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        };
        // Each buffer of a group joins the first of the group's chains so
        // far that takes its chain whole, else starts one more.
        let mut roots: Vec<usize> = Vec::new();
        for (_, group) in groups {
            roots.clear();
            for &b in &group {
                let y = find(&mut root, b);
                roots.retain(|&r| root[r] == r);
                if roots.contains(&y) {
                    continue;
                }
                let joined = roots.iter().take(CHAINS_ASKED).copied().find(|&x| {
                    let (big, small) = larger_first(&chains, x, y);
                    chains[small]
                        .events
                        .values()
                        .all(|&(e, _)| chains[big].takes(e))
                });
                match joined {
                    Some(x) => {
                        let (big, small) = larger_first(&chains, x, y);
                        let moved = std::mem::take(&mut chains[small]);
                        chains[big].join(moved);
                        root[small] = big;
                        if !roots.contains(&big) && roots.len() < CHAINS_ASKED {
                            roots.push(big);
                        }
                    }
                    None if roots.len() < CHAINS_ASKED => roots.push(y),
                    None => {}
                }
            }
        }
        chains.retain(|c| !c.buffers.is_empty());
        chains
    }
}

/// Chains `x` and `y`, the one with more buffers first (`x` on ties).
fn larger_first(chains: &[Chain<'_>], x: usize, y: usize) -> (usize, usize) {
    if chains[x].buffers.len() >= chains[y].buffers.len() {
        (x, y)
    } else {
        (y, x)
    }
}

/// A chain of [`ClockProblem::chains`]: its buffers, and their events by
/// sum (one clock a sum: two distinct clocks of a chain are ordered, so
/// their sums differ), each with how many of its buffers have it.
#[derive(Default)]
struct Chain<'p> {
    events: BTreeMap<u128, (&'p [u64], usize)>,
    buffers: Vec<usize>,
}

impl<'p> Chain<'p> {
    /// Whether clock `c` is ordered with every event of the chain: with the
    /// events just below and just above it by sum (the rest follow).
    fn takes(&self, c: &[u64]) -> bool {
        let s = sum(c);
        let below = self
            .events
            .range(..=s)
            .next_back()
            .is_none_or(|(&t, &(e, _))| if t == s { e == c } else { before(e, c) });
        below
            && self
                .events
                .range(s..)
                .next()
                .is_none_or(|(_, &(e, _))| before(c, e))
    }

    /// Whether clock `c` is one of the chain's events.
    fn holds(&self, c: &[u64]) -> bool {
        self.events.get(&sum(c)).is_some_and(|&(e, _)| e == c)
    }

    /// The sum of the chain's latest event at or below `c`, plus one (0
    /// where there is none): how closely the chain runs below it.
    fn below(&self, c: &[u64]) -> u128 {
        self.events
            .range(..=sum(c))
            .next_back()
            .map_or(0, |(&t, _)| t + 1)
    }

    fn add(&mut self, b: usize, lower: &'p [u64], upper: &'p [u64]) {
        for c in [lower, upper] {
            self.events.entry(sum(c)).or_insert((c, 0)).1 += 1;
        }
        self.buffers.push(b);
    }

    /// Takes in every buffer and event of `other`.
    fn join(&mut self, other: Chain<'p>) {
        for (t, (e, k)) in other.events {
            self.events.entry(t).or_insert((e, 0)).1 += k;
        }
        self.buffers.extend(other.buffers);
    }

    /// Takes a buffer's two events out (its index is the caller's).
    fn remove(&mut self, lower: &[u64], upper: &[u64]) {
        for c in [lower, upper] {
            let s = sum(c);
            if let Some(e) = self.events.get_mut(&s) {
                e.1 -= 1;
                if e.1 == 0 {
                    self.events.remove(&s);
                }
            }
        }
    }
}

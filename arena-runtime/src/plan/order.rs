//! The orders the planner places buffers in, one type for all of them:
//! greedy's ([`super::greedy`]), the search's ranks ([`super::search`]) and
//! the neighbourhoods' greedy ([`super::lns`]). An order is up to three
//! keys, each a measure of a buffer taken largest or smallest first; ties
//! fall to the buffers' own order.

use super::base::mix;

/// What an order reads of a buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts {
    /// Its bytes (with the guard).
    pub bytes: usize,
    /// How long it lives, in the caller's unit of time (phases or
    /// sections).
    pub life: usize,
    /// The most bytes live in one of its sections, for the search's ranks
    /// (0 where the caller has no such count).
    pub busy: usize,
    /// Its index among the buffers ordered: what the hashed keys draw from.
    pub index: usize,
}

/// A measure of a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Measure {
    Bytes,
    Life,
    /// Bytes times life.
    Area,
    Busy,
    /// One of `groups` drawn from a hash of `seed` and the buffer's index:
    /// an order shaken by a seed.
    Hash {
        seed: u64,
        groups: u64,
    },
}

impl Measure {
    /// The measure of `f`.
    #[inline(always)]
    pub(crate) fn of(self, f: &Facts) -> u128 {
        match self {
            Measure::Bytes => f.bytes as u128,
            Measure::Life => f.life as u128,
            Measure::Area => f.life as u128 * f.bytes as u128,
            Measure::Busy => f.busy as u128,
            Measure::Hash { seed, groups } => (mix(seed, f.index as u64) % groups) as u128,
        }
    }
}

/// One key of an order: a measure and which end comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Most(Measure),
    Least(Measure),
}

impl Key {
    /// The key of `f` as a number to sort smallest first.
    #[inline(always)]
    fn ascending(self, f: &Facts) -> u128 {
        match self {
            Key::Most(m) => !m.of(f),
            Key::Least(m) => m.of(f),
        }
    }
}

/// An order: its keys in turn, then the buffers' own order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Order {
    keys: [Key; 3],
    len: usize,
}

use Key::{Least, Most};
use Measure::{Area, Busy, Bytes, Life};

impl Order {
    /// An order by `keys` (one to three).
    pub(crate) const fn new(keys: &[Key]) -> Order {
        assert!(!keys.is_empty() && keys.len() <= 3);
        let mut all = [keys[0]; 3];
        let mut k = 1;
        while k < keys.len() {
            all[k] = keys[k];
            k += 1;
        }
        Order {
            keys: all,
            len: keys.len(),
        }
    }

    /// Its keys.
    pub(crate) fn keys(&self) -> &[Key] {
        &self.keys[..self.len]
    }

    /// The sort key of `f` under this order, ascending.
    pub(crate) fn sort_key(&self, f: &Facts) -> ([u128; 3], usize) {
        let mut key = [0; 3];
        for (slot, k) in key.iter_mut().zip(self.keys()) {
            *slot = k.ascending(f);
        }
        (key, f.index)
    }

    /// `facts` sorted by this order: the buffers' indices.
    pub(crate) fn sort(&self, facts: impl IntoIterator<Item = Facts>) -> Vec<usize> {
        let mut keyed: Vec<([u128; 3], usize)> =
            facts.into_iter().map(|f| self.sort_key(&f)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, index)| index).collect()
    }

    // Greedy's orders (each ends with the bytes, largest first: greedy packs
    // the first key into a small field above them).

    /// The largest first.
    pub(crate) const SIZE: Order = Order::new(&[Most(Bytes)]);
    /// The longest-lived first, then the largest.
    pub(crate) const LIFETIME: Order = Order::new(&[Most(Life), Most(Bytes)]);
    /// Size order shaken: each buffer in one of four groups from a hash of
    /// the seed and its index, the groups in turn, the largest first within
    /// a group.
    pub(crate) const fn shuffled(seed: u64) -> Order {
        Order::new(&[Least(Measure::Hash { seed, groups: 4 }), Most(Bytes)])
    }

    // The neighbourhoods' orders.

    /// The largest first, then the longest-lived.
    pub(crate) const BYTES_LIFE: Order = Order::new(&[Most(Bytes), Most(Life)]);
    /// The most bytes times life first, then the largest.
    pub(crate) const AREA_BYTES: Order = Order::new(&[Most(Area), Most(Bytes)]);
    /// The longest-lived first, then the largest.
    pub(crate) const LIFE_BYTES: Order = Order::LIFETIME;
    /// Four groups from a hash of the seed, the last group first, then the
    /// largest.
    pub(crate) const fn grouped(seed: u64) -> Order {
        Order::new(&[Most(Measure::Hash { seed, groups: 4 }), Most(Bytes)])
    }

    // The search's ranks: W life, A area, T busy.

    /// W, A, T.
    pub(crate) const WAT: Order = Order::new(&[Most(Life), Most(Area), Most(Busy)]);
    /// T, A, W.
    pub(crate) const TAW: Order = Order::new(&[Most(Busy), Most(Area), Most(Life)]);
    /// T, W, A.
    pub(crate) const TWA: Order = Order::new(&[Most(Busy), Most(Life), Most(Area)]);
    /// A shuffled rank for the corner search's short runs: a draw below
    /// 1,000,003 from a hash of the seed, then W and A.
    pub(crate) const fn drawn(seed: u64) -> Order {
        let draw = Measure::Hash {
            seed,
            groups: 1_000_003,
        };
        Order::new(&[Most(draw), Most(Life), Most(Area)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(bytes: usize, life: usize, busy: usize, index: usize) -> Facts {
        Facts {
            bytes,
            life,
            busy,
            index,
        }
    }

    #[test]
    fn keys_in_turn_then_index() {
        let all = [
            facts(10, 1, 5, 0),
            facts(30, 1, 5, 1),
            facts(30, 4, 0, 2),
            facts(10, 9, 9, 3),
            facts(30, 1, 5, 4),
        ];
        assert_eq!(Order::SIZE.sort(all), [1, 2, 4, 0, 3]);
        assert_eq!(Order::LIFETIME.sort(all), [3, 2, 1, 4, 0]);
        assert_eq!(Order::BYTES_LIFE.sort(all), [2, 1, 4, 3, 0]);
        // Areas 10, 30, 120, 90, 30.
        assert_eq!(Order::AREA_BYTES.sort(all), [2, 3, 1, 4, 0]);
        assert_eq!(Order::TAW.sort(all), [3, 1, 4, 0, 2]);
    }

    #[test]
    fn least_first_reverses_a_key_only() {
        let all = [facts(1, 0, 0, 0), facts(2, 0, 0, 1), facts(2, 0, 0, 2)];
        assert_eq!(Order::new(&[Least(Bytes)]).sort(all), [0, 1, 2]);
        assert_eq!(Order::new(&[Most(Bytes)]).sort(all), [1, 2, 0]);
    }

    #[test]
    fn hashed_groups_are_the_seeds_and_in_range() {
        let all: Vec<Facts> = (0..64).map(|i| facts(1, 1, 0, i)).collect();
        let a = Order::shuffled(7).sort(all.iter().copied());
        assert_eq!(a, Order::shuffled(7).sort(all.iter().copied()));
        assert_ne!(a, Order::shuffled(8).sort(all.iter().copied()));
        for f in &all {
            assert!(Measure::Hash { seed: 3, groups: 4 }.of(f) < 4);
        }
    }
}

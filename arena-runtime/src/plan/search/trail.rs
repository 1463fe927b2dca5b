//! The search's undo trail: every write to its state that a node makes is
//! recorded with the old value, and taken back to a mark when the node
//! returns.

/// A log of writes to slices of `usize` (the lowest offsets, the floors,
/// the bars): each entry the slot written and its old value.
#[derive(Debug, Default)]
pub(super) struct Trail(Vec<(usize, usize)>);

impl Trail {
    /// Where the log stands: what [`Trail::undo`] returns to.
    pub(super) fn mark(&self) -> usize {
        self.0.len()
    }

    /// Writes `value` to `slots[at]`, recording the old value.
    pub(super) fn set(&mut self, slots: &mut [usize], at: usize, value: usize) {
        self.0.push((at, core::mem::replace(&mut slots[at], value)));
    }

    /// Takes back every write since `mark`, the latest first.
    pub(super) fn undo(&mut self, slots: &mut [usize], mark: usize) {
        for (at, old) in self.0.drain(mark..).rev() {
            slots[at] = old;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Trail;

    #[test]
    fn undo_restores_in_reverse_to_the_mark() {
        let mut slots = vec![0, 1, 2];
        let mut trail = Trail::default();
        trail.set(&mut slots, 0, 10);
        let mark = trail.mark();
        trail.set(&mut slots, 1, 11);
        // The same slot twice: the first old value must win.
        trail.set(&mut slots, 1, 21);
        trail.set(&mut slots, 2, 12);
        assert_eq!(slots, [10, 21, 12]);
        trail.undo(&mut slots, mark);
        assert_eq!(slots, [10, 1, 2]);
        assert_eq!(trail.mark(), mark);
        trail.undo(&mut slots, 0);
        assert_eq!(slots, [0, 1, 2]);
    }
}

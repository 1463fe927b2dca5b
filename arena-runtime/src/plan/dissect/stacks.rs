//! The last stack: once nothing else joins, two tiles of one span
//! stacked, and which span ([`Spans`]: the first to have come to two
//! where [`Board::stack_first`], else one of the fewest tiles alive).

use std::cmp::Reverse;

use super::super::base::log_steps;
use super::board::{Board, Spans};

impl Board {
    /// Whether two tiles of one span are stacked before the side-by-side
    /// joins left for last, and sums are not looked for (nor
    /// [`Board::changed`] kept).
    pub(super) fn stack_first(&self) -> bool {
        matches!(self.spans, Spans::Crowded(_))
    }

    /// Puts in [`Spans::Fewest`] the spans of `pieces` just joined and of
    /// the `span` they made, each once, that have two tiles alive or more
    /// (their look-ups counted with the pieces' and the new tile's).
    pub(super) fn recount(&mut self, pieces: &[(usize, usize)], span: (usize, usize)) {
        let spans = pieces.iter().map(|&(p, _)| self.tiles[p].rect.span());
        for (k, span) in spans.chain([span]).enumerate() {
            let seen = pieces[..k.min(pieces.len())]
                .iter()
                .any(|&(p, _)| self.tiles[p].rect.span() == span);
            let alive = self.by_window.get(&span).map_or(0, |g| g.alive);
            self.steps += k as u64;
            if let Spans::Fewest { heap, counted } = &mut self.spans
                && !seen
                && alive >= 2
            {
                *counted += 1;
                heap.push(Reverse((alive, *counted, span)));
            }
        }
    }

    /// Stacks the first two tiles of a span that has two or more: where
    /// [`Board::stack_first`], the first span to have come to two, else
    /// one of the fewest tiles alive. False where none has.
    pub(super) fn stack(&mut self) -> bool {
        if !self.stack_first() {
            return self.stack_fewest();
        }
        while let Spans::Crowded(crowded) = &mut self.spans
            && let Some(span) = crowded.pop_front()
        {
            let group = self
                .by_window
                .get_mut(&span)
                .expect("a crowded span has a group");
            group.listed = false;
            if self.stack_two(span) {
                return true;
            }
        }
        false
    }

    /// Stacks the first two tiles alive of a span of the fewest tiles
    /// alive (two or more; of as many, the first to have come to that
    /// count). Two alone of a span are mostly the pieces of one cut in
    /// bytes; of three or more, the first two are as often the pieces of
    /// two cuts, whose stack leaves a dissection no rule rebuilds
    /// (BENCHMARKS.md, stop 69). False where no span has two.
    fn stack_fewest(&mut self) -> bool {
        while let Spans::Fewest { heap, .. } = &mut self.spans
            && let Some(Reverse((count, _, span))) = heap.pop()
        {
            self.steps += 1 + log_steps(heap.len() + 1);
            let current = self.by_window.get(&span).is_some_and(|g| g.alive == count);
            if current && self.stack_two(span) {
                return true;
            }
        }
        false
    }

    /// Stacks the first two tiles alive of `span`, if it has two (its
    /// tiles looked at counted).
    fn stack_two(&mut self, span: (usize, usize)) -> bool {
        let Some(group) = self.by_window.get(&span) else {
            return false;
        };
        self.steps += group.tiles.len() as u64;
        let mut alive = group.tiles.iter().copied().filter(|&u| self.tiles[u].alive);
        let (Some(u), Some(v)) = (alive.next(), alive.next()) else {
            return false;
        };
        let (hu, hv) = (self.tiles[u].rect.height, self.tiles[v].rect.height);
        let width = self.tiles[u].rect.width;
        self.add(span.0, span.1, hu + hv, width, &[(u, 0), (v, hu)]);
        true
    }
}

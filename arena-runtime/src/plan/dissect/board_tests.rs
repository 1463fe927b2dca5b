//! The board's lookups and joins on a few tiles: what a pair looks up,
//! when a join side by side waits, and the spans a board keeps.

use super::*;

#[test]
fn a_pair_looks_up_the_heights_beside_once_a_tile_of_its_span() {
    // 60 tiles over [1, 2), of heights 1..=60, and 60 beside them
    // over [0, 1), of heights 1,000 and up: no two of the span sum
    // to a height beside.
    let mut board = Board::new(121, 3, u64::MAX, false);
    for h in 1..=60 {
        board.add(1, 2, h, 1, &[]);
    }
    for h in 1_000..1_060 {
        board.add(0, 1, h, 1, &[]);
    }
    let before = board.steps;
    assert!(!board.pair(0));
    // One step for the span, two for each of its tiles (it walked
    // the 60 beside for each: 3,601 steps).
    assert_eq!(board.steps - before, 121);
    // A tile of the sum 1 + 60 beside, after the span: they stack.
    board.add(2, 3, 61, 1, &[]);
    assert!(board.pair(0));
    let joined = board.tiles.last().expect("the pair's tile");
    assert_eq!(
        (joined.rect.start, joined.rect.end, joined.rect.height),
        (1, 2, 61)
    );
    assert_eq!(&board.pieces[joined.from..joined.to], [(0, 0), (59, 1)]);
}

#[test]
fn a_join_side_by_side_at_once_waits_where_others_of_its_height_meet() {
    // A tile of [1, 2) and 1 byte, a tile of [0, 2) (the rectangle
    // the join makes would stack on it) and one or two of [0, 1) and
    // 1 byte ending where the first starts.
    for enders in [1, 2] {
        let mut board = Board::new(4, 2, u64::MAX, false);
        board.add(1, 2, 1, 1, &[]);
        board.add(0, 2, 3, 2, &[]);
        for _ in 0..enders {
            board.add(0, 1, 1, 1, &[]);
        }
        // Alone, they join at once; with another of the height
        // ending there, only once nothing else joins.
        assert_eq!(board.side_by_side(0, true), enders == 1);
        if enders == 2 {
            assert!(board.side_by_side(0, false));
        }
        let joined = board.tiles.last().expect("the join's tile");
        assert_eq!(
            (joined.rect.start, joined.rect.end, joined.rect.height),
            (0, 2, 1)
        );
    }
}

#[test]
fn a_join_side_by_side_at_once_on_a_height_beside_waits_where_many_meet() {
    // A tile of [1, 2) and one of [2, 3), both 1 byte high (the only
    // ones of that height to end and start at 2), a tile of 1 byte
    // over [0, 1) beside the span [1, 3) they would make, 15 more
    // pieces of 1 byte over [3, 4) (18 of that height in all, or 15
    // with 12), and 4 tiles of other heights ending at 2 and 4
    // starting there (10 meeting there in all, or 2 with none); on a
    // board for 5,120 pieces, 18 of a height are not many (one in 256
    // is 20).
    let cases = [
        (4, 15, 24, false),
        (4, 12, 24, true),
        (0, 15, 24, true),
        (4, 15, 5_120, true),
    ];
    for (others, more, jobs, joins) in cases {
        let mut board = Board::new(jobs, 4, u64::MAX, false);
        board.add(1, 2, 1, 1, &[]);
        board.add(2, 3, 1, 1, &[]);
        board.add(0, 1, 1, 1, &[]);
        for _ in 0..more {
            board.add(3, 4, 1, 1, &[]);
        }
        for h in 2..2 + others {
            board.add(0, 2, h, 2, &[]);
            board.add(2, 4, h, 2, &[]);
        }
        assert_eq!(board.side_by_side(0, true), joins, "{others} {more} {jobs}");
        if !joins {
            // A tile of the span it makes is there: it joins at once.
            board.add(1, 3, 7, 2, &[]);
            assert!(board.side_by_side(0, true));
        }
        let joined = board.tiles.last().expect("the join's tile");
        assert_eq!(
            (joined.rect.start, joined.rect.end, joined.rect.height),
            (1, 3, 1)
        );
    }
}

#[test]
fn a_board_that_stacks_first_keeps_no_changed_spans() {
    // Three tiles of [0, 1), and two of one height after them joined
    // side by side: a board that looks for sums marks the span of
    // three changed (it has tiles to sum, and a new height beside);
    // one that stacks first never looks for sums and marks none.
    for stack_first in [false, true] {
        let mut board = three_over_the_first_phase(6, 3, stack_first);
        board.add(1, 2, 4, 1, &[]);
        board.add(2, 3, 4, 1, &[]);
        assert!(board.side_by_side(3, false));
        let changed: Vec<(usize, usize)> = board.changed.iter().copied().collect();
        if stack_first {
            assert!(changed.is_empty(), "{changed:?}");
        } else {
            assert_eq!(changed, [(0, 1)]);
        }
    }
}

#[test]
fn the_last_stack_is_of_a_span_of_the_fewest_tiles_unless_stacking_first() {
    // Three tiles of [0, 1) (the first span to come to two), then two of
    // [1, 2): an order that stacks last takes the span of two, one that
    // stacks first the span that came to two first (which goes back to
    // the end of its queue). The other span is stacked next, and after
    // that, one tile is left of each span.
    for stack_first in [false, true] {
        let mut board = three_over_the_first_phase(5, 2, stack_first);
        for h in [4, 5] {
            board.add(1, 2, h, 1, &[]);
        }
        assert!(board.stack());
        let joined = board.tiles.last().expect("the stack's tile");
        let first = if stack_first { (0, 1, 3) } else { (1, 2, 9) };
        assert_eq!(
            (joined.rect.start, joined.rect.end, joined.rect.height),
            first
        );
        assert!(board.stack());
        let joined = board.tiles.last().expect("the stack's tile");
        let next = if stack_first { (1, 2) } else { (0, 1) };
        assert_eq!((joined.rect.start, joined.rect.end), next);
        while board.stack() {}
        assert_eq!(board.alive, 2, "one tile a span");
    }
}

/// A board for `jobs` pieces over `sections` (no step limit), holding
/// three tiles of [0, 1), of 1, 2 and 3 bytes.
fn three_over_the_first_phase(jobs: usize, sections: usize, stack_first: bool) -> Board {
    let mut board = Board::new(jobs, sections, u64::MAX, stack_first);
    for h in [1, 2, 3] {
        board.add(0, 1, h, 1, &[]);
    }
    board
}

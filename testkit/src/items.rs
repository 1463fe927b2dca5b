//! The planner's benchmark arenas, shared by the criterion bench and the
//! instruction-count loop (`arena-tools`: `plan-loop`).

use arena_runtime::plan::Item;

/// Realistic buffers from a fixed seed: 256 B to 256 MiB, one to three
/// phases or all six.
pub fn items(n: usize) -> Vec<Item> {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let bytes = (1usize << (8 + next() % 21)) + (next() % 4096) as usize * 256;
            let first = (next() % 6) as usize;
            let (first, last) = match next() % 10 {
                0..6 => (first, first),
                6..9 => (first, (first + 2).min(5)),
                _ => (0, 5),
            };
            Item {
                bytes,
                align: 256,
                first,
                last,
            }
        })
        .collect()
}

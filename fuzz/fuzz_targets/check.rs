//! The independent check of a plan shared by the planner targets: every
//! buffer aligned and inside the slab, no two buffers live together sharing
//! a byte (every pair compared, in `u128`, without the planner's code).

use arena_runtime::plan::Item;

pub fn plan_is_sound(items: &[Item], offsets: &[usize], slab: usize) {
    assert_eq!(items.len(), offsets.len());
    for (i, a) in items.iter().enumerate() {
        if a.bytes == 0 {
            continue;
        }
        assert_eq!(offsets[i] % a.align, 0, "buffer {i} misaligned");
        let end = offsets[i] as u128 + a.bytes as u128;
        assert!(end <= slab as u128, "buffer {i} ends at {end}, past the slab {slab}");
        for (j, b) in items.iter().enumerate().skip(i + 1) {
            let live_together =
                a.first <= b.last && b.first <= a.last && a.first <= a.last && b.first <= b.last;
            if b.bytes == 0 || !live_together {
                continue;
            }
            let (sa, sb) = (offsets[i] as u128, offsets[j] as u128);
            let disjoint = sa + a.bytes as u128 <= sb || sb + b.bytes as u128 <= sa;
            assert!(disjoint, "buffers {i} and {j} overlap while both live");
        }
    }
}

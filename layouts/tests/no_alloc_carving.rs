//! Carving every view of the metrale arena allocates nothing on the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use arena::{HostSlab, Levers};
use layouts::{BufferSizes, ModelConfig, Target};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn carving_allocates_nothing() {
    let sizes = BufferSizes::try_from_config_with(
        &Levers::new(),
        &ModelConfig::qwen3_next_80b_nvfp4(),
        8192,
        32_768,
        16,
        64,
        &Target::DEFAULT,
    )
    .unwrap();
    let mut slab = HostSlab::new(sizes).unwrap();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let mut total = 0;
    for _ in 0..10 {
        let mut v = slab.views();
        total +=
            v.hidden_states.len() + v.gdn_fla_scratch.w.len() + v.scratch.prefill().slots.len();
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert!(total > 0);
    assert_eq!(after - before, 0, "carving views allocated on the heap");
    // The counter works: a Vec allocates.
    let v = vec![1u8; 16];
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > after);
    drop(v);
}

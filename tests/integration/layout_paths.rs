//! What a newcomer checking a layout against another engine needs: absolute
//! offsets through nested regions, and the arena-level condition in the
//! metadata.

use arena::{Arena, HostSlab, Levers, Region};

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), align = 16)]
pub struct Indptr {
    #[arena(shape = [n + 1], dtype = i32)]
    pub qo_indptr: usize,
    #[arena(shape = [n + 1], dtype = i32)]
    pub o_indptr: usize,
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), align = 16)]
pub struct Plan {
    #[arena(shape = [n], dtype = u8)]
    pub block_valid_mask: usize,
    #[arena(nested(n))]
    pub indptr: Region<Indptr>,
}

/// Two levels of nesting, with an arena-level condition.
#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize, split_kv: bool), when = split_kv)]
pub struct Workspace {
    #[arena(shape = [n], dtype = f32)]
    pub tmp_s: usize,
    #[arena(nested(n))]
    pub plan: Region<Plan>,
    #[arena(shape = [n], dtype = u32)]
    pub tail: usize,
}

#[test]
fn nested_buffers_have_absolute_offsets() {
    let ws = Workspace::try_from_config_with(&Levers::new(), 37, true).unwrap();
    let layout = ws.layout().unwrap();
    let flat = layout.flatten();
    let paths: Vec<_> = flat.iter().map(|b| b.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tmp_s",
            "plan",
            "plan.block_valid_mask",
            "plan.indptr",
            "plan.indptr.qo_indptr",
            "plan.indptr.o_indptr",
            "tail"
        ]
    );
    // The absolute offsets are where the views are.
    let mut slab = HostSlab::new(ws).unwrap();
    let base = slab.as_bytes().as_ptr() as usize;
    let v = slab.views();
    let at = |p: *const u8| p as usize - base;
    let want = [
        ("tmp_s", at(v.tmp_s.as_ptr().cast()), 37 * 4),
        (
            "plan.block_valid_mask",
            at(v.plan.block_valid_mask.as_ptr()),
            37,
        ),
        (
            "plan.indptr.qo_indptr",
            at(v.plan.indptr.qo_indptr.as_ptr().cast()),
            38 * 4,
        ),
        (
            "plan.indptr.o_indptr",
            at(v.plan.indptr.o_indptr.as_ptr().cast()),
            38 * 4,
        ),
        ("tail", at(v.tail.as_ptr().cast()), 37 * 4),
    ];
    for (path, offset, bytes) in want {
        assert_eq!(layout.offset_of(path), Some(offset), "{path}");
        let b = flat.iter().find(|b| b.path == path).unwrap();
        assert_eq!(
            (b.offset, b.bytes, b.region),
            (offset, bytes, false),
            "{path}"
        );
        assert_eq!(b.depth, path.matches('.').count());
    }
    // A region's own offset, and names that are not there.
    let plan = layout.offset_of("plan").unwrap();
    let indptr = layout.get("plan").unwrap().nested.as_ref().unwrap();
    assert_eq!(
        layout.offset_of("plan.indptr"),
        Some(plan + indptr.offset_of("indptr").unwrap())
    );
    assert!(
        flat.iter()
            .find(|b| b.path == "plan.indptr")
            .unwrap()
            .region
    );
    for missing in ["o_indptr", "plan.o_indptr", "tail.x", "", "plan."] {
        assert_eq!(layout.offset_of(missing), None, "{missing}");
    }
}

#[test]
fn the_arena_level_condition_is_in_the_metadata() {
    assert_eq!(Workspace::WHEN, Some("split_kv"));
    assert_eq!(Plan::WHEN, None);
    let off = Workspace::try_from_config_with(&Levers::new(), 37, false).unwrap();
    assert_eq!(
        off.total_bytes(),
        0,
        "every buffer 0 while the condition is false"
    );
    // The per-buffer conditions stay the buffers' own.
    assert!(Workspace::BUFFERS.iter().all(|b| b.when.is_none()));
}

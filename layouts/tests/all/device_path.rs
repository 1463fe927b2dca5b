//! The device's carving rules on host bytes. A device view knows its offset
//! from the slab's aligned start, not an address, so `AtOffset` (below) is a
//! `Memory` that casts the way the device's does (by offset), over host
//! bytes: carving through it runs the same shared code (`arena`'s
//! `carve::cast`: an empty view wherever it sits, then the memory's cast)
//! that device carving runs, without a GPU.

use arena::{Arena, Carving, Memory};

use arena_testkit::fixtures::qwen3_next;

/// Host bytes with their offset from the slab's start, as a device view has.
struct AtOffset;

struct Piece<'a> {
    bytes: &'a mut [u8],
    offset: usize,
}

impl Memory for AtOffset {
    type Bytes<'a> = Piece<'a>;
    type Slice<'a, T: bytemuck::Pod> = &'a mut [T];

    fn len(bytes: &Piece<'_>) -> usize {
        bytes.bytes.len()
    }
    fn split_at(bytes: Self::Bytes<'_>, mid: usize) -> (Self::Bytes<'_>, Self::Bytes<'_>) {
        let (a, b) = bytes.bytes.split_at_mut(mid);
        (
            Piece {
                bytes: a,
                offset: bytes.offset,
            },
            Piece {
                bytes: b,
                offset: bytes.offset + mid,
            },
        )
    }
    fn reborrow<'b>(bytes: &'b mut Piece<'_>) -> Piece<'b> {
        Piece {
            bytes: bytes.bytes,
            offset: bytes.offset,
        }
    }
    fn cast<T: bytemuck::Pod>(bytes: Self::Bytes<'_>) -> Result<Self::Slice<'_, T>, usize> {
        // The device's rule: the offset aligned, whole elements; an empty
        // run never gets here (the shared cast takes it first).
        let align = std::mem::align_of::<T>();
        if bytes.offset % align != 0 || bytes.bytes.len() % std::mem::size_of::<T>() != 0 {
            return Err(align);
        }
        // The host buffer below is 8-aligned, so the address agrees.
        bytemuck::try_cast_slice_mut(bytes.bytes).map_err(|_| align)
    }
    fn empty<'a, T: bytemuck::Pod>(_: Self::Bytes<'a>) -> Self::Slice<'a, T> {
        &mut []
    }
    fn fill(bytes: &mut Piece<'_>, pattern: &[u8]) -> Result<(), String> {
        for (d, s) in bytes.bytes.iter_mut().zip(pattern.iter().cycle()) {
            *d = *s;
        }
        Ok(())
    }
    fn holds(bytes: &Piece<'_>, byte: u8) -> Result<bool, String> {
        Ok(bytes.bytes.iter().all(|&b| b == byte))
    }
}

/// An 8-aligned host buffer of `len` bytes.
fn buffer(len: usize) -> Vec<u64> {
    vec![0u64; len.div_ceil(8)]
}

#[test]
fn the_metrale_arena_carves_on_the_device_path_with_odd_guards() {
    // With a guard of 1 a zero-size buffer sits at an odd offset: an empty
    // view is taken there before any alignment check.
    let sizes = qwen3_next(128);
    for guard in [1, 2, 3, 100] {
        let layout = sizes.layout_for(Carving::guard(guard)).unwrap();
        let mut words = buffer(layout.slab_bytes);
        let region = Piece {
            bytes: &mut bytemuck::cast_slice_mut(&mut words)[..layout.slab_bytes],
            offset: 0,
        };
        if let Err(e) = sizes.carve_with::<AtOffset>(region, guard) {
            panic!("guard {guard}: {e}");
        }
    }
}

#[test]
fn a_misaligned_non_empty_view_is_refused_on_the_device_path() {
    let sizes = qwen3_next(128);
    let layout = sizes.layout().unwrap();
    let mut words = buffer(layout.slab_bytes + 8);
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    // The region one byte past an aligned start: every typed view is off.
    let region = Piece {
        bytes: &mut bytes[1..=layout.slab_bytes],
        offset: 1,
    };
    let Err(e) = sizes.carve_with::<AtOffset>(region, 0) else {
        panic!("a region at offset 1 cannot hold aligned views");
    };
    assert!(matches!(e, arena::CarveError::Misaligned { .. }), "{e}");
}

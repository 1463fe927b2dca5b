//! Where every buffer sits in the one allocation of an arena.

use crate::error::SizeError;

/// Places buffers one after another at aligned offsets. A zero-size buffer
/// takes no space; `guard` bytes are left after every non-empty buffer.
#[derive(Debug, Clone, Copy)]
pub struct Cursor {
    pos: usize,
    guard: usize,
}

impl Cursor {
    /// A cursor at offset 0.
    pub const fn new(guard: usize) -> Self {
        Cursor { pos: 0, guard }
    }

    /// The offset of a buffer of `bytes` aligned to `align` (a power of two),
    /// or `None` when the slab would pass `usize::MAX`.
    pub const fn place(&mut self, bytes: usize, align: usize) -> Option<usize> {
        if bytes == 0 {
            return Some(self.pos);
        }
        let Some(padded) = self.pos.checked_add(align - 1) else {
            return None;
        };
        let offset = padded & !(align - 1);
        let Some(end) = offset.checked_add(bytes) else {
            return None;
        };
        let Some(next) = end.checked_add(self.guard) else {
            return None;
        };
        self.pos = next;
        Some(offset)
    }

    /// [`Cursor::place`] for buffer `field` of `arena`: a slab past
    /// `usize::MAX` is a [`SizeError::SlabOverflow`] naming it.
    #[inline]
    pub fn fit(
        &mut self,
        arena: &'static str,
        field: &'static str,
        bytes: usize,
        align: usize,
    ) -> Result<usize, SizeError> {
        match self.place(bytes, align) {
            Some(offset) => Ok(offset),
            None => Err(SizeError::SlabOverflow { arena, field }),
        }
    }

    /// Bytes used so far: the end of the last buffer (and its guard).
    ///
    /// See also [`slab`](crate::__private::slab), the slab of a whole arena.
    pub const fn end(&self) -> usize {
        self.pos
    }
}

/// One field's place in the slab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The field name.
    pub name: &'static str,
    /// Offset from the start of the arena's region.
    pub offset: usize,
    /// Bytes of the region.
    pub bytes: usize,
    /// Alignment of the offset.
    pub align: usize,
    /// The buffer's built-in element type, static or chosen at run time
    /// (`dtype = EXPR`: the one it was sized with); `None` for a nested
    /// region or a user element type.
    pub dtype: Option<crate::DType>,
    /// The nested arena's own layout, relative to `offset`.
    pub nested: Option<Box<Layout>>,
}

impl Placement {
    /// One past the last byte.
    pub fn end(&self) -> usize {
        self.offset + self.bytes
    }
}

/// The layout of a derived arena: every carved field in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The derived struct.
    pub arena: &'static str,
    /// Whether the fields are alternatives sharing offset 0.
    pub one_of: bool,
    /// Bytes of the whole slab: the end of the last non-empty buffer.
    pub slab_bytes: usize,
    /// The carved fields (value fields are not listed).
    pub placements: Vec<Placement>,
}

/// One buffer of a layout at its absolute offset: what [`Layout::flatten`]
/// lists, nested regions walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatBuffer {
    /// The field names from the top-level arena down, joined by `.`
    /// (`indptr.o_indptr`).
    pub path: String,
    /// Offset from the start of the top-level arena's region.
    pub offset: usize,
    /// Bytes.
    pub bytes: usize,
    /// Levels of nesting above it: 0 for a field of the top-level arena.
    pub depth: usize,
    /// Whether it is a nested region (its own buffers follow it).
    pub region: bool,
}

impl Layout {
    /// The placement of a field of this arena by name (its offset relative
    /// to this arena's region; see [`Layout::locate`] for nested paths).
    pub fn get(&self, name: &str) -> Option<&Placement> {
        self.placements.iter().find(|p| p.name == name)
    }

    /// The offset of a field from the start of this arena's region: a
    /// name, or a path through nested regions (`"indptr.o_indptr"`), whose
    /// offset is absolute (the regions' offsets added).
    ///
    /// ```
    /// # use arena_runtime::{Layout, Placement};
    /// let inner = Layout { arena: "I", one_of: false, slab_bytes: 64, placements: vec![
    ///     Placement { name: "o_indptr", offset: 32, bytes: 32, align: 16, dtype: None, nested: None }] };
    /// let outer = Layout { arena: "O", one_of: false, slab_bytes: 320, placements: vec![
    ///     Placement { name: "indptr", offset: 256, bytes: 64, align: 256, dtype: None, nested: Some(Box::new(inner)) }] };
    /// assert_eq!(outer.offset_of("indptr"), Some(256));
    /// assert_eq!(outer.offset_of("indptr.o_indptr"), Some(288));
    /// assert_eq!(outer.offset_of("o_indptr"), None);
    /// ```
    pub fn offset_of(&self, path: &str) -> Option<usize> {
        self.locate(path).map(|(offset, _)| offset)
    }

    /// The placement at `path` (a name, or names through nested regions
    /// joined by `.`) and its absolute offset in this arena's region.
    pub fn locate(&self, path: &str) -> Option<(usize, &Placement)> {
        let mut parts = path.split('.');
        let mut p = self.get(parts.next()?)?;
        let mut offset = p.offset;
        for name in parts {
            p = p.nested.as_deref()?.get(name)?;
            offset = offset.checked_add(p.offset)?;
        }
        Some((offset, p))
    }

    /// Every buffer and nested region at every depth, in declaration order
    /// (a region before its own buffers), with its absolute offset: for
    /// checking a layout against another engine's offsets, or a report.
    pub fn flatten(&self) -> Vec<FlatBuffer> {
        let mut out = Vec::new();
        self.flatten_into("", 0, 0, &mut out);
        out
    }

    fn flatten_into(&self, prefix: &str, base: usize, depth: usize, out: &mut Vec<FlatBuffer>) {
        for p in &self.placements {
            let path = if prefix.is_empty() {
                p.name.to_owned()
            } else {
                format!("{prefix}.{}", p.name)
            };
            let offset = base.saturating_add(p.offset);
            out.push(FlatBuffer {
                path: path.clone(),
                offset,
                bytes: p.bytes,
                depth,
                region: p.nested.is_some(),
            });
            if let Some(inner) = &p.nested {
                inner.flatten_into(&path, offset, depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_aligns_and_skips_empty() {
        let mut c = Cursor::new(0);
        assert_eq!(c.place(10, 256), Some(0));
        assert_eq!(c.place(0, 256), Some(10));
        assert_eq!(c.place(4, 256), Some(256));
        assert_eq!(c.end(), 260);
        assert_eq!(c.place(8, 8), Some(264));
    }

    #[test]
    fn cursor_guard_and_overflow() {
        let mut c = Cursor::new(16);
        assert_eq!(c.place(1, 1), Some(0));
        assert_eq!(c.place(1, 1), Some(17));
        assert_eq!(c.end(), 34);
        let mut c = Cursor::new(0);
        assert_eq!(c.place(usize::MAX - 3, 1), Some(0));
        assert_eq!(c.place(8, 1), None);
    }
}

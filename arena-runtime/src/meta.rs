//! Static description of every field of a derived arena, for reports and checks.

/// What a field of a derived arena is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A buffer carved from the slab (`size =` or `shape =`).
    Buffer,
    /// A region holding a nested arena (`nested(...)`), itself carved.
    Nested,
    /// A number computed by a formula and not carved (`value =`).
    Value,
}

/// Metadata of one field, as written in its `#[arena(...)]` attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferInfo {
    /// The field name.
    pub name: &'static str,
    /// Buffer, nested region or value.
    pub kind: FieldKind,
    /// The first line of the field's doc comment, or empty.
    pub doc: &'static str,
    /// The size formula as written (for `shape =`: the product spelled out).
    pub formula: &'static str,
    /// The element type's name (`bf16`, `f32`, `u8`, a user type, ...); for
    /// a dtype chosen at run time ([`BufferInfo::dyn_dtype`]) the expression
    /// as written (`act`, `cfg.dtype`): the instance's
    /// [`Arena::field_dtype`](crate::Arena::field_dtype) is the dtype.
    pub dtype: &'static str,
    /// Whether the element type is chosen at run time (`dtype = EXPR`, a
    /// field of type [`DynBytes`](crate::DynBytes)): `elem_bytes` is then 1
    /// and the buffer starts at [`DType::MAX_ALIGN`](crate::DType::MAX_ALIGN)
    /// or more, whatever the dtype.
    pub dyn_dtype: bool,
    /// Bytes of one element.
    pub elem_bytes: usize,
    /// Alignment of one element.
    pub elem_align: usize,
    /// The buffer's own alignment: its element's, or `align = N` on the
    /// field where that is larger. Inside an arena the larger of this and
    /// the arena's ([`BufferInfo::align_in`]).
    pub align: usize,
    /// The logical shape, one formula per dimension; empty when not declared.
    pub shape: &'static [&'static str],
    /// The lever that must be on for the field to be non-zero.
    pub lever: Option<&'static str>,
    /// `when = ...`, as written.
    pub when: Option<&'static str>,
    /// `unless = ...`, as written.
    pub unless: Option<&'static str>,
    /// `trim = NAME`: the field is 0 while that condition holds.
    pub trim: Option<&'static str>,
    /// Whether the field counts in `total_bytes`.
    pub in_total: bool,
    /// Whether the buffer is zero-filled when allocated.
    pub zeroed: bool,
    /// The nested arena's type, for a nested region.
    pub nested: Option<&'static str>,
    /// `live = first..=last`: the indices in [`crate::Arena::PHASES`] of the
    /// first and last phase the buffer is live in; `None` for every phase.
    pub live: Option<(usize, usize)>,
}

impl BufferInfo {
    /// A buffer of `T` elements, counted in the total, with no gate; the
    /// other methods add what its attribute says.
    pub const fn buffer<T>(
        name: &'static str,
        doc: &'static str,
        formula: &'static str,
        dtype: &'static str,
    ) -> Self {
        BufferInfo {
            name,
            kind: FieldKind::Buffer,
            doc,
            formula,
            dtype,
            dyn_dtype: false,
            elem_bytes: core::mem::size_of::<T>(),
            elem_align: core::mem::align_of::<T>(),
            align: core::mem::align_of::<T>(),
            shape: &[],
            lever: None,
            when: None,
            unless: None,
            trim: None,
            in_total: true,
            zeroed: false,
            nested: None,
            live: None,
        }
    }

    /// A buffer whose element type is chosen at run time by the expression
    /// `dtype` (as written), counted in the total, with no gate.
    pub const fn dyn_buffer(
        name: &'static str,
        doc: &'static str,
        formula: &'static str,
        dtype: &'static str,
    ) -> Self {
        BufferInfo {
            dyn_dtype: true,
            elem_bytes: 1,
            elem_align: crate::DType::MAX_ALIGN,
            align: crate::DType::MAX_ALIGN,
            ..Self::buffer::<u8>(name, doc, formula, dtype)
        }
    }

    /// A region holding the nested arena `arena`, aligned to `align`.
    pub const fn region(
        name: &'static str,
        doc: &'static str,
        formula: &'static str,
        arena: &'static str,
        align: usize,
    ) -> Self {
        BufferInfo {
            kind: FieldKind::Nested,
            dtype: "",
            elem_bytes: 1,
            elem_align: align,
            align,
            nested: Some(arena),
            ..Self::buffer::<u8>(name, doc, formula, "")
        }
    }

    /// A value field: computed, not carved, not in the total.
    pub const fn value(name: &'static str, doc: &'static str, formula: &'static str) -> Self {
        BufferInfo {
            kind: FieldKind::Value,
            dtype: "",
            in_total: false,
            ..Self::buffer::<u8>(name, doc, formula, "")
        }
    }

    /// With its logical shape, one formula per dimension.
    pub const fn shape(self, shape: &'static [&'static str]) -> Self {
        BufferInfo { shape, ..self }
    }

    /// Gated by the on/off lever `lever`.
    pub const fn lever(self, lever: &'static str) -> Self {
        BufferInfo {
            lever: Some(lever),
            ..self
        }
    }

    /// Gated by `when = ...`.
    pub const fn when(self, when: &'static str) -> Self {
        BufferInfo {
            when: Some(when),
            ..self
        }
    }

    /// Gated by `unless = ...`.
    pub const fn unless(self, unless: &'static str) -> Self {
        BufferInfo {
            unless: Some(unless),
            ..self
        }
    }

    /// Trimmed by `trim = NAME`.
    pub const fn trim(self, trim: &'static str) -> Self {
        BufferInfo {
            trim: Some(trim),
            ..self
        }
    }

    /// Not counted in `total_bytes` (`not_in_total`).
    pub const fn not_in_total(self) -> Self {
        BufferInfo {
            in_total: false,
            ..self
        }
    }

    /// Live from phase `first` to phase `last` (`live = a..=b`).
    pub const fn live(self, first: usize, last: usize) -> Self {
        BufferInfo {
            live: Some((first, last)),
            ..self
        }
    }

    /// The inclusive range of phases the field is live in, out of `phases`.
    pub const fn phases(&self, phases: usize) -> (usize, usize) {
        match self.live {
            Some(r) => r,
            None => (0, phases.saturating_sub(1)),
        }
    }

    /// Aligned to `align` (`align = N`, a power of two) where that is larger
    /// than the element's alignment.
    pub const fn align(self, align: usize) -> Self {
        if align > self.align {
            BufferInfo { align, ..self }
        } else {
            self
        }
    }

    /// Zero-filled when allocated (`zeroed`).
    pub const fn zeroed(self) -> Self {
        BufferInfo {
            zeroed: true,
            ..self
        }
    }

    /// Alignment of this field's start inside an arena aligned to `arena_align`.
    pub const fn align_in(&self, arena_align: usize) -> usize {
        if self.align > arena_align {
            self.align
        } else {
            arena_align
        }
    }

    /// Whether the field takes space in the slab.
    pub const fn is_carved(&self) -> bool {
        !matches!(self.kind, FieldKind::Value)
    }

    /// A short text of the field's gates, for reports: `lever X`, `when ...`.
    pub fn condition(&self) -> String {
        let mut parts = Vec::new();
        if let Some(l) = self.lever {
            parts.push(format!("lever {l}"));
        }
        if let Some(w) = self.when {
            parts.push(format!("when {w}"));
        }
        if let Some(u) = self.unless {
            parts.push(format!("unless {u}"));
        }
        if let Some(t) = self.trim {
            parts.push(format!("trim {t}"));
        }
        parts.join("; ")
    }
}

/// What the derive read from an arena's formulas about one parameter
/// ([`Arena::growth`](crate::Arena::growth)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Growth {
    /// Every buffer's bytes can only grow (or stay) as the parameter grows:
    /// each formula is built from sums, products, `max`, `min`, `clamp`,
    /// rounding up and division by values that do not depend on it, under
    /// conditions that do not depend on it.
    Grows,
    /// A formula is not known to grow with the parameter: a condition that
    /// reads it, a subtraction of it, a division by it, plain Rust code over it.
    NotKnown {
        /// The buffer, `let` or value the formula belongs to.
        item: &'static str,
        /// The formula as written.
        formula: &'static str,
    },
    /// The arena has no parameter of that name.
    NotAParam,
}

//! The [`Arena`] trait that `#[derive(Arena)]` implements, and what its
//! provided methods need: [`Region`] for nested arenas, [`Carving`], the
//! fill rules at a buffer's first phase.

use crate::dtype::DType;
use crate::error::{CarveError, SizeError, StepError};
use crate::guard::SlabRef;
use crate::layout::{Cursor, Layout, Placement};
use crate::levers::{LeverInfo, Levers};
use crate::memory::{self, Memory};
use crate::meta::{BufferInfo, FieldKind, Growth};
use crate::plan;

/// A region holding a nested arena: its size in the parent slab and the
/// nested arena's own sizes.
///
/// `bytes` is at least the nested arena's slab; a size formula may make it
/// larger (a floor such as `max(65536, inner)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Region<T> {
    /// Bytes the region takes in the parent slab.
    pub bytes: usize,
    /// The nested arena.
    pub inner: T,
}

impl<T> Region<T> {
    /// A region of `bytes` bytes holding `inner`.
    #[inline]
    pub const fn new(bytes: usize, inner: T) -> Self {
        Region { bytes, inner }
    }
}

impl<T: Arena> Region<T> {
    /// The views of the nested arena, laid out for these sizes, cut from
    /// `piece` (the whole region) to the sizes of `step`; a step larger than
    /// this reservation is [`StepError::TooLarge`] naming `arena.field`. The
    /// one place a nested step is checked, for plain and one-of parents.
    #[inline]
    pub(crate) fn step_views<'a, M: Memory>(
        &'a self,
        (arena, field): (&'static str, &'static str),
        step: &'a Region<T>,
        piece: M::Bytes<'a>,
    ) -> Result<T::Views<'a, M>, StepError> {
        memory::step_fits(arena, field, self.bytes, step.bytes)?;
        self.inner
            .carve_step::<M>(&step.inner, piece, Carving::default())
    }
}

/// How a slab is carved: the guard bytes after every top-level buffer, and
/// for an arena with phases whether its offsets are planned (the default) and
/// whether a phase's new buffers are poisoned when its views are taken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Carving {
    /// Bytes after every top-level buffer, filled with [`GUARD_BYTE`](crate::GUARD_BYTE).
    pub guard: usize,
    /// Poison mode: when a phase's views are taken, every buffer whose range
    /// begins at that phase is filled with NaN (float dtypes) or `0xA5`.
    pub poison: bool,
    /// Lay the buffers of a phased arena out one after the other, as without
    /// phases (for comparing against the planned layout).
    pub unplanned: bool,
    /// The planner's search budget for this slab, in place of the arena's
    /// [`Arena::PLAN_BUDGET`] (`None`: the arena's).
    pub plan_budget: Option<u64>,
}

impl Carving {
    /// The carving with `guard` bytes after every top-level buffer.
    pub const fn guard(guard: usize) -> Self {
        Carving {
            guard,
            poison: false,
            unplanned: false,
            plan_budget: None,
        }
    }
}

/// The side of an arena that only generated code and the runtime's slabs
/// call: carving at a slab's planned offsets, and filling a region when a
/// phase begins its life. `#[derive(Arena)]` implements it beside
/// [`Arena`] (its supertrait); not public API, named only as
/// `arena::__private::Plumbing`.
pub trait Plumbing {
    /// [`Arena::carve_step`] at the offsets of `slab`'s layout (planned
    /// once when the slab was allocated, so that taking views does not plan
    /// again), recording in its guard log the phase whose guard bands are
    /// armed; `None` works the offsets out. Only an arena with phases reads
    /// it. The layout must be [`Arena::layout_for`] with the same carving:
    /// another layout can make taking a phase's views panic.
    fn carve_planned<'a, M: Memory>(
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: Carving,
        slab: Option<SlabRef<'a>>,
    ) -> Result<<Self as Arena>::Views<'a, M>, StepError>
    where
        Self: Arena,
    {
        let _ = slab;
        self.carve_step::<M>(step, region, carving)
    }

    /// Fills field `index`, a nested region whose bytes are `region`, as
    /// [`Plumbing::fill_region`] does (laid out as `self`, in the dtypes of
    /// `step`); generated for arenas with nested fields.
    fn fill_nested<M: Memory>(
        &self,
        step: &Self,
        index: usize,
        region: M::Bytes<'_>,
        fill: Fill,
    ) -> Result<(), CarveError>
    where
        Self: Arena,
    {
        let _ = (step, index, region, fill);
        Ok(())
    }

    /// Fills every buffer of this arena, laid out (without phases) in
    /// `region`, as a phase does when the arena's region begins its life:
    /// [`Fill::Poison`] writes each buffer's poison pattern in its dtype as
    /// `step` has it (a step's dtype chosen at run time may differ from the
    /// reservation's), [`Fill::Zero`] zeroes the `zeroed` buffers; nested
    /// regions alike, at every depth. A one-of region's alternatives share
    /// every byte: poisoned, it is all `0xFF`, NaN in every float dtype.
    fn fill_region<M: Memory>(
        &self,
        step: &Self,
        mut region: M::Bytes<'_>,
        fill: Fill,
    ) -> Result<(), CarveError>
    where
        Self: Arena,
    {
        if Self::ONE_OF && fill == Fill::Poison {
            return M::fill(&mut region, &[ONE_OF_POISON]).map_err(|message| CarveError::Device {
                arena: Self::NAME,
                field: Self::BUFFERS.first().map_or("", |b| b.name),
                message,
            });
        }
        let mut cursor = Cursor::new(0);
        for (i, info) in Self::BUFFERS.iter().enumerate() {
            if !info.is_carved() {
                continue;
            }
            let bytes = self.field_bytes(i);
            let offset = if Self::ONE_OF {
                0
            } else {
                cursor.fit(Self::NAME, info.name, bytes, info.align_in(Self::ALIGN))?
            };
            let available = M::len(&region);
            if offset.checked_add(bytes).is_none_or(|end| end > available) {
                return Err(CarveError::TooShort {
                    arena: Self::NAME,
                    field: info.name,
                    needed: offset.saturating_add(bytes),
                    available,
                });
            }
            let rest = M::split_at(M::reborrow(&mut region), offset).1;
            let mut piece = M::split_at(rest, bytes).0;
            fill_field::<Self, M>(self, step, i, &mut piece, fill)?;
        }
        Ok(())
    }
}

/// An arena derived with `#[derive(Arena)]`.
///
/// The derive implements every required item; the provided methods compute
/// the layout from the field metadata, so reports, host carving and device
/// carving agree by construction.
pub trait Arena: Sized + Plumbing {
    /// The struct's name.
    const NAME: &'static str;
    /// Alignment of the slab and minimum alignment of every buffer.
    const ALIGN: usize;
    /// Whether the fields are alternative layouts of one region (`one_of`).
    const ONE_OF: bool = false;
    /// Metadata of every field, in declaration order.
    const BUFFERS: &'static [BufferInfo];
    /// The levers the arena declares; none unless given.
    const LEVERS: &'static [LeverInfo] = &[];
    /// The arena-level condition (`#[arena(when = ...)]`) as written: while
    /// it is false every buffer is 0. `None` when the arena has none.
    const WHEN: Option<&'static str> = None;
    /// The planner's search budget for this arena (`#[arena(plan_budget =
    /// N)]`): nodes of the search after greedy, where greedy stays above the
    /// busiest phase's bytes ([`plan::plan_with_budget`]). 0, the default,
    /// is greedy alone, with no heap in `slab_bytes()` and carving.
    const PLAN_BUDGET: u64 = 0;
    /// The declared phases, in order (`#[arena(phases(...))]`); empty when
    /// none are declared, and every buffer lives at once.
    const PHASES: &'static [&'static str] = &[];
    /// The declared parameters' names, in order (`#[arena(params(...))]`).
    const PARAMS: &'static [&'static str] = &[];
    /// Alignment of the arena's region: the largest of [`Arena::ALIGN`], the
    /// element alignment of its buffers and their `align = N`.
    const REGION_ALIGN: usize = region_align(Self::ALIGN, Self::BUFFERS);

    /// Typed views of every buffer, borrowed from one region.
    type Views<'a, M: Memory>
    where
        Self: 'a;

    /// The step dimensions of the buffers declared with `shape = [...]`
    /// (`XShapes`, from `X::try_step_with`).
    type Shapes: Copy + Default;

    /// Every field zero: what a gated-off nested region holds.
    fn empty() -> Self;

    /// Bytes of field `index` of [`Arena::BUFFERS`] (its value for a value field).
    fn field_bytes(&self, index: usize) -> usize;

    /// The element type of field `index`: a buffer's built-in dtype, the
    /// one it was sized with where the derive's `dtype = EXPR` chose it at
    /// run time; `None` for nested regions, value fields and user types.
    fn field_dtype(&self, index: usize) -> Option<DType> {
        let _ = self;
        static_dtype(Self::BUFFERS, index)
    }

    /// The nested arena's layout of field `index`, `None` for other fields.
    fn nested_layout(&self, index: usize) -> Option<Result<Layout, SizeError>> {
        let _ = index;
        None
    }

    /// What the derive read from the formulas about parameter `param` (its
    /// name or its short name): whether every buffer's bytes can only grow
    /// as it grows ([`Growth::Grows`]), or the first formula not known to
    /// ([`Growth::NotKnown`]). [`fit::largest`](crate::fit::largest) bisects
    /// where it grows.
    fn growth(param: &str) -> Growth {
        if Self::PARAMS.contains(&param) {
            Growth::NotKnown {
                item: Self::NAME,
                formula: "(not read by the derive)",
            }
        } else {
            Growth::NotAParam
        }
    }

    /// Whether every buffer's bytes can only grow as `param` grows
    /// ([`Arena::growth`] is [`Growth::Grows`]).
    fn grows_with(param: &str) -> bool {
        Self::growth(param) == Growth::Grows
    }

    /// Appends the names of every lever this arena and its nested arenas read.
    fn collect_lever_names(out: &mut Vec<&'static str>) {
        let _ = out;
    }

    /// Carves `region`, laid out for the reserved sizes `self`, into the
    /// views of the smaller `step` (the same arena sized for one step): each
    /// view starts at its reserved offset and has the step's length; nested
    /// and one-of regions follow their own step sizes. A step buffer larger
    /// than its reservation is a [`StepError::TooLarge`] naming it. `guard`
    /// bytes follow every top-level reservation (`carving`).
    fn carve_step<'a, M: Memory>(
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: Carving,
    ) -> Result<Self::Views<'a, M>, StepError>;

    /// Carves `region` (at least the slab's size, aligned to [`Arena::ALIGN`])
    /// into views, with `guard` bytes after every top-level buffer.
    fn carve_with<'a, M: Memory>(
        &'a self,
        region: M::Bytes<'a>,
        guard: usize,
    ) -> Result<Self::Views<'a, M>, CarveError> {
        self.carve_step::<M>(self, region, Carving::guard(guard))
            .map_err(CarveError::from)
    }

    /// Carves `region` into views; see [`Arena::carve_with`].
    fn carve<'a, M: Memory>(
        &'a self,
        region: M::Bytes<'a>,
    ) -> Result<Self::Views<'a, M>, CarveError> {
        self.carve_with::<M>(region, 0)
    }

    /// Every lever name this arena reads, nested arenas included.
    fn lever_names() -> Vec<&'static str> {
        let mut out = Vec::new();
        Self::collect_lever_names(&mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Reads this arena's levers from the process environment, once.
    fn levers_from_env() -> Levers {
        Levers::from_env(Self::lever_names())
    }

    /// The sum of the fields that count in the total (`not_in_total` and value
    /// fields excluded). Saturates only if sizes were edited by hand: a
    /// constructed arena has checked it.
    fn total_bytes(&self) -> usize {
        Self::BUFFERS
            .iter()
            .enumerate()
            .filter(|(_, b)| b.in_total && b.is_carved())
            .fold(0usize, |acc, (i, _)| {
                acc.saturating_add(self.field_bytes(i))
            })
    }

    /// Bytes of every field by name, in declaration order (values included).
    fn sizes(&self) -> Vec<(&'static str, usize)> {
        Self::BUFFERS
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name, self.field_bytes(i)))
            .collect()
    }

    /// The layout of the slab: where each buffer sits, planned offsets for
    /// an arena with phases, no guards. [`Arena::layout_for`] with
    /// [`Carving::default`].
    fn layout(&self) -> Result<Layout, SizeError> {
        self.layout_for(Carving::default())
    }

    /// Bytes of the slab: what one allocation of this arena takes (the end
    /// of its last non-empty buffer), with planned offsets for an arena with
    /// phases. Allocates nothing.
    ///
    /// The tail is not padded: the slab ends at the last buffer's last byte,
    /// not at the next multiple of [`Arena::ALIGN`] (a reservation of
    /// `Σ round_up(size, align)` is larger by the last buffer's padding). A
    /// zero-size buffer takes no space: its offset is where the one before
    /// it ends, which may be unaligned; its view is empty, and its offset is
    /// not a pointer to use.
    fn slab_bytes(&self) -> Result<usize, SizeError> {
        if Self::PHASES.is_empty() {
            self.unplanned_bytes()
        } else {
            self.layout().map(|l| l.slab_bytes)
        }
    }

    /// Bytes of the slab without sharing: every buffer after the other, as an
    /// arena without phases is laid out.
    fn unplanned_bytes(&self) -> Result<usize, SizeError> {
        let mut cursor = Cursor::new(0);
        let mut widest = 0usize;
        for (i, info) in Self::BUFFERS.iter().enumerate() {
            if !info.is_carved() {
                continue;
            }
            let bytes = self.field_bytes(i);
            if Self::ONE_OF {
                widest = widest.max(bytes);
            } else {
                cursor.fit(Self::NAME, info.name, bytes, info.align_in(Self::ALIGN))?;
            }
        }
        Ok(if Self::ONE_OF { widest } else { cursor.end() })
    }

    /// A true lower bound of [`Arena::slab_bytes`], for this arena and any
    /// plan of it: the largest sum, over phases, of the bytes of the buffers
    /// live in the phase, each rounded up to [`Arena::ALIGN`] but for the
    /// one on top ([`plan::lower_bound`]). Without phases, the sum over every
    /// buffer; for a one-of arena, its widest buffer.
    fn lower_bound_bytes(&self) -> Result<usize, SizeError> {
        if Self::ONE_OF {
            return self.unplanned_bytes();
        }
        let items = plan_items(self);
        plan::lower_bound(&items, Self::PHASES.len().max(1), Self::ALIGN)
            .map_err(plan_error::<Self>)
    }

    /// The layout `carving` asks for: `guard` bytes after every top-level
    /// buffer; planned offsets for an arena with phases (with the carving's
    /// search budget, else [`Arena::PLAN_BUDGET`]) unless `unplanned` asks
    /// for every buffer after the other. What a slab made with the same
    /// carving holds.
    fn layout_for(&self, carving: Carving) -> Result<Layout, SizeError> {
        layout_of(
            self,
            carving.guard,
            !carving.unplanned && !Self::PHASES.is_empty(),
            carving.plan_budget.unwrap_or(Self::PLAN_BUDGET),
        )
    }
}

/// The layout of `arena` with `guard` bytes after every top-level buffer,
/// planned (buffers of disjoint phases share bytes, with the search budget
/// `budget`) or every buffer after the other.
fn layout_of<A: Arena>(
    arena: &A,
    guard: usize,
    planned: bool,
    budget: u64,
) -> Result<Layout, SizeError> {
    let planned = planned && !A::ONE_OF;
    let offsets = if planned {
        Some(plan::plan_with_budget(&plan_items(arena), guard, budget).map_err(plan_error::<A>)?)
    } else {
        None
    };
    let mut cursor = Cursor::new(if A::ONE_OF { 0 } else { guard });
    let mut slab_bytes = 0usize;
    let mut placements = Vec::with_capacity(A::BUFFERS.len());
    let mut k = 0;
    for (i, info) in A::BUFFERS.iter().enumerate() {
        if !info.is_carved() {
            continue;
        }
        let bytes = arena.field_bytes(i);
        let align = info.align_in(A::ALIGN);
        let offset = match &offsets {
            Some(plan) => plan.offsets[k],
            None if A::ONE_OF => {
                slab_bytes = slab_bytes.max(bytes);
                0
            }
            None => cursor.fit(A::NAME, info.name, bytes, align)?,
        };
        k += 1;
        let nested = arena.nested_layout(i).transpose()?.map(Box::new);
        placements.push(Placement {
            name: info.name,
            offset,
            bytes,
            align,
            dtype: arena.field_dtype(i),
            nested,
        });
    }
    if let Some(plan) = offsets {
        slab_bytes = plan.height;
    } else if !A::ONE_OF {
        slab_bytes = cursor.end();
    }
    Ok(Layout {
        arena: A::NAME,
        one_of: A::ONE_OF,
        slab_bytes,
        placements,
    })
}

/// What a phase writes into a buffer whose range begins at it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// The poison pattern of the buffer's dtype (NaN for floats, `0xA5`
    /// otherwise), in poison mode.
    Poison,
    /// Zeros, for a `zeroed` buffer.
    Zero,
}

/// What a poisoned one-of region holds: every alternative shares its bytes,
/// and all-ones is NaN in every float dtype (f64, f32, bf16, f16, both FP8,
/// E8M0), so no alternative reads a plausible value.
pub(crate) const ONE_OF_POISON: u8 = 0xFF;

/// Fills field `i` of `arena` (laid out as `arena`, its dtype as `step`
/// has it), whose bytes are `piece`: the poison pattern of its dtype (`0xA5`
/// for a user type or a region) or, if `zeroed`, zeros; a nested region's
/// own buffers after it.
pub(crate) fn fill_field<A: Arena, M: Memory>(
    arena: &A,
    step: &A,
    i: usize,
    piece: &mut M::Bytes<'_>,
    fill: Fill,
) -> Result<(), CarveError> {
    let info = &A::BUFFERS[i];
    let pattern: &[u8] = match fill {
        Fill::Poison => step.field_dtype(i).map_or(&[0xA5], DType::poison),
        Fill::Zero if info.zeroed => &[0],
        Fill::Zero => &[],
    };
    if !pattern.is_empty() {
        M::fill(piece, pattern).map_err(|message| CarveError::Device {
            arena: A::NAME,
            field: info.name,
            message,
        })?;
    }
    if info.kind == FieldKind::Nested {
        arena.fill_nested::<M>(step, i, M::reborrow(piece), fill)?;
    }
    Ok(())
}

/// The planner's error on the items of [`plan_items`], naming the field.
fn plan_error<A: Arena>(error: plan::PlanError) -> SizeError {
    SizeError::from_plan(error, A::NAME, |k| {
        A::BUFFERS
            .iter()
            .filter(|info| info.is_carved())
            .nth(k)
            .map_or("", |info| info.name)
    })
}

/// The carved fields of `arena` as the planner sees them, in declaration order.
fn plan_items<A: Arena>(arena: &A) -> Vec<plan::Item> {
    let phases = A::PHASES.len();
    A::BUFFERS
        .iter()
        .enumerate()
        .filter(|(_, info)| info.is_carved())
        .map(|(i, info)| {
            let (first, last) = info.phases(phases);
            plan::Item {
                bytes: arena.field_bytes(i),
                align: info.align_in(A::ALIGN),
                first,
                last,
            }
        })
        .collect()
}

/// The built-in dtype of field `index` of `buffers` where it is static:
/// `None` for a dtype chosen at run time (the instance knows it), a user
/// type, a nested region or a value field.
#[doc(hidden)]
pub const fn static_dtype(buffers: &[BufferInfo], index: usize) -> Option<DType> {
    if index >= buffers.len() {
        return None;
    }
    let info = &buffers[index];
    match info.kind {
        FieldKind::Buffer if !info.dyn_dtype => DType::from_name(info.dtype),
        _ => None,
    }
}

/// The bytes of one element of field `index` of `arena`: its dtype's where
/// chosen at run time, else the static element's (1 for a region).
pub(crate) fn elem_bytes<A: Arena>(arena: &A, index: usize) -> usize {
    let info = &A::BUFFERS[index];
    match (info.dyn_dtype, arena.field_dtype(index)) {
        (true, Some(d)) => d.bytes(),
        _ => info.elem_bytes,
    }
}

/// The larger of `align` and every buffer's element alignment.
pub const fn region_align(align: usize, buffers: &[BufferInfo]) -> usize {
    let mut out = align;
    let mut i = 0;
    while i < buffers.len() {
        out = buffers[i].align_in(out);
        i += 1;
    }
    out
}

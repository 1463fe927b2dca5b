// The code `#[derive(Arena)]` generates for `Pass` in tests/integration/phases.rs.
// Regenerate: ARENA_BLESS=1 cargo test -p arena-macros snapshot

#[allow(non_snake_case, unused, clippy::all, clippy::pedantic)]
impl Pass {
    /**Sizes every field of [`Pass`] from its formula, with levers taken from `levers`.

| field | bytes | live | condition |
|---|---|---|---|
| `x` | `4 * m * h` | every phase |  |
| `qkv` | `4 * m * (3 * h)` | `attn` |  |
| `up` | `4 * m * (4 * h)` | `mlp` |  |
| `mask` | `m * h` | `attn..=mlp` | zeroed |
| `ids` | `4 * m` | `head` |  |

# Errors

A [`SizeError`](::arena::SizeError) naming the field and its formula when a formula overflows, divides by zero or a lever value is malformed.*/
    pub fn try_from_config_with(
        levers: &::arena::Levers,
        m: usize,
        h: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        ::arena::__private::sized(|shapes| Self::__arena_build::<
            false,
            false,
        >(levers, m, h, shapes))
    }
    /**Sizes [`Pass`] for one step, as [`Pass::try_from_config_with`], and gives the step's dimensions of every buffer declared with `shape = [...]` ([`PassShapes`]), computed by the same sizing: a kernel launch reads them instead of recomputing them. The views of the step come from [`HostSlab::views_for`](::arena::HostSlab::views_for).

# Errors

As [`Pass::try_from_config_with`].*/
    pub fn try_step_with(
        levers: &::arena::Levers,
        m: usize,
        h: usize,
    ) -> ::arena::__private::Result<(Self, PassShapes), ::arena::SizeError> {
        ::arena::__private::with_shapes(|shapes| Self::__arena_build::<
            false,
            true,
        >(levers, m, h, shapes))
    }
    /// The sizing, and the slab's bytes for a parent.
    #[doc(hidden)]
    #[inline]
    pub fn __arena_build<const __ARENA_SLAB: bool, const __ARENA_SHAPES: bool>(
        levers: &::arena::Levers,
        m: usize,
        h: usize,
        shapes: &mut PassShapes,
    ) -> ::arena::__private::Result<(Self, usize), ::arena::SizeError> {
        use ::arena::__private::formula::{n, wide};
        let cx = ::arena::__private::Sizing::new("Pass");
        let x: usize = cx.size("x", "4 * m * h", n(4) * m * h)?;
        if __ARENA_SHAPES {
            shapes.x = [m, h];
        }
        let qkv: usize = cx.size("qkv", "4 * m * (3 * h)", n(4) * m * (n(3) * h))?;
        if __ARENA_SHAPES {
            shapes.qkv = [m, cx.size("qkv", "3 * h", n(3) * h)?];
        }
        let up: usize = cx.size("up", "4 * m * (4 * h)", n(4) * m * (n(4) * h))?;
        if __ARENA_SHAPES {
            shapes.up = [m, cx.size("up", "4 * h", n(4) * h)?];
        }
        let mask: usize = cx.size("mask", "m * h", n(1) * m * h)?;
        if __ARENA_SHAPES {
            shapes.mask = [m, h];
        }
        let ids: usize = cx.size("ids", "4 * m", n(4) * m)?;
        if __ARENA_SHAPES {
            shapes.ids = [m];
        }
        let slab = if __ARENA_SLAB {
            ::arena::__private::slab::<Self, _>([x, qkv, up, mask, ids])?
        } else {
            cx.total::<
                    Self,
                    _,
                >(wide(x) + qkv + up + mask + ids, move || [x, qkv, up, mask, ids])?;
            0
        };
        ::arena::__private::Result::Ok((Self { x, qkv, up, mask, ids }, slab))
    }
    /**Sizes every field of [`Pass`], reading its levers from the environment once.

Parameters with a default take it. See [`Pass::try_from_config_with`] for the formulas.

# Errors

As [`Pass::try_from_config_with`].*/
    pub fn try_from_config(
        m: usize,
        h: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        Self::try_from_config_with(&<Self as ::arena::Arena>::levers_from_env(), m, h)
    }
    /// The sum a preflight reserves: every buffer but `not_in_total` ones.
    #[inline]
    pub fn total_bytes(&self) -> usize {
        <Self as ::arena::Arena>::total_bytes(self)
    }
    /**Sizes every field of [`Pass`], reading its levers from the environment once.

# Panics

When [`Pass::try_from_config`] returns an error; the message names the field and its formula.*/
    #[track_caller]
    pub fn from_config(m: usize, h: usize) -> Self {
        ::arena::__private::or_panic(Self::try_from_config(m, h))
    }
}
impl ::arena::Arena for Pass {
    const NAME: &'static str = "Pass";
    const ALIGN: usize = 64usize;
    const BUFFERS: &'static [::arena::BufferInfo] = &[
        ::arena::BufferInfo::buffer::<
            f32,
        >("x", "The residual stream: live throughout.", "4 * m * h", "f32")
            .shape(&["m", "h"]),
        ::arena::BufferInfo::buffer::<f32>("qkv", "", "4 * m * (3 * h)", "f32")
            .shape(&["m", "3 * h"])
            .live(1usize, 1usize),
        ::arena::BufferInfo::buffer::<f32>("up", "", "4 * m * (4 * h)", "f32")
            .shape(&["m", "4 * h"])
            .live(2usize, 2usize),
        ::arena::BufferInfo::buffer::<u8>("mask", "", "m * h", "u8")
            .shape(&["m", "h"])
            .zeroed()
            .live(1usize, 2usize),
        ::arena::BufferInfo::buffer::<u32>("ids", "", "4 * m", "u32")
            .shape(&["m"])
            .live(3usize, 3usize),
    ];
    const PHASES: &'static [&'static str] = &["embed", "attn", "mlp", "head"];
    type Views<'a, M: ::arena::Memory> = PassPhases<'a, M> where Self: 'a;
    type Shapes = PassShapes;
    fn empty() -> Self {
        Self {
            x: 0,
            qkv: 0,
            up: 0,
            mask: 0,
            ids: 0,
        }
    }
    #[inline]
    fn field_bytes(&self, index: usize) -> usize {
        match index {
            0 => self.x,
            1 => self.qkv,
            2 => self.up,
            3 => self.mask,
            4 => self.ids,
            _ => 0,
        }
    }
    #[inline]
    fn slab_bytes(&self) -> ::arena::__private::Result<usize, ::arena::SizeError> {
        ::arena::__private::slab::<
            Self,
            _,
        >([self.x, self.qkv, self.up, self.mask, self.ids])
    }
    const PARAMS: &'static [&'static str] = &["m", "h"];
    fn growth(param: &str) -> ::arena::fit::Growth {
        match param {
            "m" => ::arena::fit::Growth::Grows,
            "h" => ::arena::fit::Growth::Grows,
            _ => ::arena::fit::Growth::NotAParam,
        }
    }
    fn carve_step<'a, M: ::arena::Memory>(
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: ::arena::Carving,
    ) -> ::arena::__private::Result<Self::Views<'a, M>, ::arena::StepError> {
        <Self as ::arena::__private::Plumbing>::carve_planned::<
            M,
        >(self, step, region, carving, ::core::option::Option::None)
    }
}
impl ::arena::__private::Plumbing for Pass {
    fn carve_planned<'a, M: ::arena::Memory>(
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: ::arena::Carving,
        slab: ::core::option::Option<::arena::__private::SlabRef<'a>>,
    ) -> ::arena::__private::Result<
        <Self as ::arena::Arena>::Views<'a, M>,
        ::arena::StepError,
    > {
        ::arena::__private::Result::Ok(PassPhases {
            __phased: ::arena::__private::Phased::<
                M,
                Self,
                5,
            >::new(self, step, region, carving, slab)?,
        })
    }
}
///The buffers of [`Pass`] by phase (embed, attn, mlp, head): one method per phase, each borrowing the whole slab, so two phases' views, which may share bytes, are never alive at once.
pub struct PassPhases<'a, M: ::arena::Memory = ::arena::Host> {
    __phased: ::arena::__private::Phased<'a, M, Pass, 5>,
}
impl<'a, M: ::arena::Memory> PassPhases<'a, M> {
    /**The views of phase `embed`, as [`Self::embed`].

# Errors

A [`StepError`](::arena::StepError) where the memory fails while the phase's buffers are zeroed or poisoned or its guards checked (on a GPU: a driver error, sticky after a kernel fault).*/
    pub fn try_embed(
        &mut self,
    ) -> ::arena::__private::Result<PassEmbedViews<'_, M>, ::arena::StepError> {
        let mut p = self.__phased.try_phase(0)?;
        ::arena::__private::Result::Ok(PassEmbedViews {
            x: p.view::<f32>(0),
            __arena_marker: ::core::marker::PhantomData,
        })
    }
    /**The views of phase `embed`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time.

# Panics

Where [`Self::try_embed`] fails: a device error while filling or checking guards.*/
    #[track_caller]
    pub fn embed(&mut self) -> PassEmbedViews<'_, M> {
        ::arena::__private::or_panic(self.try_embed())
    }
    /**The views of phase `attn`, as [`Self::attn`].

# Errors

A [`StepError`](::arena::StepError) where the memory fails while the phase's buffers are zeroed or poisoned or its guards checked (on a GPU: a driver error, sticky after a kernel fault).*/
    pub fn try_attn(
        &mut self,
    ) -> ::arena::__private::Result<PassAttnViews<'_, M>, ::arena::StepError> {
        let mut p = self.__phased.try_phase(1)?;
        ::arena::__private::Result::Ok(PassAttnViews {
            x: p.view::<f32>(0),
            qkv: p.view::<f32>(1),
            mask: p.view::<u8>(3),
            __arena_marker: ::core::marker::PhantomData,
        })
    }
    /**The views of phase `attn`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time.

# Panics

Where [`Self::try_attn`] fails: a device error while filling or checking guards.*/
    #[track_caller]
    pub fn attn(&mut self) -> PassAttnViews<'_, M> {
        ::arena::__private::or_panic(self.try_attn())
    }
    /**The views of phase `mlp`, as [`Self::mlp`].

# Errors

A [`StepError`](::arena::StepError) where the memory fails while the phase's buffers are zeroed or poisoned or its guards checked (on a GPU: a driver error, sticky after a kernel fault).*/
    pub fn try_mlp(
        &mut self,
    ) -> ::arena::__private::Result<PassMlpViews<'_, M>, ::arena::StepError> {
        let mut p = self.__phased.try_phase(2)?;
        ::arena::__private::Result::Ok(PassMlpViews {
            x: p.view::<f32>(0),
            up: p.view::<f32>(2),
            mask: p.view::<u8>(3),
            __arena_marker: ::core::marker::PhantomData,
        })
    }
    /**The views of phase `mlp`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time.

# Panics

Where [`Self::try_mlp`] fails: a device error while filling or checking guards.*/
    #[track_caller]
    pub fn mlp(&mut self) -> PassMlpViews<'_, M> {
        ::arena::__private::or_panic(self.try_mlp())
    }
    /**The views of phase `head`, as [`Self::head`].

# Errors

A [`StepError`](::arena::StepError) where the memory fails while the phase's buffers are zeroed or poisoned or its guards checked (on a GPU: a driver error, sticky after a kernel fault).*/
    pub fn try_head(
        &mut self,
    ) -> ::arena::__private::Result<PassHeadViews<'_, M>, ::arena::StepError> {
        let mut p = self.__phased.try_phase(3)?;
        ::arena::__private::Result::Ok(PassHeadViews {
            x: p.view::<f32>(0),
            ids: p.view::<u32>(4),
            __arena_marker: ::core::marker::PhantomData,
        })
    }
    /**The views of phase `head`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time.

# Panics

Where [`Self::try_head`] fails: a device error while filling or checking guards.*/
    #[track_caller]
    pub fn head(&mut self) -> PassHeadViews<'_, M> {
        ::arena::__private::or_panic(self.try_head())
    }
}
///The views of the buffers of [`Pass`] live in phase `embed` (phase 1 of 4), from [`PassPhases::embed`].
pub struct PassEmbedViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**The residual stream: live throughout.

Bytes: `4 * m * h`*/
    pub x: M::Slice<'a, f32>,
    #[doc(hidden)]
    pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
}
///The views of the buffers of [`Pass`] live in phase `attn` (phase 2 of 4), from [`PassPhases::attn`].
pub struct PassAttnViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**The residual stream: live throughout.

Bytes: `4 * m * h`*/
    pub x: M::Slice<'a, f32>,
    ///Bytes: `4 * m * (3 * h)`
    pub qkv: M::Slice<'a, f32>,
    ///Bytes: `m * h` (zeroed)
    pub mask: M::Slice<'a, u8>,
    #[doc(hidden)]
    pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
}
///The views of the buffers of [`Pass`] live in phase `mlp` (phase 3 of 4), from [`PassPhases::mlp`].
pub struct PassMlpViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**The residual stream: live throughout.

Bytes: `4 * m * h`*/
    pub x: M::Slice<'a, f32>,
    ///Bytes: `4 * m * (4 * h)`
    pub up: M::Slice<'a, f32>,
    ///Bytes: `m * h` (zeroed)
    pub mask: M::Slice<'a, u8>,
    #[doc(hidden)]
    pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
}
///The views of the buffers of [`Pass`] live in phase `head` (phase 4 of 4), from [`PassPhases::head`].
pub struct PassHeadViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**The residual stream: live throughout.

Bytes: `4 * m * h`*/
    pub x: M::Slice<'a, f32>,
    ///Bytes: `4 * m`
    pub ids: M::Slice<'a, u32>,
    #[doc(hidden)]
    pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
}
///The dimensions of every buffer of [`Pass`] declared with `shape = [...]`, as [`Pass::try_step_with`] computes them; all 0 for a buffer that is off.
pub struct PassShapes {
    ///`[m, h]`
    pub x: [usize; 2],
    ///`[m, 3 * h]`
    pub qkv: [usize; 2],
    ///`[m, 4 * h]`
    pub up: [usize; 2],
    ///`[m, h]`
    pub mask: [usize; 2],
    ///`[m]`
    pub ids: [usize; 1],
}
impl ::core::default::Default for PassShapes {
    fn default() -> Self {
        Self {
            x: [0; 2],
            qkv: [0; 2],
            up: [0; 2],
            mask: [0; 2],
            ids: [0; 1],
        }
    }
}
impl ::core::clone::Clone for PassShapes {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl ::core::marker::Copy for PassShapes {}

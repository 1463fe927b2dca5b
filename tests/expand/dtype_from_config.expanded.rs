// The code `#[derive(Arena)]` generates for `Activations` in examples/dtype_from_config.rs.
// Regenerate: ARENA_BLESS=1 cargo test -p arena-macros snapshot

#[allow(non_snake_case, unused, clippy::all, clippy::pedantic)]
impl Activations {
    /**Sizes every field of [`Activations`] from its formula, with levers taken from `levers`.

| field | bytes | condition |
|---|---|---|
| `hidden` | `cfg.dtype.bytes() * M * h` |  |
| `qkv` | `cfg.dtype.bytes() * M * (h + 2 * kv)` |  |
| `gate_up` | `cfg.dtype.bytes() * M * (2 * cfg.intermediate_size)` |  |
| `rstd` | `4 * M` |  |
| `logits` | `4 * min(M, 256) * cfg.vocab_size` |  |

# Errors

A [`SizeError`](::arena::SizeError) naming the field and its formula when a formula overflows, divides by zero or a lever value is malformed.*/
    pub fn try_from_config_with(
        levers: &::arena::Levers,
        cfg: &LlamaConfig,
        max_tokens: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        ::arena::__private::sized(|shapes| Self::__arena_build::<
            false,
            false,
        >(levers, cfg, max_tokens, shapes))
    }
    /**Sizes [`Activations`] for one step, as [`Activations::try_from_config_with`], and gives the step's dimensions of every buffer declared with `shape = [...]` ([`ActivationsShapes`]), computed by the same sizing: a kernel launch reads them instead of recomputing them. The views of the step come from [`HostSlab::views_for`](::arena::HostSlab::views_for).

# Errors

As [`Activations::try_from_config_with`].*/
    pub fn try_step_with(
        levers: &::arena::Levers,
        cfg: &LlamaConfig,
        max_tokens: usize,
    ) -> ::arena::__private::Result<(Self, ActivationsShapes), ::arena::SizeError> {
        ::arena::__private::with_shapes(|shapes| Self::__arena_build::<
            false,
            true,
        >(levers, cfg, max_tokens, shapes))
    }
    /// The sizing, and the slab's bytes for a parent.
    #[doc(hidden)]
    #[inline]
    pub fn __arena_build<const __ARENA_SLAB: bool, const __ARENA_SHAPES: bool>(
        levers: &::arena::Levers,
        cfg: &LlamaConfig,
        max_tokens: usize,
        shapes: &mut ActivationsShapes,
    ) -> ::arena::__private::Result<(Self, usize), ::arena::SizeError> {
        use ::arena::__private::formula::{min, n, wide};
        let cx = ::arena::__private::Sizing::new("Activations");
        let M = max_tokens;
        let h: usize = cx.size("h", "cfg.hidden_size", n(cfg.hidden_size))?;
        let kv: usize = cx
            .size(
                "kv",
                "cfg.num_key_value_heads * (h / cfg.num_attention_heads)",
                n(cfg.num_key_value_heads) * (n(h) / cfg.num_attention_heads),
            )?;
        let hidden_dtype: ::arena::DType = cfg.dtype;
        let hidden: usize = cx
            .size(
                "hidden",
                "cfg.dtype.bytes() * M * h",
                n(hidden_dtype.bytes()) * M * h,
            )?;
        if __ARENA_SHAPES {
            shapes.hidden = [M, h];
        }
        let qkv_dtype: ::arena::DType = cfg.dtype;
        let qkv: usize = cx
            .size(
                "qkv",
                "cfg.dtype.bytes() * M * (h + 2 * kv)",
                n(qkv_dtype.bytes()) * M * (h + n(2) * kv),
            )?;
        if __ARENA_SHAPES {
            shapes.qkv = [M, cx.size("qkv", "h + 2 * kv", h + n(2) * kv)?];
        }
        let gate_up_dtype: ::arena::DType = cfg.dtype;
        let gate_up: usize = cx
            .size(
                "gate_up",
                "cfg.dtype.bytes() * M * (2 * cfg.intermediate_size)",
                n(gate_up_dtype.bytes()) * M * (n(2) * cfg.intermediate_size),
            )?;
        if __ARENA_SHAPES {
            shapes.gate_up = [
                M,
                cx
                    .size(
                        "gate_up",
                        "2 * cfg.intermediate_size",
                        n(2) * cfg.intermediate_size,
                    )?,
            ];
        }
        let rstd: usize = cx.size("rstd", "4 * M", n(4) * M)?;
        if __ARENA_SHAPES {
            shapes.rstd = [M];
        }
        let logits: usize = cx
            .size(
                "logits",
                "4 * min(M, 256) * cfg.vocab_size",
                n(4) * min(M, 256) * cfg.vocab_size,
            )?;
        if __ARENA_SHAPES {
            shapes.logits = [
                cx.size("logits", "min(M, 256)", min(M, 256))?,
                cx.size("logits", "cfg.vocab_size", n(cfg.vocab_size))?,
            ];
        }
        let slab = if __ARENA_SLAB {
            ::arena::__private::slab::<Self, _>([hidden, qkv, gate_up, rstd, logits])?
        } else {
            cx.total::<
                    Self,
                    _,
                >(
                wide(hidden) + qkv + gate_up + rstd + logits,
                move || [hidden, qkv, gate_up, rstd, logits],
            )?;
            0
        };
        ::arena::__private::Result::Ok((
            Self {
                hidden: ::arena::DynBytes::new(hidden, hidden_dtype),
                qkv: ::arena::DynBytes::new(qkv, qkv_dtype),
                gate_up: ::arena::DynBytes::new(gate_up, gate_up_dtype),
                rstd,
                logits,
            },
            slab,
        ))
    }
    /**Sizes every field of [`Activations`], reading its levers from the environment once.

Parameters with a default take it. See [`Activations::try_from_config_with`] for the formulas.

# Errors

As [`Activations::try_from_config_with`].*/
    pub fn try_from_config(
        cfg: &LlamaConfig,
        max_tokens: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        Self::try_from_config_with(
            &<Self as ::arena::Arena>::levers_from_env(),
            cfg,
            max_tokens,
        )
    }
    /// The sum a preflight reserves: every buffer but `not_in_total` ones.
    #[inline]
    pub fn total_bytes(&self) -> usize {
        <Self as ::arena::Arena>::total_bytes(self)
    }
    /**Sizes every field of [`Activations`], reading its levers from the environment once.

# Panics

When [`Activations::try_from_config`] returns an error; the message names the field and its formula.*/
    #[track_caller]
    pub fn from_config(cfg: &LlamaConfig, max_tokens: usize) -> Self {
        ::arena::__private::or_panic(Self::try_from_config(cfg, max_tokens))
    }
}
impl ::arena::Arena for Activations {
    const NAME: &'static str = "Activations";
    const ALIGN: usize = 256usize;
    const BUFFERS: &'static [::arena::BufferInfo] = &[
        ::arena::BufferInfo::dyn_buffer(
                "hidden",
                "The residual stream.",
                "cfg.dtype.bytes() * M * h",
                "cfg.dtype",
            )
            .shape(&["M", "h"]),
        ::arena::BufferInfo::dyn_buffer(
                "qkv",
                "Q, K and V of every token (grouped-query attention).",
                "cfg.dtype.bytes() * M * (h + 2 * kv)",
                "cfg.dtype",
            )
            .shape(&["M", "h + 2 * kv"]),
        ::arena::BufferInfo::dyn_buffer(
                "gate_up",
                "The MLP's gate and up projections, side by side.",
                "cfg.dtype.bytes() * M * (2 * cfg.intermediate_size)",
                "cfg.dtype",
            )
            .shape(&["M", "2 * cfg.intermediate_size"]),
        ::arena::BufferInfo::buffer::<
            f32,
        >("rstd", "One RMSNorm scale per token, always f32.", "4 * M", "f32")
            .shape(&["M"]),
        ::arena::BufferInfo::buffer::<
            f32,
        >(
                "logits",
                "Logits of up to 256 sequences' last tokens, in f32.",
                "4 * min(M, 256) * cfg.vocab_size",
                "f32",
            )
            .shape(&["min(M, 256)", "cfg.vocab_size"]),
    ];
    type Views<'a, M: ::arena::Memory> = ActivationsViews<'a, M> where Self: 'a;
    type Shapes = ActivationsShapes;
    fn empty() -> Self {
        Self {
            hidden: ::arena::DynBytes::new(0, ::arena::DType::U8),
            qkv: ::arena::DynBytes::new(0, ::arena::DType::U8),
            gate_up: ::arena::DynBytes::new(0, ::arena::DType::U8),
            rstd: 0,
            logits: 0,
        }
    }
    #[inline]
    fn field_bytes(&self, index: usize) -> usize {
        match index {
            0 => self.hidden.bytes,
            1 => self.qkv.bytes,
            2 => self.gate_up.bytes,
            3 => self.rstd,
            4 => self.logits,
            _ => 0,
        }
    }
    #[inline]
    fn field_dtype(&self, index: usize) -> ::core::option::Option<::arena::DType> {
        match index {
            0 => ::core::option::Option::Some(self.hidden.dtype),
            1 => ::core::option::Option::Some(self.qkv.dtype),
            2 => ::core::option::Option::Some(self.gate_up.dtype),
            _ => ::arena::__private::static_dtype(Self::BUFFERS, index),
        }
    }
    #[inline]
    fn slab_bytes(&self) -> ::arena::__private::Result<usize, ::arena::SizeError> {
        ::arena::__private::slab::<
            Self,
            _,
        >([
            self.hidden.bytes,
            self.qkv.bytes,
            self.gate_up.bytes,
            self.rstd,
            self.logits,
        ])
    }
    const PARAMS: &'static [&'static str] = &["cfg", "max_tokens"];
    fn growth(param: &str) -> ::arena::fit::Growth {
        match param {
            "cfg" => {
                ::arena::fit::Growth::NotKnown {
                    item: "hidden",
                    formula: "cfg.dtype",
                }
            }
            "max_tokens" | "M" => ::arena::fit::Growth::Grows,
            _ => ::arena::fit::Growth::NotAParam,
        }
    }
    fn carve_step<'a, M: ::arena::Memory>(
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: ::arena::Carving,
    ) -> ::arena::__private::Result<Self::Views<'a, M>, ::arena::StepError> {
        let mut c = ::arena::__private::FieldCarver::<
            M,
            Self,
        >::new(self, step, region, carving);
        ::arena::__private::Result::Ok(ActivationsViews {
            hidden: c.dyn_view(0, step.hidden.dtype)?,
            qkv: c.dyn_view(1, step.qkv.dtype)?,
            gate_up: c.dyn_view(2, step.gate_up.dtype)?,
            rstd: c.view::<f32>(3)?,
            logits: c.view::<f32>(4)?,
        })
    }
}
impl ::arena::__private::Plumbing for Activations {}
///Typed views of every buffer of [`Activations`], carved from one region.
pub struct ActivationsViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**The residual stream.

Bytes: `cfg.dtype.bytes() * M * h`*/
    pub hidden: ::arena::DynView<'a, M>,
    /**Q, K and V of every token (grouped-query attention).

Bytes: `cfg.dtype.bytes() * M * (h + 2 * kv)`*/
    pub qkv: ::arena::DynView<'a, M>,
    /**The MLP's gate and up projections, side by side.

Bytes: `cfg.dtype.bytes() * M * (2 * cfg.intermediate_size)`*/
    pub gate_up: ::arena::DynView<'a, M>,
    /**One RMSNorm scale per token, always f32.

Bytes: `4 * M`*/
    pub rstd: M::Slice<'a, f32>,
    /**Logits of up to 256 sequences' last tokens, in f32.

Bytes: `4 * min(M, 256) * cfg.vocab_size`*/
    pub logits: M::Slice<'a, f32>,
}
///The dimensions of every buffer of [`Activations`] declared with `shape = [...]`, as [`Activations::try_step_with`] computes them; all 0 for a buffer that is off.
pub struct ActivationsShapes {
    ///`[M, h]`
    pub hidden: [usize; 2],
    ///`[M, h + 2 * kv]`
    pub qkv: [usize; 2],
    ///`[M, 2 * cfg.intermediate_size]`
    pub gate_up: [usize; 2],
    ///`[M]`
    pub rstd: [usize; 1],
    ///`[min(M, 256), cfg.vocab_size]`
    pub logits: [usize; 2],
}
impl ::core::default::Default for ActivationsShapes {
    fn default() -> Self {
        Self {
            hidden: [0; 2],
            qkv: [0; 2],
            gate_up: [0; 2],
            rstd: [0; 1],
            logits: [0; 2],
        }
    }
}
impl ::core::clone::Clone for ActivationsShapes {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl ::core::marker::Copy for ActivationsShapes {}

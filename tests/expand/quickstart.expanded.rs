// The code `#[derive(Arena)]` generates for `Scratch` in examples/quickstart.rs.
// Regenerate: ARENA_BLESS=1 cargo test -p arena-macros snapshot

#[allow(non_snake_case, unused, clippy::all, clippy::pedantic)]
impl Scratch {
    /**Sizes every field of [`Scratch`] from its formula, with levers taken from `levers`.

| field | bytes | condition |
|---|---|---|
| `hidden_states` | `2 * M * h` |  |
| `mlp_up` | `2 * ceil16(M) * K` |  |
| `router_logits` | `if config.num_experts > 0 { 4 * M * config.num_experts } else { 256 }` |  |
| `router_in_f32` | `4 * M * h` | lever `DEMO_FP32_ROUTER`; when `config.num_experts > 0` |
| `fp8_scales` | `ceil16(M) * div_ceil(K, 128) * 4` | lever `DEMO_FP8_SCALES` |
| `logits` | `2 * min(M, 256) * config.vocab_size` |  |
| `norm_unit_w` | `2 * h` | not in total; zeroed |

# Errors

A [`SizeError`](::arena::SizeError) naming the field and its formula when a formula overflows, divides by zero or a lever value is malformed.*/
    pub fn try_from_config_with(
        levers: &::arena::Levers,
        config: &ModelConfig,
        max_batch_tokens: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        ::arena::__private::sized(|shapes| Self::__arena_build::<
            false,
            false,
        >(levers, config, max_batch_tokens, shapes))
    }
    /**Sizes [`Scratch`] for one step, as [`Scratch::try_from_config_with`], and gives the step's dimensions of every buffer declared with `shape = [...]` ([`ScratchShapes`]), computed by the same sizing: a kernel launch reads them instead of recomputing them. The views of the step come from [`HostSlab::views_for`](::arena::HostSlab::views_for).

# Errors

As [`Scratch::try_from_config_with`].*/
    pub fn try_step_with(
        levers: &::arena::Levers,
        config: &ModelConfig,
        max_batch_tokens: usize,
    ) -> ::arena::__private::Result<(Self, ScratchShapes), ::arena::SizeError> {
        ::arena::__private::with_shapes(|shapes| Self::__arena_build::<
            false,
            true,
        >(levers, config, max_batch_tokens, shapes))
    }
    /// The sizing, and the slab's bytes for a parent.
    #[doc(hidden)]
    #[inline]
    pub fn __arena_build<const __ARENA_SLAB: bool, const __ARENA_SHAPES: bool>(
        levers: &::arena::Levers,
        config: &ModelConfig,
        max_batch_tokens: usize,
        shapes: &mut ScratchShapes,
    ) -> ::arena::__private::Result<(Self, usize), ::arena::SizeError> {
        use ::arena::__private::formula::{ceil16, div_ceil, max, min, n, wide};
        let cx = ::arena::__private::Sizing::new("Scratch");
        let M = max_batch_tokens;
        let DEMO_FP8_SCALES: bool = ::arena::__private::bool_lever(
            levers,
            "DEMO_FP8_SCALES",
            false,
        )?;
        let DEMO_FP32_ROUTER: bool = ::arena::__private::bool_lever(
            levers,
            "DEMO_FP32_ROUTER",
            true,
        )?;
        let h: usize = cx.size("h", "config.hidden_size", n(config.hidden_size))?;
        let K: usize = cx
            .size(
                "K",
                "max(h, config.intermediate_size)",
                max(h, config.intermediate_size),
            )?;
        let hidden_states: usize = cx.size("hidden_states", "2 * M * h", n(2) * M * h)?;
        if __ARENA_SHAPES {
            shapes.hidden_states = [M, h];
        }
        let mlp_up: usize = cx
            .size("mlp_up", "2 * ceil16(M) * K", n(2) * ceil16(M) * K)?;
        if __ARENA_SHAPES {
            shapes.mlp_up = [cx.size("mlp_up", "ceil16(M)", ceil16(M))?, K];
        }
        let router_logits: usize = cx
            .size(
                "router_logits",
                "if config.num_experts > 0 { 4 * M * config.num_experts } else { 256 }",
                if config.num_experts > 0 {
                    n(4) * M * config.num_experts
                } else {
                    n(256)
                },
            )?;
        let router_in_f32_on: bool = DEMO_FP32_ROUTER && config.num_experts > 0;
        let router_in_f32: usize = if router_in_f32_on {
            cx.size("router_in_f32", "4 * M * h", n(4) * M * h)?
        } else {
            0
        };
        if __ARENA_SHAPES && router_in_f32_on {
            shapes.router_in_f32 = [M, h];
        }
        let fp8_scales: usize = if DEMO_FP8_SCALES {
            cx.size(
                "fp8_scales",
                "ceil16(M) * div_ceil(K, 128) * 4",
                ceil16(M) * div_ceil(K, 128) * 4,
            )?
        } else {
            0
        };
        let logits: usize = cx
            .size(
                "logits",
                "2 * min(M, 256) * config.vocab_size",
                n(2) * min(M, 256) * config.vocab_size,
            )?;
        if __ARENA_SHAPES {
            shapes.logits = [
                cx.size("logits", "min(M, 256)", min(M, 256))?,
                cx.size("logits", "config.vocab_size", n(config.vocab_size))?,
            ];
        }
        let norm_unit_w: usize = cx.size("norm_unit_w", "2 * h", n(2) * h)?;
        if __ARENA_SHAPES {
            shapes.norm_unit_w = [h];
        }
        let slab = if __ARENA_SLAB {
            ::arena::__private::slab::<
                Self,
                _,
            >([
                hidden_states,
                mlp_up,
                router_logits,
                router_in_f32,
                fp8_scales,
                logits,
                norm_unit_w,
            ])?
        } else {
            cx.total::<
                    Self,
                    _,
                >(
                wide(hidden_states) + mlp_up + router_logits + router_in_f32 + fp8_scales
                    + logits,
                move || [
                    hidden_states,
                    mlp_up,
                    router_logits,
                    router_in_f32,
                    fp8_scales,
                    logits,
                ],
            )?;
            0
        };
        ::arena::__private::Result::Ok((
            Self {
                hidden_states,
                mlp_up,
                router_logits,
                router_in_f32,
                fp8_scales,
                logits,
                norm_unit_w,
            },
            slab,
        ))
    }
    /**Sizes every field of [`Scratch`], reading its levers from the environment once.

Parameters with a default take it. See [`Scratch::try_from_config_with`] for the formulas.

# Errors

As [`Scratch::try_from_config_with`].*/
    pub fn try_from_config(
        config: &ModelConfig,
        max_batch_tokens: usize,
    ) -> ::arena::__private::Result<Self, ::arena::SizeError> {
        Self::try_from_config_with(
            &<Self as ::arena::Arena>::levers_from_env(),
            config,
            max_batch_tokens,
        )
    }
    /// The sum a preflight reserves: every buffer but `not_in_total` ones.
    #[inline]
    pub fn total_bytes(&self) -> usize {
        <Self as ::arena::Arena>::total_bytes(self)
    }
    /**Sizes every field of [`Scratch`], reading its levers from the environment once.

# Panics

When [`Scratch::try_from_config`] returns an error; the message names the field and its formula.*/
    #[track_caller]
    pub fn from_config(config: &ModelConfig, max_batch_tokens: usize) -> Self {
        ::arena::__private::or_panic(Self::try_from_config(config, max_batch_tokens))
    }
}
impl ::arena::Arena for Scratch {
    const NAME: &'static str = "Scratch";
    const ALIGN: usize = 256usize;
    const BUFFERS: &'static [::arena::BufferInfo] = &[
        ::arena::BufferInfo::buffer::<
            ::arena::bf16,
        >("hidden_states", "Hidden states.", "2 * M * h", "bf16")
            .shape(&["M", "h"]),
        ::arena::BufferInfo::buffer::<
            ::arena::bf16,
        >("mlp_up", "Output of the MLP's up projection.", "2 * ceil16(M) * K", "bf16")
            .shape(&["ceil16(M)", "K"]),
        ::arena::BufferInfo::buffer::<
            f32,
        >(
            "router_logits",
            "Router logits; 256 bytes without experts.",
            "if config.num_experts > 0 { 4 * M * config.num_experts } else { 256 }",
            "f32",
        ),
        ::arena::BufferInfo::buffer::<
            f32,
        >(
                "router_in_f32",
                "FP32 copy of the router input, only for the FP32 router.",
                "4 * M * h",
                "f32",
            )
            .shape(&["M", "h"])
            .lever("DEMO_FP32_ROUTER")
            .when("config.num_experts > 0"),
        ::arena::BufferInfo::buffer::<
            f32,
        >(
                "fp8_scales",
                "One f32 scale per 128 FP8 activations.",
                "ceil16(M) * div_ceil(K, 128) * 4",
                "f32",
            )
            .lever("DEMO_FP8_SCALES"),
        ::arena::BufferInfo::buffer::<
            ::arena::bf16,
        >(
                "logits",
                "Logits of the last token of each sequence.",
                "2 * min(M, 256) * config.vocab_size",
                "bf16",
            )
            .shape(&["min(M, 256)", "config.vocab_size"]),
        ::arena::BufferInfo::buffer::<
            ::arena::bf16,
        >(
                "norm_unit_w",
                "A zero RMSNorm weight: the kernel scales by (1 + w).",
                "2 * h",
                "bf16",
            )
            .shape(&["h"])
            .not_in_total()
            .zeroed(),
    ];
    const LEVERS: &'static [::arena::LeverInfo] = &[
        ::arena::LeverInfo {
            name: "DEMO_FP8_SCALES",
            default: ::core::option::Option::Some(false),
        },
        ::arena::LeverInfo {
            name: "DEMO_FP32_ROUTER",
            default: ::core::option::Option::Some(true),
        },
    ];
    type Views<'a, M: ::arena::Memory> = ScratchViews<'a, M> where Self: 'a;
    type Shapes = ScratchShapes;
    fn empty() -> Self {
        Self {
            hidden_states: 0,
            mlp_up: 0,
            router_logits: 0,
            router_in_f32: 0,
            fp8_scales: 0,
            logits: 0,
            norm_unit_w: 0,
        }
    }
    #[inline]
    fn field_bytes(&self, index: usize) -> usize {
        match index {
            0 => self.hidden_states,
            1 => self.mlp_up,
            2 => self.router_logits,
            3 => self.router_in_f32,
            4 => self.fp8_scales,
            5 => self.logits,
            6 => self.norm_unit_w,
            _ => 0,
        }
    }
    #[inline]
    fn slab_bytes(&self) -> ::arena::__private::Result<usize, ::arena::SizeError> {
        ::arena::__private::slab::<
            Self,
            _,
        >([
            self.hidden_states,
            self.mlp_up,
            self.router_logits,
            self.router_in_f32,
            self.fp8_scales,
            self.logits,
            self.norm_unit_w,
        ])
    }
    fn collect_lever_names(out: &mut ::arena::__private::Vec<&'static str>) {
        out.push("DEMO_FP8_SCALES");
        out.push("DEMO_FP32_ROUTER");
    }
    const PARAMS: &'static [&'static str] = &["config", "max_batch_tokens"];
    fn growth(param: &str) -> ::arena::fit::Growth {
        match param {
            "config" => {
                ::arena::fit::Growth::NotKnown {
                    item: "h",
                    formula: "config.hidden_size",
                }
            }
            "max_batch_tokens" | "M" => ::arena::fit::Growth::Grows,
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
        ::arena::__private::Result::Ok(ScratchViews {
            hidden_states: c.view::<::arena::bf16>(0)?,
            mlp_up: c.view::<::arena::bf16>(1)?,
            router_logits: c.view::<f32>(2)?,
            router_in_f32: c.view::<f32>(3)?,
            fp8_scales: c.view::<f32>(4)?,
            logits: c.view::<::arena::bf16>(5)?,
            norm_unit_w: c.view::<::arena::bf16>(6)?,
        })
    }
}
impl ::arena::__private::Plumbing for Scratch {}
///Typed views of every buffer of [`Scratch`], carved from one region.
pub struct ScratchViews<'a, M: ::arena::Memory = ::arena::Host> {
    /**Hidden states.

Bytes: `2 * M * h`*/
    pub hidden_states: M::Slice<'a, ::arena::bf16>,
    /**Output of the MLP's up projection.

Bytes: `2 * ceil16(M) * K`*/
    pub mlp_up: M::Slice<'a, ::arena::bf16>,
    /**Router logits; 256 bytes without experts.

Bytes: `if config.num_experts > 0 { 4 * M * config.num_experts } else { 256 }`*/
    pub router_logits: M::Slice<'a, f32>,
    /**FP32 copy of the router input, only for the FP32 router.

Bytes: `4 * M * h` (lever `DEMO_FP32_ROUTER`; when `config.num_experts > 0`)*/
    pub router_in_f32: M::Slice<'a, f32>,
    /**One f32 scale per 128 FP8 activations.

Bytes: `ceil16(M) * div_ceil(K, 128) * 4` (lever `DEMO_FP8_SCALES`)*/
    pub fp8_scales: M::Slice<'a, f32>,
    /**Logits of the last token of each sequence.

Bytes: `2 * min(M, 256) * config.vocab_size`*/
    pub logits: M::Slice<'a, ::arena::bf16>,
    /**A zero RMSNorm weight: the kernel scales by (1 + w).

Bytes: `2 * h` (not in total; zeroed)*/
    pub norm_unit_w: M::Slice<'a, ::arena::bf16>,
}
///The dimensions of every buffer of [`Scratch`] declared with `shape = [...]`, as [`Scratch::try_step_with`] computes them; all 0 for a buffer that is off.
pub struct ScratchShapes {
    ///`[M, h]`
    pub hidden_states: [usize; 2],
    ///`[ceil16(M), K]`
    pub mlp_up: [usize; 2],
    ///`[M, h]`
    pub router_in_f32: [usize; 2],
    ///`[min(M, 256), config.vocab_size]`
    pub logits: [usize; 2],
    ///`[h]`
    pub norm_unit_w: [usize; 1],
}
impl ::core::default::Default for ScratchShapes {
    fn default() -> Self {
        Self {
            hidden_states: [0; 2],
            mlp_up: [0; 2],
            router_in_f32: [0; 2],
            logits: [0; 2],
            norm_unit_w: [0; 1],
        }
    }
}
impl ::core::clone::Clone for ScratchShapes {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl ::core::marker::Copy for ScratchShapes {}

//! A first arena: the scratch buffers of a small transformer, declared once.
//!
//! Run it with `cargo run --example quickstart`.

use arena::report::Report;
use arena::{Arena, HostSlab, Levers};

/// What the sizing reads from the model.
#[derive(Debug)]
pub struct ModelConfig {
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_experts: usize,
    pub vocab_size: usize,
}

/// Scratch of one forward pass of up to `max_batch_tokens` tokens.
#[derive(Arena, Debug, Clone)]
#[arena(params(config: &ModelConfig, max_batch_tokens: usize as M))]
#[arena(lever(DEMO_FP8_SCALES), lever(DEMO_FP32_ROUTER, default = true))]
#[arena(let h = config.hidden_size, let K = max(h, config.intermediate_size))]
pub struct Scratch {
    /// Hidden states.
    #[arena(shape = [M, h], dtype = bf16)]
    pub hidden_states: usize,
    /// Output of the MLP's up projection.
    #[arena(shape = [ceil16(M), K], dtype = bf16)]
    pub mlp_up: usize,
    /// Router logits; 256 bytes without experts.
    #[arena(size = if config.num_experts > 0 { 4 * M * config.num_experts } else { 256 }, dtype = f32)]
    pub router_logits: usize,
    /// FP32 copy of the router input, only for the FP32 router.
    #[arena(shape = [M, h], dtype = f32, lever = DEMO_FP32_ROUTER, when = config.num_experts > 0)]
    pub router_in_f32: usize,
    /// One f32 scale per 128 FP8 activations.
    #[arena(size = "ceil16(M) * div_ceil(K, 128) * 4", dtype = f32, lever = DEMO_FP8_SCALES)]
    pub fp8_scales: usize,
    /// Logits of the last token of each sequence.
    #[arena(shape = [min(M, 256), config.vocab_size], dtype = bf16)]
    pub logits: usize,
    /// A zero RMSNorm weight: the kernel scales by (1 + w).
    #[arena(shape = [h], dtype = bf16, zeroed, not_in_total)]
    pub norm_unit_w: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = ModelConfig {
        hidden_size: 2048,
        intermediate_size: 5120,
        num_experts: 64,
        vocab_size: 151_936,
    };
    // Levers are passed explicitly here; `Scratch::from_config` reads the environment.
    let levers = Levers::new().with("DEMO_FP8_SCALES", "1");
    let scratch = Scratch::try_from_config_with(&levers, &config, 4096)?;
    let layout = scratch.layout()?;

    // The size table, through `arena::report` (feature `report`).
    print!("{}", Report::of(&scratch)?.table());

    // One host allocation, every buffer a typed view, all alive at once.
    let mut slab = HostSlab::new(scratch)?;
    let views = slab.views();
    views.hidden_states.fill(arena::bf16::from_f32(1.0));
    views.router_logits[0] = 0.5;
    assert!(views.norm_unit_w.iter().all(|w| w.to_f32() == 0.0));
    println!(
        "carved {} views from one {}-byte allocation",
        layout.placements.len(),
        layout.slab_bytes
    );
    Ok(())
}

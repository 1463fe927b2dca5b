//! Activations in the dtype the model ships in: the arena is sized from a
//! Hugging Face `config.json` and its `torch_dtype`, read when the model
//! loads, and its views are typed from that dtype with no unsafe code.
//!
//! Run it with `cargo run --example dtype_from_config` (Llama 3.1 8B's
//! config.json, embedded) or `cargo run --example dtype_from_config --
//! path/to/config.json [max_tokens]`.

use std::error::Error;

use arena::report::Report;
use arena::{Arena, DType, DynBytes, HostSlab, Levers, bf16, f16};

/// The published config.json of meta-llama/Meta-Llama-3.1-8B, byte for byte.
const LLAMA_3_1_8B: &str = include_str!("configs/meta-llama__Meta-Llama-3.1-8B.json");

/// What the sizing reads from config.json.
#[derive(Debug)]
pub struct LlamaConfig {
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    pub vocab_size: usize,
    /// `torch_dtype`: the dtype of the weights, and of the activations.
    pub dtype: DType,
}

impl LlamaConfig {
    /// Reads the fields the arena needs; an error names the missing or
    /// malformed key.
    pub fn from_json(text: &str) -> Result<Self, Box<dyn Error>> {
        // A UTF-8 byte order mark before the JSON is skipped.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let v: serde_json::Value = serde_json::from_str(text)?;
        let size = |key: &str| -> Result<usize, Box<dyn Error>> {
            v[key]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("config.json: `{key}` is not a whole number").into())
        };
        let dtype = v["torch_dtype"]
            .as_str()
            .ok_or("config.json: no `torch_dtype`")?
            .parse::<DType>()
            .map_err(|e| format!("config.json: `torch_dtype`: {e}"))?;
        Ok(LlamaConfig {
            hidden_size: size("hidden_size")?,
            intermediate_size: size("intermediate_size")?,
            num_attention_heads: size("num_attention_heads")?,
            num_key_value_heads: size("num_key_value_heads")?,
            vocab_size: size("vocab_size")?,
            dtype,
        })
    }
}

/// The scratch of one decoder layer's forward pass over up to `max_tokens`
/// tokens: activations in the model's dtype, statistics and logits in f32.
#[derive(Arena, Debug, Clone)]
#[arena(params(cfg: &LlamaConfig, max_tokens: usize as M))]
#[arena(let h = cfg.hidden_size, let kv = cfg.num_key_value_heads * (h / cfg.num_attention_heads))]
pub struct Activations {
    /// The residual stream.
    #[arena(shape = [M, h], dtype = cfg.dtype)]
    pub hidden: DynBytes,
    /// Q, K and V of every token (grouped-query attention).
    #[arena(shape = [M, h + 2 * kv], dtype = cfg.dtype)]
    pub qkv: DynBytes,
    /// The MLP's gate and up projections, side by side.
    #[arena(shape = [M, 2 * cfg.intermediate_size], dtype = cfg.dtype)]
    pub gate_up: DynBytes,
    /// One RMSNorm scale per token, always f32.
    #[arena(shape = [M], dtype = f32)]
    pub rstd: usize,
    /// Logits of up to 256 sequences' last tokens, in f32.
    #[arena(shape = [min(M, 256), cfg.vocab_size], dtype = f32)]
    pub logits: usize,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let text = match args.next() {
        Some(path) => {
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
        None => LLAMA_3_1_8B.to_owned(),
    };
    let max_tokens: usize = match args.next() {
        Some(m) => m
            .parse()
            .map_err(|_| format!("max_tokens {m:?} is not a number"))?,
        None => 512,
    };
    let config = LlamaConfig::from_json(&text)?;
    println!("torch_dtype: {}", config.dtype);

    let act = Activations::try_from_config_with(&Levers::new(), &config, max_tokens)?;
    print!("{}", Report::of(&act)?.table());

    // One allocation; the views of the model's dtype are typed from it.
    let mut slab = HostSlab::new(act)?;
    let views = slab.views();
    let hidden = views.hidden;
    println!("hidden: {} elements of {}", hidden.len(), hidden.dtype());
    match hidden.dtype() {
        DType::BF16 => hidden.typed::<bf16>()?.fill(bf16::ONE),
        DType::F16 => hidden.typed::<f16>()?.fill(f16::ONE),
        DType::F32 => hidden.typed::<f32>()?.fill(1.0),
        other => println!("(no kernel here for {other})"),
    }
    // Asking for another type is an error that names the buffer, never a
    // reinterpretation of its bytes.
    if let Err(e) = views.qkv.typed::<f64>() {
        println!("{e}");
    }
    views.rstd.fill(1.0);
    Ok(())
}

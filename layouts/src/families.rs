//! Hugging Face `config.json` -> [`ModelConfig`], one mapping per model family.
//!
//! The families of spec §3.2 follow it; the others are this project's own
//! mappings (spec §11), each documented in this package's README, its family
//! table. A key a mapping needs and the file lacks is an error naming the key.

use crate::config::{ConfigError, ModelConfig, Obj, generic};
use crate::rules::{self, Ctx, Reader};

/// Families the metrale runtime parses with code this project does not specify.
const UNSUPPORTED: [&str; 11] = [
    "gemma4",
    "laguna",
    "longcat_flash",
    "longcat_flash_ngram",
    "qwen4_exp",
    "qwen3_8_flash_next",
    "minimax_m2",
    "step3p7",
    "kimi_k3",
    "kimi_linear",
    "deepseek_v41",
];

/// The family key: `model_type`, else the first `architectures` entry mapped (§3.2 step 1).
fn family(obj: &Obj) -> Result<String, ConfigError> {
    let mt = obj.string_or("model_type", "")?;
    if !mt.is_empty() {
        return Ok(mt);
    }
    let arch = obj.strings("architectures")?;
    Ok(match arch.first().map(String::as_str) {
        Some("LongcatFlashNgramForCausalLM") => "longcat_flash_ngram",
        Some("LongcatFlashForCausalLM") => "longcat_flash",
        Some("Qwen4ExpForConditionalGeneration" | "Qwen3_8FlashNextForConditionalGeneration") => {
            "qwen4_exp"
        }
        _ => "",
    }
    .to_owned())
}

/// Model types the spec reads with the generic path on purpose (§3.2).
const GENERIC: [&str; 1] = ["qwen3_next"];

/// Maps `obj` by its family, then checks the result against every rule of
/// [`crate::rules`]; returns the config and the path that read it.
pub(crate) fn parse(obj: &Obj, file: &str) -> Result<(ModelConfig, Reader), ConfigError> {
    let f = family(obj)?;
    let (config, reader) = map(obj, &f)?;
    // The object the mapping read its sizing keys from.
    let text = match reader.name() {
        "qwen3_5" | "qwen3_5_moe" | "qwen3_vl_moe" | "glm5_next" => obj.child("text_config")?,
        _ => None,
    };
    let ctx = Ctx {
        config: &config,
        hf: Some(text.as_ref().unwrap_or(obj)),
        reader: reader.clone(),
    };
    rules::check(&ctx, file)?;
    Ok((config, reader))
}

fn map(obj: &Obj, f: &str) -> Result<(ModelConfig, Reader), ConfigError> {
    // A family's mapping is named by its canonical family key.
    let by = |family: &str, c: Result<ModelConfig, ConfigError>| {
        c.map(|c| (c, Reader::Family(family.to_owned())))
    };
    match f {
        "" => Err(obj.err(
            "model_type",
            "unknown model family: no `model_type` and no known `architectures` entry",
        )),
        "qwen3_5" | "qwen3_5_moe" | "qwen3_vl_moe" => by(f, qwen3_5(obj, f)),
        "nemotron_h" | "nemotron_h_puzzle" => by("nemotron_h", nemotron_h(obj)),
        "m2m_100" | "nllb" => by("m2m_100", m2m(obj)),
        "glm5_next" | "glm5_next_text" => by("glm5_next", glm5(obj)),
        "deepseek_v3" | "kimi_k2" => by("deepseek_v3", deepseek(obj, false)),
        "deepseek_v32" => by("deepseek_v32", deepseek(obj, true)),
        "deepseek_v4" => by("deepseek_v4", deepseek_v4(obj)),
        "llama" | "qwen3" | "mistral" => by(f, dense(obj)),
        "qwen3_moe" => by("qwen3_moe", qwen3_moe(obj)),
        "mixtral" | "gpt_oss" => by(f, local_experts(obj)),
        other if UNSUPPORTED.contains(&other) => Err(obj.err(
            "model_type",
            format!("model family `{other}` has no mapping in this project yet"),
        )),
        // Generic path (e.g. qwen3_next): the object as §3.1, gated attention.
        other => {
            let mut c = generic(obj)?;
            c.attn_gated = true;
            c.mrope_interleaved = false;
            let reader = Reader::Generic {
                model_type: other.to_owned(),
                known: GENERIC.contains(&other),
            };
            Ok((c, reader))
        }
    }
}

/// head_dim when given, else hidden / heads.
fn head_dim_or_split(obj: &Obj, c: &ModelConfig) -> Result<usize, ConfigError> {
    if c.head_dim > 0 {
        return Ok(c.head_dim);
    }
    let nq = obj.required("num_attention_heads")?;
    if nq == 0 {
        return Err(obj.err("num_attention_heads", "must be positive"));
    }
    Ok(c.hidden_size / nq)
}

fn require(obj: &Obj, keys: &[&str]) -> Result<(), ConfigError> {
    for k in keys {
        obj.required(k)?;
    }
    Ok(())
}

fn qwen3_5(obj: &Obj, f: &str) -> Result<ModelConfig, ConfigError> {
    let text = obj
        .child("text_config")?
        .ok_or_else(|| obj.err("text_config", "required key is missing"))?;
    let mut c = generic(&text)?;
    c.model_type = f.to_owned();
    if c.vocab_size == 0 {
        c.vocab_size = obj.usize_or("vocab_size", 0)?;
    }
    c.attn_gated = f != "qwen3_vl_moe";
    c.mrope_interleaved = match text.child("rope_parameters")? {
        Some(rp) => rp.bool_or("mrope_interleaved", false)?,
        None => false,
    };
    Ok(c)
}

fn nemotron_h(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let mut c = generic(obj)?;
    if c.num_experts == 0 {
        c.num_experts = obj.usize_or("n_routed_experts", 0)?;
    }
    if c.shared_expert_intermediate_size == 0 {
        c.shared_expert_intermediate_size =
            obj.usize_or("moe_shared_expert_intermediate_size", 0)?;
    }
    if c.head_dim == 0 {
        // This project's addition: Nemotron-H 56B names it attention_head_dim.
        c.head_dim = obj.usize_or("attention_head_dim", 0)?;
    }
    c.attn_gated = false;
    if c.layer_types.is_empty() {
        let pattern = obj.string_or("hybrid_override_pattern", "")?;
        c.layer_types = pattern
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                Ok(match ch {
                    'M' => "linear_attention",
                    'E' => "moe",
                    '*' => "full_attention",
                    '-' => "mlp",
                    other => {
                        return Err(obj.err(
                            "hybrid_override_pattern",
                            format!("unknown layer kind {other:?} at position {i}; expected M, E, * or -"),
                        ));
                    }
                }
                .to_owned())
            })
            .collect::<Result<_, _>>()?;
    }
    Ok(c)
}

fn m2m(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let h = obj.required("d_model")?;
    let nq = obj.required("decoder_attention_heads")?;
    if nq == 0 || h % nq != 0 {
        return Err(obj.err(
            "decoder_attention_heads",
            format!("{nq} does not divide d_model = {h}"),
        ));
    }
    Ok(ModelConfig {
        model_type: "m2m_100".into(),
        hidden_size: h,
        num_hidden_layers: obj.required("decoder_layers")?,
        intermediate_size: obj.required("decoder_ffn_dim")?,
        vocab_size: obj.required("vocab_size")?,
        num_attention_heads: nq,
        num_key_value_heads: nq,
        head_dim: h / nq,
        attn_gated: false,
        num_experts: 0,
        num_experts_per_tok: 1,
        moe_intermediate_size: 0,
        shared_expert_intermediate_size: 0,
        layer_types: Vec::new(),
        full_attention_interval: 1,
        linear_num_key_heads: 0,
        linear_key_head_dim: 0,
        linear_num_value_heads: 0,
        linear_value_head_dim: 0,
        ..ModelConfig::qwen3_next_80b_nvfp4()
    })
}

fn glm5(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let text = obj.child("text_config")?;
    let src = text.as_ref().unwrap_or(obj);
    let mut c = generic(src)?;
    c.layer_types = Vec::new();
    c.model_type = "glm5_next".into();
    c.qk_rope_head_dim = src.required("qk_rope_head_dim")?;
    if c.head_dim == 0 {
        c.head_dim = match src.opt_usize("qk_head_dim")? {
            Some(v) => v,
            None => src.usize_or("qk_nope_head_dim", 0)? + c.qk_rope_head_dim,
        };
    }
    if c.num_experts == 0 {
        c.num_experts = src.usize_or("n_routed_experts", 0)?;
    }
    let shared = src.usize_or("n_shared_experts", 0)?;
    if c.shared_expert_intermediate_size == 0 && shared > 0 {
        c.shared_expert_intermediate_size = shared * c.moe_intermediate_size;
    }
    if let Some(lin) = src.child("linear_attn_config")? {
        let heads = lin.usize_or("num_heads", 0)?;
        let dim = lin.usize_or("head_dim", 0)?;
        c.linear_num_key_heads = heads;
        c.linear_num_value_heads = heads;
        c.linear_key_head_dim = dim;
        c.linear_value_head_dim = dim;
    }
    c.attn_gated = false;
    Ok(c)
}

/// DeepSeek-V3 / Kimi-K2 (and V3.2 with its indexer).
fn deepseek(obj: &Obj, v32: bool) -> Result<ModelConfig, ConfigError> {
    require(
        obj,
        &["num_attention_heads", "vocab_size", "intermediate_size"],
    )?;
    let mut c = generic(obj)?;
    c.attn_gated = false;
    if c.num_experts == 0 {
        c.num_experts = obj.required("n_routed_experts")?;
    }
    if c.moe_intermediate_size == 0 {
        c.moe_intermediate_size = obj.required("moe_intermediate_size")?;
    }
    if c.shared_expert_intermediate_size == 0 {
        c.shared_expert_intermediate_size =
            obj.usize_or("n_shared_experts", 0)? * c.moe_intermediate_size;
    }
    if c.head_dim == 0 {
        c.head_dim = obj.usize_or("qk_nope_head_dim", 0)? + c.qk_rope_head_dim;
    }
    if v32 && c.index_topk > 0 && c.index_compress_ratio == 0 {
        // DSA's indexer scores every token: a compression ratio of 1.
        c.index_compress_ratio = 1;
    }
    Ok(c)
}

fn deepseek_v4(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    require(obj, &["num_attention_heads", "vocab_size", "head_dim"])?;
    let mut c = generic(obj)?;
    c.attn_gated = false;
    if c.num_experts == 0 {
        c.num_experts = obj.required("n_routed_experts")?;
    }
    let im = obj.required("moe_intermediate_size")?;
    if c.shared_expert_intermediate_size == 0 {
        c.shared_expert_intermediate_size = obj.usize_or("n_shared_experts", 0)? * im;
    }
    if c.index_compress_ratio == 0 {
        // The indexer runs on the layers with the smallest non-zero compression.
        c.index_compress_ratio = obj
            .usizes("compress_ratios")?
            .into_iter()
            .filter(|&r| r > 0)
            .min()
            .unwrap_or(0);
    }
    Ok(c)
}

/// The common start of the plain-attention families: the required keys, the
/// generic fields, no gated attention, `head_dim` or hidden / heads.
fn plain_attention(obj: &Obj, required: &[&str]) -> Result<ModelConfig, ConfigError> {
    require(obj, required)?;
    let mut c = generic(obj)?;
    c.attn_gated = false;
    c.head_dim = head_dim_or_split(obj, &c)?;
    Ok(c)
}

fn dense(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let mut c = plain_attention(
        obj,
        &[
            "num_attention_heads",
            "vocab_size",
            "intermediate_size",
            "num_hidden_layers",
        ],
    )?;
    if c.num_key_value_heads == 0 {
        c.num_key_value_heads = c.num_attention_heads;
    }
    Ok(c)
}

fn qwen3_moe(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    plain_attention(
        obj,
        &[
            "num_attention_heads",
            "vocab_size",
            "num_experts",
            "moe_intermediate_size",
        ],
    )
}

/// Mixtral and gpt-oss: experts under `num_local_experts`, each as wide as `intermediate_size`.
fn local_experts(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let mut c = plain_attention(
        obj,
        &["num_attention_heads", "vocab_size", "intermediate_size"],
    )?;
    c.num_experts = obj.required("num_local_experts")?;
    if !obj.has("num_experts_per_tok") {
        c.num_experts_per_tok = obj.required("experts_per_token")?;
    }
    c.moe_intermediate_size = c.intermediate_size;
    Ok(c)
}

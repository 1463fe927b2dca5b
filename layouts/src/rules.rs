//! The consistency rules of a model config, written once: each rule is one
//! function over the mapped [`ModelConfig`], and the table [`RULES`] says which
//! readers apply it. A config that breaks one is refused with one line naming
//! the file, the key and what was expected, instead of sizing buffers from
//! zeros.
//!
//! A Hugging Face `config.json` gets every rule. This project's own
//! ModelConfig JSON keeps the spec's defaults (§3.1: a missing key is 0, or 1
//! for `num_experts_per_tok` and `full_attention_interval`), which the spec's
//! fixtures rely on, so it gets only the relations a default cannot break:
//! `hidden_size`, the layer list, KV heads against heads, top-k against the
//! expert count, the linear-attention and the Mamba-2 keys.

use crate::config::{ConfigError, ModelConfig, Obj};

/// Which reader a config came through, and what it knows of the file.
pub(crate) struct Ctx<'a> {
    pub config: &'a ModelConfig,
    /// For a config.json: the object the family mapping read the sizing keys
    /// from (`text_config` for Qwen3.5), to tell a missing key from a zero.
    pub hf: Option<&'a Obj<'a>>,
    /// For a config.json: the mapping that read it.
    pub reader: Reader,
}

/// Which path of the config reader mapped a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    /// This project's own ModelConfig JSON.
    ModelConfigJson,
    /// A config.json read by the mapping of a family (`deepseek_v3`, `gpt_oss`, ...).
    Family(String),
    /// A config.json read by the generic path: the object as spec §3.1 has it.
    /// `known` is false when the `model_type` has no mapping and the generic
    /// path reads it as a guess.
    Generic { model_type: String, known: bool },
}

impl Reader {
    /// The short name the JSON report gives: `generic`, `model_config` or the family.
    pub fn name(&self) -> &str {
        match self {
            Reader::ModelConfigJson => "model_config",
            Reader::Family(f) => f,
            Reader::Generic { .. } => "generic",
        }
    }

    /// One sentence for the table.
    pub fn describe(&self) -> String {
        match self {
            Reader::ModelConfigJson => "this project's ModelConfig JSON".to_owned(),
            Reader::Family(f) => format!("the `{f}` mapping"),
            Reader::Generic {
                model_type,
                known: true,
            } => {
                format!("the generic path (spec §3.2, model_type `{model_type}`)")
            }
            Reader::Generic {
                model_type,
                known: false,
            } => format!(
                "the generic path: model_type `{model_type}` has no mapping of its own, check the sizes"
            ),
        }
    }
}

/// A broken rule: the key at fault and what was expected.
pub(crate) struct Broken {
    key: String,
    problem: String,
}

fn broken(key: &str, problem: impl Into<String>) -> Result<(), Broken> {
    Err(Broken {
        key: key.to_owned(),
        problem: problem.into(),
    })
}

type Check = fn(&Ctx) -> Result<(), Broken>;

/// One rule: its name (for tests and docs), whether this project's
/// ModelConfig JSON gets it too, and the check.
pub(crate) struct Rule {
    #[cfg_attr(not(test), expect(dead_code, reason = "named in tests and docs"))]
    pub name: &'static str,
    pub model_config_json: bool,
    pub check: Check,
}

/// Every rule, in the order they are checked: the first broken one is reported.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        name: "hidden size",
        model_config_json: true,
        check: hidden_size,
    },
    Rule {
        name: "core keys",
        model_config_json: false,
        check: core_keys,
    },
    Rule {
        name: "attention heads",
        model_config_json: true,
        check: attention_heads,
    },
    Rule {
        name: "head dim",
        model_config_json: false,
        check: head_dim,
    },
    Rule {
        name: "experts",
        model_config_json: true,
        check: experts,
    },
    Rule {
        name: "mla",
        model_config_json: false,
        check: mla,
    },
    Rule {
        name: "layers",
        model_config_json: true,
        check: layers,
    },
    Rule {
        name: "linear attention",
        model_config_json: true,
        check: linear_attention,
    },
    Rule {
        name: "mamba",
        model_config_json: true,
        check: mamba,
    },
];

/// Checks `ctx` against every rule its reader gets.
pub(crate) fn check(ctx: &Ctx, file: &str) -> Result<(), ConfigError> {
    let hf = ctx.hf.is_some();
    for rule in RULES.iter().filter(|r| hf || r.model_config_json) {
        if let Err(b) = (rule.check)(ctx) {
            return Err(match ctx.hf {
                Some(obj) => obj.err(&b.key, b.problem),
                None => ConfigError {
                    file: file.to_owned(),
                    key: Some(b.key),
                    problem: b.problem,
                },
            });
        }
    }
    Ok(())
}

impl Ctx<'_> {
    /// Whether the file has `key` (always true for the ModelConfig JSON,
    /// whose absent keys are the spec's defaults).
    fn has(&self, key: &str) -> bool {
        self.hf.is_none_or(|o| o.has(key))
    }

    /// `value` must be at least 1: a missing key or a 0 is an error naming `key`.
    fn positive(&self, key: &str, value: usize, why: &str) -> Result<(), Broken> {
        if value > 0 {
            return Ok(());
        }
        let hint = match &self.reader {
            Reader::Generic {
                model_type,
                known: false,
            } => format!(
                "; model_type `{model_type}` has no mapping of its own and the generic path needs it"
            ),
            _ => String::new(),
        };
        if self.has(key) {
            broken(
                key,
                format!("expected a positive integer ({why}), found 0{hint}"),
            )
        } else {
            broken(key, format!("required key is missing ({why}){hint}"))
        }
    }

    fn family(&self) -> Option<&str> {
        match &self.reader {
            Reader::Family(f) => Some(f),
            _ => None,
        }
    }
}

fn hidden_size(ctx: &Ctx) -> Result<(), Broken> {
    if ctx.config.hidden_size == 0 {
        return broken("hidden_size", "must be at least 1");
    }
    Ok(())
}

/// The keys every decoder has: layers, a vocabulary, attention heads; the
/// generic path also reads the KV heads, the head dim and the FFN width as is.
fn core_keys(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    if ctx.family() == Some("m2m_100") {
        return Ok(()); // its own keys (d_model, decoder_*) are required by its mapping
    }
    ctx.positive(
        "num_hidden_layers",
        c.num_hidden_layers,
        "every model has layers",
    )?;
    ctx.positive("vocab_size", c.vocab_size, "every model has a vocabulary")?;
    ctx.positive(
        "num_attention_heads",
        c.num_attention_heads,
        "every model of this path has attention layers",
    )?;
    if let Reader::Generic { .. } = ctx.reader {
        ctx.positive(
            "num_key_value_heads",
            c.num_key_value_heads,
            "the generic path reads it as is",
        )?;
        ctx.positive("head_dim", c.head_dim, "the generic path reads it as is")?;
        ctx.positive(
            "intermediate_size",
            c.intermediate_size,
            "the generic path reads it as is",
        )?;
    }
    Ok(())
}

/// KV heads: not more than the query heads, and dividing them (GQA groups).
fn attention_heads(ctx: &Ctx) -> Result<(), Broken> {
    let (nq, nkv) = (
        ctx.config.num_attention_heads,
        ctx.config.num_key_value_heads,
    );
    if nkv == 0 || nq == 0 {
        return Ok(());
    }
    if nkv > nq {
        return broken(
            "num_key_value_heads",
            format!("{nkv} is more than num_attention_heads = {nq}; expected at most {nq}"),
        );
    }
    if nq % nkv != 0 {
        return broken(
            "num_key_value_heads",
            format!("{nkv} does not divide num_attention_heads = {nq}; expected a divisor"),
        );
    }
    Ok(())
}

fn head_dim(ctx: &Ctx) -> Result<(), Broken> {
    ctx.positive(
        "head_dim",
        ctx.config.head_dim,
        "the width of one attention head",
    )
}

/// Top-k against the expert count; an MoE model names its top-k and expert width.
fn experts(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    if c.num_experts == 0 {
        return Ok(());
    }
    let topk_given = ctx.has("num_experts_per_tok") || ctx.has("experts_per_token");
    if !topk_given {
        return broken(
            "num_experts_per_tok",
            format!(
                "required key is missing (the top-k of a model with {} experts)",
                c.num_experts
            ),
        );
    }
    let k = c.num_experts_per_tok;
    if k == 0 || k > c.num_experts {
        return broken(
            "num_experts_per_tok",
            format!(
                "{k} experts per token with {} experts; expected 1 to {}",
                c.num_experts, c.num_experts
            ),
        );
    }
    ctx.positive(
        "moe_intermediate_size",
        c.moe_intermediate_size,
        "the width of one expert",
    )
}

/// Multi-head latent attention: a KV rank comes with the rope and nope head dims.
fn mla(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    if c.kv_lora_rank == 0 {
        return Ok(());
    }
    let why = "an MLA model (kv_lora_rank > 0) splits each head into rope and nope parts";
    ctx.positive("qk_rope_head_dim", c.qk_rope_head_dim, why)?;
    if ctx.family() != Some("glm5_next") || !ctx.has("qk_head_dim") {
        ctx.positive(
            "qk_nope_head_dim",
            usize::from(ctx.has("qk_nope_head_dim")),
            why,
        )?;
    }
    if c.head_dim <= c.qk_rope_head_dim {
        return broken(
            "qk_rope_head_dim",
            format!(
                "{} leaves no nope part of the head dim {}; expected less than it",
                c.qk_rope_head_dim, c.head_dim
            ),
        );
    }
    Ok(())
}

/// The layer list (or the Nemotron-H pattern it was built from) has one entry
/// per layer; the full-attention interval is within the layers.
fn layers(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    if !c.layer_types.is_empty() && c.layer_types.len() != c.num_hidden_layers {
        let key = if ctx.hf.is_some() && !ctx.has("layer_types") {
            "hybrid_override_pattern"
        } else {
            "layer_types"
        };
        return broken(
            key,
            format!(
                "has {} entries but num_hidden_layers is {}; expected one per layer",
                c.layer_types.len(),
                c.num_hidden_layers
            ),
        );
    }
    if ctx.hf.is_some() && ctx.has("full_attention_interval") {
        let fai = c.full_attention_interval;
        if fai == 0 || fai > c.num_hidden_layers {
            return broken(
                "full_attention_interval",
                format!(
                    "{fai} with {} layers; expected 1 to {}",
                    c.num_hidden_layers, c.num_hidden_layers
                ),
            );
        }
    }
    Ok(())
}

/// Gated DeltaNet: all four linear-attention keys or none, value heads a
/// multiple of key heads.
fn linear_attention(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    let keys = [
        ("linear_num_key_heads", c.linear_num_key_heads),
        ("linear_key_head_dim", c.linear_key_head_dim),
        ("linear_num_value_heads", c.linear_num_value_heads),
        ("linear_value_head_dim", c.linear_value_head_dim),
    ];
    let Some((given, _)) = keys.iter().find(|(_, v)| *v > 0) else {
        return Ok(());
    };
    for (key, v) in keys {
        if v == 0 {
            return broken(
                key,
                format!(
                    "must be positive when {given} is set (the linear-attention keys come together)"
                ),
            );
        }
    }
    if !c
        .linear_num_value_heads
        .is_multiple_of(c.linear_num_key_heads)
    {
        return broken(
            "linear_num_value_heads",
            format!(
                "{} is not a multiple of linear_num_key_heads = {}",
                c.linear_num_value_heads, c.linear_num_key_heads
            ),
        );
    }
    Ok(())
}

/// Mamba-2 (spec §3.2 step 3): heads come with their dim, state and groups,
/// and the groups divide the inner width.
fn mamba(ctx: &Ctx) -> Result<(), Broken> {
    let c = ctx.config;
    if c.mamba_num_heads == 0 {
        return Ok(());
    }
    for (key, v) in [
        ("mamba_head_dim", c.mamba_head_dim),
        ("ssm_state_size", c.ssm_state_size),
        ("n_groups", c.n_groups),
    ] {
        if v == 0 {
            return broken(key, "must be positive when mamba_num_heads > 0");
        }
    }
    let d_inner = c.mamba_num_heads.checked_mul(c.mamba_head_dim);
    if d_inner.is_none_or(|d| d % c.n_groups != 0) {
        return broken(
            "n_groups",
            format!(
                "{} does not divide mamba_num_heads × mamba_head_dim = {} × {}",
                c.n_groups, c.mamba_num_heads, c.mamba_head_dim
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module doc lists what the ModelConfig JSON gets; this keeps the
    /// table and the doc together.
    #[test]
    fn the_model_config_json_gets_the_documented_rules() {
        let names: Vec<_> = RULES
            .iter()
            .filter(|r| r.model_config_json)
            .map(|r| r.name)
            .collect();
        assert_eq!(
            names,
            [
                "hidden size",
                "attention heads",
                "experts",
                "layers",
                "linear attention",
                "mamba"
            ]
        );
        let all: std::collections::BTreeSet<_> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(all.len(), RULES.len(), "rule names are distinct");
    }
}

//! `ModelConfig`: what the metrale sizing reads from a model, and the two ways
//! in: this struct's own JSON form, and a Hugging Face `config.json`.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

/// The model fields the arena's formulas read (spec §3.1). JSON key = field name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelConfig {
    pub model_type: String,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    pub vocab_size: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    pub head_dim: usize,
    pub linear_num_key_heads: usize,
    pub linear_key_head_dim: usize,
    pub linear_num_value_heads: usize,
    pub linear_value_head_dim: usize,
    pub num_experts: usize,
    pub zero_expert_num: usize,
    pub num_experts_per_tok: usize,
    pub moe_intermediate_size: usize,
    pub shared_expert_intermediate_size: usize,
    pub layer_types: Vec<String>,
    pub full_attention_interval: usize,
    pub mamba_num_heads: usize,
    pub mamba_head_dim: usize,
    pub ssm_state_size: usize,
    pub n_groups: usize,
    pub moe_latent_size: usize,
    pub kv_lora_rank: usize,
    pub q_lora_rank: usize,
    pub qk_rope_head_dim: usize,
    pub o_lora_rank: usize,
    pub o_groups: usize,
    pub hc_mult: usize,
    pub hc_lowrank: usize,
    pub index_n_heads: usize,
    pub index_head_dim: usize,
    pub index_topk: usize,
    pub index_compress_ratio: usize,
    pub adapter_max_rank: usize,
    pub attn_gated: bool,
    pub mrope_interleaved: bool,
}

impl Default for ModelConfig {
    /// Every field at its §3.1 default (`hidden_size`, which has none, is 0).
    fn default() -> Self {
        ModelConfig {
            model_type: String::new(),
            hidden_size: 0,
            num_hidden_layers: 0,
            intermediate_size: 0,
            vocab_size: 0,
            num_attention_heads: 0,
            num_key_value_heads: 0,
            head_dim: 0,
            linear_num_key_heads: 0,
            linear_key_head_dim: 0,
            linear_num_value_heads: 0,
            linear_value_head_dim: 0,
            num_experts: 0,
            zero_expert_num: 0,
            num_experts_per_tok: 1,
            moe_intermediate_size: 0,
            shared_expert_intermediate_size: 0,
            layer_types: Vec::new(),
            full_attention_interval: 1,
            mamba_num_heads: 0,
            mamba_head_dim: 0,
            ssm_state_size: 0,
            n_groups: 0,
            moe_latent_size: 0,
            kv_lora_rank: 0,
            q_lora_rank: 0,
            qk_rope_head_dim: 0,
            o_lora_rank: 0,
            o_groups: 0,
            hc_mult: 0,
            hc_lowrank: 0,
            index_n_heads: 0,
            index_head_dim: 0,
            index_topk: 0,
            index_compress_ratio: 0,
            adapter_max_rank: 0,
            attn_gated: false,
            mrope_interleaved: false,
        }
    }
}

/// A config file that cannot be read; names the file, the key and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file (or `<embedded>`).
    pub file: String,
    /// The key, with its parent objects (`text_config.hidden_size`), when one is at fault.
    pub key: Option<String>,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "{}: key `{k}`: {}", self.file, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Marks a bare `Infinity`, `-Infinity` or `NaN` (not JSON, but found in real
/// config.json files) so the parse succeeds and a sizing key holding one is
/// still an error.
const NON_FINITE: &str = "\u{0}non-finite:";

/// Replaces bare `Infinity` / `-Infinity` / `NaN` outside strings by marked strings.
fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_str = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_str = true;
        }
        let word = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|w| rest.starts_with(w));
        if let Some(w) = word {
            out.push_str(&format!(
                "\"{}{w}\"",
                NON_FINITE.replace('\u{0}', "\\u0000")
            ));
            rest = &rest[w.len()..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Reads typed keys of one JSON object, naming the file and key on error.
pub(crate) struct Obj<'a> {
    map: &'a Map<String, Value>,
    file: &'a str,
    prefix: String,
}

impl<'a> Obj<'a> {
    pub(crate) fn err(&self, key: &str, problem: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.to_owned(),
            key: Some(format!("{}{key}", self.prefix)),
            problem: problem.into(),
        }
    }

    /// The keys of the object, in file order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &'a String> {
        self.map.keys()
    }

    pub(crate) fn raw(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.raw(key).is_some()
    }

    pub(crate) fn child(&self, key: &str) -> Result<Option<Obj<'a>>, ConfigError> {
        match self.raw(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Obj {
                map,
                file: self.file,
                prefix: format!("{}{key}.", self.prefix),
            })),
            Some(other) => Err(self.err(key, format!("expected an object, found {}", kind(other)))),
        }
    }

    pub(crate) fn opt_usize(&self, key: &str) -> Result<Option<usize>, ConfigError> {
        let Some(v) = self.raw(key) else {
            return Ok(None);
        };
        as_usize(v).map(Some).map_err(|p| self.err(key, p))
    }

    pub(crate) fn usize_or(&self, key: &str, default: usize) -> Result<usize, ConfigError> {
        Ok(self.opt_usize(key)?.unwrap_or(default))
    }

    pub(crate) fn required(&self, key: &str) -> Result<usize, ConfigError> {
        self.opt_usize(key)?
            .ok_or_else(|| self.err(key, "required key is missing"))
    }

    pub(crate) fn bool_or(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        match self.raw(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(self.err(
                key,
                format!("expected true or false, found {}", kind(other)),
            )),
        }
    }

    pub(crate) fn string_or(&self, key: &str, default: &str) -> Result<String, ConfigError> {
        match self.raw(key) {
            None => Ok(default.to_owned()),
            Some(Value::String(s)) if !s.starts_with(NON_FINITE) => Ok(s.clone()),
            Some(other) => Err(self.err(key, format!("expected a string, found {}", kind(other)))),
        }
    }

    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, ConfigError> {
        match self.raw(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.err(
                        &format!("{key}[{i}]"),
                        format!("expected a string, found {}", kind(other)),
                    )),
                })
                .collect(),
            Some(other) => Err(self.err(
                key,
                format!("expected a list of strings, found {}", kind(other)),
            )),
        }
    }

    pub(crate) fn usizes(&self, key: &str) -> Result<Vec<usize>, ConfigError> {
        match self.raw(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| as_usize(v).map_err(|p| self.err(&format!("{key}[{i}]"), p)))
                .collect(),
            Some(other) => Err(self.err(
                key,
                format!("expected a list of integers, found {}", kind(other)),
            )),
        }
    }
}

fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => match s.strip_prefix(NON_FINITE) {
            Some(w) => w.to_owned(),
            None => format!("the string {s:?}"),
        },
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn as_usize(v: &Value) -> Result<usize, String> {
    let Value::Number(n) = v else {
        return Err(format!(
            "expected a non-negative integer, found {}",
            kind(v)
        ));
    };
    if let Some(u) = n.as_u64() {
        return usize::try_from(u).map_err(|_| format!("{u} does not fit in usize"));
    }
    if n.as_i64().is_some() {
        return Err(format!("expected a non-negative integer, found {n}"));
    }
    match n.as_f64() {
        Some(f) if f < 0.0 => Err(format!("expected a non-negative integer, found {n}")),
        Some(f) if f.fract() != 0.0 => Err(format!("expected an integer, found the fraction {n}")),
        Some(f) if f < 9_007_199_254_740_992.0 => Ok(f as usize),
        _ => Err(format!("{n} is too large for an exact integer")),
    }
}

/// Reads every §3.1 field from `obj`, absent keys taking their defaults.
pub(crate) fn generic(obj: &Obj) -> Result<ModelConfig, ConfigError> {
    let d = ModelConfig::default();
    Ok(ModelConfig {
        model_type: obj.string_or("model_type", "")?,
        hidden_size: obj.required("hidden_size")?,
        num_hidden_layers: obj.usize_or("num_hidden_layers", d.num_hidden_layers)?,
        intermediate_size: obj.usize_or("intermediate_size", 0)?,
        vocab_size: obj.usize_or("vocab_size", 0)?,
        num_attention_heads: obj.usize_or("num_attention_heads", 0)?,
        num_key_value_heads: obj.usize_or("num_key_value_heads", 0)?,
        head_dim: obj.usize_or("head_dim", 0)?,
        linear_num_key_heads: obj.usize_or("linear_num_key_heads", 0)?,
        linear_key_head_dim: obj.usize_or("linear_key_head_dim", 0)?,
        linear_num_value_heads: obj.usize_or("linear_num_value_heads", 0)?,
        linear_value_head_dim: obj.usize_or("linear_value_head_dim", 0)?,
        num_experts: obj.usize_or("num_experts", 0)?,
        zero_expert_num: obj.usize_or("zero_expert_num", 0)?,
        num_experts_per_tok: obj.usize_or("num_experts_per_tok", d.num_experts_per_tok)?,
        moe_intermediate_size: obj.usize_or("moe_intermediate_size", 0)?,
        shared_expert_intermediate_size: obj.usize_or("shared_expert_intermediate_size", 0)?,
        layer_types: obj.strings("layer_types")?,
        full_attention_interval: obj
            .usize_or("full_attention_interval", d.full_attention_interval)?,
        mamba_num_heads: obj.usize_or("mamba_num_heads", 0)?,
        mamba_head_dim: obj.usize_or("mamba_head_dim", 0)?,
        ssm_state_size: obj.usize_or("ssm_state_size", 0)?,
        n_groups: obj.usize_or("n_groups", 0)?,
        moe_latent_size: obj.usize_or("moe_latent_size", 0)?,
        kv_lora_rank: obj.usize_or("kv_lora_rank", 0)?,
        q_lora_rank: obj.usize_or("q_lora_rank", 0)?,
        qk_rope_head_dim: obj.usize_or("qk_rope_head_dim", 0)?,
        o_lora_rank: obj.usize_or("o_lora_rank", 0)?,
        o_groups: obj.usize_or("o_groups", 0)?,
        hc_mult: obj.usize_or("hc_mult", 0)?,
        hc_lowrank: obj.usize_or("hc_lowrank", 0)?,
        index_n_heads: obj.usize_or("index_n_heads", 0)?,
        index_head_dim: obj.usize_or("index_head_dim", 0)?,
        index_topk: obj.usize_or("index_topk", 0)?,
        index_compress_ratio: obj.usize_or("index_compress_ratio", 0)?,
        adapter_max_rank: obj.usize_or("adapter_max_rank", 0)?,
        attn_gated: obj.bool_or("attn_gated", false)?,
        mrope_interleaved: obj.bool_or("mrope_interleaved", false)?,
    })
}

pub(crate) fn parse_text(text: &str, file: &str) -> Result<Value, ConfigError> {
    // A UTF-8 byte order mark (as some editors save) is not JSON: skipped.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<Value>(&sanitize(text)).map_err(|e| ConfigError {
        file: file.to_owned(),
        key: None,
        problem: format!(
            "not valid JSON at line {} column {}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ),
    })
}

fn strip_position(msg: &str) -> &str {
    msg.split(" at line ").next().unwrap_or(msg)
}

pub(crate) fn top_object<'a>(value: &'a Value, file: &'a str) -> Result<Obj<'a>, ConfigError> {
    match value {
        Value::Object(map) => Ok(Obj {
            map,
            file,
            prefix: String::new(),
        }),
        other => Err(ConfigError {
            file: file.to_owned(),
            key: None,
            problem: format!(
                "expected a JSON object at the top level, found {}",
                kind(other)
            ),
        }),
    }
}

/// `layers` entries: `full_attention` every `interval`-th layer (the last of
/// each group), `linear_attention` otherwise, as hybrid GDN models lay them out.
pub fn hybrid_layer_types(layers: usize, interval: usize) -> Vec<String> {
    (1..=layers)
        .map(|i| {
            if interval > 0 && i % interval == 0 {
                "full_attention"
            } else {
                "linear_attention"
            }
            .to_owned()
        })
        .collect()
}

impl ModelConfig {
    /// The fixture `qwen3_next_80b_nvfp4` (Qwen3-Next-80B-A3B, NVFP4 serve).
    pub fn qwen3_next_80b_nvfp4() -> Self {
        ModelConfig {
            model_type: "qwen3_next".into(),
            hidden_size: 2048,
            num_hidden_layers: 48,
            intermediate_size: 5120,
            vocab_size: 151_936,
            num_attention_heads: 16,
            num_key_value_heads: 2,
            head_dim: 256,
            linear_num_key_heads: 16,
            linear_key_head_dim: 128,
            linear_num_value_heads: 32,
            linear_value_head_dim: 128,
            num_experts: 512,
            num_experts_per_tok: 10,
            moe_intermediate_size: 512,
            shared_expert_intermediate_size: 512,
            layer_types: hybrid_layer_types(48, 4),
            full_attention_interval: 4,
            attn_gated: true,
            ..ModelConfig::default()
        }
    }

    /// This struct's JSON form; [`ModelConfig::from_model_config_json`] reads it back.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a ModelConfig always serializes")
    }

    // Derived quantities of spec §3.3.

    // These saturate instead of wrapping: a saturated value overflows the
    // checked formula that uses it, which reports the buffer by name.

    /// 2·Hk·dk + 2·Hv·dv.
    pub fn ssm_qkvz_size(&self) -> usize {
        let k = self
            .linear_num_key_heads
            .saturating_mul(self.linear_key_head_dim);
        let v = self
            .linear_num_value_heads
            .saturating_mul(self.linear_value_head_dim);
        k.saturating_mul(2).saturating_add(v.saturating_mul(2))
    }

    /// 2·Hv.
    pub fn ssm_ba_size(&self) -> usize {
        self.linear_num_value_heads.saturating_mul(2)
    }

    /// Hm·Pm.
    pub fn mamba2_d_inner(&self) -> usize {
        self.mamba_num_heads.saturating_mul(self.mamba_head_dim)
    }

    /// Di + 2·G·Ns.
    pub fn mamba2_d_xbc(&self) -> usize {
        let bc = self
            .n_groups
            .saturating_mul(self.ssm_state_size)
            .saturating_mul(2);
        self.mamba2_d_inner().saturating_add(bc)
    }

    /// Di + Dxbc + Hm.
    pub fn mamba2_in_proj_size(&self) -> usize {
        self.mamba2_d_inner()
            .saturating_add(self.mamba2_d_xbc())
            .saturating_add(self.mamba_num_heads)
    }

    /// The latent size when set, else the hidden size.
    pub fn moe_input_size(&self) -> usize {
        if self.moe_latent_size > 0 {
            self.moe_latent_size
        } else {
            self.hidden_size
        }
    }

    /// Linear-attention layers: counted in `layer_types`, else L − ⌊L/fai⌋.
    pub fn num_ssm_layers(&self) -> usize {
        if !self.layer_types.is_empty() {
            return self
                .layer_types
                .iter()
                .filter(|t| t.as_str() == "linear_attention")
                .count();
        }
        let l = self.num_hidden_layers;
        let attention = l.checked_div(self.full_attention_interval).unwrap_or(l);
        l - attention
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_leaves_strings_alone() {
        let s = sanitize(r#"{"a": Infinity, "b": "Infinity NaN", "c": [-Infinity, NaN]}"#);
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["b"], "Infinity NaN");
        assert!(v["a"].as_str().unwrap().ends_with("Infinity"));
        assert!(v["c"][0].as_str().unwrap().ends_with("-Infinity"));
    }

    #[test]
    fn numbers() {
        assert_eq!(as_usize(&serde_json::json!(4)), Ok(4));
        assert_eq!(as_usize(&serde_json::json!(4.0)), Ok(4));
        assert!(
            as_usize(&serde_json::json!(-1))
                .unwrap_err()
                .contains("non-negative")
        );
        assert!(
            as_usize(&serde_json::json!(1.5))
                .unwrap_err()
                .contains("fraction")
        );
        assert!(
            as_usize(&serde_json::json!(1e300))
                .unwrap_err()
                .contains("too large")
        );
        assert!(
            as_usize(&serde_json::json!("4"))
                .unwrap_err()
                .contains("string")
        );
    }

    #[test]
    fn model_config_round_trips() {
        let c = ModelConfig::qwen3_next_80b_nvfp4();
        let back = ModelConfig::from_model_config_json(&c.to_json(), "x.json").unwrap();
        assert_eq!(c, back);
        let via_serde: ModelConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(c, via_serde);
        let e = serde_json::from_str::<ModelConfig>(r#"{"vocab_size": 3}"#).unwrap_err();
        assert!(e.to_string().contains("`hidden_size`"), "{e}");
    }

    #[test]
    fn model_config_defaults_and_errors() {
        let c = ModelConfig::from_model_config_json(r#"{"hidden_size": 8}"#, "m.json").unwrap();
        assert_eq!(c.num_experts_per_tok, 1);
        assert_eq!(c.full_attention_interval, 1);
        let e = ModelConfig::from_model_config_json(r#"{"vocab_size": 8}"#, "m.json").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.json: key `hidden_size`: required key is missing"
        );
        let e =
            ModelConfig::from_model_config_json(r#"{"hidden_size": "8"}"#, "m.json").unwrap_err();
        assert!(e.to_string().contains("`hidden_size`"), "{e}");
        // A key that is no field would silently leave its field at the default.
        let e =
            ModelConfig::from_model_config_json(r#"{"hidden_size": 8, "num_expert": 4}"#, "m.json")
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.json: key `num_expert`: not a field of ModelConfig; did you mean `num_experts`?"
        );
        let e = serde_json::from_str::<ModelConfig>(r#"{"hidden_size": 8, "rope_theta": 1e6}"#)
            .unwrap_err();
        assert!(
            e.to_string().contains("key `rope_theta`: not a field"),
            "{e}"
        );
        let e = ModelConfig::from_model_config_json("{\n \"hidden_size\": 8,\n}", "m.json")
            .unwrap_err();
        assert!(e.to_string().contains("line 3 column 1"), "{e}");
    }

    #[test]
    fn derived_methods_on_the_fixture() {
        let c = ModelConfig::qwen3_next_80b_nvfp4();
        assert_eq!(c.ssm_qkvz_size(), 12_288);
        assert_eq!(c.ssm_ba_size(), 64);
        assert_eq!(c.num_ssm_layers(), 36);
    }
}

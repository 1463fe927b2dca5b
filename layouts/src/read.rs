//! The ways into a [`ModelConfig`]: this project's own JSON (and serde),
//! and a Hugging Face `config.json` mapped by family; each file is parsed
//! (`config`), mapped (`families`) and checked against the consistency rules
//! (`rules`) here, so those modules need not know of each other.

use serde_json::Value;

use crate::config::{ConfigError, ModelConfig, Obj, generic, parse_text, top_object};
use crate::rules::{self, Ctx, Reader};

/// The serde form: every field by name, absent keys at their §3.1 defaults,
/// `hidden_size` required, no other key; read by the same code as
/// [`ModelConfig::from_model_config_json`], so both agree on every key.
impl<'de> serde::Deserialize<'de> for ModelConfig {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let obj = top_object(&value, "<serde>").map_err(serde::de::Error::custom)?;
        only_own_keys(&obj).map_err(serde::de::Error::custom)?;
        let config = generic(&obj).map_err(serde::de::Error::custom)?;
        config
            .validate("<serde>")
            .map_err(serde::de::Error::custom)?;
        Ok(config)
    }
}

impl ModelConfig {
    /// Reads this struct's own JSON form (every field by name, absent keys at
    /// their defaults; `hidden_size` required; a key that is not a field is
    /// an error). `file` names it in errors.
    pub fn from_model_config_json(text: &str, file: &str) -> Result<Self, ConfigError> {
        let value = parse_text(text, file)?;
        let obj = top_object(&value, file)?;
        only_own_keys(&obj)?;
        let config = generic(&obj)?;
        config.validate(file)?;
        Ok(config)
    }

    /// Reads a Hugging Face `config.json`, mapped by model family (see the
    /// family tables of this package's README). `file` names it in errors.
    pub fn from_hf_config_json(text: &str, file: &str) -> Result<Self, ConfigError> {
        Self::read_hf_config_json(text, file).map(|(config, _)| config)
    }

    /// [`ModelConfig::from_hf_config_json`], also saying which path of the
    /// reader mapped the file (a family's mapping, or the generic path).
    pub fn read_hf_config_json(text: &str, file: &str) -> Result<(Self, Reader), ConfigError> {
        let value = parse_text(text, file)?;
        let obj = top_object(&value, file)?;
        crate::families::parse(&obj, file)
    }

    /// The consistency rules this project's own ModelConfig JSON gets (see
    /// `rules.rs`): `hidden_size`, the layer list, KV heads against
    /// heads, top-k against experts, the linear-attention and Mamba-2 keys.
    pub fn validate(&self, file: &str) -> Result<(), ConfigError> {
        let ctx = Ctx {
            config: self,
            hf: None,
            reader: Reader::ModelConfigJson,
        };
        rules::check(&ctx, file)
    }
}

/// The own form's keys are the fields of [`ModelConfig`], and nothing else:
/// an absent key takes its default, so a misspelt one would silently size
/// the arena without it.
fn only_own_keys(obj: &Obj) -> Result<(), ConfigError> {
    let own =
        serde_json::to_value(ModelConfig::default()).expect("a ModelConfig always serializes");
    let own = own
        .as_object()
        .expect("a ModelConfig serializes to an object");
    let Some(key) = obj.keys().find(|k| !own.contains_key(k.as_str())) else {
        return Ok(());
    };
    let near = own
        .keys()
        .map(|k| (strsim::levenshtein(k, key), k))
        .filter(|&(d, _)| d <= 2)
        .min();
    let problem = match near {
        Some((_, k)) => format!("not a field of ModelConfig; did you mean `{k}`?"),
        None if obj.has("architectures") || obj.has("transformers_version") => {
            "not a field of ModelConfig: this looks like a Hugging Face config.json, \
             read with `--config` (`ModelConfig::from_hf_config_json`)"
                .to_owned()
        }
        None => {
            "not a field of ModelConfig (its fields are the keys `ModelConfig::to_json` writes)"
                .to_owned()
        }
    };
    Err(obj.err(key, problem))
}

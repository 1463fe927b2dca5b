//! The config reader refuses configs no real model has: each real config.json
//! edited the way configs go wrong (a key lost in a merge, a value copied from
//! another model) must exit 2 with one line naming the file and the key, and
//! the untouched configs still report.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const QWEN3_MOE: &str = "Qwen__Qwen3-30B-A3B.json";
const QWEN3_NEXT: &str = "Qwen__Qwen3-Next-80B-A3B-Thinking.json";
const DEEPSEEK_V3: &str = "deepseek-ai__DeepSeek-V3.json";
const DEEPSEEK_V4: &str = "deepseek-ai__DeepSeek-V4-Flash.json";
const LLAMA: &str = "meta-llama__Meta-Llama-3.1-8B.json";
const NEMOTRON_NANO: &str = "nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json";
const GPT_OSS: &str = "openai__gpt-oss-20b.json";

fn real(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("configs/hf")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// An edited copy of a real config: keys removed, keys set.
fn variant(base: &str, remove: &[&str], set: &[(&str, Value)]) -> Value {
    let mut v = real(base);
    let obj = v.as_object_mut().unwrap();
    for k in remove {
        assert!(obj.remove(*k).is_some(), "{base} has no key {k}");
    }
    for (k, value) in set {
        obj.insert((*k).to_owned(), value.clone());
    }
    v
}

fn write(dir: &Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p
}

fn report(flag: &str, path: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena-report"))
        .arg(flag)
        .arg(path)
        .args(extra)
        .env_remove("METRALE_FP8_ROWWISE")
        .env_remove("METRALE_GLM_ARENA_TRIM")
        .env_remove("METRALE_ATTN_DECODE_SPLITK")
        .output()
        .unwrap()
}

/// Each variant, with the message (after the file name) it must give.
fn corpus() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "moe_without_top_k",
            variant(QWEN3_MOE, &["num_experts_per_tok"], &[]),
            "key `num_experts_per_tok`: required key is missing (the top-k of a model with 128 experts)",
        ),
        (
            "top_k_over_experts",
            variant(QWEN3_MOE, &[], &[("num_experts_per_tok", json!(200))]),
            "key `num_experts_per_tok`: 200 experts per token with 128 experts; expected 1 to 128",
        ),
        (
            "top_k_zero",
            variant(DEEPSEEK_V3, &[], &[("num_experts_per_tok", json!(0))]),
            "key `num_experts_per_tok`: 0 experts per token with 256 experts; expected 1 to 256",
        ),
        (
            "generic_moe_without_top_k",
            variant(QWEN3_NEXT, &["num_experts_per_tok"], &[]),
            "key `num_experts_per_tok`: required key is missing",
        ),
        (
            "gpt_oss_top_k_over_experts",
            variant(GPT_OSS, &[], &[("num_experts_per_tok", json!(64))]),
            "key `num_experts_per_tok`: 64 experts per token with 32 experts; expected 1 to 32",
        ),
        (
            "kv_heads_over_heads",
            variant(LLAMA, &[], &[("num_key_value_heads", json!(64))]),
            "key `num_key_value_heads`: 64 is more than num_attention_heads = 32; expected at most 32",
        ),
        (
            "kv_heads_not_dividing",
            variant(LLAMA, &[], &[("num_key_value_heads", json!(5))]),
            "key `num_key_value_heads`: 5 does not divide num_attention_heads = 32; expected a divisor",
        ),
        (
            "v4_kv_heads_not_dividing",
            variant(DEEPSEEK_V4, &[], &[("num_key_value_heads", json!(3))]),
            "key `num_key_value_heads`: 3 does not divide num_attention_heads = 64",
        ),
        (
            "mla_without_rope_dim",
            variant(DEEPSEEK_V3, &["qk_rope_head_dim"], &[]),
            "key `qk_rope_head_dim`: required key is missing (an MLA model (kv_lora_rank > 0)",
        ),
        (
            "mla_without_nope_dim",
            variant(DEEPSEEK_V3, &["qk_nope_head_dim"], &[]),
            "key `qk_nope_head_dim`: required key is missing (an MLA model",
        ),
        (
            "generic_without_vocab",
            variant(QWEN3_NEXT, &["vocab_size"], &[]),
            "key `vocab_size`: required key is missing (every model has a vocabulary)",
        ),
        (
            "generic_without_heads",
            variant(QWEN3_NEXT, &["num_attention_heads"], &[]),
            "key `num_attention_heads`: required key is missing",
        ),
        (
            "generic_without_head_dim",
            variant(QWEN3_NEXT, &["head_dim"], &[]),
            "key `head_dim`: required key is missing (the generic path reads it as is)",
        ),
        (
            "unknown_type_with_hidden_size_only",
            json!({"model_type": "gemma3", "hidden_size": 2560}),
            "key `num_hidden_layers`: required key is missing (every model has layers); model_type `gemma3` has no mapping of its own",
        ),
        (
            "unknown_type_without_vocab",
            variant(LLAMA, &["vocab_size"], &[("model_type", json!("gemma3"))]),
            "key `vocab_size`: required key is missing (every model has a vocabulary); model_type `gemma3`",
        ),
        (
            "dense_without_layers",
            variant(LLAMA, &["num_hidden_layers"], &[]),
            "key `num_hidden_layers`: required key is missing",
        ),
        (
            "pattern_too_short",
            variant(
                NEMOTRON_NANO,
                &[],
                &[("hybrid_override_pattern", json!("MEMEM*"))],
            ),
            "key `hybrid_override_pattern`: has 6 entries but num_hidden_layers is 52; expected one per layer",
        ),
        (
            "layer_types_too_long",
            variant(GPT_OSS, &[], &[("num_hidden_layers", json!(12))]),
            "key `layer_types`: has 24 entries but num_hidden_layers is 12",
        ),
        (
            "full_attention_interval_zero",
            variant(QWEN3_NEXT, &[], &[("full_attention_interval", json!(0))]),
            "key `full_attention_interval`: 0 with 48 layers; expected 1 to 48",
        ),
        (
            "linear_attention_half_given",
            variant(QWEN3_NEXT, &["linear_key_head_dim"], &[]),
            "key `linear_key_head_dim`: must be positive when linear_num_key_heads is set",
        ),
        (
            "linear_value_heads_not_a_multiple",
            variant(QWEN3_NEXT, &[], &[("linear_num_value_heads", json!(24))]),
            "key `linear_num_value_heads`: 24 is not a multiple of linear_num_key_heads = 16",
        ),
        (
            "moe_without_expert_width",
            variant(DEEPSEEK_V3, &[], &[("moe_intermediate_size", json!(0))]),
            "key `moe_intermediate_size`: expected a positive integer (the width of one expert), found 0",
        ),
    ]
}

#[test]
fn every_variant_exits_2_with_one_line_naming_the_key() {
    let tmp = super::tempdir("config-rules");
    let dir = tmp.path();
    for (name, v, needle) in corpus() {
        let file = format!("{name}.json");
        let path = write(dir, &file, &v);
        let o = report("--config", &path, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(&file), "{name}: names the file: {err}");
        assert!(
            err.contains(needle),
            "{name}: {err:?}\nshould contain {needle:?}"
        );
    }
}

#[test]
fn untouched_real_configs_still_report_and_say_which_path_read_them() {
    let expect = [
        (QWEN3_MOE, "qwen3_moe"),
        (QWEN3_NEXT, "generic"),
        (DEEPSEEK_V3, "deepseek_v3"),
        (DEEPSEEK_V4, "deepseek_v4"),
        (LLAMA, "llama"),
        (NEMOTRON_NANO, "nemotron_h"),
        ("nvidia__Nemotron-H-56B-Base-8K.json", "nemotron_h"),
        (GPT_OSS, "gpt_oss"),
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/hf");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), expect.len());
    for (file, family) in expect {
        let o = report("--config", &dir.join(file), &["--format", "json"]);
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["family"], family, "{file}");
        assert_eq!(v["family_known"], true, "{file}");
    }
}

#[test]
fn an_unknown_model_type_with_the_core_keys_is_read_generically_and_says_so() {
    let tmp = super::tempdir("config-rules");
    let dir = tmp.path();
    let path = write(
        dir,
        "llama_as_gemma3.json",
        &variant(
            LLAMA,
            &[],
            &[("model_type", json!("gemma3")), ("head_dim", json!(128))],
        ),
    );
    let o = report("--config", &path, &["--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["family"], "generic");
    assert_eq!(v["family_known"], false);
    let table = report("--config", &path, &[]);
    let out = String::from_utf8(table.stdout).unwrap();
    assert!(
        out.contains(
            "read by            the generic path: model_type `gemma3` has no mapping of its own"
        ),
        "{out}"
    );
}

#[test]
fn the_model_config_json_gets_the_relations_and_keeps_its_defaults() {
    let tmp = super::tempdir("config-rules");
    let dir = tmp.path();
    let base = serde_json::to_value(layouts::ModelConfig::qwen3_next_80b_nvfp4()).unwrap();
    let with = |k: &str, v: Value| {
        let mut c = base.clone();
        c[k] = v;
        c
    };
    let cases = [
        (
            "mc_kv_over_heads",
            with("num_key_value_heads", json!(32)),
            "key `num_key_value_heads`: 32 is more than num_attention_heads = 16",
        ),
        (
            "mc_top_k_over_experts",
            with("num_experts_per_tok", json!(600)),
            "key `num_experts_per_tok`: 600 experts per token with 512 experts",
        ),
        (
            "mc_linear_not_a_multiple",
            with("linear_num_value_heads", json!(20)),
            "key `linear_num_value_heads`: 20 is not a multiple of linear_num_key_heads = 16",
        ),
    ];
    for (name, v, needle) in cases {
        let file = format!("{name}.json");
        let o = report("--model-config", &write(dir, &file, &v), &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(&file) && err.contains(needle), "{name}: {err}");
    }
    // The spec's defaults still read: a key left out is 0 (or 1), not an error.
    let minimal = write(dir, "mc_minimal.json", &json!({"hidden_size": 8}));
    assert!(report("--model-config", &minimal, &[]).status.success());
    // A Hugging Face file given as the own form is refused with the option
    // that reads it.
    let hf = write(
        dir,
        "mc_hf.json",
        &json!({"architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 8}),
    );
    let o = report("--model-config", &hf, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("key `architectures`: not a field of ModelConfig: this looks like a Hugging Face config.json, read with `--config`"),
        "{err}"
    );
    let fixture = write(dir, "mc_fixture.json", &base);
    let o = report("--model-config", &fixture, &["--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["family"], "model_config");
}

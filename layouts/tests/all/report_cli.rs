//! arena-report as a user runs it: every format, the sweep and chart, every
//! real config, and every broken input (exit status 2, one line, no panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena-report"));
    // The report reads levers from the environment: keep the test's own clean.
    for name in [
        "METRALE_GGUF_NATIVE_Q2",
        "METRALE_GGUF_NATIVE_Q2_MMQ",
        "METRALE_FP8_ROWWISE",
        "METRALE_GLM_ARENA_TRIM",
        "METRALE_ATTN_DECODE_SPLITK",
    ] {
        c.env_remove(name);
    }
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(&run(args))).unwrap()
}

#[test]
fn table_on_the_embedded_default() {
    let out = stdout(&run(&[]));
    let header = out.lines().next().unwrap();
    for col in [
        "buffer", "dtype", "shape", "bytes", "size", "offset", "formula",
    ] {
        assert!(header.contains(col), "{header}");
    }
    assert!(out.contains("gdn_fla_scratch"));
    assert!(out.contains("total_bytes"));
    assert!(out.contains("slab_bytes"));
    assert!(out.contains("glm_trimmed"));
    assert!(out.contains(" MiB"));
}

#[test]
fn json_schema() {
    let v = json(&["--format", "json"]);
    let sizes = v["sizes"].as_object().unwrap();
    assert_eq!(sizes.len(), 47, "46 buffers and glm_trimmed");
    let total: u64 = v["total_bytes"].as_u64().unwrap();
    assert!(v["slab_bytes"].as_u64().unwrap() >= total);
    // Every field, the generic report's: 46 buffers and the value
    // `glm_trimmed`, whose offset is null (it is not carved).
    let buffers = v["buffers"].as_array().unwrap();
    assert_eq!(buffers.len(), 47);
    assert_eq!(buffers.iter().filter(|b| b["offset"].is_null()).count(), 1);
    for b in buffers {
        for key in [
            "name", "bytes", "offset", "dtype", "shape", "formula", "lever", "in_total", "live",
            "align",
        ] {
            assert!(b.get(key).is_some(), "{key} missing in {b}");
        }
    }
    let in_total: u64 = buffers
        .iter()
        .filter(|b| b["in_total"] == true)
        .map(|b| b["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(in_total, total);
}

#[test]
fn the_issue_command_with_a_model_config() {
    let tmp = super::tempdir("report-test-mc");
    let dir = tmp.path();
    let file = dir.join("qwen3next.json");
    std::fs::write(
        &file,
        layouts::ModelConfig::qwen3_next_80b_nvfp4().to_json(),
    )
    .unwrap();
    let v = json(&[
        "--model-config",
        file.to_str().unwrap(),
        "--max-batch-tokens",
        "1",
        "--max-seq-len",
        "4096",
        "--kv-block-size",
        "16",
        "--max-batch-size",
        "32",
        "--format",
        "json",
    ]);
    // fixtures.md C.2
    assert_eq!(v["sizes"]["hidden_states"], 4096);
    assert_eq!(v["sizes"]["qkv_output"], 294_912);
    assert_eq!(v["sizes"]["logits"], 303_872);
    assert_eq!(v["sizes"]["glm_trimmed"], 0);
}

#[test]
fn levers_and_target_flags() {
    let v = json(&["--format", "json", "--lever", "METRALE_FP8_ROWWISE=1"]);
    assert!(v["sizes"]["ssm_rowwise_w_bf16"].as_u64().unwrap() > 0);
    // The flag wins over the environment.
    let o = bin()
        .env("METRALE_FP8_ROWWISE", "1")
        .args(["--format", "json", "--lever", "METRALE_FP8_ROWWISE=0"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["sizes"]["ssm_rowwise_w_bf16"], 0);
    let o = bin()
        .env("METRALE_FP8_ROWWISE", "1")
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        v["sizes"]["ssm_rowwise_w_bf16"].as_u64().unwrap() > 0,
        "read from the environment"
    );
    let v = json(&[
        "--format",
        "json",
        "--sm-count",
        "132",
        "--splitk-policy",
        "auto",
    ]);
    assert_eq!(v["sizes"]["splitk_workspace"], 64 * 16 * 16 * 258 * 4);
}

#[test]
fn csv() {
    let out = stdout(&run(&["--format", "csv"]));
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "name,bytes,offset,dtype,shape,lever,in_total,live,formula"
    );
    // Every field: 46 buffers and the value `glm_trimmed` (no offset).
    assert_eq!(lines.count(), 47);
    assert!(out.contains("\"max(65536, inner)\"") || out.contains("scratch,"));
}

#[test]
fn sweep_and_chart() {
    let tmp = super::tempdir("report-test-chart");
    let dir = tmp.path();
    let svg = dir.join("arena.svg");
    let out = stdout(&run(&[
        "--sweep",
        "max_batch_tokens=256,1024,4096,16384",
        "--chart",
        svg.to_str().unwrap(),
    ]));
    let rows: Vec<_> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 4);
    assert!(rows[3].trim_start().starts_with("16384"));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg"));
    assert!(chart.contains("max_batch_tokens"), "x axis label");
    assert!(
        chart.contains("arena bytes (GiB)"),
        "y axis label with unit"
    );
    assert!(chart.contains("other"), "legend");
    let v = json(&["--format", "json", "--sweep", "max_batch_size=1,64,256"]);
    assert_eq!(v["points"].as_array().unwrap().len(), 3);
    let csv = stdout(&run(&[
        "--format",
        "csv",
        "--sweep",
        "max_seq_len=4096,8192",
    ]));
    assert!(csv.starts_with("max_seq_len,total_bytes,slab_bytes,hidden_states"));
}

#[test]
fn every_real_config_reports() {
    for e in std::fs::read_dir(manifest("configs/hf")).unwrap() {
        let p = e.unwrap().path();
        let v = json(&["--config", p.to_str().unwrap(), "--format", "json"]);
        assert!(v["total_bytes"].as_u64().unwrap() > 0, "{}", p.display());
    }
}

fn assert_one_line_error(args: &[&str], needle: &str) {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should contain {needle:?}"
    );
}

#[test]
fn errors_exit_2_with_one_line() {
    assert_one_line_error(
        &["--config", "no/such/file.json"],
        "no/such/file.json: cannot read",
    );
    assert_one_line_error(
        &["--lever", "METRALE_FP8_ROWWISE=yes"],
        "lever `METRALE_FP8_ROWWISE` has value \"yes\"",
    );
    assert_one_line_error(&["--lever", "NOT_A_LEVER=1"], "not a lever of this arena");
    assert_one_line_error(
        &["--lever", "METRALE_ATTN_DECODE_SPLITK=aut0"],
        "METRALE_ATTN_DECODE_SPLITK",
    );
    assert_one_line_error(&["--splitk-policy", "sometimes"], "--splitk-policy");
    assert_one_line_error(&["--sweep", "layers=1,2"], "not a serve limit");
    assert_one_line_error(
        &["--sweep", "max_batch_tokens=1,x"],
        "not a non-negative integer",
    );
    assert_one_line_error(
        &["--max-batch-tokens", "18446744073709551615"],
        "overflows usize",
    );
}

/// Every file of the broken-config corpus: status 2, one line naming the file.
#[test]
fn broken_config_corpus() {
    let expect: &[(&str, &str)] = &[
        ("truncated.json", "not valid JSON at line"),
        (
            "wrong_type_string.json",
            "key `hidden_size`: expected a non-negative integer, found the string \"2048\"",
        ),
        ("wrong_type_list.json", "key `num_attention_heads`"),
        (
            "wrong_type_layer_types.json",
            "key `layer_types`: expected a list of strings",
        ),
        (
            "missing_hidden_size.json",
            "key `hidden_size`: required key is missing",
        ),
        (
            "negative.json",
            "key `num_experts`: expected a non-negative integer, found -512",
        ),
        (
            "fractional.json",
            "key `intermediate_size`: expected an integer, found the fraction 5120.5",
        ),
        ("huge_float.json", "key `vocab_size`"),
        ("huge_integer.json", "key `vocab_size`"),
        (
            "nan.json",
            "key `hidden_size`: expected a non-negative integer, found NaN",
        ),
        (
            "infinity_in_sizing_key.json",
            "key `num_experts`: expected a non-negative integer, found Infinity",
        ),
        (
            "not_an_object.json",
            "expected a JSON object at the top level, found a list",
        ),
        ("empty.json", "not valid JSON at line 1"),
        ("whitespace_only.json", "not valid JSON"),
        ("binary_garbage.json", "not UTF-8"),
        (
            "layer_types_too_short.json",
            "key `layer_types`: has 47 entries but num_hidden_layers is 48",
        ),
        (
            "mamba_groups_do_not_divide.json",
            "key `n_groups`: 5 does not divide",
        ),
        (
            "mamba_without_state.json",
            "key `mamba_head_dim`: must be positive",
        ),
        ("unknown_family.json", "unknown model family"),
        (
            "unsupported_family.json",
            "model family `gemma4` has no mapping",
        ),
        (
            "llama_missing_intermediate_size.json",
            "key `intermediate_size`: required key is missing",
        ),
        (
            "qwen3_5_without_text_config.json",
            "key `text_config`: required key is missing",
        ),
        (
            "zero_hidden_size.json",
            "key `hidden_size`: must be at least 1",
        ),
        ("overflowing_hidden_size.json", "overflows usize"),
        (
            "nemotron_bad_pattern.json",
            "key `hybrid_override_pattern`: unknown layer kind '?'",
        ),
        (
            "deepseek_without_n_routed_experts.json",
            "key `n_routed_experts`: required key is missing",
        ),
        ("trailing_comma.json", "not valid JSON at line 3 column 1"),
        ("bom_and_comment.json", "not valid JSON"),
        (
            "bool_as_string.json",
            "key `attn_gated`: expected true or false",
        ),
    ];
    let dir = manifest("tests/corpus");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, expect.len(), "every corpus file has an expectation");
    for (file, needle) in expect {
        let path = dir.join(file);
        let p = path.to_str().unwrap();
        let o = run(&["--config", p]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(
            err.contains(file),
            "{file}: the message names the file: {err}"
        );
        assert!(
            err.contains(needle),
            "{file}: {err:?} should contain {needle:?}"
        );
    }
}

/// The widest line of `out`, in characters (the ellipsis is one).
fn widest(out: &str) -> usize {
    out.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn gpu_preset_sets_the_sm_count_and_reports_the_share() {
    let v = json(&["--gpu", "h100", "--format", "json"]);
    assert_eq!(v["target"]["sm_count"], 132);
    let gpu = &v["gpu"];
    assert_eq!(gpu["name"], "h100-sxm");
    assert_eq!(gpu["sm_count"], 132);
    assert_eq!(gpu["memory_bytes"], 80u64 << 30);
    let slab = v["slab_bytes"].as_f64().unwrap();
    let fraction = gpu["arena_fraction"].as_f64().unwrap();
    assert!(
        (fraction - slab / (80u64 << 30) as f64).abs() < 1e-12,
        "{fraction}"
    );
    // The SM count sizes the split-K workspace exactly as --sm-count does.
    let by_count = json(&["--sm-count", "132", "--format", "json"]);
    assert_eq!(v["sizes"], by_count["sizes"]);
    assert_eq!(by_count["gpu"], serde_json::Value::Null);
    // A different part gives a different share of a different memory.
    let h200 = json(&["--gpu", "H200", "--format", "json"]);
    assert_eq!(h200["gpu"]["memory_bytes"], 141u64 << 30);
    assert!(h200["gpu"]["arena_fraction"].as_f64().unwrap() < fraction);
}

#[test]
fn gpu_in_the_table_footer_and_the_sweep() {
    let out = stdout(&run(&["--gpu", "l40s"]));
    let footer = out.lines().last().unwrap();
    assert!(footer.starts_with("on L40S: "), "{footer}");
    assert!(footer.contains(" of 48.0 GiB ("), "{footer}");
    assert!(footer.ends_with("%)"), "{footer}");
    assert!(
        out.contains("\ngpu                L40S: 142 SMs\n"),
        "{out}"
    );
    assert!(!stdout(&run(&[])).contains("\non "));
    let sweep = stdout(&run(&[
        "--gpu",
        "b200",
        "--sweep",
        "max_batch_tokens=1024,8192",
    ]));
    assert!(sweep.lines().next().unwrap().contains("of gpu"), "{sweep}");
    assert!(sweep.contains("gpu: B200, 148 SMs, 180.0 GiB"), "{sweep}");
    let v = json(&[
        "--gpu",
        "b200",
        "--format",
        "json",
        "--sweep",
        "max_batch_tokens=1024,8192",
    ]);
    assert_eq!(v["gpu"]["name"], "b200");
    let points = v["points"].as_array().unwrap();
    assert!(
        points[0]["arena_fraction"].as_f64().unwrap()
            < points[1]["arena_fraction"].as_f64().unwrap()
    );
    // The chart draws the memory as a line with its own legend entry.
    let tmp = super::tempdir("report-test-gpu-chart");
    let dir = tmp.path();
    let svg = dir.join("arena.svg");
    stdout(&run(&[
        "--gpu",
        "rtx4090",
        "--sweep",
        "max_batch_tokens=1024,8192",
        "--chart",
        svg.to_str().unwrap(),
    ]));
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("RTX 4090 memory")
    );
}

#[test]
fn gpu_list_prints_every_preset() {
    let out = stdout(&run(&["--gpu", "list"]));
    for name in [
        "a100-40gb",
        "a100-80gb",
        "h100-sxm",
        "h100-pcie",
        "h200",
        "b200",
        "l40s",
        "rtx4090",
        "rtx5090",
    ] {
        assert!(out.contains(name), "{name} missing from\n{out}");
    }
}

#[test]
fn gpu_errors_exit_2_with_one_line() {
    assert_one_line_error(
        &["--gpu", "h100", "--sm-count", "100"],
        "--gpu and --sm-count",
    );
    assert_one_line_error(&["--gpu", "v100"], "unknown GPU; known: a100-40gb");
}

#[test]
fn the_default_table_fits_120_columns_and_wide_keeps_everything() {
    let narrow = stdout(&run(&[]));
    assert!(widest(&narrow) <= 120, "{}", widest(&narrow));
    assert!(narrow.contains('…'), "long formulas are cut");
    let wide = stdout(&run(&["--wide"]));
    assert!(widest(&wide) > 120);
    assert!(!wide.contains('…'));
    // The JSON carries every formula whole.
    let v = json(&["--format", "json"]);
    for b in v["buffers"].as_array().unwrap() {
        let formula = b["formula"].as_str().unwrap();
        assert!(!formula.contains('…'));
        if formula.chars().count() > 30 {
            assert!(wide.contains(formula), "{formula}");
        }
    }
    // Every real config's table fits too.
    for e in std::fs::read_dir(manifest("configs/hf")).unwrap() {
        let p = e.unwrap().path();
        let out = stdout(&run(&["--config", p.to_str().unwrap(), "--gpu", "h200"]));
        assert!(widest(&out) <= 120, "{}: {}", p.display(), widest(&out));
    }
}

#[test]
fn fit_errors_exit_2_with_one_line() {
    let fit = ["--fit", "max_batch_tokens"];
    let with = |more: &[&'static str]| [&fit[..], more].concat();
    assert_one_line_error(
        &fit,
        "--fit max_batch_tokens needs a budget: --budget BYTES",
    );
    assert_one_line_error(
        &["--fit", "layers", "--budget", "1GiB"],
        "--fit layers: not a serve limit; one of max_batch_tokens",
    );
    assert_one_line_error(
        &with(&["--budget", "6 GiBs"]),
        "--budget \"6 GiBs\": unknown unit",
    );
    assert_one_line_error(&with(&["--budget=-1"]), "--budget \"-1\"");
    assert_one_line_error(&with(&["--budget", ""]), "--budget \"\": no number");
    assert_one_line_error(
        &with(&["--budget", "100"]),
        "no value of `max_batch_tokens` fits `BufferSizes` in 100 bytes: at max_batch_tokens = 1, the smallest, it takes",
    );
    assert_one_line_error(
        &with(&["--gpu", "h100", "--reserve", "81GiB"]),
        "--reserve 81GiB: more than the H100 SXM's 80.000 GiB of memory",
    );
    assert_one_line_error(&with(&["--reserve", "1GiB"]), "--reserve needs --gpu");
    assert_one_line_error(
        &with(&["--budget", "1GiB", "--gpu", "h100", "--reserve", "1GiB"]),
        "with --budget give the budget itself",
    );
    assert_one_line_error(
        &with(&["--budget", "1GiB", "--sweep", "max_batch_tokens=1,2"]),
        "--sweep max_batch_tokens: the same limit as --fit",
    );
    assert_one_line_error(
        &with(&["--budget", "1GiB", "--sweep", "max_seq_len=1,x"]),
        "--sweep max_seq_len: \"x\" is not a non-negative integer",
    );
    assert_one_line_error(
        &with(&["--budget", "1GiB", "--fit-max", "0"]),
        "--fit-max 0",
    );
    // Not known to grow with the block size: a scan, bounded.
    assert_one_line_error(
        &[
            "--fit",
            "kv_block_size",
            "--budget",
            "100MiB",
            "--fit-max",
            "100000000",
        ],
        "is not known to grow with `kv_block_size`",
    );
}

#[test]
fn fit_on_every_real_config_is_the_largest_that_fits() {
    for e in std::fs::read_dir(manifest("configs/hf")).unwrap() {
        let path = e.unwrap().path();
        let p = path.to_str().unwrap();
        let v = json(&[
            "--config",
            p,
            "--fit",
            "max_batch_tokens",
            "--gpu",
            "h200",
            "--reserve",
            "120GiB",
            "--format",
            "json",
        ]);
        let budget = v["budget_bytes"].as_u64().unwrap();
        assert_eq!(budget, (141u64 - 120) << 30, "{p}");
        let value = v["value"].as_u64().unwrap();
        assert!(v["slab_bytes"].as_u64().unwrap() <= budget, "{p}");
        assert!(v["next_slab_bytes"].as_u64().unwrap() > budget, "{p}");
        // The report at that value, on the same GPU, says the same bytes.
        let at = json(&[
            "--config",
            p,
            "--gpu",
            "h200",
            "--max-batch-tokens",
            &value.to_string(),
            "--format",
            "json",
        ]);
        assert_eq!(at["slab_bytes"], v["slab_bytes"], "{p}");
    }
}

/// A config.json saved with a UTF-8 byte order mark reads as the same file
/// without it, by both readers (`--config` and `--model-config`).
#[test]
fn a_byte_order_mark_is_skipped() {
    let tmp = super::tempdir("report-test-bom");
    let dir = tmp.path();
    let plain = manifest("configs/hf/meta-llama__Meta-Llama-3.1-8B.json");
    let text = std::fs::read_to_string(&plain).unwrap();
    let bom = dir.join("config.json");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let want = json(&["--config", plain.to_str().unwrap(), "--format", "json"]);
    let got = json(&["--config", bom.to_str().unwrap(), "--format", "json"]);
    assert_eq!(got["slab_bytes"], want["slab_bytes"]);
    assert_eq!(got["sizes"], want["sizes"]);
    let own = dir.join("model_config.json");
    std::fs::write(&own, "\u{feff}{\"hidden_size\": 2048}").unwrap();
    let v = json(&["--model-config", own.to_str().unwrap(), "--format", "json"]);
    assert!(v["slab_bytes"].as_u64().unwrap() > 0);
}

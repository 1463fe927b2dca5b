//! `arena-report`: how much GPU memory the metrale arena takes for a model at
//! given serve limits, before the serve starts.

use std::path::PathBuf;
use std::process::ExitCode;

use arena::report::gpu;
use arena::{Arena, Levers};
use clap::{Parser, ValueEnum};
use layouts::fit;
use layouts::report::{self, Limits, SWEEPABLE, Sweep};
use layouts::{BufferSizes, ModelConfig, Reader, SplitKPolicy, Target};

/// The Qwen3-Next-80B-A3B config.json, used when no file is given.
const EMBEDDED: &str = include_str!("../../configs/hf/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
const EMBEDDED_NAME: &str = "<embedded Qwen3-Next-80B-A3B config.json>";

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Json,
    Csv,
}

/// Reports the metrale arena of a model: every buffer's bytes, offset and formula.
#[derive(Parser)]
#[command(
    name = "arena-report",
    version,
    after_help = "Examples:\n  arena-report\n  arena-report --config config.json --max-batch-tokens 16384 --format json\n  arena-report --sweep max_batch_tokens=256,1024,4096,16384 --chart arena.svg\n  arena-report --gpu h100 --format json\n  arena-report --fit max_batch_tokens --budget 6GiB\n  arena-report --fit max_batch_tokens --gpu h100 --reserve 70GiB --sweep max_seq_len=8192,32768,131072\n  arena-report --lever METRALE_FP8_ROWWISE=1 --sm-count 132 --splitk-policy auto"
)]
struct Cli {
    /// A Hugging Face config.json (default: the embedded Qwen3-Next-80B-A3B).
    #[arg(long, value_name = "FILE", conflicts_with = "model_config")]
    config: Option<PathBuf>,
    /// A ModelConfig JSON (this project's own form).
    #[arg(long, value_name = "FILE")]
    model_config: Option<PathBuf>,
    /// Tokens of the largest forward pass (M).
    #[arg(long, default_value_t = Limits::default().max_batch_tokens)]
    max_batch_tokens: usize,
    /// Longest sequence (S).
    #[arg(long, default_value_t = Limits::default().max_seq_len)]
    max_seq_len: usize,
    /// KV-cache block size (B); 0 means 256 blocks per sequence.
    #[arg(long, default_value_t = Limits::default().kv_block_size)]
    kv_block_size: usize,
    /// Largest decode batch (N).
    #[arg(long, default_value_t = Limits::default().max_batch_size)]
    max_batch_size: usize,
    /// A lever value, NAME=VALUE; repeatable; wins over the environment.
    #[arg(long = "lever", value_name = "NAME=VALUE")]
    levers: Vec<String>,
    /// The target GPU by name (h100, h200, a100-40gb, ...; `list` prints them):
    /// its SM count, and its memory for the arena's share.
    #[arg(long, value_name = "NAME")]
    gpu: Option<String>,
    /// Streaming multiprocessors of the target GPU, when it has no preset
    /// [default: 48, the spec's baseline target].
    #[arg(long, value_name = "N")]
    sm_count: Option<usize>,
    /// The target's declared split-K policy: legacy, auto, off or a split count.
    #[arg(long, default_value = "legacy")]
    splitk_policy: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// In the table, print every formula and condition whole instead of
    /// cutting the table at 120 characters.
    #[arg(long)]
    wide: bool,
    /// Sweep one serve limit: PARAM=V1,V2,... (e.g. max_batch_tokens=256,1024,4096).
    #[arg(long, value_name = "PARAM=VALUES")]
    sweep: Option<String>,
    /// With --sweep: draw the arena's bytes against the swept value as an SVG.
    #[arg(
        long,
        value_name = "FILE.svg",
        requires = "sweep",
        conflicts_with = "fit"
    )]
    chart: Option<PathBuf>,
    /// The largest value of this serve limit whose arena fits the budget
    /// (--budget, or --gpu's memory less --reserve); with --sweep, for each
    /// value of the swept limit.
    #[arg(long, value_name = "PARAM")]
    fit: Option<String>,
    /// With --fit: the bytes the arena may take (6GiB, 512MiB, 1.5GB or plain bytes).
    #[arg(long, value_name = "BYTES", requires = "fit")]
    budget: Option<String>,
    /// With --fit and --gpu: the bytes kept for weights, KV cache and the
    /// rest; the budget is the GPU's memory less these.
    #[arg(long, value_name = "BYTES", requires = "fit")]
    reserve: Option<String>,
    /// With --fit: the largest value tried, the range being 1..=N [default: 1048576].
    #[arg(long, value_name = "N", requires = "fit")]
    fit_max: Option<usize>,
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|e| {
                format!(
                    "{}: not UTF-8 text (invalid byte at offset {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                )
            })
        })
}

fn load(cli: &Cli) -> Result<(ModelConfig, String, Reader), String> {
    if let Some(p) = &cli.model_config {
        let name = p.display().to_string();
        let c = ModelConfig::from_model_config_json(&read(p)?, &name).map_err(|e| e.to_string())?;
        return Ok((c, name, Reader::ModelConfigJson));
    }
    let (text, name) = match &cli.config {
        Some(p) => (read(p)?, p.display().to_string()),
        None => (EMBEDDED.to_owned(), EMBEDDED_NAME.to_owned()),
    };
    let (c, reader) = ModelConfig::read_hf_config_json(&text, &name).map_err(|e| e.to_string())?;
    Ok((c, name, reader))
}

fn levers(cli: &Cli) -> Result<Levers, String> {
    let known = BufferSizes::lever_names();
    let mut levers = Levers::from_env(known.iter().copied());
    for assignment in &cli.levers {
        let Some((name, value)) = assignment.split_once('=') else {
            return Err(format!("--lever {assignment:?}: expected NAME=VALUE"));
        };
        if !known.contains(&name) {
            return Err(format!(
                "--lever {name}: not a lever of this arena; known levers: {}",
                known.join(", ")
            ));
        }
        levers.set(name, value);
    }
    Ok(levers)
}

fn sweep_spec(spec: &str) -> Result<(String, Vec<usize>), String> {
    let (param, values) = spec
        .split_once('=')
        .ok_or_else(|| format!("--sweep {spec:?}: expected PARAM=V1,V2,..."))?;
    if !SWEEPABLE.contains(&param) {
        return Err(format!(
            "--sweep {param}: not a serve limit; one of {}",
            SWEEPABLE.join(", ")
        ));
    }
    let values = values
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("--sweep {param}: {v:?} is not a non-negative integer"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((param.to_owned(), values))
}

fn run(cli: Cli) -> Result<String, String> {
    if cli.gpu.as_deref() == Some("list") {
        return Ok(gpu::list());
    }
    let gpu = match (&cli.gpu, cli.sm_count) {
        (Some(_), Some(_)) => {
            return Err("--gpu and --sm-count both set the SM count: give one of them".to_owned());
        }
        (Some(name), None) => Some(gpu::find(name).ok_or_else(|| {
            format!(
                "--gpu {name:?}: unknown GPU; known: {} (or `list`)",
                gpu::names()
            )
        })?),
        (None, _) => None,
    };
    let sm_count = gpu
        .map(|g| g.sm_count)
        .or(cli.sm_count)
        .unwrap_or(Target::DEFAULT.sm_count);
    let (config, source, reader) = load(&cli)?;
    let levers = levers(&cli)?;
    let policy = SplitKPolicy::parse(&cli.splitk_policy).ok_or_else(|| {
        format!(
            "--splitk-policy {:?}: expected legacy, auto, off or a split count",
            cli.splitk_policy
        )
    })?;
    let target = Target {
        sm_count,
        declared_splitk: policy,
    };
    let limits = Limits {
        max_batch_tokens: cli.max_batch_tokens,
        max_seq_len: cli.max_seq_len,
        kv_block_size: cli.kv_block_size,
        max_batch_size: cli.max_batch_size,
    };
    if let Some(param) = &cli.fit {
        return fit(&cli, param, &config, limits, target, &levers, &source, gpu);
    }
    let Some(spec) = &cli.sweep else {
        let r = report::build(&config, limits, target, &levers, &source)?
            .on_gpu(gpu)
            .read_by(reader);
        return Ok(match cli.format {
            Format::Table if cli.wide => r.wide_table(),
            Format::Table => r.table(),
            Format::Json => format!("{:#}\n", r.json()),
            Format::Csv => r.csv(),
        });
    };
    let (param, values) = sweep_spec(spec)?;
    let sweep = Sweep::of(&param, values, |v| {
        let l = limits
            .with(&param, v)
            .ok_or_else(|| format!("--sweep {param}: unknown"))?;
        Ok::<_, String>(
            report::build(&config, l, target, &levers, &source)?
                .on_gpu(gpu)
                .generic,
        )
    })
    .map_err(|e| e.to_string())?;
    if let Some(path) = &cli.chart {
        let title = format!(
            "metrale arena of {} ({})",
            config.model_type,
            short(&source)
        );
        sweep.chart(path, &title)?;
    }
    Ok(match cli.format {
        Format::Table => sweep.table(),
        Format::Json => format!("{:#}\n", sweep.json()),
        Format::Csv => sweep.csv(),
    })
}

/// `--fit PARAM`: the budget from `--budget` or `--gpu` less `--reserve`,
/// then the fit (or the frontier with `--sweep`) in the chosen format.
#[allow(clippy::too_many_arguments)]
fn fit(
    cli: &Cli,
    param: &str,
    config: &ModelConfig,
    limits: Limits,
    target: Target,
    levers: &Levers,
    source: &str,
    gpu: Option<gpu::Gpu>,
) -> Result<String, String> {
    let bytes = |flag: &str, v: &str| fit::parse_bytes(v).map_err(|e| format!("--{flag} {e}"));
    let (budget, budget_from) = match (&cli.budget, gpu, &cli.reserve) {
        (Some(_), _, Some(_)) => {
            return Err(
                "--reserve is taken from --gpu's memory; with --budget give the budget itself"
                    .to_owned(),
            );
        }
        (Some(b), _, None) => (bytes("budget", b)?, "given with --budget".to_owned()),
        (None, Some(g), reserve) => {
            let r = match reserve {
                Some(r) => bytes("reserve", r)?,
                None => 0,
            };
            let left = g.memory_bytes.checked_sub(r).ok_or_else(|| {
                format!(
                    "--reserve {}: more than the {}'s {} of memory",
                    reserve.as_deref().unwrap_or("0"),
                    g.display,
                    fit::human(g.memory_bytes)
                )
            })?;
            (
                left,
                format!(
                    "the {}'s {} less a reserve of {}",
                    g.display,
                    fit::human(g.memory_bytes),
                    fit::human(r)
                ),
            )
        }
        (None, None, Some(_)) => {
            return Err(
                "--reserve needs --gpu: the budget is its memory less the reserve".to_owned(),
            );
        }
        (None, None, None) => {
            return Err(format!(
                "--fit {param} needs a budget: --budget BYTES, or --gpu NAME (with --reserve BYTES)"
            ));
        }
    };
    let sweep = cli.sweep.as_deref().map(sweep_spec).transpose()?;
    let max = cli.fit_max.unwrap_or(1 << 20);
    let outcome = fit::run(config, limits, target, levers, param, max, budget, sweep)?;
    let report = fit::FitReport {
        param: param.to_owned(),
        max,
        budget,
        budget_from,
        limits,
        source: source.to_owned(),
        model_type: config.model_type.clone(),
        outcome,
    };
    Ok(match cli.format {
        Format::Table => report.table(),
        Format::Json => format!("{:#}\n", report.json()),
        Format::Csv => report.csv(),
    })
}

fn short(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arena-report: {e}");
            ExitCode::from(2)
        }
    }
}

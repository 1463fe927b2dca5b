//! What `arena-report` computes and prints: the metrale arena of one model at
//! given serve limits, as a table, JSON or CSV, a sweep, and a chart.

use arena::{Arena, Levers};
use serde_json::{Value, json};

use crate::rules::Reader;
use crate::{BufferSizes, ModelConfig, Target};
use arena::report::Gpu;

/// The widest line of the default table, in characters (the generic
/// report's).
pub use arena::report::TABLE_WIDTH;

/// The serve limits `BufferSizes::from_config` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_batch_tokens: usize,
    pub max_seq_len: usize,
    pub kv_block_size: usize,
    pub max_batch_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_batch_tokens: 8192,
            max_seq_len: 32_768,
            kv_block_size: 16,
            max_batch_size: 64,
        }
    }
}

/// The serve limits a sweep can vary, by name.
pub const SWEEPABLE: [&str; 4] = [
    "max_batch_tokens",
    "max_seq_len",
    "kv_block_size",
    "max_batch_size",
];

impl Limits {
    /// These limits with one of them, by name, set to `value`.
    pub fn with(self, param: &str, value: usize) -> Option<Limits> {
        let mut l = self;
        match param {
            "max_batch_tokens" => l.max_batch_tokens = value,
            "max_seq_len" => l.max_seq_len = value,
            "kv_block_size" => l.kv_block_size = value,
            "max_batch_size" => l.max_batch_size = value,
            _ => return None,
        }
        Some(l)
    }
}

/// One sized arena with everything a report shows.
#[derive(Debug)]
pub struct Report {
    pub sizes: BufferSizes,
    pub limits: Limits,
    pub target: Target,
    pub levers: Levers,
    pub source: String,
    pub model_type: String,
    /// The path of the config reader that mapped the file, when known.
    pub reader: Option<Reader>,
    /// The generic report of the same arena: its rows, slab, bounds and
    /// GPU (what a sweep collects).
    pub generic: arena::report::Report<'static>,
}

/// One field of the arena in the report: the generic report's row.
pub use arena::report::Row;

/// Sizes the arena and lays it out; errors are one line naming the cause.
pub fn build(
    config: &ModelConfig,
    limits: Limits,
    target: Target,
    levers: &Levers,
    source: &str,
) -> Result<Report, String> {
    let sizes = BufferSizes::try_from_config_with(
        levers,
        config,
        limits.max_batch_tokens,
        limits.max_seq_len,
        limits.kv_block_size,
        limits.max_batch_size,
        &target,
    )
    .map_err(|e| format!("{source}: {e}"))?;
    // The rows, the layout and its bounds: the generic report's.
    let generic = arena::report::Report::of(&sizes).map_err(|e| format!("{source}: {e}"))?;
    Ok(Report {
        sizes,
        limits,
        target,
        levers: levers.clone(),
        source: source.to_owned(),
        model_type: config.model_type.clone(),
        reader: None,
        generic,
    })
}

impl Report {
    /// This report related to `gpu`: its memory share in the table and JSON.
    pub fn on_gpu(mut self, gpu: Option<Gpu>) -> Self {
        self.generic.gpu = gpu;
        self
    }

    /// This report saying which path of the config reader mapped its file.
    pub fn read_by(mut self, reader: Reader) -> Self {
        self.reader = Some(reader);
        self
    }

    /// The slab's share of the GPU's memory, when a GPU is known.
    pub fn arena_fraction(&self) -> Option<f64> {
        self.generic.gpu_fraction()
    }

    /// The generic report with what only this front-end knows: the GLM
    /// trim and the reader below the totals; the source, model, limits,
    /// target, levers, every field's bytes and the trim in the JSON.
    pub fn rendered(&self) -> arena::report::Report<'static> {
        let mut r = self
            .generic
            .clone()
            .with_total("glm_trimmed", self.sizes.glm_trimmed);
        if BufferSizes::PHASES.is_empty() {
            r = r.with_line(
                "phases",
                "none declared: every buffer is live at once, nothing is shared",
            );
        }
        if let Some(reader) = &self.reader {
            r = r.with_line("read by", reader.describe());
        }
        if let Some(g) = self.generic.gpu {
            r = r.with_line("gpu", format!("{}: {} SMs", g.display, g.sm_count));
        }
        let sizes: serde_json::Map<String, Value> = self
            .generic
            .rows
            .iter()
            .map(|r| (r.name.to_owned(), json!(r.bytes)))
            .collect();
        let levers: serde_json::Map<String, Value> = self
            .levers
            .iter()
            .map(|(k, v)| (k.to_owned(), json!(v.to_string_lossy())))
            .collect();
        r.with_json("source", json!(self.source))
            .with_json("model_type", json!(self.model_type))
            .with_json("family", json!(self.reader.as_ref().map(Reader::name)))
            .with_json(
                "family_known",
                json!(
                    self.reader
                        .as_ref()
                        .map(|r| !matches!(r, Reader::Generic { known: false, .. }))
                ),
            )
            .with_json(
                "limits",
                json!({
                    "max_batch_tokens": self.limits.max_batch_tokens,
                    "max_seq_len": self.limits.max_seq_len,
                    "kv_block_size": self.limits.kv_block_size,
                    "max_batch_size": self.limits.max_batch_size,
                }),
            )
            .with_json(
                "target",
                json!({
                    "sm_count": self.target.sm_count,
                    "splitk_policy": self.target.declared_splitk.to_string(),
                }),
            )
            .with_json("levers", Value::Object(levers))
            .with_json("sizes", Value::Object(sizes))
            .with_json("glm_trimmed", json!(self.sizes.glm_trimmed))
    }

    /// The generic report's table ([`TABLE_WIDTH`] columns at most) with
    /// this front-end's lines.
    pub fn table(&self) -> String {
        self.rendered().table()
    }

    /// The table with every condition and formula whole (`--wide`).
    pub fn wide_table(&self) -> String {
        self.rendered().wide_table()
    }

    /// The generic report's JSON with this front-end's keys (the list in
    /// this package's README).
    pub fn json(&self) -> Value {
        self.rendered().json()
    }

    /// The generic report's CSV: a header, then one line per field.
    pub fn csv(&self) -> String {
        self.generic.csv()
    }
}

pub use arena::report::phase_table;

/// Reports at several values of a serve limit: the generic sweep.
pub use arena::report::Sweep;

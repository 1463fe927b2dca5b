//! What `arena-report` computes and prints: the metrale arena of one model at
//! given serve limits, as a table, JSON or CSV, a sweep, and a chart.

use std::fmt::Write as _;

use arena::{Arena, Levers};
use serde_json::{Value, json};

use crate::gpu::Gpu;
use crate::rules::Reader;
use crate::{BufferSizes, ModelConfig, Target};

/// The widest line of the default table, in characters.
pub const TABLE_WIDTH: usize = 120;

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

/// Bytes with a binary unit: `12.0 MiB` (the generic report's).
pub use arena::report::human;
use arena::report::{csv_field, ellipsize, percent};

impl Report {
    fn total(&self) -> usize {
        self.sizes.total_bytes()
    }

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

    /// Aligned columns, then the totals; no line is wider than
    /// [`TABLE_WIDTH`] characters: long conditions and formulas end in `…`.
    pub fn table(&self) -> String {
        self.table_within(Some(TABLE_WIDTH))
    }

    /// The table with every condition and formula whole (`--wide`).
    pub fn wide_table(&self) -> String {
        self.table_within(None)
    }

    fn table_within(&self, max_width: Option<usize>) -> String {
        let header = [
            "buffer",
            "dtype",
            "shape",
            "bytes",
            "size",
            "offset",
            "condition",
            "formula",
        ];
        let cells: Vec<[String; 8]> = self
            .generic
            .rows
            .iter()
            .map(|r| {
                [
                    r.name.to_owned(),
                    r.dtype.clone(),
                    r.shape.clone(),
                    r.bytes.to_string(),
                    human(r.bytes),
                    r.offset.map_or("-".into(), |o| o.to_string()),
                    if r.condition.is_empty() {
                        "-".into()
                    } else {
                        r.condition.clone()
                    },
                    r.formula.to_owned(),
                ]
            })
            .collect();
        let mut width = header.map(str::len);
        for row in &cells {
            for (w, c) in width.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let mut cells = cells;
        if let Some(max) = max_width {
            // The shape, condition and formula columns can be long; they share
            // what the others leave, the formula twice as much as each of the
            // other two, and it takes what they do not need.
            const CUT: [usize; 3] = [2, 6, 7];
            let fixed: usize = (0..8)
                .filter(|i| !CUT.contains(i))
                .map(|i| width[i])
                .sum::<usize>()
                + 2 * 7;
            let left = max.saturating_sub(fixed);
            let fit = |cap: usize| {
                let caps = [cap, cap, 2 * cap];
                [0, 1, 2].map(|k| width[CUT[k]].min(caps[k].max(header[CUT[k]].len())))
            };
            if CUT.iter().map(|&i| width[i]).sum::<usize>() > left {
                let mut cap = left;
                while cap > 0 && fit(cap).iter().sum::<usize>() > left {
                    cap -= 1;
                }
                let mut cut = fit(cap);
                cut[2] += left.saturating_sub(cut.iter().sum());
                for (&i, w) in CUT.iter().zip(cut) {
                    for row in &mut cells {
                        row[i] = ellipsize(&row[i], w);
                    }
                    width[i] = w;
                }
            }
        }
        let right = [false, false, false, true, true, true, false, false];
        let mut out = String::new();
        let line = |cols: &[String], out: &mut String| {
            let mut s = String::new();
            for (i, c) in cols.iter().enumerate() {
                let pad = width[i].saturating_sub(c.chars().count());
                if i == cols.len() - 1 {
                    s.push_str(c);
                } else if right[i] {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                    s.push_str("  ");
                } else {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad + 2));
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&header.map(String::from), &mut out);
        for row in &cells {
            line(row, &mut out);
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "total_bytes  {:>16}  {}",
            self.total(),
            human(self.total())
        );
        let _ = writeln!(
            out,
            "slab_bytes   {:>16}  {}",
            self.generic.slab_bytes,
            human(self.generic.slab_bytes)
        );
        let _ = writeln!(
            out,
            "glm_trimmed  {:>16}  {}",
            self.sizes.glm_trimmed,
            human(self.sizes.glm_trimmed)
        );
        if BufferSizes::PHASES.is_empty() {
            let _ = writeln!(
                out,
                "phases       none declared: every buffer is live at once, nothing is shared"
            );
        } else {
            for (name, v) in [
                ("unplanned", self.generic.unplanned_bytes),
                ("planned", self.generic.slab_bytes),
                ("lower bound", self.generic.lower_bound_bytes),
            ] {
                let _ = writeln!(out, "{name:<12} {v:>16}  {}", human(v));
            }
            out.push_str(&phase_table(&self.sizes).unwrap_or_default());
        }
        if let Some(r) = &self.reader {
            let _ = writeln!(out, "read by      {}", r.describe());
        }
        if let (Some(g), Some(f)) = (self.generic.gpu, self.arena_fraction()) {
            let _ = writeln!(
                out,
                "gpu          {}: {} SMs, {}; the slab takes {} of its memory",
                g.display,
                g.sm_count,
                human(g.memory_bytes),
                percent(f)
            );
        }
        out
    }

    /// The JSON object documented in the README.
    pub fn json(&self) -> Value {
        let sizes: serde_json::Map<String, Value> = self
            .generic
            .rows
            .iter()
            .map(|r| (r.name.to_owned(), json!(r.bytes)))
            .collect();
        let buffers: Vec<Value> = self
            .generic
            .rows
            .iter()
            .filter(|r| r.offset.is_some())
            .map(|r| Value::Object(r.json()))
            .collect();
        let levers: serde_json::Map<String, Value> = self
            .levers
            .iter()
            .map(|(k, v)| (k.to_owned(), json!(v.to_string_lossy())))
            .collect();
        json!({
            "arena": "BufferSizes",
            "source": self.source,
            "model_type": self.model_type,
            "family": self.reader.as_ref().map(Reader::name),
            "family_known": self.reader.as_ref().map(|r| !matches!(r, Reader::Generic { known: false, .. })),
            "limits": {
                "max_batch_tokens": self.limits.max_batch_tokens,
                "max_seq_len": self.limits.max_seq_len,
                "kv_block_size": self.limits.kv_block_size,
                "max_batch_size": self.limits.max_batch_size,
            },
            "target": {
                "sm_count": self.target.sm_count,
                "splitk_policy": self.target.declared_splitk.to_string(),
            },
            "gpu": self.generic.gpu_json(),
            "levers": levers,
            "sizes": sizes,
            "total_bytes": self.total(),
            "slab_bytes": self.generic.slab_bytes,
            "phases": BufferSizes::PHASES,
            "unplanned_bytes": self.generic.unplanned_bytes,
            "lower_bound_bytes": self.generic.lower_bound_bytes,
            "glm_trimmed": self.sizes.glm_trimmed,
            "buffers": buffers,
        })
    }

    /// One row per carved buffer, with a header.
    pub fn csv(&self) -> String {
        let mut out = String::from("name,bytes,offset,dtype,shape,lever,in_total,formula\n");
        for r in self.generic.rows.iter().filter(|r| r.offset.is_some()) {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{}",
                r.name,
                r.bytes,
                r.offset.unwrap_or(0),
                csv_field(&r.dtype),
                csv_field(&r.shape),
                r.lever.unwrap_or(""),
                r.in_total,
                csv_field(r.formula)
            );
        }
        out
    }
}

pub use arena::report::phase_table;

/// Reports at several values of a serve limit: the generic sweep.
pub use arena::report::Sweep;

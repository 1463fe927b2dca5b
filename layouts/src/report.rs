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
    pub rows: Vec<Row>,
    pub slab_bytes: usize,
    /// The GPU the report relates the arena to, when one was named.
    pub gpu: Option<Gpu>,
    /// The path of the config reader that mapped the file, when known.
    pub reader: Option<Reader>,
    /// The slab without sharing and the busiest phase's bytes (declared
    /// lifetimes); both equal the slab for an arena without phases.
    pub unplanned_bytes: usize,
    pub lower_bound_bytes: usize,
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
        rows: generic.rows,
        slab_bytes: generic.slab_bytes,
        gpu: None,
        reader: None,
        unplanned_bytes: generic.unplanned_bytes,
        lower_bound_bytes: generic.lower_bound_bytes,
    })
}

/// Bytes with a binary unit: `12.0 MiB` (the generic report's).
pub use arena::report::human;

impl Report {
    /// The `n` carved buffers with the most bytes, largest first (ties by name).
    fn largest(&self, n: usize) -> impl Iterator<Item = &Row> {
        let mut rows: Vec<&Row> = self.rows.iter().filter(|r| r.offset.is_some()).collect();
        rows.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.name.cmp(b.name)));
        rows.into_iter().take(n)
    }

    fn total(&self) -> usize {
        self.sizes.total_bytes()
    }

    /// This report related to `gpu`: its memory share in the table and JSON.
    pub fn on_gpu(mut self, gpu: Option<Gpu>) -> Self {
        self.gpu = gpu;
        self
    }

    /// This report saying which path of the config reader mapped its file.
    pub fn read_by(mut self, reader: Reader) -> Self {
        self.reader = Some(reader);
        self
    }

    /// The slab's share of the GPU's memory, when a GPU is known.
    pub fn arena_fraction(&self) -> Option<f64> {
        self.gpu
            .map(|g| self.slab_bytes as f64 / g.memory_bytes as f64)
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
            self.slab_bytes,
            human(self.slab_bytes)
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
                ("unplanned", self.unplanned_bytes),
                ("planned", self.slab_bytes),
                ("lower bound", self.lower_bound_bytes),
            ] {
                let _ = writeln!(out, "{name:<12} {v:>16}  {}", human(v));
            }
            out.push_str(&phase_table(&self.sizes).unwrap_or_default());
        }
        if let Some(r) = &self.reader {
            let _ = writeln!(out, "read by      {}", r.describe());
        }
        if let (Some(g), Some(f)) = (self.gpu, self.arena_fraction()) {
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
            .rows
            .iter()
            .map(|r| (r.name.to_owned(), json!(r.bytes)))
            .collect();
        let buffers: Vec<Value> = self
            .rows
            .iter()
            .filter(|r| r.offset.is_some())
            .map(|r| {
                json!({
                    "name": r.name,
                    "bytes": r.bytes,
                    "offset": r.offset,
                    "dtype": r.dtype,
                    "shape": r.shape,
                    "formula": r.formula,
                    "lever": r.lever,
                    "condition": r.condition,
                    "in_total": r.in_total,
                })
            })
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
            "gpu": self.gpu_json(),
            "levers": levers,
            "sizes": sizes,
            "total_bytes": self.total(),
            "slab_bytes": self.slab_bytes,
            "phases": BufferSizes::PHASES,
            "unplanned_bytes": self.unplanned_bytes,
            "lower_bound_bytes": self.lower_bound_bytes,
            "glm_trimmed": self.sizes.glm_trimmed,
            "buffers": buffers,
        })
    }

    fn gpu_json(&self) -> Value {
        match (self.gpu, self.arena_fraction()) {
            (Some(g), Some(f)) => json!({
                "name": g.name,
                "sm_count": g.sm_count,
                "memory_bytes": g.memory_bytes,
                "arena_fraction": f,
            }),
            _ => Value::Null,
        }
    }

    /// One row per carved buffer, with a header.
    pub fn csv(&self) -> String {
        let mut out = String::from("name,bytes,offset,dtype,shape,lever,in_total,formula\n");
        for r in self.rows.iter().filter(|r| r.offset.is_some()) {
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

/// For an arena with declared phases: one line per phase with its live
/// buffers and the bytes they hold, against the planned slab.
pub fn phase_table<A: Arena>(arena: &A) -> Result<String, arena::SizeError> {
    let layout = arena.layout()?;
    let slab = layout.slab_bytes.max(1);
    let mut out = format!(
        "{:<12} {:>7}  {:>16}  {:>10}  {:>6}\n",
        "phase", "buffers", "live bytes", "live", "of slab"
    );
    for (p, phase) in A::PHASES.iter().enumerate() {
        let live: Vec<usize> = A::BUFFERS
            .iter()
            .filter(|b| b.is_carved())
            .zip(&layout.placements)
            .filter(|(b, _)| {
                let (first, last) = b.phases(A::PHASES.len());
                first <= p && p <= last
            })
            .map(|(_, pl)| pl.bytes)
            .collect();
        let bytes: usize = live.iter().sum();
        let _ = writeln!(
            out,
            "{phase:<12} {:>7}  {bytes:>16}  {:>10}  {:>5.1}%",
            live.len(),
            human(bytes),
            100.0 * bytes as f64 / slab as f64
        );
    }
    Ok(out)
}

/// `s` cut to `max` characters, the last one an ellipsis when cut.
fn ellipsize(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A fraction as a percentage a person reads: `2.41%`, `0.013%`.
fn percent(f: f64) -> String {
    let p = f * 100.0;
    if p >= 1.0 || p == 0.0 {
        format!("{p:.2}%")
    } else {
        format!("{p:.3}%")
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// A sweep: one report per value of one serve limit.
pub struct Sweep {
    pub param: String,
    pub points: Vec<(usize, Report)>,
}

impl Sweep {
    /// The carved buffers with the most bytes at the sweep's last point.
    fn largest(&self, n: usize) -> Vec<&'static str> {
        self.points.last().map_or(Vec::new(), |(_, r)| {
            r.largest(n).map(|row| row.name).collect()
        })
    }

    fn top3(report: &Report) -> String {
        report
            .largest(3)
            .map(|r| format!("{} {}", r.name, human(r.bytes)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The GPU of the sweep's reports, when one was named.
    pub fn gpu(&self) -> Option<Gpu> {
        self.points.first().and_then(|(_, r)| r.gpu)
    }

    /// One row per value: the total, the GPU share when a GPU is known, and
    /// the largest buffers.
    pub fn table(&self) -> String {
        let gpu = self.gpu().is_some();
        let share = |r: &Report| {
            r.arena_fraction()
                .map_or(String::new(), |f| format!("{:>8}  ", percent(f)))
        };
        let mut out = format!(
            "{:>16}  {:>16}  {:>10}  {:>16}  {}largest buffers\n",
            self.param,
            "total_bytes",
            "total",
            "slab_bytes",
            if gpu {
                format!("{:>8}  ", "of gpu")
            } else {
                String::new()
            }
        );
        for (v, r) in &self.points {
            let _ = writeln!(
                out,
                "{:>16}  {:>16}  {:>10}  {:>16}  {}{}",
                v,
                r.total(),
                human(r.total()),
                r.slab_bytes,
                share(r),
                Self::top3(r)
            );
        }
        if let Some(g) = self.gpu() {
            let _ = writeln!(
                out,
                "gpu: {}, {} SMs, {}",
                g.display,
                g.sm_count,
                human(g.memory_bytes)
            );
        }
        out
    }

    pub fn json(&self) -> Value {
        json!({
            "param": self.param,
            "gpu": self.points.first().map_or(Value::Null, |(_, r)| r.gpu_json()),
            "points": self.points.iter().map(|(v, r)| json!({
                "value": v,
                "total_bytes": r.total(),
                "slab_bytes": r.slab_bytes,
                "arena_fraction": r.arena_fraction(),
                "sizes": r.rows.iter().map(|row| (row.name.to_owned(), json!(row.bytes))).collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
        })
    }

    pub fn csv(&self) -> String {
        let names: Vec<&str> = self.points.first().map_or(Vec::new(), |(_, r)| {
            r.rows.iter().map(|row| row.name).collect()
        });
        let mut out = format!(
            "{},total_bytes,slab_bytes,{}\n",
            self.param,
            names.join(",")
        );
        for (v, r) in &self.points {
            let cols: Vec<String> = r.rows.iter().map(|row| row.bytes.to_string()).collect();
            let _ = writeln!(out, "{v},{},{},{}", r.total(), r.slab_bytes, cols.join(","));
        }
        out
    }

    /// Stacked series: (name, bytes at each point), largest first, "other" last.
    pub fn series(&self) -> Vec<(String, Vec<usize>)> {
        let top = self.largest(8);
        let mut out: Vec<(String, Vec<usize>)> = top
            .iter()
            .map(|name| {
                let ys = self
                    .points
                    .iter()
                    .map(|(_, r)| {
                        r.rows
                            .iter()
                            .find(|row| row.name == *name)
                            .map_or(0, |row| row.bytes)
                    })
                    .collect();
                ((*name).to_owned(), ys)
            })
            .collect();
        let other = self
            .points
            .iter()
            .map(|(_, r)| {
                r.rows
                    .iter()
                    .filter(|row| row.offset.is_some() && !top.contains(&row.name))
                    .map(|row| row.bytes)
                    .sum()
            })
            .collect();
        out.push(("other".to_owned(), other));
        out
    }
}

//! What `arena-report` computes and prints: the metrale arena of one model at
//! given serve limits, as a table, JSON or CSV, a sweep, and a chart.

use std::fmt::Write as _;

use arena::{Arena, FieldKind, Levers};
use serde_json::{Value, json};

use crate::{BufferSizes, ModelConfig, Target};

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
}

/// One field of the arena in the report.
pub struct Row {
    pub name: &'static str,
    pub bytes: usize,
    /// `None` for a value field, which is not carved.
    pub offset: Option<usize>,
    pub dtype: String,
    pub shape: String,
    pub formula: &'static str,
    pub lever: Option<&'static str>,
    pub condition: String,
    pub in_total: bool,
}

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
    let layout = sizes.layout().map_err(|e| format!("{source}: {e}"))?;
    let values = sizes.sizes();
    let rows = BufferSizes::BUFFERS
        .iter()
        .zip(values)
        .map(|(info, (_, bytes))| {
            let (dtype, shape) = match info.kind {
                FieldKind::Nested => (
                    info.nested.unwrap_or("").to_owned(),
                    "(sub-layout)".to_owned(),
                ),
                FieldKind::Value => ("-".to_owned(), "-".to_owned()),
                FieldKind::Buffer => (
                    info.dtype.to_owned(),
                    if info.shape.is_empty() {
                        "-".to_owned()
                    } else {
                        format!("[{}]", info.shape.join(", "))
                    },
                ),
            };
            Row {
                name: info.name,
                bytes,
                offset: layout.offset_of(info.name),
                dtype,
                shape,
                formula: info.formula,
                lever: info.lever,
                condition: info.condition(),
                in_total: info.in_total,
            }
        })
        .collect();
    Ok(Report {
        sizes,
        limits,
        target,
        levers: levers.clone(),
        source: source.to_owned(),
        model_type: config.model_type.clone(),
        rows,
        slab_bytes: layout.slab_bytes,
    })
}

/// Bytes with a binary unit: `12.0 MiB`.
pub fn human(bytes: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

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

    /// Aligned columns, then the totals.
    pub fn table(&self) -> String {
        let header = [
            "buffer",
            "dtype",
            "shape",
            "bytes",
            "size",
            "offset",
            "lever / condition",
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
            "levers": levers,
            "sizes": sizes,
            "total_bytes": self.total(),
            "slab_bytes": self.slab_bytes,
            "glm_trimmed": self.sizes.glm_trimmed,
            "buffers": buffers,
        })
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

    /// One row per value: the total and the largest buffers.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:>16}  {:>16}  {:>10}  {:>16}  largest buffers\n",
            self.param, "total_bytes", "total", "slab_bytes"
        );
        for (v, r) in &self.points {
            let _ = writeln!(
                out,
                "{:>16}  {:>16}  {:>10}  {:>16}  {}",
                v,
                r.total(),
                human(r.total()),
                r.slab_bytes,
                Self::top3(r)
            );
        }
        out
    }

    pub fn json(&self) -> Value {
        json!({
            "param": self.param,
            "points": self.points.iter().map(|(v, r)| json!({
                "value": v,
                "total_bytes": r.total(),
                "slab_bytes": r.slab_bytes,
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

    /// Draws the slab's bytes against the swept value, stacked by buffer
    /// (the largest eight and "other"), as an SVG file.
    pub fn chart(&self, path: &std::path::Path, title: &str) -> Result<(), String> {
        crate::chart::stacked(self, path, title)
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

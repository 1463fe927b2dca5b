//! A report of any derived arena (feature `report`): its buffers as a table,
//! JSON and CSV, and a picture of its memory map.
//!
//! ```
//! use arena::{Arena, Levers};
//! use arena::report::Report;
//!
//! #[derive(Arena)]
//! #[arena(params(m: usize), phases(attn, mlp))]
//! struct Scratch {
//!     #[arena(shape = [m, 64], dtype = f32)]
//!     x: usize,
//!     #[arena(shape = [m, 192], dtype = bf16, live = attn)]
//!     qkv: usize,
//!     #[arena(shape = [m, 256], dtype = bf16, live = mlp)]
//!     up: usize,
//! }
//!
//! let s = Scratch::try_from_config_with(&Levers::new(), 128).unwrap();
//! let report = Report::of(&s).unwrap();
//! assert!(report.table().lines().all(|l| l.chars().count() <= 120));
//! assert_eq!(report.json()["buffers"][1]["live"], serde_json::json!(["attn", "attn"]));
//! assert!(report.svg().starts_with("<svg"));
//! ```

use arena_runtime::{Arena, FieldKind, SizeError};

mod chart;
mod csv;
pub mod gpu;
mod json;
mod map;
mod sweep;
mod table;
mod text;

pub use gpu::Gpu;
pub use map::{MapBox, MemoryMap, SVG_HEIGHT, SVG_WIDTH};
pub use sweep::{Sweep, SweepError};
pub use table::{TABLE_WIDTH, phase_table};

/// One field of the arena in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row<'a> {
    /// The field.
    pub name: &'a str,
    /// Its bytes (a value field's value).
    pub bytes: usize,
    /// Its offset in the slab; `None` for a value field, which is not carved.
    pub offset: Option<usize>,
    /// The element type's name, a nested arena's name, or `-`.
    pub dtype: String,
    /// `[d0, d1, ...]`, `(sub-layout)` for a nested region, or `-`.
    pub shape: String,
    /// The size formula as written.
    pub formula: &'a str,
    /// The on/off lever that gates it.
    pub lever: Option<&'a str>,
    /// Its conditions as text (`lever X; when ...`), empty when none.
    pub condition: String,
    /// Whether it counts in `total_bytes()`.
    pub in_total: bool,
    /// The first and last phase it is live in (indices in
    /// [`Report::phases`]); `None` for a value field.
    pub live: Option<(usize, usize)>,
    /// Its start's alignment in the arena.
    pub align: usize,
}

impl Row<'_> {
    /// The row as JSON: `name`, `bytes`, `offset`, `dtype`, `shape`,
    /// `formula`, `lever`, `condition`, `in_total` ([`Report::json`] adds
    /// `live` and `align`, which need the arena's phases).
    pub fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        let serde_json::Value::Object(m) = serde_json::json!({
            "name": self.name,
            "bytes": self.bytes,
            "offset": self.offset,
            "dtype": self.dtype,
            "shape": self.shape,
            "formula": self.formula,
            "lever": self.lever,
            "condition": self.condition,
            "in_total": self.in_total,
        }) else {
            unreachable!("a json! object literal is an object")
        };
        m
    }
}

/// A sized arena with everything a report shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Report<'a> {
    /// The derived struct.
    pub arena: &'a str,
    /// The declared phases; empty without.
    pub phases: &'a [&'a str],
    /// The arena-level condition, as written.
    pub when: Option<&'a str>,
    /// One allocation's bytes.
    pub slab_bytes: usize,
    /// The sum of the buffers counted in the total.
    pub total_bytes: usize,
    /// The slab without sharing.
    pub unplanned_bytes: usize,
    /// The busiest phase's bytes: no plan is lower.
    pub lower_bound_bytes: usize,
    /// Every field, in declaration order.
    pub rows: Vec<Row<'a>>,
    /// The buffers inside nested regions, at every depth, with their paths
    /// (`region.buffer`) and absolute offsets ([`arena_runtime::Layout::flatten`]).
    pub nested: Vec<arena_runtime::FlatBuffer>,
    /// The GPU the report relates the arena to.
    pub gpu: Option<Gpu>,
    /// Lines a front-end adds below the totals ([`Report::with_total`],
    /// [`Report::with_line`]), in order.
    pub footer: Vec<Footer>,
    /// Keys a front-end adds to [`Report::json`] ([`Report::with_json`]).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A line a front-end adds below a report's totals: the report stays the
/// one renderer, the front-end supplies data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Footer {
    /// Bytes, printed as the totals are (`name`, the count, its size).
    Total {
        /// What the bytes are.
        name: String,
        /// The bytes.
        bytes: usize,
    },
    /// A line of text after a name, aligned with the totals' names.
    Line {
        /// What the line is.
        name: String,
        /// The text.
        text: String,
    },
}

impl<'a> Report<'a> {
    /// The report of `x`: its layout (planned, for an arena with phases),
    /// totals and every field's metadata. A layout that cannot be computed
    /// is the [`SizeError`].
    pub fn of<A: Arena>(x: &A) -> Result<Report<'static>, SizeError> {
        let layout = x.layout()?;
        let phases = A::PHASES.len();
        let rows = A::BUFFERS
            .iter()
            .enumerate()
            .map(|(i, info)| {
                // A dtype chosen at run time: the one the arena was sized with.
                let elem = match (info.dyn_dtype, x.field_dtype(i)) {
                    (true, Some(d)) => d.name(),
                    _ => info.dtype,
                };
                let (dtype, shape) = match info.kind {
                    FieldKind::Nested => (
                        info.nested.unwrap_or("-").to_owned(),
                        "(sub-layout)".to_owned(),
                    ),
                    FieldKind::Value => ("-".to_owned(), "-".to_owned()),
                    FieldKind::Buffer if info.shape.is_empty() => (elem.to_owned(), "-".to_owned()),
                    FieldKind::Buffer => (elem.to_owned(), format!("[{}]", info.shape.join(", "))),
                };
                let carved = info.is_carved();
                Row {
                    name: info.name,
                    bytes: x.field_bytes(i),
                    offset: carved.then(|| layout.offset_of(info.name)).flatten(),
                    dtype,
                    shape,
                    formula: info.formula,
                    lever: info.lever,
                    condition: info.condition(),
                    in_total: info.in_total && carved,
                    live: carved.then(|| info.phases(phases.max(1))),
                    align: info.align_in(A::ALIGN),
                }
            })
            .collect();
        Ok(Report {
            arena: A::NAME,
            phases: A::PHASES,
            when: A::WHEN,
            slab_bytes: layout.slab_bytes,
            total_bytes: x.total_bytes(),
            unplanned_bytes: x.unplanned_bytes()?,
            lower_bound_bytes: x.lower_bound_bytes()?,
            rows,
            nested: layout
                .flatten()
                .into_iter()
                .filter(|b| b.depth > 0)
                .collect(),
            gpu: None,
            footer: Vec::new(),
            extra: serde_json::Map::new(),
        })
    }

    /// This report with `bytes` below its totals, printed as they are.
    pub fn with_total(mut self, name: impl Into<String>, bytes: usize) -> Self {
        self.footer.push(Footer::Total {
            name: name.into(),
            bytes,
        });
        self
    }

    /// This report with a line of `text` below its totals, after `name`.
    pub fn with_line(mut self, name: impl Into<String>, text: impl Into<String>) -> Self {
        self.footer.push(Footer::Line {
            name: name.into(),
            text: text.into(),
        });
        self
    }

    /// This report with `key` in its JSON: a front-end's data beside the
    /// report's own keys (a key of the report's own is replaced).
    pub fn with_json(mut self, key: impl Into<String>, value: serde_json::Value) -> Self {
        self.extra.insert(key.into(), value);
        self
    }

    /// This report related to `gpu`: the slab's share of its memory in the
    /// table and the JSON.
    pub fn on_gpu(mut self, gpu: Gpu) -> Self {
        self.gpu = Some(gpu);
        self
    }

    /// The slab's share of the GPU's memory, when a GPU is given.
    pub fn gpu_fraction(&self) -> Option<f64> {
        self.gpu
            .map(|g| self.slab_bytes as f64 / g.memory_bytes.max(1) as f64)
    }

    /// The GPU as JSON: `name`, `sm_count`, `memory_bytes` and
    /// `arena_fraction` (the slab's share); null without one.
    pub fn gpu_json(&self) -> serde_json::Value {
        match (self.gpu, self.gpu_fraction()) {
            (Some(g), Some(f)) => serde_json::json!({
                "name": g.name,
                "sm_count": g.sm_count,
                "memory_bytes": g.memory_bytes,
                "arena_fraction": f,
            }),
            _ => serde_json::Value::Null,
        }
    }

    /// The `n` carved buffers with the most bytes, largest first (ties by
    /// name).
    pub fn largest(&self, n: usize) -> impl Iterator<Item = &Row<'a>> {
        let mut rows: Vec<&Row<'a>> = self.rows.iter().filter(|r| r.offset.is_some()).collect();
        rows.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.name.cmp(b.name)));
        rows.into_iter().take(n)
    }

    /// A phase range as text: `attn`, `attn..=mlp`, or `all`.
    fn live_text(&self, live: Option<(usize, usize)>) -> String {
        match live {
            None => "-".into(),
            Some(_) if self.phases.is_empty() => "all".into(),
            Some((a, b)) if a == b => self.phases[a].to_owned(),
            Some((a, b)) if a == 0 && b + 1 == self.phases.len() => "all".into(),
            Some((a, b)) => format!("{}..={}", self.phases[a], self.phases[b]),
        }
    }
}

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

use std::fmt::Write as _;

use arena_runtime::{Arena, FieldKind, SizeError};

mod chart;
pub mod gpu;

pub use gpu::Gpu;

/// The widest line of [`Report::table`].
pub const TABLE_WIDTH: usize = 120;

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

    /// Aligned columns, then the totals; no line wider than
    /// [`TABLE_WIDTH`] characters whatever the names, dtype paths and
    /// formulas: the longest text cells end in `…` (shapes, conditions and
    /// formulas first, then names, dtypes and phase ranges). Whitespace runs
    /// in a cell (a formula written over several lines) are one space.
    pub fn table(&self) -> String {
        self.table_within(Some(TABLE_WIDTH))
    }

    /// The table with every cell whole (whitespace runs still one space,
    /// so a row is one line).
    pub fn wide_table(&self) -> String {
        self.table_within(None)
    }

    fn table_within(&self, max: Option<usize>) -> String {
        let phased = !self.phases.is_empty();
        let mut header = vec!["buffer", "dtype", "shape", "bytes", "size", "offset"];
        if phased {
            header.push("live");
        }
        header.extend(["condition", "formula"]);
        let right: Vec<bool> = header
            .iter()
            .map(|h| matches!(*h, "bytes" | "size" | "offset"))
            .collect();
        let mut cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut c = vec![
                    r.name.to_owned(),
                    r.dtype.clone(),
                    r.shape.clone(),
                    r.bytes.to_string(),
                    human(r.bytes),
                    r.offset.map_or("-".into(), |o| o.to_string()),
                ];
                if phased {
                    c.push(self.live_text(r.live));
                }
                c.push(if r.condition.is_empty() {
                    "-".into()
                } else {
                    r.condition.clone()
                });
                c.push(r.formula.to_owned());
                c.iter().map(|cell| fold(cell)).collect()
            })
            .collect();
        let n = header.len();
        let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        for row in &cells {
            for (w, c) in width.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        if let Some(max) = max {
            // The shape, condition and formula columns give way, longest
            // first; then every text column (names, dtype paths, phase
            // ranges), so that no line passes `max`. The numbers stay whole.
            let first = [2, n - 2, n - 1];
            let all: Vec<usize> = (0..n).filter(|&i| !right[i]).collect();
            let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * (n - 1);
            for cut in [&first[..], &all[..]] {
                while total(&width) > max {
                    let Some(&widest) = cut
                        .iter()
                        .filter(|&&i| width[i] > header[i].len().max(4))
                        .max_by_key(|&&i| width[i])
                    else {
                        break;
                    };
                    width[widest] -= 1;
                }
            }
            let cut = all;
            for row in &mut cells {
                for &i in &cut {
                    row[i] = ellipsize(&row[i], width[i]);
                }
            }
        }
        let mut out = String::new();
        let line = |cols: &[String], out: &mut String| {
            let mut s = String::new();
            for (i, c) in cols.iter().enumerate() {
                let pad = width[i].saturating_sub(c.chars().count());
                if right[i] {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                }
                if i + 1 < cols.len() {
                    s.push_str("  ");
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(
            &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
            &mut out,
        );
        for row in &cells {
            line(row, &mut out);
        }
        out.push('\n');
        if let Some(w) = self.when {
            let _ = writeln!(out, "every buffer is 0 unless {}", ellipsize(&fold(w), 90));
        }
        let total = |out: &mut String, name: &str, bytes: usize| {
            let _ = writeln!(out, "{name:<18} {bytes:>16}  {}", human(bytes));
        };
        total(&mut out, "total_bytes", self.total_bytes);
        total(&mut out, "slab_bytes", self.slab_bytes);
        if phased {
            total(&mut out, "unplanned_bytes", self.unplanned_bytes);
            total(&mut out, "lower_bound_bytes", self.lower_bound_bytes);
        }
        for line in &self.footer {
            match line {
                Footer::Total { name, bytes } => total(&mut out, name, *bytes),
                Footer::Line { name, text } => {
                    let text = match max {
                        Some(max) => ellipsize(&fold(text), max.saturating_sub(19)),
                        None => fold(text),
                    };
                    let _ = writeln!(out, "{name:<18} {text}");
                }
            }
        }
        if let (Some(g), Some(f)) = (self.gpu, self.gpu_fraction()) {
            let _ = writeln!(
                out,
                "on {}: {} of {} ({})",
                g.display,
                human(self.slab_bytes),
                human(g.memory_bytes),
                percent(f)
            );
        }
        out
    }

    /// The report as JSON: `arena`, `slab_bytes`, `total_bytes`,
    /// `unplanned_bytes`, `lower_bound_bytes`, `phases`, `when`, `gpu` (with
    /// `fraction`, where given) and `buffers`, one object per field with
    /// `name`, `bytes`, `offset`, `dtype`, `shape`, `formula`, `lever`,
    /// `condition`, `in_total`, `live` (`[first, last]` phase names), `align`;
    /// and `nested`, every buffer inside a nested region with its `path`,
    /// absolute `offset` and `bytes`.
    pub fn json(&self) -> serde_json::Value {
        let phase = |k: usize| self.phases.get(k).copied().unwrap_or("all");
        let buffers: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|r| {
                let mut b = r.json();
                b.insert(
                    "live".into(),
                    serde_json::json!(r.live.map(|(a, b)| [phase(a), phase(b)])),
                );
                b.insert("align".into(), r.align.into());
                serde_json::Value::Object(b)
            })
            .collect();
        let mut json = serde_json::json!({
            "arena": self.arena,
            "slab_bytes": self.slab_bytes,
            "total_bytes": self.total_bytes,
            "unplanned_bytes": self.unplanned_bytes,
            "lower_bound_bytes": self.lower_bound_bytes,
            "phases": self.phases,
            "when": self.when,
            "gpu": self.gpu_json(),
            "buffers": buffers,
            "nested": self.nested.iter().map(|b| serde_json::json!({
                "path": b.path,
                "offset": b.offset,
                "bytes": b.bytes,
            })).collect::<Vec<_>>(),
        });
        if let serde_json::Value::Object(map) = &mut json {
            map.extend(self.extra.clone());
        }
        json
    }

    /// A header, then one line per field:
    /// `name,bytes,offset,dtype,shape,lever,in_total,live,formula`.
    pub fn csv(&self) -> String {
        let mut out = String::from("name,bytes,offset,dtype,shape,lever,in_total,live,formula\n");
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                csv_field(r.name),
                r.bytes,
                r.offset.map_or(String::new(), |o| o.to_string()),
                csv_field(&r.dtype),
                csv_field(&r.shape),
                csv_field(r.lever.unwrap_or("")),
                r.in_total,
                csv_field(&self.live_text(r.live)),
                csv_field(r.formula),
            );
        }
        out
    }

    /// The memory map as SVG: phases across (one column without phases),
    /// bytes up from the slab's start, a labelled rectangle for each
    /// non-empty buffer in each phase it is live in, and the lower bound as a
    /// dashed line. An empty slab is a picture that says so.
    pub fn svg(&self) -> String {
        let map = self.map();
        let mut out = String::new();
        let (w, h) = (SVG_WIDTH, SVG_HEIGHT);
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(
            out,
            r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
        );
        let title = format!(
            "{}: {} slab ({} unplanned, {} lower bound)",
            self.arena,
            human(self.slab_bytes),
            human(self.unplanned_bytes),
            human(self.lower_bound_bytes)
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="20" font-size="14">{}</text>"#,
            MARGIN_LEFT,
            xml(&title)
        );
        if self.slab_bytes == 0 {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="14">empty slab: every buffer is 0 bytes</text>"#,
                MARGIN_LEFT,
                h / 2
            );
            out.push_str("</svg>\n");
            return out;
        }
        // Axes, and the columns' names.
        let (x0, y0, y1) = (MARGIN_LEFT, h - MARGIN_BOTTOM, MARGIN_TOP);
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{y0}" x2="{}" y2="{y0}" stroke="#333"/><line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#333"/>"##,
            w - MARGIN_RIGHT
        );
        for (c, name) in map.columns.iter().enumerate() {
            let (cx, cw) = map.column(c);
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
                cx + cw / 2.0,
                y0 + 16,
                xml(name)
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">0</text><text x="{}" y="{}" text-anchor="end">{}</text>"#,
            x0 - 4,
            y0,
            x0 - 4,
            y1 + 4,
            xml(&human(self.slab_bytes))
        );
        for b in &map.boxes {
            let color = b.color;
            for c in b.first..=b.last {
                let (x, cw) = map.column(c);
                let (top, bottom) = (map.y(b.offset + b.bytes), map.y(b.offset));
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{color}" stroke="#222" stroke-width="0.5"><title>{} ({}, offset {})</title></rect>"##,
                    x + 2.0,
                    top,
                    cw - 4.0,
                    (bottom - top).max(0.5),
                    xml(&b.name),
                    xml(&human(b.bytes)),
                    b.offset
                );
                if bottom - top >= 13.0 {
                    let _ = writeln!(
                        out,
                        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                        x + cw / 2.0,
                        (top + bottom) / 2.0 + 4.0,
                        xml(&b.name)
                    );
                }
            }
        }
        let yb = map.y(self.lower_bound_bytes.min(self.slab_bytes));
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{yb:.1}" x2="{}" y2="{yb:.1}" stroke="#c00" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" fill="#c00" text-anchor="end">lower bound</text>"##,
            w - MARGIN_RIGHT,
            w - MARGIN_RIGHT,
            yb - 4.0
        );
        out.push_str("</svg>\n");
        out
    }

    /// What [`Report::svg`] draws, in its coordinates: for tests and other
    /// renderers.
    pub fn map(&self) -> MemoryMap {
        let columns: Vec<String> = if self.phases.is_empty() {
            vec![self.arena.to_owned()]
        } else {
            self.phases.iter().map(|p| p.to_string()).collect()
        };
        let last = columns.len() - 1;
        let boxes = self
            .rows
            .iter()
            .filter(|r| r.bytes > 0)
            .filter_map(|r| {
                let (first, l) = r.live?;
                Some((r, first, l, r.offset?))
            })
            .enumerate()
            .map(|(k, (r, first, l, offset))| MapBox {
                name: r.name.to_owned(),
                offset,
                bytes: r.bytes,
                first: first.min(last),
                last: l.min(last),
                color: PALETTE[k % PALETTE.len()],
            })
            .collect();
        MemoryMap {
            columns,
            slab_bytes: self.slab_bytes,
            boxes,
        }
    }
}

/// Reports of one arena at several values of a parameter: how its bytes
/// grow, as a table, JSON, CSV and a stacked chart.
///
/// ```
/// use arena::{Arena, Levers};
/// use arena::report::Sweep;
///
/// #[derive(Arena)]
/// #[arena(params(m: usize))]
/// struct Scratch {
///     #[arena(shape = [m, 64], dtype = f32)]
///     x: usize,
/// }
///
/// let sweep = Sweep::over("m", [256, 1024, 4096], |m| {
///     Scratch::try_from_config_with(&Levers::new(), m)
/// })
/// .unwrap();
/// assert_eq!(sweep.points.len(), 3);
/// assert!(sweep.csv().starts_with("m,total_bytes,slab_bytes,x\n"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The swept parameter's name.
    pub param: String,
    /// Each value with the arena's report there.
    pub points: Vec<(usize, Report<'static>)>,
}

impl Sweep {
    /// The reports of the arena `size(v)` sizes for each value `v`: the
    /// first sizing or layout error stops the sweep.
    pub fn over<A: Arena>(
        param: &str,
        values: impl IntoIterator<Item = usize>,
        mut size: impl FnMut(usize) -> Result<A, SizeError>,
    ) -> Result<Sweep, SizeError> {
        let points = values
            .into_iter()
            .map(|v| Ok((v, Report::of(&size(v)?)?)))
            .collect::<Result<_, SizeError>>()?;
        Ok(Sweep {
            param: param.to_owned(),
            points,
        })
    }

    /// Every point related to `gpu`.
    pub fn on_gpu(mut self, gpu: Gpu) -> Self {
        for (_, r) in &mut self.points {
            r.gpu = Some(gpu);
        }
        self
    }

    /// The carved buffers with the most bytes at the sweep's last point.
    fn largest(&self, n: usize) -> Vec<&'static str> {
        self.points.last().map_or(Vec::new(), |(_, r)| {
            r.largest(n).map(|row| row.name).collect()
        })
    }

    fn top3(report: &Report<'_>) -> String {
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

    /// One row per value: the total, the slab, the GPU share when a GPU is
    /// known, and the largest buffers.
    pub fn table(&self) -> String {
        let gpu = self.gpu().is_some();
        let share = |r: &Report<'_>| {
            r.gpu_fraction()
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
                r.total_bytes,
                human(r.total_bytes),
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

    /// `param`, `gpu` and `points`: each `value`, `total_bytes`,
    /// `slab_bytes`, `arena_fraction` and `sizes` (every field's bytes).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "param": self.param,
            "gpu": self.points.first().map_or(serde_json::Value::Null, |(_, r)| r.gpu_json()),
            "points": self.points.iter().map(|(v, r)| serde_json::json!({
                "value": v,
                "total_bytes": r.total_bytes,
                "slab_bytes": r.slab_bytes,
                "arena_fraction": r.gpu_fraction(),
                "sizes": r.rows.iter().map(|row| (row.name.to_owned(), serde_json::json!(row.bytes))).collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
        })
    }

    /// A header, then one line per value: the totals and every field's bytes.
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
            let _ = writeln!(
                out,
                "{v},{},{},{}",
                r.total_bytes,
                r.slab_bytes,
                cols.join(",")
            );
        }
        out
    }

    /// Stacked series: (name, bytes at each point), the largest eight at
    /// the last point first, "other" last.
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

    /// Draws the slab's bytes against the swept value, stacked by buffer
    /// (the largest eight and "other"), with the GPU's memory as a line when
    /// the sweep names a GPU, as an SVG file at `path`. For an arena with
    /// declared lifetimes whose plan shares bytes, the stack is the
    /// unplanned footprint, and the planned slab and the lower bound are
    /// drawn over it as lines. An error is one line naming the file.
    pub fn chart(&self, path: &std::path::Path, title: &str) -> Result<(), String> {
        chart::stacked(self, path, title)
    }
}

/// The memory map a report draws: columns (phases) across, bytes up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryMap {
    /// The columns' names: the phases, or the arena's name.
    pub columns: Vec<String>,
    /// Bytes the height stands for.
    pub slab_bytes: usize,
    /// One box per non-empty carved buffer.
    pub boxes: Vec<MapBox>,
}

/// A buffer in the memory map: its bytes and the columns it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapBox {
    /// The field.
    pub name: String,
    /// Its offset.
    pub offset: usize,
    /// Its bytes.
    pub bytes: usize,
    /// The first and last column it is drawn in.
    pub first: usize,
    /// See `first`.
    pub last: usize,
    /// Its fill, `#rrggbb`.
    pub color: &'static str,
}

/// The picture's size and margins, in SVG units (pixels).
pub const SVG_WIDTH: usize = 900;
/// See [`SVG_WIDTH`].
pub const SVG_HEIGHT: usize = 600;
const MARGIN_LEFT: usize = 90;
const MARGIN_RIGHT: usize = 20;
const MARGIN_TOP: usize = 40;
const MARGIN_BOTTOM: usize = 40;

const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

impl MemoryMap {
    /// The left edge and width of column `c`.
    pub fn column(&self, c: usize) -> (f64, f64) {
        let plot = (SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT) as f64;
        let cw = plot / self.columns.len().max(1) as f64;
        (MARGIN_LEFT as f64 + c as f64 * cw, cw)
    }

    /// The picture's `y` of byte `offset` (0 at the bottom axis).
    pub fn y(&self, offset: usize) -> f64 {
        let plot = (SVG_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM) as f64;
        let bottom = (SVG_HEIGHT - MARGIN_BOTTOM) as f64;
        bottom - plot * offset as f64 / self.slab_bytes.max(1) as f64
    }
}

/// For an arena with declared phases: one line per phase with its live
/// buffers and the bytes they hold, against the planned slab.
pub fn phase_table<A: Arena>(arena: &A) -> Result<String, SizeError> {
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

/// Bytes with a binary unit: `12.0 MiB`.
pub(crate) fn human(bytes: usize) -> String {
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

/// A fraction as a percentage a person reads: `2.41%`, `0.013%`.
fn percent(f: f64) -> String {
    let p = f * 100.0;
    if p >= 1.0 || p == 0.0 {
        format!("{p:.2}%")
    } else {
        format!("{p:.3}%")
    }
}

/// `s` cut to `max` characters, the last one `…` where it was longer.
fn ellipsize(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` with every run of whitespace (newlines, `\r`, tabs) one space: one
/// line of a table.
fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` as one CSV field: quoted where it holds a comma, a quote, a newline
/// or a carriage return.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

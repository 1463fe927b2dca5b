//! Reports at several values of a parameter.

use std::fmt::Write as _;

use arena_runtime::{Arena, SizeError};

use super::text::{human, percent};
use super::{Gpu, Report};

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
        super::chart::stacked(self, path, title)
    }
}

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

/// The error that stopped a sweep: the parameter's value it failed at and
/// why. Displays as `param=value: error`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SweepError<E = SizeError> {
    /// The swept parameter's name.
    pub param: String,
    /// The value the sweep failed at.
    pub value: usize,
    /// Why: the sizing's, the layout's or the front-end's error.
    pub source: E,
}

impl<E: std::fmt::Display> std::fmt::Display for SweepError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}: {}", self.param, self.value, self.source)
    }
}

impl<E: std::error::Error + 'static> std::error::Error for SweepError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl Sweep {
    /// The reports of the arena `size(v)` sizes for each value `v`: the
    /// first sizing or layout error stops the sweep, named with its value
    /// (`m=4096: ...`).
    pub fn over<A: Arena>(
        param: &str,
        values: impl IntoIterator<Item = usize>,
        mut size: impl FnMut(usize) -> Result<A, SizeError>,
    ) -> Result<Sweep, SweepError> {
        Sweep::of(param, values, |v| Report::of(&size(v)?))
    }

    /// The sweep of the reports `report(v)` makes for each value `v`: for a
    /// front-end that builds its reports itself (its own footer lines, its
    /// own errors). The first error stops the sweep, named with its value.
    ///
    /// ```
    /// use arena::{Arena, Levers};
    /// use arena::report::{Report, Sweep};
    ///
    /// #[derive(Arena)]
    /// #[arena(params(m: usize))]
    /// struct Scratch {
    ///     #[arena(shape = [m, 64], dtype = f32)]
    ///     x: usize,
    /// }
    ///
    /// // Each report with a footer line of the front-end's; its errors as text.
    /// let report = |m: usize| -> Result<Report<'static>, String> {
    ///     if m > 4096 {
    ///         return Err("above the serve limit".into());
    ///     }
    ///     let arena = Scratch::try_from_config_with(&Levers::new(), m).map_err(|e| e.to_string())?;
    ///     let report = Report::of(&arena).map_err(|e| e.to_string())?;
    ///     Ok(report.with_line("source", "m from the command line"))
    /// };
    /// let sweep = Sweep::of("m", [256, 1024], report).unwrap();
    /// assert!(sweep.points[1].1.table().contains("m from the command line"));
    /// let e = Sweep::of("m", [1024, 8192], report).unwrap_err();
    /// assert_eq!((e.value, e.to_string()), (8192, "m=8192: above the serve limit".into()));
    /// ```
    pub fn of<E>(
        param: &str,
        values: impl IntoIterator<Item = usize>,
        mut report: impl FnMut(usize) -> Result<Report<'static>, E>,
    ) -> Result<Sweep, SweepError<E>> {
        let points = values
            .into_iter()
            .map(|value| match report(value) {
                Ok(r) => Ok((value, r)),
                Err(source) => Err(SweepError {
                    param: param.to_owned(),
                    value,
                    source,
                }),
            })
            .collect::<Result<_, _>>()?;
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

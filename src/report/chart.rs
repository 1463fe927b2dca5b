//! The sweep chart: an arena's bytes against a swept parameter, stacked by
//! buffer ([`super::Sweep::chart`]).

use std::path::Path;

use plotters::prelude::*;

use super::Sweep;

const PALETTE: [RGBColor; 9] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(127, 127, 127),
];

/// Draws the slab's bytes against the swept value, stacked by buffer (the
/// largest eight and "other"), with the GPU's memory as a line when the sweep
/// names a GPU, as an SVG file. For an arena with declared lifetimes whose
/// plan shares bytes, the stack is the unplanned footprint, and the planned
/// slab and the lower bound are drawn over it as lines.
pub(super) fn stacked(sweep: &Sweep, path: &Path, title: &str) -> Result<(), String> {
    let fail = |e: String| format!("cannot draw chart {}: {e}", path.display());
    if sweep.points.len() < 2 {
        return Err(fail("a chart needs at least two swept values".into()));
    }
    let xs: Vec<f64> = sweep.points.iter().map(|(v, _)| *v as f64).collect();
    let series = sweep.series();
    let n = xs.len();
    // Cumulative tops, bottom series first.
    let mut tops: Vec<Vec<f64>> = Vec::new();
    let mut acc = vec![0f64; n];
    for (_, ys) in &series {
        for (a, y) in acc.iter_mut().zip(ys) {
            *a += *y as f64;
        }
        tops.push(acc.clone());
    }
    let memory = sweep.gpu().map(|g| (g.display, g.memory_bytes as f64));
    let max_bytes = acc
        .iter()
        .copied()
        .fold(memory.map_or(0.0, |(_, m)| m), f64::max)
        .max(1.0);
    let (unit, div) = if max_bytes >= (1u64 << 30) as f64 {
        ("GiB", (1u64 << 30) as f64)
    } else {
        ("MiB", (1u64 << 20) as f64)
    };
    let y1 = max_bytes / div * 1.08;
    // Geometric sweeps (256, 1024, 4096, ...) are drawn evenly spaced, each
    // point labelled with its value; others on a linear axis.
    let geometric = xs.windows(2).all(|w| w[1] > w[0]) && xs[0] > 0.0 && xs[n - 1] / xs[0] >= 8.0;
    let pos: Vec<f64> = if geometric {
        (0..n).map(|i| i as f64).collect()
    } else {
        xs.clone()
    };
    let (x0, x1) = (pos[0].min(pos[n - 1]), pos[0].max(pos[n - 1]));
    let root = SVGBackend::new(path, (1000, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, 0f64..y1)
        .map_err(|e| fail(e.to_string()))?;
    let label = |v: &f64| -> String {
        if geometric {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                format!("{}", xs[i as usize] as u64)
            } else {
                String::new()
            }
        } else {
            format!("{}", v.round() as u64)
        }
    };
    chart
        .configure_mesh()
        .x_desc(sweep.param.as_str())
        .y_desc(format!("arena bytes ({unit})"))
        .x_labels(if geometric { n } else { 10 })
        .x_label_formatter(&label)
        .y_label_formatter(&|v| format!("{v:.1}"))
        .light_line_style(WHITE)
        .draw()
        .map_err(|e| fail(e.to_string()))?;
    for (i, ((name, _), top)) in series.iter().zip(&tops).enumerate().rev() {
        let color = PALETTE[i % PALETTE.len()];
        chart
            .draw_series(
                AreaSeries::new(
                    pos.iter().zip(top).map(|(x, y)| (*x, *y / div)),
                    0.0,
                    color.mix(0.85),
                )
                .border_style(color),
            )
            .map_err(|e| fail(e.to_string()))?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
    }
    // Declared lifetimes: the planned slab and the lower bound, when the
    // plan shares bytes at some point of the sweep.
    if sweep
        .points
        .iter()
        .any(|(_, r)| r.slab_bytes < r.unplanned_bytes)
    {
        let line = |bytes: fn(&super::Report<'_>) -> usize| -> Vec<(f64, f64)> {
            pos.iter()
                .zip(&sweep.points)
                .map(|(x, (_, r))| (*x, bytes(r) as f64 / div))
                .collect()
        };
        let lines = [
            ("planned slab", line(|r| r.slab_bytes), BLACK),
            (
                "lower bound",
                line(|r| r.lower_bound_bytes),
                RGBColor(90, 90, 90),
            ),
        ];
        for (label, points, color) in lines {
            let style = color.stroke_width(3);
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(|e| fail(e.to_string()))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], style));
        }
    }
    if let Some((name, bytes)) = memory {
        chart
            .draw_series(LineSeries::new(
                [(x0, bytes / div), (x1, bytes / div)],
                BLACK.stroke_width(2),
            ))
            .map_err(|e| fail(e.to_string()))?
            .label(format!("{name} memory"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 14, y)], BLACK.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| fail(e.to_string()))?;
    root.present().map_err(|e| fail(e.to_string()))?;
    Ok(())
}

//! The memory map: its model ([`MemoryMap`]) and its SVG.

use std::fmt::Write as _;

use super::Report;
use super::text::human;

impl Report<'_> {
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

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

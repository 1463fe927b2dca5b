//! The text helpers of the renderers: sizes and shares a person reads,
//! cells cut to a width, CSV fields. Private to the report.

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
pub(super) fn percent(f: f64) -> String {
    let p = f * 100.0;
    if p >= 1.0 || p == 0.0 {
        format!("{p:.2}%")
    } else {
        format!("{p:.3}%")
    }
}

/// `s` cut to `max` characters, the last one `…` where it was longer.
pub(super) fn ellipsize(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` with every run of whitespace (newlines, `\r`, tabs) one space: one
/// line of a table.
pub(super) fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` as one CSV field: quoted where it holds a comma, a quote, a newline
/// or a carriage return.
pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

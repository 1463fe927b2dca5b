//! The report as JSON.

use super::Report;

impl Report<'_> {
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
}

//! The split-K decode workspace: its policy, the target it is sized for, and
//! its slot count (spec §6.8). Outside the arena: the annotations call it.

use std::fmt;

/// How the decode attention splits its K dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitKPolicy {
    /// One slot per SM, whatever the model and batch.
    Legacy,
    /// Splits chosen from the SM count and head count.
    Auto,
    /// A fixed number of splits, 1..=16.
    Pinned(u32),
}

impl SplitKPolicy {
    /// Parses a policy: trimmed, case-insensitive `legacy`, `auto`,
    /// `0`/`off`/`false`/`no` (one split), or a decimal count clamped to 1..=16.
    ///
    /// ```
    /// use layouts::SplitKPolicy;
    /// assert_eq!(SplitKPolicy::parse(" AUTO "), Some(SplitKPolicy::Auto));
    /// assert_eq!(SplitKPolicy::parse("999"), Some(SplitKPolicy::Pinned(16)));
    /// assert_eq!(SplitKPolicy::parse("aut0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "legacy" => Some(SplitKPolicy::Legacy),
            "auto" => Some(SplitKPolicy::Auto),
            "0" | "off" | "false" | "no" => Some(SplitKPolicy::Pinned(1)),
            _ => t
                .parse::<u32>()
                .ok()
                .map(|n| SplitKPolicy::Pinned(n.clamp(1, 16))),
        }
    }

    /// [`SplitKPolicy::parse`] as a lever parser: a value it rejects is an error.
    pub fn parse_lever(text: &str) -> Result<Self, String> {
        Self::parse(text)
            .ok_or_else(|| "`legacy`, `auto`, `0`/`off`/`false`/`no`, or a split count".to_owned())
    }
}

impl fmt::Display for SplitKPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitKPolicy::Legacy => f.write_str("legacy"),
            SplitKPolicy::Auto => f.write_str("auto"),
            SplitKPolicy::Pinned(n) => write!(f, "{n}"),
        }
    }
}

/// The GPU the arena is sized for: what the hand-written build baked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// Streaming multiprocessors.
    pub sm_count: usize,
    /// The split-K policy the target declares, used when the lever is unset.
    pub declared_splitk: SplitKPolicy,
}

impl Target {
    /// The baseline target: 48 SMs, legacy split-K (spec §11).
    pub const DEFAULT: Target = Target {
        sm_count: 48,
        declared_splitk: SplitKPolicy::Legacy,
    };
}

impl Default for Target {
    fn default() -> Self {
        Target::DEFAULT
    }
}

/// Slots of the split-K workspace, evaluated in saturating 32-bit arithmetic
/// as the kernels do. `lever` is the parsed `METRALE_ATTN_DECODE_SPLITK`.
pub fn splitk_slots(lever: Option<SplitKPolicy>, target: &Target, nq: usize, rows: usize) -> usize {
    let policy = lever.unwrap_or(target.declared_splitk);
    workspace_slots(policy, target.sm_count, nq, rows) as usize
}

/// The slot count of §6.8 for an explicit policy.
pub fn workspace_slots(policy: SplitKPolicy, sm_count: usize, nq: usize, rows: usize) -> u32 {
    let sm = u32::try_from(sm_count).unwrap_or(u32::MAX).max(1);
    // The kernels take head and row counts as u32: truncate like they do.
    let nq = (nq as u32).max(1);
    let rows = (rows as u32).max(1);
    let splits = match policy {
        SplitKPolicy::Legacy => return sm,
        SplitKPolicy::Auto => (2 * u64::from(sm)).div_ceil(u64::from(nq)).clamp(1, 16) as u32,
        SplitKPolicy::Pinned(n) => n.clamp(1, 16),
    };
    rows.saturating_mul(nq).saturating_mul(splits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_c12() {
        assert_eq!(workspace_slots(SplitKPolicy::Legacy, 48, 24, 32), 48);
        assert_eq!(workspace_slots(SplitKPolicy::Auto, 132, 24, 32), 8448);
        assert_eq!(workspace_slots(SplitKPolicy::Auto, 132, 16, 32), 8192);
        assert_eq!(SplitKPolicy::parse("legacy"), Some(SplitKPolicy::Legacy));
        assert_eq!(SplitKPolicy::parse(" AUTO "), Some(SplitKPolicy::Auto));
        assert_eq!(SplitKPolicy::parse("4"), Some(SplitKPolicy::Pinned(4)));
        assert_eq!(SplitKPolicy::parse("0"), Some(SplitKPolicy::Pinned(1)));
        assert_eq!(SplitKPolicy::parse("off"), Some(SplitKPolicy::Pinned(1)));
        assert_eq!(SplitKPolicy::parse("999"), Some(SplitKPolicy::Pinned(16)));
        assert_eq!(SplitKPolicy::parse("aut0"), None);
        assert_eq!(SplitKPolicy::parse(""), None);
    }

    #[test]
    fn pinned_one_still_counts_rows_and_heads() {
        assert_eq!(workspace_slots(SplitKPolicy::Pinned(1), 48, 16, 32), 512);
    }

    #[test]
    fn saturates() {
        assert_eq!(
            workspace_slots(SplitKPolicy::Pinned(16), 48, usize::MAX, usize::MAX),
            u32::MAX
        );
    }
}

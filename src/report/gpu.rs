//! GPU presets ([`super::Report::on_gpu`]): the
//! SM count (which sizes a split-K workspace) and the memory (which an
//! arena's share is measured against) of common data-centre and desktop
//! parts.
//!
//! The figures are the vendors' published specifications:
//! - A100 40 GB and 80 GB (SXM): 108 SMs; NVIDIA A100 Tensor Core GPU
//!   Architecture whitepaper, and the A100 datasheet for the memory.
//! - H100 SXM5: 132 SMs, 80 GB; H100 PCIe: 114 SMs, 80 GB; NVIDIA H100 Tensor
//!   Core GPU Architecture whitepaper and the H100 datasheet.
//! - H200 SXM: 132 SMs (the H100 SXM5 die), 141 GB; the H200 datasheet.
//! - B200 (HGX B200): 148 SMs, 180 GB per GPU (1,440 GB for eight); the
//!   NVIDIA Blackwell Architecture technical brief and the HGX B200 specification.
//! - L40S: 142 SMs, 48 GB; the L40S datasheet.
//! - GeForce RTX 4090: 128 SMs, 24 GB; the Ada Lovelace architecture whitepaper.
//! - GeForce RTX 5090: 170 SMs, 32 GB; the RTX Blackwell GPU architecture
//!   whitepaper.
//!
//! A vendor's "GB" of GPU memory is read as GiB (2^30 bytes), which is how
//! the driver reports these parts (an A100 80 GB shows 81,920 MiB).

/// One GPU of the preset table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gpu {
    /// The preset's name, lowercase ([`find`] takes it).
    pub name: &'static str,
    /// The name a person reads.
    pub display: &'static str,
    /// Streaming multiprocessors.
    pub sm_count: usize,
    /// Device memory in bytes.
    pub memory_bytes: usize,
}

const GIB: usize = 1 << 30;

const fn gpu(name: &'static str, display: &'static str, sm_count: usize, gib: usize) -> Gpu {
    Gpu {
        name,
        display,
        sm_count,
        memory_bytes: gib * GIB,
    }
}

/// Every preset, in the order [`list`] prints them.
pub const GPUS: [Gpu; 9] = [
    gpu("a100-40gb", "A100 40GB", 108, 40),
    gpu("a100-80gb", "A100 80GB", 108, 80),
    gpu("h100-sxm", "H100 SXM", 132, 80),
    gpu("h100-pcie", "H100 PCIe", 114, 80),
    gpu("h200", "H200", 132, 141),
    gpu("b200", "B200", 148, 180),
    gpu("l40s", "L40S", 142, 48),
    gpu("rtx4090", "RTX 4090", 128, 24),
    gpu("rtx5090", "RTX 5090", 170, 32),
];

/// Other names a person types for a preset.
const ALIASES: [(&str, &str); 3] = [
    ("h100", "h100-sxm"),
    ("a100", "a100-80gb"),
    ("4090", "rtx4090"),
];

/// `name` without case, spaces, `-` or `_`, so `H100 SXM`, `h100_sxm` and
/// `h100-sxm` all match.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The preset named `name` (see [`GPUS`]; `h100` is the SXM part, `a100`
/// the 80 GB one; case, spaces, `-` and `_` do not matter), or `None`.
pub fn find(name: &str) -> Option<Gpu> {
    let k = key(name);
    let target = ALIASES
        .iter()
        .find(|(alias, _)| key(alias) == k)
        .map_or(k, |(_, to)| key(to));
    GPUS.iter().find(|g| key(g.name) == target).copied()
}

/// The presets' names, comma-separated: what a message about a name
/// [`find`] does not know can offer instead.
pub fn names() -> String {
    GPUS.map(|g| g.name).join(", ")
}

/// The presets as a text table: name, display name, SMs, memory, and the
/// aliases.
pub fn list() -> String {
    let mut out = format!(
        "{:<10}  {:<10}  {:>8}  {:>8}\n",
        "name", "gpu", "SMs", "memory"
    );
    for g in GPUS {
        out.push_str(&format!(
            "{:<10}  {:<10}  {:>8}  {:>4} GiB\n",
            g.name,
            g.display,
            g.sm_count,
            g.memory_bytes / GIB
        ));
    }
    out.push_str("aliases: h100 = h100-sxm, a100 = a100-80gb, 4090 = rtx4090\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        assert_eq!(find("h100").unwrap().sm_count, 132);
        assert_eq!(find("H100 PCIe").unwrap().sm_count, 114);
        assert_eq!(find("rtx_5090").unwrap().sm_count, 170);
        assert_eq!(find("A100").unwrap().memory_bytes, 80 * GIB);
        assert_eq!(find("h200").unwrap().memory_bytes, 141 * GIB);
        assert_eq!(find("v100"), None);
        let known = names();
        assert!(
            known.contains("h100-sxm") && known.contains("rtx5090"),
            "{known}"
        );
        assert!(!known.contains('\n'));
    }

    #[test]
    fn every_preset_is_found_by_its_own_name() {
        for g in GPUS {
            assert_eq!(find(g.name).unwrap(), g);
            assert_eq!(find(g.display).unwrap(), g);
        }
    }
}

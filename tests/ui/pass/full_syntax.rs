//! Every key and both formula forms, in one arena that must compile and work.

use arena::{Arena, HostSlab, Levers, Region};

#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Pair {
    pub a: u32,
    pub b: f32,
}

pub struct Cfg {
    pub hidden_size: usize,
    pub kind: String,
}

impl Cfg {
    pub fn layers(&self) -> u32 {
        4
    }
}

pub mod consts {
    pub const ROWS: usize = 16;
}

fn parse_splits(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| format!("{s:?} is not a count"))
}

fn splits_or(default: usize, lever: Option<usize>) -> usize {
    lever.unwrap_or(default)
}

#[derive(Arena)]
#[arena(params(rows: usize as R), align = 1)]
pub struct Part {
    #[arena(shape = [R], dtype = u32)]
    pub ids: usize,
}

#[derive(Arena)]
#[arena(params(rows: usize as R), one_of)]
pub struct Either {
    #[arena(nested(R))]
    pub one: Region<Part>,
    #[arena(shape = [R, 2], dtype = u16)]
    pub two: usize,
}

#[derive(Arena)]
#[arena(params(config: &Cfg, max_batch_tokens: usize as M, flag: bool = false))]
#[arena(lever(ON), lever(TRIM, default = true), lever(SPLITS, parse = parse_splits))]
#[arena(let h = config.hidden_size, let trim = config.kind == "small" && TRIM)]
#[arena(align = 64, when = M > 0)]
pub struct Full {
    #[arena(shape = [M, h], dtype = bf16)]
    pub a: usize,
    #[arena(size = "ceil16(M) * div_ceil(h, 128) * 4", dtype = f32, lever = ON)]
    pub b: usize,
    #[arena(shape = [consts::ROWS, splits_or(2, SPLITS)], dtype = Pair, unless = flag)]
    pub c: usize,
    #[arena(size = config.layers() * round_up(h, 256) + clamp(M, 1, 8) % 3, trim = trim)]
    pub d: usize,
    #[arena(nested(M), size = max(1024, inner), zeroed, not_in_total)]
    pub e: Region<Either>,
    #[arena(value = trimmed(trim))]
    pub trimmed_bytes: usize,
    #[arena(value = if !(a >= 10) || b != 0 { min(a, b, 7) } else { 0 })]
    pub small: usize,
}

fn main() {
    let cfg = Cfg { hidden_size: 256, kind: "small".into() };
    let full = Full::try_from_config_with(&Levers::new().with("SPLITS", "3"), &cfg, 4, false).unwrap();
    assert_eq!(full.d, 0);
    assert_eq!(full.trimmed_bytes, 4 * 256 + 1);
    let mut slab = HostSlab::new(full).unwrap();
    let mut views = slab.views();
    assert_eq!(views.c.len(), 16 * 3);
    views.c[0].a = 1;
    views.e.two()[0] = 7;
    assert_eq!(views.e.one().ids[0], 7);
    let _ = Full::from_config(&cfg, 4);
}

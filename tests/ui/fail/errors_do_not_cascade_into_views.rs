// One error in the struct (a misspelt phase, `haed`): code that takes the
// phases' views and a buffer's view adds no error of its own.
use arena::{Arena, HostSlab, Levers};

#[derive(Arena)]
#[arena(params(n: usize), phases(embed, attn, head))]
struct Pass {
    #[arena(shape = [n], dtype = f32, live = attn)]
    qkv: usize,
    #[arena(shape = [n], dtype = u32, live = haed)]
    ids: usize,
}

#[derive(Arena)]
#[arena(params(n: usize))]
struct Flat {
    #[arena(shape = [n], dtype = f32)]
    x: usize,
    #[arena(size = 4 * m)]
    y: usize,
}

fn main() {
    let p = Pass::try_from_config_with(&Levers::new(), 4).unwrap();
    let mut slab = HostSlab::new(p).unwrap();
    let mut phases = slab.views();
    phases.attn().qkv.fill(1.0);
    phases.head().ids.fill(7);
    let f = Flat::try_from_config_with(&Levers::new(), 4).unwrap();
    let mut slab = HostSlab::new(f).unwrap();
    slab.views().x.fill(0.0);
}

use arena::{Arena, HostSlab, Levers};

#[derive(Arena)]
#[arena(params(n: usize), phases(attn, mlp))]
struct S {
    #[arena(shape = [n], dtype = f32, live = attn)]
    qkv: usize,
    #[arena(shape = [n], dtype = f32, live = mlp)]
    up: usize,
}

fn main() {
    let mut slab = HostSlab::new(S::try_from_config_with(&Levers::new(), 8).unwrap()).unwrap();
    let mut phases = slab.views();
    let attn = phases.attn();
    // qkv and up may share bytes: holding both phases' views does not compile.
    let mlp = phases.mlp();
    attn.qkv[0] = 1.0;
    mlp.up[0] = 2.0;
}

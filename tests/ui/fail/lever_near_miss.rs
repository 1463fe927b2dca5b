use arena::Arena;

#[derive(Arena)]
#[arena(params(n: usize), lever(METRALE_FP8_ROWWISE))]
struct S {
    #[arena(size = n, lever = METRALE_FP8_ROWISE)]
    a: usize,
    // Two undeclared levers one letter apart: the second is the suspect.
    #[arena(size = n, lever = "DEMO_SCALES")]
    b: usize,
    #[size = "n"]
    #[lever = "DEMO_SCALSE"]
    c: usize,
}

fn main() {}

//! The design card's forms: its attribute inside `#[arena(...)]`, its two
//! stand-alone attributes, an undeclared on/off lever, a bool let.

use arena::{Arena, Levers};

pub struct Config {
    pub hidden_size: usize,
    pub fp8_generation_mla: bool,
}

#[derive(Arena)]
#[arena(params(config: &Config, max_batch_tokens: usize as M))]
#[arena(let K = config.hidden_size, let fp8 = config.fp8_generation_mla)]
struct Card {
    #[arena(size = "ceil16(M) * K / 128 * 4", lever = "METRALE_FP8_ROWWISE")]
    in_arena: usize,
    #[size = "ceil16(M) * K / 128 * 4"]
    #[lever = "METRALE_FP8_ROWWISE"]
    stand_alone: usize,
    #[arena(size = M * K, when = fp8)]
    gated_by_bool_let: usize,
}

fn main() {
    let c = Config { hidden_size: 256, fp8_generation_mla: true };
    let on = Levers::new().with("METRALE_FP8_ROWWISE", "1");
    let s = Card::try_from_config_with(&on, &c, 17).unwrap();
    assert_eq!(s.in_arena, 32 * 256 / 128 * 4);
    assert_eq!(s.stand_alone, s.in_arena);
    assert_eq!(s.gated_by_bool_let, 17 * 256);
    assert_eq!(Card::LEVERS.len(), 1);
}

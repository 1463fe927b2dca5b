//! The metrale arena of Qwen3-Next-80B-A3B (NVFP4) at the default serve
//! limits but `m` batch tokens: the fixture the GPU and device-path tests
//! share.

use arena::Levers;
use layouts::{BufferSizes, ModelConfig, Target};

pub fn qwen3_next(m: usize) -> BufferSizes {
    BufferSizes::try_from_config_with(
        &Levers::new(),
        &ModelConfig::qwen3_next_80b_nvfp4(),
        m,
        32_768,
        16,
        64,
        &Target::DEFAULT,
    )
    .unwrap()
}

//! The metrale fixtures the tests, the bench and the sizing loop share.

use arena::Levers;
use layouts::{BufferSizes, ModelConfig, Target};

/// The metrale arena of Qwen3-Next-80B-A3B (NVFP4) at the default serve
/// limits but `m` batch tokens (the GPU and device-path tests).
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

/// DeepSeek-V4-Flash's config as published (`layouts/configs/hf`).
pub fn deepseek_v4() -> ModelConfig {
    ModelConfig::from_hf_config_json(
        include_str!("../../layouts/configs/hf/deepseek-ai__DeepSeek-V4-Flash.json"),
        "DeepSeek-V4-Flash",
    )
    .expect("the checked-in config parses")
}

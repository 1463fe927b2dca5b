pub mod handwritten;
pub mod qwen3_next;
#[macro_use]
pub mod strategies;

//! The OpenAI chat-completions stream assembler (`stream/openai_chat.rs`) through `SsePump`: no panic, ranges
//! inside the input, two pieces = one feed (`coherency_fuzz::stream::check`).
#![no_main]

use coherency_core::stream::ChatAssembler;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| coherency_fuzz::stream::check(data, ChatAssembler::new));

//! The OpenAI Responses stream assembler (`stream/responses.rs`) through `SsePump`: no panic, ranges
//! inside the input, two pieces = one feed (`coherency_fuzz::stream::check`).
#![no_main]

use coherency_core::stream::ResponsesAssembler;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| coherency_fuzz::stream::check(data, ResponsesAssembler::new));

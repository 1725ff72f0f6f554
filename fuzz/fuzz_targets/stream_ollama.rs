//! The Ollama NDJSON stream assembler (`stream/ollama.rs`) through `SsePump`: no panic, ranges
//! inside the input, two pieces = one feed (`coherency_fuzz::stream::check`).
#![no_main]

use coherency_core::stream::OllamaAssembler;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| coherency_fuzz::stream::check(data, OllamaAssembler::new));

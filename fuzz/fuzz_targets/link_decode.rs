//! The result-link decoder (`render/result_link.rs`): any fragment is decoded without panic, and what
//! it decodes to is encoded and decoded back to the same input (when the link fits).
#![no_main]

use coherency_core::render::result_link::{decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let fragment = String::from_utf8_lossy(data);
    if let Ok(input) = decode(&fragment) {
        if let Ok(again) = encode(&input) {
            assert_eq!(decode(&again).as_ref(), Ok(&input), "a link made from a decoded one reads back differently");
        }
    }
});

//! Result links' DEFLATE, off the page's wasm: making a link's fragment (the input compressed)
//! and inflating an opened link's input (`coherency_core::render::result_link`; what travels back:
//! `coherency_worker_wire::result_link`). The page reads a link's other fields itself
//! (`result_link::fields`). Pure but for the wasm exports: unit-tested natively.

use wasm_bindgen::prelude::*;

use coherency_core::analyze::Thresholds;
use coherency_core::ingest::Format;
use coherency_core::render::result_link::{self, SharedInput};
use coherency_worker_wire::result_link::{encode_made, Made};

/// The fragment of a link to `bytes` read as `format` (a [`Format`] name; none: detected), the
/// report `selected` shown, judged against `thresholds` ([`Thresholds::compact`]).
pub fn make(bytes: Vec<u8>, format: Option<&str>, selected: Option<usize>, thresholds: &str) -> Result<Made, String> {
    let format = match format {
        Some(name) => Some(Format::from_name(name).ok_or_else(|| format!("unknown format {name:?}"))?),
        None => None,
    };
    let thresholds =
        Thresholds::from_compact(thresholds).map_err(|e| format!("the thresholds did not read back ({e})"))?;
    Ok(result_link::encode(&SharedInput { bytes, format, selected, thresholds }))
}

/// The input a link's fragment carries, or why not in words.
pub fn open(fragment: &str) -> Result<Vec<u8>, String> {
    result_link::decode(fragment).map(|shared| shared.bytes).map_err(|e| e.to_string())
}

/// [`make`], for `www/worker.js`: the answer in [`encode_made`]'s buffer.
#[wasm_bindgen(js_name = linkInWorker)]
pub fn link_in_worker(
    bytes: Vec<u8>,
    format: Option<String>,
    selected: Option<u32>,
    thresholds: Option<String>,
) -> Result<Vec<u8>, JsValue> {
    let made = make(bytes, format.as_deref(), selected.map(|m| m as usize), thresholds.as_deref().unwrap_or_default());
    made.map(|m| encode_made(&m)).map_err(|e| JsValue::from_str(&e))
}

/// [`open`], for `www/worker.js`.
#[wasm_bindgen(js_name = openLinkInWorker)]
pub fn open_link_in_worker(fragment: &str) -> Result<Vec<u8>, JsValue> {
    open(fragment).map_err(|e| JsValue::from_str(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_made_here_is_the_cores_and_opens_to_its_bytes() {
        let bytes = b"Let me check the configuration once more.\n".repeat(50);
        let t = Thresholds::from_compact("maxline.fail:20").unwrap();
        let made = make(bytes.clone(), Some("text"), Some(2), &t.compact()).unwrap().unwrap();
        let core = result_link::encode(&SharedInput {
            bytes: bytes.clone(),
            format: Some(Format::Text),
            selected: Some(2),
            thresholds: t,
        });
        assert_eq!(Ok(made.clone()), core, "byte for byte the core's link");
        assert_eq!(open(&made), Ok(bytes));
        let damaged = &made[..made.len() - 4];
        assert!(open(damaged).unwrap_err().contains("cut off when it was copied"));
        assert!(make(Vec::new(), Some("nonsense"), None, "").is_err());
    }

    #[test]
    fn a_link_too_long_comes_back_as_its_length() {
        let mut rng = 7u64;
        let noise: Vec<u8> = (0..60_000)
            .map(|_| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                b'a' + (rng >> 59) as u8
            })
            .collect();
        let made = make(noise, None, None, "").unwrap();
        assert!(matches!(made, Err(n) if n > result_link::MAX_LINK_CHARS), "{made:?}");
    }
}

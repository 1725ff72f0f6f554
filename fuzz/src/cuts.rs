//! Where to cut an input into pieces, chosen from the input itself, so that every fuzz input of the
//! corpus is used as it is (no prefix of control bytes) and a crash replays from its file alone.

/// FNV-1a of `bytes`: a cheap, stable hash that moves with every byte the fuzzer mutates.
pub fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// One offset in `0..=len`, from the input's last two bytes and its hash (so a short input's
/// every offset is reachable and a mutation near the end moves it).
pub fn one_offset(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let tail = bytes.iter().rev().take(2).fold(0u64, |n, &b| n << 8 | u64::from(b));
    ((tail ^ hash(bytes)) % (len as u64 + 1)) as usize
}

/// Up to seven cut points in `text`, sorted, each on a char boundary: the text in pieces.
pub fn char_cuts(text: &str) -> Vec<usize> {
    let mut state = hash(text.as_bytes()) | 1;
    let mut next = || {
        // xorshift64: enough to scatter the cuts.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let count = (next() % 8) as usize;
    let mut cuts: Vec<usize> = (0..count)
        .map(|_| {
            let mut at = (next() % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .collect();
    cuts.sort_unstable();
    cuts
}

/// `text` cut at `cuts` (sorted offsets on char boundaries): the pieces, empty ones included.
pub fn pieces<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for &at in cuts {
        out.push(&text[from..at]);
        from = at;
    }
    out.push(&text[from..]);
    out
}

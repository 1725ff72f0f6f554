//! Numbers and texts in words: the few helpers every sentence of the core, the page and the CLI
//! is written with, so that a count, a share or a quoted piece of text reads the same
//! everywhere. A leaf: it names no other module of the crate.

/// 12345 → "12,345".
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `n` with thousands separators and the right form of the noun: "1 byte", "2,048 bytes".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", thousands(n))
    }
}

/// A size as a rule states it: whole KiB when it is one, else bytes: 1024 → "1 KiB",
/// 256 → "256 bytes".
pub fn bytes_text(n: usize) -> String {
    if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// A share in 0..=1 as a percentage: "93 %", "0.4 %" under 1 %, "0 %".
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p == 0.0 || p >= 9.95 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// `part` as a share of `whole`: "93 %" (and "0 %" of nothing).
pub fn percent_of(part: usize, whole: usize) -> String {
    percent(if whole == 0 { 0.0 } else { part as f64 / whole as f64 })
}

/// `text` shortened to 40 characters, with line breaks shown as ⏎.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = text.chars().take(MAX).map(|c| if c == '\n' || c == '\r' { '⏎' } else { c }).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// A sentence's start put inside a sentence: "Turns degenerate" → "turns degenerate" (ASCII
/// only: `to_lowercase` would link the Unicode case tables into the page's wasm).
pub fn lowercase_first(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_lowercase();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_texts_in_words() {
        let (forty, more) = ("é".repeat(40), "é".repeat(41));
        let cut = format!("{forty}…");
        let cases = [
            (thousands(0), "0"),
            (thousands(999), "999"),
            (thousands(1000), "1,000"),
            (thousands(15999), "15,999"),
            (thousands(1234567), "1,234,567"),
            (plural(1, "copy", "copies"), "1 copy"),
            (plural(0, "copy", "copies"), "0 copies"),
            (plural(2048, "byte", "bytes"), "2,048 bytes"),
            (bytes_text(1024), "1 KiB"),
            (lowercase_first("Turns degenerate"), "turns degenerate"),
            (lowercase_first("É"), "É"),
            (lowercase_first(""), ""),
            (bytes_text(8192), "8 KiB"),
            (bytes_text(256), "256 bytes"),
            // Shares: whole percents from 10 % on, one decimal below, and "0 %" of nothing.
            (percent(0.0), "0 %"),
            (percent(0.004), "0.4 %"),
            (percent(0.0996), "10 %"),
            (percent(0.93), "93 %"),
            (percent_of(93, 100), "93 %"),
            (percent_of(5, 0), "0 %"),
            // Quotes: at most 40 characters, on one line.
            (quote("a\nb\r"), "a⏎b⏎"),
            (quote(&forty), forty.as_str()),
            (quote(&more), cut.as_str()),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }
}

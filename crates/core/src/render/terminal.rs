//! Text made safe for a terminal: what the CLI prints in text mode comes from files and
//! transcripts, and a transcript can hold escape sequences that set the window's title
//! (`ESC ] 0;…`), write the clipboard (OSC 52), clear the screen (`ESC [2J`), or bidi controls
//! that make a line read otherwise than it is. [`terminal_safe`] shows every such character as
//! a visible escape (`\x1b`, `\u{202e}`) and leaves everything else as it is.

use std::borrow::Cow;

/// What happens to a newline and a tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// They are the text's layout (a whole report): kept.
    Keep,
    /// They are inside one value (a file name, a role, a reason): escaped as `\n` and `\t`, so a
    /// value cannot start a line that looks like the report's own.
    Escape,
}

/// Whether a character changes the terminal or the reading order instead of showing: C0
/// controls (and DEL), C1 controls, and the bidi embeddings, overrides (U+202A–U+202E) and
/// isolates (U+2066–U+2069).
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `text` with every unsafe character (see [`is_unsafe`]) written as a visible escape: `\x1b`
/// below U+0080, `\u{9b}` and `\u{202e}` above; `\r` as `\r`, and with [`Layout::Escape`]
/// newlines and tabs as `\n` and `\t`. Borrowed when nothing needed escaping.
pub fn terminal_safe(text: &str, layout: Layout) -> Cow<'_, str> {
    let needs = |c: char| is_unsafe(c) && !(layout == Layout::Keep && (c == '\n' || c == '\t'));
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !needs(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// One value from the input, safe to print inside a line ([`Layout::Escape`]).
pub fn safe_value(value: &str) -> Cow<'_, str> {
    terminal_safe(value, Layout::Escape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sequence_that_would_act_on_the_terminal_is_shown_instead() {
        for (raw, shown) in [
            ("\x1b]0;pwned\x07title", "\\x1b]0;pwned\\x07title"),
            ("\x1b]52;c;ZWNobyBoaQ==\x07", "\\x1b]52;c;ZWNobyBoaQ==\\x07"),
            ("\x1b[2J\x1b[Hcleared", "\\x1b[2J\\x1b[Hcleared"),
            ("\u{9b}31m C1 CSI", "\\u{9b}31m C1 CSI"),
            ("invoice\u{202e}fdp.exe", "invoice\\u{202e}fdp.exe"),
            ("\u{2066}isolated\u{2069}", "\\u{2066}isolated\\u{2069}"),
            ("back\x08space and del\x7f", "back\\x08space and del\\x7f"),
            ("a\rb", "a\\rb"),
        ] {
            assert_eq!(terminal_safe(raw, Layout::Keep), shown, "{raw:?}");
            assert_eq!(safe_value(raw), shown, "{raw:?}");
            assert!(!terminal_safe(raw, Layout::Keep).chars().any(is_unsafe));
        }
    }

    #[test]
    fn newlines_and_tabs_are_kept_as_layout_and_escaped_in_a_value() {
        assert_eq!(terminal_safe("a\n\tb", Layout::Keep), "a\n\tb");
        assert_eq!(safe_value("name\nFAKE: PASS\t"), "name\\nFAKE: PASS\\t");
    }

    #[test]
    fn ordinary_text_is_borrowed_as_it_is() {
        for text in ["plain", "é 漢字 — “quoted” 🙂", "right-to-left עברית", ""] {
            assert!(matches!(safe_value(text), Cow::Borrowed(t) if t == text));
        }
    }
}

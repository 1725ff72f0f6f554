//! Leaked chat templates: the model writes a template's special tokens or role lines and goes
//! on — the server did not stop at the end of its turn (a stop token missing from its list, a
//! wrong template), and the model writes the next turn itself, often the user's.
//!
//! Found: special tokens of the `<|name|>` shape (ChatML, Llama 3, Phi, Qwen, Harmony,
//! `<|endoftext|>`), DeepSeek's `<｜…｜>`, Gemma's `<start_of_turn>` / `<end_of_turn>`,
//! Mistral's `[INST]` / `[/INST]`, `</s>`; and bare role lines: a line that is only `assistant`,
//! `user`, `model` or `system` (a Llama 3 or Gemma template whose special tokens were skipped
//! when decoding), `assistant` glued to the end of a sentence, or Alpaca's `### Instruction:` /
//! `### Response:`, each followed by a turn of at least three words.
//!
//! Not found (look-alikes): markers in fenced code, inside backticks or quotes, or in the middle
//! of a sentence (an answer *about* templates); a role word inside a sentence; a role word
//! alone on a line in a list.

use std::ops::Range;

/// A leak: where its markers (or role line) are, and the text the model wrote after it up to
/// the next leak or the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    /// The markers, and role words between them, as one range.
    pub marker: Range<usize>,
    /// The text after the leak, up to the next leak or the end of the text.
    pub after: Range<usize>,
    /// Non-blank bytes in `after`.
    pub written_after: usize,
}

/// Every leak in `text`, in order.
pub fn leaks(text: &str) -> Vec<Leak> {
    let code = super::super::code_blocks::fenced_blocks(text);
    // Lines come in order: the first block not yet passed is the only one to look at.
    let mut block = 0;
    let mut in_code = |at: usize| {
        while code.get(block).is_some_and(|b| b.end <= at) {
            block += 1;
        }
        code.get(block).is_some_and(|b| b.contains(&at))
    };
    let mut sites: Vec<Range<usize>> = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if in_code(start) {
            continue;
        }
        if body.contains(['<', '[']) {
            markers_in_line(start, body, &mut sites);
        }
        if let Some(role) = role_line(text, start, body) {
            sites.push(role);
        }
    }
    sites.sort_by_key(|r| (r.start, r.end));
    // Markers close together (only whitespace and role words between) are one leak.
    let mut merged: Vec<Range<usize>> = Vec::new();
    for site in sites {
        match merged.last_mut() {
            Some(last) if site.start <= last.end || only_glue(&text[last.end..site.start]) => {
                last.end = last.end.max(site.end);
            }
            _ => merged.push(site),
        }
    }
    let mut out: Vec<Leak> = Vec::with_capacity(merged.len());
    for (i, m) in merged.iter().enumerate() {
        let end = merged.get(i + 1).map_or(text.len(), |n| n.start);
        let after = m.end..end;
        let written_after = text[after.clone()].bytes().filter(|b| !b.is_ascii_whitespace()).count();
        out.push(Leak { marker: m.clone(), after, written_after });
    }
    out
}

/// Between two markers: nothing but whitespace and a role word (`<|im_start|>user`).
fn only_glue(between: &str) -> bool {
    let t = between.trim();
    t.is_empty() || is_role_word(t)
}

fn is_role_word(w: &str) -> bool {
    matches!(
        w.to_ascii_lowercase().as_str(),
        "assistant" | "user" | "system" | "model" | "human" | "tool" | "ipython" | "developer"
    )
}

/// The special tokens in one line (outside fenced code: the caller checks) that stand where a
/// template puts them: at the start or the end of the line (other markers and role words
/// aside), or glued to the end of a sentence. Markers in backticks or quotes are mentions.
fn markers_in_line(line_start: usize, body: &str, out: &mut Vec<Range<usize>>) {
    let b = body.as_bytes();
    let html_s = body.find("<s>");
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<' || b[i] == b'[' {
            if let Some(len) = marker_len(&body[i..], html_s.is_some_and(|p| p < i)) {
                found.push(i..i + len);
                i += len;
                continue;
            }
        }
        i += 1;
    }
    if found.is_empty() {
        return;
    }
    // gaps[k]: is the text before marker k (from the previous marker or the line's start) only
    // whitespace and a role word? gaps[n]: the text after the last marker.
    let n = found.len();
    let gap = |from: usize, to: usize| only_glue(&body[from..to]);
    let gaps: Vec<bool> = (0..=n)
        .map(|k| {
            let from = if k == 0 { 0 } else { found[k - 1].end };
            let to = if k == n { body.len() } else { found[k].start };
            gap(from, to)
        })
        .collect();
    let mut left_clean = vec![gaps[0]; n];
    for k in 1..n {
        left_clean[k] = left_clean[k - 1] && gaps[k];
    }
    let mut right_clean = vec![gaps[n]; n];
    for k in (0..n.saturating_sub(1)).rev() {
        right_clean[k] = right_clean[k + 1] && gaps[k + 1];
    }
    let mut structural: Vec<bool> = (0..n)
        .map(|k| {
            let glued_to_sentence = body[..found[k].start]
                .chars()
                .next_back()
                .is_some_and(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '…'));
            left_clean[k] || right_clean[k] || glued_to_sentence
        })
        .collect();
    // Markers next to a leaked one belong to it (`<｜end▁of▁sentence｜><｜User｜>…`).
    for k in 1..n {
        structural[k] |= structural[k - 1] && gaps[k];
    }
    for k in (0..n.saturating_sub(1)).rev() {
        structural[k] |= structural[k + 1] && gaps[k + 1];
    }
    for (k, r) in found.iter().enumerate() {
        if structural[k] && !quoted(body, r.clone()) {
            // A role word right after the marker belongs to it (`<|im_start|>assistant`).
            let rest = &body[r.end..];
            let word = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
            let end = if word > 0 && is_role_word(&rest[..word]) { r.end + word } else { r.end };
            out.push(line_start + r.start..line_start + end);
        }
    }
}

/// Whether the marker at `r` of `line` is inside backticks or quotes.
fn quoted(line: &str, r: Range<usize>) -> bool {
    let ticks_before = line[..r.start].bytes().filter(|&b| b == b'`').count();
    if ticks_before % 2 == 1 {
        return true;
    }
    let before = line[..r.start].chars().next_back();
    let after = line[r.end..].chars().next();
    let opens = |c: char| matches!(c, '"' | '\'' | '“' | '‘' | '«' | '「' | '『' | '‹');
    let closes = |c: char| matches!(c, '"' | '\'' | '”' | '’' | '»' | '」' | '』' | '›');
    before.is_some_and(opens) || after.is_some_and(closes)
}

/// The length of the special token at the start of `s`, if one is there. `</s>` is a marker
/// only when no `<s>` opened before it on the line (HTML's strike-through).
fn marker_len(s: &str, html_s_open: bool) -> Option<usize> {
    const LITERALS: [&str; 6] =
        ["<start_of_turn>", "<end_of_turn>", "[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]"];
    if let Some(rest) = s.strip_prefix("<|") {
        // <|name|>: a letter or underscore first, then letters, digits, _ . -; up to 40.
        let name = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')).count();
        let first_ok = rest.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
        if first_ok && (1..=40).contains(&name) && rest[name..].starts_with("|>") {
            return Some(2 + name + 2);
        }
        return None;
    }
    if let Some(rest) = s.strip_prefix("<｜") {
        // DeepSeek: <｜end▁of▁sentence｜>, <｜Assistant｜>, <｜User｜>.
        let end = rest.find("｜>")?;
        let name = &rest[..end];
        if (1..=60).contains(&name.len()) && !name.contains(['<', '>', '\n', ' ']) {
            return Some("<｜".len() + end + "｜>".len());
        }
        return None;
    }
    if s.starts_with("</s>") {
        return (!html_s_open).then_some(4);
    }
    LITERALS.iter().find(|l| s.starts_with(**l)).map(|l| l.len())
}

/// A bare role line starting at byte `start` (its text `body`, without the line break): the
/// range of the role word, when a turn of at least three words follows and the line stands
/// where a turn would start (at the start of the text, after a blank line or a sentence's end).
fn role_line(text: &str, start: usize, body: &str) -> Option<Range<usize>> {
    let trimmed = body.trim();
    if trimmed.is_empty() || trimmed.len() > 24 {
        // A role glued to a sentence's end: "…hope this helps!assistant".
        let glued = body.trim_end();
        let word = glued.strip_suffix("assistant")?;
        let before = word.chars().next_back()?;
        if !matches!(before, '.' | '!' | '?') || word.len() < 8 {
            return None;
        }
        let at = start + word.len();
        return turn_follows(text, start + body.len(), false).then_some(at..start + glued.len());
    }
    let bare = matches!(trimmed, "assistant" | "user" | "model" | "system");
    let alpaca = matches!(trimmed, "### Instruction:" | "### Response:" | "### Human:" | "### Assistant:");
    if !bare && !alpaca {
        return None;
    }
    let before = text[..start].trim_end_matches([' ', '\t', '\r']);
    let at_turn_start = before.is_empty()
        || before.ends_with("\n\n")
        || before.ends_with("\n\r\n")
        || before.trim_end().chars().next_back().is_some_and(|c| {
            matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | ')' | '`' | '"' | '”' | '*' | ':' | '>')
        });
    if !at_turn_start || !turn_follows(text, start + body.len(), bare) {
        return None;
    }
    let lead = body.len() - body.trim_start().len();
    Some(start + lead..start + lead + trimmed.len())
}

/// Whether a turn starts at byte `from` (the end of a role line): its first non-blank line
/// holds at least three words; with `blank_first`, a blank line comes before it (Llama 3's
/// header ends in two line breaks: a definition list's role line has its meaning right below).
fn turn_follows(text: &str, from: usize, blank_first: bool) -> bool {
    let rest = &text[from..];
    let mut end = rest.len().min(600);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    let mut lines = rest[..end].split('\n').skip(1);
    if blank_first && !lines.next().is_some_and(|l| l.trim().is_empty()) {
        return false;
    }
    let first = lines.find(|l| !l.trim().is_empty()).unwrap_or("");
    // Three words, or four characters of a script written without spaces (CJK, Thai).
    let spaceless = first.chars().filter(|&c| c as u32 >= 0x0E00 && c.is_alphanumeric()).count();
    first.split_whitespace().filter(|w| w.chars().any(char::is_alphanumeric)).count() >= 3 || spaceless >= 4
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sites(text: &str) -> Vec<&str> {
        leaks(text).iter().map(|l| &text[l.marker.clone()]).collect()
    }

    #[test]
    fn special_tokens_where_a_template_puts_them_are_leaks() {
        let t = "The capital is Paris.<|im_end|>\n<|im_start|>user\nAnd of Spain?<|im_end|>\n<|im_start|>assistant\nMadrid.";
        assert_eq!(sites(t), ["<|im_end|>\n<|im_start|>user", "<|im_end|>\n<|im_start|>assistant"]);
        let l = &leaks(t)[0];
        assert_eq!(&t[l.after.clone()], "\nAnd of Spain?");
        let llama = "Sure, here it is.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nThanks! Now tell me more.";
        assert_eq!(sites(llama), ["<|eot_id|><|start_header_id|>user<|end_header_id|>"]);
        assert_eq!(sites("Done.</s>\n[INST] next one [/INST] ok"), ["</s>\n[INST]"]);
        assert_eq!(
            sites("Bye!<end_of_turn>\n<start_of_turn>user\nhello there friend"),
            ["<end_of_turn>\n<start_of_turn>user"]
        );
        assert_eq!(sites("答案是四。<｜end▁of▁sentence｜><｜User｜>再问一个"), ["<｜end▁of▁sentence｜><｜User｜>"]);
    }

    #[test]
    fn mentions_are_not_leaks() {
        for t in [
            "ChatML ends each turn with `<|im_end|>` so the server knows where to stop.",
            "Llama 3 uses <|eot_id|> to end a turn, and <|start_header_id|> to open a header.",
            "Set the stop string to \"<|endoftext|>\" in the request.",
            "```\n<|im_start|>user\nHello<|im_end|>\n```\nThat is the whole template.",
            "Use <s>old</s> for a strike-through in HTML.",
            "The array is a[INST] here, no.",
            "The assistant answers the user, and the user reads it.",
            "Roles:\n\nuser\nadmin\nguest\n",
            "Every user has a role:\n\nuser\nadmin\nguest\n\nthe kernel page scheduler memory of a and to is.",
            "The roles:\n\nsystem\nSets the behaviour of the assistant.\n\nuser\nThe person asking the questions.\n\nassistant\nThe model's replies to them.",
        ] {
            assert_eq!(sites(t), Vec::<&str>::new(), "{t}");
        }
    }

    #[test]
    fn bare_role_lines_before_a_turn_are_leaks() {
        let t = "I hope this helps!\n\nassistant\n\nI'm glad I could help. Let me know if you need more.";
        assert_eq!(sites(t), ["assistant"]);
        let glued = "I hope this helps!assistant\n\nI'm glad I could help you today.";
        assert_eq!(sites(glued), ["assistant"]);
        let alpaca =
            "The answer is 4.\n\n### Instruction:\nWrite a poem about the sea.\n\n### Response:\nThe sea is wide.";
        assert_eq!(sites(alpaca), ["### Instruction:", "### Response:"]);
    }
}

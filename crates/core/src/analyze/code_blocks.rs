//! Fenced code blocks (Markdown ``` and ~~~): where a text shows code. A code block shown
//! again — a revision, the whole file once more — is how assistants answer, not a loop, so the
//! copies check does not FAIL it on its length alone (see `loop_checks`).

use std::ops::Range;

/// The byte ranges of the text's fenced code blocks, each from the start of its opening fence
/// line to the end of its closing one (to the end of the text when it is never closed), in order.
pub fn fenced_blocks(text: &str) -> Vec<Range<usize>> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, u8, usize)> = None; // start, fence byte, fence length
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent > 3 {
            continue;
        }
        let rest = &line.as_bytes()[indent..];
        let Some(&fence) = rest.first().filter(|&&b| b == b'`' || b == b'~') else { continue };
        let run = rest.iter().take_while(|&&b| b == fence).count();
        if run < 3 {
            continue;
        }
        match open {
            None => open = Some((start, fence, run)),
            Some((from, f, len)) if f == fence && run >= len && line[indent + run..].trim().is_empty() => {
                blocks.push(from..at);
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some((from, _, _)) = open {
        blocks.push(from..text.len());
    }
    blocks
}

/// The block that holds all of `range`, if any (`blocks` as [`fenced_blocks`] gives them).
pub fn block_holding(blocks: &[Range<usize>], range: &Range<usize>) -> Option<usize> {
    let k = blocks.partition_point(|b| b.end < range.end);
    blocks.get(k).filter(|b| b.start <= range.start && range.end <= b.end).map(|_| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_closed_unclosed_and_nested_fences() {
        let text = "intro\n```rust\nlet a = 1;\n```\ntext\n~~~~\n```\nnot a close\n~~~~\nmore\n```py\nx = 1\n";
        let blocks = fenced_blocks(text);
        assert_eq!(blocks.len(), 3);
        assert_eq!(&text[blocks[0].clone()], "```rust\nlet a = 1;\n```\n");
        assert_eq!(&text[blocks[1].clone()], "~~~~\n```\nnot a close\n~~~~\n");
        assert_eq!(&text[blocks[2].clone()], "```py\nx = 1\n");
    }

    #[test]
    fn a_fence_with_a_language_does_not_close_and_indented_code_is_not_a_fence() {
        let text = "```\na\n```js\nb\n```\n    ```\nc\n";
        assert_eq!(fenced_blocks(text), vec![0..18]);
        assert_eq!(fenced_blocks("``not a fence\n"), vec![]);
    }

    #[test]
    fn a_range_is_held_only_inside_one_block() {
        let text = "```\na\n```\nx\n```\nb\n```\n";
        let blocks = fenced_blocks(text);
        assert_eq!(block_holding(&blocks, &(4..5)), Some(0));
        assert_eq!(block_holding(&blocks, &(14..15)), Some(1));
        assert_eq!(block_holding(&blocks, &(4..15)), None);
        assert_eq!(block_holding(&blocks, &(10..11)), None);
    }
}

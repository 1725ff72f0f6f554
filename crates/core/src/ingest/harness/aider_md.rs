//! aider's chat history (`.aider.chat.history.md`). Each run starts `# aider chat started at …`
//! and is a conversation. A run of lines `#### …` is the user's message (`#### /run cmd` is a
//! command the user ran: its output follows as `> ` lines, the command's result); other `> `
//! lines are aider's own notes (its start-up banner, "Applied edit to …", errors), the model's
//! input. The rest is the model's reply: its text, its `<thinking-content-…>` blocks as
//! reasoning, and its calls — aider has no tool calls: edits are written in the reply, each
//! SEARCH/REPLACE block an `edit` call whose arguments are the file, the search and the replace
//! text; a ```` ```bash ```` block is a `shell` command the model suggests, whose output aider
//! shows after `> Running …` (that note is the call's result).

use super::shared::Turns;
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;

/// One kind of line block.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    User,
    Note,
    Model,
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::Aider);
    let mut conversation: Option<Turns> = None;
    let mut runs = 0;
    // The block being gathered: its side, its lines, where it starts and ends.
    let mut block: Option<(Side, String, usize, usize)> = None;
    let mut offset = 0;
    // Line by line on the bytes (offsets stay the input's), each line decoded on its own.
    for raw in input.split_inclusive(|&b| b == b'\n') {
        let (start, end) = (offset, offset + raw.len());
        offset = end;
        let line = String::from_utf8_lossy(raw);
        let body = line.trim_end_matches(['\n', '\r']);
        if body.starts_with("# aider chat started at") {
            flush(&mut b, &mut conversation, &mut block);
            conversation = Some(Turns::new(runs));
            runs += 1;
            continue;
        }
        let (side, content) = if let Some(rest) = body.strip_prefix("####") {
            (Side::User, rest.strip_prefix(' ').unwrap_or(rest))
        } else if body == ">" || body.starts_with("> ") {
            (Side::Note, body.get(2..).unwrap_or(""))
        } else {
            (Side::Model, body)
        };
        // A blank line belongs to the block it is in.
        let side = match (&block, body.is_empty()) {
            (Some((s, ..)), true) => *s,
            _ => side,
        };
        match &mut block {
            Some((s, gathered, _, e)) if *s == side => {
                gathered.push_str(content);
                gathered.push('\n');
                *e = end;
            }
            _ => {
                flush(&mut b, &mut conversation, &mut block);
                block = Some((side, format!("{content}\n"), start, end));
            }
        }
    }
    flush(&mut b, &mut conversation, &mut block);
    b.finish()
}

fn flush(b: &mut Builder, conversation: &mut Option<Turns>, block: &mut Option<(Side, String, usize, usize)>) {
    let Some((side, text, start, end)) = block.take() else { return };
    let turns = conversation.get_or_insert_with(|| Turns::new(0));
    let at = Origin::new(start..end, None);
    let text = text.trim().to_string();
    let parts = match side {
        Side::User => vec![Part::new("user", Channel::Content, text)],
        Side::Note => match text.split_once("Running ") {
            // The output of a shell command the model suggested: the command's result.
            Some((_, ran)) => {
                let output = ran.split_once('\n').map_or("", |(_, o)| o).trim().to_string();
                vec![Part::new("tool", Channel::Tool, output).call(Some("shell".into()), None)]
            }
            // aider's own note (its banner, an applied edit, an error).
            None => vec![Part::new("tool", Channel::Tool, text).call(Some("aider".into()), None)],
        },
        Side::Model => reply(&text),
    };
    turns.add(b, parts, &at);
}

/// A reply's parts: reasoning blocks, its text, its SEARCH/REPLACE edits as calls.
fn reply(text: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut prose = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("<thinking-content-") {
        let Some(tag_end) = rest[open..].find('>') else { break };
        let tag = &rest[open + 1..open + tag_end];
        let close = format!("</{tag}>");
        // The closing tag after the opening one (a stray one before it is text).
        let body = open + tag_end + 1;
        let Some(close_at) = rest[body..].find(&close).map(|at| body + at) else { break };
        prose.push_str(&rest[..open]);
        parts.push(Part::new("assistant", Channel::Reasoning, rest[body..close_at].trim().to_string()));
        rest = &rest[close_at + close.len()..];
    }
    prose.push_str(rest);
    let mut calls = Vec::new();
    let mut kept = String::new();
    let mut lines = prose.lines().peekable();
    let mut last_line = "";
    while let Some(line) = lines.next() {
        // A shell command the model suggests (aider offers to run it).
        if matches!(line.trim(), "```bash" | "```sh" | "```shell") {
            let command: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            let args = serde_json::json!({"command": command.join("\n")});
            calls.push(Part::new("assistant", Channel::Tool, args.to_string()).call(Some("shell".into()), None));
            continue;
        }
        if line.trim() == "<<<<<<< SEARCH" {
            let (mut search, mut replace, mut in_replace) = (Vec::new(), Vec::new(), false);
            for l in lines.by_ref() {
                match l.trim() {
                    "=======" => in_replace = true,
                    t if t.starts_with(">>>>>>> REPLACE") => break,
                    _ if in_replace => replace.push(l),
                    _ => search.push(l),
                }
            }
            let file = last_line.trim().trim_matches('`');
            let args = serde_json::json!({"file": file, "search": search.join("\n"), "replace": replace.join("\n")});
            calls.push(Part::new("assistant", Channel::Tool, args.to_string()).call(Some("edit".into()), None));
            // The block's furniture belongs to the call, not to the text: the fence around it
            // and the file's name before it (left in the text, they would be a reply of
            // fences, "```" said again).
            let fence = |l: &str| l.trim_start().starts_with("```");
            let file_name = |l: &str| !l.trim().is_empty() && l.trim() == last_line.trim();
            for is_furniture in [&fence as &dyn Fn(&str) -> bool, &file_name] {
                let body = kept.trim_end_matches('\n');
                let (head, last) = body.rsplit_once('\n').unwrap_or(("", body));
                if is_furniture(last) {
                    let keep = head.len();
                    kept.truncate(keep);
                    kept.push('\n');
                }
            }
            if lines.peek().is_some_and(|l| l.trim() == "```") {
                lines.next();
            }
            continue;
        }
        if !line.trim().is_empty() && !line.trim_start().starts_with("```") {
            last_line = line;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    parts.push(Part::new("assistant", Channel::Content, kept.trim().to_string()));
    parts.extend(calls);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_users_notes_replies_and_edits() {
        let input = b"\n# aider chat started at 2026-12-02 09:12:01\n\n> Aider v0.86.1\n> Git repo: .git\n\n#### fix the leap year\n\nI will change the check.\n\nsrc/date.rs\n```\n<<<<<<< SEARCH\nyear % 4 == 0\n=======\nyear % 400 == 0\n>>>>>>> REPLACE\n```\n\n> Applied edit to src/date.rs\n\n#### /run cargo test\n\n> 1 failed\n>\n> error: leap\n";
        let t = parse(input);
        let got: Vec<String> = t
            .messages
            .iter()
            .map(|m| format!("{}.{} {} {} {}", m.conversation, m.turn, m.role, m.channel.as_str(), m.text))
            .collect();
        assert_eq!(
            got,
            [
                "0.0 tool tool Aider v0.86.1\nGit repo: .git",
                "0.1 user content fix the leap year",
                "0.2 assistant content I will change the check.",
                "0.2 assistant tool {\"file\":\"src/date.rs\",\"replace\":\"year % 400 == 0\",\"search\":\"year % 4 == 0\"}",
                "0.3 tool tool Applied edit to src/date.rs",
                "0.4 user content /run cargo test",
                "0.5 tool tool 1 failed\n\nerror: leap",
            ]
        );
        assert_eq!(t.messages[1].line, Some(7));
    }

    /// Found by the fuzzer (`fuzz/`, target `ingest_read`): a closing tag before its opening
    /// one made the block's range run backwards and panicked.
    #[test]
    fn a_closing_tag_before_its_opening_one_is_text() {
        let parts = reply("</thinking-content-7> early <thinking-content-7>why</thinking-content-7> late");
        let got: Vec<(Channel, &str)> = parts.iter().map(|p| (p.channel, p.text.as_str())).collect();
        assert_eq!(got, [(Channel::Reasoning, "why"), (Channel::Content, "</thinking-content-7> early  late")]);
    }
}

//! Judging transcripts: the layer the page, the CLI and live mode ask for judgements. [`crate::ingest`]
//! reads a document into a [`Transcript`](crate::ingest::Transcript) of messages and
//! [`crate::analyze`] judges one text; this layer decides what is judged (every message, every
//! reply's reasoning and content together: [`join_reply`], and every conversation across its
//! turns: its model stream and its tool calls), who wrote it (only the model's output sets the
//! verdict: [`Author`]), judges it, and puts the reports together: the worst judged verdict, the
//! conversations' judgements, the rows of the per-message table worst first, a whole document
//! read and judged ([`JudgedDocument`]). (The conversation view groups the reports by turn
//! itself: the page's `model/turn_view.rs`.)
//!
//! ```
//! use coherency_core::analyze::Verdict;
//! use coherency_core::judge::JudgedDocument;
//! let reasoning = "Wait, let me re-check the total.\n".repeat(35);
//! let chunk = |field: &str, text: &str| format!("data: {}\n\n", serde_json::json!({"choices": [{"delta": {field: text}}]}));
//! let capture = chunk("reasoning_content", &reasoning) + &chunk("content", "The total is 42.") + "data: [DONE]\n\n";
//! let doc = JudgedDocument::read(capture.as_bytes(), None);
//! assert_eq!(doc.report.verdict, Some(Verdict::Fail));
//! let rows = doc.report.rows(&doc.transcript);
//! let channels: Vec<&str> = rows.iter().map(|r| r.channel).collect();
//! assert_eq!(channels, ["reasoning", "combined", "content"], "worst first");
//! ```
//!
//! One concept per file: `authorship.rs` (who wrote a text, what is judged), `reply_text.rs` (how a
//! reply's texts are joined), `judged_text.rs` (what is analysed), `turns.rs` (a conversation's
//! turns), `canonical.rs` (a tool call made canonical), `tool_calls.rs` (calls paired with their
//! results, the results not taken yet in `free_results.rs`), `tool_loop.rs` (the tool-call check), `model_stream.rs` (a conversation's turns as
//! one text), `says_again.rs` (whether a stream is worth analysing), `moves_on.rs` (turns that say again
//! only a formula while the work moves on: left out of the streams), `conversation.rs` (a
//! conversation judged across its turns), `conversation_report.rs` (what that judgement comes
//! to), `transcript.rs`
//! (judging a transcript), `prompt.rs` (a reply's prompt, its drift measured against it), `progress.rs` (how far judging has got), `shares.rs` (the texts
//! analysed on their own, split in two), `report.rs` (the reports and the worst judged
//! verdict), `row.rs` (the row model), `document.rs` (a document read and judged). A new kind of
//! judged text or of verdict belongs here, not in `ingest` (which only reads) nor in `analyze`
//! (which judges one text).
//!
//! Pure code: no I/O, no browser imports.

mod authorship;
mod canonical;
mod conversation;
mod conversation_report;
mod document;
mod free_results;
mod judged_text;
mod kept_report;
mod model_stream;
mod moves_on;
mod progress;
mod prompt;
mod reply_text;
mod report;
mod row;
mod says_again;
mod shares;
#[cfg(test)]
mod test_messages;
mod text_table;
mod tool_calls;
mod tool_loop;
mod transcript;
mod turns;

pub use authorship::{Author, JudgeOptions, INPUT_ROLES};
pub use canonical::{call_in_words, canonical_args, canonical_call};
pub use conversation_report::{ConversationReport, LoopTurn};
pub use document::JudgedDocument;
pub use kept_report::{Analyzed, KeptReport, PassedText, SUMMED_UP_UNDER};
pub use model_stream::{shown, StreamKind, StreamLayout, StreamPiece, TURN_SEPARATOR};
pub use progress::{AnalysisProgress, PREVIEW_BYTES, PREVIEW_OVER};
pub use prompt::prompt_of;
pub use reply_text::{join_reply, joined_len, REPLY_SEPARATOR};
pub use report::{MessageReport, TranscriptReport};
pub use row::MessageRow;
pub use shares::{split_in_two, text_of, AnalyzedBefore, Shares, TextKey};
pub use text_table::{TextHasher, TextTable};
pub use tool_calls::{is_call, is_result};
pub use tool_loop::{loop_sentence, ToolCheck, ToolLoop};
pub use transcript::{judge_transcript, preview_of, Judging};

//! Parquet in: a dataset's rows as the JSONL log the core reads, one line per row, so that
//! each row is judged as its own conversation and "line N" in the reports is row N. A row is
//! either the text of one column as the model's reply
//! (`{"messages":[{"role":"assistant","content":…}]}`, `--text-column`), or a conversation
//! column — a list of `{role, content}` structs, as the datasets hub stores chat data (also
//! ShareGPT's `{from, value}` with `human`/`gpt`) — as that record's `messages`
//! (`--conversation-column`). `--id-column` names the column that identifies a row (for
//! `--per-record`). Only the columns used are read (a projection), row by row from the row
//! groups (any codec the parquet crate reads: snappy, gzip, lz4, zstd); a row whose column
//! is null or holds no text is kept as an empty record and counted.

use std::sync::Arc;

use bytes::Bytes;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::reader::RowIter;
use parquet::record::Field;
use parquet::schema::types::Type;

/// Column names tried, in order, when none is named (`--text-column`).
pub const TEXT_COLUMNS: &[&str] = &["response", "output", "completion", "generation", "answer", "text", "content"];

/// Whether `bytes` is a Parquet file: "PAR1" at both ends.
pub fn is_parquet(bytes: &[u8]) -> bool {
    bytes.len() >= 12 && bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1")
}

/// Which columns to read (the command line's `--text-column`, `--conversation-column`,
/// `--id-column`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub text: Option<String>,
    pub conversation: Option<String>,
    pub id: Option<String>,
}

/// How a row becomes a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// One text: the model's reply.
    Text,
    /// A list of messages.
    Conversation,
}

/// One row as a record of the JSONL log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 1-based row number.
    pub number: usize,
    /// The `--id-column` value as text (`None`: no id column, or null in this row).
    pub id: Option<String>,
    /// The JSONL line (no newline); `None` when the row holds no text to judge.
    pub line: Option<Vec<u8>>,
}

/// The rows of a Parquet file, as records, read as they are asked for.
pub struct Records {
    rows: RowIter<'static>,
    /// The column judged.
    pub column: String,
    kind: Kind,
    id: Option<String>,
    /// Rows read so far.
    pub rows_read: usize,
    /// Rows so far with nothing to judge.
    pub skipped: usize,
    /// Rows in the file.
    pub total: u64,
}

/// Opens the rows of `reader` for `columns`; `Err` says why in words (not Parquet, no such
/// column, the columns it has).
pub fn open(reader: Box<dyn FileReader>, columns: &Columns) -> Result<Records, String> {
    let meta = reader.metadata().file_metadata();
    let total = u64::try_from(meta.num_rows()).unwrap_or(0);
    let root = meta.schema_descr().root_schema().clone();
    let fields = root.get_fields();
    let top: Vec<String> = fields.iter().map(|f| f.name().to_string()).collect();
    let have = |name: &str| top.iter().any(|c| c == name);
    let missing = |name: &str| format!("no column '{name}' (the columns: {})", top.join(", "));
    let (column, kind) = match (&columns.conversation, &columns.text) {
        (Some(_), Some(_)) => return Err("--text-column and --conversation-column: name one".into()),
        (Some(name), None) if have(name) => (name.clone(), Kind::Conversation),
        (None, Some(name)) if have(name) => (name.clone(), Kind::Text),
        (Some(name), None) | (None, Some(name)) => return Err(missing(name)),
        (None, None) => match TEXT_COLUMNS.iter().find(|c| have(c)) {
            Some(c) => (c.to_string(), Kind::Text),
            None => {
                return Err(format!(
                    "no text column named {} (name one with --text-column or --conversation-column; the columns: {})",
                    TEXT_COLUMNS.join(", "),
                    top.join(", ")
                ))
            }
        },
    };
    if let Some(id) = &columns.id {
        if !have(id) {
            return Err(missing(id));
        }
    }
    // Only the columns used are read.
    let used: Vec<Arc<Type>> =
        fields.iter().filter(|f| f.name() == column || columns.id.as_deref() == Some(f.name())).cloned().collect();
    let projection = Type::group_type_builder(root.name())
        .with_fields(used)
        .build()
        .map_err(|e| format!("cannot read the columns: {e}"))?;
    let rows =
        RowIter::from_file_into(reader).project(Some(projection)).map_err(|e| format!("cannot read the rows: {e}"))?;
    Ok(Records { rows, column, kind, id: columns.id.clone(), rows_read: 0, skipped: 0, total })
}

/// [`open`] on a whole file's bytes.
pub fn open_bytes(bytes: Vec<u8>, columns: &Columns) -> Result<Records, String> {
    let reader =
        SerializedFileReader::new(Bytes::from(bytes)).map_err(|e| format!("not a readable Parquet file: {e}"))?;
    open(Box::new(reader), columns)
}

/// [`open`] on a file, read as its row groups are reached.
pub fn open_file(file: std::fs::File, columns: &Columns) -> Result<Records, String> {
    let reader = SerializedFileReader::new(file).map_err(|e| format!("not a readable Parquet file: {e}"))?;
    open(Box::new(reader), columns)
}

impl Iterator for Records {
    type Item = Result<Record, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let row = match self.rows.next()? {
            Ok(row) => row,
            Err(e) => return Some(Err(format!("row {}: {e}", self.rows_read + 1))),
        };
        self.rows_read += 1;
        let field = |name: &str| row.get_column_iter().find(|(n, _)| n.as_str() == name).map(|(_, f)| f);
        let id = self.id.as_deref().and_then(field).and_then(id_text);
        let messages = match (self.kind, field(&self.column)) {
            (Kind::Text, Some(Field::Str(text))) => Some(vec![message("assistant", text)]),
            (Kind::Conversation, Some(Field::ListInternal(list))) => {
                let messages: Vec<_> = list.elements().iter().filter_map(chat_message).collect();
                (!messages.is_empty()).then_some(messages)
            }
            _ => None,
        };
        let line = match messages {
            Some(messages) => Some(serde_json::json!({ "messages": messages }).to_string().into_bytes()),
            None => {
                self.skipped += 1;
                None
            }
        };
        Some(Ok(Record { number: self.rows_read, id, line }))
    }
}

fn message(role: &str, content: &str) -> serde_json::Value {
    serde_json::json!({ "role": role, "content": content })
}

/// One element of a conversation column: a struct with `role` (or ShareGPT's `from`) and
/// `content` (or `value`) as text; anything else is left out.
fn chat_message(element: &Field) -> Option<serde_json::Value> {
    let Field::Group(row) = element else { return None };
    let text = |names: &[&str]| {
        names.iter().find_map(|name| {
            row.get_column_iter().find(|(n, _)| n.as_str() == *name).and_then(|(_, f)| match f {
                Field::Str(s) => Some(s.as_str()),
                _ => None,
            })
        })
    };
    let role = match text(&["role", "from"])? {
        "human" => "user",
        "gpt" => "assistant",
        role => role,
    };
    Some(message(role, text(&["content", "value"])?))
}

/// An id cell as text: strings as they are, numbers as written; `None` for null and nested
/// values.
fn id_text(field: &Field) -> Option<String> {
    match field {
        Field::Str(s) => Some(s.clone()),
        Field::Null | Field::Group(_) | Field::ListInternal(_) | Field::MapInternal(_) => None,
        other => Some(other.to_string()),
    }
}

/// The rows of a Parquet file as JSONL, and how many rows had no text in the column.
pub struct Converted {
    pub jsonl: Vec<u8>,
    pub column: String,
    pub rows: usize,
    pub skipped: usize,
}

/// Every row of the Parquet file `bytes` (see [`open`]) as one JSONL document; a row with
/// nothing to judge is kept as an empty record, so that line N stays row N.
pub fn rows_as_jsonl(bytes: Vec<u8>, columns: &Columns) -> Result<Converted, String> {
    let mut records = open_bytes(bytes, columns)?;
    let mut jsonl = Vec::new();
    for record in records.by_ref() {
        match record?.line {
            Some(line) => jsonl.extend_from_slice(&line),
            None => jsonl.extend_from_slice(br#"{"messages":[]}"#),
        }
        jsonl.push(b'\n');
    }
    Ok(Converted { jsonl, column: records.column, rows: records.rows_read, skipped: records.skipped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::record::Row;

    fn element(fields: &[(&str, Field)]) -> Field {
        Field::Group(Row::new(fields.iter().map(|(n, f)| (n.to_string(), f.clone())).collect()))
    }

    #[test]
    fn a_chat_element_is_a_role_and_a_content_in_either_naming() {
        let s = |t: &str| Field::Str(t.to_string());
        let openai = element(&[("role", s("assistant")), ("content", s("Done."))]);
        assert_eq!(chat_message(&openai), Some(serde_json::json!({ "role": "assistant", "content": "Done." })));
        let sharegpt = element(&[("from", s("gpt")), ("value", s("Done."))]);
        assert_eq!(chat_message(&sharegpt), Some(serde_json::json!({ "role": "assistant", "content": "Done." })));
        let human = element(&[("from", s("human")), ("value", s("Hi?"))]);
        assert_eq!(chat_message(&human).unwrap()["role"], "user");
        // No text content (a null, a list of parts) or no role: left out, never a panic.
        assert_eq!(chat_message(&element(&[("role", s("user")), ("content", Field::Null)])), None);
        assert_eq!(chat_message(&element(&[("content", s("x"))])), None);
        assert_eq!(chat_message(&s("a bare string")), None);
        assert_eq!(id_text(&Field::Long(7)).as_deref(), Some("7"));
        assert_eq!(id_text(&Field::Null), None);
    }
}

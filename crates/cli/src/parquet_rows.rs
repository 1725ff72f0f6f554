//! Parquet in: a dataset's rows as the JSONL log the core reads, one line per row — the text
//! of one column as the model's reply (`{"messages":[{"role":"assistant","content":…}]}`), so
//! that each row is judged as its own conversation and "line N" in the reports is row N. The
//! rows are read one at a time from the file's bytes (any codec the parquet crate reads:
//! snappy, gzip, lz4, zstd); a row whose column is null or not text is skipped and counted.

use bytes::Bytes;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

/// Column names tried, in order, when none is named (`--text-column`).
pub const TEXT_COLUMNS: &[&str] = &["response", "output", "completion", "generation", "answer", "text", "content"];

/// Whether `bytes` is a Parquet file: "PAR1" at both ends.
pub fn is_parquet(bytes: &[u8]) -> bool {
    bytes.len() >= 12 && bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1")
}

/// The rows of a Parquet file as JSONL, and how many rows had no text in the column.
pub struct Converted {
    pub jsonl: Vec<u8>,
    pub column: String,
    pub rows: usize,
    pub skipped: usize,
}

/// The text column `column` (or the first of [`TEXT_COLUMNS`] the file has) of every row of the
/// Parquet file `bytes`, as JSONL; `Err` says why in words (not Parquet, no such column, the
/// columns it has).
pub fn rows_as_jsonl(bytes: Vec<u8>, column: Option<&str>) -> Result<Converted, String> {
    let reader =
        SerializedFileReader::new(Bytes::from(bytes)).map_err(|e| format!("not a readable Parquet file: {e}"))?;
    let schema = reader.metadata().file_metadata().schema_descr();
    let top: Vec<String> = schema.root_schema().get_fields().iter().map(|f| f.name().to_string()).collect();
    let column = match column {
        Some(name) if top.iter().any(|c| c == name) => name.to_string(),
        Some(name) => return Err(format!("no column '{name}' (the columns: {})", top.join(", "))),
        None => TEXT_COLUMNS.iter().find(|c| top.iter().any(|t| t == *c)).map(|c| c.to_string()).ok_or_else(|| {
            format!(
                "no text column named {} (name one with --text-column; the columns: {})",
                TEXT_COLUMNS.join(", "),
                top.join(", ")
            )
        })?,
    };
    let rows = reader.get_row_iter(None).map_err(|e| format!("cannot read the rows: {e}"))?;
    let mut out = Converted { jsonl: Vec::new(), column, rows: 0, skipped: 0 };
    for row in rows {
        let row = row.map_err(|e| format!("row {}: {e}", out.rows + 1))?;
        out.rows += 1;
        let text = row.get_column_iter().find(|(name, _)| **name == out.column).and_then(|(_, field)| match field {
            Field::Str(s) => Some(s.as_str()),
            _ => None,
        });
        let line = match text {
            Some(text) => serde_json::json!({ "messages": [{ "role": "assistant", "content": text }] }),
            None => {
                // Kept as a line (so that line N stays row N), with nothing to judge.
                out.skipped += 1;
                serde_json::json!({ "messages": [] })
            }
        };
        serde_json::to_writer(&mut out.jsonl, &line).map_err(|e| e.to_string())?;
        out.jsonl.push(b'\n');
    }
    Ok(out)
}

//! Parquet datasets in: `coherency analyze data.parquet` judges one conversation per row from
//! its text column (named with `--text-column`, or found among the usual names), says which rows
//! had no text, and refuses a missing column in words. The files are written here with the
//! parquet crate (snappy and zstd, two row groups, a null).

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// Writes `rows` (id, reply or null, prompt) to `path` in two row groups.
fn write_dataset(path: &Path, rows: &[(i64, Option<&str>, &str)], compression: Compression) {
    let schema = Arc::new(
        parse_message_type(
            "message rollouts { required int64 id; optional binary output (UTF8); required binary prompt (UTF8); }",
        )
        .unwrap(),
    );
    let props = Arc::new(WriterProperties::builder().set_compression(compression).build());
    let mut writer = SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema, props).unwrap();
    for group in rows.chunks(rows.len().div_ceil(2)) {
        let mut rg = writer.next_row_group().unwrap();
        let ids: Vec<i64> = group.iter().map(|r| r.0).collect();
        let outputs: Vec<ByteArray> = group.iter().filter_map(|r| r.1).map(ByteArray::from).collect();
        let defined: Vec<i16> = group.iter().map(|r| i16::from(r.1.is_some())).collect();
        let prompts: Vec<ByteArray> = group.iter().map(|r| ByteArray::from(r.2)).collect();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<Int64Type>().write_batch(&ids, None, None).unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>().write_batch(&outputs, Some(&defined), None).unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>().write_batch(&prompts, None, None).unwrap();
        col.close().unwrap();
        rg.close().unwrap();
    }
    writer.close().unwrap();
}

fn analyze(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_coherency")).arg("analyze").args(args).arg(path).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn dataset(name: &str, compression: Compression) -> std::path::PathBuf {
    let looping = "I will check the file again. ".repeat(40);
    let healthy = [
        "The build passed on the second try after the cache was cleared.",
        "Use a read lock here: the map is only written at startup.",
        "Three of the five tests fail because the fixture moved to a new folder.",
        "The answer is 42, as the spec's example shows in section two.",
    ];
    let replies: Vec<String> = (0..40).map(|i| format!("{} (run {i})", healthy[i % healthy.len()])).collect();
    let mut rows: Vec<(i64, Option<&str>, &str)> = Vec::new();
    for (i, reply) in replies.iter().enumerate() {
        let reply = match i {
            17 => Some(looping.as_str()),
            23 => None,
            _ => Some(reply.as_str()),
        };
        rows.push((i as i64, reply, "Fix the build, please."));
    }
    let path = std::env::temp_dir().join(format!("coherency-{name}-{}.parquet", std::process::id()));
    write_dataset(&path, &rows, compression);
    path
}

#[test]
fn each_row_is_judged_and_the_looping_one_is_found() {
    for (name, compression) in [("snappy", Compression::SNAPPY), ("zstd", Compression::ZSTD(Default::default()))] {
        let path = dataset(name, compression);
        let (code, out, err) = analyze(&[], &path);
        assert_eq!(code, Some(2), "{name}: the looping row FAILs\n{out}\n{err}");
        assert!(out.contains("FAIL"), "{out}");
        // Line N is row N (1-based): the loop is row 18.
        assert!(out.contains("line 18"), "{name}: {out}");
        assert!(err.contains("1 of 40 rows have no text in column 'output'"), "{name}: {err}");
        let (_, json, _) = analyze(&["--json"], &path);
        let line: serde_json::Value = serde_json::from_slice(json.as_bytes()).unwrap();
        assert_eq!(line["judged_verdict"], "FAIL");
        assert_eq!(line["counts"]["messages"], 39, "every row with text, once");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_named_column_is_read_and_a_missing_one_is_refused_in_words() {
    let path = dataset("columns", Compression::SNAPPY);
    let (code, out, _) = analyze(&["--text-column", "prompt"], &path);
    assert_eq!(code, Some(0), "the prompts PASS: {out}");
    let (code, _, err) = analyze(&["--text-column", "reply"], &path);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("no column 'reply' (the columns: id, output, prompt)"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

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

/// One chat a row: `(id, [(role, content)])`, `None` for a null conversation.
type Chat<'a> = (i64, Option<Vec<(&'a str, &'a str)>>);

/// Writes `chats` as the datasets hub (pyarrow) lays out a list of structs: `messages` is
/// `list<element: struct<role: string, content: string>>`, beside an `id` column.
fn write_chats(path: &Path, chats: &[Chat]) {
    let schema = Arc::new(
        parse_message_type(
            "message chats { required int64 id; optional group messages (LIST) { repeated group list {
               optional group element { optional binary role (UTF8); optional binary content (UTF8); } } } }",
        )
        .unwrap(),
    );
    let props = Arc::new(WriterProperties::builder().set_compression(Compression::SNAPPY).build());
    let mut writer = SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let ids: Vec<i64> = chats.iter().map(|c| c.0).collect();
    let mut col = rg.next_column().unwrap().unwrap();
    col.typed::<Int64Type>().write_batch(&ids, None, None).unwrap();
    col.close().unwrap();
    for field in 0..2 {
        let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
        for (_, messages) in chats {
            match messages {
                None => {
                    defs.push(0);
                    reps.push(0);
                }
                Some(list) => {
                    for (k, (role, content)) in list.iter().enumerate() {
                        values.push(ByteArray::from(if field == 0 { *role } else { *content }));
                        defs.push(4);
                        reps.push(i16::from(k > 0));
                    }
                }
            }
        }
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>().write_batch(&values, Some(&defs), Some(&reps)).unwrap();
        col.close().unwrap();
    }
    rg.close().unwrap();
    writer.close().unwrap();
}

fn chats() -> (Vec<Chat<'static>>, String) {
    let looping: &'static str = Box::leak("I will check the file again. ".repeat(40).into_boxed_str());
    let turns = |k: usize| -> Vec<(&'static str, &'static str)> {
        match k {
            3 => vec![("system", "You are terse."), ("user", "Check the file."), ("assistant", looping)],
            5 => vec![
                ("user", "Why did the build fail?"),
                ("assistant", "The cache was stale; clearing it fixed the build."),
                ("user", "And the tests?"),
                ("assistant", "Three failed because the fixture moved to a new folder."),
            ],
            // Distinct chats (a log's identical records would be one conversation said again).
            k => vec![
                ("user", ["What is the answer?", "Which lock?", "Status?"][k % 3]),
                (
                    "assistant",
                    Box::leak(
                        format!(
                            "{} (row {k})",
                            [
                                "The answer is 42, as the spec's example in section two shows.",
                                "Use a read lock: the map is only written at startup.",
                                "The deploy finished and every health check is green again.",
                            ][k % 3]
                        )
                        .into_boxed_str(),
                    ),
                ),
            ],
        }
    };
    let mut rows: Vec<Chat> = (0..8).map(|k| (1000 + k as i64, Some(turns(k)))).collect();
    rows[6].1 = None;
    // The same chats as a JSONL log, one `{"messages": […]}` record a line.
    let jsonl: String = rows
        .iter()
        .map(|(_, m)| {
            let messages: Vec<_> = m
                .iter()
                .flatten()
                .map(|(role, content)| serde_json::json!({ "role": role, "content": content }))
                .collect();
            serde_json::json!({ "messages": messages }).to_string() + "\n"
        })
        .collect();
    (rows, jsonl)
}

#[test]
fn a_conversation_column_is_judged_as_the_same_chat_in_a_jsonl_log() {
    let (rows, jsonl) = chats();
    let path = std::env::temp_dir().join(format!("coherency-chats-{}.parquet", std::process::id()));
    write_chats(&path, &rows);
    let log = path.with_extension("jsonl");
    std::fs::write(&log, jsonl).unwrap();
    let (code, out, err) = analyze(&["--conversation-column", "messages"], &path);
    assert_eq!(code, Some(2), "the looping chat FAILs\n{out}\n{err}");
    assert!(out.contains("line 4"), "row 4 loops: {out}");
    assert!(err.contains("1 of 8 rows have no text in column 'messages'"), "{err}");
    let (_, from_parquet, _) = analyze(&["--json", "--all-messages", "--conversation-column", "messages"], &path);
    let (_, from_log, _) = analyze(&["--json", "--all-messages"], &log);
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_slice(from_parquet.as_bytes()).unwrap(),
        serde_json::from_slice(from_log.as_bytes()).unwrap(),
    );
    let view = |v: &serde_json::Value| {
        let messages: Vec<_> = v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (m["line"].clone(), m["role"].clone(), m["verdict"].clone(), m["judged"].clone(), m["onset"].clone())
            })
            .collect();
        (v["judged_verdict"].clone(), v["counts"].clone(), messages)
    };
    assert_eq!(view(&a), view(&b), "a row's chat is judged as the same chat on a log line");
    assert_eq!(a["counts"]["messages_judged"], 8, "the model's 8 replies (row 6's two, row 7 null)");

    // Per record, with the id column: the rows' ids and verdicts.
    let out_path = path.with_extension("rows.jsonl");
    let (code, _, _) = analyze(
        &["--per-record", out_path.to_str().unwrap(), "--conversation-column", "messages", "--id-column", "id"],
        &path,
    );
    assert_eq!(code, Some(2));
    let rows_out: Vec<serde_json::Value> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_slice(l.as_bytes()).unwrap())
        .collect();
    let got: Vec<(String, Option<&str>)> =
        rows_out.iter().map(|r| (r["id"].as_str().unwrap().to_string(), r["verdict"].as_str())).collect();
    let want: Vec<(String, Option<&str>)> = (0..8)
        .map(|k| {
            let v = match k {
                3 => Some("FAIL"),
                6 => None,
                _ => Some("PASS"),
            };
            ((1000 + k).to_string(), v)
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(rows_out[6]["error"], "no text in column 'messages'");

    // Refusals in words: a missing id column, both column kinds.
    let (code, _, err) = analyze(&["--conversation-column", "messages", "--id-column", "uid"], &path);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("no column 'uid' (the columns: id, messages)"), "{err}");
    let (code, _, _) = analyze(&["--conversation-column", "messages", "--text-column", "x"], &path);
    assert_eq!(code, Some(64), "one kind of column");
    for p in [&path, &log, &out_path] {
        std::fs::remove_file(p).unwrap();
    }
}

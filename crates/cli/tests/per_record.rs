//! `coherency analyze --per-record OUT`: one row per input record, as JSONL or Parquet. The
//! rows are read back (the Parquet with the parquet crate's record reader) and held to what
//! `--json --all-messages` says of the same log line by line: verdict, onset, size, the check
//! that set the verdict, the seed's figures — and, for a record on its own, every metric's value
//! against `--json`'s checks. The log has healthy replies, a loop, a bad line, a blank line,
//! a record with only a prompt, string and number ids and none; a 10,000-record log crosses
//! the batches the rows are judged in, and they come back in order.

use std::path::{Path, PathBuf};
use std::process::Command;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use serde_json::{json, Value};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("coherency-per-record-{}-{name}", std::process::id()))
}

fn coherency(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_coherency")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn record(id: Option<Value>, prompt: &str, reply: &str) -> String {
    let mut r = json!({
        "request": { "messages": [{ "role": "user", "content": prompt }] },
        "response": { "choices": [{ "message": { "role": "assistant", "content": reply } }] },
    });
    if let Some(id) = id {
        r["id"] = id;
    }
    r.to_string()
}

/// The log: line 3 loops, line 5 is not JSON, line 6 is blank, line 8 has no reply.
fn log() -> String {
    let looping = "I will check the file again. ".repeat(40);
    let lines = [
        record(Some(json!("req-a")), "Why did the build fail?", "The cache was stale; clearing it fixed the build."),
        record(
            Some(json!(17)),
            "Which lock?",
            "Use a read lock: the map is only written at startup, so readers never wait.",
        ),
        record(Some(json!("req-c")), "Check the file.", &looping),
        record(None, "What is the answer?", "The answer is 42, as the spec's example in section two shows."),
        "{not json".to_string(),
        String::new(),
        record(
            Some(json!("req-g")),
            "Summarise the log.",
            "Three tests failed because the fixture moved to a new folder.",
        ),
        json!({ "id": "req-h", "request": { "messages": [{ "role": "user", "content": "Hello?" }] } }).to_string(),
    ];
    lines.join("\n") + "\n"
}

fn parquet_rows(path: &Path) -> Vec<Value> {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    assert!(reader.metadata().num_row_groups() >= 1);
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            Value::Object(row.get_column_iter().map(|(name, field)| (name.clone(), value(field))).collect())
        })
        .collect()
}

fn value(field: &Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Str(s) => json!(s),
        Field::Long(n) => json!(n),
        Field::Double(x) => json!(x),
        Field::ListInternal(list) => Value::Array(list.elements().iter().map(value).collect()),
        other => panic!("unexpected field {other:?}"),
    }
}

fn jsonl_rows(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_slice(l.as_bytes()).unwrap()).collect()
}

#[test]
fn each_record_gets_a_row_that_agrees_with_the_json_report() {
    let input = temp("log.jsonl");
    std::fs::write(&input, log()).unwrap();
    let input_s = input.to_str().unwrap();
    let (out_jsonl, out_parquet) = (temp("rows.jsonl"), temp("rows.parquet"));
    let (code, stdout, stderr) = coherency(&["analyze", "--per-record", out_jsonl.to_str().unwrap(), input_s]);
    assert_eq!(code, Some(2), "the looping record FAILs: {stdout}\n{stderr}");
    assert!(stdout.contains("FAIL — 7 records: 1 FAIL, 0 WARN, 4 PASS, 2 not judged"), "{stdout}");
    let (code, _, _) = coherency(&["analyze", "--per-record", out_parquet.to_str().unwrap(), input_s]);
    assert_eq!(code, Some(2));
    let rows = jsonl_rows(&out_jsonl);
    assert_eq!(parquet_rows(&out_parquet), rows, "the Parquet rows are the JSONL rows");

    let records: Vec<u64> = rows.iter().map(|r| r["record"].as_u64().unwrap()).collect();
    assert_eq!(records, [1, 2, 3, 4, 5, 7, 8], "one row per record, blank line left out, line numbers kept");
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["req-a", "17", "req-c", "4", "5", "req-g", "req-h"], "own ids, else the line number");
    for (r, wanted) in rows.iter().zip(["PASS", "PASS", "FAIL", "PASS", "", "PASS", ""]) {
        assert_eq!(r["verdict"].as_str().unwrap_or(""), wanted, "{r}");
        assert_eq!(r["error"].is_null(), !wanted.is_empty(), "an error exactly when not judged: {r}");
        assert_eq!(r["maxrun"].is_null(), wanted.is_empty(), "{r}");
    }

    // Against --json: each line's judged message has the row's verdict, onset, size, tripped
    // check and seed figures.
    let (_, json_out, _) = coherency(&["analyze", "--json", "--all-messages", input_s]);
    let report: Value = serde_json::from_slice(json_out.as_bytes()).unwrap();
    for row in rows.iter().filter(|r| !r["verdict"].is_null()) {
        let line = row["record"].as_u64().unwrap();
        let judged: Vec<&Value> = report["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["line"].as_u64() == Some(line) && m["judged"] == true)
            .collect();
        assert_eq!(judged.len(), 1, "one reply on line {line}");
        let m = judged[0];
        assert_eq!(row["verdict"], m["verdict"], "line {line}");
        assert_eq!(row["onset"], m["onset"], "line {line}");
        assert_eq!(row["bytes"], m["bytes"], "line {line}");
        for key in ["maxrun", "maxline", "gzip_ratio"] {
            assert_eq!(row[key].as_f64(), m["metrics"][key].as_f64(), "{key} on line {line}");
        }
        if let Some(tripped) = m["tripped"].as_str() {
            assert!(row["tripped"].as_array().unwrap().contains(&json!(tripped)), "line {line}: {row}");
            assert_eq!(row["reason"], m["reasons"][0], "line {line}");
        } else {
            assert_eq!(row["tripped"], json!([]), "line {line}");
        }
    }
    let conversations_failing =
        report["conversations"].as_array().unwrap().iter().filter(|c| c["verdict"] == "FAIL").count();
    assert_eq!(conversations_failing, rows.iter().filter(|r| r["verdict"] == "FAIL").count());

    // The looping record alone: every metric column is --json's check value.
    let alone = temp("alone.jsonl");
    std::fs::write(&alone, log().lines().nth(2).unwrap()).unwrap();
    let (_, json_out, _) = coherency(&["analyze", "--json", alone.to_str().unwrap()]);
    let report: Value = serde_json::from_slice(json_out.as_bytes()).unwrap();
    let looping = &rows[2];
    let checks = report["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 10);
    for check in checks {
        let key = check["metric"].as_str().unwrap();
        assert_eq!(looping[key].as_f64(), check["value"].as_f64(), "{key}");
        let tripped = check["level"] != "PASS";
        assert_eq!(looping["tripped"].as_array().unwrap().contains(&json!(key)), tripped, "{key}");
    }
    assert_eq!(looping["tool_loop"], json!(0.0));
    // Standard input streams the same rows (its name is "-").
    let from_stdin = temp("stdin-rows.jsonl");
    let status = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .args(["analyze", "--per-record", from_stdin.to_str().unwrap(), "-"])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    let mut piped = jsonl_rows(&from_stdin);
    for r in &mut piped {
        assert_eq!(r["file"], "-");
        r["file"] = json!(input_s);
    }
    assert_eq!(piped, rows, "standard input gives the file's rows");
    for p in [&input, &out_jsonl, &out_parquet, &alone, &from_stdin] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn a_long_log_streams_in_order_and_other_inputs_are_one_record() {
    let input = temp("long.jsonl");
    let mut text = String::new();
    for i in 0..10_000 {
        let reply = if i == 7_777 {
            "I will check the file again. ".repeat(40)
        } else {
            format!("Run {i} finished: the build passed after the cache was cleared.")
        };
        text += &record(Some(json!(format!("r{i}"))), "Status?", &reply);
        text.push('\n');
    }
    std::fs::write(&input, text).unwrap();
    let out = temp("long-rows.parquet");
    let plain = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data/line_x400.txt");
    let (code, stdout, stderr) = coherency(&[
        "analyze",
        "--per-record",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
        plain.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.contains("10,000 records: 1 FAIL, 0 WARN, 9,999 PASS"), "{stdout}");
    assert!(stdout.contains("line_x400.txt: FAIL — 1 record: 1 FAIL"), "{stdout}");
    let rows = parquet_rows(&out);
    assert_eq!(rows.len(), 10_001);
    for (i, r) in rows[..10_000].iter().enumerate() {
        assert_eq!(r["record"], json!(i + 1));
        assert_eq!(r["id"], json!(format!("r{i}")));
        assert_eq!(r["verdict"], if i == 7_777 { "FAIL" } else { "PASS" }, "{r}");
    }
    assert_eq!((rows[10_000]["record"].as_u64(), rows[10_000]["verdict"].as_str()), (Some(1), Some("FAIL")));
    assert!(rows[10_000]["file"].as_str().unwrap().ends_with("line_x400.txt"));
    std::fs::remove_file(&input).unwrap();
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn a_directory_is_read_file_by_file_and_a_binary_file_in_it_is_passed_over() {
    let dir = temp("dir");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.jsonl"), log()).unwrap();
    std::fs::write(dir.join("b.bin"), b"\x1f\x8b\x08\x00binary").unwrap();
    std::fs::write(dir.join("c.txt"), "The build passed after the cache was cleared, as the log says.").unwrap();
    let out = temp("dir-rows.jsonl");
    let (code, stdout, stderr) = coherency(&["analyze", "--per-record", out.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(code, Some(2), "a.jsonl's loop FAILs; the binary file is not an error: {stderr}");
    assert!(stderr.contains("skipped") && stderr.contains("b.bin") && stderr.contains("gzip"), "{stderr}");
    let rows = jsonl_rows(&out);
    let files: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap().rsplit('/').next().unwrap()).collect();
    assert_eq!(files, ["a.jsonl"; 7].iter().copied().chain(["c.txt"]).collect::<Vec<_>>());
    assert_eq!(rows[7]["verdict"], "PASS");
    assert_eq!(stdout.lines().count(), 2, "a line per input judged: {stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn an_output_that_is_neither_jsonl_nor_parquet_is_a_usage_error() {
    let (code, _, stderr) = coherency(&["analyze", "--per-record", "rows.csv", "-"]);
    assert_eq!(code, Some(64));
    assert!(stderr.contains("--per-record writes .jsonl or .parquet: rows.csv ends in neither"), "{stderr}");
    let (code, _, _) = coherency(&["analyze", "--per-record", "rows.jsonl", "--json", "-"]);
    assert_eq!(code, Some(64), "--per-record replaces the report");
}

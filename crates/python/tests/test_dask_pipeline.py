"""examples/dask_pipeline.py on a Dask LocalCluster of two worker processes (small data): every
record of a Parquet dataset (two files) and of a JSONL one gets its row, the rows agree with
`coherency` called directly on the same texts (itself held to the CLI in test_coherency.py), the
summary counts them, and both workers take part. Run by scripts/test-python (Dask from
crates/python/requirements-test.txt)."""

import importlib.util
import json
import pathlib

import pytest

import coherency

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

ROOT = pathlib.Path(__file__).resolve().parents[3]
LOOP = "I will check the file again. " * 40
WARNING = "The release notes.\n" + "See the changelog for details.\n" * 6


def load_pipeline():
    spec = importlib.util.spec_from_file_location("dask_pipeline", ROOT / "examples" / "dask_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def records(n):
    """`n` records: healthy replies, a loop every 37th, a repeated line every 53rd (the verdicts
    come from `coherency`, not from here), a null every 41st."""
    rows = []
    for i in range(n):
        if i % 41 == 5:
            text = None
        elif i % 37 == 2:
            text = LOOP
        elif i % 53 == 9:
            text = WARNING
        else:
            text = f"Run {i} finished: the build passed after the stale cache was cleared."
        rows.append({"id": f"rec-{i}", "response": text, "prompt": f"Status of run {i}?"})
    return rows


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def check(rows, summary, out):
    texts = [r["response"] for r in rows]
    want = coherency.verdicts(pa.array(texts, type=pa.string()))
    got = pq.read_table(out / "records").to_pandas()
    assert len(got) == len(rows) == summary["records"]
    by_id = {r.id: r for r in got.itertuples()}
    assert set(by_id) == {r["id"] for r in rows}
    for row, verdict in zip(rows, want):
        mine = by_id[row["id"]]
        if verdict is None:
            assert pd.isna(mine.verdict) and pd.isna(mine.bytes), row["id"]
            continue
        assert mine.verdict == verdict, row["id"]
        assert mine.bytes == len(row["response"].encode())
        if verdict == "PASS":
            continue
        report = coherency.analyze(row["response"])
        assert mine.onset == report["onset"]
        assert mine.reason == report["reasons"][0]
        assert mine.tripped.split(",") == [c["metric"] for c in report["checks"] if c["level"] != "PASS"]
    counts = {v: want.count(v) for v in ["PASS", "WARN", "FAIL"]}
    counts["not judged"] = want.count(None)
    assert summary["verdicts"] == counts
    assert counts["FAIL"] > 0 and counts["not judged"] > 0
    assert json.loads((out / "summary.json").read_text()) == summary


def test_a_parquet_dataset_is_scored_on_a_local_cluster(client, tmp_path):
    from distributed import get_task_stream

    pipeline = load_pipeline()
    rows = records(1200)
    data = tmp_path / "data"
    data.mkdir()
    for k, part in enumerate([rows[:700], rows[700:]]):
        pq.write_table(pa.Table.from_pylist(part), data / f"part-{k}.parquet", row_group_size=200)
    out = tmp_path / "out"
    with get_task_stream(client) as stream:
        summary = pipeline.run(str(data), str(out), "response", "id", client, partitions=6)
    check(rows, summary, out)
    assert summary["workers"] == 2 and summary["partitions"] == 6
    assert len({t["worker"] for t in stream.data}) == 2, "both workers scored partitions"


def test_a_jsonl_dataset_is_scored_and_unnamed_records_get_partition_row_ids(client, tmp_path):
    pipeline = load_pipeline()
    rows = records(300)
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out"
    summary = pipeline.run(str(path), str(out), "response", "id", client, partitions=3)
    check(rows, summary, out)
    # Without an id column: "PARTITION:ROW", unique.
    out2 = tmp_path / "out2"
    pipeline.run(str(path), str(out2), "response", None, client, partitions=3)
    ids = pq.read_table(out2 / "records").column("id").to_pylist()
    assert len(set(ids)) == len(rows) and ids[0] == "0:0"


def test_the_command_line_exits_on_its_fail_level(tmp_path):
    pipeline = load_pipeline()
    path = tmp_path / "data.parquet"
    pq.write_table(pa.Table.from_pylist(records(80)), path)
    out = tmp_path / "out"
    assert pipeline.main([str(path), "--id-column", "id", "--workers", "1", "--out", str(out), "--fail-on", "fail"]) == 2
    assert json.loads((out / "summary.json").read_text())["verdicts"]["FAIL"] > 0

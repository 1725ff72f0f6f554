"""Score a dataset of model outputs on a Dask cluster with the `coherency` package.

Reads a Parquet dataset (a file, a directory of files, a glob; local or any fsspec URL such as
s3://…) or a JSON-lines one (one object a line), scores the text column of every record on the
cluster's workers — each partition's texts go to `coherency.verdicts` as one Arrow array (the
GIL released; no Python str per row), and the few that WARN or FAIL get their full report from
`coherency.analyze_batch` for the onset, the tripped checks and the first reason — then writes
one row per record (Parquet, partitioned as the input was) and a summary (JSON: counts per
verdict, records a second).

    python examples/dask_pipeline.py rollouts.parquet --text-column response --out scored/
    python examples/dask_pipeline.py 's3://bucket/evals/*.parquet' --scheduler tcp://head:8786 --out s3://bucket/scored/

Without --scheduler it starts a LocalCluster of --workers worker processes (one thread each);
every worker needs `coherency` installed (the wheel of scripts/build-python; on a real cluster,
in the workers' image or with distributed's PipInstall plugin). See docs/python.md.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Optional

import pandas as pd

# The per-record result's columns and types (Dask needs them before it runs anything).
RESULT_COLUMNS = {
    "id": "string",
    "verdict": "string",
    "onset": "Int64",
    "bytes": "Int64",
    "tripped": "string",
    "reason": "string",
}


def score_partition(
    frame: pd.DataFrame,
    text_column: str,
    id_column: Optional[str],
    threads: Optional[int],
    partition_info: Optional[dict] = None,
) -> pd.DataFrame:
    """One partition's records scored: a verdict each (None for a null text), the text's size in
    bytes, and for those that WARN or FAIL the onset (byte), the tripped checks
    (comma-separated) and the first reason. The id is the id column's, else "PARTITION:ROW"."""
    import coherency
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = pa.array(frame[text_column], type=pa.large_string(), from_pandas=True)
    verdicts = coherency.verdicts(texts, threads=threads)
    flagged = [i for i, v in enumerate(verdicts) if v in ("WARN", "FAIL")]
    onset: list[Optional[int]] = [None] * len(verdicts)
    tripped: list[Optional[str]] = [None] * len(verdicts)
    reason: list[Optional[str]] = [None] * len(verdicts)
    if flagged:
        reports = coherency.analyze_batch(texts.take(pa.array(flagged)), threads=threads)
        for i, report in zip(flagged, reports):
            onset[i] = report["onset"]
            tripped[i] = ",".join(c["metric"] for c in report["checks"] if c["level"] != "PASS")
            reason[i] = report["reasons"][0] if report["reasons"] else None
    if id_column:
        ids = frame[id_column].astype("string").to_numpy()
    else:
        number = (partition_info or {}).get("number", 0)
        ids = [f"{number}:{k}" for k in range(len(frame))]
    return pd.DataFrame(
        {
            "id": ids,
            "verdict": verdicts,
            "onset": onset,
            "bytes": pc.binary_length(texts).to_pandas(),
            "tripped": tripped,
            "reason": reason,
        },
    ).astype(RESULT_COLUMNS).set_axis(frame.index)


def read_dataset(path: str, text_column: str, id_column: Optional[str], blocksize: str):
    """The dataset as a Dask DataFrame of the columns used: Parquet by default, JSON lines when
    the path ends in .jsonl / .json / .ndjson (optionally compressed)."""
    import dask.dataframe as dd

    columns = [text_column] + ([id_column] if id_column else [])
    plain = path.rsplit(".", 1)[0] if path.endswith((".gz", ".zst", ".bz2", ".xz")) else path
    if plain.endswith((".jsonl", ".json", ".ndjson")):
        frame = dd.read_json(path, lines=True, blocksize=None if plain != path else blocksize)
        return frame[columns]
    return dd.read_parquet(path, columns=columns)


def run(
    path: str,
    out: str,
    text_column: str = "response",
    id_column: Optional[str] = None,
    client: Any = None,
    threads: Optional[int] = 1,
    blocksize: str = "64MB",
    partitions: Optional[int] = None,
) -> dict[str, Any]:
    """Scores `path` on `client`'s cluster (the default client when None), writes the per-record
    rows to `out`/records/ (Parquet) and the summary to `out`/summary.json; gives the summary.
    `partitions` splits the input into that many partitions (a single file is otherwise few)."""
    import dask.dataframe as dd
    import fsspec

    started = time.perf_counter()
    frame = read_dataset(path, text_column, id_column, blocksize)
    if partitions:
        frame = frame.repartition(npartitions=partitions)
    meta = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in RESULT_COLUMNS.items()})
    scored = frame.map_partitions(score_partition, text_column, id_column, threads, meta=meta)
    records = out.rstrip("/") + "/records"
    scored.to_parquet(records, write_index=False)
    # Counted partition by partition and summed here (no shuffle).
    verdicts = dd.read_parquet(records, columns=["verdict"])["verdict"]
    per_partition = verdicts.map_partitions(
        lambda s: s.fillna("not judged").value_counts(), meta=pd.Series(dtype="int64", name="count")
    )
    counts = per_partition.compute().groupby(level=0).sum()
    seconds = time.perf_counter() - started
    total = int(counts.sum())
    workers = len(client.scheduler_info()["workers"]) if client is not None else None
    summary = {
        "input": path,
        "records": total,
        "verdicts": {k: int(counts.get(k, 0)) for k in ["PASS", "WARN", "FAIL", "not judged"]},
        "seconds": round(seconds, 3),
        "records_per_second": round(total / seconds, 1) if seconds > 0 else None,
        "workers": workers,
        "partitions": frame.npartitions,
        "records_path": records,
    }
    with fsspec.open(out.rstrip("/") + "/summary.json", "w") as f:
        json.dump(summary, f, indent=2)
    return summary


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a Parquet file, directory or glob, or a .jsonl file (local or fsspec URL)")
    parser.add_argument("--out", required=True, help="where records/ (Parquet) and summary.json go")
    parser.add_argument("--text-column", default="response")
    parser.add_argument("--id-column", default=None)
    parser.add_argument("--scheduler", default=None, help="a running cluster's scheduler address (tcp://HOST:8786)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster's worker processes (without --scheduler)")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads each task scores on (1: the workers are the parallelism)"
    )
    parser.add_argument("--partitions", type=int, default=None, help="split the input into N partitions")
    parser.add_argument("--fail-on", choices=["warn", "fail", "never"], default="never", help="exit 2 when any record is at this level")
    args = parser.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0")
        client = Client(cluster)
    try:
        summary = run(
            args.input, args.out, args.text_column, args.id_column, client, args.threads, partitions=args.partitions
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(json.dumps(summary, indent=2))
    v = summary["verdicts"]
    if (args.fail_on == "fail" and v["FAIL"]) or (args.fail_on == "warn" and (v["FAIL"] or v["WARN"])):
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The `coherency` Python module against the CLI on the same inputs (the CLI is the oracle: one
core, so the same figures), plus what only the module has: batches, thresholds as dicts, errors
as exceptions. Run by scripts/test-python (which builds the module and the CLI)."""

import json
import os
import pathlib
import subprocess
import threading

import pytest

import coherency

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLI = os.environ.get("COHERENCY_CLI", str(ROOT / "target" / "debug" / "coherency"))
FIXTURES = ROOT / "crates" / "core" / "tests" / "data"

LOOP = "Let me check the configuration file again. " * 60
HEALTHY = (
    "The deployment finished after the second attempt. The first one failed because the disk "
    "was full; we cleared the old images and retried. Latency is back to normal, and the error "
    "rate stayed under one percent for the whole window. Next week we will add an alert on the "
    "disk so that this does not happen again, and write down the steps we took today.\n\n"
    "Two questions remain open. Should the cleanup job run every night, or only when the disk "
    "passes eighty percent? Alex prefers a fixed schedule because it is easier to reason about; "
    "Sam points out that a threshold costs nothing when the cluster is quiet. We agreed to try "
    "the threshold for a month and compare the number of pages it saves.\n\n"
    "Finally, the release notes need a paragraph about the new retry policy: clients now wait "
    "longer between attempts, which makes a short outage invisible to most users but doubles the "
    "time a failing request takes to surface. Support should know this before Monday."
)


def cli_json(path, *args):
    """The CLI's --json line for `path` (a file it cannot read has a line with its `error`)."""
    out = subprocess.run([CLI, "analyze", "--json", *args, str(path)], capture_output=True, check=False)
    assert out.returncode in (0, 1, 2, 3), out.stderr.decode()
    return json.loads(out.stdout)


def test_a_loop_fails_with_its_onset_and_reasons_and_healthy_text_passes():
    r = coherency.analyze(LOOP)
    assert r["verdict"] == "FAIL"
    assert r["onset"] == 0
    assert any("loop" in reason for reason in r["reasons"])
    assert {s["kind"] for s in r["spans"]}, "spans name their kind"
    assert coherency.analyze(HEALTHY)["verdict"] == "PASS"


def test_analyze_gives_what_the_cli_gives(tmp_path):
    for text in [LOOP, HEALTHY, "short", "词语" * 300 + "重复的句子。" * 80]:
        path = tmp_path / "t.txt"
        path.write_text(text, encoding="utf-8")
        line = cli_json(path)
        mine = coherency.analyze(text)
        for key in ["verdict", "onset", "reasons", "metrics", "checks", "spans", "seed_verdict", "bytes"]:
            assert mine[key] == line[key], key


def test_judge_gives_the_cli_line_for_every_format():
    fixtures = sorted(p for p in (FIXTURES / "formats").iterdir() if not p.name.endswith(".expected.json"))
    assert len(fixtures) > 20
    judged = 0
    for path in fixtures:
        line = cli_json(path)
        if "error" in line:
            with pytest.raises(ValueError):
                coherency.judge(path.read_bytes())
            continue
        mine = coherency.judge(path.read_bytes())
        for key in ["judged_verdict", "counts", "messages", "conversations", "diagnostics", "reasons", "format"]:
            assert mine[key] == line[key], (path.name, key)
        judged += 1
    assert judged > 20


def test_judge_lists_every_message_when_asked_and_reads_a_named_format():
    data = (FIXTURES / "formats" / "chunks.jsonl").read_bytes()
    everything = coherency.judge(data, all_messages=True)
    assert everything["messages_not_listed"] == 0
    assert len(everything["messages"]) == everything["counts"]["messages"]
    as_text = coherency.judge(data, format="text")
    assert as_text["format"] == "text"
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        coherency.judge(data, format="yaml")
    with pytest.raises(ValueError):
        coherency.judge(b"")


def test_thresholds_by_name_and_their_errors():
    words = "no " * 14
    assert coherency.analyze(words)["verdict"] == "FAIL"
    loose = {"maxrun.warn": 20, "maxrun.fail": 40}
    assert coherency.analyze(words, thresholds=loose)["checks"][0]["level"] == "PASS"
    assert coherency.analyze(words, thresholds={"maxrun": {"warn": 20, "fail": 40}})["checks"][0]["level"] == "PASS"
    with pytest.raises(ValueError, match="nosuch"):
        coherency.analyze(words, thresholds={"nosuch.warn": 1})
    with pytest.raises(ValueError):
        coherency.analyze(words, thresholds={"maxrun.warn": "many"})
    assert "maxrun.warn" in coherency.threshold_names()


def test_batches_give_what_one_at_a_time_gives_on_every_thread_count():
    texts = [LOOP, HEALTHY, "ok", "", "no " * 40, HEALTHY + LOOP] * 7
    one_by_one = [coherency.analyze(t) for t in texts]
    for threads in [None, 1, 3, 100]:
        assert coherency.analyze_batch(texts, threads=threads) == one_by_one
        assert coherency.verdicts(texts, threads=threads) == [r["verdict"] for r in one_by_one]
    assert coherency.verdicts([]) == []


def ticks_while(run):
    """How often another Python thread ticked (every millisecond) while `run()` ran."""
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    before = len(ticks)
    run()
    stop.set()
    t.join()
    return len(ticks) - before


def test_a_batch_releases_the_gil():
    ticks = ticks_while(lambda: coherency.verdicts([LOOP * 20] * 200, threads=1))
    assert ticks > 3, "another Python thread ran while the batch was scored"


def test_the_package_is_typed_and_versioned():
    package = pathlib.Path(coherency.__file__).parent
    assert (package / "__init__.pyi").is_file() and (package / "py.typed").is_file()
    assert coherency.__version__
    assert coherency.analyze.__doc__ and "verdict" in coherency.analyze.__doc__


# pyarrow: installed by scripts/test-python beside pytest.
pa = pytest.importorskip("pyarrow")


def test_an_arrow_array_of_strings_is_a_batch_as_a_list_is():
    texts = [LOOP, HEALTHY, "short", "词语" * 300 + "重复的句子。" * 80, "", "Fine. " * 3]
    want_verdicts = coherency.verdicts(texts)
    want_reports = coherency.analyze_batch(texts)
    for array in [
        pa.array(texts, type=pa.string()),
        pa.array(texts, type=pa.large_string()),
        pa.array(texts, type=pa.string_view()),
        pa.chunked_array([texts[:2], texts[2:3], texts[3:]]),
        pa.array(texts, type=pa.string()).dictionary_encode(),
    ]:
        assert coherency.verdicts(array) == want_verdicts, array.type
        assert coherency.verdicts(array, threads=1) == want_verdicts, array.type
        assert coherency.analyze_batch(array) == want_reports, array.type
    assert want_verdicts[0] == "FAIL" and want_verdicts[1] == "PASS"


def test_an_arrow_slice_reads_its_own_texts_and_a_null_gives_none():
    texts = [HEALTHY, None, LOOP, "short", None, LOOP + "end"]
    array = pa.array(texts)
    assert array.null_count == 2
    got = coherency.verdicts(array)
    assert got == [None if t is None else coherency.verdicts([t])[0] for t in texts]
    # A slice starts at an offset into the same buffers (and its validity bitmap).
    sliced = array.slice(1, 4)
    assert coherency.verdicts(sliced) == got[1:5]
    reports = coherency.analyze_batch(sliced)
    assert reports[0] is None and reports[3] is None
    assert reports[1] == coherency.analyze(LOOP)
    chunked = pa.chunked_array([array.slice(0, 3), array.slice(3)])
    assert coherency.verdicts(chunked) == got
    assert coherency.verdicts(pa.array([], type=pa.string())) == []


def test_an_arrow_array_that_is_not_text_is_a_type_error():
    with pytest.raises(TypeError, match="not of strings"):
        coherency.verdicts(pa.array([1, 2, 3]))
    with pytest.raises(TypeError, match="not one str"):
        coherency.verdicts("one text")
    with pytest.raises(TypeError, match="not of strings"):
        coherency.analyze_batch(pa.array([b"bytes"], type=pa.binary()))


def test_an_arrow_batch_releases_the_gil():
    ticks = ticks_while(lambda: coherency.verdicts(pa.chunked_array([[LOOP * 20] * 100, [LOOP * 20] * 100]), threads=1))
    assert ticks > 3, "another Python thread ran while the Arrow batch was scored"

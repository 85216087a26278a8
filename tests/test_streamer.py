"""grill.store.streamer: a long export built by worker processes comes back complete and in
order, a worker's error comes back as the sqlite3 error it was, and no worker outlives it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from grill.errors import StoreError
from grill.store import Store, streamer

T0 = "2026-12-02T09:00:00+00:00"


def _database(tmp_path: Path, rows: int = 50) -> str:
    path = tmp_path / "numbers.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, word TEXT)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", ((i, f"w{i}é") for i in range(1, rows + 1)))
    conn.close()
    return f"{path.as_uri()}?mode=ro"


def _job(uri: str, sql: str = "SELECT group_concat(word, ',') FROM t WHERE id > ? AND id <= ?"):
    return {"uri": uri, "timeout": 1.0, "sql": sql}


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_values_come_back_in_order_whatever_the_number_of_workers(
    tmp_path: Path, workers: int
) -> None:
    uri = _database(tmp_path)
    runs = [(a, a + 7) for a in range(0, 70, 7)]  # the last two ranges hold no row: NULL
    got = list(streamer.stream(_job(uri), runs, workers))
    expected = [
        ",".join(f"w{i}é" for i in range(a + 1, min(b, 50) + 1)).encode() or None for a, b in runs
    ]
    assert got == expected
    assert got[-1] is None and got[0] == "w1é,w2é,w3é,w4é,w5é,w6é,w7é".encode()


def test_setup_runs_in_every_worker_before_its_queries(tmp_path: Path) -> None:
    uri = _database(tmp_path)
    job = {
        **_job(
            uri,
            "SELECT group_concat(t.word || ':' || x.tag, ' ') FROM t JOIN temp.x"
            " ON x.id = t.id WHERE t.id > ? AND t.id <= ?",
        ),
        "setup": [
            ["CREATE TEMP TABLE x (id INTEGER PRIMARY KEY, tag TEXT)", None],
            ["INSERT INTO x VALUES (?, ?)", [[1, "a"], [4, "b"]]],
        ],
    }
    assert list(streamer.stream(job, [(0, 2), (2, 5)], 2)) == [b"w1\xc3\xa9:a", b"w4\xc3\xa9:b"]


def test_a_worker_s_error_is_raised_as_the_sqlite3_error_it_was(tmp_path: Path) -> None:
    uri = _database(tmp_path)
    job = _job(uri, "SELECT word FROM no_such_table WHERE ? < ?")
    with pytest.raises(sqlite3.OperationalError, match="no such table: no_such_table") as caught:
        list(streamer.stream(job, [(0, 1), (1, 2)], 2))
    assert caught.value.sqlite_errorcode == sqlite3.SQLITE_ERROR


def _recording(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    started: list[subprocess.Popen[bytes]] = []
    start = streamer._start

    def record(job: dict[str, Any]) -> subprocess.Popen[bytes]:
        started.append(start(job))
        return started[-1]

    monkeypatch.setattr(streamer, "_start", record)
    return started


def test_a_reader_that_stops_early_leaves_no_worker_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _recording(monkeypatch)
    job = _job(_database(tmp_path), "SELECT hex(zeroblob(2000)) WHERE ? < ?")  # 4 kB a value
    values = streamer.stream(job, [(a, a + 1) for a in range(2000)], 2)
    assert next(values) == b"0" * 4000
    assert all(p.poll() is None for p in started)  # still writing: a pipe holds far less
    values.close()
    assert len(started) == 2 and all(p.returncode is not None for p in started)


def test_a_worker_killed_halfway_is_an_error_not_a_hang_or_a_short_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _recording(monkeypatch)
    # 4 kB a value: far more than a pipe holds, so the worker is still writing when killed
    job = _job(_database(tmp_path), "SELECT hex(zeroblob(2000)) WHERE ? < ?")
    values = streamer.stream(job, [(a, a + 1) for a in range(2000)], 2)
    next(values)
    started[1].kill()
    with pytest.raises(sqlite3.OperationalError, match="export worker stopped"):
        list(values)


def test_the_store_turns_a_worker_s_error_into_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    from grill.model import Rating

    at = datetime.fromisoformat(T0)
    with Store.open(tmp_path / "grill.db", now=at) as store:
        for card in ("a", "b", "c"):
            store.record_review("d", card, reviewed_at=at, rating=Rating.GOOD, schedule=None)
        assert len(list(store.export_log("r.id", {}, ("", ",", ""), chunk=1, workers=2))) == 3
        monkeypatch.setattr(
            "grill.store.export._LOG_CHUNK", "SELECT x FROM missing WHERE ? OR ? OR ? OR ?"
        )
        with pytest.raises(StoreError, match="export the review log"):
            list(store.export_log("r.id", {}, ("", ",", ""), chunk=1, workers=2))


def test_a_frozen_build_makes_the_values_in_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(streamer, "_start", lambda job: pytest.fail("started a worker"))
    runs = [(0, 1), (1, 2), (2, 3)]
    assert list(streamer.stream(_job(_database(tmp_path)), runs, 2)) == [
        "w1é".encode(),
        "w2é".encode(),
        "w3é".encode(),
    ]

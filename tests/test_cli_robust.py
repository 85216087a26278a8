"""Hostile environments and input through the real command line, as a user meets them.

Each case runs `python -m grill` in a subprocess and checks: one clear line on stderr, a
non-zero exit code, no traceback (unless --debug), and nothing half-written: the database
passes `PRAGMA integrity_check` and holds no partial review.

How the hard cases are simulated, honestly:
  - an unwritable GRILL_HOME: a path under a regular file (mkdir fails with ENOTDIR, whoever
    runs it), and, where user namespaces allow it, a read-only bind mount of the data folder
    (EROFS even for root, who ignores chmod);
  - a full disk: a real ENOSPC from a tiny tmpfs mounted in a private user namespace (skipped
    where namespaces are not allowed), and everywhere a file-size limit (RLIMIT_FSIZE) on the
    process, so a write past it fails (EFBIG) as on a disk that cannot take more.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grill.answers import MAX_ANSWER_CHARS

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def grill(
    home: Path,
    *args: str | bytes,
    now: str | None = None,
    stdin: str | bytes = b"",
    preexec: Callable[[], None] | None = None,
    wrap: list[str] | None = None,
) -> Run:
    env = dict(os.environ, GRILL_HOME=str(home), GRILL_NOW=now or NOW.isoformat())
    env.update(NO_COLOR="1", COLUMNS="100")
    env.pop("GRILL_DEBUG", None)
    proc = subprocess.run(
        [*(wrap or []), sys.executable, "-m", "grill", *args],
        input=stdin if isinstance(stdin, bytes) else stdin.encode(),
        capture_output=True,
        env=env,
        timeout=60,
        preexec_fn=preexec,
    )
    return Run(proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode())


def one_line_error(run: Run, code: int) -> str:
    """The run failed with `code` and said so in exactly one line, without a traceback."""
    assert run.code == code, run
    assert "Traceback" not in run.err and "Traceback" not in run.out, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.err
    return lines[0]


def log(home: Path) -> list[str | None]:
    """The answers in the review log, after checking the database is sound."""
    conn = sqlite3.connect(home / "grill.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [r[0] for r in conn.execute("SELECT answer FROM reviews ORDER BY id")]
    finally:
        conn.close()


def seeded(home: Path, reviews: int = 2) -> None:
    """A database with history and today's backup taken (the second open of the day takes it)."""
    for n in range(1, reviews + 1):
        assert grill(home, "review", str(n), "--rating", "good").code == 0


# ------------------------------------------------------------------ GRILL_NOW


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("yesterday", "GRILL_NOW='yesterday' is not an ISO-8601 time"),
        ("2026-12-02T09:00:00", "GRILL_NOW='2026-12-02T09:00:00' has no UTC offset"),
        ("2026-13-45T25:00:00+00:00", "is not an ISO-8601 time"),
    ],
)
def test_a_malformed_grill_now_is_one_line_and_writes_nothing(
    tmp_path: Path, value: str, says: str
) -> None:
    line = one_line_error(grill(tmp_path, "review", "7", "--rating", "good", now=value), 2)
    assert says in line
    assert not (tmp_path / "grill.db").exists()


def test_a_malformed_grill_now_stops_a_drill_before_it_starts(tmp_path: Path) -> None:
    seeded(tmp_path, 1)
    line = one_line_error(grill(tmp_path, "drill", now="soon", stdin="x\n3\n"), 2)
    assert "GRILL_NOW='soon'" in line and len(log(tmp_path)) == 1


def test_debug_shows_the_traceback_of_an_expected_error(tmp_path: Path) -> None:
    run = grill(tmp_path, "--debug", "due", now="yesterday")
    assert run.code != 0
    assert "Traceback (most recent call last)" in run.err and "UsageError" in run.err


# ------------------------------------------------------------------ GRILL_HOME


def test_a_data_folder_under_a_regular_file_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    home = blocker / "home"
    for args in (["review", "7", "--rating", "good"], ["due"], ["drill"]):
        line = one_line_error(grill(home, *args, stdin="x\n3\n"), 1)
        assert "Not a directory" in line and "set GRILL_HOME to a folder you can write to" in line
    assert blocker.read_text() == "not a folder"


def _namespaces() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    probe = subprocess.run([unshare, "-rm", "true"], capture_output=True, timeout=10)
    return probe.returncode == 0


needs_namespaces = pytest.mark.skipif(
    not _namespaces(), reason="user namespaces (unshare -rm) are not allowed here"
)


def _in_namespace(setup: str) -> list[str]:
    """Run grill inside a private mount namespace after the shell `setup`."""
    return ["unshare", "-rm", "sh", "-c", f'{setup} && exec "$0" "$@"']


@needs_namespaces
def test_a_read_only_data_folder_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    seeded(home)
    before = log(home)
    ro = f"mount --bind {home} {home} && mount -o remount,bind,ro {home}"
    run = grill(home, "review", "3", "--rating", "good", wrap=_in_namespace(ro))
    line = one_line_error(run, 1)
    assert str(home / "grill.db") in line and "folder you can write to" in line
    assert log(home) == before


# ------------------------------------------------------------------ a full disk


@needs_namespaces
def test_a_full_disk_is_a_clear_error_and_no_partial_review(tmp_path: Path) -> None:
    """A real ENOSPC: the data folder is copied onto a 1 MB tmpfs filled up to the last 36 KB
    (room for SQLite's 32 KB shared-memory file, not for the review), and copied back after."""
    home = tmp_path / "home"
    seeded(home)
    before = log(home)
    mnt, after = tmp_path / "mnt", tmp_path / "after"
    mnt.mkdir()
    fill = (
        f"mount -t tmpfs -o size=1m tmpfs {mnt} && cp -a {home} {mnt}/home"
        f" && free=$(df -k --output=avail {mnt} | tail -1)"
        f" && (dd if=/dev/zero of={mnt}/fill bs=1k count=$((free - 36)) 2>/dev/null || true)"
    )
    keep = f"; code=$?; cp -a {mnt}/home {after}; exit $code"
    wrap = ["unshare", "-rm", "sh", "-c", f'{fill} && "$0" "$@" {keep}']
    run = grill(mnt / "home", "review", "3", "--rating", "good", "--answer", "x" * 9000, wrap=wrap)
    line = one_line_error(run, 1)
    assert f"the disk holding {mnt / 'home' / 'grill.db'} is full; nothing was saved" in line
    assert log(after) == before


def test_a_file_size_limit_is_a_clear_error_and_no_partial_review(tmp_path: Path) -> None:
    """RLIMIT_FSIZE at 36 KB: SQLite's 32 KB shared-memory file fits, the review's pages in the
    WAL do not; the write fails with EFBIG, as on a disk with no room left."""
    seeded(tmp_path)
    before = log(tmp_path)

    def limit() -> None:  # CPython ignores SIGXFSZ, so the write fails rather than kills
        resource.setrlimit(resource.RLIMIT_FSIZE, (36 * 1024, 36 * 1024))

    run = grill(tmp_path, "review", "3", "--rating", "good", "--answer", "x" * 9000, preexec=limit)
    line = one_line_error(run, 1)
    assert "cannot record a review" in line and "nothing was saved" in line
    assert "is the disk full" in line
    assert log(tmp_path) == before
    assert grill(tmp_path, "review", "3", "--rating", "good").code == 0  # room again: it works


# ------------------------------------------------------------------ damaged and newer databases


def test_a_damaged_database_names_the_backup_and_doctor_restores_it(tmp_path: Path) -> None:
    seeded(tmp_path)  # two reviews, backed up today
    tomorrow = (NOW + timedelta(days=1)).isoformat()
    assert grill(tmp_path, "review", "3", "--rating", "good", now=tomorrow).code == 0
    db = tmp_path / "grill.db"
    db.write_bytes(b"\x00garbage" * 4096)
    backup = sorted((tmp_path / "backups").iterdir())[-1]
    line = one_line_error(grill(tmp_path, "due", now=tomorrow), 1)
    assert f"the database {db} is damaged (file is not a database)" in line
    assert str(backup) in line and "grill doctor --restore" in line

    checked = grill(tmp_path, "doctor", now=tomorrow)
    assert checked.code == 1 and "DAMAGED: file is not a database" in checked.out
    assert backup.name in checked.out

    restored = grill(tmp_path, "doctor", "--restore", now=tomorrow)
    assert restored.code == 0, restored
    assert f"restored {db} from {backup}" in restored.out and "integrity  ok" in restored.out
    aside = tmp_path / "grill.db.broken-20261203T090000Z"
    assert f"moved aside: {aside}" in restored.err
    assert aside.read_bytes() == b"\x00garbage" * 4096  # kept, never deleted
    # the backup was taken on tomorrow's first use: it holds cards 1 and 2, not 3's review
    for ref, count in (("1", 1), ("3", 0)):
        history = grill(tmp_path, "history", ref, "--json", now=tomorrow)
        assert history.code == 0 and len(json.loads(history.out)) == count


def test_doctor_needs_restore_to_restore_a_named_backup(tmp_path: Path) -> None:
    line = one_line_error(grill(tmp_path, "doctor", "grill-20261202T090000Z.db"), 2)
    assert "add --restore" in line


def test_a_database_from_a_newer_grill_is_refused_by_every_command(tmp_path: Path) -> None:
    seeded(tmp_path, 1)
    conn = sqlite3.connect(tmp_path / "grill.db")
    conn.execute("INSERT INTO migrations (name, applied_at) VALUES ('0042_future', 'x')")
    conn.commit()
    conn.close()
    before = (tmp_path / "grill.db").read_bytes()
    line = one_line_error(grill(tmp_path, "review", "2", "--rating", "good"), 1)
    assert line == (
        f"error: {tmp_path / 'grill.db'} was written by a newer grill (schema 0042_future);"
        " upgrade grill to use it"
    )
    one_line_error(grill(tmp_path, "drill", stdin="x\n3\n"), 1)
    checked = grill(tmp_path, "doctor")
    assert checked.code == 1 and "written by a newer grill" in checked.out
    assert (tmp_path / "grill.db").read_bytes() == before


# ------------------------------------------------------------------ answers


ANSWERS: list[tuple[str, str | bytes, str]] = [
    ("unicode", "η = 3·10⁻⁴ ✓ 学习率 שלום 🙂 e\u0301", "η = 3·10⁻⁴ ✓ 学习率 שלום 🙂 e\u0301"),
    ("escape codes", "\x1b[2J\x1b]0;pwned\x07warmup\x7f", "[2J]0;pwnedwarmup"),
    ("invalid utf-8", b"caf\xe9 \xff", "caf\ufffd \ufffd"),
    ("empty", "", ""),
    ("the limit", "w" * MAX_ANSWER_CHARS, "w" * MAX_ANSWER_CHARS),
]


def test_any_answer_is_kept_cleaned_through_grill_review(tmp_path: Path) -> None:
    for n, (_, given, _) in enumerate(ANSWERS, start=1):
        run = grill(tmp_path, "review", str(n), "--rating", "good", "--answer", given)
        assert run.code == 0 and "Traceback" not in run.err, run
    assert log(tmp_path) == [kept for _, _, kept in ANSWERS]


def test_an_answer_over_the_limit_is_refused_through_grill_review(tmp_path: Path) -> None:
    # 100,000 characters: a single argument cannot hold 1 MB (Linux caps one at 128 KB);
    # the 1 MB paste goes through the drill below
    run = grill(tmp_path, "review", "7", "--rating", "good", "--answer", "z" * 100_000)
    line = one_line_error(run, 2)
    assert line == (
        "error: the answer is 100,000 characters long; grill takes answers of up to"
        " 10,000 characters (about 1,500 words)"
    )
    assert not (tmp_path / "grill.db").exists() or log(tmp_path) == []


def test_a_drill_refuses_a_1mb_paste_asks_again_and_keeps_the_rest(tmp_path: Path) -> None:
    paste = b"y" * 1_048_576
    stdin = paste + b"\nshort answer\n3\n\x00nul \x1b[31mred\n3\ncaf\xe9\n3\n\n3\n"
    run = grill(tmp_path, "drill", "--new", "4", stdin=stdin)
    assert run.code == 0 and "Traceback" not in run.err, run.err
    assert "the answer is 1,048,576 characters long" in run.out and "answer again" in run.out
    assert "\x1b" not in run.out and "\x00" not in run.out  # the echo is cleaned too
    assert "session summary" in run.out
    kept = log(tmp_path)
    assert kept[:3] == ["short answer", "nul [31mred", "caf\ufffd"]
    assert kept[3] in ("", None)  # an empty answer: graded "" (with a grader) or not kept


def test_any_answer_is_graded_cleanly_through_grill_grade(tmp_path: Path) -> None:
    for _, given, _ in ANSWERS:
        run = grill(tmp_path, "grade", "7", "--answer", given, "--json")
        assert run.code == 0 and "Traceback" not in run.err, run
        result = json.loads(run.out)
        assert result["verdict"] in ("wrong", "partial", "correct")
        assert 0 <= result["score"] <= 1
    plain = grill(tmp_path, "grade", "7", "--answer", "\x1b[2J\x1b]0;pwned\x07 warmup")
    assert plain.code == 0 and "\x1b" not in plain.out


def test_a_1mb_answer_file_is_refused_by_grill_grade(tmp_path: Path) -> None:
    big = tmp_path / "paste.txt"
    big.write_text("y" * 1_048_576)
    line = one_line_error(grill(tmp_path, "grade", "7", "--answer-file", str(big)), 2)
    assert "the answer is more than 10,000 characters long" in line
    line = one_line_error(grill(tmp_path, "grade", "7", "--answer", "z" * 100_000), 2)
    assert "up to 10,000 characters" in line


def test_any_file_grill_cannot_write_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    line = one_line_error(grill(blocker / "home", "config", "set", "new_per_day", "5"), 1)
    assert str(blocker) in line and "Not a directory" in line
    line = one_line_error(grill(tmp_path, "export", "anki", "-o", str(blocker / "x.apkg")), 1)
    assert str(blocker) in line and "Not a directory" in line
    assert blocker.read_text() == "not a folder"


def test_a_batch_line_over_the_limit_is_refused_with_its_line_number(tmp_path: Path) -> None:
    batch = tmp_path / "answers.jsonl"
    lines = [{"card": "21", "answer": "1.0 global norm"}, {"card": "21", "answer": "y" * 20_000}]
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    line = one_line_error(grill(tmp_path, "grade", "--batch", str(batch)), 2)
    assert line.startswith(f"error: {batch}:2: the answer is 20,000 characters long")


def test_a_mock_answer_over_the_limit_is_cut_graded_and_stored(tmp_path: Path) -> None:
    stdin = "1.0 " + "y" * 1_048_576 + "\nloss scaling\n"
    run = grill(tmp_path, "mock", "--section", "Q", "--count", "2", "--seed", "1", stdin=stdin)
    assert run.code == 0 and "Traceback" not in run.err, run.err
    assert "answered cold" in run.out
    kept = [a for a in log(tmp_path) if a]
    assert len(kept) == 2 and max(len(a) for a in kept) == MAX_ANSWER_CHARS

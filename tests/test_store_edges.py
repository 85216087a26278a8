"""The database at its edges: deleted beside its backups, restored while another grill runs,
backups under a clock set back or a full disk, doctor's diagnoses, and sessions whose grill
was killed with -9 (tests/test_drill_ends.py: a drill ending uncleanly).

Devices are never touched: folders and files made in tmp_path stand in for what breaks, and
the processes that must hold the database open are real ones.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grill.errors import GrillWarning, StoreError
from grill.model import Mode, Rating, SessionStatus
from grill.scheduler import Scheduler
from grill.store import Store, doctor
from grill.store.backup import KEEP, list_backups, write_backup
from test_store_robust import _review
from test_store_robust import _with_history as with_history

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCHED = Scheduler(enable_fuzzing=False)


def _with_history(path: Path, n: int = 3, at: datetime = T0) -> None:
    """A database with `n` reviews and the day's backup of them."""
    with_history(path, n, at)
    Store.open(path, now=at).close()  # the first use with history: the day's backup


def _grill(
    home: Path, *args: str, now: datetime = T0, **kw: object
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRILL_HOME": str(home), "GRILL_NOW": now.isoformat(), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "grill", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        **kw,  # type: ignore[call-overload]
    )


def _holder(db: Path, script: str) -> subprocess.Popen[str]:
    """Another grill: a process that opens `db`, runs `script` (with `store` open), prints
    "ready" and waits for its stdin to close."""
    code = (
        "import sys\n"
        "from datetime import datetime\n"
        "from grill.model import Mode\n"
        "from grill.store import Store\n"
        f"store = Store.open(__import__('pathlib').Path({str(db)!r}))\n"
        f"{script}\n"
        "print('ready', flush=True)\n"
        "sys.stdin.read()\n"
        "store.close()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "GRILL_NOW": T0.isoformat()},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip().endswith("ready")
    return proc


def _end(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()


# ------------------------------------------------------------------ a deleted database


def test_a_deleted_database_beside_its_backups_is_refused_naming_the_newest(
    tmp_path: Path,
) -> None:
    db = tmp_path / "grill.db"
    _with_history(db)
    newest = list_backups(tmp_path / "backups")[-1]
    db.unlink()
    with pytest.raises(StoreError) as caught:
        Store.open(db, now=T0 + timedelta(days=1))
    message = str(caught.value)
    assert "missing" in message and str(newest.path) in message
    assert "grill doctor --restore" in message
    assert not db.exists()  # nothing was started afresh


def test_doctor_reports_the_missing_database_and_restores_it(tmp_path: Path) -> None:
    db = tmp_path / "grill.db"
    _with_history(db)
    db.unlink()
    health = doctor.check(db)
    assert not health.ok and "missing" in health.error
    doctor.restore(db, now=T0)
    with Store.open(db, now=T0) as store:
        assert store.count_reviews() == 3


def test_grill_says_so_in_one_line_when_the_database_was_deleted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _with_history(home / "grill.db")
    (home / "grill.db").unlink()
    ran = _grill(home, "review", "1", "--rating", "good")
    assert ran.returncode == 1
    assert ran.stderr.count("\n") == 1 and "grill doctor --restore" in ran.stderr
    assert "Traceback" not in ran.stderr and not (home / "grill.db").exists()


def test_rotation_keeps_the_last_backup_holding_more_history_than_the_database(
    tmp_path: Path,
) -> None:
    db, folder = tmp_path / "grill.db", tmp_path / "backups"
    _with_history(db, n=5)  # the day's backup holds 5 reviews
    rich = list_backups(folder)[-1]
    db.unlink()
    (tmp_path / "grill.db-wal").unlink(missing_ok=True)
    (tmp_path / "grill.db-shm").unlink(missing_ok=True)
    os.rename(folder, tmp_path / "aside")  # started afresh on purpose: backups moved away
    with Store.open(db, now=T0) as store:
        _review(store, "new")
    os.rename(tmp_path / "aside", folder)
    with Store.open(db, now=T0) as store:
        for day in range(1, KEEP + 3):  # more than KEEP backups of the one-review database
            write_backup(store._conn, folder, T0 + timedelta(days=day))
    kept = list_backups(folder)
    assert rich in kept and len(kept) == KEEP + 1
    assert kept[-1].taken == T0 + timedelta(days=KEEP + 2)


# ------------------------------------------------------------------ backups and the clock


def test_a_clock_behind_every_backup_keeps_the_new_one_and_blocks_nothing(tmp_path: Path) -> None:
    db, folder = tmp_path / "grill.db", tmp_path / "backups"
    ahead = T0 + timedelta(days=30)
    _with_history(db, at=ahead)
    with Store.open(db, now=ahead) as store:
        for day in range(1, KEEP):  # KEEP backups, all dated after T0
            write_backup(store._conn, folder, ahead + timedelta(days=day))
    behind = T0 + timedelta(hours=1)
    for _ in range(2):  # the first open backs up; the second finds today's backup
        with Store.open(db, now=behind) as store:
            _review(store, "late", behind)
    kept = list_backups(folder)
    assert len(kept) == KEEP and kept[0].taken == behind


def test_a_daily_backup_that_cannot_be_written_warns_and_blocks_nothing(tmp_path: Path) -> None:
    db = tmp_path / "grill.db"
    _with_history(db)
    for old in list_backups(tmp_path / "backups"):
        old.path.unlink()
    (tmp_path / "backups").rmdir()
    (tmp_path / "backups").write_text("not a folder")  # the backup cannot be written
    with pytest.warns(GrillWarning, match="daily backup was skipped"):
        store = Store.open(db, now=T0 + timedelta(days=1))
    with store:
        assert store.count_reviews() == 3


def _limit_file_size() -> None:
    # a file grown past 64 KB fails with EFBIG, as a full disk fails a write (Python
    # ignores SIGXFSZ): the day's backup of a database this size cannot be written
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


def test_due_on_a_full_disk_prints_the_cards_and_one_warning(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _with_history(home / "grill.db", n=30)
    assert (home / "grill.db").stat().st_size > 64 * 1024 or _grow(home / "grill.db")
    ran = _grill(home, "due", now=T0 + timedelta(days=3), preexec_fn=_limit_file_size)
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.startswith("grill: warning: ") and ran.stderr.count("\n") == 1
    assert "daily backup was skipped" in ran.stderr and "Traceback" not in ran.stderr


def _grow(db: Path) -> bool:
    """Make the database bigger than the file-size limit with answers."""
    with Store.open(db, now=T0) as store:
        for i in range(40):
            store.record_review(
                "d", f"big{i}", reviewed_at=T0, rating=Rating.GOOD, schedule=None, answer="x" * 4000
            )
    return db.stat().st_size > 64 * 1024


# ------------------------------------------------------------------ restore under a running grill


def test_restore_is_refused_while_another_grill_has_the_database_open(tmp_path: Path) -> None:
    db = tmp_path / "grill.db"
    _with_history(db)
    before = db.stat().st_ino
    drill = _holder(db, "")  # a drill in another terminal
    try:
        with pytest.raises(StoreError, match="another grill has it open"):
            doctor.restore(db, now=T0)
        assert db.stat().st_ino == before and not list(tmp_path.glob("grill.db.broken-*"))
    finally:
        _end(drill)
    done = doctor.restore(db, now=T0)  # that grill ended: now it goes ahead
    assert done.moved and db.stat().st_ino != before


def test_grill_doctor_restore_says_why_in_one_line_while_a_drill_runs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _with_history(home / "grill.db")
    drill = _holder(home / "grill.db", "")
    try:
        ran = _grill(home, "doctor", "--restore")
    finally:
        _end(drill)
    assert ran.returncode == 1 and ran.stderr.count("\n") == 1, ran.stderr
    assert "another grill has it open" in ran.stderr
    assert not list(home.glob("grill.db.broken-*"))


# ------------------------------------------------------------------ doctor's diagnoses


def test_doctor_calls_grill_home_being_a_file_what_it_is(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("")
    health = doctor.check(home / "grill.db")
    assert not health.ok and f"{home} is a file" in health.error


def test_doctor_calls_the_database_being_a_folder_what_it_is(tmp_path: Path) -> None:
    (tmp_path / "grill.db").mkdir()
    health = doctor.check(tmp_path / "grill.db")
    assert not health.ok and "is not a file" in health.error
    assert not health.problems


def test_a_database_doctor_cannot_open_is_not_called_damaged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _with_history(home / "grill.db")
    # a folder where SQLite must write its -wal: what a read-only data folder gives it too
    (home / "grill.db-wal").unlink(missing_ok=True)
    (home / "grill.db-wal").mkdir()
    health = doctor.check(home / "grill.db")
    assert not health.ok and not health.problems
    assert "cannot open" in health.error
    ran = _grill(home, "doctor")
    assert ran.returncode == 1
    assert "DAMAGED" not in ran.stdout and "--restore" not in ran.stdout
    assert "cannot open" in ran.stdout


# ------------------------------------------------------------------ sessions ending uncleanly


def test_a_session_killed_with_9_is_closed_when_the_next_starts(tmp_path: Path) -> None:
    db = tmp_path / "grill.db"
    later = T0 + timedelta(minutes=5)
    killed = _holder(
        db,
        "from grill.model import Rating\n"
        f"s = store.start_session(Mode.DRILL, datetime.fromisoformat({T0.isoformat()!r}))\n"
        f"at = datetime.fromisoformat({later.isoformat()!r})\n"
        "store.record_review('d', 'c1', reviewed_at=at, rating=Rating.GOOD, schedule=None,"
        " session_id=s.id)",
    )
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    assert killed.stdin is not None and killed.stdout is not None
    killed.stdin.close()
    killed.stdout.close()
    with Store.open(db, now=T0) as store:
        assert store.abandoned() == [1] and store.session(1).status == SessionStatus.OPEN
    # the next session to start, in another grill that keeps running, closes it
    running = _holder(db, "store.start_session(Mode.MOCK, datetime.now().astimezone())")
    try:
        with Store.open(db, now=T0) as store:
            assert store.abandoned() == []
            store.start_session(Mode.DRILL, T0 + timedelta(hours=1))
            first, other, _ = store.sessions()
        assert first.status == SessionStatus.INTERRUPTED and first.ended_at == later
        assert other.status == SessionStatus.OPEN  # its grill still runs: left alone
        assert not (tmp_path / "locks" / "grill.db.session-1.lock").exists()
    finally:
        _end(running)

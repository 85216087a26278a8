"""The store under stress: busy, full, damaged, truncated and newer databases; backups and restore.

Every failure must reach the user as one StoreError that says what happened and what to do,
and leave the database sound with no partial review in it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import grill.store as store_module
from grill.answers import MAX_ANSWER_CHARS
from grill.errors import NotFoundError, StoreError, UsageError
from grill.model import CardState, Rating, Review
from grill.scheduler import Scheduler
from grill.store import Store, doctor
from grill.store.backup import KEEP, check_file, list_backups, rotate
from grill.store.migrations import MIGRATIONS, Migration

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCHED = Scheduler(enable_fuzzing=False)


def _review(store: Store, card: str, at: datetime = T0, answer: str | None = None) -> Review:
    def schedule(prior: CardState | None) -> CardState:
        return SCHED.review(prior or SCHED.new_state("d", card, at), Rating.GOOD, at)

    return store.record_review(
        "d", card, reviewed_at=at, rating=Rating.GOOD, schedule=schedule, answer=answer
    )


def _count(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])
    finally:
        conn.close()


def _with_history(path: Path, n: int = 3, at: datetime = T0) -> None:
    with Store.open(path, now=at) as store:
        for i in range(n):
            _review(store, f"c{i}", at)


# ------------------------------------------------------------------ a busy database


def test_a_write_waits_out_another_grill_beyond_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's busy handler gives up after BUSY_TIMEOUT_MS; the store retries with back-off."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "grill.db"
    store = Store.open(path)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another grill holds the write lock for 0.6 s
    releaser = threading.Timer(0.6, lambda: other.execute("COMMIT"))
    releaser.start()
    started = time.monotonic()
    review = _review(store, "c1")
    waited = time.monotonic() - started
    releaser.join()
    other.close()
    assert review.id == 1 and store.history("d", "c1") == [review]
    assert waited >= 0.5  # it did wait for the lock, well past the 50 ms busy timeout
    store.close()


def test_a_database_locked_for_too_long_is_a_clear_error_not_sqlites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 20)
    monkeypatch.setattr(store_module, "LOCK_WAIT_SECONDS", 0.3)
    path = tmp_path / "grill.db"
    store = Store.open(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError) as caught:
        _review(store, "c1")
    other.execute("ROLLBACK")
    other.close()
    message = str(caught.value)
    assert "is busy (another grill" in message and str(path) in message
    assert "database is locked" not in message
    assert store.history("d", "c1") == []  # nothing half-done; the store is still usable
    assert _review(store, "c1").id == 1
    store.close()


# ------------------------------------------------------------------ a full disk


def test_a_full_database_writes_nothing_and_says_the_disk_is_full(tmp_path: Path) -> None:
    """SQLite's `max_page_count` caps the file: the same SQLITE_FULL a full disk gives."""
    path = tmp_path / "grill.db"
    _with_history(path, 2)
    store = Store.open(path)
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError) as caught:
        _review(store, "big", answer="x" * 9_000)  # needs new pages: does not fit
    message = str(caught.value)
    assert "disk holding" in message and "is full; nothing was saved" in message
    assert store.history("d", "big") == [] and store.state("d", "big") is None
    assert store.integrity() == []
    store.close()
    assert _count(path) == 2


# ------------------------------------------------------------------ damaged files


def test_a_file_that_is_not_a_database_names_the_file_and_the_newest_backup(
    tmp_path: Path,
) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 2, T0)
    _with_history(path, 1, T0 + timedelta(days=1))  # a second day: a second backup
    newest = list_backups(tmp_path / "backups")[-1]
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(os.urandom(8192))
    with pytest.raises(StoreError) as caught:
        Store.open(path)
    message = str(caught.value)
    assert f"the database {path} is damaged (file is not a database)" in message
    assert str(newest.path) in message and "grill doctor --restore" in message
    assert "\n" not in message


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_a_truncated_database_is_reported_as_damaged(tmp_path: Path, keep: float) -> None:
    path = tmp_path / "grill.db"
    with Store.open(path) as store:  # enough history to span many pages
        for i in range(300):
            _review(store, f"c{i}", answer="a long enough answer " * 20)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(StoreError, match=r"is damaged \(database disk image is malformed\)"):
        with Store.open(path, now=T0 + timedelta(days=1)) as store:  # the daily check finds it
            store.reviews()


def test_a_database_emptied_to_zero_bytes_is_not_silently_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 2)
    _with_history(path, 1, T0 + timedelta(days=1))  # backed up
    path.write_bytes(b"")
    with pytest.raises(StoreError, match=r"is damaged \(the file is empty\); the newest backup"):
        Store.open(path)
    assert path.stat().st_size == 0  # not overwritten by a fresh schema


def test_a_database_from_a_newer_grill_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 1)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO migrations (name, applied_at) VALUES ('0099_future', 'x')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    backups_before = list_backups(tmp_path / "backups")
    with pytest.raises(StoreError) as caught:
        Store.open(path, now=T0 + timedelta(days=3))
    assert str(caught.value) == (
        f"{path} was written by a newer grill (schema 0099_future); upgrade grill to use it"
    )
    assert path.read_bytes() == before  # never downgraded, never migrated
    assert list_backups(tmp_path / "backups") == backups_before
    health = doctor.check(path)
    assert not health.ok and health.newer == ("0099_future",)


# ------------------------------------------------------------------ backups


def test_no_backup_of_a_database_with_no_history(tmp_path: Path) -> None:
    Store.open(tmp_path / "grill.db").close()
    Store.open(tmp_path / "grill.db").close()
    assert list_backups(tmp_path / "backups") == []


def test_a_backup_is_taken_on_the_first_use_of_each_day_and_seven_are_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 1, T0)  # the database had no history when opened: no backup yet
    assert list_backups(tmp_path / "backups") == []
    for day in range(10):
        for hour in (0, 5):  # a second use the same day takes none
            at = T0 + timedelta(days=day, hours=hour)
            with Store.open(path, now=at) as store:
                _review(store, f"d{day}h{hour}", at)
    found = list_backups(tmp_path / "backups")
    assert len(found) == KEEP
    assert [b.name for b in found] == [
        f"grill-202612{d:02d}T090000Z.db" for d in range(2 + 10 - KEEP, 12)
    ]
    # each holds the history as it was before that day's first review
    assert _count(found[-1].path) == 1 + 2 * 9
    assert check_file(found[-1].path) == []
    conn = sqlite3.connect(found[-1].path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # self-contained
    conn.close()


def test_a_backup_is_taken_before_a_schema_migration(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 2)
    extra = Migration("0002_notes", ("CREATE TABLE notes (x TEXT)",))
    store = Store.open(path, now=T0 + timedelta(minutes=1))
    store._migrate((*MIGRATIONS, extra))
    store.close()
    found = {b.name: b for b in list_backups(tmp_path / "backups")}
    before = found["grill-20261202T090100Z-before-0002_notes.db"]
    assert before.reason == "before-0002_notes"
    conn = sqlite3.connect(before.path)
    names = [r[0] for r in conn.execute("SELECT name FROM migrations")]
    conn.close()
    assert names == [m.name for m in MIGRATIONS]  # the schema as it was before


def test_a_damaged_file_is_never_copied_over_a_good_backup(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    with Store.open(path) as store:
        for i in range(300):
            _review(store, f"c{i}", answer="some answer text " * 20)
    good = list_backups(tmp_path / "backups")
    conn = sqlite3.connect(path)  # damage one page in the middle of the file
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 4096] = os.urandom(4096)
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged"):
        Store.open(path, now=T0 + timedelta(days=1))
    assert list_backups(tmp_path / "backups") == good


# ------------------------------------------------------------------ doctor


def test_doctor_reports_a_sound_database(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 3)
    _with_history(path, 1, T0 + timedelta(days=1))
    health = doctor.check(path, known={("d", "c0"), ("d", "c1")})
    assert health.ok and health.problems == ()
    assert health.schema == tuple(m.name for m in MIGRATIONS) and health.pending == ()
    assert (health.reviews, health.cards, health.orphans) == (4, 3, 1)
    assert [b.name for b in health.backups] == ["grill-20261203T090000Z.db"]


def test_doctor_restores_the_newest_backup_and_keeps_the_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 3)
    _with_history(path, 1, T0 + timedelta(days=1))  # backed up with 3 reviews, then a 4th
    path.write_bytes(b"garbage" * 1000)
    assert not doctor.check(path).ok
    done = doctor.restore(path, now=T0 + timedelta(days=1, hours=1))
    assert done.backup.name == "grill-20261203T090000Z.db"
    assert [p.name for p in done.moved][0] == "grill.db.broken-20261203T100000Z"
    assert done.moved[0].read_bytes() == b"garbage" * 1000  # kept, not deleted
    with Store.open(path) as store:
        assert len(store.reviews()) == 3
    assert doctor.check(path).ok


def test_doctor_restores_a_named_backup_and_refuses_unknown_names(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 1)
    _with_history(path, 1, T0 + timedelta(days=1))
    _with_history(path, 1, T0 + timedelta(days=2))
    done = doctor.restore(path, "grill-20261203T090000Z", now=T0 + timedelta(days=3))
    assert done.backup.name == "grill-20261203T090000Z.db" and _count(path) == 1
    with pytest.raises(NotFoundError, match="no backup named 'nope'"):
        doctor.restore(path, "nope")


def test_doctor_refuses_to_restore_a_damaged_backup(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    _with_history(path, 1)
    _with_history(path, 1, T0 + timedelta(days=1))
    newest = list_backups(tmp_path / "backups")[-1]
    newest.path.write_bytes(b"not sqlite" * 500)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is damaged too"):
        doctor.restore(path)
    assert path.read_bytes() == before


# ------------------------------------------------------------------ answers and the data folder


def test_a_huge_answer_is_refused_and_nothing_is_written(store_path: Path) -> None:
    with Store.open(store_path) as store:
        with pytest.raises(UsageError, match="10,000 characters"):
            _review(store, "c1", answer="x" * (MAX_ANSWER_CHARS + 1))
        assert store.reviews() == []
        assert _review(store, "c1", answer="y" * MAX_ANSWER_CHARS).answer == "y" * MAX_ANSWER_CHARS


def test_any_text_is_stored_cleaned_and_read_back(store_path: Path) -> None:
    raw = "naïve 学习 🙂\x00\x1b[31mred\x1b[0m\r\nline\ttab \udcff end"
    with Store.open(store_path) as store:
        review = _review(store, "c1", answer=raw)
    assert review.answer == "naïve 学习 🙂[31mred[0m\nline\ttab \ufffd end"


def test_a_data_folder_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder")
    with pytest.raises(StoreError) as caught:
        Store.open(blocker / "home" / "grill.db")
    message = str(caught.value)
    assert "cannot open the database" in message and "Not a directory" in message
    assert "set GRILL_HOME to a folder you can write to" in message


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "grill.db"


def test_rotation_removes_what_a_killed_backup_left_behind_only_when_stale(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    stale, fresh = folder / ".grill-20261201T090000Z.db.123.tmp", folder / ".grill-x.db.9.tmp"
    for tmp in (stale, fresh):
        tmp.write_bytes(b"half a backup")
    hours_ago = time.time() - 2 * 3600
    os.utime(stale, (hours_ago, hours_ago))
    assert rotate(folder) == [stale]
    assert fresh.exists() and not stale.exists()


def test_rotation_removes_the_journal_an_interrupted_backup_left_beside_its_copy(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    copy = folder / ".grill-20261201T090000Z.db.123.tmp"
    journal = copy.with_name(copy.name + "-journal")
    live = folder / ".grill-x.db.9.tmp-journal"
    for tmp in (copy, journal, live):
        tmp.write_bytes(b"half a backup")
    hours_ago = time.time() - 2 * 3600
    for tmp in (copy, journal):
        os.utime(tmp, (hours_ago, hours_ago))
    assert sorted(rotate(folder)) == sorted([copy, journal])
    assert live.exists()

"""The SQLite store: migrations, one-transaction reviews, exact undo, history by id, orphans."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from grill.errors import StoreError
from grill.model import CardState, Mode, Rating, Review, SessionStatus, Verdict
from grill.scheduler import Scheduler
from grill.store import Store
from grill.store.migrations import MIGRATIONS

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCHED = Scheduler(enable_fuzzing=False)


def _review(store: Store, card: str, rating: Rating, at: datetime, **kw: Any) -> Review:
    """Review card `card` of deck `d` as the drill does: FSRS from the stored state."""

    def schedule(prior: CardState | None) -> CardState:
        state = prior or SCHED.new_state("d", card, at)
        return replace(SCHED.review(state, rating, at), content_hash=kw.get("content_hash", ""))

    return store.record_review("d", card, reviewed_at=at, rating=rating, schedule=schedule, **kw)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "grill.db") as s:
        yield s


def test_open_creates_the_folder_applies_migrations_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "grill.db"
    with Store.open(path) as store:
        assert store.schema == [m.name for m in MIGRATIONS]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"cards", "reviews", "sessions", "migrations"} <= tables
    conn.close()
    with Store.open(path) as again:  # reopening applies nothing twice
        assert again.schema == [m.name for m in MIGRATIONS]


def test_the_default_path_is_in_grill_home(grill_home: Path) -> None:
    with Store.open() as store:
        assert store.path == grill_home / "grill.db"
    assert (grill_home / "grill.db").is_file()


def test_a_database_from_a_newer_grill_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO migrations (name, applied_at) VALUES ('0099_future', 'x')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer grill"):
        Store.open(path)


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    path.write_text("hello, this is not sqlite" * 100)
    with pytest.raises(StoreError, match="grill.db"):
        Store.open(path)


def test_an_error_the_sqlite3_module_raises_itself_is_a_store_error(tmp_path: Path) -> None:
    """A closed connection raises a ProgrammingError, which carries no SQLite result code."""
    store = Store.open(tmp_path / "grill.db")
    store.close()
    with pytest.raises(StoreError, match="cannot read the review log: Cannot operate on a closed"):
        store.reviews()


def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    from grill.store.migrations import Migration

    path = tmp_path / "grill.db"
    Store.open(path).close()
    bad = Migration("0002_bad", ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL"))
    store = Store.open(path)
    with pytest.raises(StoreError, match="0002_bad"):
        store._migrate((*MIGRATIONS, bad))
    assert store.schema == [m.name for m in MIGRATIONS]
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name='extra'").fetchone() == (0,)
    conn.close()
    store.close()


def test_record_review_logs_and_stores_the_new_state_together(store: Store) -> None:
    assert store.state("d", "c1") is None
    review = _review(
        store,
        "c1",
        Rating.GOOD,
        T0,
        verdict=Verdict.CORRECT,
        answer="lr too high",
        response_ms=4200,
        mode=Mode.DRILL,
        content_hash="h1",
    )
    state = store.state("d", "c1")
    expected = SCHED.review(SCHED.new_state("d", "c1", T0), Rating.GOOD, T0)
    assert state == replace(expected, content_hash="h1")
    assert state.last_review == T0 and state.content_hash == "h1"
    [logged] = store.history("d", "c1")
    assert logged == review
    assert (logged.rating, logged.verdict, logged.answer, logged.response_ms) == (
        Rating.GOOD,
        Verdict.CORRECT,
        "lr too high",
        4200,
    )
    assert logged.before is None and logged.after == state and logged.first


def test_a_failing_schedule_writes_nothing(store: Store) -> None:
    def broken(prior: CardState | None) -> CardState:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        store.record_review("d", "c1", reviewed_at=T0, rating=Rating.GOOD, schedule=broken)
    assert store.history("d", "c1") == [] and store.state("d", "c1") is None


def test_log_only_reviews_do_not_touch_state(store: Store) -> None:
    _review(store, "c1", Rating.GOOD, T0)
    before = store.state("d", "c1")
    store.record_review(
        "d",
        "c1",
        reviewed_at=T0 + timedelta(hours=1),
        rating=Rating.AGAIN,
        schedule=None,
        mode=Mode.CASE,
    )
    assert store.state("d", "c1") == before
    assert [r.mode for r in store.history("d", "c1")] == [Mode.DRILL, Mode.CASE]
    store.undo_last()
    assert store.state("d", "c1") == before


def test_undo_restores_the_exact_prior_state_and_is_repeatable(store: Store) -> None:
    _review(store, "c1", Rating.GOOD, T0, content_hash="h1")
    s1 = store.state("d", "c1")
    _review(store, "c1", Rating.GOOD, T0 + timedelta(minutes=10), content_hash="h1")
    s2 = store.state("d", "c1")
    _review(store, "c1", Rating.AGAIN, T0 + timedelta(days=2), content_hash="h2")
    assert store.state("d", "c1") != s2

    undone = store.undo_last()
    assert undone is not None and undone.rating == Rating.AGAIN
    assert store.state("d", "c1") == s2
    assert store.undo_last() is not None
    assert store.state("d", "c1") == s1
    assert store.undo_last() is not None
    assert store.state("d", "c1") is None  # back to never studied
    assert store.history("d", "c1") == []
    assert store.undo_last() is None


def test_floats_and_times_survive_the_round_trip_bit_for_bit(store: Store) -> None:
    at = T0 + timedelta(microseconds=123457)
    _review(store, "c1", Rating.HARD, at)
    expected = SCHED.review(SCHED.new_state("d", "c1", at), Rating.HARD, at)
    assert store.state("d", "c1") == expected


def test_undo_within_a_session_only_takes_back_that_sessions_reviews(store: Store) -> None:
    mine = store.start_session(Mode.DRILL, T0)
    _review(store, "c1", Rating.GOOD, T0, session_id=mine.id)
    _review(store, "c2", Rating.GOOD, T0 + timedelta(seconds=5))  # e.g. `grill review`
    undone = store.undo_last(session_id=mine.id)
    assert undone is not None and undone.card_id == "c1"
    assert store.state("d", "c1") is None and store.state("d", "c2") is not None
    assert store.undo_last(session_id=mine.id) is None


def test_undo_refuses_to_skip_a_later_review_of_the_same_card(store: Store) -> None:
    mine = store.start_session(Mode.DRILL, T0)
    _review(store, "c1", Rating.GOOD, T0, session_id=mine.id)
    _review(store, "c1", Rating.GOOD, T0 + timedelta(minutes=10))
    with pytest.raises(StoreError, match="reviewed again"):
        store.undo_last(session_id=mine.id)
    assert len(store.history("d", "c1")) == 2


def test_history_follows_the_id_when_the_text_changes(store: Store) -> None:
    _review(store, "c1", Rating.GOOD, T0, content_hash="old-text")
    _review(store, "c1", Rating.GOOD, T0 + timedelta(days=1), content_hash="new-text")
    history = store.history("d", "c1")
    assert [r.content_hash for r in history] == ["old-text", "new-text"]
    assert history[1].before == history[0].after


def test_reviews_in_a_time_range(store: Store) -> None:
    for day in range(4):
        _review(store, f"c{day}", Rating.GOOD, T0 + timedelta(days=day))
    found = store.reviews(since=T0 + timedelta(days=1), until=T0 + timedelta(days=3))
    assert [r.card_id for r in found] == ["c1", "c2"]
    assert [r.card_id for r in store.reviews(mode=Mode.MOCK)] == []
    assert len(store.reviews()) == 4


def test_orphans_are_listed_with_their_history(store: Store) -> None:
    _review(store, "kept", Rating.GOOD, T0)
    _review(store, "gone", Rating.GOOD, T0)
    _review(store, "gone", Rating.AGAIN, T0 + timedelta(minutes=10))
    store.record_review(
        "d", "old-case", reviewed_at=T0, rating=Rating.GOOD, schedule=None, mode=Mode.CASE
    )
    orphans = store.orphans({("d", "kept")})
    assert [(o.card_id, o.reviews) for o in orphans] == [("gone", 2), ("old-case", 1)]
    assert orphans[0].last_review == T0 + timedelta(minutes=10)
    assert orphans[0].state is not None and orphans[1].state is None
    assert store.orphans({("d", "kept"), ("d", "gone"), ("d", "old-case")}) == []


def test_states_lists_every_studied_card(store: Store) -> None:
    _review(store, "b", Rating.GOOD, T0)
    _review(store, "a", Rating.EASY, T0)
    states = store.states()
    assert list(states) == [("d", "a"), ("d", "b")]
    assert store.states(deck="other") == {}


def test_sessions_start_and_finish_with_a_summary(store: Store) -> None:
    started = store.start_session(Mode.MOCK, T0)
    assert started.status == SessionStatus.OPEN and started.ended_at is None
    done = store.finish_session(
        started.id,
        T0 + timedelta(minutes=5),
        status=SessionStatus.INTERRUPTED,
        summary={"score": 12},
    )
    assert done.status == SessionStatus.INTERRUPTED
    assert done.ended_at == T0 + timedelta(minutes=5) and done.summary == {"score": 12}
    assert [s.id for s in store.sessions(Mode.MOCK)] == [started.id]
    assert store.sessions(Mode.DRILL) == []
    with pytest.raises(StoreError):
        store.session(999)


def test_two_stores_on_one_database_see_each_others_reviews(tmp_path: Path) -> None:
    path = tmp_path / "grill.db"
    with Store.open(path) as a, Store.open(path) as b:
        _review(a, "c1", Rating.GOOD, T0)
        # b schedules from the state a wrote, read inside b's own transaction
        _review(b, "c1", Rating.GOOD, T0 + timedelta(minutes=10))
        assert [r.before is None for r in a.history("d", "c1")] == [True, False]
        assert a.state("d", "c1") == b.state("d", "c1")

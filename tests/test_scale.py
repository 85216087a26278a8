"""What keeps grill fast with many cards and a long log gives the same answers as the slow way:
orphans without scanning the log, due states through the index, reviews counted in SQL, and
a query plan that uses the indexes. (Speed itself is measured by scripts/bench, not here.)"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from grill.model import CardState, Mode, Orphan, Rating, Verdict
from grill.scheduler import Scheduler
from grill.store import Store, from_db_time

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCHED = Scheduler(enable_fuzzing=False)
KEYS = [(deck, f"c{i}") for deck in ("a", "b") for i in range(6)]


def _record(
    store: Store, key: tuple[str, str], at: datetime, scheduled: bool, session: int
) -> None:
    def schedule(prior: CardState | None) -> CardState:
        state = prior or SCHED.new_state(key[0], key[1], at)
        return SCHED.review(state, Rating.GOOD, at)

    store.record_review(
        key[0],
        key[1],
        reviewed_at=at,
        rating=Rating.GOOD,
        schedule=schedule if scheduled else None,
        mode=Mode.DRILL if scheduled else Mode.MOCK,
        session_id=session,
    )


def _orphans_by_scanning(path: Path, known: set[tuple[str, str]]) -> list[Orphan]:
    """The plain definition: every card in the log or with a state, minus the known ones."""
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT deck, card_id, COUNT(*), MAX(reviewed_at) FROM reviews GROUP BY deck, card_id"
        " UNION ALL SELECT deck, card_id, 0, NULL FROM cards WHERE (deck, card_id) NOT IN"
        " (SELECT deck, card_id FROM reviews)"
    ).fetchall()
    conn.close()
    with Store.open(path) as store:
        found = [
            Orphan(d, c, n, None if last is None else from_db_time(last), store.state(d, c))
            for d, c, n, last in rows
            if (d, c) not in known
        ]
    return sorted(found, key=lambda o: (o.deck, o.card_id))


@pytest.mark.parametrize("seed", range(6))
def test_orphans_match_a_scan_of_the_whole_log_after_any_reviews_and_undos(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    path = tmp_path / "grill.db"
    with Store.open(path, now=T0) as store:
        sessions = [store.start_session(Mode.DRILL, T0).id for _ in range(3)]
        at = T0
        for _ in range(120):
            at += timedelta(minutes=rng.randint(1, 600))
            if rng.random() < 0.25:
                try:
                    store.undo_last(session_id=rng.choice([None, *sessions]))
                except Exception:  # the card was reviewed again since: not undoable, fine
                    pass
            else:
                # some cards only ever get log-only reviews (mock answers), some both kinds
                scheduled = rng.random() < 0.7
                key = rng.choice(KEYS[:8] if scheduled else KEYS[4:])
                _record(store, key, at, scheduled, rng.choice(sessions))
    for known in (set(), set(KEYS[::2]), set(KEYS)):
        with Store.open(path, now=T0) as store:
            fast = store.orphans(known)
        assert fast == _orphans_by_scanning(path, known)


def test_due_states_and_studied_keys_agree_with_every_state(tmp_path: Path) -> None:
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        for i, key in enumerate(KEYS):
            _record(
                store, key, T0 + timedelta(hours=i), True, store.start_session(Mode.DRILL, T0).id
            )
        every = store.states()
        moment = T0 + timedelta(hours=5)
        due = store.states(due_by=moment)
        assert store.studied() == set(every)
        assert due == {k: s for k, s in every.items() if s.due <= moment}
        assert 0 < len(due) < len(every)
        assert store.states("a", due_by=moment) == {k: s for k, s in due.items() if k[0] == "a"}


def test_reviews_are_counted_in_sql_as_the_review_objects_count_them(tmp_path: Path) -> None:
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        session = store.start_session(Mode.DRILL, T0).id
        for i, key in enumerate(KEYS * 2):
            _record(store, key, T0 + timedelta(hours=i), i % 5 != 0, session)
        for since in (None, T0 + timedelta(hours=7)):
            reviews = store.reviews(since=since)
            assert store.count_reviews(since=since) == len(reviews)
            assert store.count_reviews(since=since, first=True) == sum(r.first for r in reviews)


def test_grill_due_reads_through_indexes_and_never_scans_the_review_log(tmp_path: Path) -> None:
    """Every query `grill due` makes (plan, orphans, new cards today), as SQLite plans it."""
    from grill.deck import load_library
    from grill.session import DrillOptions, find_orphans, plan

    library = load_library(user_decks=False)
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        session = store.start_session(Mode.DRILL, T0).id
        for i, card in enumerate(library.cards()[:10]):
            _record(store, (card.deck, card.id), T0 + timedelta(hours=i), True, session)
        _record(store, ("gone", "x"), T0, False, session)
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        moment = T0 + timedelta(days=1)
        plan(store, library, DrillOptions(), moment)
        find_orphans(store, library)
        store._conn.set_trace_callback(None)
        plans = {
            sql: " / ".join(
                str(row[-1]) for row in store._conn.execute(f"EXPLAIN QUERY PLAN {sql}")
            )
            for sql in statements
            if sql.lstrip().upper().startswith(("SELECT", "WITH"))
        }
    assert any("cards_by_due" in p for p in plans.values()), plans
    assert any("reviews_unscheduled" in p for p in plans.values()), plans
    assert any("reviews_by_time" in p for p in plans.values()), plans
    scans = {sql: p for sql, p in plans.items() if "SCAN reviews" in p or "SCAN cards" in p}
    # the full reads allowed: the keys of the studied cards, from the primary key's index, and
    # the log-only reviews, from the partial index that holds only them
    allowed = ("SCAN cards USING COVERING INDEX sqlite_autoindex_cards", "reviews_unscheduled")
    assert all(any(a in p for a in allowed) for p in scans.values()), scans


ODD_TEXT = [
    'say "clip" \\ then',
    "two\nlines\tand a tab",
    "é, 漢字, 🙂 and \u2028 a separator",
    "",
    None,
    "=HYPERLINK(1)",  # what a spreadsheet would run: neutralised in the CSV
    "  -2, with a comma",
    "\tstarts with a tab",
    "@at, then\r\na CRLF",
    'ends with a quote"',
]


def _odd_log(store: Store, cards: list[tuple[str, str]]) -> None:
    """Reviews with every kind of value the export must carry exactly."""
    session = store.start_session(Mode.DRILL, T0).id
    keys = [*cards, ('odd "deck"', "odd\\card"), ("odd,deck", "=card"), ("gone", "x")]
    for i in range(40):
        deck, card = keys[i % len(keys)]
        at = T0 + timedelta(hours=i, microseconds=0 if i % 3 else 123_456)
        scheduled = i % 4 != 0
        store.record_review(
            deck,
            card,
            reviewed_at=at,
            rating=Rating(1 + i % 4),
            verdict=None if i % 5 == 0 else Verdict(i % 3),
            answer=ODD_TEXT[i % len(ODD_TEXT)],
            response_ms=None if i % 6 == 0 else 1000 + i,
            mode=Mode.DRILL if scheduled else Mode.MOCK,
            session_id=None if i % 7 == 0 else session,
            schedule=(
                lambda p, at=at, d=deck, c=card: SCHED.review(
                    p or SCHED.new_state(d, c, at), Rating.GOOD, at
                )
            )
            if scheduled
            else None,
        )


def test_the_log_exported_by_sqlite_is_the_log_rows_python_builds(tmp_path: Path) -> None:
    from grill.deck import load_library
    from grill.report.data import iter_log
    from grill.report.logformat import json_around, json_sql

    library = load_library(user_decks=False)
    numbers = {(c.deck, c.id): c.n for c in library.cards()}
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        _odd_log(store, [(c.deck, c.id) for c in library.cards()[:3]])
        expected = [row.to_dict() for row in iter_log(store, library)]
        for chunk in (3, 7, 20_000):  # ids split across chunks come out in order
            for workers in (1, 2, 3):  # built by that many processes, written in order
                chunks = store.export_log(
                    json_sql(), numbers, json_around(""), chunk=chunk, workers=workers
                )
                text = b",\n".join(chunks)
                assert json.loads(b"[" + text + b"]") == expected, (chunk, workers)
    assert len(expected) == 40 and {r["n"] for r in expected} > {None}


def test_the_streamed_json_report_is_the_report_built_in_memory(
    grill_home: Path, tmp_path: Path
) -> None:
    from grill.config import Settings
    from grill.deck import load_library
    from grill.report import gather, render, write_report

    library = load_library(user_decks=False)
    with Store.open(now=T0) as store:
        _odd_log(store, [(c.deck, c.id) for c in library.cards()[:5]])
        whole = gather(store, library, Settings(), T0 + timedelta(days=2))
        light = gather(store, library, Settings(), T0 + timedelta(days=2), log=False)
        for fmt in ("json", "csv"):
            path = tmp_path / f"report.{fmt}"
            write_report(light, path, store=store, library=library)
            assert path.read_bytes() == render(whole, fmt).encode()
    assert light.log == () and len(whole.log) == 40


@pytest.mark.parametrize(
    "tz",
    [
        UTC,
        timezone(timedelta(hours=5, minutes=45)),
        timezone(timedelta(hours=-3, minutes=-30)),
        timezone(timedelta(minutes=7, seconds=30)),
        ZoneInfo("America/New_York"),  # not a fixed offset: counted from every review's time
    ],
)
def test_reviews_per_study_day_counted_in_sql_match_the_days_of_every_review(
    tmp_path: Path, tz: tzinfo
) -> None:
    from grill.clock import study_day
    from grill.report.data import _day_counts

    rng = random.Random(7)
    now = datetime(2026, 12, 2, 9, 0, tzinfo=tz)
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        session = store.start_session(Mode.DRILL, T0).id
        moments = [now - timedelta(seconds=rng.randint(0, 40 * 86400)) for _ in range(150)]
        for day in range(3):  # the rollover itself, and the last microsecond before it
            four = study_day(now) - timedelta(days=day)
            moments += [four, four - timedelta(microseconds=1)]
        for at in sorted(moments):
            _record(store, rng.choice(KEYS), at, True, session)
        expected = Counter(study_day(at.astimezone(tz)).date() for at in moments)
        assert dict(_day_counts(store, now)) == dict(expected)


def _plans(store: Store, run: Callable[[], object]) -> dict[str, str]:
    """SQLite's plan of every SELECT that `run` makes on the store's connection."""
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    try:
        run()
    finally:
        store._conn.set_trace_callback(None)
    return {
        sql: " / ".join(str(row[-1]) for row in store._conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        for sql in statements
        if sql.lstrip().upper().startswith("SELECT")
    }


def test_the_report_reads_the_log_through_indexes_except_to_count_it(tmp_path: Path) -> None:
    from grill import personal
    from grill.config import Settings
    from grill.deck import load_library
    from grill.report import gather

    library = load_library(user_decks=False)
    with Store.open(tmp_path / "grill.db", now=T0) as store:
        _odd_log(store, [(c.deck, c.id) for c in library.cards()[:5]])
        # a stale memory fit reads the whole log once to refit (grill.personal); fresh, it is read
        personal.refit(store, T0)
        plans = _plans(store, lambda: gather(store, library, Settings(), T0, log=False))
    scans = {sql: p for sql, p in plans.items() if "SCAN reviews" in p}
    assert list(scans) == ["SELECT COUNT(*) FROM reviews WHERE 1 = 1"], scans

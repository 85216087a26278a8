"""A large, seeded grill home for measuring scale: many deck files and a long review history.

`ensure(spec)` returns a GRILL_HOME holding `decks/*.yaml` (spec.cards cards in spec.decks
files, beside the built-in deck) and `grill.db` with spec.reviews reviews spread over spec.days
study days, one drill session a day, a mock interview every two weeks, the cards table holding
each studied card's state after its last review, and spec.due_now cards due at spec.now. The
same spec always gives the same bytes. The home is cached under `.bench/fixture-<key>/`, where
the key hashes the spec, GENERATOR_VERSION and the store's migrations, so a second run reuses it
and a change to any of them builds a new one (older fixtures are removed).

The decks are written as YAML by hand (strings JSON-quoted, which YAML reads as double-quoted
scalars) and the history is inserted with executemany in one transaction, after `Store.open` has
made the schema: generating 20,000 cards and 1,000,000 reviews takes about a minute.

Usage by hand: `scripts/bench --fixture-only` prints the path of the home.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
import sys
import time
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from itertools import accumulate
from pathlib import Path

from grill.deck import load_deck, load_library
from grill.model import Card, Point, Rubric
from grill.store import Store
from grill.store.migrations import MIGRATIONS

__all__ = ["GENERATOR_VERSION", "FixtureSpec", "ensure", "generate", "make_decks"]

GENERATOR_VERSION = 1
"""Bump when the generator's output changes, so cached fixtures are rebuilt."""

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".bench"
SECTIONS = "ABCDEFGH"
RATING_WEIGHTS = (0.08, 0.12, 0.70, 0.10)  # again, hard, good, easy


@dataclass(frozen=True)
class FixtureSpec:
    """What to generate. Every field is part of the cache key."""

    seed: int = 20261202
    cards: int = 20_000
    decks: int = 8
    reviews: int = 1_000_000
    studied: float = 0.8
    """The share of the generated cards with history; the built-in deck is studied too."""
    due_now: int = 200
    days: int = 730
    now: str = "2026-12-02T09:00:00+00:00"

    @property
    def key(self) -> str:
        payload = json.dumps(
            [asdict(self), GENERATOR_VERSION, [m.name for m in MIGRATIONS]], sort_keys=True
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    @property
    def moment(self) -> datetime:
        return datetime.fromisoformat(self.now)


def ensure(spec: FixtureSpec, *, log: bool = True) -> Path:
    """The GRILL_HOME for `spec`, generated on first use and cached under .bench/."""
    folder = CACHE / f"fixture-{spec.key}"
    home = folder / "home"
    if (folder / "complete.json").exists():
        return home
    for old in CACHE.glob("fixture-*"):
        shutil.rmtree(old, ignore_errors=True)
    started = time.perf_counter()
    if log:
        print(f"bench: generating {spec} into {folder} (once)...", file=sys.stderr)
    generate(spec, home)
    (folder / "complete.json").write_text(json.dumps(asdict(spec), indent=2) + "\n")
    if log:
        print(f"bench: fixture ready in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return home


def generate(spec: FixtureSpec, home: Path) -> None:
    """Write the decks and the database of `spec` into `home` (which must not hold them yet)."""
    rng = random.Random(spec.seed)
    cards = make_decks(spec, home / "decks", rng)
    builtin = load_library(user_decks=False).cards()
    _check_hashes(home / "decks", cards)
    history = [(c.deck, c.id, c.content_hash) for c in builtin]
    chosen = sorted(rng.sample(range(len(cards)), round(len(cards) * spec.studied)))
    history += [(cards[i].deck, cards[i].id, cards[i].content_hash) for i in chosen]
    db = home / "grill.db"
    Store.open(db, now=spec.moment).close()  # the schema, exactly as grill makes it
    _fill(db, spec, history, rng)
    # the day's backup is taken now, once, rather than by the first measured command
    Store.open(db, now=spec.moment).close()


# ---------------------------------------------------------------- decks


def _vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    consonants, vowels = "bcdfghklmnprstvz", "aeiou"
    words: set[str] = set()
    while len(words) < size:
        syllables = rng.randint(2, 4)
        words.add("".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(syllables)))
    return sorted(words)


def _sentence(rng: random.Random, words: list[str], lo: int, hi: int) -> str:
    return " ".join(rng.choices(words, k=rng.randint(lo, hi)))


def _card(rng: random.Random, words: list[str], deck: str, n: int) -> Card:
    points = tuple(
        Point(
            id=f"p{k + 1}",
            says=_sentence(rng, words, 3, 6),
            match=tuple(_sentence(rng, words, 2, 3) for _ in range(rng.randint(1, 2))),
        )
        for k in range(rng.randint(2, 4))
    )
    return Card(
        id=f"{deck}-{n:05d}",
        n=n,
        section=rng.choice(SECTIONS),
        question=_sentence(rng, words, 6, 14) + "?",
        answer=_sentence(rng, words, 5, 12),
        explanation=_sentence(rng, words, 40, 80),
        rubric=Rubric(points=points),
        deck=deck,
    )


def make_decks(spec: FixtureSpec, folder: Path, rng: random.Random) -> list[Card]:
    """Write spec.cards cards as spec.decks YAML files into `folder`; return the cards."""
    folder.mkdir(parents=True, exist_ok=True)
    words = _vocabulary(rng)
    cards: list[Card] = []
    for d in range(spec.decks):
        name = f"bench-{d + 1:02d}"
        count = spec.cards // spec.decks + (d < spec.cards % spec.decks)
        deck = [_card(rng, words, name, n) for n in range(1, count + 1)]
        (folder / f"{name}.yaml").write_text(_deck_yaml(name, deck), encoding="utf-8")
        cards += deck
    return cards


def _deck_yaml(name: str, cards: list[Card]) -> str:
    q = json.dumps  # a JSON string is a YAML double-quoted scalar
    lines = [f"deck: {name}", f"title: {q('Generated deck ' + name)}", "sections:"]
    lines += [f"- key: {s}\n  title: {q('Section ' + s)}" for s in SECTIONS]
    lines.append("cards:")
    for c in cards:
        lines += [
            f"- id: {c.id}",
            f"  n: {c.n}",
            f"  section: {c.section}",
            f"  question: {q(c.question)}",
            f"  answer: {q(c.answer)}",
            f"  explanation: {q(c.explanation)}",
            "  rubric:",
            "    points:",
        ]
        for p in c.rubric.points:
            lines += [f"    - id: {p.id}", f"      says: {q(p.says)}", "      match:"]
            lines += [f"      - {q(m)}" for m in p.match]
    return "\n".join(lines) + "\n"


def _check_hashes(folder: Path, cards: list[Card]) -> None:
    """The first deck, read back by grill, has the cards (and content hashes) we generated."""
    first = sorted(folder.glob("*.yaml"))[0]
    loaded = {c.id: c.content_hash for c in load_deck(first).cards}
    mine = {c.id: c.content_hash for c in cards if c.id in loaded}
    if loaded != mine:
        raise SystemExit(f"bench: {first} does not read back as generated")


# ---------------------------------------------------------------- history

_REVIEW_COLUMNS = (
    "id, deck, card_id, reviewed_at, rating, verdict, answer, response_ms, mode, session_id,"
    " content_hash, prior_state, prior_step, prior_stability, prior_difficulty, prior_due,"
    " prior_last_review, prior_content_hash, after_state, after_step, after_stability,"
    " after_difficulty, after_due, after_last_review, after_content_hash"
)
_CARD_COLUMNS = "deck, card_id, state, step, stability, difficulty, due, last_review, content_hash"


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="microseconds")


@dataclass
class _Plan:
    """When each studied card was reviewed (epoch seconds, oldest first), its final due time,
    and the day of each review: session start times, newest day (0 = today) last."""

    times: list[list[float]]
    final_due: list[float]
    starts: list[float]
    """The start of each day's session, oldest first: `starts[j]` is `len(starts) - 1 - j` days
    ago. Sessions never cross a day, so the newest start at or before a review is its day."""

    def day(self, t: float) -> int:
        """How many days ago the review at `t` was made."""
        return len(self.starts) - bisect_right(self.starts, t)


def _schedule(
    spec: FixtureSpec, count: int, rng: random.Random
) -> tuple[_Plan, list[tuple[float, int, int]]]:
    """Review times for `count` cards (introduced in order, older ones reviewed more), sorted
    into one log as (time, card, k-th review of that card)."""
    now = spec.moment.timestamp()
    today = spec.moment.replace(hour=4, minute=0, second=0, microsecond=0).timestamp()
    # one session a day: today's ends before `now`, other days' start between 6 am and 9 pm
    starts = [
        today - ago * 86400 + rng.uniform(2, 17) * 3600 for ago in range(spec.days - 1, 0, -1)
    ]
    starts.append(today + 3600 + rng.uniform(0, 1800))
    length = min(3600.0, now - 600 - starts[-1])
    intro = [spec.days - 1 - (i * spec.days) // count for i in range(count)]
    weights = list(accumulate(a + 1 for a in intro))
    per_card = [1] * count
    for i in rng.choices(range(count), cum_weights=weights, k=max(0, spec.reviews - count)):
        per_card[i] += 1
    times: list[list[float]] = []
    events: list[tuple[float, int, int]] = []
    for i in range(count):
        later = (rng.randint(0, intro[i]) for _ in range(per_card[i] - 1))
        days = [intro[i], *later]
        card_times = sorted(starts[-1 - d] + rng.uniform(0, length) for d in days)
        times.append(card_times)
        events += [(t, i, k) for k, t in enumerate(card_times)]
    events.sort()
    due_now = set(rng.sample(range(count), min(spec.due_now, count)))
    final_due = [
        max(t[-1] + 60, now - rng.uniform(60, 2 * 86400))
        if i in due_now
        else now + rng.uniform(3600, 90 * 86400)
        for i, t in enumerate(times)
    ]
    return _Plan(times, final_due, starts), events


def _state(i: int, k: int, last: bool, rating: int, t: float, due: float, h: str) -> tuple:
    """A plausible stored state (phase, step, stability, difficulty, due, last, hash)."""
    if last or k > 0 and rating != 1:
        phase, step = 2, None
    elif k == 0:
        phase, step = 1, 1
    else:
        phase, step = 3, 0
    stability = round(min(365.0, 0.4 * 1.7 ** min(k, 12) * (0.6 + (i % 9) / 10)), 4)
    difficulty = round(min(10.0, max(1.0, 2 + (i % 13) / 2 + ((k * 7919 + i) % 7 - 3) / 6)), 4)
    return (phase, step, stability, difficulty, _iso(due), _iso(t), h)


def _rows(
    plan: _Plan,
    events: list[tuple[float, int, int]],
    history: list[tuple[str, str, str]],
    session_of: dict[int, int],
    rng: random.Random,
) -> Iterator[tuple[object, ...]]:
    words = _vocabulary(random.Random(1), 400)
    prior: list[tuple | None] = [None] * len(history)
    for review_id, (t, i, k) in enumerate(events, 1):
        deck, card_id, h = history[i]
        card_times = plan.times[i]
        last = k == len(card_times) - 1
        rating = rng.choices((1, 2, 3, 4), weights=RATING_WEIGHTS)[0]
        due = plan.final_due[i] if last else t + (card_times[k + 1] - t) * 0.98
        after = _state(i, k, last, rating, t, due, h)
        verdict = (0, 1, 2, 2)[rating - 1]
        answer = " ".join(rng.choices(words, k=rng.randint(3, 14)))
        before = prior[i] or (None,) * 7
        yield (
            review_id, deck, card_id, _iso(t), rating, verdict, answer,
            rng.randint(4000, 60000), "drill", session_of[plan.day(t)], h,
            *before, *after,
        )  # fmt: skip
        prior[i] = after


def _fill(
    db: Path, spec: FixtureSpec, history: list[tuple[str, str, str]], rng: random.Random
) -> None:
    plan, events = _schedule(spec, len(history), rng)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        session_of = _insert_sessions(conn, plan, rng)
        conn.executemany(
            f"INSERT INTO reviews ({_REVIEW_COLUMNS}) VALUES ({', '.join('?' * 25)})",
            _rows(plan, events, history, session_of, rng),
        )
        conn.execute(
            f"INSERT INTO cards ({_CARD_COLUMNS}) SELECT deck, card_id, after_state, after_step,"
            " after_stability, after_difficulty, after_due, after_last_review, after_content_hash"
            " FROM reviews WHERE id IN (SELECT MAX(id) FROM reviews GROUP BY deck, card_id)"
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _insert_sessions(conn: sqlite3.Connection, plan: _Plan, rng: random.Random) -> dict[int, int]:
    """A drill session for each day with reviews (oldest first), and a mock every 14 days."""
    spans: dict[int, tuple[float, float]] = {}
    for card_times in plan.times:
        for t in card_times:
            first, last = spans.get(plan.day(t), (t, t))
            spans[plan.day(t)] = (min(first, t), max(last, t))
    session_of = {}
    for ago in sorted(spans, reverse=True):
        first, last = spans[ago]
        cursor = conn.execute(
            "INSERT INTO sessions (mode, started_at, ended_at, status, summary)"
            " VALUES ('drill', ?, ?, 'done', '{}')",
            (_iso(first), _iso(last + 5)),
        )
        session_of[ago] = int(cursor.lastrowid or 0)
        if ago % 14 == 7:
            score = rng.randint(10, 40)
            summary = {"score": score, "asked": 45, "target": 28, "floor": 24,
                       "passed": score >= 28, "status": "done"}  # fmt: skip
            at = last + 3600
            conn.execute(
                "INSERT INTO sessions (mode, started_at, ended_at, status, summary)"
                " VALUES ('mock', ?, ?, 'done', ?)",
                (_iso(at), _iso(at + 2700), json.dumps(summary)),
            )
    return session_of

"""The bench's fixture generator (scripts/benchlib/fixture.py), at a small size: its decks load,
its log holds exactly the reviews asked for, and each card's stored state is the state its last
review left, so `scripts/bench` measures grill on data grill itself could have written."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from grill.deck import load_library
from grill.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from benchlib.fixture import FixtureSpec, generate  # noqa: E402

SPEC = FixtureSpec(cards=60, decks=3, reviews=900, due_now=7, days=30)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bench") / "home"
    with pytest.MonkeyPatch.context() as patch:  # set up before the per-test GRILL_HOME
        patch.setenv("GRILL_HOME", str(folder.parent / "generator-home"))
        generate(SPEC, folder)
    return folder


def test_the_generated_decks_load_beside_the_built_in_one(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRILL_HOME", str(home))
    library = load_library()
    generated = [d for d in library.decks if not d.builtin]
    assert len(generated) == SPEC.decks
    assert sum(len(d.cards) for d in generated) == SPEC.cards


def test_the_log_and_the_states_agree(home: Path) -> None:
    with Store.open(home / "grill.db", now=SPEC.moment) as store:
        reviews = store.reviews()
        states = store.states()
        assert len(reviews) == SPEC.reviews
        assert [r.id for r in reviews] == sorted(r.id for r in reviews)
        assert [r.reviewed_at for r in reviews] == sorted(r.reviewed_at for r in reviews)
        last = {r.key: r for r in reviews}
        assert states == {key: r.after for key, r in last.items()}
        for r in reviews:  # each review starts from the state the card's previous one left
            assert r.before is None or r.before.last_review < r.reviewed_at
        assert len(store.states(due_by=SPEC.moment)) == SPEC.due_now
        assert all(r.reviewed_at < SPEC.moment for r in reviews)
        assert max(Counter(r.session_id for r in reviews).values()) < SPEC.reviews


def test_the_answer_measurement_drives_the_drill_it_times(home: Path, tmp_path: Path) -> None:
    """`scripts/bench --only answer` runs the drill's own steps on the fixture (no timing is
    asserted here) and leaves the fixture's log as it found it."""
    from benchlib.measures import Context, answer

    def logged() -> int:
        with Store.open(home / "grill.db", now=SPEC.moment) as store:
            return len(store.reviews())

    before = logged()
    ctx = Context(runs=1, spec=SPEC, scratch=tmp_path, _homes={"large": home})
    (row,) = answer(ctx)
    assert row.measurement == "answer" and row.result in ("ok", "MISSED"), row
    assert logged() == before

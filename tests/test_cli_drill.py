"""The study commands as a script uses them: piped drills replayed over several days with
GRILL_NOW, due/review/undo/history/orphans, and what the database holds afterwards."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill.cli import app
from grill.cli import drill as drill_cli
from grill.errors import NotFoundError
from grill.model import Card, Grade, Phase, Rating, Verdict
from grill.store import Store

runner = CliRunner()
DAY1 = "2026-12-02T09:00:00+00:00"


def flat(text: str) -> str:
    """The output with line wrapping undone, for phrases that may wrap."""
    return " ".join(text.split())


def grill(*args: str, now: str = DAY1, input: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=input, env={"GRILL_NOW": now})
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.stdout


def due(now: str) -> dict[str, list[dict[str, object]]]:
    data: dict[str, list[dict[str, object]]] = json.loads(grill("due", "--json", now=now))
    return data


def _db(home: Path) -> Store:
    return Store.open(home / "grill.db")


def test_three_days_of_study_meet_all_45_cards(grill_home: Path) -> None:
    # each new card is asked twice on its first day (Good -> 10-minute step -> Good), so 15
    # new cards take 30 answers; rating 3 keeps the outcome independent of any grader.
    # Good twice gives a stability of ~2.3 days: day 1's cards are due again on day 3.
    days = ["2026-12-02T09:00:00+00:00", "2026-12-03T09:00:00+00:00", "2026-12-04T21:00:00+00:00"]
    expected = [
        ([], range(1, 16)),
        ([], range(16, 31)),
        (range(1, 16), range(31, 46)),
    ]
    for now, (due_ns, new_ns) in zip(days, expected, strict=True):
        plan = due(now)
        assert [c["n"] for c in plan["due"]] == list(due_ns)
        assert [c["n"] for c in plan["new"]] == list(new_ns)
        screen = grill("drill", now=now, input="my answer\n3\n" * 200)
        assert "session summary" in flat(screen)
        assert due(now) == {"due": [], "new": []}  # nothing left for today
    with _db(grill_home) as store:
        states = store.states()
        assert len(states) == 45
        assert {s.phase for s in states.values()} == {Phase.REVIEW}
        assert len(store.reviews()) == 3 * 30 + 15
        assert {r.answer for r in store.reviews()} == {"my answer"}
        day1, _, day3 = store.sessions()
        met_on_day1 = list(dict.fromkeys(r.card_id for r in store.reviews(session_id=day1.id)))
        shown_on_day3 = [r.card_id for r in store.reviews(session_id=day3.id)]
        assert shown_on_day3[:15] == met_on_day1  # due cards first, then the new ones
        assert len(store.history("training-behaviors", "loss-curve-phases")) == 3


def test_the_new_card_limit_resets_at_4am_local_time(grill_home: Path) -> None:
    grill("drill", "--new", "2", now="2026-12-02T22:00:00-05:00", input="a\n3\n" * 4)
    # 3:59 the next morning in the same zone: still the same study day
    assert len(due("2026-12-03T03:59:00-05:00")["new"]) == 13
    assert len(due("2026-12-03T04:00:00-05:00")["new"]) == 15


def test_due_json_has_due_and_new_with_id_n_deck_due() -> None:
    grill("review", "7", "--rating", "again")
    data = due("2026-12-02T09:05:00+00:00")
    assert data["due"] == [
        {
            "id": "warmup-why",
            "n": 7,
            "deck": "training-behaviors",
            "due": "2026-12-02T09:01:00+00:00",
        }
    ]
    assert data["new"][0] == {
        "id": "loss-curve-phases",
        "n": 1,
        "deck": "training-behaviors",
        "due": None,
    }
    assert len(data["new"]) == 14


def test_due_lists_the_oldest_twenty_and_counts_the_rest_unless_asked_for_all() -> None:
    for n in range(1, 26):
        grill("review", str(n), "--rating", "good", now=f"2026-12-02T09:{n:02d}:00+00:00")
    later = "2027-03-01T09:00:00+00:00"

    def due_rows(*args: str) -> tuple[list[int], str]:
        screen = grill("due", *args, now=later)
        due_table = screen.split("New today")[0]
        return [int(n) for n in re.findall(r"^│\s*(\d+) │", due_table, re.M)], flat(screen)

    listed, screen = due_rows()
    assert listed == list(range(1, 21))  # reviewed one minute apart: oldest first
    assert "Due now: 25" in screen
    assert "... and 5 more due: `grill due --all` lists them" in screen
    listed, screen = due_rows("--all")
    assert listed == list(range(1, 26)) and "more due" not in screen
    assert len(due(later)["due"]) == 25  # JSON always has every card


def test_options_new_limit_section_and_settings_file(grill_home: Path) -> None:
    assert [c["n"] for c in due(DAY1)["new"]][:3] == [1, 2, 3]
    section = json.loads(grill("due", "--json", "--section", "C"))
    assert {c["n"] for c in section["new"]} == {13, 14, 15, 16, 17}
    grill_home.mkdir(parents=True, exist_ok=True)
    (grill_home / "config.toml").write_text("new_per_day = 4\n")
    assert len(due(DAY1)["new"]) == 4
    assert len(json.loads(grill("due", "--json", "--new", "6"))["new"]) == 6
    screen = grill("drill", "--limit", "1", input="x\n3\nx\n3\n")
    assert "2 review(s) of 1 card(s), 1 new" in screen


def test_review_undo_and_history(grill_home: Path) -> None:
    assert "warmup-why (#7): good" in grill(
        "review", "warmup-why", "-r", "good", "--answer", "adam"
    )
    later = "2026-12-02T09:10:00+00:00"
    grill("review", "7", "-r", "hard", now=later)
    history = json.loads(grill("history", "7", "--json"))
    assert [(h["rating"], h["answer"]) for h in history] == [("good", "adam"), ("hard", None)]
    with _db(grill_home) as store:
        after_first = history[0]
        state = store.state("training-behaviors", "warmup-why")
        assert state is not None and state.due.isoformat() == history[1]["due"]
    assert "back to due 02 Dec 09:10" in flat(grill("undo"))
    with _db(grill_home) as store:
        state = store.state("training-behaviors", "warmup-why")
        assert state is not None and state.due.isoformat() == after_first["due"]
    assert "back to never studied" in flat(grill("undo"))
    result = runner.invoke(app, ["undo"], env={"GRILL_NOW": DAY1})
    assert isinstance(result.exception, NotFoundError)
    assert "nothing to undo" in str(result.exception)
    assert "never reviewed" in grill("history", "7")


def test_history_without_a_card_lists_the_latest_reviews_of_every_card(grill_home: Path) -> None:
    assert "No reviews yet" in grill("history")
    for n, (ref, rating) in enumerate((("7", "good"), ("1", "again"), ("7", "hard"))):
        grill("review", ref, "-r", rating, "--answer", f"try {n}", now=f"2026-12-02T09:0{n}:00Z")
    latest = json.loads(grill("history", "--json"))
    assert [(r["card"], r["rating"], r["answer"]) for r in latest] == [
        ("warmup-why", "good", "try 0"),
        ("loss-curve-phases", "again", "try 1"),
        ("warmup-why", "hard", "try 2"),
    ]
    assert [r["answer"] for r in json.loads(grill("history", "--last", "2", "--json"))] == [
        "try 1",
        "try 2",
    ]
    shown = flat(grill("history", "--last", "2"))
    assert "The latest 2 of 3 reviews" in shown
    assert "loss-curve-phases" in shown and "again" in shown and "try 0" not in shown


def test_an_evening_review_says_the_days_its_history_and_the_queue_keep(grill_home: Path) -> None:
    evening = "2026-12-02T18:45:00+00:00"
    said = flat(grill("review", "7", "-r", "easy", now=evening))
    days = int(said.split("(in ")[1].split("d)")[0])  # whole study days, not 9h or 6d 9h
    assert f"{days}d" in grill("history", "7", now=evening)
    # due from the start of that day: the evening session that day, earlier than 18:45, has it
    due_day = (datetime(2026, 12, 2, 17, 30, tzinfo=UTC) + timedelta(days=days)).isoformat()
    assert [c["id"] for c in due(due_day)["due"]] == ["warmup-why"]
    assert (
        due((datetime(2026, 12, 1, 17, 30, tzinfo=UTC) + timedelta(days=days)).isoformat())["due"]
        == []
    )


def test_bad_rating_and_unknown_card_are_usage_errors() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "grill", "review", "7", "--rating", "great"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "unknown rating 'great'" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = runner.invoke(app, ["history", "no-such-card"], env={"GRILL_NOW": DAY1})
    assert missing.exit_code != 0


USER_DECK = """\
deck: mine
title: My deck
sections:
- key: A
  title: Things
cards:
- id: adam-eps
  n: 1
  section: A
  question: {question}
  answer: It guards the division.
  rubric:
    points:
    - id: guard
      says: guards the division
      match:
      - division
"""


def test_history_follows_the_id_after_an_edit_and_orphans_keep_theirs(grill_home: Path) -> None:
    decks = grill_home / "decks"
    decks.mkdir(parents=True)
    deck_file = decks / "mine.yaml"
    deck_file.write_text(USER_DECK.format(question="What does Adam's eps do?"))
    grill("review", "mine/adam-eps", "-r", "good", "--answer", "first")
    deck_file.write_text(USER_DECK.format(question="Why does Adam need eps at all?"))
    grill(
        "review",
        "mine/adam-eps",
        "-r",
        "easy",
        "--answer",
        "second",
        now="2026-12-05T09:00:00+00:00",
    )
    shown = grill("history", "mine/adam-eps")
    assert "(older text) first" in shown and "second" in shown
    assert "(older text) second" not in shown

    deck_file.unlink()  # the card leaves every deck: its history stays, listed as orphaned
    orphans = json.loads(grill("orphans", "--json"))
    assert [(o["deck"], o["id"], o["reviews"]) for o in orphans] == [("mine", "adam-eps", 2)]
    assert "1 orphaned card(s)" in grill("due")
    assert "mine/adam-eps (orphaned)" in grill("history", "mine/adam-eps")
    assert [h["answer"] for h in json.loads(grill("history", "adam-eps", "--json"))] == [
        "first",
        "second",
    ]


def test_the_drill_shows_the_graders_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake(card: Card, answer: str) -> Grade:
        points = card.rubric.points
        return Grade(card.id, Verdict.PARTIAL, 0.5, points[:1], points[1:], (), answer, card.answer)

    monkeypatch.setattr(drill_cli, "_grader", lambda: fake)
    screen = grill("drill", "--new", "1", input="warmup\n\n")
    assert "~ partial" in screen and "proposed: hard" in screen
    assert "#1 · A Loss curves · tier 1-15" in screen


def test_grill_with_no_command_runs_todays_drill_and_piped_output_has_no_escapes(
    grill_home: Path,
) -> None:
    env = {**os.environ, "GRILL_NOW": DAY1, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.run(
        [sys.executable, "-m", "grill"],
        input="an answer\n2\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Healthy loss curve phases?" in proc.stdout
    assert "session summary" in proc.stdout
    assert "\x1b" not in proc.stdout
    with _db(grill_home) as store:
        [review] = store.reviews()
    assert (review.card_id, review.rating, review.answer) == (
        "loss-curve-phases",
        Rating.HARD,
        "an answer",
    )


def test_the_session_summary_ends_with_readiness_now_or_on_the_interview_day() -> None:
    screen = flat(grill("drill", "--new", "2", input="my answer\n3\n" * 4))
    # two cards just learned: cold means at least half a day after the answer was seen, so
    # they count a little under fully, with the uncertainty of a memory not yet fitted
    found = re.search(
        r"ready expected (\d\.\d)/45 cold \(80%: (\d\.\d)-(\d\.\d)\) · P\(≥28\) 0% "
        r"· if asked cold now",
        screen,
    )
    assert found, screen
    assert float(found[2]) <= float(found[1]) < float(found[3]) <= 2
    grill("config", "set", "interview_date", "2026-12-20")
    screen = flat(grill("drill", "--new", "0", now="2026-12-02T09:30:00+00:00", input="a\n3\n" * 4))
    found = re.search(
        r"ready expected (\d+\.\d)/45 cold \(80%: [\d.-]+\) · P\(≥28\) 0% · on Sun 20 Dec", screen
    )
    assert found, screen
    assert 0 < float(found[1]) < 45


def test_the_drills_options_work_without_the_drill_command(grill_home: Path) -> None:
    import typer.main

    from grill.cli import DRILL_OPTIONS, build_app, routed

    command = typer.main.get_command(build_app(["drill"])).commands["drill"]  # type: ignore[attr-defined]
    assert sorted(DRILL_OPTIONS) == sorted(
        o for p in command.params for o in p.opts if o != "--help"
    )
    assert routed(["--new", "3"]) == ["drill", "--new", "3"]
    assert routed(["--debug", "--limit=2", "--flip"]) == ["--debug", "drill", "--limit=2", "--flip"]
    assert routed(["stats", "--json"]) == ["stats", "--json"]
    assert routed(["--version"]) == ["--version"]
    proc = subprocess.run(
        [sys.executable, "-m", "grill", "--new", "1", "--limit", "1"],
        input="warmup, steady descent, plateau\n\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "GRILL_NOW": DAY1},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Healthy loss curve phases?" in proc.stdout and "1/1" in proc.stdout
    kept = json.loads(runner.invoke(app, ["history", "loss-curve-phases", "--json"]).stdout)
    assert [(r["answer"], r["verdict"]) for r in kept] == [
        ("warmup, steady descent, plateau", "correct")
    ]
